package flags

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/jdk"
)

// VMWarningPrefix is how HotSpot prefixes a warning (warning() in utilities/debug.cpp with the
// VM name of an OpenJDK 64-bit server build).
const VMWarningPrefix = "OpenJDK 64-Bit Server VM warning: "

// Warning returns HotSpot's warning line for text (warning() in utilities/debug.cpp), or ""
// when -XX:-PrintWarnings silences warnings. Ergonomics passes use it for their messages.
func (s *Set) Warning(text string) string {
	if !s.Bool("PrintWarnings") {
		return ""
	}
	return VMWarningPrefix + text + "\n"
}

func (p *parser) warning(text string) {
	if w := p.set.Warning(text); w != "" {
		p.notice(w)
	}
}

// reservedCodeCacheTiered is ReservedCodeCacheSize after tiered ergonomics (5 × 48 MB), as
// -XX:+PrintCommandLineFlags shows it on OpenJDK 17.0.15 and Temurin 25.0.3 on x86_64; JDK 8
// (hotspot.md §1.9) and 21 (not observed) follow 17. reservedCodeCacheReserved is what
// PrintFlagsFinal shows once the segmented code cache is reserved: 25 sums the three code
// heaps each aligned to a page (5826188 + 2 × 122916026 bytes become 5828608 + 2 × 122916864).
var (
	reservedCodeCacheTiered   = all("251658240")
	reservedCodeCacheReserved = from("251658240", jdk.R25, "251662336")
)

// segmentedCodeCacheMin is the least ReservedCodeCacheSize for which tiered compilation
// splits the code cache into segments (240 MB, CompilerConfig::ergo_initialize).
const segmentedCodeCacheMin = 240 << 20

// ReserveCodeCache settles what the code cache's reservation does to the flags after
// -XX:+PrintCommandLineFlags is printed: on 25 the segmented cache's size becomes the sum of
// its page-aligned code heaps, with FLAG_SET_ERGO (a size from the command line keeps its
// value and reads {command line, ergonomic}).
func ReserveCodeCache(s *Set) {
	j := s.jdk
	if !behavesLike25(j) || !s.Has("SegmentedCodeCache") || !s.Bool("SegmentedCodeCache") {
		return
	}
	v := s.Uint("ReservedCodeCacheSize")
	// The default cache grows by the alignment of its ergonomic non-method heap; heaps the
	// command line sized in whole pages fill it exactly (25.0.3: -XX:NonNMethodCodeHeapSize=10m
	// keeps 240 MB, and so do both nmethod heaps given, the non-method heap taking the rest).
	ergonomicNonNMethod := !s.WasSetOnCommandLine("NonNMethodCodeHeapSize") &&
		!(s.WasSetOnCommandLine("ProfiledCodeHeapSize") && s.WasSetOnCommandLine("NonProfiledCodeHeapSize"))
	if v == 251658240 && !s.WasSetOnCommandLine("ReservedCodeCacheSize") && ergonomicNonNMethod {
		_ = s.SetErgo("ReservedCodeCacheSize", reservedCodeCacheReserved.At(j))
		return
	}
	// Observed with 512m and with heaps in whole pages; a size whose code heaps do not
	// fill whole pages would grow by their alignment, which is not modelled.
	_ = s.SetErgo("ReservedCodeCacheSize", strconv.FormatUint(v, 10))
}

