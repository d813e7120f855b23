package ergo

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Ergonomics settles the flags HotSpot derives from the CPU and from the compilation policy
// after the command line has been parsed, in HotSpot's order:
//
//  1. the policy pass (CompilerConfig::ergo_initialize from Arguments::apply_ergo, and
//     CompilationPolicy::initialize, src/hotspot/share/compiler): whatever policy.Ergonomics
//     changes (CompileThresholdScaling, the -XX:-TieredCompilation emulation, -Xcomp), then
//     CICompilerCount from the active processor count (-XX:ActiveProcessorCount when set,
//     else activeProcessors);
//  2. the CPU pass of VM_Version::get_processor_features (src/hotspot/cpu/x86/vm_version_x86.cpp)
//     or VM_Version::initialize (src/hotspot/cpu/aarch64/vm_version_aarch64.cpp): UseSSE and
//     UseAVX are limited to what model has (cpu.Mask gives the limits), then UseAES,
//     UseAESIntrinsics, UseAESCTRIntrinsics, UseCLMUL, UseGHASHIntrinsics, UseSSE42Intrinsics
//     and UseVectorizedMismatchIntrinsic are turned on where the features the mask leaves and
//     the flags they need allow it, and off (with HotSpot's warning when the user asked for
//     them) where not.
//
// The CPU pass reads model's full feature set (model.Features): the model clock may simulate
// a CPU the host lacks, and which stubs can really run is the caller's decision
// (cpu.Model.Runnable). Values flipped by the CPU pass keep their origin, as FLAG_SET_DEFAULT
// and plain assignment do ({default} stays {default}, a clamped -XX:UseAVX=5 stays
// {command line}); values the policy pass sets with FLAG_SET_ERGO print {ergonomic}, or
// {command line, ergonomic} when the user had set them.
//
// warnings are HotSpot's warning texts in order, without the "<VM name> warning: " prefix
// (flags.VMWarningPrefix) and without a newline; with -XX:-PrintWarnings there are none.
// SettleStderr returns everything java prints, range notices included. err is non-nil
// only for input jitsim cannot model (a model of another architecture than the set, an
// invalid policy configuration, no processors); set may then be partly updated.
func Settle(set *flags.Set, model cpu.Model, activeProcessors int) (warnings []string, err error) {
	e, err := ergonomics(set, model, activeProcessors)
	if err != nil {
		return nil, err
	}
	for _, l := range e.out {
		if l.warning {
			warnings = append(warnings, l.text)
		}
	}
	return warnings, nil
}

// SettleStderr is Settle returning the lines java writes to stderr while it settles
// the flags, in order and without newlines: the warnings with flags.VMWarningPrefix (none
// with -XX:-PrintWarnings), and the lines JDK 17 prints when a value the policy pass computes
// falls outside the flag's range ("intx Tier23InlineeNotifyFreqLog=31 is outside the allowed
// range [ 0 ... 30 ]", e.g. for -XX:CompileThresholdScaling=2048; JDK 17 then keeps the old
// value, JDK 25 silently clamps it to the range).
func SettleStderr(set *flags.Set, model cpu.Model, activeProcessors int) (stderr []string, err error) {
	e, err := ergonomics(set, model, activeProcessors)
	if err != nil {
		return nil, err
	}
	for _, l := range e.out {
		if l.warning {
			stderr = append(stderr, flags.VMWarningPrefix+l.text)
		} else {
			stderr = append(stderr, l.text)
		}
	}
	return stderr, nil
}

func ergonomics(set *flags.Set, model cpu.Model, activeProcessors int) (*ergo, error) {
	if set == nil {
		return nil, fmt.Errorf("ergonomics: no flag set")
	}
	if want := set.Arch(); model.Arch != want {
		return nil, fmt.Errorf("ergonomics: CPU model %q is %s, the flags are for %s", model.Name, model.Arch, set.Arch())
	}
	e := &ergo{set: set}
	if err := e.policyPass(activeProcessors); err != nil {
		return nil, err
	}
	e.cpuPass(model)
	if set.Has("PrintWarnings") && !set.Bool("PrintWarnings") {
		kept := e.out[:0]
		for _, l := range e.out {
			if !l.warning {
				kept = append(kept, l)
			}
		}
		e.out = kept
	}
	return e, nil
}

