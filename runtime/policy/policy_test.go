package policy

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

var (
	plain    = MethodInfo{Holder: "T", Name: "plain", Signature: "()V", CodeSize: 40}
	noProf   = MethodInfo{Holder: "T", Name: "noProf", Signature: "()V", CodeSize: 40, NothingToProfile: true}
	looper   = MethodInfo{Holder: "T", Name: "looper", Signature: "()V", CodeSize: 40, HasLoops: true}
	accessor = MethodInfo{Holder: "T", Name: "getX", Signature: "()I", CodeSize: 5, Trivial: true}
)

// callsUntilTask calls m up to n times through its current code and
// returns the 1-based call at which a compile was requested, and the task.
func (s *sim) callsUntilTask(m *Method, n int) (int, *Task) {
	for c := 1; c <= n; c++ {
		if d := s.call(m); d.Task != nil {
			return c, d.Task
		}
	}
	return 0, nil
}

// backedgesUntilTask takes up to n back-edges in f and returns the
// 1-based back-edge at which a compile was requested.
func (s *sim) backedgesUntilTask(f *frame, n int) (int, *Task) {
	for k := 1; k <= n; k++ {
		if d := s.backedge(f); d.Task != nil {
			return k, d.Task
		}
	}
	return 0, nil
}

// TestNotificationPoints checks that transitions happen at the
// notification point the formulas predict (hotspot.md §1.2, §1.3), and that
// JDK 8's strict ">" differs from ">=" exactly where a threshold falls on a
// notification point.
func TestNotificationPoints(t *testing.T) {
	cases := []struct {
		name      string
		jdk       jdk.Release
		args      []string
		loop      bool // back-edges in one interpreted frame instead of calls
		perCall   int  // back-edges per call (call cases)
		wantCount int
		wantLevel Level
	}{
		{name: "17 defaults: level 3 at call 256", jdk: jdk.R17, wantCount: 256, wantLevel: 3},
		{name: "8 defaults: level 3 at call 256", jdk: jdk.R8, wantCount: 256, wantLevel: 3},
		{name: "25 defaults: level 3 at call 256", jdk: jdk.R25, wantCount: 256, wantLevel: 3},
		{name: "17 Tier3InvocationThreshold=256: >= fires at 256", jdk: jdk.R17,
			args: []string{"-XX:Tier3InvocationThreshold=256"}, wantCount: 256, wantLevel: 3},
		{name: "8 Tier3InvocationThreshold=256: > waits for 384", jdk: jdk.R8,
			args: []string{"-XX:Tier3InvocationThreshold=256"}, wantCount: 384, wantLevel: 3},
		// 20 back-edges per call: the loop notification at b=2048 (call
		// 103) finds i>=100 and i+b>=2000 and asks for the normal entry.
		{name: "17 min-invocation path via a loop event: call 103", jdk: jdk.R17, perCall: 20, wantCount: 103, wantLevel: 3},
		{name: "8 min-invocation path via a loop event: call 103", jdk: jdk.R8, perCall: 20, wantCount: 103, wantLevel: 3},
		{name: "17 Tier3MinInvocationThreshold=128: call event at 128", jdk: jdk.R17, perCall: 20,
			args: []string{"-XX:Tier3MinInvocationThreshold=128"}, wantCount: 128, wantLevel: 3},
		{name: "8 Tier3MinInvocationThreshold=128: > waits for the loop event at call 154", jdk: jdk.R8, perCall: 20,
			args: []string{"-XX:Tier3MinInvocationThreshold=128"}, wantCount: 154, wantLevel: 3},
		{name: "17 loop: OSR level 3 at back-edge 60416", jdk: jdk.R17, loop: true, wantCount: 60416, wantLevel: 3},
		{name: "8 loop: OSR level 3 at back-edge 60416", jdk: jdk.R8, loop: true, wantCount: 60416, wantLevel: 3},
		{name: "17 Tier3BackEdgeThreshold=61440: 61440", jdk: jdk.R17, loop: true,
			args: []string{"-XX:Tier3BackEdgeThreshold=61440"}, wantCount: 61440, wantLevel: 3},
		{name: "8 Tier3BackEdgeThreshold=61440: 62464", jdk: jdk.R8, loop: true,
			args: []string{"-XX:Tier3BackEdgeThreshold=61440"}, wantCount: 62464, wantLevel: 3},
		{name: "17 CompileThresholdScaling=0.5: level 3 at call 128", jdk: jdk.R17,
			args: []string{"-XX:CompileThresholdScaling=0.5"}, wantCount: 128, wantLevel: 3},
		{name: "17 CompileThresholdScaling=0.5: OSR at 30208", jdk: jdk.R17, loop: true,
			args: []string{"-XX:CompileThresholdScaling=0.5"}, wantCount: 30208, wantLevel: 3},
		{name: "17 -TieredCompilation: C2 at call 6784 (MDO from 1664)", jdk: jdk.R17,
			args: []string{"-XX:-TieredCompilation"}, wantCount: 6784, wantLevel: 4},
		{name: "17 quick-only: level 1 at 256", jdk: jdk.R17,
			args: []string{"-XX:CompilationMode=quick-only"}, wantCount: 256, wantLevel: 1},
		{name: "8 -TieredCompilation: legacy C2 at call 10000", jdk: jdk.R8,
			args: []string{"-XX:-TieredCompilation"}, wantCount: 10000, wantLevel: 4},
		{name: "8 -TieredCompilation CompileThreshold=1500", jdk: jdk.R8,
			args: []string{"-XX:-TieredCompilation", "-XX:CompileThreshold=1500"}, wantCount: 1500, wantLevel: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, cfgOf(t, tc.jdk, tc.args...), 1, 1)
			var n int
			var task *Task
			switch {
			case tc.loop:
				f := s.enter(NewMethod(looper), 7)
				n, task = s.backedgesUntilTask(f, 200000)
				if task != nil && task.BCI != 7 {
					t.Errorf("OSR task bci = %d, want 7", task.BCI)
				}
			case tc.perCall > 0:
				m := NewMethod(looper)
				for c := 1; c <= 100000 && task == nil; c++ {
					if d := s.call(m); d.Task != nil {
						n, task = c, d.Task
						break
					}
					lvl, _ := s.p.Level(m)
					f := &frame{m: m, bci: 3, level: lvl}
					for k := 0; k < tc.perCall && task == nil; k++ {
						if d := s.backedge(f); d.Task != nil && !d.Task.IsOSR() {
							n, task = c, d.Task
						}
					}
				}
			default:
				n, task = s.callsUntilTask(NewMethod(plain), 100000)
			}
			if task == nil {
				t.Fatal("no compile requested")
			}
			if n != tc.wantCount || task.Level != tc.wantLevel {
				t.Errorf("compile requested at count %d level %d, want count %d level %d", n, task.Level, tc.wantCount, tc.wantLevel)
			}
		})
	}
}

