package flags

import (
	"math"
	"sort"

	"github.com/jitsim/jitsim/jdk"
)

// Flag is one row of the flag table. Fields that changed between releases are perJDK values.
type Flag struct {
	// Name is the flag name, case-sensitive, as after -XX:.
	Name string
	// Releases is the set of profiles that have the flag; 0 means every profile.
	Releases jdk.Set
	// AMD64Only marks flags declared in cpu/x86/globals_x86.hpp: absent on arm64.
	AMD64Only bool
	// Type is the value type per profile.
	Type perJDK[Type]
	// Kind is product, diagnostic or experimental per profile.
	Kind perJDK[Kind]
	// Decor holds the decorations printed before the kind ("pd", "ARCH", "C2"), per profile.
	Decor perJDK[string]
	// Default is the declared default (before ergonomics), written as -XX: value text.
	Default perJDK[string]
	// Range is the allowed range checked at set time (JDK 9+, JEP 245); nil means none.
	Range perJDK[*Range]
	// LateRange marks a range HotSpot checks only after every option is parsed (the range
	// line without "Improperly specified VM option"), as recorded per release.
	LateRange perJDK[bool]
	// Deprecated is the release in which the flag was deprecated ("15.0"), when java warns
	// that it will likely be removed whenever an option names it; "" otherwise.
	Deprecated perJDK[string]
	// Requires names the flag that must be on when this one is set on the command line
	// (JVMCI's flags need EnableJVMCI or UseJVMCICompiler); "" for none.
	Requires perJDK[string]
	// MemorySizeOption marks flags the VM parses as a memory size before the generic path
	// (Arguments::parse_each_vm_init_arg), e.g. ReservedCodeCacheSize: it is the message
	// printed when that fails, with %s standing for the option.
	MemorySizeOption string
	// Jitsim marks rows that are jitsim's own (not HotSpot's).
	Jitsim bool
	// NotModelled marks rows generated from the JVM recordings (table_recorded.go) that no
	// hand row covers: the flag is accepted and its value checked (type, range), and nothing
	// in jitsim reads it.
	NotModelled bool
	// Doc is a one-line description.
	Doc string
}

// Range is an allowed range. Integer flags use Min/Max (int and intx) or UMin/UMax (uintx);
// double flags use FMin/FMax.
type Range struct {
	Min, Max   int64
	UMin, UMax uint64
	FMin, FMax float64
}

// perJDK is a value that may change at profile From and again at From2 (0 means never).
type perJDK[T any] struct {
	Before T
	From   jdk.Release
	After  T
	From2  jdk.Release
	After2 T
}

// At returns the value for profile j.
func (p perJDK[T]) At(j jdk.Release) T {
	switch {
	case p.From2 != 0 && j >= p.From2:
		return p.After2
	case p.From != 0 && j >= p.From:
		return p.After
	}
	return p.Before
}

func all[T any](v T) perJDK[T] { return perJDK[T]{Before: v} }

func from[T any](before T, j jdk.Release, after T) perJDK[T] {
	return perJDK[T]{Before: before, From: j, After: after}
}

// Exists reports whether the flag exists in profile j on architecture a.
func (f *Flag) Exists(j jdk.Release, a jdk.Arch) bool {
	return f.inJDK(j) && !(f.AMD64Only && a != jdk.AMD64)
}

// inJDK reports whether profile j has the flag.
func (f *Flag) inJDK(j jdk.Release) bool { return f.releases().Has(j) }

func (f *Flag) releases() jdk.Set {
	if f.Releases == 0 {
		return jdk.AllReleases
	}
	return f.Releases
}

const (
	maxJint  = math.MaxInt32
	maxIntx  = math.MaxInt64
	minIntx  = math.MinInt64
	maxUintx = math.MaxUint64
)

func irange(lo, hi int64) *Range { return &Range{Min: lo, Max: hi} }

// rangeModern returns r from JDK 17 on (ranges came with JEP 245 in JDK 9) and none before.
func rangeModern(r *Range) perJDK[*Range] { return from[*Range](nil, jdk.R17, r) }

// Kinds and decorations that many rows share.
var (
	product    = all(Product)
	diagnostic = all(Diagnostic)
	none       = all("")
	pd         = all("pd")
	arch       = all("ARCH")
)

