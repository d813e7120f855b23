package policy

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// recordedEvent is one parsed PrintTieredEvents line.
type recordedEvent struct {
	line                          string
	kind, method                  string
	level                         Level
	bci                           int
	q1, q2                        int
	ti, tb, mi, mi0, mb, mb0      int32
	maxLevel, maxOSR              Level
	c1, c1osr, c2, c2osr, inQueue bool
	hasCounters                   bool
}

var reEvent = regexp.MustCompile(`^[0-9.]+: \[([a-z-]+) level=(\d) \[([^\]]+)\] @(-?\d+) queues=(\d+),(\d+) rate=\S+ k=[0-9.]+,[0-9.]+` +
	`(?: total=(\d+),(\d+) mdo=(\d+)\((\d+)\),(\d+)\((\d+)\) max levels=(\d),(\d) compilable=(\S*) status=([a-z-]+))?(?: mtd: null)?\]$`)

func parseEvent(l string) (recordedEvent, bool) {
	m := reEvent.FindStringSubmatch(l)
	if m == nil {
		return recordedEvent{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	e := recordedEvent{line: l, kind: m[1], level: Level(n(2)), method: m[3], bci: n(4), q1: n(5), q2: n(6)}
	if m[7] != "" {
		e.hasCounters = true
		e.ti, e.tb, e.mi, e.mi0, e.mb, e.mb0 = int32(n(7)), int32(n(8)), int32(n(9)), int32(n(10)), int32(n(11)), int32(n(12))
		e.maxLevel, e.maxOSR = Level(n(13)), Level(n(14))
		for _, c := range strings.Split(m[15], ",") {
			switch c {
			case "c1":
				e.c1 = true
			case "c1-osr":
				e.c1osr = true
			case "c2":
				e.c2 = true
			case "c2-osr":
				e.c2osr = true
			}
		}
		e.inQueue = m[16] == "in-queue"
	}
	return e, true
}

// stateFor rebuilds, from one recorded call event, the policy state the
// JVM decided on: queue lengths, the method's counters and MDO, its code
// level, highest levels and compilability.
func stateFor(t *testing.T, cfg Config, e recordedEvent, info MethodInfo) (*Policy, *Method) {
	t.Helper()
	p, err := New(cfg, 1, 1) // the recordings ran on 2 CPUs: one C1 and one C2 thread
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < e.q1+e.q2; i++ {
		d := NewMethod(MethodInfo{Holder: "Dummy", Name: "d" + strconv.Itoa(i), Signature: "()V", CodeSize: 10})
		lvl := LevelFullProfile
		if i >= e.q1 {
			lvl = LevelFullOptimization
		}
		p.submit(d, InvocationEntryBCI, lvl, ReasonTiered, 0)
	}
	m := NewMethod(info)
	m.inv.Store(e.ti - e.mi)
	m.back.Store(e.tb - e.mb)
	if e.mi != 0 || e.mb != 0 || e.maxLevel >= LevelLimitedProfile || e.maxOSR >= LevelLimitedProfile {
		d := &methodData{inv0: e.mi0, back0: e.mb0}
		d.inv.Store(e.mi)
		d.back.Store(e.mb)
		if e.maxLevel >= LevelLimitedProfile || e.maxOSR >= LevelLimitedProfile {
			d.wouldProfile = profileYes
			if info.NothingToProfile {
				d.wouldProfile = profileNo
			}
		}
		m.mdo.Store(d)
	}
	if e.level > LevelNone && e.kind == "call" {
		m.code = &Code{Method: m, Level: e.level, BCI: InvocationEntryBCI, entrant: true}
	}
	m.highest = e.maxLevel
	if e.maxOSR > LevelNone {
		bci := 0
		if e.kind == "loop" {
			bci = e.bci
		}
		m.osr = []*Code{{Method: m, Level: e.maxOSR, BCI: bci, entrant: true}}
		m.highestOSR = e.maxOSR
	}
	m.notC1, m.notC1OSR, m.notC2, m.notC2OSR = !e.c1, !e.c1osr, !e.c2, !e.c2osr
	return p, m
}

// TestRecordedDecisions checks every call notification (and every loop
// notification while the normal entry was never compiled) in the recorded
// background runs, where queue lengths vary with the machine's timing:
// from the state the JVM printed (counters, MDO, queue lengths, levels) the
// policy must make the decision the JVM made next — compile at the level
// it printed, or nothing. congest_*_bg.txt come from a workload built to
// congest C2 (with -XX:Tier4LoadFeedback=1000 -XX:Tier3DelayOn=1
// -XX:Tier3DelayOff=0), so they include the level-2 detour of
// Congest.fresh at queues=0,25 and its way back to 3 once the method is old.
func TestRecordedDecisions(t *testing.T) {
	congest := []string{"-XX:Tier4LoadFeedback=1000", "-XX:Tier3DelayOn=1", "-XX:Tier3DelayOff=0"}
	cases := []struct {
		file string
		jdk  jdk.Release
		args []string
		// wantLevels must all appear among the checked decisions.
		wantLevels []Level
	}{
		{"hot_17_bg.txt", jdk.R17, nil, []Level{3, 4}},
		{"hot_25_bg.txt", jdk.R25, nil, []Level{3}},
		{"hot_17_batch.txt", jdk.R17, nil, []Level{3, 4}},
		{"congest_17_bg.txt", jdk.R17, congest, []Level{2, 3, 4}},
		{"congest_25_bg.txt", jdk.R25, congest, []Level{2, 3, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			cfg := cfgOf(t, tc.jdk, tc.args...)
			lines := readLines(t, tc.file)
			byMethod := map[string][]recordedEvent{}
			for _, l := range lines {
				if e, ok := parseEvent(l); ok {
					byMethod[e.method] = append(byMethod[e.method], e)
				}
			}
			checked, racy, compiles := 0, 0, map[Level]int{}
			for name, evs := range byMethod {
				info := MethodInfo{Holder: "X", Name: name, Signature: "()V", CodeSize: 20}
				if name == "Hot.work(I)I" {
					info.NothingToProfile = true
				}
				for i, e := range evs {
					// Loop events only while the normal entry was never
					// compiled: the line does not say which code it runs.
					loop := e.kind == "loop" && e.maxLevel == LevelNone
					if (e.kind != "call" && !loop) || e.inQueue || !e.hasCounters {
						continue
					}
					// The compile events the JVM printed right after this
					// one (a loop event can print the OSR attempt and then
					// the call check's compile).
					var wants []recordedEvent
					for j := i + 1; j < len(evs) && j <= i+2 && evs[j].kind == "compile"; j++ {
						wants = append(wants, evs[j])
					}
					var want *recordedEvent
					if len(wants) > 0 {
						want = &wants[0]
					}
					checked++
					if want != nil {
						compiles[want.level]++
					}
					msg := decide(t, cfg, e, info, wants)
					if msg == "" {
						continue
					}
					// The JVM prints the queue lengths, then decides while its
					// compiler threads keep taking tasks: accept a decision
					// that a queue one task shorter reproduces, and count it.
					shorter := false
					for _, d := range [][2]int{{-1, 0}, {0, -1}} {
						e2 := e
						e2.q1, e2.q2 = e.q1+d[0], e.q2+d[1]
						if e2.q1 >= 0 && e2.q2 >= 0 && decide(t, cfg, e2, info, wants) == "" {
							shorter = true
						}
					}
					if shorter {
						racy++
						t.Logf("matched with one task fewer in a queue: %s", e.line)
						continue
					}
					t.Errorf("%s\n  %s", e.line, msg)
				}
			}
			t.Logf("%d notifications checked (%d with a queue one shorter); JVM compiles by level: %v", checked, racy, compiles)
			if racy*50 > checked {
				t.Errorf("%d of %d decisions needed a shorter queue", racy, checked)
			}
			for _, l := range tc.wantLevels {
				if compiles[l] == 0 {
					t.Errorf("no recorded level-%d decision was checked", l)
				}
			}
		})
	}
}

// decide runs one recorded notification through a rebuilt policy and
// returns "" when it decides as the JVM did. wants are the compile events
// the JVM printed next: HotSpot prints one for every compile it asks for,
// also when the code turns out to exist already (then no task is made), so
// the policy's task must be the first printed compile that is new, and
// there must be none if none is.
func decide(t *testing.T, cfg Config, e recordedEvent, info MethodInfo, wants []recordedEvent) string {
	p, m := stateFor(t, cfg, e, info)
	exists := func(w recordedEvent) bool {
		if w.bci == InvocationEntryBCI {
			return m.code != nil && m.code.Level == w.level
		}
		return m.lookupOSR(w.bci, w.level, false) != nil
	}
	var want *recordedEvent
	for i := range wants {
		if !exists(wants[i]) {
			want = &wants[i]
			break
		}
	}
	var d Decision
	if e.kind == "loop" {
		d = p.OnBackedge(m, e.level, e.bci, 0)
	} else {
		d = p.OnCall(m, e.level, 0)
	}
	switch {
	case want == nil && d.Task != nil:
		return "JVM: no new compile; policy: level " + d.Task.Level.String() + " @" + strconv.Itoa(d.Task.BCI)
	case want != nil && d.Task == nil:
		return "JVM: compile level " + want.level.String() + " @" + strconv.Itoa(want.bci) + "; policy: none"
	case want != nil && (d.Task.Level != want.level || d.Task.BCI != want.bci):
		return "JVM: compile level " + want.level.String() + " @" + strconv.Itoa(want.bci) +
			"; policy: level " + d.Task.Level.String() + " @" + strconv.Itoa(d.Task.BCI)
	}
	return ""
}
