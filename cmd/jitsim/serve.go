package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/serve"
	"github.com/jitsim/jitsim/warmup"
)

// newServeCommand is `jitsim serve`: the teaching playground on a local web server.
func (d deps) newServeCommand(status *int) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Serve the teaching playground: a command line becomes its output, dispatch trees and warm-up curve",
		Long: `Serve starts a local web page where a java command line (release, named CPU model, VM options,
a scenario at small sizes) runs on the model clock, and the page shows what 'jitsim run' prints
for it (option errors and warnings, the scenario's output, PrintCompilation, PrintInlining),
'jitsim explain' for every intrinsic, the warm-up curve with its tier lanes, and two command lines
side by side with their ratio. A permalink reproduces the page. Requests read and write no files.
It listens on the loopback interface unless --addr says otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			*status = d.serve(addr, cmd.ErrOrStderr())
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port)")
	return cmd
}

// serve listens on addr until SIGINT or SIGTERM and returns the exit status.
func (d deps) serve(addr string, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "jitsim serve: --addr=%s: %v\n", addr, err)
		return 2
	}
	if !loopback(ln.Addr()) {
		fmt.Fprintf(stderr, "jitsim serve: warning: listening on %s, which is not a loopback address: anyone who reaches it can run the playground's work on this machine\n", ln.Addr())
	}
	srv := &http.Server{Handler: d.playground(serve.Config{}), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(stderr, "jitsim serve: the playground is at http://%s/ (Ctrl+C stops it)\n", ln.Addr())
	select {
	case err := <-done:
		fmt.Fprintln(stderr, "jitsim serve:", err)
		return 1
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		fmt.Fprintln(stderr, "jitsim serve:", err)
	}
	return 0
}

// loopback reports whether a listener's address is a loopback address.
func loopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// playground is the playground's handler on d's packages.
func (d deps) playground(cfg serve.Config) http.Handler {
	cfg.Version, cfg.Engine = Version, playEngine{d}
	return serve.New(cfg)
}

// playEngine runs the playground's command lines through `jitsim run`'s and `jitsim
// explain`'s own code, on the model clock, with an empty environment.
type playEngine struct{ d deps }

func emptyEnv(string) (string, bool) { return "", false }

func (e playEngine) Scenarios() []string { return e.d.scenarios.Names() }

