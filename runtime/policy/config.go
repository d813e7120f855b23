package policy

import (
	"errors"
	"fmt"

	"github.com/jitsim/jitsim/flags"
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

// compilationModes are the CompilationMode values the flag set may hold (flags.Parse rejects
// the others).
var compilationModes = map[string]CompilationMode{
	"default":                  ModeDefault,
	"normal":                   ModeDefault,
	"quick-only":               ModeQuickOnly,
	"high-only":                ModeHighOnly,
	"high-only-quick-internal": ModeHighOnlyQuickInternal,
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

// Config holds every knob of the tiered policy as plain values, named as the HotSpot flags
// they model (compiler_globals.hpp, globals.hpp, c2_globals_x86.hpp). Thresholds and
// percentages are intx in HotSpot and int64 here. Times are milliseconds, as in HotSpot.
//
// Build one with FromFlags from a flag set that flags.Parse settled (and runtime/ergo, for
// CICompilerCount): every start-up rule that derives one flag from others is flags' alone.
type Config struct {
	// JDK is the release; its row (release.go) holds every behaviour that differs between
	// releases.
	JDK jdk.Release
	rel *release

	// Exec is -Xmixed (default), -Xint or -Xcomp: Int whenever UseCompiler is off (-Xint,
	// CompileThresholdScaling=0, TieredStopAtLevel=0 on JDK 17+), Comp when UseInterpreter
	// is off.
	Exec ExecMode
	// BackgroundCompilation is true by default; -Xbatch and -Xcomp clear it,
	// which makes every compile blocking.
	BackgroundCompilation bool

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

	Tier3DelayOn      int64
	Tier3DelayOff     int64
	Tier3LoadFeedback int64
	Tier4LoadFeedback int64
	// Tier0Delay and TieredOldPercentage exist from JDK 17 on (0 in JDK 8, whose row does
	// not read them).
	Tier0Delay                    int64
	Tier0ProfilingStartPercentage int64
	TieredOldPercentage           int64

	TieredCompileTaskTimeout int64
	TieredRateUpdateMinTime  int64
	TieredRateUpdateMaxTime  int64

	// CompileThreshold, InterpreterProfilePercentage and
	// OnStackReplacePercentage drive the JDK 8 non-tiered policy.
	CompileThreshold             int64
	InterpreterProfilePercentage int64
	OnStackReplacePercentage     int64
}

// HotSpot flags the policy reads that jitsim's flag table does not have, at their product
// defaults: the code-cache threshold of threshold_scale and CompilationPolicy::can_be_compiled's
// limit on method size (DontCompileHugeMethods, HugeMethodLimit: 8000 bytecodes).
const (
	increaseFirstTierCompileThresholdAt = 50
	hugeMethodLimit                     = 8000
)

// configInts are the integer flags Config models, by their Config fields.
var configInts = []struct {
	name  string
	field func(*Config) *int64
}{
	{"CICompilerCount", func(c *Config) *int64 { return &c.CICompilerCount }},
	{"CompileThreshold", func(c *Config) *int64 { return &c.CompileThreshold }},
	{"InterpreterProfilePercentage", func(c *Config) *int64 { return &c.InterpreterProfilePercentage }},
	{"OnStackReplacePercentage", func(c *Config) *int64 { return &c.OnStackReplacePercentage }},
	{"TieredStopAtLevel", func(c *Config) *int64 { return &c.TieredStopAtLevel }},
	{"Tier0InvokeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier0InvokeNotifyFreqLog }},
	{"Tier0BackedgeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier0BackedgeNotifyFreqLog }},
	{"Tier2InvokeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier2InvokeNotifyFreqLog }},
	{"Tier2BackedgeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier2BackedgeNotifyFreqLog }},
	{"Tier3InvokeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier3InvokeNotifyFreqLog }},
	{"Tier3BackedgeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier3BackedgeNotifyFreqLog }},
	{"Tier23InlineeNotifyFreqLog", func(c *Config) *int64 { return &c.Tier23InlineeNotifyFreqLog }},
	{"Tier3InvocationThreshold", func(c *Config) *int64 { return &c.Tier3InvocationThreshold }},
	{"Tier3MinInvocationThreshold", func(c *Config) *int64 { return &c.Tier3MinInvocationThreshold }},
	{"Tier3CompileThreshold", func(c *Config) *int64 { return &c.Tier3CompileThreshold }},
	{"Tier3BackEdgeThreshold", func(c *Config) *int64 { return &c.Tier3BackEdgeThreshold }},
	{"Tier4InvocationThreshold", func(c *Config) *int64 { return &c.Tier4InvocationThreshold }},
	{"Tier4MinInvocationThreshold", func(c *Config) *int64 { return &c.Tier4MinInvocationThreshold }},
	{"Tier4CompileThreshold", func(c *Config) *int64 { return &c.Tier4CompileThreshold }},
	{"Tier4BackEdgeThreshold", func(c *Config) *int64 { return &c.Tier4BackEdgeThreshold }},
	{"Tier3DelayOn", func(c *Config) *int64 { return &c.Tier3DelayOn }},
	{"Tier3DelayOff", func(c *Config) *int64 { return &c.Tier3DelayOff }},
	{"Tier3LoadFeedback", func(c *Config) *int64 { return &c.Tier3LoadFeedback }},
	{"Tier4LoadFeedback", func(c *Config) *int64 { return &c.Tier4LoadFeedback }},
	{"Tier0Delay", func(c *Config) *int64 { return &c.Tier0Delay }},
	{"Tier0ProfilingStartPercentage", func(c *Config) *int64 { return &c.Tier0ProfilingStartPercentage }},
	{"TieredOldPercentage", func(c *Config) *int64 { return &c.TieredOldPercentage }},
	{"TieredCompileTaskTimeout", func(c *Config) *int64 { return &c.TieredCompileTaskTimeout }},
	{"TieredRateUpdateMinTime", func(c *Config) *int64 { return &c.TieredRateUpdateMinTime }},
	{"TieredRateUpdateMaxTime", func(c *Config) *int64 { return &c.TieredRateUpdateMaxTime }},
}

// configBools are the boolean flags Config models.
var configBools = []struct {
	name  string
	field func(*Config) *bool
}{
	{"BackgroundCompilation", func(c *Config) *bool { return &c.BackgroundCompilation }},
	{"TieredCompilation", func(c *Config) *bool { return &c.TieredCompilation }},
	{"UseOnStackReplacement", func(c *Config) *bool { return &c.UseOnStackReplacement }},
	{"ProfileInterpreter", func(c *Config) *bool { return &c.ProfileInterpreter }},
}

// ErrConfig is wrapped by every error FromFlags, New and CompilerCounts return.
var ErrConfig = errors.New("policy: invalid configuration")

// FromFlags returns the policy configuration a flag set describes: every policy knob of the
// flag table, the release and the execution mode (-Xint leaves UseCompiler off, -Xcomp
// UseInterpreter). The set is read as it is: flags.Parse has applied the start-up rules
// (-Xint, -Xcomp, the C2-only emulation, CompileThresholdScaling), runtime/ergo the compiler
// thread count.
func FromFlags(set *flags.Set) (Config, error) {
	if set == nil {
		return Config{}, fmt.Errorf("%w: no flag set", ErrConfig)
	}
	c := Config{JDK: set.JDK(), rel: releaseOf(set.JDK())}
	if c.rel == nil {
		return Config{}, fmt.Errorf("%w: unsupported JDK %v (want one of %s)", ErrConfig, set.JDK(), jdk.Names())
	}
	for _, f := range configInts {
		if set.Has(f.name) {
			*f.field(&c) = set.Int(f.name)
		}
	}
	for _, f := range configBools {
		if set.Has(f.name) {
			*f.field(&c) = set.Bool(f.name)
		}
	}
	if set.Has("CompilationMode") {
		m, ok := compilationModes[set.CompilationModeInEffect()]
		if !ok {
			return Config{}, fmt.Errorf("%w: unsupported CompilationMode %q", ErrConfig, set.String("CompilationMode"))
		}
		c.CompilationMode = m
	}
	switch {
	case !set.Bool("UseCompiler"):
		c.Exec = Int
	case !set.Bool("UseInterpreter"):
		c.Exec = Comp
	}
	return c, nil
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
// mode, which is also what -XX:-TieredCompilation means from JDK 17 on (and the non-tiered
// policy in JDK 8).
func (c *Config) c2Only() bool {
	if c.interpreterOnly() {
		return false
	}
	return !c.TieredCompilation || c.CompilationMode == ModeHighOnly || c.CompilationMode == ModeHighOnlyQuickInternal
}

// interpreterOnly reports -Xint (or CompileThresholdScaling=0 or TieredStopAtLevel=0, which
// flags.Parse turns into it).
func (c *Config) interpreterOnly() bool { return c.Exec == Int }

// legacy reports whether the JDK 8 non-tiered policy (SimpleCompPolicy) is in force.
func (c *Config) legacy() bool { return c.rel.nonTiered && !c.TieredCompilation }

// check reports a Config that FromFlags did not build.
func (c *Config) check() error {
	if c.rel == nil {
		return fmt.Errorf("%w: the Config was not built by FromFlags", ErrConfig)
	}
	return nil
}