// Mask returns the CPU-feature mask of a settled set's UseSSE and UseAVX levels: what the
// ergonomics' switches and the stub selection see of a CPU. A set without the level flags
// (arm64) masks nothing.
func Mask(set *flags.Set) cpu.Mask {
	m := cpu.Mask{Release: set.JDK(), UseSSE: maxLevel, UseAVX: maxLevel}
	if set.Has("UseSSE") {
		m.UseSSE = int(set.Int("UseSSE"))
	}
	if set.Has("UseAVX") {
		m.UseAVX = int(set.Int("UseAVX"))
	}
	return m
}

// maxLevel is a level above every rung of UseSSE and UseAVX (HotSpot's own "use all" value).
const maxLevel = 99

// ergo is one run of Ergonomics.
type ergo struct {
	set *flags.Set
	out []outLine
	// pendingRange holds the range lines of the policy pass until they are sorted.
	pendingRange []rangeLine
	// feats is the model's feature set as masked by the settled UseSSE/UseAVX levels; the
	// switch rules test it (supports_sse4_1() and friends read the masked bits in HotSpot).
	feats cpu.Set
}

// outLine is one line for stderr: a VM warning (printed after flags.VMWarningPrefix) or a
// line printed as it is.
type outLine struct {
	text    string
	warning bool
}

func (e *ergo) warn(format string, a ...any) {
	e.out = append(e.out, outLine{text: fmt.Sprintf(format, a...), warning: true})
}

// setDefault changes a value the way FLAG_SET_DEFAULT does (origin kept). The flag exists:
// every rule checks Has first.
func (e *ergo) setDefault(name, text string) {
	if err := e.set.SetDefault(name, text); err != nil {
		panic("BUG: ergonomics: " + err.Error())
	}
}

func (e *ergo) setErgo(name, text string) {
	if err := e.set.SetErgo(name, text); err != nil {
		panic("BUG: ergonomics: " + err.Error())
	}
}

// --- the CPU pass --------------------------------------------------------------------------

// cpuRules is the CPU pass for one family of releases and one architecture: the level flags
// first (UseSSE, then UseAVX, whose limit may depend on the settled UseSSE), then the switches
// in HotSpot's order (a switch may need a switch settled before it).
type cpuRules struct {
	levels   []levelRule
	switches []switchRule
	// warnIfOn: the port warns whenever a switch it turns off was on (aarch64), not only
	// when the user set it (x86's "flag && !FLAG_IS_DEFAULT(flag)").
	warnIfOn bool
}

// levelRule is an integer "use up to level N" flag (UseSSE, UseAVX): its limit is the highest
// level the CPU supports (cpu.SSELimit, cpu.Mask.AVXLimit), a value left at its default becomes
// the limit, a value above it is cut down to it (with warning text when tooHigh is set).
type levelRule struct {
	flag string
	// avx: the limit is UseAVX's, read through the mask of the UseSSE level settled before.
	avx bool
	// floor is the lowest value the VM accepts; a lower value is raised silently by plain
	// assignment (64-bit HotSpot needs SSE2, "if (UseSSE < 2) UseSSE = 2" under _LP64 in 8u
	// and mainline: -XX:UseSSE=0 and =1 both end as 2 {command line}, checked on JDK 17 and 25).
	floor int64
	// tooHigh formats the warning for a value above the limit (value, limit); "" is silent
	// (JDK 8).
	tooHigh string
	// needsSSE4 formats the warning (value) for a value the mask turns off because UseSSE is
	// below 4 (cpu.Mask.AVXNeedsSSE4: JDK 25).
	needsSSE4 string
}

// switchRule is a boolean flag the CPU pass turns on by default when all its needs hold.
type switchRule struct {
	flag  string
	needs []need
}

// need is one condition of a switch, tested in order. The first one that fails decides.
type need struct {
	// Exactly one of feature (with isFeature), flag or (flag, above) is the test: the CPU has
	// the feature (after the level masks), the boolean flag is on, or the integer flag is
	// greater than above.
	feature   cpu.Feature
	isFeature bool
	flag      string
	above     int64
	isAbove   bool
	// onFail is what happens to the switch when the test fails.
	onFail failAction
	// warn is the warning text for disable (when the user set the switch on) and for
	// enableNeeded.
	warn string
}

// failAction is what a failed need does.
type failAction int

const (
	// disable turns the switch off (keeping its origin), warning if the user had set it on.
	disable failAction = iota
	// leave leaves the switch as it is and stops (x86: with UseAES off the AES-CTR block is
	// not reached, so an explicit +UseAESCTRIntrinsics stays on; checked on JDK 17 and 25).
	leave
	// enableNeeded turns the needed flag on when the switch is on (aarch64: "UseAESIntrinsics
	// enabled, but UseAES not, enabling"); when the switch is off it stays off.
	enableNeeded
	// warnOnly warns when the switch is on and leaves it on (the JDK 8/11 aarch64 port:
	// "UseAES specified, but not supported on this CPU").
	warnOnly
)