// TestLevel3To4 checks that level-3 code requests level 4 when its MDO
// count reaches the first multiple of 1024 at or past Tier4InvocationThreshold
// (5120 with 5000), and the strict JDK 8 difference at 5120.
func TestLevel3To4(t *testing.T) {
	cases := []struct {
		name    string
		jdk     jdk.Release
		args    []string
		wantMDO int32
	}{
		{"17 defaults", jdk.R17, nil, 5120},
		{"8 defaults", jdk.R8, nil, 5120},
		{"17 Tier4InvocationThreshold=5120", jdk.R17, []string{"-XX:Tier4InvocationThreshold=5120"}, 5120},
		{"8 Tier4InvocationThreshold=5120", jdk.R8, []string{"-XX:Tier4InvocationThreshold=5120"}, 6144},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, cfgOf(t, tc.jdk, append([]string{"-XX:-BackgroundCompilation"}, tc.args...)...), 1, 1)
			m := NewMethod(plain)
			n, task := s.callsUntilTask(m, 1000)
			if n != 256 || task.Level != 3 {
				t.Fatalf("first compile at %d level %v", n, task)
			}
			if lvl, _ := s.p.Level(m); lvl != LevelFullProfile {
				t.Fatalf("level after blocking compile = %d", lvl)
			}
			n, task = s.callsUntilTask(m, 20000)
			if task == nil || task.Level != LevelFullOptimization {
				t.Fatalf("no level-4 request (got %+v)", task)
			}
			i, _, _, _, _ := m.MDOCounts()
			if i != tc.wantMDO || int32(n) != tc.wantMDO {
				t.Errorf("level 4 requested at MDO count %d (call %d at level 3), want %d", i, n, tc.wantMDO)
			}
			if lvl, _ := s.p.Level(m); lvl != LevelFullOptimization {
				t.Errorf("level = %d, want 4", lvl)
			}
		})
	}
}