// intxRow builds an intx product flag with a modern range.
func intxRow(name, def string, lo, hi int64, doc string) *Flag {
	return &Flag{Name: name, Type: all(Intx), Kind: product, Decor: none, Default: all(def),
		Range: rangeModern(irange(lo, hi)), Doc: doc}
}

func boolRow(name string, def bool, kind perJDK[Kind], decor perJDK[string], doc string) *Flag {
	d := "false"
	if def {
		d = "true"
	}
	return &Flag{Name: name, Type: all(Bool), Kind: kind, Decor: decor, Default: all(d), Doc: doc}
}

func since(j jdk.Release, f *Flag) *Flag { f.Releases = f.releases() & jdk.Since(j); return f }
func until(j jdk.Release, f *Flag) *Flag { f.Releases = f.releases() & jdk.Before(j); return f }

// c2Decor is the decoration of a flag that moved from runtime/globals.hpp to
// opto/c2_globals.hpp (JDK 15's split of the inlining flags, JDK-8234863): none in JDK 8,
// "C2" (or "C2 pd") from JDK 17 on.
func c2Decor(pd bool) perJDK[string] {
	if pd {
		return from("pd", jdk.R17, "C2 pd")
	}
	return from("", jdk.R17, "C2")
}

// inlineRow builds one of the intx product flags that bound inlining (runtime/globals.hpp in
// JDK 8; c1_globals.hpp and c2_globals.hpp from JDK 15 on), range 0…max_jint from JDK 17.
func inlineRow(name string, decor perJDK[string], def perJDK[string], doc string) *Flag {
	return &Flag{Name: name, Type: all(Intx), Kind: product, Decor: decor, Default: def,
		Range: rangeModern(irange(0, maxJint)), Doc: doc}
}
func amd64(f *Flag) *Flag { f.AMD64Only = true; return f }