// hasCPU needs feature f of the (masked) CPU.
func hasCPU(f cpu.Feature, onFail failAction, warn string) need {
	return need{feature: f, isFeature: true, onFail: onFail, warn: warn}
}

// flagOn needs the boolean flag name to be on (after its own row, if it has one, ran).
func flagOn(name string, onFail failAction, warn string) need {
	return need{flag: name, onFail: onFail, warn: warn}
}

// flagAbove needs the integer flag name to be greater than n.
func flagAbove(name string, n int64, onFail failAction, warn string) need {
	return need{flag: name, above: n, isAbove: true, onFail: onFail, warn: warn}
}

// Warning texts of the x86 port (vm_version_x86.cpp), shared by the JDK 8 and 17+ tables.
const (
	x86AESIntrNoSSE3 = "X86 AES intrinsics require SSE3 instructions or higher. Intrinsics will be disabled."
	x86AESIntrNoAES  = "AES intrinsics require UseAES flag to be enabled. Intrinsics will be disabled."
	x86GHASH         = "GHASH intrinsic requires CLMUL and SSE2 instructions on this CPU" // sic: the test is UseSSE > 2
	noAESInstr       = "AES instructions are not available on this CPU"
	noAESIntr        = "AES intrinsics are not available on this CPU"
	x86NoCLMUL       = "CLMUL instructions not available on this CPU (AVX may also be required)"
)

// x86Switches are the switch rows shared by every x86 release; rows whose flag does not
// exist in a profile's table (UseAESCTRIntrinsics, UseSSE42Intrinsics and
// UseVectorizedMismatchIntrinsic before JDK 17, UseGHASHIntrinsics in JDK 8 GA) are skipped.
var x86Switches = []switchRule{
	{flag: "UseAES", needs: []need{
		hasCPU(cpu.AES, disable, noAESInstr),
	}},
	{flag: "UseAESIntrinsics", needs: []need{
		hasCPU(cpu.AES, disable, noAESIntr),
		flagOn("UseAES", disable, x86AESIntrNoAES),
		flagAbove("UseSSE", 2, disable, x86AESIntrNoSSE3),
	}},
	{flag: "UseAESCTRIntrinsics", needs: []need{
		hasCPU(cpu.AES, disable, "AES-CTR intrinsics are not available on this CPU"),
		flagOn("UseAES", leave, ""),
		flagOn("UseAESIntrinsics", disable, "AES-CTR intrinsics require UseAESIntrinsics flag to be enabled. Intrinsics will be disabled."),
		hasCPU(cpu.SSE41, disable, "X86 AES-CTR intrinsics require SSE4.1 instructions or higher. Intrinsics will be disabled."),
	}},
	{flag: "UseCLMUL", needs: []need{
		hasCPU(cpu.PCLMULQDQ, disable, x86NoCLMUL),
	}},
	{flag: "UseGHASHIntrinsics", needs: []need{
		flagOn("UseCLMUL", disable, x86GHASH),
		flagAbove("UseSSE", 2, disable, x86GHASH),
	}},
	// Silent: -XX:UseSSE=3 -XX:+UseSSE42Intrinsics prints no warning on JDK 17 or 25.
	{flag: "UseSSE42Intrinsics", needs: []need{
		hasCPU(cpu.SSE42, disable, ""),
	}},
	{flag: "UseVectorizedMismatchIntrinsic", needs: []need{
		flagOn("UseSSE42Intrinsics", disable, "vectorizedMismatch intrinsics are not available on this CPU"),
	}},
}

// x86Modern is the x86 port from JDK 17 on; the release differences of the levels are the
// CPU-feature mask's (cpu.Mask: JDK 25's UseAVX needs UseSSE=4, 17 and 21 have no such link).
var x86Modern = cpuRules{
	levels: []levelRule{
		{flag: "UseSSE", floor: 2, tooHigh: "UseSSE=%d is not supported on this CPU, setting it to UseSSE=%d"},
		{flag: "UseAVX", avx: true, tooHigh: "UseAVX=%d is not supported on this CPU, setting it to UseAVX=%d",
			needsSSE4: "UseAVX=%d requires UseSSE=4, setting it to UseAVX=0"},
	},
	switches: x86Switches,
}

