package flags

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// rowOf is "value {origin}" of one flag, as the tables below write it.
func rowOf(s *Set, name string) string { return s.Value(name) + " {" + s.OriginString(name) + "}" }

// TestStartupRules checks the flag-to-flag rules Parse applies after the command line
// (Arguments::set_mode_flags, CompilerConfig::ergo_initialize and set_compilation_policy_flags,
// the flag side of CompilationPolicy::initialize) against what OpenJDK 17.0.15 and Temurin
// 25.0.3 printed with -XX:+PrintFlagsFinal (values and origins); the JDK 8 rows follow 8u's
// sources (plain assignment, so {default}). absent flags must keep their declared default.
func TestStartupRules(t *testing.T) {
	cases := []struct {
		jdk    jdk.Release
		args   []string
		want   map[string]string
		absent []string
	}{
		{jdk.R17, []string{"-XX:CompileThresholdScaling=0.5"}, map[string]string{
			"CompileThreshold": "5000 {ergonomic}", "Tier0BackedgeNotifyFreqLog": "9 {ergonomic}",
			"Tier0InvokeNotifyFreqLog": "6 {ergonomic}", "Tier23InlineeNotifyFreqLog": "19 {ergonomic}",
			"Tier2BackedgeNotifyFreqLog": "13 {ergonomic}", "Tier2InvokeNotifyFreqLog": "10 {ergonomic}",
			"Tier3BackEdgeThreshold": "30000 {ergonomic}", "Tier3BackedgeNotifyFreqLog": "12 {ergonomic}",
			"Tier3CompileThreshold": "1000 {ergonomic}", "Tier3InvocationThreshold": "100 {ergonomic}",
			"Tier3InvokeNotifyFreqLog": "9 {ergonomic}", "Tier3MinInvocationThreshold": "50 {ergonomic}",
			"Tier4BackEdgeThreshold": "20000 {ergonomic}", "Tier4CompileThreshold": "7500 {ergonomic}",
			"Tier4InvocationThreshold": "2500 {ergonomic}", "Tier4MinInvocationThreshold": "300 {ergonomic}",
		}, nil},
		// The high-only emulation of -TieredCompilation keeps the origin {default}.
		{jdk.R17, []string{"-XX:-TieredCompilation"}, map[string]string{
			"Tier0ProfilingStartPercentage": "33 {default}",
			"Tier3InvocationThreshold":      "5000 {default}", "Tier3MinInvocationThreshold": "600 {default}",
			"Tier3CompileThreshold": "10000 {default}", "Tier3BackEdgeThreshold": "15000 {default}",
			"Tier4CompileThreshold": "10000 {default}", "Tier4BackEdgeThreshold": "15000 {default}",
			"InlineSmallCode": "1000 {default}", "CICompilerCountPerCPU": "true {default}",
		}, []string{"Tier4InvocationThreshold", "Tier4MinInvocationThreshold", "ProfileInterpreter"}},
		// The legacy emulation translates CompileThreshold into the tier thresholds.
		{jdk.R17, []string{"-XX:-TieredCompilation", "-XX:CompileThreshold=3000"}, map[string]string{
			"Tier0ProfilingStartPercentage": "33 {ergonomic}",
			"Tier3InvocationThreshold":      "3000 {ergonomic}", "Tier3MinInvocationThreshold": "3000 {ergonomic}",
			"Tier3CompileThreshold": "3000 {ergonomic}", "Tier3BackEdgeThreshold": "4200 {ergonomic}",
			"Tier4InvocationThreshold": "3000 {ergonomic}", "Tier4MinInvocationThreshold": "3000 {ergonomic}",
			"Tier4CompileThreshold": "3000 {ergonomic}", "Tier4BackEdgeThreshold": "4200 {ergonomic}",
		}, []string{"Tier0InvokeNotifyFreqLog", "Tier0BackedgeNotifyFreqLog"}},
		// Tiered mode ignores the legacy flags.
		{jdk.R17, []string{"-XX:CompileThreshold=3000"}, nil, []string{"Tier3InvocationThreshold", "Tier4InvocationThreshold"}},
		{jdk.R17, []string{"-Xcomp"}, map[string]string{
			"Tier3InvokeNotifyFreqLog": "0 {command line}", "Tier4InvocationThreshold": "0 {command line}",
			"BackgroundCompilation": "false {default}", "UseInterpreter": "false {default}",
		}, nil},
		{jdk.R17, []string{"-XX:TieredStopAtLevel=1"}, map[string]string{
			"ProfileInterpreter": "false {command line}", "InlineSmallCode": "1000 {default}"}, nil},
		{jdk.R17, []string{"-XX:CompilationMode=quick-only"}, map[string]string{"ProfileInterpreter": "false {command line}"}, nil},
		{jdk.R17, []string{"-Xint"}, map[string]string{
			"ProfileInterpreter": "false {command line}", "TieredCompilation": "false {command line}",
			"UseCompiler": "false {default}", "UseOnStackReplacement": "false {default}",
			"CICompilerCount": "2 {default}", "CICompilerCountPerCPU": "false {default}", "InlineSmallCode": "1000 {default}",
		}, nil},
		{jdk.R25, []string{"-Xint", "-XX:CICompilerCount=3"}, map[string]string{"CICompilerCount": "0 {command line, ergonomic}"}, nil},
		{jdk.R25, []string{"-XX:CompileThresholdScaling=0"}, map[string]string{
			"ProfileInterpreter": "false {command line}", "TieredCompilation": "false {command line}",
			"UseCompiler": "false {default}", "UseOnStackReplacement": "false {default}",
			"CICompilerCount": "0 {ergonomic}",
		}, []string{"Tier3InvocationThreshold", "CompileThreshold"}},
		{jdk.R17, []string{"-XX:TieredStopAtLevel=0"}, map[string]string{
			"ProfileInterpreter": "false {command line}", "TieredCompilation": "false {command line}",
			"UseCompiler": "false {command line}",
		}, []string{"UseOnStackReplacement"}},
		// TieredStopAtLevel=0 runs no compiler under -TieredCompilation too, the tier
		// thresholds left as declared (17.0.15, 25.0.3).
		{jdk.R25, []string{"-XX:-TieredCompilation", "-XX:TieredStopAtLevel=0"}, map[string]string{
			"ProfileInterpreter": "false {command line}", "UseCompiler": "false {command line}",
			"CICompilerCount": "0 {ergonomic}", "CICompilerCountPerCPU": "false {default}",
		}, []string{"Tier3CompileThreshold", "Tier4BackEdgeThreshold"}},
		// A -XX:-UseCompiler of the command line is no interpreter-only mode: the count is
		// sized per CPU, and -TieredCompilation's thresholds are C2's (17.0.15, 25.0.3).
		{jdk.R25, []string{"-XX:-UseCompiler", "-XX:-TieredCompilation"}, map[string]string{
			"CICompilerCountPerCPU": "true {default}", "Tier3CompileThreshold": "10000 {default}",
		}, nil},
		{jdk.R25, nil, map[string]string{"InlineSmallCode": "2500 {default}", "CICompilerCountPerCPU": "true {default}"}, nil},
		{jdk.R17, []string{"-XX:CICompilerCount=4"}, map[string]string{"CICompilerCountPerCPU": "false {default}"}, nil},
		{jdk.R8, nil, map[string]string{"InlineSmallCode": "2000 {default}", "CICompilerCountPerCPU": "true {default}"}, nil},
		// JDK 8's -TieredCompilation is the non-tiered policy: the tier flags stay, and
		// NonTieredCompPolicy leaves CICompilerCountPerCPU off.
		{jdk.R8, []string{"-XX:-TieredCompilation"}, map[string]string{"InlineSmallCode": "1000 {default}"},
			[]string{"Tier3InvocationThreshold", "Tier0ProfilingStartPercentage", "CICompilerCountPerCPU"}},
		// JDK 8's -Xcomp assigns plainly in AdvancedThresholdPolicy::initialize, with C2 only.
		{jdk.R8, []string{"-Xcomp"}, map[string]string{
			"Tier3InvokeNotifyFreqLog": "0 {default}", "Tier4InvocationThreshold": "0 {default}"}, nil},
		{jdk.R8u, []string{"-Xcomp", "-XX:TieredStopAtLevel=3"}, nil, []string{"Tier3InvokeNotifyFreqLog", "Tier4InvocationThreshold"}},
		{jdk.R8u, []string{"-Xcomp", "-XX:Tier4InvocationThreshold=7"}, map[string]string{
			"Tier3InvokeNotifyFreqLog": "0 {default}", "Tier4InvocationThreshold": "7 {command line}"}, nil},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s %v", tc.jdk, tc.args), func(t *testing.T) {
			s, _, err := Parse(Options{JDK: tc.jdk, Arch: jdk.AMD64, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			SettleCompilerCount(s) // the start-up after the options, as java prints its tables
			decl := NewSet(tc.jdk, jdk.AMD64)
			for name, want := range tc.want {
				if got := rowOf(s, name); got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
			for _, name := range tc.absent {
				if got, want := rowOf(s, name), rowOf(decl, name); got != want {
					t.Errorf("%s = %s, want the declared %s", name, got, want)
				}
			}
		})
	}
	if got, want := rowOf(Defaults(jdk.R17, jdk.AMD64), "InlineSmallCode"), "2500 {default}"; got != want {
		t.Errorf("Defaults: InlineSmallCode = %s, want %s", got, want)
	}
}

// TestCompilerCountWarning checks check_vm_args_consistency's warning: both thread flags
// given on the command line, the per-CPU count wins (recorded on 17 and 25).
func TestCompilerCountWarning(t *testing.T) {
	const w = VMWarningPrefix + "The VM option CICompilerCountPerCPU overrides CICompilerCount.\n"
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-XX:CICompilerCount=3", "-XX:+CICompilerCountPerCPU"}, []string{w}},
		{[]string{"-XX:CICompilerCount=3", "-XX:-CICompilerCountPerCPU"}, nil},
		{[]string{"-XX:+CICompilerCountPerCPU"}, nil},
		{[]string{"-Xint", "-XX:+CICompilerCountPerCPU"}, nil},
		{[]string{"-XX:-PrintWarnings", "-XX:CICompilerCount=3", "-XX:+CICompilerCountPerCPU"}, nil},
	} {
		for _, j := range []jdk.Release{jdk.R17, jdk.R25} {
			_, res, err := Parse(Options{JDK: j, Arch: jdk.AMD64, Args: tc.args})
			if err != nil {
				t.Fatalf("%s %v: %v", j, tc.args, err)
			}
			if !slices.Equal(res.Stderr, tc.want) {
				t.Errorf("%s %v: stderr %q, want %q", j, tc.args, res.Stderr, tc.want)
			}
		}
	}
}