// TestModesNeverCompile covers -Xint, CompileThresholdScaling=0 and
// TieredStopAtLevel=0: nothing is ever queued.
func TestModesNeverCompile(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"-Xint", []string{"-Xint"}},
		{"CompileThresholdScaling=0", []string{"-XX:CompileThresholdScaling=0"}},
		{"TieredStopAtLevel=0", []string{"-XX:TieredStopAtLevel=0"}},
	}
	for _, tc := range cases {
		for _, rel := range []jdk.Release{jdk.R8, jdk.R17, jdk.R25} {
			t.Run(tc.name+"/"+rel.String(), func(t *testing.T) {
				if !rel.Modern() && strings.HasPrefix(tc.name, "CompileThresholdScaling") {
					t.Skip("no CompileThresholdScaling in JDK 8")
				}
				s := newSim(t, cfgOf(t, rel, tc.args...), 1, 1)
				m := NewMethod(plain)
				if n, task := s.callsUntilTask(m, 50000); task != nil {
					t.Fatalf("compile requested at call %d: %+v", n, task)
				}
				f := s.enter(NewMethod(looper), 2)
				if n, task := s.backedgesUntilTask(f, 300000); task != nil {
					t.Fatalf("OSR requested at back-edge %d", n)
				}
				if s.p.QueueLen(C1)+s.p.QueueLen(C2) != 0 {
					t.Error("queues not empty")
				}
			})
		}
	}
}

// TestStopAtLevel checks that TieredStopAtLevel caps the level, that 1
// means C1 without profiling (no MDO, no counting at level 1) and that
// nothing reaches 4.
func TestStopAtLevel(t *testing.T) {
	for _, stop := range []int64{1, 2, 3} {
		t.Run("TieredStopAtLevel="+Level(stop).String(), func(t *testing.T) {
			s := newSim(t, cfgOf(t, jdk.R17, []string{"-XX:TieredStopAtLevel=" + strconv.FormatInt(stop, 10), "-XX:-BackgroundCompilation"}...), 1, 0)
			m := NewMethod(plain)
			n, task := s.callsUntilTask(m, 1000)
			if n != 256 || task.Level != Level(stop) {
				t.Fatalf("first compile at %d: %+v, want 256 at level %d", n, task, stop)
			}
			if n, task := s.callsUntilTask(m, 200000); task != nil {
				t.Fatalf("second compile at %d: level %d", n, task.Level)
			}
			// C1 creates the MDO for levels 2 and 3 (is_profiling).
			if _, _, _, _, ok := m.MDOCounts(); ok != (stop >= 2) {
				t.Errorf("MDO exists = %v", ok)
			}
			f := s.enter(NewMethod(looper), 4)
			if _, task := s.backedgesUntilTask(f, 70000); task == nil || task.Level != Level(stop) {
				t.Errorf("OSR task = %+v, want level %d", task, stop)
			}
		})
	}
}

// TestXcomp checks -Xcomp: a blocking level-3 compile before the first
// call runs (force-compile in JDK 25, compile in 17), and level 4
// requested by that very call's count in the level-3 code, since
// Tier3InvokeNotifyFreqLog=0 and Tier4InvocationThreshold=0.
func TestXcomp(t *testing.T) {
	for _, tc := range []struct {
		jdk   jdk.Release
		event string
	}{{jdk.R17, "[compile level=3 [T.plain()V] @-1"}, {jdk.R25, "[force-compile level=3 [T.plain()V] @-1"}} {
		t.Run(tc.jdk.String(), func(t *testing.T) {
			s := newSim(t, cfgOf(t, tc.jdk, "-Xcomp"), 1, 1)
			m := NewMethod(plain)
			d := s.p.Invoke(m, LevelNone, 0)
			if d.Task == nil || d.Task.Level != LevelFullProfile || !d.Task.Blocking || d.Task.Reason != ReasonMustBeCompiled {
				t.Fatalf("first call: %+v", d.Task)
			}
			if i, _ := m.Counts(); i != 0 {
				t.Errorf("forced compile counted the call (%d)", i)
			}
			if !strings.Contains(s.out[0], tc.event) {
				t.Errorf("event %q, want %q", s.out[0], tc.event)
			}
			s.compile(d.Task)
			d = s.p.Invoke(m, LevelFullProfile, 0)
			if d.Task == nil || d.Task.Level != LevelFullOptimization || !d.Task.Blocking {
				t.Fatalf("the call in level-3 code: %+v", d.Task)
			}
		})
	}

	// The JDK 8 non-tiered VM compiles with C2 at the first call.
	s := newSim(t, cfgOf(t, jdk.R8, []string{"-XX:-TieredCompilation", "-Xcomp"}...), 0, 1)
	if d := s.p.Invoke(NewMethod(plain), LevelNone, 0); d.Task == nil || d.Task.Level != LevelFullOptimization {
		t.Fatalf("JDK 8 -Xcomp first call: %+v", d.Task)
	}
}

