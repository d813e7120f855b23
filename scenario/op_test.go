package scenario

import (
	"context"
	"io"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// TestRunBatch runs batches of AESGCMBench's decrypt on two threads with
// every output checked against crypto/cipher, and checks the batches'
// counts, bytes and thread order.
func TestRunBatch(t *testing.T) {
	env := testEnv(t, jdk.R17)
	env.Threads = 2
	s, _ := Lookup("AESGCMBench")
	props := map[string]string{"op": "decrypt", "dataSize": "4096"}
	if got := s.BenchmarkMethod(props); got != "AESGCMBench.decrypt" {
		t.Errorf("BenchmarkMethod = %q", got)
	}
	if got := s.BenchmarkMethod(nil); got != "AESGCMBench.encrypt" {
		t.Errorf("BenchmarkMethod(default op) = %q", got)
	}
	for round := range 3 {
		bs, err := s.RunBatch(context.Background(), env, props, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 2 {
			t.Fatalf("round %d: %d batches, want 2", round, len(bs))
		}
		for i, b := range bs {
			if b.Thread != i || b.Ops != 4 || b.Bytes != 4*4096 || b.Duration <= 0 {
				t.Errorf("round %d: batch %d = %+v", round, i, b)
			}
		}
	}
}

// TestRunBatchErrors checks the refusals name what is wrong.
func TestRunBatchErrors(t *testing.T) {
	env := testEnv(t, jdk.R17)
	gcm, _ := Lookup("AESGCMBench")
	main, _ := Lookup("TestAESMain")
	for _, tc := range []struct {
		name string
		s    Scenario
		env  Env
		n    int
		want string
	}{
		{"not a benchmark", main, env, 1, "not a benchmark scenario"},
		{"no VM", gcm, Env{NewVM: env.NewVM}, 1, "needs the VM"},
		{"empty batch", gcm, env, 0, "a batch of 0"},
		{"bad property", gcm, env, 1, "op="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := map[string]string{}
			if tc.name == "bad property" {
				props["op"] = "sign"
			}
			_, err := tc.s.RunBatch(context.Background(), tc.env, props, tc.n, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestThreadPanicCarried injects a panic into one application thread of a
// four-thread run (through the observer, which runs on the thread) and
// checks that Run re-raises it on the calling goroutine as a *ThreadPanic
// naming that thread and carrying its stack, after the other threads
// stopped, instead of Go ending the process from the thread's goroutine.
// On the model clock the panicking thread still leaves the simulation, so
// the others are not left waiting for its turn.
func TestThreadPanicCarried(t *testing.T) {
	for _, tc := range []struct {
		name, scenario string
		model          bool
		props          map[string]string
		args           []string
	}{
		{"TestAESMain", "TestAESMain", false, map[string]string{"mode": "GCM", "msgSize": "256"}, []string{"1000000", "0"}},
		{"AESGCMBench", "AESGCMBench", false, map[string]string{"dataSize": "256"}, []string{"0", "1000", "10"}},
		{"TestAESMain-model", "TestAESMain", true, map[string]string{"mode": "GCM", "msgSize": "256"}, []string{"1000000", "0"}},
		{"AESGCMBench-model", "AESGCMBench", true, map[string]string{"dataSize": "256"}, []string{"0", "1000", "10"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := testEnv(t, jdk.R17)
			if tc.model {
				cfg, err := ModelConfig(jrt.NewConfig().WithJDK(jdk.R17).WithTiers(tiers.Default()...), "host", "")
				if err != nil {
					t.Fatal(err)
				}
				env = Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, ClockKind: ClockModel, CheckOutput: true}
				if tc.scenario == "AESGCMBench" { // a benchmark keeps its VM between batches
					vm, err := jrt.New(cfg)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { vm.Close() })
					env.VM = vm
				}
			}
			env.Threads = 4
			var mu sync.Mutex
			seen := map[int]int{}
			env.Observer = ObserverFunc(func(it Iteration) {
				mu.Lock()
				seen[it.Thread]++
				n := seen[it.Thread]
				mu.Unlock()
				if it.Thread == 2 && n == 3 {
					panic("BUG: injected on thread 2")
				}
			})
			s, _ := Lookup(tc.scenario)
			before := goruntime.NumGoroutine()
			r := func() (r any) {
				defer func() { r = recover() }()
				err := s.Run(context.Background(), env, tc.props, tc.args, io.Discard)
				t.Errorf("Run returned %v, want a panic", err)
				return nil
			}()
			tp, ok := r.(*ThreadPanic)
			if !ok {
				t.Fatalf("recovered %T %v, want *ThreadPanic", r, r)
			}
			if tp.Thread != 2 || tp.Value != "BUG: injected on thread 2" {
				t.Errorf("ThreadPanic{Thread: %d, Value: %v}", tp.Thread, tp.Value)
			}
			if want := "BUG: application thread 2 panicked: BUG: injected on thread 2"; tp.Error() != want {
				t.Errorf("Error() = %q, want %q", tp.Error(), want)
			}
			if !strings.Contains(string(tp.PanicStack()), "TestThreadPanicCarried") {
				t.Errorf("stack does not show the injecting observer:\n%s", tp.PanicStack())
			}
			// Every thread has ended when the panic is re-raised: no
			// application thread outlives Run.
			// The runtime's cleanup and finalizer goroutines count while
			// they run user code (a Java heap owner's release, an
			// os.File's close): give them a moment to finish.
			after := goruntime.NumGoroutine()
			for deadline := time.Now().Add(time.Second); after > before && time.Now().Before(deadline); after = goruntime.NumGoroutine() {
				time.Sleep(5 * time.Millisecond)
			}
			if after > before {
				t.Errorf("goroutines %d before Run, %d after", before, after)
			}
		})
	}
}