// applyModes applies what -Xint, -Xcomp, -Xbatch, TieredStopAtLevel and CompilationMode do
// to other flags at startup (Arguments::set_mode_flags, CompilerConfig::ergo_initialize,
// compilerDefinitions.cpp). CPU ergonomics are not done here.
func (p *parser) applyModes() {
	s, j := p.set, p.o.JDK
	setDef := func(name string, v bool) {
		if e := s.lookup(name); e != nil {
			e.v = value{b: v}
		}
	}
	setCmd := func(name string, v value) {
		if e := s.lookup(name); e != nil {
			e.v, e.origin = v, CommandLine
		}
	}
	if j.Modern() && s.Float("CompileThresholdScaling") == 0 && p.res.Mode != Interpreted {
		// "CompileThresholdScaling == 0.0 is equivalent to -Xint" (compilerDefinitions.cpp).
		p.res.Mode = Interpreted
		setDef("UseLoopCounter", false)
		setDef("UseOnStackReplacement", false)
		setDef("AlwaysCompileLoopMethods", false)
	}
	// The mode options set their flags where they stand (modeOption); what remains for the
	// end is -Xint's hold on the compilers.
	if p.res.Mode == Interpreted {
		s.interpreterOnly = true
		if p.compilerAfterXint && j.Modern() {
			p.warning("UseCompiler disabled due to -Xint.") // observed on 17 and 25
		}
		setDef("UseCompiler", false)
		if j.Modern() {
			if s.WasSetOnCommandLine("TieredCompilation") && s.Bool("TieredCompilation") {
				p.warning("TieredCompilation disabled due to -Xint.")
			}
			setCmd("TieredCompilation", value{b: false})
			setCmd("ProfileInterpreter", value{b: false})
			// A segmented cache the command line asked for goes off, its origin kept
			// (17.0.15, 25.0.3; CompileThresholdScaling=0 included).
			if e := s.lookup("SegmentedCodeCache"); e != nil && e.origin != Default && e.v.b {
				p.warning("SegmentedCodeCache has no meaningful effect with -Xint")
				e.v = value{b: false}
			}
		}
	}
	if !j.Modern() {
		// JDK 8 picks the tiered AdvancedThresholdPolicy by TieredCompilation alone.
		tiered := s.Bool("TieredCompilation")
		if p.res.Mode != Interpreted && tiered && s.IsDefault("ReservedCodeCacheSize") {
			_ = s.SetErgo("ReservedCodeCacheSize", reservedCodeCacheTiered.At(j))
		}
		p.tieredInlining(tiered)
		if stop := s.Int("TieredStopAtLevel"); p.res.Mode == Compiled && tiered && (stop < 1 || stop > 3) {
			// -Xcomp with C2: AdvancedThresholdPolicy::initialize assigns plainly what 17
			// sets as {command line} below, and only where the user left the flags alone.
			for _, name := range []string{"Tier3InvokeNotifyFreqLog", "Tier4InvocationThreshold"} {
				if s.IsDefault(name) {
					_ = s.SetDefault(name, "0")
				}
			}
		}
		return
	}
	tiered := s.Bool("TieredCompilation")
	stop := s.Int("TieredStopAtLevel")
	mode := s.CompilationModeInEffect()
	// TieredStopAtLevel=0 leaves the interpreter alone whether tiered compilation was on or
	// the command line had turned it off (17.0.15, 25.0.3: -XX:-TieredCompilation
	// -XX:TieredStopAtLevel=0 runs no compiler, the tier thresholds kept).
	if stop == 0 && p.res.Mode != Interpreted && (tiered || s.WasSetOnCommandLine("TieredCompilation")) {
		s.interpreterOnly = true
		setCmd("TieredCompilation", value{b: false})
		setCmd("UseCompiler", value{b: false})
		setCmd("ProfileInterpreter", value{b: false})
		tiered = false
	}
	if tiered && (stop == 1 || mode == "quick-only") {
		setCmd("ProfileInterpreter", value{b: false})
		// C1 alone, without profiling: java -version says "emulated-client".
		p.res.EmulatedClient = true
	}
	if p.res.Mode == Compiled && tiered && stop == 4 && (mode == "default" || mode == "normal") {
		// Only with both compilers at work: -Xcomp under TieredStopAtLevel 1 to 3, quick-only
		// or high-only leaves them (17.0.15 and 25.0.3, PrintCommandLineFlags).
		setCmd("Tier3InvokeNotifyFreqLog", value{i: 0})
		setCmd("Tier4InvocationThreshold", value{i: 0})
	}
	p.compilationPolicyFlags(tiered, stop, mode)
	p.scaleThresholds()
	fullTiered := tiered && stop == 4 && (mode == "default" || mode == "normal")
	if fullTiered && s.IsDefault("ReservedCodeCacheSize") {
		_ = s.SetErgo("ReservedCodeCacheSize", reservedCodeCacheTiered.At(j))
	}
	if rccs := s.Uint("ReservedCodeCacheSize"); tiered && !p.res.EmulatedClient && rccs >= segmentedCodeCacheMin &&
		s.Has("SegmentedCodeCache") && s.IsDefault("SegmentedCodeCache") {
		_ = s.SetErgo("SegmentedCodeCache", "true")
	}
	// 17's sweeper (gone in 20; 25 keeps an inert flag) starts earlier in a larger cache: its
	// threshold shrinks in proportion above 240 MB (0.5 % becomes 0.234375 % at 512 MB), in
	// every mode and whether the cache is segmented or not (17.0.15: -Xint, TieredStopAtLevel=1,
	// -XX:-SegmentedCodeCache).
	if rccs := s.Uint("ReservedCodeCacheSize"); s.Has("SweeperThreshold") && s.IsDefault("SweeperThreshold") && !behavesLike25(j) && rccs > 0 {
		if t := s.Float("SweeperThreshold"); t*segmentedCodeCacheMin/float64(rccs) < t {
			_ = s.SetErgo("SweeperThreshold", strconv.FormatFloat(t*segmentedCodeCacheMin/float64(rccs), 'f', -1, 64))
		}
	}
	p.tieredInlining(fullTiered)
}

// dependentFlag is a switch HotSpot turns off, with a warning, when a flag it needs is off.
type dependentFlag struct {
	flag, needs string
	releases    jdk.Set
}

