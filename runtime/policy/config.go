package policy

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/jitsim/jitsim/jdk"
)

// CompilationMode is the value of -XX:CompilationMode (JDK 14+,
// CompilationModeFlag in compilerDefinitions.cpp).
type CompilationMode int

// The accepted compilation modes.
const (
	// ModeDefault is "default" (or "normal"): C1 and C2 in tiers.
	ModeDefault CompilationMode = iota
	// ModeQuickOnly is "quick-only": C1 at level 1 only.
	ModeQuickOnly
	// ModeHighOnly is "high-only": C2 only, the interpreter profiles.
	ModeHighOnly
	// ModeHighOnlyQuickInternal is "high-only-quick-internal": C2 (JVMCI)
	// for applications, C1 for the compiler's own methods.
	ModeHighOnlyQuickInternal
)

// String returns the flag spelling of the mode.
func (m CompilationMode) String() string {
	switch m {
	case ModeQuickOnly:
		return "quick-only"
	case ModeHighOnly:
		return "high-only"
	case ModeHighOnlyQuickInternal:
		return "high-only-quick-internal"
	}
	return "default"
}

// ExecMode is the -Xmixed / -Xint / -Xcomp choice (Arguments::set_mode_flags).
type ExecMode int

// The three execution modes.
const (
	// Mixed is -Xmixed, the default: interpret, then compile hot code.
	Mixed ExecMode = iota
	// Int is -Xint: interpreter only, nothing is ever compiled.
	Int
	// Comp is -Xcomp: compile every method on its first call, blocking.
	Comp
)

// Config holds every knob of the tiered policy as plain values, named as
// the HotSpot flags they model (compiler_globals.hpp, globals.hpp,
// c2_globals_x86.hpp). Thresholds and percentages are intx in HotSpot and
// int64 here. Times are milliseconds, as in HotSpot.
//
// Build one with DefaultConfig, set what the command line set (and list
// those names in Explicit), then run Ergonomics before handing it to New.
type Config struct {
	// JDK is the release; its row (release.go) holds every behaviour of the
	// policy that differs between releases.
	JDK jdk.Release
	rel *release

	// Exec is -Xmixed (default), -Xint or -Xcomp.
	Exec ExecMode
	// BackgroundCompilation is true by default; -Xbatch and -Xcomp clear it,
	// which makes every compile blocking.
	BackgroundCompilation bool

	// UseCompiler is true by default; -Xint, CompileThresholdScaling=0 and
	// (JDK 17+) TieredStopAtLevel=0 clear it: interpreter only.
	UseCompiler           bool
	TieredCompilation     bool
	CompilationMode       CompilationMode
	TieredStopAtLevel     int64
	UseOnStackReplacement bool
	ProfileInterpreter    bool

	// CICompilerCount is the total compiler thread count; 0 means
	// "ergonomic" (CICompilerCountPerCPU), see CompilerCounts.
	CICompilerCount int64

	Tier0InvokeNotifyFreqLog   int64
	Tier0BackedgeNotifyFreqLog int64
	Tier2InvokeNotifyFreqLog   int64
	Tier2BackedgeNotifyFreqLog int64
	Tier3InvokeNotifyFreqLog   int64
	Tier3BackedgeNotifyFreqLog int64
	Tier23InlineeNotifyFreqLog int64

	Tier3InvocationThreshold    int64
	Tier3MinInvocationThreshold int64
	Tier3CompileThreshold       int64
	Tier3BackEdgeThreshold      int64
	Tier4InvocationThreshold    int64
	Tier4MinInvocationThreshold int64
	Tier4CompileThreshold       int64
	Tier4BackEdgeThreshold      int64

	Tier3DelayOn                  int64
	Tier3DelayOff                 int64
	Tier3LoadFeedback             int64
	Tier4LoadFeedback             int64
	Tier0Delay                    int64
	Tier0ProfilingStartPercentage int64
	TieredOldPercentage           int64

	IncreaseFirstTierCompileThresholdAt int64

	TieredCompileTaskTimeout int64
	TieredRateUpdateMinTime  int64
	TieredRateUpdateMaxTime  int64

	// CompileThreshold, InterpreterProfilePercentage and
	// OnStackReplacePercentage drive the JDK 8 non-tiered policy and the
	// JDK 17+ legacy emulation.
	CompileThreshold             int64
	InterpreterProfilePercentage int64
	OnStackReplacePercentage     int64

	CompileThresholdScaling float64

	// DontCompileHugeMethods and HugeMethodLimit keep methods larger than
	// 8000 bytecodes in the interpreter (CompilationPolicy::can_be_compiled).
	DontCompileHugeMethods bool
	HugeMethodLimit        int64

	// Explicit names the flags set on the command line. Ergonomics only
	// adjusts flags absent from it, as HotSpot's FLAG_IS_DEFAULT does, and
	// "explicitly set" is what triggers the legacy emulation.
	Explicit map[string]bool
}

