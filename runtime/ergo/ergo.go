// Package ergo settles what HotSpot derives from the CPU after the command line has been
// parsed: VM_Version's CPU pass (UseSSE, UseAVX and the crypto intrinsic switches against a CPU
// model) and the compiler thread count of CompilationPolicy::initialize (which needs the
// active processor count). Every rule that derives flags from other flags alone is flags.Parse's.
package ergo

import (
	"fmt"
	"strconv"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Settle settles a parsed flag set against a CPU model and a processor count, in HotSpot's
// order:
//
//  1. the compiler thread count (CompilationPolicy::initialize, src/hotspot/share/compiler):
//     with CICompilerCountPerCPU on (flags.Parse decides that), CICompilerCount becomes the
//     count for the active processors (-XX:ActiveProcessorCount when set, else
//     activeProcessors), with FLAG_SET_ERGO;
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
// {command line}).
//
// warnings are HotSpot's warning texts in order, without the "<VM name> warning: " prefix
// (flags.VMWarningPrefix) and without a newline; with -XX:-PrintWarnings there are none.
// err is non-nil only for input jitsim cannot model (a model of another architecture than the
// set, no processors); set may then be partly updated.
func Settle(set *flags.Set, model cpu.Model, activeProcessors int) (warnings []string, err error) {
	e, err := ergonomics(set, model, activeProcessors)
	if err != nil {
		return nil, err
	}
	for i, w := range e.out {
		if !e.plain[i] {
			warnings = append(warnings, w)
		}
	}
	return warnings, nil
}

// SettleStderr is Settle returning the lines java writes to stderr while it settles the
// flags, in order and without newlines: the warnings with flags.VMWarningPrefix (none with
// -XX:-PrintWarnings) and C2's notes on loop strip mining as they are. What java prints while it parses (range messages of
// CompileThresholdScaling included) is flags.Parse's Result.Stderr. commandLine is the set
// as java has it when it prints -XX:+PrintCommandLineFlags: after the collector's and the
// heap's ergonomics, before the compiler threads, the CPU pass and the heap's alignment.
func SettleStderr(set *flags.Set, model cpu.Model, activeProcessors int) (stderr []string, commandLine *flags.Set, err error) {
	stderr, _, commandLine, err = SettleStartup(set, model, activeProcessors)
	return stderr, commandLine, err
}

// SettleStartup is SettleStderr with the unified-logging warnings the ergonomics log as they
// choose the collector (the parse's own are flags.Result.LogWarnings, which these follow):
// string deduplication under a collector that does not do it.
func SettleStartup(set *flags.Set, model cpu.Model, activeProcessors int) (stderr []string, logs []flags.LogLine, commandLine *flags.Set, err error) {
	e, err := ergonomics(set, model, activeProcessors)
	if err != nil {
		return nil, nil, nil, err
	}
	for i, w := range e.out {
		if e.plain[i] {
			stderr = append(stderr, w)
			continue
		}
		stderr = append(stderr, flags.VMWarningPrefix+w)
	}
	return stderr, e.logs, e.commandLine, nil
}

func ergonomics(set *flags.Set, model cpu.Model, activeProcessors int) (*ergo, error) {
	if set == nil {
		return nil, fmt.Errorf("ergonomics: no flag set")
	}
	if want := set.Arch(); model.Arch != want {
		return nil, fmt.Errorf("ergonomics: CPU model %q is %s, the flags are for %s", model.Name, model.Arch, set.Arch())
	}
	e := &ergo{set: set}
	if activeProcessors < 1 {
		return nil, fmt.Errorf("ergonomics: active processor count %d must be at least 1", activeProcessors)
	}
	e.gcArguments(model, active(set, activeProcessors))
	e.commandLine = set.Clone()
	e.loopStripMining()
	if !e.commandLine.WasSetOnCommandLine("CICompilerCount") {
		// The compiler count is CompilationPolicy::initialize's, after the line is printed.
		e.commandLine.Revert("CICompilerCount")
	}
	if err := e.compilerThreads(activeProcessors); err != nil {
		return nil, err
	}
	flags.SettleCompilerCount(set)
	for _, w := range flags.SettleDependentFlags(set) {
		e.warn("%s", w)
	}
	e.cpuPass(model)
	e.alignHeap()
	flags.ReserveCodeCache(set)
	e.machinePass(model, activeProcessors)
	e.g1YoungSizer()
	if set.JDK() >= jdk.R25 && set.Has("CreateCoredumpOnCrash") && set.WasSetOnCommandLine("CreateCoredumpOnCrash") && set.Bool("CreateCoredumpOnCrash") {
		// The modelled machine has core dumps off (ulimit -c 0, as on the recording host):
		// Temurin 25.0.3 says so when the command line asks for them; 17.0.15 does not.
		e.warn("%s", "CreateCoredumpOnCrash specified, but core dumps have been disabled. To enable core dumping, try \"ulimit -c unlimited\" before starting Java again")
	}
	if set.Has("PrintWarnings") && !set.Bool("PrintWarnings") {
		// The compiler's notes are not warnings and stay.
		out, plain := e.out, e.plain
		e.out, e.plain = nil, nil
		for i, w := range out {
			if plain[i] {
				e.note(w)
			}
		}
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

// ergo is one run of the ergonomics.
type ergo struct {
	set *flags.Set
	// out holds the warning texts in order; plain marks the ones java prints without the
	// warning prefix.
	out   []string
	plain map[int]bool
	// commandLine is the set as -XX:+PrintCommandLineFlags prints it: after the collector's
	// and the heap's ergonomics, before the compiler threads, the CPU pass and the heap's
	// alignment.
	commandLine *flags.Set
	// logs are the unified-logging warnings of the collector's ergonomics, in order.
	logs []flags.LogLine
	// feats is the model's feature set as masked by the settled UseSSE/UseAVX levels; the
	// switch rules test it (supports_sse4_1() and friends read the masked bits in HotSpot).
	feats cpu.Set
}

func (e *ergo) warn(format string, a ...any) {
	e.out = append(e.out, fmt.Sprintf(format, a...))
}

// note adds a line java writes to stderr without the warning prefix.
func (e *ergo) note(text string) {
	if e.plain == nil {
		e.plain = map[int]bool{}
	}
	e.plain[len(e.out)] = true
	e.out = append(e.out, text)
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
	// JDK 17's RTM stack locks need RTM locking (which no modelled CPU serves: flags'
	// checkRTM). PrintCommandLineFlags, printed before this pass, still shows them on.
	{flag: "UseRTMForStackLocks", needs: []need{
		flagOn("UseRTMLocking", disable, "UseRTMForStackLocks flag should be off when UseRTMLocking flag is off"),
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

// --- the compiler thread count -------------------------------------------------------------

// active is the active processor count: -XX:ActiveProcessorCount when set, else the
// machine's.
func active(s *flags.Set, processors int) int {
	if s.Has("ActiveProcessorCount") && s.Int("ActiveProcessorCount") > 0 {
		return int(s.Int("ActiveProcessorCount"))
	}
	return processors
}

// sizingConfig is cfg as the VM sizes its compiler threads and code heaps: a -XX:-UseCompiler
// of the command line, unlike a mode that runs no compiler, leaves both sized as if the
// compilers ran (17.0.15, 25.0.3: CICompilerCount 2 and the tiered code heaps on two CPUs).
func sizingConfig(s *flags.Set, cfg policy.Config) policy.Config {
	if cfg.Exec == policy.Int && !s.InterpreterOnly() {
		cfg.Exec = policy.Mixed
		if !s.Bool("UseInterpreter") {
			cfg.Exec = policy.Comp
		}
	}
	return cfg
}

// compilerThreads sets CICompilerCount from the active processor count when
// CICompilerCountPerCPU is on and the compilers run (flags.Parse settled both).
func (e *ergo) compilerThreads(activeProcessors int) error {
	s := e.set
	activeProcessors = active(s, activeProcessors)
	if !s.Bool("CICompilerCountPerCPU") || s.InterpreterOnly() {
		return nil
	}
	cfg, err := policy.FromFlags(s)
	if err != nil {
		return fmt.Errorf("ergonomics: %w", err)
	}
	cfg.CICompilerCount = 0 // the per-CPU count, not the flag's
	c1, c2, err := policy.CompilerCounts(activeProcessors, sizingConfig(s, cfg))
	if err != nil {
		return fmt.Errorf("ergonomics: %w", err)
	}
	e.setErgo("CICompilerCount", strconv.Itoa(c1+c2))
	return nil
}