// handTable holds the rows written by hand: the flags jitsim acts on (or that carry a doc
// string or a jitsim-only fact such as MemorySizeOption), jitsim's own flags, and every fact
// for the profiles that were not recorded (8, 8u, 21, 22). Facts: PrintFlagsFinal/
// PrintFlagsInitial/PrintFlagsRanges of OpenJDK 17.0.15 and Temurin 25.0.3 on x86_64;
// runtime/globals.hpp, compiler/compiler_globals.hpp, c2_globals.hpp,
// cpu/x86/globals_x86.hpp and the 8u copies for JDK 8. For 17 and 25 a hand row must agree
// with the recording (TestHandRowsAgreeWithRecordings).
var handTable = []*Flag{
	since(jdk.R17, &Flag{Name: "ActiveProcessorCount", Type: all(Int), Kind: product, Decor: none, Default: all("-1"),
		Doc: "CPU count the VM should use and report as active (-1: use the OS value)"}),
	boolRow("AlwaysCompileLoopMethods", false, product, none, "compile methods with loops when they are first called"),
	since(jdk.R17, inlineRow("C1MaxInlineLevel", all("C1"), all("9"), "maximum depth of calls C1 inlines (JDK 8: MaxInlineLevel)")),
	since(jdk.R17, inlineRow("C1MaxInlineSize", all("C1"), all("35"), "maximum bytecode size of a method C1 inlines (JDK 8: MaxInlineSize)")),
	since(jdk.R17, inlineRow("C1MaxTrivialSize", all("C1"), all("6"), "bytecode size C1 inlines at any depth (JDK 8: MaxTrivialSize)")),
	boolRow("BackgroundCompilation", true, product, pd, "compile in the background; -Xbatch turns it off"),
	intxRow("CICompilerCount", "2", 0, maxJint, "number of compiler threads (set ergonomically)"),
	boolRow("CICompilerCountPerCPU", false, product, none, "size the compiler thread count from the CPU count (turned on when CICompilerCount is left alone)"),
	since(jdk.R17, boolRow("CheckIntrinsics", true, diagnostic, none, "check that intrinsic candidates and the VM's intrinsic list agree")),
	boolRow("ClipInlining", true, product, none, "clip inlining if aggregate method exceeds DesiredMethodLimit"),
	since(jdk.R17, &Flag{Name: "CompilationMode", Type: all(Ccstr), Kind: product, Decor: none, Default: all("default"),
		Doc: "compilation modes: default, quick-only, high-only, high-only-quick-internal"}),
	// The compiler oracle's options, in every profile: the java tool pages of JDK 8 and 21
	// document them as for 17 and 25 (JDK 8's are accepted; its oracle is not modelled).
	{Name: "CompileCommand", Type: all(Ccstrlist), Kind: product, Decor: none, Default: all(""),
		Doc: "compile commands (exclude, compileonly, dontinline, inline, option, ...), one per option"},
	{Name: "CompileCommandFile", Type: all(Ccstr), Kind: product, Decor: none, Default: all(""),
		Doc: "file of compile commands, one a line"},
	{Name: "CompileOnly", Type: all(Ccstrlist), Kind: product, Decor: none, Default: all(""),
		Doc: "compile only these methods (comma separated); the rest stay interpreted"},
	{Name: "CompileThreshold", Type: all(Intx), Kind: product, Decor: pd, Default: all("10000"),
		Range: rangeModern(irange(minIntx, maxIntx)), Doc: "invocations+backedges before a method is compiled (non-tiered)"},
	since(jdk.R17, &Flag{Name: "CompileThresholdScaling", Type: all(Double), Kind: product, Decor: none, Default: all("1.0"),
		Range: rangeModern(&Range{FMin: 0, FMax: math.MaxFloat64}), Doc: "factor applied to every compile threshold and notification frequency"}),
	since(jdk.R17, &Flag{Name: "ControlIntrinsic", Type: all(Ccstrlist), Kind: diagnostic, Decor: none, Default: all(""),
		Doc: "enable (+) or disable (-) intrinsics by id, comma separated"}),
	{Name: "DisableIntrinsic", Type: from(Ccstr, jdk.R17, Ccstrlist), Kind: diagnostic, Decor: none, Default: all(""),
		Doc: "do not expand the intrinsics whose ids appear here, comma separated"},
	inlineRow("FreqInlineSize", c2Decor(true), all("325"), "maximum bytecode size of a method C2 inlines at a hot call site"),
	boolRow("IgnoreUnrecognizedVMOptions", false, product, none, "ignore unrecognized -XX options"),
	until(jdk.R21, since(jdk.R17, &Flag{Name: "InlineFrequencyCount", Type: all(Intx), Kind: diagnostic, Decor: pd, Default: all("100"),
		Range: rangeModern(irange(0, maxJint)), Doc: "call-site count from which C2 treats a call site as hot (JDK 8: a develop constant; removed in JDK 18)"})),
	since(jdk.R21, &Flag{Name: "InlineFrequencyRatio", Type: all(Double), Kind: diagnostic, Decor: none, Default: all("0.25"),
		Doc: "call-site executions per caller invocation from which C2 treats a call site as hot (JDK 18+)"}),
	// The declared x86 default; tiered compilation with C2 raises it to 2000 (JDK 8) or 2500
	// (FLAG_SET_DEFAULT in the runtime's ergonomics, so PrintFlagsFinal shows {default}).
	inlineRow("InlineSmallCode", c2Decor(true), all("1000"), "C2 inlines an already compiled method only if its code is smaller than this (bytes; 2000 or 2500 when tiered)"),
	since(jdk.R17, boolRow("InlineNatives", true, diagnostic, none, "use intrinsics for native methods")),
	since(jdk.R17, &Flag{Name: "InitialHeapSize", Type: all(SizeT), Kind: product, Decor: none, Default: all("0"),
		Range: rangeModern(&Range{UMin: 0, UMax: maxUintx}), Doc: "initial Java heap size in bytes (-Xms); checked against MaxHeapSize"}),
	intxRow("InterpreterProfilePercentage", "33", 0, 100, "percentage of CompileThreshold at which the interpreter starts profiling (non-tiered)"),
	boolRow("LogCompilation", false, diagnostic, none, "log compilation activity in XML to LogFile"),
	{Name: "LogFile", Type: all(Ccstr), Kind: diagnostic, Decor: none, Default: all(""),
		Doc: "file for LogCompilation/LogVMOutput output (default hotspot_pid<pid>.log)"},
	boolRow("LogVMOutput", false, diagnostic, none, "save VM output to LogFile"),
	// The heap sizes: -Xmx and -Xms set them too. Only MaxHeapSize is parsed as a memory size
	// before the generic path, with -Xmx's message.
	since(jdk.R17, &Flag{Name: "MaxHeapSize", Type: all(SizeT), Kind: product, Decor: none, Default: all("130862280"),
		Range: rangeModern(&Range{UMin: 0, UMax: maxUintx}), MemorySizeOption: "Invalid maximum heap size: %s",
		Doc: "maximum Java heap size in bytes (-Xmx); sizes jitsim's heap (the default is ergonomic: a quarter of physical memory)"}),
	inlineRow("MaxInlineLevel", c2Decor(false), from("9", jdk.R17, "15"), "maximum depth of calls C2 inlines (JDK 8: C1 too)"),
	inlineRow("MaxInlineSize", c2Decor(false), all("35"), "maximum bytecode size of a method C2 inlines at a cold call site (JDK 8: C1 too)"),
	inlineRow("MaxTrivialSize", c2Decor(false), all("6"), "bytecode size of a trivial method (JDK 8: C1 inlines it at any depth)"),
	since(jdk.R17, &Flag{Name: "MinHeapSize", Type: all(SizeT), Kind: product, Decor: none, Default: all("0"),
		Range: rangeModern(&Range{UMin: 0, UMax: maxUintx}), Doc: "minimum Java heap size in bytes (-Xms); not modelled beyond its value"}),
	{Name: "OnStackReplacePercentage", Type: all(Intx), Kind: product, Decor: pd, Default: all("140"),
		Range: rangeModern(irange(minIntx, maxIntx)), Doc: "percentage of CompileThreshold at which OSR compiles are requested (non-tiered)"},
	boolRow("PrintCommandLineFlags", false, product, none, "print the flags set on the command line or ergonomically"),
	boolRow("PrintCompilation", false, product, none, "print a line per compile task"),
	boolRow("PrintFlagsFinal", false, product, none, "print all VM flags after argument and ergonomic processing"),
	boolRow("PrintFlagsInitial", false, product, none, "print all VM flags before argument processing"),
	since(jdk.R17, boolRow("PrintFlagsRanges", false, product, none, "print the allowed ranges of VM flags")),
	boolRow("PrintInlining", false, diagnostic, none, "print inlining decisions"),
	boolRow("PrintIntrinsics", false, diagnostic, all("C2"), "print which intrinsics C2 generated"),
	boolRow("PrintTieredEvents", false, product, none, "print tiered policy events"),
	boolRow("PrintWarnings", true, product, none, "print VM warnings"),
	boolRow("ProfileInterpreter", true, product, pd, "profile at the bytecode level during interpretation"),
	{Name: "ReservedCodeCacheSize", Type: all(Uintx), Kind: product, Decor: pd, Default: all("50331648"),
		Range: rangeModern(&Range{UMin: 4096, UMax: maxUintx}), LateRange: all(true), MemorySizeOption: "Invalid maximum code cache size: %s.",
		Doc: "reserved code cache size in bytes (x5 ergonomically in tiered mode)"},
	intxRow("Tier0BackedgeNotifyFreqLog", "10", 0, 30, "interpreter back-edge notification frequency (log2)"),
	since(jdk.R17, &Flag{Name: "Tier0Delay", Type: all(Intx), Kind: diagnostic, Decor: none, Default: all("20"),
		Range: rangeModern(irange(0, maxJint)), Doc: "delay (ms) of interpreter profiling while C2 queues are busy"}),
	intxRow("Tier0InvokeNotifyFreqLog", "7", 0, 30, "interpreter invocation notification frequency (log2)"),
	since(jdk.R25, &Flag{Name: "Tier0ProfileDelayFactor", Type: all(Double), Kind: diagnostic, Decor: none, Default: all("100.0"),
		Doc: "training-data: delay factor for profiling in the interpreter"}),
	intxRow("Tier0ProfilingStartPercentage", "200", 0, maxJint, "start profiling in the interpreter at this percentage of the Tier3 thresholds"),
	intxRow("Tier23InlineeNotifyFreqLog", "20", 0, 30, "inlinee invocation notification frequency (log2)"),
	intxRow("Tier2BackEdgeThreshold", "0", 0, maxJint, "back-edge threshold at which tier 2 compilation is invoked"),
	intxRow("Tier2BackedgeNotifyFreqLog", "14", 0, 30, "C1 without MDO back-edge notification frequency (log2)"),
	intxRow("Tier2CompileThreshold", "0", 0, maxJint, "threshold at which tier 2 compilation is invoked"),
	intxRow("Tier2InvokeNotifyFreqLog", "11", 0, 30, "C1 without MDO invocation notification frequency (log2)"),
	since(jdk.R25, &Flag{Name: "Tier2ProfileDelayFactor", Type: all(Double), Kind: diagnostic, Decor: none, Default: all("250.0"),
		Doc: "training-data: delay factor for profiling in tier 2"}),
	intxRow("Tier3BackEdgeThreshold", "60000", 0, maxJint, "back-edge threshold at which tier 3 OSR compilation is invoked"),
	intxRow("Tier3BackedgeNotifyFreqLog", "13", 0, 30, "C1 with MDO back-edge notification frequency (log2)"),
	intxRow("Tier3CompileThreshold", "2000", 0, maxJint, "threshold at which tier 3 compilation is invoked (with Tier3MinInvocationThreshold)"),
	intxRow("Tier3DelayOff", "2", 0, maxJint, "C2 queue length per compiler thread at which tier 3 compiles resume"),
	intxRow("Tier3DelayOn", "5", 0, maxJint, "C2 queue length per compiler thread at which tier 3 is replaced by tier 2"),
	intxRow("Tier3InvocationThreshold", "200", 0, maxJint, "invocations at which tier 3 compilation is invoked"),
	intxRow("Tier3InvokeNotifyFreqLog", "10", 0, 30, "C1 with MDO invocation notification frequency (log2)"),
	intxRow("Tier3LoadFeedback", "5", 0, maxJint, "C1 queue length per thread that doubles the tier 3 thresholds"),
	intxRow("Tier3MinInvocationThreshold", "100", 0, maxJint, "minimum invocations for tier 3 compilation"),
	intxRow("Tier4BackEdgeThreshold", "40000", 0, maxJint, "back-edge threshold at which tier 4 OSR compilation is invoked"),
	intxRow("Tier4CompileThreshold", "15000", 0, maxJint, "threshold at which tier 4 compilation is invoked (with Tier4MinInvocationThreshold)"),
	intxRow("Tier4InvocationThreshold", "5000", 0, maxJint, "invocations at which tier 4 compilation is invoked"),
	intxRow("Tier4LoadFeedback", "3", 0, maxJint, "C2 queue length per thread that doubles the tier 4 thresholds"),
	intxRow("Tier4MinInvocationThreshold", "600", 0, maxJint, "minimum invocations for tier 4 compilation"),
	boolRow("TieredCompilation", true, product, pd, "enable tiered compilation"),
	intxRow("TieredCompileTaskTimeout", "50", 0, maxIntx, "ms a compile task may stay idle in a queue before it is removed"),
	since(jdk.R17, &Flag{Name: "TieredOldPercentage", Type: all(Intx), Kind: diagnostic, Decor: none, Default: all("1000"),
		Range: rangeModern(irange(0, maxJint)), Doc: "percentage over the tier 3 thresholds after which a method is considered old"}),
	intxRow("TieredRateUpdateMaxTime", "25", 0, maxIntx, "maximum ms between event-rate updates"),
	intxRow("TieredRateUpdateMinTime", "1", 0, maxIntx, "minimum ms between event-rate updates"),
	intxRow("TieredStopAtLevel", "4", 0, 4, "stop at the given compilation level"),
	since(jdk.R17, boolRow("UseCriticalCompilerThreadPriority", false, all(Experimental), none, "run compiler threads at critical priority")),
	boolRow("UnlockDiagnosticVMOptions", false, diagnostic, none, "enable diagnostic flags; must precede them"),
	boolRow("UnlockExperimentalVMOptions", false, all(Experimental), none, "enable experimental flags; must precede them"),
	boolRow("UseAES", false, product, none, "use the CPU's AES instructions if available (set from the CPU)"),
	since(jdk.R17, boolRow("UseAESCTRIntrinsics", false, diagnostic, none, "use the AES-CTR intrinsic (set from the CPU)")),
	boolRow("UseAESIntrinsics", false, from(Product, jdk.R17, Diagnostic), none, "use the AES block and CBC intrinsics (set from the CPU)"),
	amd64(&Flag{Name: "UseAVX", Type: from(Intx, jdk.R25, Int), Kind: product, Decor: arch, Default: from("99", jdk.R17, "3"),
		Range: perJDK[*Range]{From: jdk.R17, After: irange(0, 99), From2: jdk.R25, After2: irange(0, 3)}, Doc: "highest AVX level to use (set from the CPU)"}),
	amd64(boolRow("UseCLMUL", false, product, arch, "use the CLMUL (PCLMULQDQ) instructions (set from the CPU)")),
	boolRow("UseCompiler", true, product, none, "use the JIT compilers (-Xint turns it off)"),
	since(jdk.R17, boolRow("UseDynamicNumberOfCompilerThreads", true, product, none, "start compiler threads on demand")),
	since(jdk.R8u, boolRow("UseGHASHIntrinsics", false, from(Product, jdk.R17, Diagnostic), none, "use the GHASH intrinsic (set from the CPU)")),
	boolRow("UseInterpreter", true, product, none, "use the interpreter (-Xcomp turns it off)"),
	{Name: "UseInterpreterAndC1CryptoIntrinsics", Type: all(Bool), Kind: all(Experimental), Decor: none, Default: all("false"), Jitsim: true,
		Doc: "jitsim's model of Andrew Haley's 2018 proof of concept: let the interpreter and C1 call the AES/GHASH stubs"},
	boolRow("UseLoopCounter", true, product, none, "count back-edges (-Xint turns it off)"),
	boolRow("UseOnStackReplacement", true, product, pd, "use on-stack replacement"),
	amd64(&Flag{Name: "UseSSE", Type: from(Intx, jdk.R25, Int), Kind: product, Decor: from("", jdk.R17, "ARCH"), Default: from("99", jdk.R25, "4"),
		Range: perJDK[*Range]{From: jdk.R17, After: irange(0, 99), From2: jdk.R25, After2: irange(0, 4)}, Doc: "highest SSE level to use (set from the CPU)"}),
	since(jdk.R17, amd64(boolRow("UseSSE42Intrinsics", false, product, arch, "use SSE4.2 string intrinsics (set from the CPU)"))),
	since(jdk.R17, boolRow("UseVectorizedMismatchIntrinsic", false, diagnostic, none, "use the vectorizedMismatch intrinsic (set from the CPU)")),
}

