package model

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// script is a small VM-shaped event script: app threads call "methods"
// whose cost depends on the code installed so far, submit compiles at
// invocation thresholds, and one thread waits for a blocking compile.
// jitter perturbs goroutine timing (sleeps and yields) without touching
// virtual time; the trace must not change.
func script(t *testing.T, jitter *rand.Rand) string {
	t.Helper()
	s := NewScheduler()
	var mu sync.Mutex // guards lines and the fake VM state below
	var lines []string
	s.SetTrace(func(l string) { lines = append(lines, l) })
	logf := func(format string, a ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(format, a...))
		mu.Unlock()
	}
	wiggle := func() {
		if jitter == nil {
			return
		}
		mu.Lock()
		n := jitter.IntN(4)
		mu.Unlock()
		switch n {
		case 0:
			goruntime.Gosched()
		case 1:
			time.Sleep(time.Duration(n) * 10 * time.Microsecond)
		}
	}

	// The fake VM: per-method level, compile queues picked by highest
	// count (policy.Next's shape), installs on Done.
	type task struct {
		method string
		level  int
		count  int
	}
	level := map[string]int{}
	queued := map[string]bool{}
	count := map[string]int{}
	var q1, q2 []task
	pick := func(q *[]task) (task, bool) {
		if len(*q) == 0 {
			return task{}, false
		}
		i := 0
		for j, tk := range *q {
			if tk.count > (*q)[i].count {
				i = j
			}
		}
		tk := (*q)[i]
		*q = slices.Delete(*q, i, i+1)
		return tk, true
	}
	job := func(tk task) Job {
		return Job{
			Name:  fmt.Sprintf("%s@%d", tk.method, tk.level),
			Cost:  Cost(int64(len(tk.method)*1000+tk.level*50_000) * 1000),
			Start: func(at Cost) { logf("%s compile-start %s@%d", at, tk.method, tk.level) },
			Done: func(at Cost) {
				level[tk.method] = tk.level
				queued[tk.method] = false
				logf("%s installed %s@%d", at, tk.method, tk.level)
			},
		}
	}
	c1 := s.NewPool("c1", 1, func(at Cost) (Job, bool) {
		tk, ok := pick(&q1)
		if !ok {
			return Job{}, false
		}
		return job(tk), true
	})
	c2 := s.NewPool("c2", 2, func(at Cost) (Job, bool) {
		tk, ok := pick(&q2)
		if !ok {
			return Job{}, false
		}
		return job(tk), true
	})
	perByte := []Cost{900_000, 30_000, 25_000, 40_000, 15_000} // ps per byte at levels 0..4

	call := func(th ThreadID, name string, m string, n int) {
		count[m]++
		c := count[m]
		lv := level[m]
		if !queued[m] {
			switch {
			case lv == 0 && c >= 20:
				queued[m] = true
				q1 = append(q1, task{m, 3, c})
				c1.Wake(s.Now(th))
			case lv == 3 && c >= 60:
				queued[m] = true
				q2 = append(q2, task{m, 4, c})
				c2.Wake(s.Now(th))
			}
		}
		logf("%s %s call %s@%d n=%d", s.Now(th), name, m, lv, n)
		s.Advance(th, perByte[lv]*Cost(n)+2_000)
	}

	var wg sync.WaitGroup
	// Every thread is registered before any goroutine starts: a thread
	// registered later could find another already past its start time.
	var starts []func()
	run := func(name string, start Cost, methods []string, calls int, blocking bool) {
		th := s.NewThread(name, start)
		wg.Add(1)
		starts = append(starts, func() {
			go func() {
				defer wg.Done()
				wiggle()
				s.Enter(th)
				for i := range calls {
					wiggle()
					m := methods[i%len(methods)]
					call(th, name, m, 16*(1+i%7))
					if blocking && i == calls/2 {
						q2 = append(q2, task{"Blocking.m", 4, 1 << 20})
						queued["Blocking.m"] = true
						c2.Wake(s.Now(th))
						if err := s.Await(th, func() bool { return level["Blocking.m"] == 4 }); err != nil {
							t.Error(err)
						}
						logf("%s %s resumed after blocking compile", s.Now(th), name)
					}
				}
				s.Exit(th)
			}()
		})
	}
	run("main", 0, []string{"AESCrypt.implEncryptBlock", "GHASH.processBlocks"}, 150, false)
	run("worker-1", 5_000_000, []string{"CounterMode.implCrypt", "AESCrypt.implEncryptBlock"}, 120, true)
	run("worker-2", 5_000_000, []string{"GHASH.processBlocks"}, 100, false)
	for _, start := range starts {
		start()
	}
	wg.Wait()
	if err := s.RunUntil(1 << 62); err != nil {
		t.Fatal(err)
	}
	if s.Pending() != 0 {
		t.Fatalf("%d events left after RunUntil", s.Pending())
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestSchedulerDeterminism runs the same script with GOMAXPROCS 1 and 2
// and with goroutine-timing jitter, and demands byte-identical traces,
// equal to the committed golden trace (so equal on every machine). Run it
// under -race too (see docs/model.md).
func TestSchedulerDeterminism(t *testing.T) {
	golden := filepath.Join("testdata", "sched_trace.golden")
	want := script(t, nil)
	if *update {
		if err := os.WriteFile(golden, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(g) != want {
		t.Fatalf("trace differs from %s:\n%s", golden, firstDiff(string(g), want))
	}
	prev := goruntime.GOMAXPROCS(0)
	defer goruntime.GOMAXPROCS(prev)
	for _, procs := range []int{1, 2} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("GOMAXPROCS=%d/jitter=%d", procs, seed), func(t *testing.T) {
				goruntime.GOMAXPROCS(procs)
				got := script(t, rand.New(rand.NewPCG(seed, seed*7+1)))
				if got != want {
					t.Fatalf("trace differs from the reference run:\n%s", firstDiff(want, got))
				}
			})
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n want %q\n got  %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths differ: %d vs %d lines", len(al), len(bl))
}

// TestSchedulerInstallAtPassingTime checks that code installed by a
// compile finishing at T is seen by the first piece of work that starts
// at or after T, and not before.
func TestSchedulerInstallAtPassingTime(t *testing.T) {
	tests := []struct {
		name      string
		steps     []Cost
		doneAt    Cost
		wantFirst int // index of the first step that sees the install
	}{
		{"exactly at a step boundary", []Cost{10, 10, 10, 10}, 20, 2},
		{"inside a step", []Cost{10, 10, 10, 10}, 15, 2},
		{"before the first step", []Cost{10, 10}, 0, 0},
		{"never", []Cost{10, 10}, 100, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScheduler()
			installed := false
			s.Post(tc.doneAt, "install", func(Cost) { installed = true })
			th := s.NewThread("main", 0)
			s.Enter(th)
			first := -1
			for i, c := range tc.steps {
				if installed && first < 0 {
					first = i
				}
				s.Advance(th, c)
			}
			s.Exit(th)
			if first != tc.wantFirst {
				t.Errorf("first step seeing the install = %d, want %d", first, tc.wantFirst)
			}
		})
	}
}

// TestSchedulerTurnOrder checks that threads run in (time, id) order.
func TestSchedulerTurnOrder(t *testing.T) {
	s := NewScheduler()
	var order []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	costs := map[string][]Cost{"a": {5, 5, 5}, "b": {3, 3, 3, 3, 3}}
	for _, name := range []string{"a", "b"} {
		th := s.NewThread(name, 0)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Enter(th)
			for _, c := range costs[name] {
				mu.Lock()
				order = append(order, fmt.Sprintf("%s@%d", name, s.Now(th)))
				mu.Unlock()
				s.Advance(th, c)
			}
			s.Exit(th)
		}()
	}
	wg.Wait()
	want := "a@0 b@0 b@3 a@5 b@6 b@9 a@10 b@12"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("order = %s\nwant    %s", got, want)
	}
}

func TestAwaitDeadlock(t *testing.T) {
	s := NewScheduler()
	th := s.NewThread("main", 0)
	s.Enter(th)
	if err := s.Await(th, func() bool { return false }); err != ErrDeadlock {
		t.Errorf("Await with nothing pending = %v, want ErrDeadlock", err)
	}
	s.Exit(th)
}