// dependentFlags is the one table of those rules (each observed with -XX:+PrintFlagsFinal;
// the switch becomes {ergonomic}, or {command line, ergonomic} when it was given).
var dependentFlags = []dependentFlag{
	// Temurin 25.0.3 warns under any mode, -Xint included; OpenJDK 17.0.15 keeps the switch.
	{flag: "UseProfiledLoopPredicate", needs: "UseLoopPredicate", releases: jdk.Since(jdk.R25)},
}

// SettleDependentFlags applies dependentFlags to a set and returns the warnings, without the
// VM-name prefix. The compilers' start-up does this after -XX:+PrintCommandLineFlags is printed
// (the line shows the switch as the command line left it).
func SettleDependentFlags(s *Set) []string {
	var out []string
	for _, d := range dependentFlags {
		if d.releases.Has(s.jdk) && s.Has(d.flag) && s.Has(d.needs) && s.Bool(d.flag) && !s.Bool(d.needs) {
			out = append(out, "Disabling "+d.flag+" since "+d.needs+" is turned off.")
			_ = s.SetErgo(d.flag, "false")
		}
	}
	return out
}

// tieredInlineSmallCode is InlineSmallCode when tiered code runs with C2: 2000 in JDK 8
// (AdvancedThresholdPolicy::initialize), 2500 from 17 on (CompilerConfig::ergo_initialize).
var tieredInlineSmallCode = from("2000", jdk.R17, "2500")

// tieredInlining lets tiered code with C2 inline larger compiled callees than the declared
// default (1000 bytes on x86), with FLAG_SET_DEFAULT, so PrintFlagsFinal keeps {default}.
// Recorded on 17 and 25: 2500 with the default mode, 1000 with -Xint,
// CompileThresholdScaling=0, TieredStopAtLevel<4, -TieredCompilation, quick-only and high-only.
func (p *parser) tieredInlining(tieredWithC2 bool) {
	s := p.set
	if tieredWithC2 && s.Has("InlineSmallCode") && s.IsDefault("InlineSmallCode") {
		_ = s.SetDefault("InlineSmallCode", tieredInlineSmallCode.At(p.o.JDK))
	}
}

// interpretedCompilerCount: with no compiler (-Xint, CompileThresholdScaling=0,
// TieredStopAtLevel=0) JDK 25 sets CICompilerCount=0 ergonomically, after
// -XX:+PrintCommandLineFlags is printed (the line shows a count the command line gave); JDK 17
// leaves it (both recorded). 21 follows 17 (not observed).
var interpretedCompilerCount = from(false, jdk.R25, true)

// SettleCompilerCount is the compiler count's part of the VM's start-up after
// -XX:+PrintCommandLineFlags is printed: with no compiler, 25 sets it to 0.
func SettleCompilerCount(s *Set) {
	if s.interpreterOnly && interpretedCompilerCount.At(s.jdk) {
		_ = s.SetErgo("CICompilerCount", "0")
	}
}

// compilerThreadFlags is the flag side of CompilationPolicy::initialize (JDK 8:
// AdvancedThresholdPolicy::initialize and NonTieredCompPolicy::initialize): when compilers
// run, CICompilerCountPerCPU turns on unless the user chose a count (FLAG_SET_DEFAULT, so the
// origin stays {default}), except under JDK 8's non-tiered policy. The count itself needs the
// active processor count, which runtime/ergo has.
func (p *parser) compilerThreadFlags() {
	s, j := p.set, p.o.JDK
	if s.interpreterOnly {
		return
	}
	// A -XX:-UseCompiler of the command line still sizes the count per CPU (17.0.15, 25.0.3).
	if s.IsDefault("CICompilerCount") && s.IsDefault("CICompilerCountPerCPU") && (j.Modern() || s.Bool("TieredCompilation")) {
		_ = s.SetDefault("CICompilerCountPerCPU", "true")
	}
}

// compilerCountWarning is Arguments::check_vm_args_consistency's (8u and mainline): both
// flags given, the per-CPU count wins. java prints it before the range messages of
// CompileThresholdScaling; jitsim prints it after the parser's other notices.
func (p *parser) compilerCountWarning() {
	s := p.set
	if s.WasSetOnCommandLine("CICompilerCount") && s.WasSetOnCommandLine("CICompilerCountPerCPU") && s.Bool("CICompilerCountPerCPU") {
		p.warning("The VM option CICompilerCountPerCPU overrides CICompilerCount.")
	}
}