// x86JDK8 is 8u's vm_version_x86.cpp: silent clamps (its AVX limit of 2 is the mask's, hotspot.md
// §3.3). Not observed here: no JDK 8 on this machine.
var x86JDK8 = cpuRules{
	levels: []levelRule{
		{flag: "UseSSE", floor: 2},
		{flag: "UseAVX", avx: true},
	},
	switches: x86Switches,
}

// Rows the two aarch64 tables share: UseAESIntrinsics turns UseAES back on, and GHASH needs
// PMULL.
var (
	aarch64IntrEnablesAES = flagOn("UseAES", enableNeeded, "UseAESIntrinsics enabled, but UseAES not, enabling")
	aarch64GHASH          = switchRule{flag: "UseGHASHIntrinsics", needs: []need{
		hasCPU(cpu.PMULL, disable, "GHASH intrinsics are not available on this CPU"),
	}}
)

// aarch64Rules is mainline vm_version_aarch64.cpp (applied to every modern profile; the JDK 17
// port is not observed here). Its warnings fire whenever the flag is on.
var aarch64Rules = cpuRules{
	switches: []switchRule{
		{flag: "UseAES", needs: []need{
			hasCPU(cpu.ARM_AES, disable, noAESInstr),
		}},
		{flag: "UseAESIntrinsics", needs: []need{
			hasCPU(cpu.ARM_AES, disable, noAESIntr),
			aarch64IntrEnablesAES,
		}},
		{flag: "UseAESCTRIntrinsics", needs: []need{
			hasCPU(cpu.ARM_AES, disable, "AES/CTR intrinsics are not available on this CPU"),
		}},
		aarch64GHASH,
	},
	warnIfOn: true,
}

// aarch64Legacy is the older aarch64 port (HWCAP-based, JDK 11-era source, assumed for the
// 8u port of the same lineage; not observed here): without the AES feature it only warns and
// leaves UseAES/UseAESIntrinsics on, and it has no AES-CTR intrinsic (no such flag in JDK 8).
var aarch64Legacy = cpuRules{
	switches: []switchRule{
		{flag: "UseAES", needs: []need{
			hasCPU(cpu.ARM_AES, warnOnly, "UseAES specified, but not supported on this CPU"),
		}},
		{flag: "UseAESIntrinsics", needs: []need{
			hasCPU(cpu.ARM_AES, warnOnly, "UseAESIntrinsics specified, but not supported on this CPU"),
			aarch64IntrEnablesAES,
		}},
		aarch64GHASH,
	},
	warnIfOn: true,
}

// cpuRuleRows says which rule table each architecture and release runs.
var cpuRuleRows = []struct {
	arch     jdk.Arch
	releases jdk.Set
	rules    *cpuRules
}{
	{jdk.AMD64, jdk.Before(jdk.R17), &x86JDK8},
	{jdk.AMD64, jdk.Since(jdk.R17), &x86Modern},
	{jdk.ARM64, jdk.Before(jdk.R17), &aarch64Legacy},
	{jdk.ARM64, jdk.Since(jdk.R17), &aarch64Rules},
}

// rulesFor returns the CPU pass of a profile and architecture (none for a pair jitsim does not
// model).
func rulesFor(j jdk.Release, a jdk.Arch) *cpuRules {
	for _, r := range cpuRuleRows {
		if r.arch == a && r.releases.Has(j) {
			return r.rules
		}
	}
	return &cpuRules{}
}

// cpuPass runs the rule table of the set's profile against model.
func (e *ergo) cpuPass(model cpu.Model) {
	rules := rulesFor(e.set.JDK(), e.set.Arch())
	for i := range rules.levels {
		e.level(&rules.levels[i], model.Features)
	}
	e.feats = Mask(e.set).Apply(model.Features)
	for i := range rules.switches {
		e.toggle(&rules.switches[i], rules.warnIfOn)
	}
}

// level settles one level flag.
func (e *ergo) level(r *levelRule, feats cpu.Set) {
	s := e.set
	if !s.Has(r.flag) {
		return
	}
	limit, gated := int64(cpu.SSELimit(feats)), false
	if r.avx {
		m := Mask(s)
		limit, gated = int64(m.AVXLimit(feats)), m.AVXNeedsSSE4()
	}
	v := s.Int(r.flag)
	if v < r.floor {
		v = r.floor
		e.setDefault(r.flag, strconv.FormatInt(v, 10))
	}
	switch {
	case s.IsDefault(r.flag):
		e.setDefault(r.flag, strconv.FormatInt(limit, 10))
	case v > limit:
		if gated && r.needsSSE4 != "" {
			e.warn(r.needsSSE4, v)
		} else if r.tooHigh != "" {
			e.warn(r.tooHigh, v, limit)
		}
		e.setDefault(r.flag, strconv.FormatInt(limit, 10))
	}
}

