package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// TestBackedgesIsBackedgeRepeated drives one looping method as the VM does — a call, then
// the call's back-edges fed after it returns — once with a Backedge per back-edge and once
// with Backedges, and wants the same tiered events and compiles, line for line: on the tiered
// policy (counters that notify at a mask, MDOs created on the way), with small masks, on
// JDK 8's policy and without OSR (every back-edge notifies). Compiles run every 250 calls, so
// queues build up and the interpreter's counts move to an MDO between notifications.
func TestBackedgesIsBackedgeRepeated(t *testing.T) {
	cases := []struct {
		rel  jdk.Release
		args []string
	}{
		{jdk.R25, nil},
		{jdk.R17, []string{"-XX:Tier0BackedgeNotifyFreqLog=3", "-XX:Tier2BackedgeNotifyFreqLog=1", "-XX:Tier3BackedgeNotifyFreqLog=5"}},
		{jdk.R8, nil},
		{jdk.R17, []string{"-XX:-UseOnStackReplacement"}},
	}
	for _, c := range cases {
		t.Run(c.rel.String()+" "+strings.Join(c.args, " "), func(t *testing.T) {
			run := func(batched bool) []string {
				s := newSim(t, cfgOf(t, c.rel, c.args...), 1, 1)
				m := NewMethod(looper)
				act := func(d Decision) {
					if d.Task != nil && d.Task.Blocking {
						s.compile(d.Task)
					}
				}
				for call := range 1200 {
					lvl, _ := s.p.Level(m)
					act(s.p.Invoke(m, lvl, s.now))
					for n := uint64(40 + call%61); n > 0; {
						k, d := uint64(1), Decision{}
						if batched {
							k, d = s.p.Backedges(m, lvl, 9, n, func() time.Duration { return s.now })
						} else {
							d = s.p.Backedge(m, lvl, 9, s.now)
						}
						if k == 0 || k > n {
							t.Fatalf("Backedges(%d) counted %d", n, k)
						}
						n -= k
						act(d)
					}
					if call%250 == 249 {
						s.drain(C1)
						s.drain(C2)
					}
					s.now += s.step
				}
				return s.out
			}
			want := run(false)
			if len(want) == 0 {
				t.Fatal("no events: the case tests nothing")
			}
			diffLines(t, "Backedges", run(true), want)
		})
	}
}

// TestBackedgesInBulk holds Backedges to n calls of Backedge: the same notifications,
// tasks and OSR entries in the same order, and the same counts after, through a script
// of calls, loops of many sizes, compiles and installs that takes a looping method from
// the interpreter to C2 (tiered on JDK 8, 17 and 25; JDK 8 without tiers).
func TestBackedgesInBulk(t *testing.T) {
	for _, tc := range []struct {
		rel  jdk.Release
		args []string
	}{
		{jdk.R8, nil}, {jdk.R17, nil}, {jdk.R25, nil}, {jdk.R8, []string{"-XX:-TieredCompilation"}},
		{jdk.R25, []string{"-XX:-UseOnStackReplacement"}},
	} {
		t.Run(fmt.Sprint(tc.rel, tc.args), func(t *testing.T) {
			one := runBackedgeScript(t, tc.rel, tc.args, func(p *Policy, m *Method, lvl Level, now time.Duration, n uint64, each func(Decision)) {
				for range n {
					each(p.Backedge(m, lvl, 7, now))
				}
			})
			bulk := runBackedgeScript(t, tc.rel, tc.args, func(p *Policy, m *Method, lvl Level, now time.Duration, n uint64, each func(Decision)) {
				for n > 0 {
					k, d := p.Backedges(m, lvl, 7, n, func() time.Duration { return now })
					each(d)
					n -= k
				}
			})
			if !slices.Equal(one, bulk) {
				t.Fatalf("one by one and in bulk differ:\n%s\n---\n%s", one, bulk)
			}
			if !slices.ContainsFunc(one, func(s string) bool { return len(s) > 4 && s[:4] == "task" }) &&
				!slices.Contains(tc.args, "-XX:-UseOnStackReplacement") {
				t.Fatalf("the script queued no compile from a back-edge:\n%s", one)
			}
		})
	}
}

// runBackedgeScript runs one policy through the script, counting back-edges with count,
// and returns what happened: the tiered events, each decision with a task or OSR code,
// and the counts after each step.
func runBackedgeScript(t *testing.T, rel jdk.Release, args []string, count func(*Policy, *Method, Level, time.Duration, uint64, func(Decision))) []string {
	t.Helper()
	p, err := New(cfgOf(t, rel, args...), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	p.SetTrace(func(e TieredEvent) { log = append(log, FormatTieredEvent(rel, e)) })
	m := NewMethod(looper)
	var now time.Duration
	var handed []*Task
	for step, n := range []uint64{1, 5, 1023, 1024, 1025, 60000, 3, 70001, 131072, 9, 250000, 4096, 77777, 300000} {
		now += time.Millisecond
		lvl, _ := p.Level(m)
		for range 50 {
			p.Invoke(m, lvl, now)
		}
		count(p, m, lvl, now, n, func(d Decision) {
			if d.Task != nil {
				log = append(log, fmt.Sprintf("task %d level %d bci %d", d.Task.ID, d.Task.Level, d.Task.BCI))
				handed = append(handed, d.Task)
			}
			if d.OSR != nil {
				log = append(log, fmt.Sprintf("osr level %d", d.OSR.Level))
			}
		})
		if step%2 == 1 {
			for c := range 2 {
				if t := p.Next(Compiler(c), now); t != nil {
					handed = append(handed, t)
				}
			}
			for _, task := range handed {
				if !task.done {
					p.Installed(task, now)
				}
			}
			handed = handed[:0]
		}
		var back int32 = m.back.Load()
		if d := m.mdo.Load(); d != nil {
			back = d.back.Load()*1000003 + back
		}
		log = append(log, fmt.Sprintf("step %d level %d back %d", step, lvl, back))
	}
	return log
}