// TestOSRPromotesNormalEntry checks call_event's rule: once OSR code at
// level 4 exists while the normal entry runs at level 3, the next call
// notification asks for level 4 without waiting for Tier4 thresholds.
func TestOSRPromotesNormalEntry(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17, "-XX:-BackgroundCompilation"), 1, 1)
	m := NewMethod(looper)
	if n, task := s.callsUntilTask(m, 1000); n != 256 || task.Level != 3 {
		t.Fatalf("first compile at %d", n)
	}
	f := &frame{m: m, bci: 9, level: LevelFullProfile}
	n, task := s.backedgesUntilTask(f, 100000)
	if task == nil || task.Level != 4 || task.BCI != 9 || n != 40960 {
		t.Fatalf("OSR 4 at back-edge %d: %+v", n, task)
	}
	if osr := s.p.OSREntry(m, 9, LevelFullProfile); osr == nil || osr.Level != 4 {
		t.Fatalf("OSR entry = %+v", osr)
	}
	// Calls still run level-3 code; its next notification (MDO count 1024)
	// promotes the normal entry.
	n, task = s.callsUntilTask(m, 5000)
	if task == nil || task.Level != 4 || task.IsOSR() || n != 1024 {
		t.Fatalf("promotion at call %d: %+v", n, task)
	}
}

// TestOSRInBackground runs one long interpreted loop with background
// compiles that finish as soon as a compiler thread looks: OSR at 3, the
// frame jumps into it, OSR at 4 from the level-3 loop's MDO count.
func TestOSRInBackground(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R25), 1, 1)
	m := NewMethod(looper)
	f := s.enter(m, 5)
	var levels []Level
	for k := 1; k <= 200000; k++ {
		d := s.backedge(f)
		if d.Task != nil {
			levels = append(levels, d.Task.Level)
			s.drain(C1)
			s.drain(C2)
		}
	}
	if f.code == nil || f.code.Level != LevelFullOptimization {
		t.Errorf("frame runs %+v, want OSR code at level 4", f.code)
	}
	if len(levels) < 2 || levels[0] != 3 || levels[len(levels)-1] != 4 {
		t.Errorf("requested levels %v", levels)
	}
}

// TestLoadFeedback checks s = q/(Tier3LoadFeedback·n)+1: five queued C1
// tasks per C1 thread double the level-3 thresholds, so the sixth method is
// requested at call 512 instead of 256.
func TestLoadFeedback(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	// Each queued filler raises k by 0.2: 200·k crosses 256 at the third.
	for i, want := range []int{256, 256, 384, 384, 384} {
		if n, _ := s.callsUntilTask(NewMethod(plain), 1000); n != want {
			t.Fatalf("filler %d requested at %d, want %d", i, n, want)
		}
	}
	if k := s.p.ThresholdScale(LevelFullProfile); k != 2 {
		t.Fatalf("k = %v, want 2", k)
	}
	if n, task := s.callsUntilTask(NewMethod(plain), 1000); n != 512 || task.Level != 3 {
		t.Errorf("under load: requested at %d, want 512", n)
	}
	// With 2 C1 threads the same queue only scales by 1.5: 300 → 384.
	s2 := newSim(t, cfgOf(t, jdk.R17), 2, 1)
	for i := 0; i < 5; i++ {
		s2.callsUntilTask(NewMethod(plain), 1000)
	}
	if n, _ := s2.callsUntilTask(NewMethod(plain), 1000); n != 384 {
		t.Errorf("two C1 threads: requested at %d, want 384", n)
	}
}

// congestC2 puts n level-4 tasks in the C2 queue.
func congestC2(t *testing.T, s *sim, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		m := NewMethod(noProf)
		if c, _ := s.callsUntilTask(m, 1000); c == 0 {
			t.Fatal("filler not queued")
		}
		s.drain(C1)
		if c, task := s.callsUntilTask(m, 2000); task == nil || task.Level != 4 {
			t.Fatalf("filler level 4 at %d: %+v", c, task)
		}
	}
}