// holds reports whether a need is met.
func (e *ergo) holds(n *need) bool {
	switch {
	case n.isFeature:
		return e.feats.Has(n.feature)
	case !e.set.Has(n.flag):
		return false
	case n.isAbove:
		return e.set.Int(n.flag) > n.above
	}
	return e.set.Bool(n.flag)
}

// toggle settles one switch: the first failed need acts, otherwise a default switch turns on.
func (e *ergo) toggle(r *switchRule, warnIfOn bool) {
	s := e.set
	if !s.Has(r.flag) {
		return
	}
	on := s.Bool(r.flag)
	asked := on && (warnIfOn || !s.IsDefault(r.flag))
	for i := range r.needs {
		n := &r.needs[i]
		if e.holds(n) {
			continue
		}
		switch n.onFail {
		case disable:
			if asked && n.warn != "" {
				e.warn("%s", n.warn)
			}
			if on {
				e.setDefault(r.flag, "false")
			}
			return
		case leave:
			return
		case warnOnly:
			if asked {
				e.warn("%s", n.warn)
			}
			return
		case enableNeeded:
			if !on || !s.Has(n.flag) {
				return
			}
			e.warn("%s", n.warn)
			e.setDefault(n.flag, "true")
		}
	}
	if !on && s.IsDefault(r.flag) {
		e.setDefault(r.flag, "true")
	}
}

// --- the policy pass -----------------------------------------------------------------------

// policyInt maps an integer flag to its policy.Config field (the names are HotSpot's).
type policyInt struct {
	name  string
	field func(*policy.Config) *int64
}