// DefaultConfig returns the x86_64 server VM defaults of the given release
// (hotspot.md §1.3, §1.9): identical thresholds in 8, 17, 21 and 25.
func DefaultConfig(rel jdk.Release) Config {
	return Config{
		JDK:                                 rel,
		rel:                                 releaseOf(rel),
		Exec:                                Mixed,
		BackgroundCompilation:               true,
		UseCompiler:                         true,
		TieredCompilation:                   true,
		CompilationMode:                     ModeDefault,
		TieredStopAtLevel:                   4,
		UseOnStackReplacement:               true,
		ProfileInterpreter:                  true,
		Tier0InvokeNotifyFreqLog:            7,
		Tier0BackedgeNotifyFreqLog:          10,
		Tier2InvokeNotifyFreqLog:            11,
		Tier2BackedgeNotifyFreqLog:          14,
		Tier3InvokeNotifyFreqLog:            10,
		Tier3BackedgeNotifyFreqLog:          13,
		Tier23InlineeNotifyFreqLog:          20,
		Tier3InvocationThreshold:            200,
		Tier3MinInvocationThreshold:         100,
		Tier3CompileThreshold:               2000,
		Tier3BackEdgeThreshold:              60000,
		Tier4InvocationThreshold:            5000,
		Tier4MinInvocationThreshold:         600,
		Tier4CompileThreshold:               15000,
		Tier4BackEdgeThreshold:              40000,
		Tier3DelayOn:                        5,
		Tier3DelayOff:                       2,
		Tier3LoadFeedback:                   5,
		Tier4LoadFeedback:                   3,
		Tier0Delay:                          20,
		Tier0ProfilingStartPercentage:       200,
		TieredOldPercentage:                 1000,
		IncreaseFirstTierCompileThresholdAt: 50,
		TieredCompileTaskTimeout:            50,
		TieredRateUpdateMinTime:             1,
		TieredRateUpdateMaxTime:             25,
		CompileThreshold:                    10000,
		InterpreterProfilePercentage:        33,
		OnStackReplacePercentage:            140,
		CompileThresholdScaling:             1.0,
		DontCompileHugeMethods:              true,
		HugeMethodLimit:                     8000,
	}
}

// Origin is where a value changed by Ergonomics comes from, as
// PrintFlagsFinal shows it.
type Origin int

// Origins of adjusted values.
const (
	// OriginDefault: HotSpot changed the value with FLAG_SET_DEFAULT, so
	// PrintFlagsFinal still says {default} (e.g. the -TieredCompilation
	// emulation thresholds, checked against JDK 17.0.15).
	OriginDefault Origin = iota
	// OriginErgonomic: FLAG_SET_ERGO, shown as {ergonomic}.
	OriginErgonomic
	// OriginCommandLine: FLAG_SET_CMDLINE, shown as {command line} even
	// though the user did not type it (e.g. -Xcomp's notify log, -Xint's
	// ProfileInterpreter).
	OriginCommandLine
)