// TestLevel2Detour checks 0→2 when the C2 queue exceeds Tier3DelayOn per
// C2 thread, staying at 2 until it drops to Tier3DelayOff (hysteresis),
// and no detour for OSR.
//
// Old methods (TieredOldPercentage, 2000 calls by default) skip the
// feedback on calls; the test raises it to watch the hysteresis alone.
func TestLevel2Detour(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17, []string{"-XX:TieredOldPercentage=100000"}...), 1, 1)
	s.step = 0 // keep the model clock still, so no queued filler goes stale
	congestC2(t, s, 6)
	if q := s.p.QueueLen(C2); q != 6 {
		t.Fatalf("C2 queue %d", q)
	}
	m := NewMethod(plain)
	if n, task := s.callsUntilTask(m, 1000); n != 256 || task.Level != LevelLimitedProfile {
		t.Fatalf("congested: %d %+v, want level 2 at 256", n, task)
	}
	s.drain(C1)
	if lvl, _ := s.p.Level(m); lvl != 2 {
		t.Fatalf("level %d", lvl)
	}
	// OSR never takes the detour.
	f := s.enter(NewMethod(looper), 1)
	if _, task := s.backedgesUntilTask(f, 70000); task == nil || task.Level != 3 {
		t.Errorf("OSR under congestion: %+v, want level 3", task)
	}
	s.drain(C1)
	// Level-2 code notifies when the method counter is a multiple of
	// 2048; C2 queue 6 > 2: stay.
	if n, task := s.callsUntilTask(m, 4096); task != nil {
		t.Fatalf("left level 2 at %d with C2 queue 6", n)
	}
	// Drain C2 to 3: still above DelayOff·1 = 2, while a fresh method now
	// goes to 3 (3 <= DelayOn·1).
	for s.p.QueueLen(C2) > 3 {
		task := s.p.Next(C2, s.now)
		s.p.Installed(task, s.now)
	}
	if n, task := s.callsUntilTask(m, 4096); task != nil {
		t.Fatalf("left level 2 at %d with C2 queue 3 (hysteresis)", n)
	}
	if _, task := s.callsUntilTask(NewMethod(plain), 1000); task == nil || task.Level != 3 {
		t.Fatalf("fresh method with C2 queue 3: %+v", task)
	}
	s.drain(C1)
	for s.p.QueueLen(C2) > 2 {
		s.p.Installed(s.p.Next(C2, s.now), s.now)
	}
	_, task := s.callsUntilTask(m, 4096)
	if i, _ := m.Counts(); task == nil || task.Level != LevelFullProfile || i%2048 != 0 {
		t.Fatalf("back to 3 at count %d: %+v", i, task)
	}
}

// TestQueueTimeDowngrade checks select_task's 0→(3→2)→4 path: a level-3
// task whose method got profiled in the interpreter while it waited is
// compiled at level 2 (update-in-queue), and then goes to 4.
func TestQueueTimeDowngrade(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	m := NewMethod(plain)
	s.callsUntilTask(m, 1000)
	for i := 0; i < 6000; i++ {
		s.call(m)
	}
	task := s.p.Next(C1, s.now)
	if task == nil || task.Level != LevelLimitedProfile {
		t.Fatalf("task %+v, want downgraded to 2", task)
	}
	if !strings.Contains(s.out[len(s.out)-1], "[update-in-queue level=2 [T.plain()V]") {
		t.Errorf("last event %q", s.out[len(s.out)-1])
	}
	s.p.Installed(task, s.now)
	// Level-2 code counts in the MethodCounters, which stopped at 512 when
	// the MDO appeared: the first level-2 notification (2048) is 1536 calls on.
	if n, next := s.callsUntilTask(m, 4096); next == nil || next.Level != 4 || n != 1536 {
		t.Errorf("from 2: call %d %+v, want level 4 at the first level-2 notification", n, next)
	}
}