// policyInts are the integer flags of the table that policy.Config models.
var policyInts = []policyInt{
	{"CICompilerCount", func(c *policy.Config) *int64 { return &c.CICompilerCount }},
	{"CompileThreshold", func(c *policy.Config) *int64 { return &c.CompileThreshold }},
	{"InterpreterProfilePercentage", func(c *policy.Config) *int64 { return &c.InterpreterProfilePercentage }},
	{"OnStackReplacePercentage", func(c *policy.Config) *int64 { return &c.OnStackReplacePercentage }},
	{"TieredStopAtLevel", func(c *policy.Config) *int64 { return &c.TieredStopAtLevel }},
	{"Tier0InvokeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier0InvokeNotifyFreqLog }},
	{"Tier0BackedgeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier0BackedgeNotifyFreqLog }},
	{"Tier2InvokeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier2InvokeNotifyFreqLog }},
	{"Tier2BackedgeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier2BackedgeNotifyFreqLog }},
	{"Tier3InvokeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier3InvokeNotifyFreqLog }},
	{"Tier3BackedgeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier3BackedgeNotifyFreqLog }},
	{"Tier23InlineeNotifyFreqLog", func(c *policy.Config) *int64 { return &c.Tier23InlineeNotifyFreqLog }},
	{"Tier3InvocationThreshold", func(c *policy.Config) *int64 { return &c.Tier3InvocationThreshold }},
	{"Tier3MinInvocationThreshold", func(c *policy.Config) *int64 { return &c.Tier3MinInvocationThreshold }},
	{"Tier3CompileThreshold", func(c *policy.Config) *int64 { return &c.Tier3CompileThreshold }},
	{"Tier3BackEdgeThreshold", func(c *policy.Config) *int64 { return &c.Tier3BackEdgeThreshold }},
	{"Tier4InvocationThreshold", func(c *policy.Config) *int64 { return &c.Tier4InvocationThreshold }},
	{"Tier4MinInvocationThreshold", func(c *policy.Config) *int64 { return &c.Tier4MinInvocationThreshold }},
	{"Tier4CompileThreshold", func(c *policy.Config) *int64 { return &c.Tier4CompileThreshold }},
	{"Tier4BackEdgeThreshold", func(c *policy.Config) *int64 { return &c.Tier4BackEdgeThreshold }},
	{"Tier3DelayOn", func(c *policy.Config) *int64 { return &c.Tier3DelayOn }},
	{"Tier3DelayOff", func(c *policy.Config) *int64 { return &c.Tier3DelayOff }},
	{"Tier3LoadFeedback", func(c *policy.Config) *int64 { return &c.Tier3LoadFeedback }},
	{"Tier4LoadFeedback", func(c *policy.Config) *int64 { return &c.Tier4LoadFeedback }},
	{"Tier0Delay", func(c *policy.Config) *int64 { return &c.Tier0Delay }},
	{"Tier0ProfilingStartPercentage", func(c *policy.Config) *int64 { return &c.Tier0ProfilingStartPercentage }},
	{"TieredOldPercentage", func(c *policy.Config) *int64 { return &c.TieredOldPercentage }},
	{"TieredCompileTaskTimeout", func(c *policy.Config) *int64 { return &c.TieredCompileTaskTimeout }},
	{"TieredRateUpdateMinTime", func(c *policy.Config) *int64 { return &c.TieredRateUpdateMinTime }},
	{"TieredRateUpdateMaxTime", func(c *policy.Config) *int64 { return &c.TieredRateUpdateMaxTime }},
}

// policyBools are the boolean flags policy.Config models.
var policyBools = []struct {
	name  string
	field func(*policy.Config) *bool
}{
	{"BackgroundCompilation", func(c *policy.Config) *bool { return &c.BackgroundCompilation }},
	{"TieredCompilation", func(c *policy.Config) *bool { return &c.TieredCompilation }},
	{"UseOnStackReplacement", func(c *policy.Config) *bool { return &c.UseOnStackReplacement }},
	{"ProfileInterpreter", func(c *policy.Config) *bool { return &c.ProfileInterpreter }},
}

var compilationModes = map[string]policy.CompilationMode{
	"default":                  policy.ModeDefault,
	"normal":                   policy.ModeDefault,
	"quick-only":               policy.ModeQuickOnly,
	"high-only":                policy.ModeHighOnly,
	"high-only-quick-internal": policy.ModeHighOnlyQuickInternal,
}

// PolicyConfig returns the tiered-policy configuration a parsed flag set describes: every
// policy knob the flag table has, the execution mode (-Xint leaves UseCompiler off, -Xcomp
// UseInterpreter) and, in Explicit, the flags the user set.
func PolicyConfig(set *flags.Set) (policy.Config, error) {
	c := policy.DefaultConfig(set.JDK())
	c.Explicit = map[string]bool{}
	explicit := func(name string) {
		if set.WasSetOnCommandLine(name) {
			c.Explicit[name] = true
		}
	}
	for _, f := range policyInts {
		if set.Has(f.name) {
			*f.field(&c) = set.Int(f.name)
			explicit(f.name)
		}
	}
	for _, f := range policyBools {
		if set.Has(f.name) {
			*f.field(&c) = set.Bool(f.name)
			explicit(f.name)
		}
	}
	if set.Has("CompilationMode") {
		m, ok := compilationModes[set.String("CompilationMode")]
		if !ok {
			return c, fmt.Errorf("ergonomics: unsupported CompilationMode %q", set.String("CompilationMode"))
		}
		c.CompilationMode = m
		explicit("CompilationMode")
	}
	if set.Has("CompileThresholdScaling") {
		c.CompileThresholdScaling = set.Float("CompileThresholdScaling")
		explicit("CompileThresholdScaling")
	}
	switch {
	case !set.Bool("UseCompiler"):
		c.Exec = policy.Int
	case !set.Bool("UseInterpreter"):
		c.Exec = policy.Comp
	}
	return c, nil
}

// interpreterOnly is CompilerConfig::is_interpreter_only: -Xint (or TieredStopAtLevel=0, which
// also leaves UseCompiler off) or CompileThresholdScaling=0.
func interpreterOnly(set *flags.Set) bool {
	return !set.Bool("UseCompiler") || (set.Has("CompileThresholdScaling") && set.Float("CompileThresholdScaling") == 0)
}

// policyPass applies policy.Ergonomics to the set and settles the compiler thread count.
func (e *ergo) policyPass(activeProcessors int) error {
	s := e.set
	// Arguments::check_vm_args_consistency (8u and mainline), which runs before any
	// ergonomics: both flags given, the per-CPU count wins. flags.Parse does not print it.
	if !s.IsDefault("CICompilerCount") && !s.IsDefault("CICompilerCountPerCPU") && s.Bool("CICompilerCountPerCPU") {
		e.warn("The VM option CICompilerCountPerCPU overrides CICompilerCount.")
	}
	cfg, err := PolicyConfig(s)
	if err != nil {
		return err
	}
	out, changes := cfg, []policy.Change(nil)
	if !parserScales() {
		out, changes, err = policy.Ergonomics(cfg)
		if err != nil {
			return fmt.Errorf("ergonomics: %w", err)
		}
	}
	var rejected []string
	for _, c := range changes {
		if !s.Has(c.Flag) {
			continue
		}
		switch c.Origin {
		case policy.OriginErgonomic:
			v, ok := e.inRange(c, cfg.CompileThresholdScaling)
			if !ok {
				rejected = append(rejected, c.Flag)
				continue
			}
			// FLAG_SET_ERGO marks the flag even when the value does not change.
			e.setErgo(c.Flag, v)
		default:
			// {default} and {command line} changes (the -TieredCompilation emulation,
			// -Xint, -Xcomp) are made by flags.Parse already; only a differing value is
			// written, keeping the origin Parse gave.
			if s.Value(c.Flag) != c.New {
				e.setDefault(c.Flag, c.New)
			}
		}
	}
	e.reportRejected(rejected)
	if s.Has("InlineSmallCode") && s.IsDefault("InlineSmallCode") && tieredWithC2(s) {
		// CompilerConfig::ergo_initialize (JDK 8: AdvancedThresholdPolicy::initialize):
		// tiered code with C2 may inline larger compiled callees than the declared default
		// (1000 bytes on x86) — FLAG_SET_DEFAULT, so PrintFlagsFinal keeps {default}.
		// Recorded on 17 and 25: 2500 with the default mode, 1000 with -Xint,
		// CompileThresholdScaling=0, TieredStopAtLevel<4, -TieredCompilation, quick-only
		// and high-only.
		big := "2000"
		if s.JDK() >= jdk.R17 {
			big = "2500"
		}
		e.setDefault("InlineSmallCode", big)
	}
	if s.Has("ActiveProcessorCount") && s.Int("ActiveProcessorCount") > 0 {
		activeProcessors = int(s.Int("ActiveProcessorCount"))
	}
	if activeProcessors < 1 {
		return fmt.Errorf("ergonomics: active processor count %d must be at least 1", activeProcessors)
	}
	if interpreterOnly(s) {
		// No compiler threads: JDK 25 sets CICompilerCount=0 ergonomically; JDK 17 leaves
		// it alone (both checked with -Xint and CompileThresholdScaling=0). Neither turns on
		// CICompilerCountPerCPU.
		if s.IsDefault("CICompilerCountPerCPU") {
			e.setDefault("CICompilerCountPerCPU", "false")
		}
		if s.JDK() >= jdk.R25 {
			e.setErgo("CICompilerCount", "0")
		}
		return nil
	}
	// CompilationPolicy::initialize (JDK 8: AdvancedThresholdPolicy::initialize, tiered only;
	// NonTieredCompPolicy leaves CICompilerCountPerCPU off): the per-CPU count applies unless
	// the user chose a count (FLAG_SET_DEFAULT). flags.Parse turns it on for every profile;
	// this also covers sets built with flags.NewSet.
	if s.IsDefault("CICompilerCount") && s.IsDefault("CICompilerCountPerCPU") {
		auto := s.JDK() >= jdk.R17 || s.Bool("TieredCompilation")
		e.setDefault("CICompilerCountPerCPU", strconv.FormatBool(auto))
	}
	if !s.Bool("CICompilerCountPerCPU") {
		return nil
	}
	out.CICompilerCount = 0
	c1, c2, err := policy.CompilerCounts(activeProcessors, out)
	if err != nil {
		return fmt.Errorf("ergonomics: %w", err)
	}
	e.setErgo("CICompilerCount", strconv.Itoa(c1+c2))
	return nil
}

// parserScales reports whether flags.Parse applies CompileThresholdScaling itself. Parse
// already models the rest of CompilerConfig::ergo_initialize (-Xint/-Xcomp mode flags, the
// C2-only and legacy emulations); once it scales too, the whole of policy.Ergonomics has
// been applied and running it again over the settled values would compound the scaling (and
// take ergonomic values for explicit ones). The two passes were written side by side; asking
// the parser once keeps the result right whichever of them scales.
var parserScales = sync.OnceValue(func() bool {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: []string{"-XX:CompileThresholdScaling=0.5"}})
	return err == nil && set.Int("Tier2InvokeNotifyFreqLog") != flags.NewSet(jdk.R25, jdk.AMD64).Int("Tier2InvokeNotifyFreqLog")
})

// scalingOrder is the order in which CompilerConfig::set_compilation_policy_flags (JDK 17)
// applies CompileThresholdScaling, and so the order of its range messages.
var scalingOrder = []string{
	"Tier0InvokeNotifyFreqLog", "Tier0BackedgeNotifyFreqLog",
	"Tier3InvocationThreshold", "Tier3MinInvocationThreshold", "Tier3CompileThreshold", "Tier3BackEdgeThreshold",
	"Tier2InvokeNotifyFreqLog", "Tier2BackedgeNotifyFreqLog", "Tier3InvokeNotifyFreqLog", "Tier3BackedgeNotifyFreqLog",
	"Tier23InlineeNotifyFreqLog",
	"Tier4InvocationThreshold", "Tier4MinInvocationThreshold", "Tier4CompileThreshold", "Tier4BackEdgeThreshold",
	"CompileThreshold",
}

// inRange checks an ergonomic change against the flag's range the way FLAG_SET_ERGO does and
// returns the value to set. JDK 17 rejects an out-of-range value (the flag keeps its value,
// a range line is printed); JDK 25 clamps it to the range silently (both checked with
// -XX:CompileThresholdScaling=2048.0 and 100000.0). policy.ScaledFreqLog caps a scaled
// notification log at 30 (mainline's MIN2); JDK 17 caps at 32 instead, so the log is
// recomputed from the old value there.
func (e *ergo) inRange(c policy.Change, scale float64) (string, bool) {
	f := flags.Lookup(c.Flag)
	j := e.set.JDK()
	if f == nil || j < jdk.R17 {
		return c.New, true
	}
	r := f.RangeAt(j)
	if r == nil || !isIntType(f.Type.At(j)) {
		return c.New, true
	}
	v, err := strconv.ParseInt(c.New, 10, 64)
	if err != nil {
		return c.New, true
	}
	if j < jdk.R25 && strings.HasSuffix(c.Flag, "NotifyFreqLog") && scale > 0 && scale != 1 {
		if old, err := strconv.ParseInt(c.Old, 10, 64); err == nil && old > 0 && old < 63 {
			if f := policy.ScaledThreshold(int64(1)<<old, scale); f > 0 {
				v = min(int64(bits.Len64(uint64(f))-1), jdk17MaxFreqBits)
			}
		}
	}
	if v >= r.Min && v <= r.Max {
		return strconv.FormatInt(v, 10), true
	}
	if j >= jdk.R25 {
		return strconv.FormatInt(min(max(v, r.Min), r.Max), 10), true
	}
	e.pendingRange = append(e.pendingRange, rangeLine{flag: c.Flag,
		text: fmt.Sprintf("%s %s=%d is outside the allowed range [ %d ... %d ]", f.Type.At(j), c.Flag, v, r.Min, r.Max)})
	return "", false
}

// jdk17MaxFreqBits caps JDK 17's scaled notification logs (scaled_freq_log returns
// max_freq_bits above 2^max_freq_bits): 2^20·100000 prints Tier23InlineeNotifyFreqLog=32.
const jdk17MaxFreqBits = 32

// rangeLine is a range message waiting to be printed in HotSpot's order.
type rangeLine struct{ flag, text string }

// reportRejected prints the range lines of the rejected flags in scalingOrder.
func (e *ergo) reportRejected(rejected []string) {
	if len(rejected) == 0 {
		return
	}
	pos := func(name string) int {
		for i, n := range scalingOrder {
			if n == name {
				return i
			}
		}
		return len(scalingOrder)
	}
	lines := e.pendingRange
	sort.SliceStable(lines, func(a, b int) bool { return pos(lines[a].flag) < pos(lines[b].flag) })
	for _, l := range lines {
		e.out = append(e.out, outLine{text: l.text})
	}
	e.pendingRange = nil
}

func isIntType(t flags.Type) bool { return t == flags.Int || t == flags.Intx }

// tieredWithC2 reports whether the settled flags run tiered compilation with both compilers
// (CompilerConfig::is_tiered with C2; JDK 8: the AdvancedThresholdPolicy, chosen by
// TieredCompilation alone).
func tieredWithC2(s *flags.Set) bool {
	if !s.Bool("TieredCompilation") {
		return false
	}
	if s.JDK() < jdk.R17 {
		return true
	}
	return !interpreterOnly(s) && s.Int("TieredStopAtLevel") >= 4 && s.String("CompilationMode") == "default"
}
