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
func script(t *testing.T, jitter *rand.Rand, cores int) string {
	t.Helper()
	s := NewScheduler()
	s.SetCores(cores)
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
	t.Run("cores=all", func(t *testing.T) { schedulerDeterminism(t, 0, "sched_trace.golden") })
	t.Run("cores=2", func(t *testing.T) { schedulerDeterminism(t, 2, "sched_trace_2cores.golden") })
}

func schedulerDeterminism(t *testing.T, cores int, name string) {
	golden := filepath.Join("testdata", name)
	want := script(t, nil, cores)
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
				got := script(t, rand.New(rand.NewPCG(seed, seed*7+1)), cores)
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

// shareRun runs one application thread doing work c (in steps of step)
// beside two compiler jobs of costs j1 and j2 started at time 0, on cores
// processors, and returns the thread's end time and the jobs' completion
// times.
func shareRun(t *testing.T, cores int, c, step, j1, j2 Cost) (end Cost, done []Cost) {
	t.Helper()
	s := NewScheduler()
	s.SetCores(cores)
	var mu sync.Mutex
	jobs := []Cost{j1, j2}
	mk := func(name string, i int) *Pool {
		taken := false
		return s.NewPool(name, 1, func(Cost) (Job, bool) {
			if taken {
				return Job{}, false
			}
			taken = true
			return Job{Name: name, Cost: jobs[i], Done: func(at Cost) {
				mu.Lock()
				done = append(done, at)
				mu.Unlock()
			}}, true
		})
	}
	p1, p2 := mk("c1", 0), mk("c2", 1)
	th := s.NewThread("main", 0)
	s.Enter(th)
	p1.Wake(0)
	p2.Wake(0)
	for left := c; left > 0; left -= step {
		s.Advance(th, min(step, left))
	}
	end = s.Now(th)
	s.Exit(th)
	if err := s.RunUntil(1 << 62); err != nil {
		t.Fatal(err)
	}
	return end, done
}

// TestProcessorSharing checks the share against hand-worked times: one
// application thread and two compiler threads on two cores run at 2/3
// speed while all three run; the first job (100) ends at 150, after which
// the other two run at full speed: the second job (200, 100 done by 150)
// ends at 250 and the thread's 300 ends at 350 — whether it advances in
// one step or many. With a core each nothing stretches.
func TestProcessorSharing(t *testing.T) {
	for _, tc := range []struct {
		cores      int
		step       Cost
		end        Cost
		done1, dn2 Cost
	}{
		{0, 300, 300, 100, 200},
		{3, 300, 300, 100, 200},
		{2, 300, 350, 150, 250},
		{2, 7, 350, 150, 250},
		// One core: three threads at 1/3 until 300 (the first job's end),
		// then two at 1/2: the second job's last 100 ends at 500, the
		// thread's 200 left then at 600.
		{1, 300, 600, 300, 500},
		{1, 1, 600, 300, 500},
	} {
		end, done := shareRun(t, tc.cores, 300, tc.step, 100, 200)
		if end != tc.end || len(done) != 2 || done[0] != tc.done1 || done[1] != tc.dn2 {
			t.Errorf("cores=%d step=%d: thread ends at %d, jobs at %v; want %d and [%d %d]", tc.cores, tc.step, end, done, tc.end, tc.done1, tc.dn2)
		}
	}
}

// TestSleepAndAwaitUseNoProcessor: a sleeping or waiting thread leaves its
// core to the compiler threads, which then run at full speed.
func TestSleepAndAwaitUseNoProcessor(t *testing.T) {
	s := NewScheduler()
	s.SetCores(1)
	var done Cost
	installed := false
	taken := false
	p := s.NewPool("c2", 1, func(Cost) (Job, bool) {
		if taken {
			return Job{}, false
		}
		taken = true
		return Job{Name: "m", Cost: 100, Done: func(at Cost) { done, installed = at, true }}, true
	})
	th := s.NewThread("main", 0)
	s.Enter(th)
	p.Wake(0)
	s.Sleep(th, 40) // the job alone: 40 done by 40
	s.Advance(th, 10)
	// Both share the core for 20: the job is at 50, the thread at 60.
	if got := s.Now(th); got != 60 {
		t.Fatalf("after a sleep of 40 and work of 10 the thread is at %d, want 60", got)
	}
	if err := s.Await(th, func() bool { return installed }); err != nil {
		t.Fatal(err)
	}
	// Awaiting, the thread leaves the job its core: its last 50 end at 110.
	if done != 110 || s.Now(th) != 110 {
		t.Fatalf("job done at %d, thread resumed at %d; want 110 and 110", done, s.Now(th))
	}
	s.Advance(th, 10)
	if got := s.Now(th); got != 120 {
		t.Fatalf("alone again, work of 10 ends at %d, want 120", got)
	}
	s.Exit(th)
}