// TestStaleRemoval checks that a waiting task whose method saw no events
// for TieredCompileTaskTimeout ms is dropped, unless the method is old or
// the task blocking; a later notification asks again.
func TestStaleRemoval(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	s.now = 5 * time.Millisecond
	cold := NewMethod(plain)
	s.callsUntilTask(cold, 1000)
	old := NewMethod(plain)
	for i := 0; i < 2100; i++ { // TieredOldPercentage: 10 × 200 calls
		s.call(old)
	}
	if !s.p.IsOld(old) {
		t.Fatal("2100 calls should make the method old")
	}
	if q := s.p.QueueLen(C1); q != 2 {
		t.Fatalf("queue %d", q)
	}
	s.now += 100 * time.Millisecond
	task := s.p.Next(C1, s.now)
	if task == nil || task.Method != old {
		t.Fatalf("Next = %+v, want the old method's task", task)
	}
	if q := s.p.QueueLen(C1); q != 0 {
		t.Errorf("stale task still queued (%d)", q)
	}
	found := false
	for _, l := range s.out {
		found = found || strings.Contains(l, "[remove-from-queue level=3 [T.plain()V]")
	}
	if !found {
		t.Error("no remove-from-queue event")
	}
	if _, queued := s.p.Level(cold); queued {
		t.Error("cold method still marked queued")
	}
	if n, again := s.callsUntilTask(cold, 200); again == nil || n != 128 {
		t.Errorf("re-request at %d: %+v", n, again)
	}
}

// TestQueueOrder checks select_task's choice: highest highest_comp_level
// first (recompiles after deopt), then the largest (rate+1)(i+1)(b+1),
// blocking tasks before all others.
func TestQueueOrder(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	small, big, loopy := NewMethod(plain), NewMethod(plain), NewMethod(looper)
	s.callsUntilTask(small, 1000)
	s.callsUntilTask(big, 1000)
	for i := 0; i < 600; i++ {
		s.call(big)
	}
	s.callsUntilTask(loopy, 1000)
	f := &frame{m: loopy, bci: 1}
	for i := 0; i < 50; i++ {
		s.backedge(f)
	}
	// weights at equal rates: small 257, big 857, loopy 257·51.
	var order []*Method
	for task := s.p.Next(C1, s.now); task != nil; task = s.p.Next(C1, s.now) {
		order = append(order, task.Method)
		s.p.Installed(task, s.now)
	}
	if len(order) != 3 || order[0] != loopy || order[1] != big || order[2] != small {
		t.Errorf("order %v", names(order))
	}

	// A method that reached level 4 and was deoptimized wins over a
	// heavier one.
	s = newSim(t, cfgOf(t, jdk.R17), 1, 1)
	re := NewMethod(plain)
	s.callsUntilTask(re, 1000)
	s.drain(C1)
	s.callsUntilTask(re, 6000)
	s.drain(C2)
	lvl, _ := s.p.Level(re)
	if lvl != 4 {
		t.Fatalf("level %d", lvl)
	}
	code := s.p.mustCode(re)
	s.p.Deoptimize(code, s.now)
	s.p.Reprofile(re, s.now)
	heavy := NewMethod(plain)
	s.callsUntilTask(heavy, 1000)
	for i := 0; i < 5000; i++ {
		s.call(heavy)
	}
	if _, task := s.callsUntilTask(re, 200); task == nil || task.Level != 3 {
		t.Fatalf("recompile request %+v", task)
	}
	if task := s.p.Next(C1, s.now); task == nil || task.Method != re {
		t.Errorf("Next picked %v, want the deoptimized method", task)
	}

	// Blocking tasks first.
	s = newSim(t, cfgOf(t, jdk.R17), 1, 1)
	light, heavy2 := NewMethod(plain), NewMethod(plain)
	for i := 0; i < 5000; i++ {
		s.call(heavy2)
	}
	s.p.mu.Lock()
	s.p.cfg.BackgroundCompilation = false
	bt := s.p.submit(light, InvocationEntryBCI, 3, ReasonTiered, s.now)
	s.p.mu.Unlock()
	if got := s.p.Next(C1, s.now); got != bt {
		t.Errorf("Next = %+v, want the blocking task", got)
	}
}

func (p *Policy) mustCode(m *Method) *Code {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.code == nil {
		panic("BUG: no code")
	}
	return m.code
}

func names(ms []*Method) []string {
	var out []string
	for _, m := range ms {
		i, b := m.Counts()
		out = append(out, m.info.Name+"("+itoa4(int(i))+","+itoa4(int(b))+")")
	}
	return out
}

