package policy

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// TestConcurrent drives one Policy from four application goroutines and
// one compiler goroutine per queue, as the VM will; run it with -race.
// It checks that no task is handed out twice or to the wrong compiler
// (Installed and Failed panic on a second report), and that every method
// got compiled.
func TestConcurrent(t *testing.T) {
	for _, rel := range []jdk.Release{jdk.R8, jdk.R17, jdk.R25} {
		t.Run(rel.String(), func(t *testing.T) {
			p, err := New(cfgOf(t, rel), 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			var events atomic.Int64
			p.SetTrace(func(TieredEvent) { events.Add(1) })
			methods := make([]*Method, 8)
			for i := range methods {
				info := plain
				info.Name = "m" + itoa4(i)
				if i%2 == 1 {
					info = looper
				}
				methods[i] = NewMethod(info)
			}
			var clock atomic.Int64 // model time in ns
			now := func() time.Duration { return time.Duration(clock.Add(100)) }

			var ids, failed sync.Map
			stop := make(chan struct{})
			var compilers sync.WaitGroup
			for _, c := range []Compiler{C1, C2} {
				compilers.Add(1)
				go func(c Compiler) {
					defer compilers.Done()
					for {
						select {
						case <-stop:
							if p.QueueLen(c) == 0 {
								return
							}
						default:
						}
						task := p.Next(c, now())
						if task == nil {
							continue
						}
						if _, dup := ids.LoadOrStore(task.ID, c); dup {
							t.Errorf("id %d handed out twice", task.ID)
						}
						if task.Compiler() != c {
							t.Errorf("%v handed out a %v task", c, task.Compiler())
						}
						if task.ID%7 == 0 {
							failed.Store(task.Method, true)
							p.Failed(task, false, now())
						} else {
							p.Installed(task, now())
						}
					}
				}(c)
			}
			var app sync.WaitGroup
			for g := 0; g < 4; g++ {
				app.Add(1)
				go func(g int) {
					defer app.Done()
					for i := 0; i < 30000; i++ {
						m := methods[(i+g)%len(methods)]
						lvl, _ := p.Level(m)
						p.Invoke(m, lvl, now())
						if m.info.HasLoops {
							for k := 0; k < 8; k++ {
								p.Backedge(m, lvl, 2, now())
							}
						}
					}
				}(g)
			}
			app.Wait()
			close(stop)
			compilers.Wait()
			if events.Load() == 0 && rel.Modern() {
				t.Error("no tiered events")
			}
			// Every method gets compiled. On a loaded machine the compiler
			// goroutines may have been starved until the application ones
			// finished (tasks then go stale in the queue, as in HotSpot), so
			// the check keeps calling each method that has no code yet, now
			// with a compiler turn after every call, as a live VM would.
			compiled := func(m *Method) bool {
				lvl, _ := p.Level(m)
				return lvl != LevelNone || (m.info.HasLoops && p.OSREntry(m, 2, LevelNone) != nil)
			}
			for _, m := range methods {
				for round := 0; round < 100000 && !compiled(m); round++ {
					if _, f := failed.Load(m); f {
						break // a method whose compile failed may not be asked again
					}
					lvl, _ := p.Level(m)
					p.Invoke(m, lvl, now())
					if m.info.HasLoops {
						for k := 0; k < 8; k++ {
							p.Backedge(m, lvl, 2, now())
						}
					}
					for _, c := range []Compiler{C1, C2} {
						if task := p.Next(c, now()); task != nil {
							if task.ID%7 == 0 {
								failed.Store(task.Method, true)
								p.Failed(task, false, now())
							} else {
								p.Installed(task, now())
							}
						}
					}
				}
				if _, f := failed.Load(m); !f && !compiled(m) {
					i, b := m.Counts()
					t.Errorf("%s never compiled (invocations %d, back-edges %d)", m.SigName(), i, b)
				}
			}
		})
	}
}