// TestHugeScaling checks what OpenJDK 17.0.15 and Temurin 25.0.3 print for huge
// CompileThresholdScaling values: 17 refuses out-of-range scaled values with a message each
// (in CompilerConfig::set_compilation_policy_flags' order) and keeps the old ones, and stops
// when CompileThreshold leaves its range; 25 clamps the scaled flags to their ranges and only
// refuses CompileThreshold, with its constraint's message, and runs on.
func TestHugeScaling(t *testing.T) {
	outside := func(name string, v, top int64) string {
		return fmt.Sprintf("intx %s=%d is outside the allowed range [ 0 ... %d ]\n", name, v, top)
	}
	const maxJint = 2147483647
	tests := []struct {
		jdk    jdk.Release
		scale  string
		stderr []string
		err    string // the error's text, "" when the VM starts
		want   map[string]string
	}{
		{jdk.R17, "2048", []string{outside("Tier23InlineeNotifyFreqLog", 31, 30)}, "",
			map[string]string{"Tier23InlineeNotifyFreqLog": "20 {default}", "Tier2BackedgeNotifyFreqLog": "25 {ergonomic}"}},
		{jdk.R25, "2048", nil, "", map[string]string{"Tier23InlineeNotifyFreqLog": "30 {ergonomic}"}},
		{jdk.R17, "100000", []string{outside("Tier3BackEdgeThreshold", 6000000000, maxJint),
			outside("Tier23InlineeNotifyFreqLog", 32, 30), outside("Tier4BackEdgeThreshold", 4000000000, maxJint)}, "",
			map[string]string{"CompileThreshold": "1000000000 {ergonomic}", "Tier0InvokeNotifyFreqLog": "23 {ergonomic}",
				"Tier23InlineeNotifyFreqLog": "20 {default}", "Tier3BackEdgeThreshold": "60000 {default}",
				"Tier4BackEdgeThreshold": "40000 {default}", "Tier4InvocationThreshold": "500000000 {ergonomic}"}},
		{jdk.R25, "100000", nil, "",
			map[string]string{"CompileThreshold": "1000000000 {ergonomic}", "Tier0InvokeNotifyFreqLog": "23 {ergonomic}",
				"Tier23InlineeNotifyFreqLog": "30 {ergonomic}", "Tier3BackEdgeThreshold": "2147483647 {ergonomic}",
				"Tier4BackEdgeThreshold": "2147483647 {ergonomic}", "Tier4InvocationThreshold": "500000000 {ergonomic}"}},
		{jdk.R17, "1000000", []string{outside("Tier3BackEdgeThreshold", 60000000000, maxJint),
			outside("Tier2BackedgeNotifyFreqLog", 32, 30), outside("Tier3BackedgeNotifyFreqLog", 32, 30),
			outside("Tier23InlineeNotifyFreqLog", 32, 30), outside("Tier4InvocationThreshold", 5000000000, maxJint),
			outside("Tier4CompileThreshold", 15000000000, maxJint), outside("Tier4BackEdgeThreshold", 40000000000, maxJint)},
			"OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\n" +
				"CompileThreshold (10000000000) must be between 0 and 1073741823\n", nil},
		{jdk.R25, "1000000", []string{"CompileThreshold (10000000000) must be between 0 and 1073741823\n"}, "",
			map[string]string{"CompileThreshold": "10000 {default}", "Tier0InvokeNotifyFreqLog": "26 {ergonomic}",
				"Tier3CompileThreshold": "2000000000 {ergonomic}", "Tier3InvocationThreshold": "200000000 {ergonomic}",
				"Tier4CompileThreshold": "2147483647 {ergonomic}", "Tier4InvocationThreshold": "2147483647 {ergonomic}"}},
		{jdk.R25, "10000000", []string{"CompileThreshold (100000000000) must be between 0 and 1073741823\n"}, "",
			map[string]string{"CompileThreshold": "10000 {default}", "Tier0InvokeNotifyFreqLog": "30 {ergonomic}",
				"Tier3CompileThreshold": "2147483647 {ergonomic}", "Tier3InvocationThreshold": "2000000000 {ergonomic}",
				"Tier3MinInvocationThreshold": "1000000000 {ergonomic}", "Tier4InvocationThreshold": "2147483647 {ergonomic}"}},
	}
	for _, tt := range tests {
		t.Run(tt.jdk.String()+"/"+tt.scale, func(t *testing.T) {
			s, res, err := Parse(Options{JDK: tt.jdk, Arch: jdk.AMD64, Args: []string{"-XX:CompileThresholdScaling=" + tt.scale}})
			if !slices.Equal(res.Stderr, tt.stderr) {
				t.Errorf("stderr\n %q\nwant\n %q", res.Stderr, tt.stderr)
			}
			switch e, _ := err.(*Error); {
			case tt.err == "" && err != nil:
				t.Fatalf("Parse: %v", err)
			case tt.err != "" && (e == nil || e.Text != tt.err):
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			for name, want := range tt.want {
				if got := rowOf(s, name); got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
		})
	}
}

// TestScaledFreqLog checks CompilerConfig::scaled_freq_log and scaled_compile_threshold: a
// notification log of 2^log·scale, capped at 32 (JDK 17) or 30 (JDK 25), and thresholds capped
// at max_intx.
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
		if got := scaledFreqLog(tc.log, tc.scale, 32); got != tc.want {
			t.Errorf("scaledFreqLog(%d, %v, 32) = %d, want %d", tc.log, tc.scale, got, tc.want)
		}
	}
	if got := scaledFreqLog(20, 1e6, maxFreqBits.At(jdk.R25)); got != 30 {
		t.Errorf("JDK 25 caps at %d, want 30", got)
	}
	if got := scaledThreshold(200, 1e300); got != 1<<63-1 {
		t.Errorf("scaledThreshold overflow = %d", got)
	}
	if got := scaledThreshold(15000, 0.33); got != 4950 {
		t.Errorf("scaledThreshold(15000, 0.33) = %d", got)
	}
}