// compilationPolicyFlags models CompilerConfig::set_compilation_policy_flags and
// set_legacy_emulation_flags (compilerDefinitions.cpp, JDK 17+): in a C2-only configuration
// (-XX:-TieredCompilation or CompilationMode=high-only) the tier thresholds get the values
// that emulate the old non-tiered policy, and explicit legacy flags (CompileThreshold,
// OnStackReplacePercentage, InterpreterProfilePercentage) are translated into tier
// thresholds in C1-only and C2-only configurations. CompileThresholdScaling is not applied
// here yet.
func (p *parser) compilationPolicyFlags(tiered bool, stop int64, mode string) {
	s := p.set
	if s.interpreterOnly {
		return
	}
	c2Only := !tiered || mode == "high-only" || mode == "high-only-quick-internal"
	c1Only := !c2Only && (mode == "quick-only" || stop >= 1 && stop <= 3)
	defInt := func(name string, v int64) {
		if e := s.lookup(name); e != nil && e.origin == Default {
			e.v = value{i: v}
		}
	}
	ergo := func(name string, v int64) { _ = s.SetErgo(name, fmt.Sprint(v)) }
	if c2Only {
		defInt("Tier0ProfilingStartPercentage", 33)
		defInt("Tier4InvocationThreshold", 5000)
		defInt("Tier4MinInvocationThreshold", 600)
		defInt("Tier4CompileThreshold", 10000)
		defInt("Tier4BackEdgeThreshold", 15000)
		defInt("Tier3InvocationThreshold", s.Int("Tier4InvocationThreshold"))
		defInt("Tier3MinInvocationThreshold", s.Int("Tier4MinInvocationThreshold"))
		defInt("Tier3CompileThreshold", s.Int("Tier4CompileThreshold"))
		defInt("Tier3BackEdgeThreshold", s.Int("Tier4BackEdgeThreshold"))
	}
	if s.IsDefault("CompileThreshold") && s.IsDefault("OnStackReplacePercentage") && s.IsDefault("InterpreterProfilePercentage") {
		return
	}
	if !c1Only && !c2Only {
		return // normal tiered mode ignores the legacy flags
	}
	threshold := s.Int("CompileThreshold")
	ipp, osrp := s.Int("InterpreterProfilePercentage"), s.Int("OnStackReplacePercentage")
	if threshold < 0 || threshold > maxCompileThreshold || osrp <= ipp {
		return // invalid: the constraint check reports it
	}
	profile := threshold * ipp / 100
	osr := threshold * osrp / 100
	osrProfile := osr * ipp / 100
	tlog, olog := log2Graceful(profile), log2Graceful(osrProfile)
	if c1Only {
		// Without interpreter profiling the thresholds count directly (observed on 17.0.15
		// and 25.0.3 for TieredStopAtLevel 1 and 3).
		tlog, olog = log2Graceful(threshold), log2Graceful(osr)
	}
	if s.Int("Tier0InvokeNotifyFreqLog") > tlog {
		ergo("Tier0InvokeNotifyFreqLog", max(0, tlog))
	}
	if s.Int("Tier0BackedgeNotifyFreqLog") > olog {
		ergo("Tier0BackedgeNotifyFreqLog", max(10, olog))
	}
	ergo("Tier3InvocationThreshold", threshold)
	ergo("Tier3MinInvocationThreshold", threshold)
	ergo("Tier3CompileThreshold", threshold)
	ergo("Tier3BackEdgeThreshold", osr)
	if c2Only {
		ergo("Tier4InvocationThreshold", threshold)
		ergo("Tier4MinInvocationThreshold", threshold)
		ergo("Tier4CompileThreshold", threshold)
		ergo("Tier4BackEdgeThreshold", osr)
		ergo("Tier0ProfilingStartPercentage", ipp)
	}
}

// scaledFlags are the flags CompilerConfig::set_compilation_policy_flags rescales when
// CompileThresholdScaling is given; freq marks the notification-frequency logs.
var scaledFlags = []struct {
	name string
	freq bool
}{
	{"Tier0InvokeNotifyFreqLog", true}, {"Tier0BackedgeNotifyFreqLog", true},
	{"Tier3InvocationThreshold", false}, {"Tier3MinInvocationThreshold", false},
	{"Tier3CompileThreshold", false}, {"Tier3BackEdgeThreshold", false},
	{"Tier2InvokeNotifyFreqLog", true}, {"Tier2BackedgeNotifyFreqLog", true},
	{"Tier3InvokeNotifyFreqLog", true}, {"Tier3BackedgeNotifyFreqLog", true},
	{"Tier23InlineeNotifyFreqLog", true},
	{"Tier4InvocationThreshold", false}, {"Tier4MinInvocationThreshold", false},
	{"Tier4CompileThreshold", false}, {"Tier4BackEdgeThreshold", false},
}

// maxFreqBits caps a scaled notification-frequency log: Temurin 25.0.3 clamps to 30, while
// OpenJDK 17.0.15 lets 31 through (and then rejects it as out of range).
var maxFreqBits = from(int64(32), jdk.R25, int64(30))

// scaledClamps: a scaled value outside its flag's range is clamped to the range silently
// (Temurin 25.0.3), where OpenJDK 17.0.15 refuses it with the range message and keeps the old
// value; a scaled CompileThreshold above its constraint is refused on 25 with the constraint's
// message (the VM runs on), while 17 stores it and its constraint check stops the VM. Both
// checked with -XX:CompileThresholdScaling=100000, 1000000 and 10000000; 21 follows 17 (not
// observed).
var scaledClamps = from(false, jdk.R25, true)

