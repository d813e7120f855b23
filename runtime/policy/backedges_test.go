package policy

import (
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