// Run runs c as `jitsim run --clock=model --jdk=… --cpu=… ARGV` does, with the VM's
// diagnostic output kept apart from the rest of stdout (both in Stdout, in order).
func (e playEngine) Run(ctx context.Context, c serve.Command, caps serve.Caps) serve.Output {
	var p panes
	stdout, tty, stderr := p.writer(&p.program), p.writer(&p.tty), &lockedWriter{mu: &p.mu, w: &p.stderr}
	split, err := splitRunArgs(c.Argv)
	threads, terr := ownThreads(split.own)
	if err == nil {
		err = terr
	}
	if err != nil {
		fmt.Fprintln(stderr, "jitsim run:", err)
		return p.output(2, nil)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rec := &cappedRecorder{caps: caps, stop: cancel}
	o := runOpts{jdk: c.Release, cpu: c.CPU, clock: setup.ClockModel, threads: threads,
		given: map[string]bool{"jdk": true, "cpu": true, "clock": true, "threads": threads != 0}, ctx: ctx, tty: tty, observer: rec}
	status := guardInternal(serve.CLILine(c), stderr, emptyEnv, func() int {
		return e.d.runVM(split, o, emptyEnv, stdout, stderr)
	})
	var series *warmup.Run
	if rec.vm != nil {
		rel, _ := jdk.Parse(c.Release)
		m, _ := e.d.resolveCPU(c.CPU)
		spec := &vmSpec{Run: &setup.Run{Request: setup.Request{JDK: rel, CPU: m, Options: split.vm, Clock: setup.ClockModel}}}
		r := rec.run("", 0, split.scenario, spec)
		series = &r
	}
	return p.output(status, series)
}

// ownThreads reads --threads=N (or --threads N), the one jitsim option a playground command
// line may carry.
func ownThreads(own []string) (int, error) {
	n := 0
	for i := 0; i < len(own); i++ {
		v, ok := strings.CutPrefix(own[i], "--threads=")
		if own[i] == "--threads" && i+1 < len(own) {
			i++
			v, ok = own[i], true
		}
		if !ok {
			return 0, fmt.Errorf("%s: not an option of the playground", own[i])
		}
		t, err := strconv.Atoi(v)
		if err != nil || t < 0 {
			return 0, fmt.Errorf("--threads: %q is not a thread count", v)
		}
		n = t
	}
	return n, nil
}

// Explain returns `jitsim explain`'s tree and document of every intrinsic for c's release,
// CPU model and VM options; an option error is an error (the run shows it). A panic is a
// jitsim bug, reported as `jitsim explain` reports one.
func (e playEngine) Explain(c serve.Command) (trees []serve.Explained, err error) {
	var bug bytes.Buffer
	line := append([]string{"jitsim", "explain", "--jdk=" + c.Release, "--cpu=" + c.CPU}, c.Argv...)
	if guardInternal(line, &bug, emptyEnv, func() int { trees, err = e.explainAll(c); return 0 }) != 0 {
		return nil, errors.New(strings.TrimSpace(bug.String()))
	}
	return trees, err
}

// explainAll is Explain without the guard.
func (e playEngine) explainAll(c serve.Command) ([]serve.Explained, error) {
	split, err := splitRunArgs(c.Argv)
	if err != nil {
		return nil, err
	}
	rel, err := jdk.Parse(c.Release)
	if err != nil {
		return nil, err
	}
	m, err := e.d.resolveCPU(c.CPU)
	if err != nil {
		return nil, err
	}
	vm, _ := e.d.explainVM(rel, m, split.vm, emptyEnv, io.Discard)
	if vm == nil {
		return nil, errors.New("the VM options do not start a VM")
	}
	defer vm.Close()
	var out []serve.Explained
	for _, id := range jrt.Intrinsics() {
		name := id.Row().HotSpotName
		ex, err := explainName(vm, name, m.Name)
		if err != nil {
			return nil, err
		}
		var tree bytes.Buffer
		if err := writeTree(&tree, ex); err != nil {
			return nil, err
		}
		doc, err := json.Marshal(ex)
		if err != nil {
			return nil, err
		}
		out = append(out, serve.Explained{Intrinsic: name, Tree: tree.String(), Doc: doc})
	}
	return out, nil
}

// panes collect one run's streams: stdout whole and split (the VM's tty apart from the
// rest), and stderr.
type panes struct {
	mu                           sync.Mutex
	stdout, program, tty, stderr bytes.Buffer
}

// writer writes to stdout and to one of its parts, under the panes' lock, so stdout keeps
// java's interleaving.
func (p *panes) writer(part *bytes.Buffer) io.Writer {
	return &lockedWriter{mu: &p.mu, w: io.MultiWriter(&p.stdout, part)}
}

func (p *panes) output(status int, series *warmup.Run) serve.Output {
	p.mu.Lock()
	defer p.mu.Unlock()
	return serve.Output{Status: status, Stdout: p.stdout.String(), Stderr: p.stderr.String(), Program: p.program.String(),
		TTY: p.tty.String(), Series: series}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// cappedRecorder records a run's series and stops the run at the first iteration past the
// playground's work caps: payload bytes (iterations × size, every thread) and simulated time.
type cappedRecorder struct {
	seriesRecorder
	caps  serve.Caps
	stop  context.CancelCauseFunc
	bytes atomic.Int64
}

// Iteration implements scenario.Observer.
func (c *cappedRecorder) Iteration(it scenario.Iteration) {
	c.seriesRecorder.Iteration(it)
	if n := c.bytes.Add(it.Bytes); n > c.caps.MaxBytes {
		c.stop(fmt.Errorf("the playground's work cap of %d payload bytes (iterations × size)", c.caps.MaxBytes))
	}
	if end := it.Start + it.Duration; end > c.caps.MaxSimulated {
		c.stop(fmt.Errorf("the playground's cap of %s of simulated time", c.caps.MaxSimulated))
	}
}
