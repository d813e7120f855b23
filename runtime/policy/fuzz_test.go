package policy

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// checkInvariants verifies the policy's bookkeeping; handed are the tasks
// Next returned that were not reported yet.
func (p *Policy) checkInvariants(methods []*Method, handed []*Task) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	inQueue := map[*Task]bool{}
	for c, q := range p.queues {
		for _, t := range q {
			if t.done {
				return fmt.Errorf("finished task %d still queued", t.ID)
			}
			if t.Method.queued != t {
				return fmt.Errorf("queued task %d not the method's queued task", t.ID)
			}
			if compilerFor(t.Level) != Compiler(c) {
				return fmt.Errorf("level-%d task %d in the %v queue", t.Level, t.ID, Compiler(c))
			}
			inQueue[t] = true
		}
	}
	top := p.highestCompileLevel()
	if p.cfg.legacy() {
		top = LevelFullOptimization
	}
	for _, m := range methods {
		if q := m.queued; q != nil && !inQueue[q] && !slices.Contains(handed, q) {
			return fmt.Errorf("%s marked queued for a task nobody holds", m.SigName())
		}
		if m.code != nil {
			if !m.code.entrant {
				return fmt.Errorf("%s: installed code not entrant", m.SigName())
			}
			if m.code.Level < LevelSimple || m.code.Level > top {
				return fmt.Errorf("%s: code at level %d, highest allowed %d", m.SigName(), m.code.Level, top)
			}
			if m.highest < m.code.Level {
				return fmt.Errorf("%s: highest level %d below code level %d", m.SigName(), m.highest, m.code.Level)
			}
		}
		want := LevelNone
		for _, c := range m.osr {
			if c.entrant {
				want = max(want, c.Level)
			}
		}
		if want != m.highestOSR {
			return fmt.Errorf("%s: highest OSR level %d, live OSR code says %d", m.SigName(), m.highestOSR, want)
		}
	}
	return nil
}

// FuzzPolicy runs random sequences of calls, back-edges, compiler-thread
// picks, installs, failures, deopts and clock jumps under random
// configurations and checks the bookkeeping after every step. Seeds are in
// testdata/fuzz/FuzzPolicy.
func FuzzPolicy(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 2, 4, 3, 4, 1, 1, 1, 6, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		sel := data[0]
		rel := []jdk.Release{jdk.R8, jdk.R17, jdk.R25}[int(sel)%3]
		var args []string
		switch sel / 3 % 6 {
		case 1:
			args = []string{"-XX:-BackgroundCompilation"}
		case 2:
			args = []string{"-XX:-TieredCompilation"}
		case 3:
			args = []string{fmt.Sprintf("-XX:TieredStopAtLevel=%d", sel/18%4)}
		case 4:
			args = []string{"-Xcomp"}
		case 5:
			args = []string{"-XX:Tier3InvocationThreshold=3", "-XX:Tier4InvocationThreshold=7"}
		}
		cfg := cfgOf(t, rel, args...)
		cfg.CICompilerCount = 0 // the per-CPU count
		c1, c2, err := CompilerCounts(int(data[1]%16)+1, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(cfg, c1, c2)
		if err != nil {
			t.Fatal(err)
		}
		p.SetTrace(func(e TieredEvent) { _ = FormatTieredEvent(cfg.JDK, e) })
		methods := []*Method{NewMethod(plain), NewMethod(looper), NewMethod(noProf), NewMethod(accessor)}
		var handed []*Task
		var now time.Duration
		for i := 2; i < len(data); i++ {
			b := data[i]
			m := methods[int(b/8)%len(methods)]
			lvl, _ := p.Level(m)
			switch b % 8 {
			case 0:
				for k := 0; k < 64+int(b); k++ {
					p.Invoke(m, lvl, now)
				}
			case 1:
				for k := 0; k < 1024*int(b%32+1); k++ {
					p.Backedge(m, lvl, 1, now)
				}
			case 2, 3:
				if t := p.Next(Compiler(b%2), now); t != nil {
					_ = p.TaskLine(t, now)
					handed = append(handed, t)
				}
			case 4:
				if len(handed) > 0 {
					res := p.Installed(handed[0], now)
					for _, n := range res.NotEntrant {
						_ = p.NotEntrantLine(n, now)
					}
					handed = handed[1:]
				}
			case 5:
				if len(handed) > 0 {
					p.Failed(handed[0], b&16 != 0, now)
					handed = handed[1:]
				}
			case 6:
				p.mu.Lock()
				c := m.code
				if c == nil && len(m.osr) > 0 {
					c = m.osr[0]
				}
				p.mu.Unlock()
				if c != nil {
					p.Deoptimize(c, now)
					if b&16 != 0 {
						p.Reprofile(m, now)
					}
				}
			case 7:
				now += time.Duration(b) * time.Millisecond
			}
			if err := p.checkInvariants(methods, handed); err != nil {
				t.Fatalf("after op %d (%d): %v", i, b, err)
			}
		}
	})
}