// TestDeoptReprofile checks that an uncommon trap in level-4 code sends
// the method to level 0, and that after reprofile the 3→4 test starts over:
// the next notification asks for level 3 again, not 4.
func TestDeoptReprofile(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17, "-XX:-BackgroundCompilation"), 1, 1)
	m := NewMethod(plain)
	s.callsUntilTask(m, 1000)
	s.callsUntilTask(m, 10000)
	code := s.p.mustCode(m)
	if code.Level != 4 {
		t.Fatalf("level %d", code.Level)
	}
	ne := s.p.Deoptimize(code, s.now)
	if len(ne) != 1 || ne[0].Reason != ReasonUncommonTrap {
		t.Fatalf("not entrant %+v", ne)
	}
	if lvl, _ := s.p.Level(m); lvl != 0 {
		t.Fatalf("level after deopt %d", lvl)
	}
	// Without reprofiling, the profile is still good: straight to 4.
	s2 := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	m2 := NewMethod(plain)
	s2.callsUntilTask(m2, 1000)
	s2.drain(C1)
	s2.callsUntilTask(m2, 10000)
	s2.drain(C2)
	s2.p.Deoptimize(s2.p.mustCode(m2), s2.now)
	if _, task := s2.callsUntilTask(m2, 200); task == nil || task.Level != 4 {
		t.Errorf("deopt without reprofile: %+v, want 0→4", task)
	}
	// With reprofile: back through 3.
	s.p.Reprofile(m, s.now)
	if _, task := s.callsUntilTask(m, 200); task == nil || task.Level != 3 {
		t.Errorf("after reprofile: %+v, want level 3", task)
	}
}

// TestNotCompilable checks the compiler fallbacks: a method C1 cannot
// compile is profiled in the interpreter and goes 0→4; one C2 cannot
// compile goes to level 1.
func TestNotCompilable(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	m := NewMethod(plain)
	_, task := s.callsUntilTask(m, 1000)
	if s.p.Next(C1, s.now) != task {
		t.Fatal("task not next")
	}
	s.p.Failed(task, true, s.now)
	n, task := s.callsUntilTask(m, 10000)
	// C1 created the MDO when it started (and gave up) at call 256; the
	// interpreter profiles from there; MDO count 5120 comes at call 5376.
	if task == nil || task.Level != 4 || n != 5120 {
		t.Errorf("not C1-compilable: request after %d more calls: %+v, want level 4 at call 5376", n, task)
	}

	s = newSim(t, cfgOf(t, jdk.R17), 1, 1)
	m = NewMethod(noProf)
	s.callsUntilTask(m, 1000)
	s.drain(C1)
	_, task = s.callsUntilTask(m, 2000)
	if s.p.Next(C2, s.now) != task {
		t.Fatal("C2 task not next")
	}
	s.p.Failed(task, true, s.now)
	if _, task = s.callsUntilTask(m, 2000); task == nil || task.Level != LevelSimple {
		t.Errorf("not C2-compilable: %+v, want level 1", task)
	}
}

// TestTrivial checks trivial methods: accessors go to level 1 (JDK 17);
// JDK 8's wider rule sends a tiny method with nothing to profile 0→3→1.
func TestTrivial(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	if n, task := s.callsUntilTask(NewMethod(accessor), 1000); task == nil || task.Level != 1 || n != 128 {
		t.Errorf("accessor: %d %+v, want level 1 at the first notification", n, task)
	}
	s = newSim(t, cfgOf(t, jdk.R8, "-XX:-BackgroundCompilation"), 1, 1)
	tiny := NewMethod(MethodInfo{Holder: "T", Name: "tiny", Signature: "()I", CodeSize: 4, NothingToProfile: true})
	if _, task := s.callsUntilTask(tiny, 1000); task == nil || task.Level != 3 {
		t.Fatalf("tiny first: %+v", task)
	}
	if _, task := s.callsUntilTask(tiny, 2000); task == nil || task.Level != 1 {
		t.Errorf("tiny after level 3: %+v, want level 1", task)
	}
}

// TestLegacyOSR checks the JDK 8 non-tiered back-edge rule: the MDO from
// 3300 events on, OSR once its taken count is a multiple of 1024 at or past
// 10700.
func TestLegacyOSR(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R8, []string{"-XX:-TieredCompilation"}...), 0, 1)
	m := NewMethod(looper)
	f := s.enter(m, 3)
	_, task := s.backedgesUntilTask(f, 100000)
	if task == nil || task.Level != 4 || task.BCI != 3 {
		t.Fatalf("task %+v", task)
	}
	_, _, taken, _, ok := m.MDOCounts()
	if !ok || taken != 11264 {
		t.Errorf("OSR at MDO taken count %d, want 11264", taken)
	}
}

