package policy

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"
)

// The Hot.java methods, as javac 17 compiled them.
var (
	hotWork = MethodInfo{Holder: "Hot", Name: "work", Signature: "(I)I", CodeSize: 20, NothingToProfile: true}
	hotLoop = MethodInfo{Holder: "Hot", Name: "loop", Signature: "(I)I", CodeSize: 25, HasLoops: true}
	hotMain = MethodInfo{Holder: "Hot", Name: "main", Signature: "([Ljava/lang/String;)V", CodeSize: 60, HasLoops: true}
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
		jdk  JDK
		mod  func(*Config)
	}{
		{"hot_17_batch.txt", JDK17, func(c *Config) { c.BackgroundCompilation = false }},
		{"hot_25_batch.txt", JDK25, func(c *Config) { c.BackgroundCompilation = false }},
		{"hot_17_notiered_batch.txt", JDK17, func(c *Config) {
			c.BackgroundCompilation = false
			c.TieredCompilation = false
			c.Explicit["TieredCompilation"] = true
		}},
		{"hot_25_notiered_batch.txt", JDK25, func(c *Config) {
			c.BackgroundCompilation = false
			c.TieredCompilation = false
			c.Explicit["TieredCompilation"] = true
		}},
		{"hot_17_stop1_batch.txt", JDK17, func(c *Config) {
			c.BackgroundCompilation = false
			c.TieredStopAtLevel = 1
			c.Explicit["TieredStopAtLevel"] = true
		}},
		{"hot_17_cts05_batch.txt", JDK17, func(c *Config) {
			c.BackgroundCompilation = false
			c.CompileThresholdScaling = 0.5
			c.Explicit["CompileThresholdScaling"] = true
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			cfg := mustCfg(t, tc.jdk, tc.mod)
			adj, _, err := Ergonomics(cfg)
			if err != nil {
				t.Fatal(err)
			}
			c1, c2, err := CompilerCounts(2, adj)
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
