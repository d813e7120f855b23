package policy

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// The Hot.java methods, as javac 17 compiled them.
var (
	hotWork = MethodInfo{Holder: "Hot", Name: "work", Signature: "(I)I", CodeSize: 20, NothingToProfile: true}
	hotLoop = MethodInfo{Holder: "Hot", Name: "loop", Signature: "(I)I", CodeSize: 25, HasLoops: true}
	hotMain = MethodInfo{Holder: "Hot", Name: "main", Signature: "([Ljava/lang/String;)V", CodeSize: 71, HasLoops: true}
)

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "jvm", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// runHot drives Hot.main's call sequence through the model: 20000 calls
// of work from main's loop, then one call of loop with 500000 back-edges,
// leaving OSR code at level 4 through an uncommon trap at the loop exit
// (what C2's OSR code does when the never-taken exit branch is taken).
func runHot(s *sim) (work, loop, main *Method) {
	work, loop, main = NewMethod(hotWork), NewMethod(hotLoop), NewMethod(hotMain)
	mf := s.enter(main, 19)
	for c := 0; c < 20000; c++ {
		s.call(work)
		s.backedge(mf)
	}
	lf := s.enter(loop, 4)
	for k := 0; k < 500000; k++ {
		s.backedge(lf)
	}
	if lf.level == LevelFullOptimization {
		s.trap(lf)
	}
	return work, loop, main
}

// TestRecordedJVM replays Hot.java's call sequence through the policy and
// compares, per method, every PrintTieredEvents line (without time and
// rate) and every PrintCompilation line (without time, ids renumbered)
// with what JDK 17.0.15 and Temurin 25.0.3 printed (testdata/jvm). The
// -Xbatch runs are deterministic, so the whole per-method transcript must
// match: the notification counts at which level 3, 4, OSR 3 and OSR 4 were
// requested, MDO creation and counts, queue lengths, k factors, statuses
// and the not-entrant lines.
func TestRecordedJVM(t *testing.T) {
	cases := []struct {
		file string
		jdk  jdk.Release
		args []string // after -Xbatch
	}{
		{"hot_17_batch.txt", jdk.R17, nil},
		{"hot_25_batch.txt", jdk.R25, nil},
		{"hot_17_notiered_batch.txt", jdk.R17, []string{"-XX:-TieredCompilation"}},
		{"hot_25_notiered_batch.txt", jdk.R25, []string{"-XX:-TieredCompilation"}},
		{"hot_17_stop1_batch.txt", jdk.R17, []string{"-XX:TieredStopAtLevel=1"}},
		{"hot_17_cts05_batch.txt", jdk.R17, []string{"-XX:CompileThresholdScaling=0.5"}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			cfg := cfgOf(t, tc.jdk, append([]string{"-Xbatch"}, tc.args...)...)
			cfg.CICompilerCount = 0 // the per-CPU count of the recording machine's 2 CPUs
			c1, c2, err := CompilerCounts(2, cfg)
			if err != nil {
				t.Fatal(err)
			}
			s := newSim(t, cfg, c1, c2)
			work, loop, main := runHot(s)
			want := normalize(readLines(t, tc.file))
			got := normalize(s.out)
			for _, m := range []*Method{work, loop, main} {
				if len(only(want, m)) < 4 {
					t.Fatalf("%s: recording has only %d lines for %s", tc.file, len(only(want, m)), m.SigName())
				}
				diffLines(t, m.SigName(), only(got, m), only(want, m))
			}
		})
	}
}

