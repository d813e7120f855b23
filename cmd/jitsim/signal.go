package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
)

// This file is how `jitsim run` ends when it is told to stop or when jitsim
// itself is wrong: the shell's exit statuses for SIGINT and SIGTERM, and one
// message for a broken internal invariant.

// Exit statuses beyond flags.ExitStatus (1) and the usage status (2).
const (
	// exitInternal is sysexits.h's EX_SOFTWARE: jitsim found a bug in
	// itself (a panic), not in its input.
	exitInternal = 70
	// exitSignalBase plus a signal's number is the status a shell reports
	// for a process the signal ended (130 for SIGINT, 143 for SIGTERM).
	exitSignalBase = 128
)

// stopSignals are the signals that stop a run after the current iteration.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// signalStop is a context cancelled by the first SIGINT or SIGTERM, with
// the signal kept for the exit status. A second signal ends the process at
// once (a run stuck inside one long call can still be stopped).
type signalStop struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	stderr io.Writer
	done   chan struct{}

	mu  sync.Mutex
	sig os.Signal
}

// notifyStop starts catching stopSignals for a run. Call stop when the run
// is over.
func notifyStop(parent context.Context, stderr io.Writer) *signalStop {
	s := &signalStop{ch: make(chan os.Signal, 2), stderr: stderr, done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(parent)
	signal.Notify(s.ch, stopSignals...)
	go s.watch()
	return s
}

func (s *signalStop) watch() {
	for {
		select {
		case sig := <-s.ch:
			s.mu.Lock()
			first := s.sig == nil
			if first {
				s.sig = sig
			}
			s.mu.Unlock()
			if !first {
				fmt.Fprintf(s.stderr, "jitsim: second %s; exiting now without waiting for the iteration\n", signalName(sig))
				os.Exit(signalStatus(sig))
			}
			s.cancel()
		case <-s.done:
			return
		}
	}
}

// caught returns the first stop signal received, or nil.
func (s *signalStop) caught() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig
}

// stop stops catching signals (the default actions return) and releases
// the context.
func (s *signalStop) stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancel()
}

// signalStatus is the exit status of a run stopped by sig: 128 plus the
// signal number, as a shell reports a process the signal killed.
func signalStatus(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return exitSignalBase + int(n)
	}
	return exitSignalBase + int(syscall.SIGINT)
}

// signalName returns "SIGINT", "SIGTERM", … for the messages.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// guardInternal runs f and returns its status; a panic in f (on this
// goroutine, or carried to it from an application thread or a worker — see
// scenario.ThreadPanic and workerPanics) is a jitsim bug, reported in one message with the command line
// that reproduces it, and status exitInternal instead of Go's stack trace.
// JITSIM_TRACEBACK=1 adds the stack for the bug report.
func guardInternal(repro []string, stderr io.Writer, getenv func(string) (string, bool), f func() int) (status int) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		fmt.Fprintf(stderr, "jitsim: internal error (a jitsim bug): %v — reproduce with: %s\n", r, shellLine(repro))
		if v, _ := getenv("JITSIM_TRACEBACK"); v == "1" {
			// A panic carried from another goroutine (scenario.ThreadPanic,
			// workerPanic) brings the stack where it happened.
			if ps, ok := r.(interface{ PanicStack() []byte }); ok {
				stderr.Write(ps.PanicStack())
			}
			stderr.Write(debug.Stack())
		} else {
			fmt.Fprintln(stderr, "jitsim: set JITSIM_TRACEBACK=1 for the stack trace to attach to the report")
		}
		status = exitInternal
	}()
	return f()
}

// shellLine quotes words for a POSIX shell where they need it.
func shellLine(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=+:,./@%", r))
		}) < 0 {
			b.WriteString(w)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// reproLine rebuilds the `jitsim run` command line of a scenario run from
// what the run was given: jitsim's own options, the VM options as written,
// the scenario and its arguments.
func reproLine(rc runContext, nameOrFile string, args []string) []string {
	r := rc.run
	line := []string{"jitsim", "run"}
	if r.Flags != nil {
		line = append(line, "--jdk="+r.JDK.String())
	}
	if r.CPU.Name != "" {
		line = append(line, "--cpu="+r.CPU.Name)
	}
	if r.Clock != "" {
		line = append(line, "--clock="+r.Clock)
	}
	if r.Threads != 0 {
		line = append(line, fmt.Sprintf("--threads=%d", r.Threads))
	}
	line = append(line, r.Options...)
	line = append(line, nameOrFile)
	return append(line, args...)
}

// stoppedBy returns the signal that stopped a command, or nil when it was
// not stopped. The commands that measure (run, warmup, bench, sweep) check
// it before treating an error as a failure: an error after a stop signal is
// the interruption, and what was measured up to it is still written.
func (s *signalStop) stoppedBy() os.Signal {
	if s.ctx.Err() == nil {
		return nil
	}
	return s.caught()
}

// stoppedLine is the message of a command stopped by sig: "jitsim CMD:
// stopped by SIGINT; WHAT".
func stoppedLine(w io.Writer, cmd string, sig os.Signal, what string) {
	fmt.Fprintf(w, "jitsim %s: stopped by %s; %s\n", cmd, signalName(sig), what)
}

// workerPanic is a panic on a worker goroutine of a command (a sweep cell),
// carried to the command's goroutine so that guardInternal can report it.
type workerPanic struct {
	value any
	stack []byte
}

// Error implements error.
func (p *workerPanic) Error() string {
	return fmt.Sprintf("BUG: worker goroutine panicked: %v", p.value)
}

// PanicStack returns the worker's stack when it panicked.
func (p *workerPanic) PanicStack() []byte { return p.stack }

// workerPanics collects the first panic of a group of worker goroutines;
// each worker defers catch, and the goroutine that waits for them calls
// rethrow after they have ended.
type workerPanics struct {
	mu     sync.Mutex
	first  *workerPanic
	cancel context.CancelFunc // stops the other workers; may be nil
}

// catch recovers a worker's panic (it must be deferred by the worker
// itself), keeps the first, and cancels the group.
func (w *workerPanics) catch() {
	r := recover()
	if r == nil {
		return
	}
	w.mu.Lock()
	if w.first == nil {
		w.first = &workerPanic{value: r, stack: debug.Stack()}
	}
	w.mu.Unlock()
	if w.cancel != nil {
		w.cancel()
	}
}

// rethrow panics with the first worker panic, if there was one, on the
// calling goroutine.
func (w *workerPanics) rethrow() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.first != nil {
		panic(w.first)
	}
}