// table is THE flag table: the hand rows, and the recorded rows (table_recorded.go) of every
// other flag, sorted by name. A name appears once.
var table []*Flag

// index maps a flag name to its position in table.
var index map[string]int

func init() {
	// Both halves are sorted by name (the generator writes recordedTable sorted), so one merge
	// builds the table; a hand row replaces the recorded row of its name.
	sort.Slice(handTable, func(i, k int) bool { return handTable[i].Name < handTable[k].Name })
	index = make(map[string]int, len(handTable)+len(recordedTable))
	table = make([]*Flag, 0, len(handTable)+len(recordedTable))
	h := 0
	for i := range recordedTable {
		r := &recordedTable[i]
		for ; h < len(handTable) && handTable[h].Name <= r.Name; h++ {
			table = append(table, handTable[h])
		}
		if n := len(table); n == 0 || table[n-1].Name != r.Name {
			table = append(table, r)
		}
	}
	table = append(table, handTable[h:]...)
	for i, f := range table {
		if i > 0 && table[i-1].Name >= f.Name {
			panic("BUG: flag rows out of order or duplicated at " + f.Name)
		}
		index[f.Name] = i
	}
}

// RangeAt returns the allowed range of f in profile j, or nil.
func (f *Flag) RangeAt(j jdk.Release) *Range {
	return f.Range.At(j)
}

// Lookup returns the row for name, or nil. It does not say whether the flag exists in a given
// profile; use Exists.
func Lookup(name string) *Flag {
	if i, ok := index[name]; ok {
		return table[i]
	}
	return nil
}

// Table returns the rows sorted by name. The slice is shared: do not modify it.
func Table() []*Flag { return table }