// String returns the PrintFlagsFinal spelling of the origin.
func (o Origin) String() string {
	switch o {
	case OriginErgonomic:
		return "ergonomic"
	case OriginCommandLine:
		return "command line"
	}
	return "default"
}

// Change records one value Ergonomics changed.
type Change struct {
	Flag     string
	Old, New string
	Origin   Origin
}

// scaledFlag is one flag CompileThresholdScaling rescales.
type scaledFlag struct {
	name string
	log  bool // a notification frequency log, else a threshold
	ptr  func(*Config) *int64
}

// scaledFlags are the flags CompileThresholdScaling rescales, in the order
// CompilerConfig::set_compilation_policy_flags sets them (the order of
// JDK 17's range warnings).
var scaledFlags = []scaledFlag{
	{"Tier0InvokeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier0InvokeNotifyFreqLog }},
	{"Tier0BackedgeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier0BackedgeNotifyFreqLog }},
	{"Tier3InvocationThreshold", false, func(c *Config) *int64 { return &c.Tier3InvocationThreshold }},
	{"Tier3MinInvocationThreshold", false, func(c *Config) *int64 { return &c.Tier3MinInvocationThreshold }},
	{"Tier3CompileThreshold", false, func(c *Config) *int64 { return &c.Tier3CompileThreshold }},
	{"Tier3BackEdgeThreshold", false, func(c *Config) *int64 { return &c.Tier3BackEdgeThreshold }},
	{"Tier2InvokeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier2InvokeNotifyFreqLog }},
	{"Tier2BackedgeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier2BackedgeNotifyFreqLog }},
	{"Tier3InvokeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier3InvokeNotifyFreqLog }},
	{"Tier3BackedgeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier3BackedgeNotifyFreqLog }},
	{"Tier23InlineeNotifyFreqLog", true, func(c *Config) *int64 { return &c.Tier23InlineeNotifyFreqLog }},
	{"Tier4InvocationThreshold", false, func(c *Config) *int64 { return &c.Tier4InvocationThreshold }},
	{"Tier4MinInvocationThreshold", false, func(c *Config) *int64 { return &c.Tier4MinInvocationThreshold }},
	{"Tier4CompileThreshold", false, func(c *Config) *int64 { return &c.Tier4CompileThreshold }},
	{"Tier4BackEdgeThreshold", false, func(c *Config) *int64 { return &c.Tier4BackEdgeThreshold }},
}

// Flag ranges: notification logs [0 ... 30], thresholds [0 ... max_jint],
// CompileThreshold [0 ... max_jint >> InvocationCounter::count_shift].
const (
	maxFreqLog          = 30
	maxThreshold        = math.MaxInt32
	maxCompileThreshold = math.MaxInt32 >> 1
	// maxFreqBits caps a scaled log before the range check:
	// InvocationCounter::number_of_count_bits + 1 (31 + 1).
	maxFreqBits = 32
)

// ErrConfig is wrapped by every error Ergonomics returns.
var ErrConfig = errors.New("policy: invalid configuration")

// ScaledThreshold returns threshold·scale truncated to an integer and
// capped at max_intx, as CompilerConfig::scaled_compile_threshold does; a
// scale of 1 or below 0 leaves the threshold alone.
func ScaledThreshold(threshold int64, scale float64) int64 {
	if scale == 1.0 || scale < 0 {
		return threshold
	}
	v := float64(threshold) * scale
	if math.IsNaN(v) || math.IsInf(v, 0) || v >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// ScaledFreqLog returns the notification frequency log after scaling:
// min(floor(log2(floor(2^log·scale))), 32), 0 when the scaled frequency is
// 0 (CompilerConfig::scaled_freq_log). Values above the flag's range (30)
// are then clamped (JDK 21+) or refused with a warning (JDK 17), see
// ErgonomicsWithWarnings.
func ScaledFreqLog(log int64, scale float64) int64 {
	if scale == 1.0 || scale < 0 {
		return log
	}
	if scale == 0 || log == 0 {
		return 0
	}
	f := ScaledThreshold(int64(1)<<uint(log), scale)
	if f == 0 {
		return 0
	}
	l := int64(63 - bits.LeadingZeros64(uint64(f)))
	return min(l, maxFreqBits)
}

// log2Graceful is log2i_graceful: floor(log2(v)), or -1 for v <= 0.
func log2Graceful(v int64) int64 {
	if v <= 0 {
		return -1
	}
	return int64(63 - bits.LeadingZeros64(uint64(v)))
}

// c1Only reports CompilerConfig::is_c1_only: no C2 in this configuration.
func (c *Config) c1Only() bool {
	if c.interpreterOnly() {
		return false
	}
	degraded := c.TieredCompilation && c.TieredStopAtLevel >= 1 && c.TieredStopAtLevel < 4
	return degraded || c.CompilationMode == ModeQuickOnly
}

// c1SimpleOnly reports CompilerConfig::is_c1_simple_only: C1 at level 1
// only (TieredStopAtLevel=1 or quick-only).
func (c *Config) c1SimpleOnly() bool {
	if !c.c1Only() {
		return false
	}
	return (c.TieredCompilation && c.TieredStopAtLevel == 1) || c.CompilationMode == ModeQuickOnly
}

// c2Only reports CompilerConfig::is_c2_or_jvmci_compiler_only: high-only
// mode, which is also what -XX:-TieredCompilation means from JDK 17 on (and
// the non-tiered policy in JDK 8, which has no CompilationMode).
func (c *Config) c2Only() bool {
	if c.interpreterOnly() {
		return false
	}
	return !c.TieredCompilation || c.CompilationMode == ModeHighOnly || c.CompilationMode == ModeHighOnlyQuickInternal
}

// interpreterOnly reports -Xint (or CompileThresholdScaling=0, its
// equivalent, or UseCompiler off).
func (c *Config) interpreterOnly() bool {
	return c.Exec == Int || c.CompileThresholdScaling == 0 || !c.UseCompiler
}

// legacy reports whether the JDK 8 non-tiered policy (SimpleCompPolicy)
// is in force.
func (c *Config) legacy() bool { return c.rel.nonTiered && !c.TieredCompilation }

// check reports a Config without a release row.
func (c *Config) check() error {
	if c.rel == nil {
		return fmt.Errorf("%w: no policy row for JDK %v", ErrConfig, c.JDK)
	}
	return nil
}

// Ergonomics applies HotSpot's startup adjustments to a configuration and
// reports every value it changed, with the origin PrintFlagsFinal shows.
// It models, in order: Arguments::set_mode_flags (-Xint, -Xcomp, -Xbatch);
// CompilerConfig::ergo_initialize (ProfileInterpreter off for C1-only level
// 1); set_legacy_emulation_flags; the high-only emulation and the
// CompileThresholdScaling pass of set_compilation_policy_flags; and the
// -Xcomp notification overrides (JDK 8: AdvancedThresholdPolicy::initialize).
// Compiler thread counts are separate (CompilerCounts).
func Ergonomics(in Config) (Config, []Change, error) {
	c, ch, _, err := ErgonomicsWithWarnings(in)
	return c, ch, err
}

// ErgonomicsWithWarnings is Ergonomics that also returns the messages
// HotSpot prints for values it could not set: with a huge
// CompileThresholdScaling, JDK 17 refuses out-of-range scaled values
// ("intx Tier4BackEdgeThreshold=4000000000 is outside the allowed range
// [ 0 ... 2147483647 ]") and keeps the old ones, and stops with an error
// when CompileThreshold leaves its range; JDK 21+ clamp the scaled flags to
// their ranges and only refuse CompileThreshold, with a message. (Measured
// on JDK 17.0.15 and 25.0.3; JDK 21 is assumed to behave as 25.)
func ErgonomicsWithWarnings(in Config) (Config, []Change, []string, error) {
	c := in
	c.Explicit = make(map[string]bool, len(in.Explicit))
	for k, v := range in.Explicit {
		c.Explicit[k] = v
	}
	if err := c.validate(); err != nil {
		return in, nil, nil, err
	}
	var changes []Change
	var warnings []string
	var badCompileThreshold int64
	isDefault := func(name string) bool { return !c.Explicit[name] }
	setInt := func(name string, p *int64, v int64, o Origin) {
		if *p != v || o != OriginDefault {
			changes = append(changes, Change{Flag: name, Old: strconv.FormatInt(*p, 10), New: strconv.FormatInt(v, 10), Origin: o})
		}
		*p = v
	}
	setBool := func(name string, p *bool, v bool, o Origin) {
		if *p != v || o != OriginDefault {
			changes = append(changes, Change{Flag: name, Old: strconv.FormatBool(*p), New: strconv.FormatBool(v), Origin: o})
		}
		*p = v
	}

	// Arguments::set_mode_flags and the interpreter-only checks of
	// CompilerConfig::ergo_initialize. Origins as JDK 17.0.15 and 25.0.3
	// print them; JDK 8 assigns plainly (origin default) and leaves
	// ProfileInterpreter and TieredCompilation alone.
	xint := c.Exec == Int || (!isDefault("CompileThresholdScaling") && c.CompileThresholdScaling == 0)
	switch {
	case xint:
		setBool("UseCompiler", &c.UseCompiler, false, OriginDefault)
		setBool("UseOnStackReplacement", &c.UseOnStackReplacement, false, OriginDefault)
		if c.JDK.Modern() {
			setBool("ProfileInterpreter", &c.ProfileInterpreter, false, OriginCommandLine)
			setBool("TieredCompilation", &c.TieredCompilation, false, OriginCommandLine)
		}
	case c.JDK.Modern() && c.TieredCompilation && c.TieredStopAtLevel == 0:
		setBool("UseCompiler", &c.UseCompiler, false, OriginCommandLine)
		setBool("TieredCompilation", &c.TieredCompilation, false, OriginCommandLine)
		setBool("ProfileInterpreter", &c.ProfileInterpreter, false, OriginCommandLine)
	case c.Exec == Comp:
		setBool("BackgroundCompilation", &c.BackgroundCompilation, false, OriginDefault)
	}

	if c.JDK.Modern() && c.c1SimpleOnly() && c.ProfileInterpreter {
		setBool("ProfileInterpreter", &c.ProfileInterpreter, false, OriginCommandLine)
	}

	if c.JDK.Modern() {
		// set_legacy_emulation_flags
		if !isDefault("CompileThreshold") || !isDefault("OnStackReplacePercentage") || !isDefault("InterpreterProfilePercentage") {
			if c.c1Only() || c.c2Only() {
				threshold := c.CompileThreshold
				profile := threshold * c.InterpreterProfilePercentage / 100
				osr := threshold * c.OnStackReplacePercentage / 100
				osrProfile := osr * c.InterpreterProfilePercentage / 100
				thresholdLog, osrLog := log2Graceful(profile), log2Graceful(osrProfile)
				if c.c1Only() {
					thresholdLog, osrLog = log2Graceful(threshold), log2Graceful(osr)
				}
				if c.Tier0InvokeNotifyFreqLog > thresholdLog {
					setInt("Tier0InvokeNotifyFreqLog", &c.Tier0InvokeNotifyFreqLog, max(0, thresholdLog), OriginErgonomic)
				}
				if c.Tier0BackedgeNotifyFreqLog > osrLog {
					setInt("Tier0BackedgeNotifyFreqLog", &c.Tier0BackedgeNotifyFreqLog, max(10, osrLog), OriginErgonomic)
				}
				setInt("Tier3InvocationThreshold", &c.Tier3InvocationThreshold, threshold, OriginErgonomic)
				setInt("Tier3MinInvocationThreshold", &c.Tier3MinInvocationThreshold, threshold, OriginErgonomic)
				setInt("Tier3CompileThreshold", &c.Tier3CompileThreshold, threshold, OriginErgonomic)
				setInt("Tier3BackEdgeThreshold", &c.Tier3BackEdgeThreshold, osr, OriginErgonomic)
				if c.c2Only() {
					setInt("Tier4InvocationThreshold", &c.Tier4InvocationThreshold, threshold, OriginErgonomic)
					setInt("Tier4MinInvocationThreshold", &c.Tier4MinInvocationThreshold, threshold, OriginErgonomic)
					setInt("Tier4CompileThreshold", &c.Tier4CompileThreshold, threshold, OriginErgonomic)
					setInt("Tier4BackEdgeThreshold", &c.Tier4BackEdgeThreshold, osr, OriginErgonomic)
					setInt("Tier0ProfilingStartPercentage", &c.Tier0ProfilingStartPercentage, c.InterpreterProfilePercentage, OriginErgonomic)
				}
				// The ergonomic values now count as set for the high-only
				// defaults below.
				for _, n := range []string{"Tier3InvocationThreshold", "Tier3MinInvocationThreshold", "Tier3CompileThreshold", "Tier3BackEdgeThreshold"} {
					c.Explicit[n] = true
				}
				if c.c2Only() {
					for _, n := range []string{"Tier4InvocationThreshold", "Tier4MinInvocationThreshold", "Tier4CompileThreshold", "Tier4BackEdgeThreshold", "Tier0ProfilingStartPercentage"} {
						c.Explicit[n] = true
					}
				}
			}
		}
		// set_compilation_policy_flags: high-only emulation of the old
		// server compiler's thresholds.
		if c.c2Only() {
			defs := []struct {
				name string
				p    *int64
				v    func() int64
			}{
				{"Tier0ProfilingStartPercentage", &c.Tier0ProfilingStartPercentage, func() int64 { return 33 }},
				{"Tier4InvocationThreshold", &c.Tier4InvocationThreshold, func() int64 { return 5000 }},
				{"Tier4MinInvocationThreshold", &c.Tier4MinInvocationThreshold, func() int64 { return 600 }},
				{"Tier4CompileThreshold", &c.Tier4CompileThreshold, func() int64 { return 10000 }},
				{"Tier4BackEdgeThreshold", &c.Tier4BackEdgeThreshold, func() int64 { return 15000 }},
				{"Tier3InvocationThreshold", &c.Tier3InvocationThreshold, func() int64 { return c.Tier4InvocationThreshold }},
				{"Tier3MinInvocationThreshold", &c.Tier3MinInvocationThreshold, func() int64 { return c.Tier4MinInvocationThreshold }},
				{"Tier3CompileThreshold", &c.Tier3CompileThreshold, func() int64 { return c.Tier4CompileThreshold }},
				{"Tier3BackEdgeThreshold", &c.Tier3BackEdgeThreshold, func() int64 { return c.Tier4BackEdgeThreshold }},
			}
			for _, d := range defs {
				if isDefault(d.name) {
					setInt(d.name, d.p, d.v(), OriginDefault)
				}
			}
		}
		// CompileThresholdScaling (JDK 9+). 0 means -Xint and leaves the
		// thresholds alone.
		if !isDefault("CompileThresholdScaling") && c.CompileThresholdScaling > 0 {
			s := c.CompileThresholdScaling
			// set_legacy_emulation_flags scales CompileThreshold first.
			if c.CompileThreshold > 0 {
				v := ScaledThreshold(c.CompileThreshold, s)
				switch {
				case v <= maxCompileThreshold:
					setInt("CompileThreshold", &c.CompileThreshold, v, OriginErgonomic)
				case c.JDK >= jdk.R21:
					// CompileThresholdConstraintFunc refuses it; the value stays.
					warnings = append(warnings, fmt.Sprintf("CompileThreshold (%d) must be between 0 and %d", v, maxCompileThreshold))
				default:
					badCompileThreshold = v
				}
			}
			for _, f := range scaledFlags {
				p := f.ptr(&c)
				v, top := ScaledThreshold(*p, s), int64(maxThreshold)
				if f.log {
					v, top = ScaledFreqLog(*p, s), maxFreqLog
				}
				switch {
				case v <= top:
					setInt(f.name, p, v, OriginErgonomic)
				case c.JDK >= jdk.R21: // jvmflag_scaled_*: clamp to the range
					setInt(f.name, p, top, OriginErgonomic)
				default: // JDK 17: the range check refuses it, the value stays
					warnings = append(warnings, fmt.Sprintf("intx %s=%d is outside the allowed range [ 0 ... %d ]", f.name, v, top))
				}
			}
		}
	}

	// -Xcomp in a tiered configuration with C2: level-3 code notifies on
	// every call and the first notification moves it to level 4.
	if c.Exec == Comp && c.TieredCompilation && !c.c1Only() && !c.interpreterOnly() {
		o := OriginCommandLine
		if !c.JDK.Modern() {
			o = OriginDefault // plain assignment in AdvancedThresholdPolicy::initialize
		}
		if isDefault("Tier3InvokeNotifyFreqLog") {
			setInt("Tier3InvokeNotifyFreqLog", &c.Tier3InvokeNotifyFreqLog, 0, o)
		}
		if isDefault("Tier4InvocationThreshold") {
			setInt("Tier4InvocationThreshold", &c.Tier4InvocationThreshold, 0, o)
		}
	}
	if badCompileThreshold != 0 {
		// JDK 17 stores the scaled value and the constraint check at the
		// end of argument processing stops the VM.
		return in, changes, warnings, fmt.Errorf("%w: OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\nCompileThreshold (%d) must be between 0 and %d",
			ErrConfig, badCompileThreshold, maxCompileThreshold)
	}
	return c, changes, warnings, nil
}

func (c *Config) validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrConfig}, a...)...))
	}
	if !c.JDK.Valid() || c.rel == nil || c.rel.rel != c.JDK {
		bad("unsupported JDK %v (want 8, 8u, 17, 21 or 25)", c.JDK)
	}
	if c.CompileThresholdScaling < 0 || math.IsNaN(c.CompileThresholdScaling) {
		bad("Negative value specified for CompileThresholdScaling")
	}
	if c.TieredStopAtLevel < 0 || c.TieredStopAtLevel > 4 {
		bad("TieredStopAtLevel=%d is outside the allowed range [ 0 ... 4 ]", c.TieredStopAtLevel)
	}
	if !c.JDK.Modern() && c.CompilationMode != ModeDefault {
		bad("CompilationMode does not exist in JDK 8")
	}
	if !c.JDK.Modern() && c.CompileThresholdScaling != 1.0 {
		bad("CompileThresholdScaling does not exist in JDK 8")
	}
	for _, f := range scaledFlags {
		top := int64(maxThreshold)
		if f.log {
			top = maxFreqLog
		}
		if v := *f.ptr(c); v < 0 || v > top {
			bad("%s=%d is outside the allowed range [ 0 ... %d ]", f.name, v, top)
		}
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"Tier3LoadFeedback", c.Tier3LoadFeedback}, {"Tier4LoadFeedback", c.Tier4LoadFeedback},
		{"Tier3DelayOn", c.Tier3DelayOn}, {"Tier3DelayOff", c.Tier3DelayOff}, {"Tier0Delay", c.Tier0Delay},
		{"Tier0ProfilingStartPercentage", c.Tier0ProfilingStartPercentage}, {"TieredOldPercentage", c.TieredOldPercentage},
		{"CompileThreshold", c.CompileThreshold}, {"InterpreterProfilePercentage", c.InterpreterProfilePercentage},
		{"OnStackReplacePercentage", c.OnStackReplacePercentage}, {"TieredCompileTaskTimeout", c.TieredCompileTaskTimeout},
		{"TieredRateUpdateMinTime", c.TieredRateUpdateMinTime}, {"TieredRateUpdateMaxTime", c.TieredRateUpdateMaxTime},
		{"CICompilerCount", c.CICompilerCount},
	} {
		if f.v < 0 {
			bad("%s=%d is negative", f.name, f.v)
		}
	}
	return errors.Join(errs...)
}