// TestRecordedJVMXcomp replays the -Xcomp runs: every method is compiled
// at level 3 before its first call, whose count in the level-3 code
// (Tier3InvokeNotifyFreqLog=0, Tier4InvocationThreshold=0) asks for level
// 4 at once; the running level-3 frames then count back-edges in the MDO.
// C1 inlined work into main, so work gets no calls of its own here.
func TestRecordedJVMXcomp(t *testing.T) {
	for _, tc := range []struct {
		file string
		jdk  jdk.Release
	}{{"hot_17_xcomp.txt", jdk.R17}, {"hot_25_xcomp.txt", jdk.R25}} {
		t.Run(tc.file, func(t *testing.T) {
			cfg := cfgOf(t, tc.jdk, "-Xcomp")
			s := newSim(t, cfg, 1, 1)
			loop, main := NewMethod(hotLoop), NewMethod(hotMain)
			mf := s.enter(main, 19)
			for c := 0; c < 20000; c++ {
				s.backedge(mf)
			}
			lf := s.enter(loop, 4)
			for k := 0; k < 500000; k++ {
				s.backedge(lf)
			}
			var want []string
			for _, l := range normalize(readLines(t, tc.file)) {
				if !strings.HasSuffix(l, "made zombie") { // the JDK 17 sweeper, not modelled
					want = append(want, l)
				}
			}
			got := normalize(s.out)
			for _, m := range []*Method{main, loop} {
				if len(only(want, m)) < 5 {
					t.Fatalf("recording has only %d lines for %s", len(only(want, m)), m.SigName())
				}
				diffLines(t, m.SigName(), only(got, m), only(want, m))
			}
		})
	}
}

// TestRecordedJVMBackground replays Hot.work's calls from the recorded
// runs with background compilation. When a compiler thread picks a task up
// is the machine's timing, not policy, so the script below places the
// compiles where the recording shows them (the first event after them);
// everything else — the 256th-call request, MDO creation at call 512
// (Tier0ProfilingStartPercentage), the queue length and k=1.20 while the
// task waits, the 3→4 request at the first level-3 notification (nothing
// to profile), and in JDK 25 the queue-time downgrade 3→2 of an
// already-profiled method (update-in-queue) — is the policy's and must
// match event by event.
func TestRecordedJVMBackground(t *testing.T) {
	cases := []struct {
		file string
		jdk  jdk.Release
		// Calls after which compiler threads act; 0 = never.
		installC1, pickC2, lastCall int
		pickC1AtEnd                 bool
	}{
		// JDK 17: level 3 installed after call 3072, C2 picks the level-4
		// task before call 4608; compare up to call 9728, where the
		// level-4 install races with the caller (see README).
		{file: "hot_17_bg.txt", jdk: jdk.R17, installC1: 3072, pickC2: 4500, lastCall: 9728},
		// JDK 25: the C1 thread is busy with JDK methods until all 20000
		// calls are done, then downgrades the task to level 2.
		{file: "hot_25_bg.txt", jdk: jdk.R25, lastCall: 20000, pickC1AtEnd: true},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			s := newSim(t, cfgOf(t, tc.jdk), 1, 1)
			work := NewMethod(hotWork)
			for c := 1; c <= tc.lastCall; c++ {
				s.call(work)
				if c == tc.installC1 {
					task := s.p.Next(C1, s.now)
					if task == nil {
						t.Fatalf("no C1 task at call %d", c)
					}
					s.p.Installed(task, s.now)
				}
				if c == tc.pickC2 {
					if task := s.p.Next(C2, s.now); task == nil || task.Level != LevelFullOptimization {
						t.Fatalf("C2 task at call %d = %v", c, task)
					}
				}
			}
			if tc.pickC1AtEnd {
				if task := s.p.Next(C1, s.now); task == nil || task.Level != LevelLimitedProfile {
					t.Fatalf("C1 task after the calls = %+v, want a level-2 task", task)
				}
			}
			var want []string
			for _, l := range only(normalize(readLines(t, tc.file)), work) {
				if l[0] == '[' {
					want = append(want, l)
				}
			}
			if tc.pickC2 != 0 {
				// Cut the recording after the event at the last call.
				for i, l := range want {
					if strings.Contains(l, " total="+strconv.Itoa(tc.lastCall)+",") {
						want = want[:i+1]
						break
					}
				}
			}
			var got []string
			for _, l := range only(normalize(s.out), work) {
				if l[0] == '[' {
					got = append(got, l)
				}
			}
			if len(want) < 20 {
				t.Fatalf("only %d recorded events", len(want))
			}
			t.Logf("%d events compared; last: %s", len(want), want[len(want)-1])
			diffLines(t, "Hot.work", got, want)
		})
	}
}