// scaleThresholds applies CompileThresholdScaling with FLAG_SET_ERGO (so PrintFlagsFinal shows
// the scaled values as {ergonomic}); the tier policy reads the scaled flags.
func (p *parser) scaleThresholds() {
	s := p.set
	scale := s.Float("CompileThresholdScaling")
	if s.IsDefault("CompileThresholdScaling") || scale <= 0 {
		return
	}
	if ct := s.Int("CompileThreshold"); ct > 0 {
		v := scaledThreshold(ct, scale)
		if v > maxCompileThreshold && scaledClamps.At(p.o.JDK) {
			p.notice(fmt.Sprintf("CompileThreshold (%d) must be between 0 and %d\n", v, maxCompileThreshold))
		} else {
			p.setErgoChecked("CompileThreshold", v)
		}
	}
	for _, f := range scaledFlags {
		v := s.Int(f.name)
		if f.freq {
			v = scaledFreqLog(v, scale, maxFreqBits.At(p.o.JDK))
		} else {
			v = scaledThreshold(v, scale)
		}
		p.setErgoChecked(f.name, v)
	}
}

// setErgoChecked is FLAG_SET_ERGO of a scaled value with its range check: an out-of-range
// value is clamped (scaledClamps) or reported (as HotSpot prints it) and not set, and the VM
// carries on.
func (p *parser) setErgoChecked(name string, v int64) {
	e := p.set.lookup(name)
	if r := e.flag.RangeAt(p.o.JDK); !inRange(e.typ, r, value{i: v}) {
		if !scaledClamps.At(p.o.JDK) {
			p.notice(rangeMessage(e.flag, e.typ, r, value{i: v}))
			return
		}
		v = min(max(v, r.Min), r.Max)
	}
	_ = p.set.SetErgo(name, fmt.Sprint(v))
}

// scaledThreshold is CompilerConfig::scaled_compile_threshold.
func scaledThreshold(threshold int64, scale float64) int64 {
	if scale == 1 || scale < 0 {
		return threshold
	}
	v := float64(threshold) * scale
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.MaxInt64
	}
	if _, exp := math.Frexp(v); exp > 63 {
		return math.MaxInt64
	}
	return int64(v)
}

// scaledFreqLog is CompilerConfig::scaled_freq_log.
func scaledFreqLog(freqLog int64, scale float64, maxBits int64) int64 {
	if scale == 1 || scale < 0 {
		return freqLog
	}
	if scale == 0 || freqLog == 0 {
		return 0
	}
	f := scaledThreshold(int64(1)<<freqLog, scale)
	if f == 0 {
		return 0
	}
	return min(log2Graceful(f), maxBits)
}

// log2Graceful is log2i_graceful: floor(log2(x)), or -1 for x <= 0.
func log2Graceful(x int64) int64 {
	if x <= 0 {
		return -1
	}
	n := int64(-1)
	for x > 0 {
		x >>= 1
		n++
	}
	return n
}

// compilationModes are the CompilationMode values HotSpot accepts (compilerDefinitions.cpp).
// CompilationModeInEffect is the compilation mode the VM runs: CompilationMode's, but for
// high-only-quick-internal without the JVMCI compiler, which neither recorded JDK ships: java
// warns and runs the default mode, both compilers and the tiered code cache (17.0.15 and
// 25.0.3, -XX:+EnableJVMCI included). "" for a profile without the flag.
func (s *Set) CompilationModeInEffect() string {
	if !s.Has("CompilationMode") {
		return ""
	}
	m := s.String("CompilationMode")
	if m == "" {
		// An empty mode is the default one (17.0.15, 25.0.3 run with it).
		return "default"
	}
	if m == "high-only-quick-internal" && !(s.Has("UseJVMCICompiler") && s.Bool("UseJVMCICompiler")) {
		return "default"
	}
	return m
}

var compilationModes = []string{"default", "quick-only", "high-only", "high-only-quick-internal"}

// maxCompileThreshold is INT_MAX >> InvocationCounter::count_shift.
const maxCompileThreshold = 1<<30 - 1

