package policy

import (
	"errors"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

func changeMap(ch []Change) map[string]Change {
	m := map[string]Change{}
	for _, c := range ch {
		m[c.Flag] = c
	}
	return m
}

// TestErgonomics checks the startup adjustments against what JDK 17.0.15
// printed with -XX:+PrintFlagsFinal for the same options (values and
// origins).
func TestErgonomics(t *testing.T) {
	type want struct {
		value  string
		origin Origin
	}
	cases := []struct {
		name string
		jdk  jdk.Release
		mod  func(*Config)
		want map[string]want
		// absent lists flags that must not be reported.
		absent []string
	}{
		{
			name: "-XX:CompileThresholdScaling=0.5", jdk: jdk.R17,
			mod: set("CompileThresholdScaling", func(c *Config) { c.CompileThresholdScaling = 0.5 }),
			want: map[string]want{
				"CompileThreshold": {"5000", OriginErgonomic}, "Tier0BackedgeNotifyFreqLog": {"9", OriginErgonomic},
				"Tier0InvokeNotifyFreqLog": {"6", OriginErgonomic}, "Tier23InlineeNotifyFreqLog": {"19", OriginErgonomic},
				"Tier2BackedgeNotifyFreqLog": {"13", OriginErgonomic}, "Tier2InvokeNotifyFreqLog": {"10", OriginErgonomic},
				"Tier3BackEdgeThreshold": {"30000", OriginErgonomic}, "Tier3BackedgeNotifyFreqLog": {"12", OriginErgonomic},
				"Tier3CompileThreshold": {"1000", OriginErgonomic}, "Tier3InvocationThreshold": {"100", OriginErgonomic},
				"Tier3InvokeNotifyFreqLog": {"9", OriginErgonomic}, "Tier3MinInvocationThreshold": {"50", OriginErgonomic},
				"Tier4BackEdgeThreshold": {"20000", OriginErgonomic}, "Tier4CompileThreshold": {"7500", OriginErgonomic},
				"Tier4InvocationThreshold": {"2500", OriginErgonomic}, "Tier4MinInvocationThreshold": {"300", OriginErgonomic},
			},
		},
		{
			name: "-XX:-TieredCompilation (high-only emulation, origin stays default)", jdk: jdk.R17,
			mod: set("TieredCompilation", func(c *Config) { c.TieredCompilation = false }),
			want: map[string]want{
				"Tier0ProfilingStartPercentage": {"33", OriginDefault},
				"Tier3InvocationThreshold":      {"5000", OriginDefault}, "Tier3MinInvocationThreshold": {"600", OriginDefault},
				"Tier3CompileThreshold": {"10000", OriginDefault}, "Tier3BackEdgeThreshold": {"15000", OriginDefault},
				"Tier4CompileThreshold": {"10000", OriginDefault}, "Tier4BackEdgeThreshold": {"15000", OriginDefault},
			},
			absent: []string{"Tier4InvocationThreshold", "Tier4MinInvocationThreshold", "ProfileInterpreter"},
		},
		{
			name: "-XX:-TieredCompilation -XX:CompileThreshold=3000 (legacy emulation)", jdk: jdk.R17,
			mod: func(c *Config) {
				c.TieredCompilation, c.CompileThreshold = false, 3000
				c.Explicit["TieredCompilation"], c.Explicit["CompileThreshold"] = true, true
			},
			want: map[string]want{
				"Tier0ProfilingStartPercentage": {"33", OriginErgonomic},
				"Tier3InvocationThreshold":      {"3000", OriginErgonomic}, "Tier3MinInvocationThreshold": {"3000", OriginErgonomic},
				"Tier3CompileThreshold": {"3000", OriginErgonomic}, "Tier3BackEdgeThreshold": {"4200", OriginErgonomic},
				"Tier4InvocationThreshold": {"3000", OriginErgonomic}, "Tier4MinInvocationThreshold": {"3000", OriginErgonomic},
				"Tier4CompileThreshold": {"3000", OriginErgonomic}, "Tier4BackEdgeThreshold": {"4200", OriginErgonomic},
			},
			absent: []string{"Tier0InvokeNotifyFreqLog", "Tier0BackedgeNotifyFreqLog"},
		},
		{
			name: "-XX:CompileThreshold=3000 in tiered mode is ignored", jdk: jdk.R17,
			mod:    set("CompileThreshold", func(c *Config) { c.CompileThreshold = 3000 }),
			want:   map[string]want{},
			absent: []string{"Tier3InvocationThreshold", "Tier4InvocationThreshold"},
		},
		{
			name: "-Xcomp", jdk: jdk.R17, mod: func(c *Config) { c.Exec = Comp },
			want: map[string]want{
				"Tier3InvokeNotifyFreqLog": {"0", OriginCommandLine}, "Tier4InvocationThreshold": {"0", OriginCommandLine},
				"BackgroundCompilation": {"false", OriginDefault},
			},
		},
		{
			name: "-XX:TieredStopAtLevel=1", jdk: jdk.R17,
			mod:  set("TieredStopAtLevel", func(c *Config) { c.TieredStopAtLevel = 1 }),
			want: map[string]want{"ProfileInterpreter": {"false", OriginCommandLine}},
		},
		{
			name: "-XX:CompilationMode=quick-only", jdk: jdk.R17,
			mod:  set("CompilationMode", func(c *Config) { c.CompilationMode = ModeQuickOnly }),
			want: map[string]want{"ProfileInterpreter": {"false", OriginCommandLine}},
		},
		{
			name: "-Xint", jdk: jdk.R17, mod: func(c *Config) { c.Exec = Int },
			want: map[string]want{
				"ProfileInterpreter": {"false", OriginCommandLine}, "TieredCompilation": {"false", OriginCommandLine},
				"UseCompiler": {"false", OriginDefault}, "UseOnStackReplacement": {"false", OriginDefault},
			},
		},
		{
			name: "-XX:CompileThresholdScaling=0 is -Xint", jdk: jdk.R25,
			mod: set("CompileThresholdScaling", func(c *Config) { c.CompileThresholdScaling = 0 }),
			want: map[string]want{
				"ProfileInterpreter": {"false", OriginCommandLine}, "TieredCompilation": {"false", OriginCommandLine},
				"UseCompiler": {"false", OriginDefault}, "UseOnStackReplacement": {"false", OriginDefault},
			},
			absent: []string{"Tier3InvocationThreshold", "CompileThreshold"},
		},
		{
			name: "-XX:TieredStopAtLevel=0", jdk: jdk.R17,
			mod: set("TieredStopAtLevel", func(c *Config) { c.TieredStopAtLevel = 0 }),
			want: map[string]want{
				"ProfileInterpreter": {"false", OriginCommandLine}, "TieredCompilation": {"false", OriginCommandLine},
				"UseCompiler": {"false", OriginCommandLine},
			},
			absent: []string{"UseOnStackReplacement"},
		},
		{
			name: "JDK 8 -XX:-TieredCompilation keeps the tier flags", jdk: jdk.R8,
			mod:    set("TieredCompilation", func(c *Config) { c.TieredCompilation = false }),
			want:   map[string]want{},
			absent: []string{"Tier3InvocationThreshold", "Tier0ProfilingStartPercentage"},
		},
		{
			name: "JDK 8 -Xcomp (plain assignment, origin default)", jdk: jdk.R8, mod: func(c *Config) { c.Exec = Comp },
			want: map[string]want{"Tier3InvokeNotifyFreqLog": {"0", OriginDefault}, "Tier4InvocationThreshold": {"0", OriginDefault}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ch, err := Ergonomics(mustCfg(t, tc.jdk, tc.mod))
			if err != nil {
				t.Fatal(err)
			}
			got := changeMap(ch)
			for flag, w := range tc.want {
				c, ok := got[flag]
				if !ok {
					t.Errorf("%s not changed, want %s {%s}", flag, w.value, w.origin)
					continue
				}
				if c.New != w.value || c.Origin != w.origin {
					t.Errorf("%s = %s {%s}, want %s {%s}", flag, c.New, c.Origin, w.value, w.origin)
				}
			}
			for _, flag := range tc.absent {
				if c, ok := got[flag]; ok {
					t.Errorf("%s changed to %s, want untouched", flag, c.New)
				}
			}
		})
	}
}

func TestErgonomicsErrors(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"negative scaling", func(c *Config) { c.CompileThresholdScaling = -1 }, "Negative value specified for CompileThresholdScaling"},
		{"stop level 5", func(c *Config) { c.TieredStopAtLevel = 5 }, "TieredStopAtLevel=5 is outside the allowed range [ 0 ... 4 ]"},
		{"bad jdk", func(c *Config) { c.JDK = 11 }, "unsupported JDK Release(11)"},
		{"negative threshold", func(c *Config) { c.Tier3InvocationThreshold = -2 }, "Tier3InvocationThreshold=-2 is outside the allowed range [ 0 ... 2147483647 ]"},
		{"freq log 31", func(c *Config) { c.Tier0InvokeNotifyFreqLog = 31 }, "Tier0InvokeNotifyFreqLog=31 is outside"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Ergonomics(mustCfg(t, jdk.R17, tc.mod))
			if !errors.Is(err, ErrConfig) || !contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if _, err := New(mustCfg(t, jdk.R17, tc.mod), 1, 1); err == nil {
				t.Error("New accepted the bad config")
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestScaledFreqLog(t *testing.T) {
	cases := []struct {
		log   int64
		scale float64
		want  int64
	}{
		{7, 1, 7}, {7, 0.5, 6}, {10, 0.5, 9}, {7, 0.3, 5}, {7, 2, 8}, {7, 3, 8},
		{7, 1e-9, 0}, {0, 0.5, 0}, {7, 0, 0}, {20, 1e6, 32}, {7, -1, 7},
	}
	for _, tc := range cases {
		if got := ScaledFreqLog(tc.log, tc.scale); got != tc.want {
			t.Errorf("ScaledFreqLog(%d, %v) = %d, want %d", tc.log, tc.scale, got, tc.want)
		}
	}
	if got := ScaledThreshold(200, 1e300); got != 1<<63-1 {
		t.Errorf("ScaledThreshold overflow = %d", got)
	}
	if got := ScaledThreshold(15000, 0.33); got != 4950 {
		t.Errorf("ScaledThreshold(15000, 0.33) = %d", got)
	}
}

// TestCompilerCounts checks the thread split (hotspot.md §1.8 table) and
// the counts JDK 17.0.15 and 25.0.3 printed as CICompilerCount.
func TestCompilerCounts(t *testing.T) {
	tiered := func(rel jdk.Release) Config { return DefaultConfig(rel) }
	noTiered := func(rel jdk.Release) Config {
		c := DefaultConfig(rel)
		c.TieredCompilation = false
		return c
	}
	stop1 := func(rel jdk.Release) Config {
		c := DefaultConfig(rel)
		c.TieredStopAtLevel = 1
		return c
	}
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
	xint := DefaultConfig(jdk.R17)
	xint.Exec = Int
	if c1, c2, _ := CompilerCounts(8, xint); c1 != 0 || c2 != 0 {
		t.Errorf("-Xint: %d, %d", c1, c2)
	}
	if _, _, err := CompilerCounts(0, tiered(jdk.R17)); !errors.Is(err, ErrConfig) {
		t.Errorf("0 cpus: %v", err)
	}
	fixed := DefaultConfig(jdk.R17)
	fixed.CICompilerCount = 6
	if c1, c2, _ := CompilerCounts(2, fixed); c1 != 2 || c2 != 4 {
		t.Errorf("CICompilerCount=6: %d, %d", c1, c2)
	}
}

func TestCICompilerCountFlag(t *testing.T) {
	adjust := func(rel jdk.Release, mod func(*Config)) Config {
		c, _, err := Ergonomics(mustCfg(t, rel, mod))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	xint := func(c *Config) { c.Exec = Int }
	noTiered := set("TieredCompilation", func(c *Config) { c.TieredCompilation = false })
	cases := []struct {
		name   string
		cfg    Config
		cpus   int
		want   int64
		origin Origin
	}{
		{"17 2 cpus", adjust(jdk.R17, nil), 2, 2, OriginErgonomic},
		{"25 16 cpus", adjust(jdk.R25, nil), 16, 12, OriginErgonomic},
		{"25 -TieredCompilation", adjust(jdk.R25, noTiered), 2, 1, OriginErgonomic},
		{"17 -Xint", adjust(jdk.R17, xint), 2, 2, OriginDefault},
		{"25 -Xint", adjust(jdk.R25, xint), 2, 0, OriginErgonomic},
		{"explicit", adjust(jdk.R17, set("CICompilerCount", func(c *Config) { c.CICompilerCount = 3 })), 2, 3, OriginCommandLine},
	}
	for _, tc := range cases {
		v, o, err := CICompilerCountFlag(tc.cpus, tc.cfg)
		if err != nil || v != tc.want || o != tc.origin {
			t.Errorf("%s: %d {%s} %v, want %d {%s}", tc.name, v, o, err, tc.want, tc.origin)
		}
	}
}

// TestHugeScaling checks what JDK 17.0.15 and 25.0.3 printed for huge
// CompileThresholdScaling values: 17 refuses out-of-range scaled values
// with a message each (and stops when CompileThreshold leaves its range),
// 25 clamps them to their ranges.
func TestHugeScaling(t *testing.T) {
	scale := func(v float64) func(*Config) {
		return set("CompileThresholdScaling", func(c *Config) { c.CompileThresholdScaling = v })
	}
	t.Run("17 x1e5", func(t *testing.T) {
		c, ch, warn, err := ErgonomicsWithWarnings(mustCfg(t, jdk.R17, scale(1e5)))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"intx Tier3BackEdgeThreshold=6000000000 is outside the allowed range [ 0 ... 2147483647 ]",
			"intx Tier23InlineeNotifyFreqLog=32 is outside the allowed range [ 0 ... 30 ]",
			"intx Tier4BackEdgeThreshold=4000000000 is outside the allowed range [ 0 ... 2147483647 ]",
		}
		if !equalStrings(warn, want) {
			t.Errorf("warnings\n%q\nwant\n%q", warn, want)
		}
		if c.Tier4BackEdgeThreshold != 40000 || c.Tier23InlineeNotifyFreqLog != 20 || c.Tier0InvokeNotifyFreqLog != 23 {
			t.Errorf("values %d %d %d", c.Tier4BackEdgeThreshold, c.Tier23InlineeNotifyFreqLog, c.Tier0InvokeNotifyFreqLog)
		}
		if _, ok := changeMap(ch)["Tier4BackEdgeThreshold"]; ok {
			t.Error("refused value reported as a change")
		}
	})
	t.Run("17 x1e6 stops", func(t *testing.T) {
		_, _, warn, err := ErgonomicsWithWarnings(mustCfg(t, jdk.R17, scale(1e6)))
		if !errors.Is(err, ErrConfig) || !contains(err.Error(), "CompileThreshold (10000000000) must be between 0 and 1073741823") {
			t.Errorf("err = %v", err)
		}
		if len(warn) != 7 || warn[0] != "intx Tier3BackEdgeThreshold=60000000000 is outside the allowed range [ 0 ... 2147483647 ]" {
			t.Errorf("warnings %q", warn)
		}
	})
	t.Run("25 x1e7 clamps", func(t *testing.T) {
		c, _, warn, err := ErgonomicsWithWarnings(mustCfg(t, jdk.R25, scale(1e7)))
		if err != nil {
			t.Fatal(err)
		}
		if !equalStrings(warn, []string{"CompileThreshold (100000000000) must be between 0 and 1073741823"}) {
			t.Errorf("warnings %q", warn)
		}
		if c.CompileThreshold != 10000 || c.Tier3InvocationThreshold != 2000000000 || c.Tier3MinInvocationThreshold != 1000000000 ||
			c.Tier4InvocationThreshold != 2147483647 || c.Tier3BackEdgeThreshold != 2147483647 ||
			c.Tier0InvokeNotifyFreqLog != 30 || c.Tier23InlineeNotifyFreqLog != 30 {
			t.Errorf("values %+v", c)
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNewThreadCounts(t *testing.T) {
	cfg := DefaultConfig(jdk.R17)
	for _, tc := range []struct{ c1, c2 int }{{0, 1}, {1, 0}, {-1, 1}} {
		if _, err := New(cfg, tc.c1, tc.c2); !errors.Is(err, ErrConfig) {
			t.Errorf("New(c1=%d, c2=%d) = %v, want ErrConfig", tc.c1, tc.c2, err)
		}
	}
	xint := cfg
	xint.Exec = Int
	if _, err := New(xint, 0, 0); err != nil {
		t.Errorf("-Xint with no threads: %v", err)
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