// TestIDsAndNotEntrant checks compile ids increase across both compilers
// and that installs retire the older code.
func TestIDsAndNotEntrant(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R25, "-XX:-BackgroundCompilation"), 1, 1)
	a, b := NewMethod(plain), NewMethod(noProf)
	_, t1 := s.callsUntilTask(a, 1000)
	_, t2 := s.callsUntilTask(b, 1000)
	_, t3 := s.callsUntilTask(b, 2000)
	if t1.ID != 1 || t2.ID != 2 || t3.ID != 3 || t3.Compiler() != C2 {
		t.Errorf("ids %d %d %d", t1.ID, t2.ID, t3.ID)
	}
	want := "   2       3       T::noProf (40 bytes)   made not entrant: not used"
	found := false
	for _, l := range s.out {
		found = found || strings.HasSuffix(l, want)
	}
	if !found {
		t.Errorf("no line ending %q in\n%s", want, strings.Join(s.out, "\n"))
	}
}

// TestCodeCacheFactor checks threshold_scale's code-cache term: with the
// profiled heap's reverse free ratio at 3 (two thirds full) the C1
// thresholds grow by e^(3−2), so level 3 comes at call 640 (200·e ≈ 544),
// while C2 thresholds are untouched.
func TestCodeCacheFactor(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R17), 1, 1)
	s.p.SetCodeCacheReverseFreeRatio(3)
	if k := s.p.ThresholdScale(LevelFullProfile); k < 2.718 || k > 2.719 {
		t.Errorf("k3 = %v, want e", k)
	}
	if k := s.p.ThresholdScale(LevelFullOptimization); k != 1 {
		t.Errorf("k4 = %v, want 1", k)
	}
	if n, _ := s.callsUntilTask(NewMethod(plain), 2000); n != 640 {
		t.Errorf("requested at %d, want 640", n)
	}
	s.p.SetCodeCacheReverseFreeRatio(1.5) // below 2: no effect
	if n, _ := s.callsUntilTask(NewMethod(plain), 2000); n != 256 {
		t.Errorf("half-empty cache: requested at %d, want 256", n)
	}
}

// TestHighOnly checks -XX:CompilationMode=high-only with tiered flags: no
// C1 level at all, the interpreter profiles from 33% of the emulated
// thresholds, and C2 compiles when the MDO passes them; PrintCompilation
// keeps the tier column.
func TestHighOnly(t *testing.T) {
	s := newSim(t, cfgOf(t, jdk.R25, []string{"-XX:CompilationMode=high-only", "-XX:-BackgroundCompilation"}...), 0, 1)
	m := NewMethod(plain)
	n, task := s.callsUntilTask(m, 10000)
	if task == nil || task.Level != 4 || n != 6784 {
		t.Fatalf("high-only: call %d %+v, want level 4 at 6784", n, task)
	}
	if !strings.Contains(strings.Join(s.out, "\n"), "b  4       T::plain (40 bytes)") {
		t.Errorf("no tiered PrintCompilation line in\n%s", strings.Join(s.out, "\n"))
	}
	// Trivial methods go to 4 too: there is no level 1.
	if _, task := s.callsUntilTask(NewMethod(accessor), 200); task == nil || task.Level != 4 {
		t.Errorf("accessor in high-only: %+v", task)
	}
}

// TestExcludedMethod: a method a compile command excludes is refused at
// each request, becomes not compilable by that level's compiler, and the
// hook hears of each refusal once.
func TestExcludedMethod(t *testing.T) {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := FromFlags(set)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(cfg, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []Exclusion
	p.SetExcludeHook(func(x Exclusion) { got = append(got, x) })
	m := NewMethod(MethodInfo{Holder: "H", Name: "m", Signature: "()V", CodeSize: 40, Excluded: true})
	if task := p.submit(m, InvocationEntryBCI, LevelFullProfile, ReasonTiered, 0); task != nil {
		t.Fatalf("excluded method queued: %+v", task)
	}
	if !m.notCompilable(LevelFullProfile) || m.notCompilable(LevelFullOptimization) {
		t.Errorf("after a level-3 refusal: C1 %v, C2 %v; want C1 only", m.notCompilable(LevelFullProfile), m.notCompilable(LevelFullOptimization))
	}
	if task := p.submit(m, 7, LevelFullOptimization, ReasonTiered, 0); task != nil {
		t.Fatalf("excluded method queued for OSR: %+v", task)
	}
	if !m.notOSRCompilable(LevelFullOptimization) {
		t.Error("an OSR refusal left C2 OSR open")
	}
	if len(got) != 2 || got[0].Level != LevelFullProfile || got[0].OSR || got[1].Level != LevelFullOptimization || !got[1].OSR {
		t.Errorf("hook heard %+v", got)
	}
}
