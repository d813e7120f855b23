package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

// TestFromFlags checks what the policy reads from a settled flag set: the knobs, the release
// and the execution mode. The start-up rules that set those flags are flags' (TestStartupRules,
// TestHugeScaling there).
func TestFromFlags(t *testing.T) {
	c := cfgOf(t, jdk.R17, "-XX:CompileThresholdScaling=0.5", "-XX:Tier3DelayOn=7", "-Xbatch")
	if c.JDK != jdk.R17 || c.Exec != Mixed || c.BackgroundCompilation || !c.TieredCompilation ||
		c.Tier3InvocationThreshold != 100 || c.Tier0InvokeNotifyFreqLog != 6 || c.Tier3DelayOn != 7 ||
		c.TieredStopAtLevel != 4 || c.CompileThreshold != 5000 || c.TieredOldPercentage != 1000 {
		t.Errorf("17 CompileThresholdScaling=0.5: %+v", c)
	}
	for _, tc := range []struct {
		rel  jdk.Release
		args []string
		exec ExecMode
		mode CompilationMode
	}{
		{jdk.R17, []string{"-Xint"}, Int, ModeDefault},
		{jdk.R25, []string{"-XX:CompileThresholdScaling=0"}, Int, ModeDefault},
		{jdk.R17, []string{"-XX:TieredStopAtLevel=0"}, Int, ModeDefault},
		{jdk.R8, []string{"-XX:TieredStopAtLevel=0"}, Mixed, ModeDefault},
		{jdk.R25, []string{"-Xcomp"}, Comp, ModeDefault},
		{jdk.R25, []string{"-XX:CompilationMode=high-only"}, Mixed, ModeHighOnly},
		{jdk.R17, []string{"-XX:CompilationMode=quick-only"}, Mixed, ModeQuickOnly},
		{jdk.R8u, nil, Mixed, ModeDefault},
	} {
		c := cfgOf(t, tc.rel, tc.args...)
		if c.Exec != tc.exec || c.CompilationMode != tc.mode {
			t.Errorf("%s %v: exec %d mode %s, want %d %s", tc.rel, tc.args, c.Exec, c.CompilationMode, tc.exec, tc.mode)
		}
	}
	if _, err := FromFlags(nil); !errors.Is(err, ErrConfig) {
		t.Errorf("nil set: %v", err)
	}
	if _, err := FromFlags(flags.NewSet(jdk.Release(11), jdk.AMD64)); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "Release(11)") {
		t.Errorf("JDK 11: %v, want an error naming it", err)
	}
	if _, err := New(Config{JDK: jdk.R17, TieredCompilation: true, TieredStopAtLevel: 4}, 1, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("a Config not built by FromFlags: %v", err)
	}
}

// TestReleaseRows checks that every release has exactly one policy row and a thread count.
func TestReleaseRows(t *testing.T) {
	for _, r := range jdk.All() {
		n := 0
		for _, row := range releases {
			if row.rel == r {
				n++
				if row.tieredThreads == nil {
					t.Errorf("JDK %s: no thread count", r)
				}
			}
		}
		if n != 1 {
			t.Errorf("JDK %s has %d policy rows, want 1", r, n)
		}
	}
}

// TestCompilerCounts checks the thread split (hotspot.md §1.8 table) and
// the counts JDK 17.0.15 and 25.0.3 printed as CICompilerCount.
func TestCompilerCounts(t *testing.T) {
	perCPU := func(rel jdk.Release, args ...string) Config {
		c := cfgOf(t, rel, args...)
		c.CICompilerCount = 0 // the per-CPU count, as runtime/ergo asks for it
		return c
	}
	tiered := func(rel jdk.Release) Config { return perCPU(rel) }
	noTiered := func(rel jdk.Release) Config { return perCPU(rel, "-XX:-TieredCompilation") }
	stop1 := func(rel jdk.Release) Config { return perCPU(rel, "-XX:TieredStopAtLevel=1") }
	cases := []struct {
		name   string
		cfg    Config
		cpus   int
		c1, c2 int
	}{
		{"17 tiered 1 cpu", tiered(jdk.R17), 1, 1, 1},
		{"17 tiered 2 cpus", tiered(jdk.R17), 2, 1, 1},
		{"17 tiered 4 cpus", tiered(jdk.R17), 4, 1, 2},
		{"17 tiered 8 cpus", tiered(jdk.R17), 8, 1, 3},
		{"17 tiered 16 cpus", tiered(jdk.R17), 16, 4, 8},
		{"25 tiered 32 cpus", tiered(jdk.R25), 32, 5, 10},
		{"25 tiered 64 cpus", tiered(jdk.R25), 64, 6, 12},
		{"25 tiered 128 cpus", tiered(jdk.R25), 128, 7, 14},
		{"8 tiered 2 cpus", tiered(jdk.R8), 2, 1, 1},
		{"8 tiered 8 cpus", tiered(jdk.R8), 8, 1, 3},
		{"8 tiered 16 cpus", tiered(jdk.R8), 16, 4, 8},
		{"17 -TieredCompilation 2 cpus (measured 2)", noTiered(jdk.R17), 2, 0, 2},
		{"21 -TieredCompilation 2 cpus", noTiered(jdk.R21), 2, 0, 1},
		{"25 -TieredCompilation 2 cpus (measured 1)", noTiered(jdk.R25), 2, 0, 1},
		{"25 -TieredCompilation 16 cpus (measured 12)", noTiered(jdk.R25), 16, 0, 12},
		{"17 TieredStopAtLevel=1 2 cpus (measured 2)", stop1(jdk.R17), 2, 2, 0},
		{"25 TieredStopAtLevel=1 2 cpus (measured 1)", stop1(jdk.R25), 2, 1, 0},
		{"8 non-tiered 8 cpus", noTiered(jdk.R8), 8, 0, 2},
		{"8 non-tiered 2 cpus", noTiered(jdk.R8), 2, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c1, c2, err := CompilerCounts(tc.cpus, tc.cfg)
			if err != nil || c1 != tc.c1 || c2 != tc.c2 {
				t.Errorf("CompilerCounts(%d) = %d, %d, %v; want %d, %d", tc.cpus, c1, c2, err, tc.c1, tc.c2)
			}
		})
	}
	if c1, c2, _ := CompilerCounts(8, perCPU(jdk.R17, "-Xint")); c1 != 0 || c2 != 0 {
		t.Errorf("-Xint: %d, %d", c1, c2)
	}
	if _, _, err := CompilerCounts(0, tiered(jdk.R17)); !errors.Is(err, ErrConfig) {
		t.Errorf("0 cpus: %v", err)
	}
	if _, _, err := CompilerCounts(2, Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("a Config not built by FromFlags: %v", err)
	}
	if c1, c2, _ := CompilerCounts(2, cfgOf(t, jdk.R17, "-XX:CICompilerCount=6")); c1 != 2 || c2 != 4 {
		t.Errorf("CICompilerCount=6: %d, %d", c1, c2)
	}
}

func TestNewThreadCounts(t *testing.T) {
	cfg := cfgOf(t, jdk.R17)
	for _, tc := range []struct{ c1, c2 int }{{0, 1}, {1, 0}, {-1, 1}} {
		if _, err := New(cfg, tc.c1, tc.c2); !errors.Is(err, ErrConfig) {
			t.Errorf("New(c1=%d, c2=%d) = %v, want ErrConfig", tc.c1, tc.c2, err)
		}
	}
	if _, err := New(cfgOf(t, jdk.R17, "-Xint"), 0, 0); err != nil {
		t.Errorf("-Xint with no threads: %v", err)
	}
}