// checkConstraints runs the checks HotSpot makes after all options are parsed (JDK 9+:
// JVMFlagLimit::check_all_ranges/check_all_constraints, CompilerConfig::check_args_consistency).
// Only the checks verified against the real VMs are modelled.
func (p *parser) checkConstraints() error {
	s, j := p.set, p.o.JDK
	if !j.Modern() {
		return nil
	}
	failed := false
	// The ranges checked after parsing (check_all_ranges): each failure is named.
	for i, f := range table {
		if e := s.at(i); e != nil && f.LateRange.At(j) && e.origin != Default {
			if r := f.RangeAt(j); !inRange(e.typ, r, e.v) {
				p.errText.WriteString(rangeMessage(f, e.typ, r, e.v))
				failed = true
			}
		}
	}
	if e := s.lookup("ReservedCodeCacheSize"); !failed && s.Has("InitialCodeCacheSize") {
		// The code cache must hold its initial size (the same text on 17 and 25, sizes in K).
		// The check comes before the compilers' ergonomics size the cache: a size the
		// command line left alone is the declared one (48 MB), whatever the mode.
		reserved := e.v.u
		if !s.WasSetOnCommandLine("ReservedCodeCacheSize") {
			reserved = s.base[index["ReservedCodeCacheSize"]].v.u
		}
		if init := s.Uint("InitialCodeCacheSize"); reserved < init {
			fmt.Fprintf(&p.errText, "Invalid ReservedCodeCacheSize: %dK. Must be at least InitialCodeCacheSize=%dK.\n", reserved/1024, init/1024)
			return &Error{Text: p.errText.String(), Launcher: true}
		}
		// Nor more than 2G (17.0.15 and 25.0.3, whole megabytes).
		if e.v.u > 2<<30 {
			fmt.Fprintf(&p.errText, "Invalid ReservedCodeCacheSize=%dM. Must be at most 2048M.\n", e.v.u>>20)
			return &Error{Text: p.errText.String(), Launcher: true}
		}
	}
	if !failed {
		mode := s.String("CompilationMode")
		known := mode == "" // the default mode
		for _, m := range compilationModes {
			known = known || m == mode
		}
		if !known {
			fmt.Fprintf(&p.errText, "Unsupported compilation mode '%s', available modes are: quick-only, high-only, high-only-quick-internal\n", mode)
			failed = true
		} else if mode != "" && mode != s.CompilationModeInEffect() {
			p.warning("high-only-quick-internal compilation mode unavailable because there is no c1 and jvmci compiler present.")
		}
	}
	if !failed {
		p.earlyWarnings()
	}
	if !failed && !p.checkRequires() {
		return &Error{Text: p.errText.String(), Launcher: true}
	}
	modeOK := !failed
	ratiosChecked := false
	if !failed {
		ct := s.Int("CompileThreshold")
		switch {
		case ct < 0 || ct > maxCompileThreshold:
			// java checks the constraints in flag declaration order: OnStackReplacePercentage's,
			// the free ratios', then CompileThreshold's.
			p.errText.WriteString("OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\n")
			p.checkCompilerCount()
			p.checkFreeRatios()
			ratiosChecked = true
			fmt.Fprintf(&p.errText, "CompileThreshold (%d) must be between 0 and %d\n", ct, maxCompileThreshold)
			failed = true
		case s.Has("ProfileInterpreter") && s.Bool("ProfileInterpreter") && s.Int("OnStackReplacePercentage") < s.Int("InterpreterProfilePercentage"):
			// Only while the interpreter profiles (not under -Xint or C1 alone), and only
			// below: an equal percentage starts (17.0.15, 25.0.3).
			fmt.Fprintf(&p.errText, "OnStackReplacePercentage (%d) must be larger than InterpreterProfilePercentage (%d)\n",
				s.Int("OnStackReplacePercentage"), s.Int("InterpreterProfilePercentage"))
			failed = true
		}
	}
	// C2's node budget: the fudge factor must stay within 2 % and 40 % of MaxNodeLimit (in
	// integer arithmetic), in every mode (observed on 17 and 25, -Xint included).
	if !failed && s.Has("NodeLimitFudgeFactor") && s.Has("MaxNodeLimit") {
		if limit, fudge := s.Int("MaxNodeLimit"), s.Int("NodeLimitFudgeFactor"); fudge < limit*2/100 || fudge > limit*40/100 {
			fmt.Fprintf(&p.errText, "NodeLimitFudgeFactor must be between 2%% and 40%% of MaxNodeLimit (%d)\n", limit)
			failed = true
		}
	}
	// The intrinsic lists are checked after the compile thresholds, whether those passed or
	// not, and before the compiler count (all three reported together on 17 and 25).
	intrinsicsOK := !modeOK || p.checkIntrinsicLists()
	if !ratiosChecked && modeOK && !p.checkCompilerCount() {
		failed = true
	}
	if !ratiosChecked && modeOK && !p.checkFreeRatios() {
		failed = true
	}
	if failed || !intrinsicsOK {
		// A late range or the compilation mode fails before the flags settle; the rest are
		// the constraints checked after the ergonomics.
		return &Error{Text: p.errText.String(), Launcher: true, AfterFlags: modeOK, Constraints: modeOK}
	}
	return nil
}

