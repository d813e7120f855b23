package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/jce"
)

// A benchmark scenario (AESGCMBench, AESGCMUpdateAAD, CBCThroughput) has
// one operation — the JMH @Benchmark method its "op" property picks, e.g.
// AESGCMBench's encrypt: init plus doFinal of dataSize bytes — and runs it
// in timed batches on every application thread. The harness of
// `jitsim bench` builds JMH's iterations from such batches: RunBatch runs
// one batch on a VM that stays warm between calls, so an iteration can be a
// fixed number of operations or as many batches as fit in its time.

// IsBenchmark reports whether s is a benchmark scenario, one whose
// positional arguments are [warmupIterations] [iterations] [opsPerIteration].
func (s Scenario) IsBenchmark() bool { return strings.HasPrefix(s.Args, benchArgs) }

// BenchmarkMethod is the benchmark method the properties select: the
// scenario name and its "op" property ("AESGCMBench.encrypt"), or the name
// alone when the scenario has no op property; a workload file's is
// "Workload.NAME".
func (s Scenario) BenchmarkMethod(props map[string]string) string {
	if s.benchName != "" {
		return s.benchName
	}
	p, ok := s.Prop("op")
	if !ok {
		return s.Name
	}
	op := p.Default
	if v, set := props["op"]; set {
		op = v
	}
	return s.Name + "." + op
}

// Batch is what one application thread did in one batch.
type Batch struct {
	Thread   int
	Start    time.Duration // on the run's clock
	Duration time.Duration
	Ops      int64
	Bytes    int64
}

// RunBatch runs one batch of n operations per application thread of the
// benchmark scenario s on env (env.VM must be set, so that the VM's
// counters and code carry over from batch to batch) and returns one Batch
// per thread, ordered by thread. Each call sets the benchmark up again (new
// cipher objects, as a JMH @Setup(Level.Iteration) would): that work runs
// outside the timed batch. env.Observer, when set, also sees the batch.
func (s Scenario) RunBatch(ctx context.Context, env Env, props map[string]string, n int, stdout io.Writer) ([]Batch, error) {
	if !s.IsBenchmark() {
		return nil, fmt.Errorf("scenario: %s is not a benchmark scenario (its arguments are %s)", s.Name, s.Args)
	}
	if env.VM == nil {
		return nil, fmt.Errorf("scenario: %s: RunBatch needs the VM to keep between batches (Env.VM)", s.Name)
	}
	if n < 1 {
		return nil, fmt.Errorf("scenario: %s: a batch of %d operations", s.Name, n)
	}
	var mu sync.Mutex
	var out []Batch
	next := env.Observer
	env.Observer = ObserverFunc(func(it Iteration) {
		mu.Lock()
		out = append(out, Batch{Thread: it.Thread, Start: it.Start, Duration: it.Duration, Ops: it.Ops, Bytes: it.Bytes})
		mu.Unlock()
		if next != nil {
			next.Iteration(it)
		}
	})
	if err := s.Run(ctx, env, props, []string{"0", "1", strconv.Itoa(n)}, stdout); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Thread < out[j].Thread })
	return out, nil
}

// ThreadPanic is a panic on an application thread, caught on that thread's
// goroutine and carried to the goroutine that started the threads. Go
// cannot recover a panic from another goroutine, so without this a broken
// invariant inside one thread of a --threads run would end the process with
// Go's trace instead of jitsim's internal-error report. It is a jitsim bug,
// never an outcome of the scenario's input.
type ThreadPanic struct {
	Thread int    // the application thread's index (0 is "main")
	Value  any    // what the thread panicked with
	Stack  []byte // the thread's stack when it panicked
}

// Error implements error: "BUG: application thread N panicked: VALUE".
func (p *ThreadPanic) Error() string {
	return fmt.Sprintf("BUG: application thread %d panicked: %v", p.Thread, p.Value)
}

// PanicStack returns the stack of the panicking thread, for the bug report
// (cmd/jitsim prints it with JITSIM_TRACEBACK=1).
func (p *ThreadPanic) PanicStack() []byte { return p.Stack }

// recoverThreads wraps the body of an application thread so that a panic in
// it returns a *ThreadPanic error on that thread instead of ending the
// process; the runner then cancels the other threads as for any failing
// thread, and rethrowThreadPanic raises the panic again where it can be
// recovered.
func recoverThreads(body func(ctx context.Context, id int, inv jce.Invoker) error) func(ctx context.Context, id int, inv jce.Invoker) error {
	return func(ctx context.Context, id int, inv jce.Invoker) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &ThreadPanic{Thread: id, Value: r, Stack: debug.Stack()}
			}
		}()
		return body(ctx, id, inv)
	}
}

// rethrowThreadPanic panics, on the calling goroutine, with the first
// *ThreadPanic among the threads' errors (lowest thread first), once every
// thread has ended. A caller that recovers panics (cmd/jitsim's guard)
// turns it into the internal-error report with exit status 70.
func rethrowThreadPanic(errs []error) {
	for _, err := range errs {
		var tp *ThreadPanic
		if errors.As(err, &tp) {
			panic(tp)
		}
	}
}
