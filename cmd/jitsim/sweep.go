package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/sweep"
)

const sweepLongText = `Run a matrix of short scenario runs: option sets × CPU models × sizes × JDK profiles.

  jitsim sweep FILE [--shard I/N] [--out DIR] [--jobs N] [--clock wall|model]
  jitsim sweep merge [--out DIR] DIR…

FILE is TOML:

  name = "GCM across JDKs"
  scenario = "AESGCMBench"
  args = ["0", "2", "2"]             # the scenario's arguments: keep cells short
  props = { op = "encrypt" }          # -D properties of every cell
  size_property = "dataSize"
  sizes = [16, 1024, 16384]
  jdks = [JDKS]
  cpus = ["host"]
  options = ["", "-Xint", "-XX:TieredStopAtLevel=1"]

Every cell is a fresh VM running the scenario with checkOutput=true (every output checked
against crypto/cipher); --jobs cells run at once (default: every local core). --shard I/N runs
every N-th cell by sorted id starting at the I-th, so N machines can split a sweep; 'sweep merge' joins
their directories into what one unsharded run writes (cells, statuses, operations and bytes;
timings differ run to run on the wall clock). --clock=model runs every cell on the model clock:
any CPU model runs (arm64 ones too, on any host) and timings repeat; shards of one sweep must
share the clock, and merging one shard twice is an error. Writes DIR/sweep.json and DIR/sweep.csv (default sweep-out, or
sweep-out-I-of-N for a shard; merge: sweep-merged).`

// sweepLong is the help text; its example sweeps every release from 8u on.
var sweepLong = strings.Replace(sweepLongText, "JDKS", `"`+strings.Join(jdk.Names()[1:], `", "`)+`"`, 1)