// TestPolicyFlagErrors checks the messages for policy flags outside their ranges (JDK 17's
// texts), which the policy never sees.
func TestPolicyFlagErrors(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"-XX:CompileThresholdScaling=-1.0", "CompileThresholdScaling=-1.000000 is outside the allowed range"},
		{"-XX:TieredStopAtLevel=5", "TieredStopAtLevel=5 is outside the allowed range [ 0 ... 4 ]"},
		{"-XX:Tier3InvocationThreshold=-2", "Tier3InvocationThreshold=-2 is outside the allowed range [ 0 ... 2147483647 ]"},
		{"-XX:Tier0InvokeNotifyFreqLog=31", "Tier0InvokeNotifyFreqLog=31 is outside the allowed range [ 0 ... 30 ]"},
	} {
		_, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{tc.arg}})
		if e, ok := err.(*Error); !ok || !strings.Contains(e.Text, tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.arg, err, tc.want)
		}
	}
}

// TestCodeCacheAndCompilerCount: a code cache below its initial size is refused with java's
// text (17 and 25 alike), and one compiler thread is enough when one compiler runs.
func TestCodeCacheAndCompilerCount(t *testing.T) {
	for _, j := range []jdk.Release{jdk.R17, jdk.R25} {
		for _, tc := range []struct {
			args []string
			want string // "" : starts
		}{
			{[]string{"-XX:ReservedCodeCacheSize=100k"}, "Invalid ReservedCodeCacheSize: 100K. Must be at least InitialCodeCacheSize=2496K.\n"},
			{[]string{"-XX:ReservedCodeCacheSize=2m"}, "Invalid ReservedCodeCacheSize: 2048K. Must be at least InitialCodeCacheSize=2496K.\n"},
			{[]string{"-XX:ReservedCodeCacheSize=3m"}, ""},
			{[]string{"-XX:CICompilerCount=1", "-XX:CompilationMode=quick-only"}, ""},
			{[]string{"-XX:CICompilerCount=1", "-XX:CompilationMode=high-only"}, ""},
			{[]string{"-XX:CICompilerCount=1"}, "CICompilerCount (1) must be at least 2 \n"},
		} {
			_, _, err := Parse(Options{JDK: j, Arch: jdk.AMD64, Args: tc.args})
			got := ""
			if e, ok := err.(*Error); ok {
				got = e.Text
			} else if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("%v %v: error %q, want %q", j, tc.args, got, tc.want)
			}
		}
	}
}