// checkCompilerCount reports a CICompilerCount below what the mode runs: two where both
// compilers run, one where one does (C2 without tiering, -Xcomp included; C1 alone;
// TieredStopAtLevel 1 to 3; quick-only and high-only), none for the interpreter alone
// (-Xint, TieredStopAtLevel=0). -XX:-UseCompiler keeps the mode's count (observed on 17 and
// 25).
func (p *parser) checkCompilerCount() bool {
	s := p.set
	if !s.WasSetOnCommandLine("CICompilerCount") || p.res.Mode == Interpreted || s.interpreterOnly {
		return true
	}
	least := int64(1)
	if m := s.CompilationModeInEffect(); s.Bool("TieredCompilation") && s.Int("TieredStopAtLevel") == 4 &&
		m != "quick-only" && m != "high-only" && m != "high-only-quick-internal" {
		least = 2
	}
	if n := s.Int("CICompilerCount"); n < least {
		fmt.Fprintf(&p.errText, "CICompilerCount (%d) must be at least %d \n", n, least)
		return false
	}
	return true
}

// freeRatioPairs are the minimum/maximum free ratios HotSpot holds in order after the
// collector's ergonomics, each failure reported from both sides, the pairs and their two
// lines in java's order (observed on 17 and 25).
var freeRatioPairs = []struct {
	min, max string
	maxFirst bool
}{
	{"MinHeapFreeRatio", "MaxHeapFreeRatio", false},
	{"MinMetaspaceFreeRatio", "MaxMetaspaceFreeRatio", true},
}

// checkFreeRatios reports each free-ratio pair whose minimum exceeds its maximum. Parallel's
// adaptive sizing sets the heap ratios it was not given to 0 and 100 before the check.
func (p *parser) checkFreeRatios() bool {
	s := p.set
	ok := true
	for _, r := range freeRatioPairs {
		if !s.Has(r.min) || !s.Has(r.max) {
			continue
		}
		lo, hi := s.Uint(r.min), s.Uint(r.max)
		if r.min == "MinHeapFreeRatio" && s.Collector() == "UseParallelGC" && s.Has("UseAdaptiveSizePolicy") && s.Bool("UseAdaptiveSizePolicy") {
			if !s.WasSetOnCommandLine(r.min) {
				lo = 0
			}
			if !s.WasSetOnCommandLine(r.max) {
				hi = 100
			}
		}
		if lo <= hi {
			continue
		}
		minLine := fmt.Sprintf("%s (%d) must be less than or equal to %s (%d)\n", r.min, lo, r.max, hi)
		maxLine := fmt.Sprintf("%s (%d) must be greater than or equal to %s (%d)\n", r.max, hi, r.min, lo)
		if r.maxFirst {
			minLine, maxLine = maxLine, minLine
		}
		p.errText.WriteString(minLine + maxLine)
		ok = false
	}
	return ok
}

// checkRequires reports the first flag set on the command line whose required flag is off
// (JVMCIGlobals::check_jvmci_flags_are_consistent: the flags that need UseJVMCICompiler are
// checked before those that need EnableJVMCI, which UseJVMCICompiler turns on). Within a
// group java follows its declaration order, which the recordings do not show; jitsim takes
// the names in table order.
func (p *parser) checkRequires() bool {
	s, j := p.set, p.o.JDK
	on := func(name string) bool {
		return s.Has(name) && s.Bool(name) || name == "EnableJVMCI" && s.Has("UseJVMCICompiler") && s.Bool("UseJVMCICompiler")
	}
	for _, group := range []string{"UseJVMCICompiler", ""} {
		for i, f := range table {
			req := f.Requires.At(j)
			if req == "" || (group != "" && req != group) || (group == "" && req == "UseJVMCICompiler") {
				continue
			}
			if e := s.at(i); e == nil || !s.WasSetOnCommandLine(f.Name) || on(req) {
				continue
			}
			fmt.Fprintf(&p.errText, "Improperly specified VM option '%s': '%s' must be enabled\n", f.Name, req)
			return false
		}
	}
	return true
}

// intrinsicNames returns the intrinsic names profile j accepts in DisableIntrinsic and
// ControlIntrinsic, sorted, or nil when the profile was not recorded (8 and 8u do not check
// the names; 21 is not known, so jitsim accepts every name there).
func intrinsicNames(j jdk.Release) []string {
	for _, r := range recordedIntrinsics {
		if r.releases.Has(j) {
			return r.names
		}
	}
	return nil
}

// intrinsicTokens splits an intrinsic list as HotSpot's iterators do: at commas, newlines (a
// repeated option) and blanks; empty entries are skipped.
func intrinsicTokens(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' })
}

// controlSignWarning is the warning for a ControlIntrinsic entry without its + or -.
func controlSignWarning(token string) string {
	return "failed to parse " + token + ". must start with +/-!"
}