func (d deps) newSweepCommand(getenv func(string) (string, bool), status *int) *cobra.Command {
	return &cobra.Command{
		Use:                "sweep FILE [--shard I/N] [--out DIR] [--jobs N] [--clock wall|model] | sweep merge [--out DIR] DIR…",
		Short:              "Run a matrix of scenario runs (sharded), or merge shard outputs",
		Long:               sweepLong,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			*status = d.runSweep(args, getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
}

// runSweep is `jitsim sweep`; it returns the exit status.
func (d deps) runSweep(args []string, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "jitsim sweep: "+format+"\n", a...)
		return code
	}
	// Options may come before, between or after the words (FILE, or
	// "merge" and the directories).
	o := ownOpts{vals: map[string][]string{}}
	var words []string
	for rest := args; ; {
		part, err := splitOwn(rest, map[string]bool{"shard": true, "out": true, "jobs": true, "clock": true}, nil)
		if err != nil {
			return fail(2, "%v", err)
		}
		for k, v := range part.vals {
			o.vals[k] = append(o.vals[k], v...)
		}
		o.vm = append(o.vm, part.vm...)
		o.help = o.help || part.help
		if part.scenario == "" {
			break
		}
		words = append(words, part.scenario)
		rest = part.rest
	}
	if len(words) > 0 {
		o.scenario, o.rest = words[0], words[1:]
	}
	if o.help {
		fmt.Fprintln(stdout, sweepLong)
		return 0
	}
	if len(o.vm) > 0 {
		return fail(2, "VM options belong in the sweep file's options axis, not on the command line (%s)", strings.Join(o.vm, " "))
	}
	if o.scenario == "merge" {
		return sweepMerge(o, stdout, fail)
	}
	if o.scenario == "" {
		return fail(2, "no sweep file given")
	}
	if len(o.rest) > 0 {
		return fail(2, "unexpected arguments after %s: %s", o.scenario, strings.Join(o.rest, " "))
	}
	clock := o.last("clock", setup.ClockWall)
	if clock != setup.ClockWall && clock != setup.ClockModel {
		return fail(2, "--clock=%s: want wall or model", clock)
	}
	plan, sum, err := sweep.Load(o.scenario)
	if err != nil {
		return fail(1, "%v", err)
	}
	// A workload file named by the plan is found beside the plan.
	name := plan.Scenario
	if _, ok := scenario.Lookup(name); !ok && !filepath.IsAbs(name) {
		if beside := filepath.Join(filepath.Dir(o.scenario), name); fileExists(beside) {
			name = beside
		}
	}
	scen, err := scenario.Find(name)
	if err != nil {
		return fail(1, "%s: %v", o.scenario, err)
	}
	if plan.SizeProperty != "" {
		if _, ok := scen.Prop(plan.SizeProperty); !ok {
			return fail(1, "%s: size_property %q is not a property of %s", o.scenario, plan.SizeProperty, scen.Name)
		}
	}
	for _, c := range plan.CPUs {
		if _, err := d.lookupCPU(c); err != nil {
			return fail(1, "%s: cpus: %v", o.scenario, err)
		}
	}
	for _, j := range plan.JDKs {
		if _, err := jdk.Parse(j); err != nil {
			return fail(1, "%s: jdks: %v", o.scenario, err)
		}
	}
	shard := sweep.All
	if s := o.last("shard", ""); s != "" {
		if shard, err = sweep.ParseShard(s); err != nil {
			return fail(2, "%v", err)
		}
	}
	jobs, err := o.intOpt("jobs", goruntime.NumCPU(), 1)
	if err != nil {
		return fail(2, "%v", err)
	}
	dir := o.last("out", "sweep-out")
	if !o.has("out") && shard != sweep.All {
		dir = fmt.Sprintf("sweep-out-%d-of-%d", shard.I, shard.N)
	}
	cells := shard.Cells(plan)
	sig := notifyStop(context.Background(), stderr)
	defer sig.stop()
	prog := newProgress(stderr, getenv)
	results := d.runCells(sig.ctx, scen, plan, cells, clock, jobs, getenv, prog)
	prog.wait()
	out := sweep.Output{Name: plan.Name, Scenario: plan.Scenario, PlanSHA256: sum, Shards: []string{shard.String()},
		PlanCells: len(plan.Cells()), Clock: clock, Cells: results}
	if err := sweep.Write(dir, out); err != nil {
		return fail(1, "%v", err)
	}
	missing := "other shards"
	stopped := sig.stoppedBy()
	if stopped != nil {
		missing = "stopped by " + signalName(stopped) + "; run the shard again and merge"
	}
	status := sweepSummary(stdout, out, dir, missing)
	if s := stopped; s != nil {
		// The completed cells are written; a re-run of the same shard
		// merges with them (sweep merge) and Missing counts the rest.
		stoppedLine(stderr, "sweep", s, fmt.Sprintf("%d of %d cells completed and written to %s", len(results), len(cells), dir))
		return signalStatus(s)
	}
	return status
}

// runCells runs cells on jobs workers and returns the results of the
// completed cells in cell order. After a stop signal (ctx cancelled) no new
// cell starts and a cell cut short is left out, so every result returned is
// a whole cell's outcome. A panic in a worker is carried to the caller's
// goroutine (workerPanics) after every worker has ended.
func (d deps) runCells(ctx context.Context, scen scenario.Scenario, plan *sweep.Plan, cells []sweep.Cell, clock string, jobs int,
	getenv func(string) (string, bool), prog *progress) []sweep.Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	panics := &workerPanics{cancel: cancel}
	results := make([]sweep.Result, len(cells))
	complete := make([]bool, len(cells))
	bar := prog.bar("cells", len(cells))
	defer bar.done()
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(cells), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer panics.catch()
			for i := range next {
				results[i] = d.runCell(ctx, scen, plan, cells[i], clock, getenv)
				// An error while ctx is cancelled may be the cancellation.
				complete[i] = results[i].Status == "ok" || ctx.Err() == nil
				bar.inc()
			}
		}()
	}
feed:
	for i := range cells {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	panics.rethrow()
	var done []sweep.Result
	for i, r := range results {
		if complete[i] {
			done = append(done, r)
		}
	}
	return done
}

// runCell runs one cell on a fresh VM with every output checked against
// crypto/cipher. A failure is the cell's outcome, not the sweep's.
func (d deps) runCell(ctx context.Context, scen scenario.Scenario, plan *sweep.Plan, c sweep.Cell, clock string, getenv func(string) (string, bool)) sweep.Result {
	r := sweep.Result{Cell: c, Status: "ok"}
	failed := func(err error) sweep.Result {
		r.Status, r.Error, r.Iterations, r.Ops, r.Bytes, r.Verified, r.DurationNS = "error", err.Error(), 0, 0, 0, false, 0
		return r
	}
	rel, err := jdk.Parse(c.JDK)
	if err != nil {
		return failed(err)
	}
	// Ergonomics warnings are the same for every run of a cell; they are
	// not part of its outcome.
	spec, err := d.settleOn(clock, "", optionLabel(strings.Fields(c.Options)), rel, c.CPU, strings.Fields(c.Options), getenv, io.Discard)
	if err != nil {
		return failed(err)
	}
	props := scenario.PropsFrom(spec.Result.Properties)
	for k, v := range plan.Props {
		props[k] = v
	}
	if plan.SizeProperty != "" {
		props[plan.SizeProperty] = strconv.Itoa(c.Size)
	}
	vmClock := spec.NewClock()
	vm, err := spec.NewVM(vmClock, io.Discard)
	if err != nil {
		return failed(err)
	}
	defer vm.Close()
	var mu sync.Mutex
	obs := scenario.ObserverFunc(func(it scenario.Iteration) {
		mu.Lock()
		r.Iterations++
		r.Ops += it.Ops
		r.Bytes += it.Bytes
		r.DurationNS += it.Duration.Nanoseconds()
		mu.Unlock()
	})
	env := scenario.Env{VM: vm, Threads: 0, Clock: vmClock, ClockKind: spec.Clock, Observer: obs, CheckOutput: true}
	if err := scen.Run(ctx, env, props, plan.Args, io.Discard); err != nil {
		var je *jce.JavaException
		if errors.As(err, &je) {
			return failed(fmt.Errorf("java exception: %s", je.Error()))
		}
		return failed(err)
	}
	r.Verified = true
	return r
}

// sweepMerge is `jitsim sweep merge DIR…`.
func sweepMerge(o ownOpts, stdout io.Writer, fail func(int, string, ...any) int) int {
	dirs := o.rest
	if len(dirs) == 0 {
		return fail(2, "merge: no directories given")
	}
	var outs []sweep.Output
	for _, d := range dirs {
		out, err := sweep.Read(d)
		if err != nil {
			return fail(1, "merge: %v", err)
		}
		outs = append(outs, out)
	}
	m, err := sweep.Merge(outs)
	if err != nil {
		return fail(1, "%v", err)
	}
	dir := o.last("out", "sweep-merged")
	if err := sweep.Write(dir, m); err != nil {
		return fail(1, "%v", err)
	}
	return sweepSummary(stdout, m, dir, "other shards")
}

// sweepSummary prints the cell table and how many cells are missing and
// why; the status is 1 when a cell failed.
func sweepSummary(w io.Writer, o sweep.Output, dir, missing string) int {
	width := len("cell")
	for _, r := range o.Cells {
		width = max(width, len(r.ID))
	}
	fmt.Fprintf(w, "%-*s  %-6s  %6s  %12s  %8s  %12s\n", width, "cell", "status", "ops", "bytes", "verified", "ns/op")
	failed := 0
	for _, r := range o.Cells {
		perOp := "-"
		if r.Ops > 0 {
			perOp = strconv.FormatInt(r.DurationNS/r.Ops, 10)
		}
		fmt.Fprintf(w, "%-*s  %-6s  %6d  %12d  %8t  %12s\n", width, r.ID, r.Status, r.Ops, r.Bytes, r.Verified, perOp)
		if r.Status != "ok" {
			failed++
			fmt.Fprintf(w, "%*s  %s\n", width, "", r.Error)
		}
	}
	fmt.Fprintf(w, "\n%d of %d cells (shards %s), %d failed; wrote %s\n", len(o.Cells), o.PlanCells,
		strings.Join(o.Shards, ", "), failed, dir)
	if m := o.Missing(); m > 0 {
		fmt.Fprintf(w, "%d cells not run here (%s)\n", m, missing)
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// fileExists reports whether path names a file (not a directory).
func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