// checkIntrinsicLists validates DisableIntrinsic, then ControlIntrinsic, against the
// profile's intrinsic names (recorded on 17.0.15 and 25.0.3): each list reports its first
// unknown name. A ControlIntrinsic entry without a sign is warned about and taken as the
// name; java reads the list four times while starting, so a good list warns four times per
// entry, a bad one once (its error follows the warnings, and ends the start).
func (p *parser) checkIntrinsicLists() bool {
	s := p.set
	names := intrinsicNames(p.o.JDK)
	known := func(n string) bool {
		i := sort.SearchStrings(names, n)
		return names == nil || i < len(names) && names[i] == n
	}
	ok := true
	if s.Has("DisableIntrinsic") {
		for _, t := range intrinsicTokens(s.String("DisableIntrinsic")) {
			if !known(t) {
				fmt.Fprintf(&p.errText, "Unrecognized intrinsic detected in DisableIntrinsic: %s\n", t)
				ok = false
				break
			}
		}
	}
	if !s.Has("ControlIntrinsic") {
		return ok
	}
	tokens := intrinsicTokens(s.String("ControlIntrinsic"))
	var warnings strings.Builder
	bad, badName := false, ""
	for _, t := range tokens {
		name := t
		if t[0] == '+' || t[0] == '-' {
			name = t[1:]
		} else {
			warnings.WriteString(s.Warning(controlSignWarning(t)))
		}
		if !bad && !known(name) {
			bad, badName = true, name
		}
	}
	if bad {
		p.errText.WriteString(warnings.String())
		fmt.Fprintf(&p.errText, "Unrecognized intrinsic detected in ControlIntrinsic: %s\n", badName)
		return false
	}
	if warnings.Len() > 0 && ok {
		for range 4 {
			p.notice(warnings.String())
		}
	}
	return ok
}

// vmFlag is one flag of a recorded VM's flag table (recordedFlagTable).
type vmFlag struct {
	name   string
	isBool bool
	// debug is "develop" or "notproduct" for a flag only a debug build takes, else "".
	debug string
}

// vmFlagTables parses recordedFlagTable once: per entry, the flags in the VM's order and the
// debug-only ones by name.
var vmFlagTables = sync.OnceValue(func() []vmFlagTable {
	tables := make([]vmFlagTable, len(recordedFlagTable))
	for i, r := range recordedFlagTable {
		t := vmFlagTable{releases: r.releases, debugOnly: map[string]vmFlag{}}
		for _, l := range r.flags {
			f := strings.Fields(l)
			v := vmFlag{name: f[0], isBool: f[1] == "bool"}
			if len(f) > 2 {
				v.debug = f[2]
				t.debugOnly[v.name] = v
			}
			t.order = append(t.order, v)
		}
		tables[i] = t
	}
	return tables
})

type vmFlagTable struct {
	releases  jdk.Set
	order     []vmFlag
	debugOnly map[string]vmFlag
}

// vmFlagTableOf returns the recorded flag table of release j on arch a (nil for a release or
// an architecture not recorded: the recordings are x86_64's).
func vmFlagTableOf(j jdk.Release, a jdk.Arch) *vmFlagTable {
	if a != jdk.AMD64 {
		return nil
	}
	tables := vmFlagTables()
	for i := range tables {
		if tables[i].releases.Has(j) {
			return &tables[i]
		}
	}
	return nil
}

// debugOnlyFlag reports whether name is a flag release j's product build on arch a knows but
// refuses as available only in a debug build (recorded releases only).
func debugOnlyFlag(j jdk.Release, a jdk.Arch, name string) (vmFlag, bool) {
	if t := vmFlagTableOf(j, a); t != nil {
		f, ok := t.debugOnly[name]
		return f, ok
	}
	return vmFlag{}, false
}

// fuzzyMatch models JVMFlag::fuzzy_match: the flag whose name has the highest
// StringUtils::similarity to name (2·matching bigrams / (len1+len2), each bigram of the flag
// name counted once), locked and debug-only flags included, if that score is at least 0.7.
// Scores are HotSpot's floats; the first best wins, in the VM's own table order for a
// recorded release (recordedFlagTable: not the alphabetical order PrintFlagsFinal prints),
// in jitsim's table order otherwise.
func (p *parser) fuzzyMatch(name string) (vmFlag, bool) {
	var best vmFlag
	max := float32(-1)
	consider := func(f vmFlag) {
		if la, lb := len(f.name), len(name); 2*float64(min(la, lb)) < 0.7*float64(la+lb) {
			return // no bigram count reaches 0.7: skip the quadratic comparison
		}
		if score := float32(similarity(f.name, name)); score > max {
			max, best = score, f
		}
	}
	if t := vmFlagTableOf(p.o.JDK, p.o.Arch); t != nil {
		for _, f := range t.order {
			consider(f)
		}
	} else {
		for i, f := range table {
			if e := p.set.at(i); e != nil {
				consider(vmFlag{name: f.Name, isBool: e.typ == Bool})
			}
		}
	}
	if max < float32(0.7) {
		return vmFlag{}, false
	}
	return best, true
}

// similarity is StringUtils::similarity (utilities/stringUtils.cpp).
func similarity(a, b string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	hit := 0
	for i := 0; i < len(a)-1; i++ {
		for k := 0; k < len(b)-1; k++ {
			if a[i] == b[k] && a[i+1] == b[k+1] {
				hit++
				break
			}
		}
	}
	return 2 * float64(hit) / float64(len(a)+len(b))
}
