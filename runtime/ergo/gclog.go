package ergo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// usingLines are the gc=info lines each collector logs as it starts (OpenJDK 17.0.15 and
// Temurin 25.0.3 with -Xlog:gc -version).
var usingLines = map[string][]string{
	"UseSerialGC":     {"Using Serial"},
	"UseParallelGC":   {"Using Parallel"},
	"UseG1GC":         {"Using G1"},
	"UseZGC":          {"Using The Z Garbage Collector"},
	"UseShenandoahGC": {"Using Shenandoah"},
	"UseEpsilonGC":    {"Using Epsilon"},
}

// shenandoahRow is one flag Shenandoah's mode or heuristics sets at start-up when the command
// line left it alone, logging "Heuristics ergonomically sets -XX:SETTING" (gc, info): the
// mode's rows before "Using Shenandoah", the heuristics' after it.
type shenandoahRow struct {
	option   string // ShenandoahGCMode or ShenandoahGCHeuristics
	choice   string // the option's value
	releases jdk.Set
	setting  string // +Flag, -Flag or Flag=value, as the log line writes it
}

// shenandoahErgo is the one table of those settings, in java's order (OpenJDK 17.0.15 and
// Temurin 25.0.3 with -Xlog:gc; IU mode is 17's, generational 25's).
var shenandoahErgo = []shenandoahRow{
	{"ShenandoahGCMode", "satb", all, "+ExplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "satb", all, "+ShenandoahImplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "iu", jdk17, "+ExplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "iu", jdk17, "+ShenandoahImplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "generational", jdk25, "GCTimeRatio=70"},
	{"ShenandoahGCMode", "generational", jdk25, "+ExplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "generational", jdk25, "+ShenandoahImplicitGCInvokesConcurrent"},
	{"ShenandoahGCMode", "generational", jdk25, "+UseCondCardMark"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahPacing"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahLoadRefBarrier"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahSATBBarrier"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahCASBarrier"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahCloneBarrier"},
	{"ShenandoahGCMode", "passive", jdk17, "-ShenandoahNMethodBarrier"},
	{"ShenandoahGCMode", "passive", all, "-ShenandoahStackWatermarkBarrier"},
	{"ShenandoahGCHeuristics", "compact", all, "+ShenandoahUncommit"},
	{"ShenandoahGCHeuristics", "compact", all, "+ShenandoahAlwaysClearSoftRefs"},
	{"ShenandoahGCHeuristics", "compact", all, "ShenandoahAllocationThreshold=10"},
	{"ShenandoahGCHeuristics", "compact", all, "ShenandoahImmediateThreshold=100"},
	{"ShenandoahGCHeuristics", "compact", all, "ShenandoahUncommitDelay=1000"},
	{"ShenandoahGCHeuristics", "compact", all, "ShenandoahGuaranteedGCInterval=30000"},
	{"ShenandoahGCHeuristics", "compact", all, "ShenandoahGarbageThreshold=10"},
	{"ShenandoahGCHeuristics", "aggressive", all, "ShenandoahImmediateThreshold=100"},
	{"ShenandoahGCHeuristics", "aggressive", jdk17, "ShenandoahUnloadClassesFrequency=1"},
}

// flagValue returns the row's flag and the value it sets, as flag text.
func (r shenandoahRow) flagValue() (name, value string) {
	switch r.setting[0] {
	case '+':
		return r.setting[1:], "true"
	case '-':
		return r.setting[1:], "false"
	}
	name, value, _ = strings.Cut(r.setting, "=")
	return name, value
}

// applies reports whether the row takes effect on a set: Shenandoah with the row's mode or
// heuristics on its release, and the flag not set on the command line.
func (r shenandoahRow) applies(s *flags.Set) bool {
	name, _ := r.flagValue()
	if s.Collector() != "UseShenandoahGC" || !r.releases.Has(s.JDK()) || !s.Has(r.option) {
		return false
	}
	choice := s.String(r.option)
	if r.option == "ShenandoahGCHeuristics" {
		choice, _ = flags.ShenandoahHeuristics(s)
	}
	return choice == r.choice && s.Has(name) && !s.WasSetOnCommandLine(name)
}

// shenandoahLines are the log lines of the rows of option that apply to a set. A switch row
// is logged when it changes its flag: commandLine is the set before the rows ran (nil: log
// every row); compact's +ShenandoahUncommit is logged only where the heap's sizes turned
// uncommit off (17.0.15, 25.0.3: -Xmx64m).
func shenandoahLines(s, commandLine *flags.Set, option string) []string {
	var out []string
	for _, r := range shenandoahErgo {
		name, value := r.flagValue()
		// A switch is logged when it changes; a value is logged whenever the row sets it
		// (17's aggressive heuristics log ShenandoahUnloadClassesFrequency=1, its default).
		override := r.setting[0] != '+' && r.setting[0] != '-'
		if r.option == option && r.applies(s) && (commandLine == nil || override || !commandLine.Has(name) || commandLine.Value(name) != value) {
			out = append(out, "Heuristics ergonomically sets -XX:"+r.setting)
		}
	}
	return out
}

// genAlignment is the young generation's alignment of the generational collectors: Serial's
// space alignment, Parallel's 512K (its gc+init "Alignments" line).
var genAlignment = map[string]uint64{"UseSerialGC": 64 << 10, "UseParallelGC": 512 << 10}

// youngSizeWarnings are the gc+ergo warnings of Serial and Parallel when the command line
// asks for a young generation as large as the heap (-Xmn above -Xmx): NewSize against the
// initial heap, MaxNewSize against the maximum, each cut to the heap less one alignment. JDK
// 17 words the first differently and without sizes (OpenJDK 17.0.15, Temurin 25.0.3).
func youngSizeWarnings(s *flags.Set, gc string) []flags.LogLine {
	align, ok := genAlignment[gc]
	if !ok || !gcModelled(s) {
		return nil
	}
	var out []flags.LogLine
	warn := func(format string, a ...any) {
		out = append(out, flags.LogLine{Level: "warning", Tags: "gc,ergo", Text: fmt.Sprintf(format, a...)})
	}
	if young, initial := s.Uint("NewSize"), s.Uint("InitialHeapSize"); s.WasSetOnCommandLine("NewSize") && young >= initial {
		if s.JDK() < jdk.R25 {
			warn("NewSize was set larger than initial heap size, will use initial heap size.")
		} else {
			warn("NewSize (%dk) is equal to or greater than initial heap size (%dk).  A new NewSize of %dk will be used to accomodate an old generation.",
				young>>10, initial>>10, (initial-align)>>10)
		}
	}
	if young, heap := s.Uint("MaxNewSize"), s.Uint("MaxHeapSize"); s.WasSetOnCommandLine("MaxNewSize") && young >= heap {
		warn("MaxNewSize (%dk) is equal to or greater than the entire heap (%dk).  A new max generation size of %dk will be used.",
			young>>10, heap>>10, (heap-align)>>10)
	}
	return out
}

// g1YoungSizerWarnings are G1's gc+ergo warnings about the young sizes the command line
// gave, as the heap is made (after the heap sizes' debug line, before "Using G1"; 17.0.15 and
// 25.0.3): NewSize or MaxNewSize with NewRatio, and NewSize (given or declared) above a
// MaxNewSize given, which then takes NewSize (g1YoungSizer).
func g1YoungSizerWarnings(cl *flags.Set) []flags.LogLine {
	if cl == nil || !cl.Has("NewRatio") || !cl.Has("NewSize") || !cl.Has("MaxNewSize") {
		return nil
	}
	var out []flags.LogLine
	warn := func(format string, a ...any) {
		out = append(out, flags.LogLine{Level: "warning", Tags: "gc,ergo", Text: fmt.Sprintf(format, a...)})
	}
	newSize, maxNew := cl.WasSetOnCommandLine("NewSize"), cl.WasSetOnCommandLine("MaxNewSize")
	if cl.WasSetOnCommandLine("NewRatio") && (newSize || maxNew) {
		warn("-XX:NewSize and -XX:MaxNewSize override -XX:NewRatio")
	}
	if young, most := cl.Uint("NewSize"), cl.Uint("MaxNewSize"); maxNew && young > most {
		warn("NewSize (%dk) is greater than the MaxNewSize (%dk). A new max generation size of %dk will be used.", young>>10, most>>10, young>>10)
	}
	return out
}

// HeapSizeLog is what the VM logs (gc+heap, trace) as it sizes the heap while it parses the
// options: each of the maximum, initial and minimum sizes the command line left to the
// ergonomics, before the heap's alignment. commandLine is the set as -XX:+PrintCommandLineFlags
// shows it (SettleStderr's).
func HeapSizeLog(commandLine *flags.Set) []flags.LogLine {
	s := commandLine
	if s == nil || !gcModelled(s) {
		return nil
	}
	var out []flags.LogLine
	for _, f := range []struct{ flag, what string }{{"MaxHeapSize", "Maximum"}, {"InitialHeapSize", "Initial"}, {"MinHeapSize", "Minimum"}} {
		if s.Has(f.flag) && !s.WasSetOnCommandLine(f.flag) {
			out = append(out, flags.LogLine{Level: "trace", Tags: "gc,heap", Text: fmt.Sprintf("  %s heap size %d", f.what, s.Uint(f.flag))})
		}
	}
	return out
}

// StartLog returns the unified-logging lines a settled set's VM logs while it starts, in
// java's order, whatever -Xlog asked for (the caller routes each line to the outputs whose
// selections take it): the collector's "Using …" (gc, info) and, for Serial, Parallel and G1
// on a recorded release, the machine and heap description of gc+init: the JDK's build, the
// model's CPUs and memory, the compressed-oops mode and the heap sizes after alignment (25
// starts with the card table's entry size). ZGC's and Shenandoah's gc+init lines (address
// space, backing file system) are not modelled; nor are the metaspace's addresses that gc*
// adds (docs/flags.md); the heap's summary at exit is ExitLog's. Then the compiler threads the VM
// starts with (jit+thread, debug: the first of each compiler, C2's first). commandLine is the
// set as -XX:+PrintCommandLineFlags shows it (SettleStderr's), for the warnings about what the
// command line asked.
func StartLog(set, commandLine *flags.Set, model cpu.Model, activeProcessors int) []flags.LogLine {
	if !set.JDK().Modern() {
		return nil
	}
	lines := gcLog(set, commandLine, model, activeProcessors)
	// The compiler threads start after the heap and the first classes.
	if !set.Bool("UseCompiler") || heapReserveFailure(set) != "" || shenandoahRefused(set, "ShenandoahGCMode") || shenandoahRefused(set, "ShenandoahGCHeuristics") || zgcHeapTooLarge(set) || metaspaceTooSmall(set) || flags.YoungRatioFailure(set) != "" {
		return lines
	}
	cfg, err := policy.FromFlags(set)
	if err != nil {
		return lines
	}
	c1, c2, err := policy.CompilerCounts(active(set, activeProcessors), cfg)
	if err != nil {
		return lines
	}
	for _, c := range []struct {
		n    int
		name string
	}{{c2, "C2"}, {c1, "C1"}} {
		if c.n > 0 {
			lines = append(lines, flags.LogLine{Level: "debug", Tags: "jit,thread", Text: "Added initial compiler thread " + c.name + " CompilerThread0"})
		}
	}
	return lines
}

// gcLog is the collector's part of StartLog.
func gcLog(set, commandLine *flags.Set, model cpu.Model, activeProcessors int) []flags.LogLine {
	gc := set.Collector()
	if gc == "" {
		gc = "UseG1GC"
	}
	var out []flags.LogLine
	info := func(tags, format string, a ...any) {
		out = append(out, flags.LogLine{Level: "info", Tags: tags, Text: fmt.Sprintf(format, a...)})
	}
	build := flags.RecordedBuild(set.JDK())
	described := gcModelled(set) && build != "" && (gc == "UseSerialGC" || gc == "UseParallelGC" || gc == "UseG1GC")
	if described && gc == "UseG1GC" && set.JDK() < jdk.R25 {
		// 17 sizes G1's mark stack with its arguments, before the heap's lines.
		out = append(out, g1MarkStackTrace(set))
	}
	shenandoah := shenandoahDescribed(set, build)
	if (described || shenandoah) && set.JDK() >= jdk.R25 {
		info("gc,init", "CardTable entry size: 512")
	}
	if regions := commandLine; set.Collector() == "UseShenandoahGC" {
		// Shenandoah sizes its regions next, from the heap before its alignment to them,
		// and stops on sizes it cannot take (25.0.3: after the card table's line).
		if regions == nil {
			regions = set
		}
		if flags.ShenandoahRegionFailure(regions) != "" {
			return out
		}
	}
	if flags.YoungRatioFailure(set) != "" {
		// The generations are sized before the collector says which it is.
		return out
	}
	out = append(out, youngSizeWarnings(set, gc)...)
	zgc := gcModelled(set) && build != "" && gc == "UseZGC"
	if described || zgc {
		out = append(out, flags.LogLine{Level: "debug", Tags: "gc,heap", Text: fmt.Sprintf("Minimum heap %d  Initial heap %d  Maximum heap %d",
			set.Uint("MinHeapSize"), set.Uint("InitialHeapSize"), set.Uint("MaxHeapSize"))})
	}
	if gc == "UseG1GC" && gcModelled(set) {
		out = append(out, g1YoungSizerWarnings(commandLine)...)
	}
	if zgc {
		out = append(out, zgcInitLines(set, model, activeProcessors, build)...)
	}
	for _, l := range shenandoahLines(set, commandLine, "ShenandoahGCMode") {
		info("gc", "%s", l)
	}
	// A mode Shenandoah refuses stops the VM once the mode's settings are logged, a
	// heuristics once its own are, after "Using Shenandoah" (17.0.15, 25.0.3).
	if shenandoahRefused(set, "ShenandoahGCMode") {
		return out
	}
	if zgcHeapTooLarge(set) && set.JDK() >= jdk.R25 {
		return out
	}
	for _, l := range usingLines[gc] {
		info("gc", "%s", l)
	}
	if heapReserveFailure(set) != "" || zgcHeapTooLarge(set) {
		// The heap is reserved after the collector says which it is, and the VM stops there.
		return out
	}
	for _, l := range shenandoahLines(set, commandLine, "ShenandoahGCHeuristics") {
		info("gc", "%s", l)
	}
	if shenandoahRefused(set, "ShenandoahGCHeuristics") {
		return out
	}
	if zgc && set.Bool("ZUncommit") && set.Uint("MinHeapSize") != set.Uint("MaxHeapSize") {
		// The uncommitter's first timeout, once it runs.
		text := fmt.Sprintf("Uncommit Timeout: %ds", set.Uint("ZUncommitDelay")+1)
		if set.JDK() >= jdk.R25 {
			text = fmt.Sprintf("Uncommitter (0) Timeout: %dms", set.Uint("ZUncommitDelay")*1000)
		}
		out = append(out, flags.LogLine{Level: "debug", Tags: "gc,heap", Text: text})
	}
	if max := set.Uint("MaxHeapSize"); described {
		// A zero-based heap ends at 32 GB, a 32-bit one at 4 GB.
		switch oopsMode(set) {
		case "Enabled (Zero based)":
			out = append(out, flags.LogLine{Level: "debug", Tags: "gc,heap,coops", Text: fmt.Sprintf(
				"Heap address: 0x%016x, size: %d MB, Compressed Oops mode: Zero based, Oop shift amount: 3", zeroBasedEnd(set)-max, max>>20)})
		case "Enabled (32-bit)":
			out = append(out, flags.LogLine{Level: "debug", Tags: "gc,heap,coops", Text: fmt.Sprintf(
				"Heap address: 0x%016x, size: %d MB, Compressed Oops mode: 32-bit", 4*gib-max, max>>20)})
		}
	}
	if shenandoah {
		out = append(out, shenandoahInitLines(set, model, activeProcessors, build)...)
	}
	if gc == "UseShenandoahGC" && set.JDK() < jdk.R25 {
		info("gc", "Cancelling GC: Stopping VM") // 17 logs it as the VM exits
	}
	if gc == "UseEpsilonGC" {
		out = append(out, epsilonLines(set, model, activeProcessors, build)...)
	}
	if !described {
		return out
	}
	s := set
	if gc == "UseG1GC" {
		out = append(out, g1StartDebug(s)...)
	}
	out = append(out, machineInitLines(s, model, activeProcessors, build)...)
	if gc == "UseParallelGC" {
		// Parallel's spaces align to the page size: 2 MB pages with transparent huge pages.
		space := "512K"
		if largePages(s) {
			space = "2M"
		}
		info("gc,init", "Alignments: Space %s, Generation %s, Heap 2M", space, space)
	}
	if gc == "UseG1GC" {
		info("gc,init", "Heap Region Size: %s", exactUnit(s.Uint("G1HeapRegionSize")))
	}
	out = append(out, heapInitLines(s, 1)...)
	switch gc {
	case "UseParallelGC":
		info("gc,init", "Parallel Workers: %d", s.Uint("ParallelGCThreads"))
	case "UseG1GC":
		info("gc,init", "Parallel Workers: %d", s.Uint("ParallelGCThreads"))
		info("gc,init", "Concurrent Workers: %d", s.Uint("ConcGCThreads"))
		info("gc,init", "Concurrent Refinement Workers: %d", s.Uint("G1ConcRefinementThreads"))
		info("gc,init", "Periodic GC: Disabled")
		if s.Has("G1PeriodicGCInterval") && s.Uint("G1PeriodicGCInterval") != 0 {
			out[len(out)-1].Text = "Periodic GC: Enabled"
			info("gc,init", "Periodic GC Interval: %dms", s.Uint("G1PeriodicGCInterval"))
		}
		out = append(out, g1ArchiveRegions(s)...)
	}
	for _, l := range classSpaceLines(s) {
		info("gc,metaspace", "%s", l)
	}
	return out
}

// largePages reports whether the heap is on large pages: the modelled machine serves them by
// transparent huge pages only (flags' large-page settlement leaves UseLargePages on with them).
func largePages(s *flags.Set) bool {
	return s.Has("UseLargePages") && s.Bool("UseLargePages") && s.Has("UseTransparentHugePages") && s.Bool("UseTransparentHugePages")
}

// largePageSupport is gc+init's "Large Page Support" (17.0.15, 25.0.3): transparent huge
// pages, but for 25's ZGC, whose shared-memory heap the modelled machine gives none ("OS
// enforced", after its warning).
func largePageSupport(s *flags.Set) string {
	switch {
	case !largePages(s):
		return "Disabled"
	case s.Collector() == "UseZGC" && s.JDK() >= jdk.R25:
		return "Disabled (OS enforced)"
	}
	return "Enabled (Transparent)"
}

// zeroBasedEnd is where a zero-based heap ends: at 32 GB, but for OpenJDK 17 without the
// class-data archive, which puts the compressed class space there and the heap below it.
func zeroBasedEnd(s *flags.Set) uint64 {
	if s.JDK() < jdk.R25 && !s.Sharing() && s.Has("CompressedClassSpaceSize") {
		return 32*gib - s.Uint("CompressedClassSpaceSize")
	}
	return 32 * gib
}

// classSpaceLines are the gc+metaspace lines of where the compressed class space went, when
// that is not random: OpenJDK 17 under -Xshare:off puts it above a 32-bit heap (at 4 GB),
// above a zero-based one (ending at 32 GB) with a shift of 3, else at 2 GB unshifted. With the
// archive it follows the archive's random address, and Temurin 25 picks it at random too.
func classSpaceLines(s *flags.Set) []string {
	if s.JDK() >= jdk.R25 || s.Sharing() || !s.Has("CompressedClassSpaceSize") || !s.Bool("UseCompressedClassPointers") {
		return nil
	}
	size := s.Uint("CompressedClassSpaceSize")
	base, shift, rng := uint64(2*gib), 0, uint64(2*gib)+size
	switch oopsMode(s) {
	case "Enabled (32-bit)":
		base, shift, rng = 4*gib, 3, 4*gib+size
	case "Enabled (Zero based)":
		base, shift, rng = 32*gib-size, 3, 32*gib
	}
	return []string{"CDS archive(s) not mapped",
		fmt.Sprintf("Compressed class space mapped at: 0x%016x-0x%016x, reserved size: %d", base, base+size, size),
		fmt.Sprintf("Narrow klass base: 0x%016x, Narrow klass shift: %d, Narrow klass range: 0x%x", 0, shift, rng)}
}

// g1MarkStackTrace is G1's gc=trace line of its mark stack's sizes, in K (17.0.15, 25.0.3).
func g1MarkStackTrace(s *flags.Set) flags.LogLine {
	return flags.LogLine{Level: "trace", Tags: "gc", Text: fmt.Sprintf("MarkStackSize: %dk  MarkStackSizeMax: %dk", s.Uint("MarkStackSize")>>10, s.Uint("MarkStackSizeMax")>>10)}
}

// g1StartDebug are G1's debug lines between the heap's reservation and gc+init's description
// (OpenJDK 17.0.15, Temurin 25.0.3 with -Xlog:gc*=debug): its workers (the concurrent ones
// numbered after the refinement threads and two more), the mark stack in chunks of 1024
// entries, the initial heap committed and its regions activated, the IHOP target, 17's
// refinement zones, and the service tasks it registers.
func g1StartDebug(s *flags.Set) []flags.LogLine {
	var out []flags.LogLine
	debug := func(tags, format string, a ...any) {
		out = append(out, flags.LogLine{Level: "debug", Tags: tags, Text: fmt.Sprintf(format, a...)})
	}
	region, initial := s.Uint("G1HeapRegionSize"), s.Uint("InitialHeapSize")
	if region == 0 {
		return nil
	}
	debug("gc", "ConcGCThreads: %d offset %d", s.Uint("ConcGCThreads"), s.Uint("G1ConcRefinementThreads")+2)
	debug("gc", "ParallelGCThreads: %d", s.Uint("ParallelGCThreads"))
	if s.JDK() >= jdk.R25 {
		// 25 sizes the mark stack as concurrent marking starts up.
		out = append(out, g1MarkStackTrace(s))
	}
	markMax := s.Uint("MarkStackSizeMax")
	if s.JDK() < jdk.R25 {
		markMax /= 1024
	}
	debug("gc", "Initialize mark stack with %d chunks, maximum %d", s.Uint("MarkStackSize")/1024, markMax)
	debug("gc,ergo,heap", "Expand the heap. requested expansion amount: %dB expansion amount: %dB", initial, initial)
	debug("gc,heap,region", "Activate regions [0, %d)", initial/region)
	debug("gc,ihop", "Target occupancy update: old: 0B, new: %dB", initial)
	tasks := []string{"Periodic GC Task", "Card Set Free Memory Task"}
	if s.JDK() < jdk.R25 {
		// 17 sizes its refinement zones in buffers of G1UpdateBufferSize cards.
		buf := s.Uint("G1UpdateBufferSize")
		green := s.Uint("ParallelGCThreads") * buf
		minYellow := s.Uint("G1ConcRefinementThreads") * s.Uint("G1ConcRefinementThresholdStep") * buf
		yellow := green + max(minYellow, 2*green)
		debug("gc,ergo,refine", "Initial Refinement Zones: green: %d, yellow: %d, red: %d, min yellow size: %d",
			green, yellow, 2*yellow-green, minYellow)
		tasks = []string{"Remembered Set Sampling Task", "Periodic GC Task"}
	}
	for _, t := range tasks {
		debug("gc,task", "G1 Service Thread (%s) (register)", t)
	}
	return out
}

// g1ArchiveRegionCount is how many regions at the heap's top G1 activates for the class-data
// archive's objects, when the archive is mapped with compressed oops: 17 takes its two
// archived heaps a region each; 25 one space of 2 MB in whole regions (both observed with 1,
// 2 and 4 MB regions). They add to the heap committed at exit.
func g1ArchiveRegionCount(s *flags.Set) uint64 {
	region := s.Uint("G1HeapRegionSize")
	switch {
	case region == 0 || !s.Sharing() || !s.Bool("UseCompressedOops"):
		return 0
	case s.JDK() < jdk.R25:
		return 2
	}
	return max((2*mib+region-1)/region, 1)
}

// g1ArchiveRegions are the debug lines of g1ArchiveRegionCount's regions: 17 activates them
// one by one from the top down, 25 together from the bottom up.
func g1ArchiveRegions(s *flags.Set) []flags.LogLine {
	region, n := s.Uint("G1HeapRegionSize"), g1ArchiveRegionCount(s)
	if n == 0 {
		return nil
	}
	var out []flags.LogLine
	debug := func(tags, format string, a ...any) {
		out = append(out, flags.LogLine{Level: "debug", Tags: tags, Text: fmt.Sprintf(format, a...)})
	}
	top := s.Uint("MaxHeapSize") / region
	expand := "Attempt heap expansion (allocate archive regions). Total size: %dB"
	if s.JDK() < jdk.R25 {
		for i := uint64(1); i <= n; i++ {
			debug("gc,heap,region", "Activate regions [%d, %d)", top-i, top-i+1)
			debug("gc,ergo,heap", expand, region)
		}
		return out
	}
	for i := top - n; i < top; i++ {
		debug("gc,heap,region", "Activate regions [%d, %d)", i, i+1)
	}
	debug("gc,ergo,heap", expand, n*region)
	return out
}

func enabled(on bool) string {
	if on {
		return "Enabled"
	}
	return "Disabled"
}

// oopsMode names how compressed oops address the heap: unscaled ("32-bit") when the heap
// ends below 4 GB above HeapBaseMinAddress's 2 GB, zero-based up to 32 GB.
func oopsMode(s *flags.Set) string {
	switch h := s.Uint("MaxHeapSize"); {
	case !s.Bool("UseCompressedOops"):
		return "Disabled"
	case h <= 4*gib-s.Uint("HeapBaseMinAddress"):
		return "Enabled (32-bit)"
	case h <= 32*gib:
		return "Enabled (Zero based)"
	default:
		return "Enabled (Non-zero based)"
	}
}

// exactUnit writes a size in the largest of G, M, K that divides it, else in bytes ("6028M",
// "1G", "512K"), as HotSpot's gc+init lines do.
func exactUnit(v uint64) string {
	for _, u := range []struct {
		n    uint64
		name string
	}{{gib, "G"}, {mib, "M"}, {1 << 10, "K"}} {
		if v != 0 && v%u.n == 0 {
			return strconv.FormatUint(v/u.n, 10) + u.name
		}
	}
	return strconv.FormatUint(v, 10) + "B"
}

// exitUse is what a `-version` run leaves in the heap and the metaspace when the VM exits, as
// the exit summary prints it, per release and for G1 (g1) or the generational collectors
// (Serial, Parallel): OpenJDK 17.0.15 and Temurin 25.0.3 with -Xmx256m. G1's heap use is with
// 1 MB regions (17 printed 1439K or 1685K from run to run, 25 2026K every time; larger regions
// hold larger TLABs and print more); the generational collectors filled 6 % of eden on 25 at
// every size tried (64 MB to 1 GB heaps; 17: 6 to 8 % from run to run), and 25 starts with
// 1166K of archived objects (0x123ab8 bytes) in the old generation. The metaspace's use was the
// same in every run observed on 25 and within a few KB on 17.
var exitUse = map[struct {
	rel jdk.Release
	g1  bool
}]struct {
	heapK, metaUsedK, metaCommittedK, classUsedK uint64
	edenShare                                    float64
	oldBytes                                     uint64
}{
	{jdk.R17, true}:  {heapK: 1439, metaUsedK: 52, metaCommittedK: 128, classUsedK: 1},
	{jdk.R25, true}:  {heapK: 2026, metaUsedK: 59, metaCommittedK: 128, classUsedK: 2},
	{jdk.R17, false}: {metaUsedK: 106, metaCommittedK: 192, classUsedK: 2, edenShare: 0.060001},
	{jdk.R25, false}: {metaUsedK: 59, metaCommittedK: 128, classUsedK: 2, edenShare: 0.060001, oldBytes: 0x123ab8},
}

// ExitLog returns the lines the collector logs as the VM exits (gc+heap+exit on 17, gc+exit
// on 25): the heap's summary and the metaspace's, for G1, Serial and Parallel. The sizes, the
// address ranges and the metaspace's reservations follow from the settled flags; what the run
// allocated is a `-version` run's (exitUse), and the committed size of a G1 heap that can grow
// is what 25 committed in the runs observed (the initial size in whole regions, plus one region
// of at least 2 MB; 17 committed up to 8 MB more). ZGC, Shenandoah, Epsilon, and heaps whose
// address the model does not place (non-zero-based compressed oops, none), log nothing here.
func ExitLog(set *flags.Set) []flags.LogLine {
	s := set
	gc := s.Collector()
	use, ok := exitUse[struct {
		rel jdk.Release
		g1  bool
	}{s.JDK(), gc == "UseG1GC"}]
	if !ok || !gcModelled(s) || !s.Has("CompressedClassSpaceSize") {
		return nil
	}
	var end uint64
	switch oopsMode(s) {
	case "Enabled (32-bit)":
		end = 4 * gib
	case "Enabled (Zero based)":
		end = zeroBasedEnd(s)
	default:
		return nil
	}
	var heap []string
	switch gc {
	case "UseG1GC":
		heap = g1Exit(s, end, use.heapK)
	case "UseSerialGC", "UseParallelGC":
		heap = generationalExit(s, end, use.edenShare, use.oldBytes)
	}
	if heap == nil {
		return nil
	}
	tags := "gc,heap,exit"
	if s.JDK() >= jdk.R25 {
		tags = "gc,exit"
	}
	class := s.Uint("CompressedClassSpaceSize") >> 10
	lines := append([]string{"Heap"}, heap...)
	lines = append(lines,
		// The metaspace reserves 64 MB for non-class data beside the class space.
		fmt.Sprintf(" Metaspace       used %dK, committed %dK, reserved %dK", use.metaUsedK, use.metaCommittedK, class+64<<10),
		fmt.Sprintf("  class space    used %dK, committed 64K, reserved %dK", use.classUsedK, class))
	var out []flags.LogLine
	if gc == "UseG1GC" {
		// G1's concurrent threads stop first (debug).
		out = append(out, flags.LogLine{Level: "debug", Tags: "gc,refine", Text: "Stopping 0"},
			flags.LogLine{Level: "debug", Tags: "gc,task", Text: "G1 Service Thread (stopping)"})
	}
	for _, text := range lines {
		out = append(out, flags.LogLine{Level: "info", Tags: tags, Text: text})
	}
	return out
}

// g1Exit is G1's part of the exit summary.
func g1Exit(s *flags.Set, end, usedK uint64) []string {
	maxHeap, region := s.Uint("MaxHeapSize"), s.Uint("G1HeapRegionSize")
	if region == 0 {
		return nil
	}
	committed := maxHeap
	if initial := s.Uint("InitialHeapSize"); initial < maxHeap {
		committed = min((initial+region-1)/region*region+g1ArchiveRegionCount(s)*region, maxHeap)
	}
	heap := fmt.Sprintf(" garbage-first heap   total %dK, used %dK [0x%016x, 0x%016x)", committed>>10, usedK, end-maxHeap, end)
	if s.JDK() >= jdk.R25 {
		heap = fmt.Sprintf(" garbage-first heap   total reserved %dK, committed %dK, used %dK [0x%016x, 0x%016x)",
			maxHeap>>10, committed>>10, usedK, end-maxHeap, end)
	}
	return []string{heap, fmt.Sprintf("  region size %dK, 1 young (%dK), 0 survivors (0K)", region>>10, region>>10)}
}

// generationalExit is Serial's and Parallel's part of the exit summary. The young generation
// is committed at NewSize and reserved at MaxNewSize, its survivor spaces a (SurvivorRatio + 2)th
// of it (Serial, 64 KB aligned) or an InitialSurvivorRatio-th (Parallel, 512 KB aligned); Serial
// puts it at the heap's start, Parallel at its end, with eden, then "to", then "from". The old
// generation holds the rest of the initial heap. The printed addresses are Serial's [bottom,
// top, end) with spaces after the commas and Parallel's without; 17's Serial old space adds the
// block-offset table's threshold (bottom + 512).
func generationalExit(s *flags.Set, end uint64, edenShare float64, oldBytes uint64) []string {
	parallel := s.Collector() == "UseParallelGC"
	maxHeap := s.Uint("MaxHeapSize")
	base := end - maxHeap
	young, youngMax := s.Uint("NewSize"), s.Uint("MaxNewSize")
	align, ratio := uint64(64<<10), s.Uint("SurvivorRatio")+2
	if parallel {
		align, ratio = 512<<10, s.Uint("InitialSurvivorRatio")
	}
	// A young generation as large as the heap is cut down first (youngSizeWarnings), which is
	// not modelled here: no summary rather than one with an empty old generation.
	if young == 0 || youngMax < young || ratio == 0 || youngMax >= maxHeap || young >= s.Uint("InitialHeapSize") {
		return nil
	}
	surv := young / ratio / align * align
	eden := young - 2*surv
	old := s.Uint("InitialHeapSize") - young
	used := uint64(float64(eden) * edenShare)
	pct := func(part, whole uint64) uint64 { return part * 100 / whole }
	k := func(v uint64) uint64 { return v >> 10 }
	if parallel {
		ys := end - youngMax
		return []string{
			fmt.Sprintf(" PSYoungGen      total %dK, used %dK [0x%016x, 0x%016x, 0x%016x)", k(eden+surv), k(used), ys, ys+young, end),
			fmt.Sprintf("  eden space %dK, %d%% used [0x%016x,0x%016x,0x%016x)", k(eden), pct(used, eden), ys, ys+used, ys+eden),
			fmt.Sprintf("  from space %dK, 0%% used [0x%016x,0x%016x,0x%016x)", k(surv), ys+eden+surv, ys+eden+surv, ys+young),
			fmt.Sprintf("  to   space %dK, 0%% used [0x%016x,0x%016x,0x%016x)", k(surv), ys+eden, ys+eden, ys+eden+surv),
			fmt.Sprintf(" ParOldGen       total %dK, used %dK [0x%016x, 0x%016x, 0x%016x)", k(old), k(oldBytes), base, base+old, ys),
			fmt.Sprintf("  object space %dK, %d%% used [0x%016x,0x%016x,0x%016x)", k(old), pct(oldBytes, old), base, base+oldBytes, base+old),
		}
	}
	os := base + youngMax
	younger, older := " def new generation   total", " tenured generation   total"
	space := fmt.Sprintf("   the space %dK, %3d%% used [0x%016x, 0x%016x, 0x%016x, 0x%016x)", k(old), pct(oldBytes, old), os, os+oldBytes, os+512, os+old)
	if s.JDK() >= jdk.R25 {
		younger, older = " DefNew     total", " Tenured    total"
		space = fmt.Sprintf("  the  space %dK, %3d%% used [0x%016x, 0x%016x, 0x%016x)", k(old), pct(oldBytes, old), os, os+oldBytes, os+old)
	}
	return []string{
		fmt.Sprintf("%s %dK, used %dK [0x%016x, 0x%016x, 0x%016x)", younger, k(eden+surv), k(used), base, base+young, base+youngMax),
		fmt.Sprintf("  eden space %dK, %3d%% used [0x%016x, 0x%016x, 0x%016x)", k(eden), pct(used, eden), base, base+used, base+eden),
		fmt.Sprintf("  from space %dK, %3d%% used [0x%016x, 0x%016x, 0x%016x)", k(surv), 0, base+eden, base+eden, base+eden+surv),
		fmt.Sprintf("  to   space %dK, %3d%% used [0x%016x, 0x%016x, 0x%016x)", k(surv), 0, base+eden+surv, base+eden+surv, base+young),
		fmt.Sprintf("%s %dK, used %dK [0x%016x, 0x%016x, 0x%016x)", older, k(old), k(oldBytes), os, os+old, end),
		space,
	}
}

// zgcInitLines are ZGC's gc+init lines as it starts, before "Using The Z Garbage Collector"
// (OpenJDK 17.0.15's non-generational ZGC and Temurin 25.0.3's generational one, -Xmx64m to
// -Xmx20g, with and without -Xms, ConcGCThreads, -UseDynamicNumberOfGCThreads, -ZUncommit,
// ZUncommitDelay, SoftMaxHeapSize and AlwaysPreTouch). The heap's address space is sixteen
// times the maximum heap (17 reserves it three times over, for its colored views); the medium
// page is the maximum heap's 1/32 rounded down to a power of two, at most 32 MB, none at 2 MB
// or less (25 prints the range, from an eighth of it but at least 2 MB). What the host decides
// is the modelled Linux machine's: the heap's memfd on tmpfs, no ulimit on the address space.
// maxMapCount is the modelled machine's limit on a process's memory mappings
// (vm.max_map_count): the kernel's default, 65530, which the recording machine kept.
const maxMapCount = 65530

// zgcMapCountWarning is ZGC's warning that the machine's limit on memory mappings may be too
// low for the maximum heap: it wants 3.6 mappings for each 2 MB granule of the heap (rounded
// down: 117964 for -Xmx64g; -Xmx36406m, 65530, is quiet and 36408m, 65534, warns), on 17.0.15
// and 25.0.3 alike, as gc warnings after the backing filesystem's line.
func zgcMapCountWarning(maxHeap uint64) []flags.LogLine {
	granules := (maxHeap + 2*mib - 1) / (2 * mib)
	need := granules * 36 / 10
	if need <= maxMapCount {
		return nil
	}
	var out []flags.LogLine
	for _, text := range []string{
		"***** WARNING! INCORRECT SYSTEM CONFIGURATION DETECTED! *****",
		"The system limit on number of memory mappings per process might be too low for the given",
		fmt.Sprintf("max Java heap size (%dM). Please adjust /proc/sys/vm/max_map_count to allow for at", maxHeap>>20),
		fmt.Sprintf("least %d mappings (current limit is %d). Continuing execution with the current", need, maxMapCount),
		"limit could lead to a premature OutOfMemoryError being thrown, due to failure to map memory.",
	} {
		out = append(out, flags.LogLine{Level: "warning", Tags: "gc", Text: text})
	}
	return out
}

func zgcInitLines(s *flags.Set, model cpu.Model, activeProcessors int, build string) []flags.LogLine {
	var out []flags.LogLine
	line := func(level, format string, a ...any) {
		out = append(out, flags.LogLine{Level: level, Tags: "gc,init", Text: fmt.Sprintf(format, a...)})
	}
	r25 := s.JDK() >= jdk.R25
	maxHeap := s.Uint("MaxHeapSize")
	dynamic := s.Bool("UseDynamicNumberOfGCThreads")
	conc, par := s.Uint("ConcGCThreads"), s.Uint("ParallelGCThreads")
	line("info", "Initializing The Z Garbage Collector")
	line("info", "Version: %s (release)", build)
	line("info", "NUMA Support: Disabled")
	if r25 && zgcHeapTooLarge(s) {
		return out
	}
	line("info", "CPUs: %d total, %d available", activeProcessors, active(s, activeProcessors))
	line("info", "Memory: %dM", model.PhysicalMemory()>>20)
	line("info", "Large Page Support: %s", largePageSupport(s))
	space := 16 * maxHeap
	if r25 {
		line("info", "Address Space Size: unlimited")
		line("debug", "Reserved Space: limit 4096G, desired %s, requested %s", exactUnit(space), exactUnit(space))
		line("info", "Reserved Space Type: Contiguous/Unrestricted/Complete")
		line("info", "Reserved Space Size: %s", exactUnit(space))
	} else {
		if dynamic {
			line("info", "GC Workers: %d (dynamic)", conc)
		} else {
			line("info", "GC Workers: %d/%d (static)", conc, max(conc, par))
		}
		if zgcHeapTooLarge(s) {
			// 17 logs the error and goes on making the collector without a heap.
			out = append(out, flags.LogLine{Level: "error", Tags: "gc", Text: zgcTooLarge})
			line("info", "Heap Backing File: /memfd:java_heap")
			line("info", "Heap Backing Filesystem: tmpfs (0x1021994)")
			line("info", "Runtime Workers: %d", par)
			return out
		}
		line("info", "Address Space Type: Contiguous/Unrestricted/Complete")
		line("info", "Address Space Size: %dM x 3 = %dM", space>>20, 3*space>>20)
	}
	line("info", "Heap Backing File: /memfd:java_heap")
	line("info", "Heap Backing Filesystem: tmpfs (0x1021994)")
	line("info", "Min Capacity: %dM", s.Uint("MinHeapSize")>>20)
	line("info", "Initial Capacity: %dM", s.Uint("InitialHeapSize")>>20)
	line("info", "Max Capacity: %dM", maxHeap>>20)
	if r25 {
		line("info", "Soft Max Capacity: %dM", s.Uint("SoftMaxHeapSize")>>20)
	}
	medium := uint64(1)
	for medium*2 <= maxHeap/32 && medium < 32*mib {
		medium *= 2
	}
	switch {
	case medium <= 2*mib:
		line("info", "Medium Page Size: N/A")
	case r25:
		line("info", "Page Size Medium: Range [%dM, %dM]", max(medium/8, 2*mib)>>20, medium>>20)
	default:
		line("info", "Medium Page Size: %dM", medium>>20)
	}
	line("info", "Pre-touch: %s", enabled(s.Bool("AlwaysPreTouch")))
	line("info", "Available space on backing filesystem: N/A")
	out = append(out, zgcMapCountWarning(maxHeap)...)
	switch {
	case !s.Bool("ZUncommit"):
		line("info", "Uncommit: Disabled")
	case s.Uint("MinHeapSize") == maxHeap:
		line("info", "Uncommit: Implicitly Disabled (-Xms equals -Xmx)")
	default:
		line("info", "Uncommit: Enabled")
		line("info", "Uncommit Delay: %ds", s.Uint("ZUncommitDelay"))
	}
	if r25 {
		mode := "dynamic"
		if !dynamic {
			mode = "static"
		}
		line("info", "GC Workers for Old Generation: %d (%s)", s.Uint("ZOldGCThreads"), mode)
		line("info", "GC Workers for Young Generation: %d (%s)", s.Uint("ZYoungGCThreads"), mode)
		if dynamic {
			line("info", "GC Workers Max: %d (dynamic)", conc)
		}
	}
	line("info", "Runtime Workers: %d", par)
	return out
}

// shenandoahRefused reports whether Shenandoah runs and refuses the value of flag
// (ShenandoahGCMode or ShenandoahGCHeuristics), which ends the start as the heap is made.
func shenandoahRefused(s *flags.Set, flag string) bool {
	return s.Collector() == "UseShenandoahGC" && flags.ShenandoahChoiceFailure(s, flag) != ""
}

// shenandoahDescribed reports whether Shenandoah's gc+init description is modelled for the
// run: the collector and its settled flags known.
func shenandoahDescribed(s *flags.Set, build string) bool {
	return s.Collector() == "UseShenandoahGC" && gcModelled(s) && build != "" &&
		s.Has("ShenandoahGCMode") && s.Has("ShenandoahGCHeuristics")
}

// shenandoahInitLines are Shenandoah's gc+init description (OpenJDK 17.0.15, Temurin
// 25.0.3): the common lines, the heap's sizes in whole regions, the mode and heuristics
// (before the regions on 17, last on 25), the regions, the largest TLAB (a region, held to
// 17's humongous threshold), 17's humongous threshold and 25's soft maximum, and the
// workers.
func shenandoahInitLines(s *flags.Set, model cpu.Model, activeProcessors int, build string) []flags.LogLine {
	var out []flags.LogLine
	info := func(format string, a ...any) {
		out = append(out, flags.LogLine{Level: "info", Tags: "gc,init", Text: fmt.Sprintf(format, a...)})
	}
	region := shenandoahRegionSize(s)
	// The heap's sizes are whole regions, and whole 2 MB pages on transparent huge pages
	// (-Xmx8m: 6656K, 8M with them).
	unit := region
	if largePages(s) {
		unit = max(unit, 2*mib)
	}
	humongous := region
	if s.Has("ShenandoahHumongousThreshold") {
		humongous = region * uint64(max(s.Int("ShenandoahHumongousThreshold"), 0)) / 100
	}
	mode := func() {
		info("Mode: %s", flags.ShenandoahDisplay("ShenandoahGCMode", s.String("ShenandoahGCMode")))
		// The passive mode runs its own heuristics, whatever ShenandoahGCHeuristics says.
		h, _ := flags.ShenandoahHeuristics(s)
		heuristics := flags.ShenandoahDisplay("ShenandoahGCHeuristics", h)
		if s.String("ShenandoahGCMode") == "passive" {
			heuristics = "Passive"
		}
		info("Heuristics: %s", heuristics)
		if s.String("ShenandoahGCMode") == "generational" {
			// 25's generations name theirs: the young one the mode's, the old one its own.
			info("Young Heuristics: %s", heuristics)
			info("Old Heuristics: Old")
		}
	}
	out = append(out, machineInitLines(s, model, activeProcessors, build)...)
	out = append(out, heapInitLines(s, unit)...)
	if s.JDK() < jdk.R25 {
		mode()
	}
	info("Heap Region Count: %d", (s.Uint("MaxHeapSize")+region-1)/region)
	info("Heap Region Size: %s", exactUnit(region))
	if s.JDK() < jdk.R25 {
		info("TLAB Size Max: %s", exactUnit(min(region, humongous)))
		info("Humongous Object Threshold: %s", exactUnit(humongous))
	} else {
		info("TLAB Size Max: %s", exactUnit(region))
		info("Soft Max Heap Size: %s", exactUnit(s.Uint("SoftMaxHeapSize")))
	}
	info("Parallel Workers: %d", s.Uint("ParallelGCThreads"))
	info("Concurrent Workers: %d", s.Uint("ConcGCThreads"))
	if s.JDK() >= jdk.R25 {
		mode()
	}
	return out
}

// machineInitLines are gc+init's first lines, the same for every collector (17.0.15,
// 25.0.3): the build, the processors, the memory, large pages, NUMA and compressed oops.
func machineInitLines(s *flags.Set, model cpu.Model, activeProcessors int, build string) []flags.LogLine {
	info := func(format string, a ...any) flags.LogLine {
		return flags.LogLine{Level: "info", Tags: "gc,init", Text: fmt.Sprintf(format, a...)}
	}
	return []flags.LogLine{
		info("Version: %s (release)", build),
		info("CPUs: %d total, %d available", activeProcessors, active(s, activeProcessors)),
		info("Memory: %dM", model.PhysicalMemory()>>20),
		info("Large Page Support: %s", largePageSupport(s)),
		info("NUMA Support: Disabled"),
		info("Compressed Oops: %s", oopsMode(s)),
	}
}

// heapInitLines are gc+init's heap sizes, each rounded up to whole units of the collector's
// (Shenandoah's regions, Epsilon's pages; 1: as settled), and pre-touch.
func heapInitLines(s *flags.Set, unit uint64) []flags.LogLine {
	align := func(v uint64) string { return exactUnit((v + unit - 1) / unit * unit) }
	info := func(format string, a ...any) flags.LogLine {
		return flags.LogLine{Level: "info", Tags: "gc,init", Text: fmt.Sprintf(format, a...)}
	}
	return []flags.LogLine{
		info("Heap Min Capacity: %s", align(s.Uint("MinHeapSize"))),
		info("Heap Initial Capacity: %s", align(s.Uint("InitialHeapSize"))),
		info("Heap Max Capacity: %s", align(s.Uint("MaxHeapSize"))),
		info("Pre-touch: %s", enabled(s.Has("AlwaysPreTouch") && s.Bool("AlwaysPreTouch"))),
	}
}

// epsilonLines are Epsilon's start-up lines (17.0.15, 25.0.3): its gc+init description when
// the heap is modelled (the machine, the heap in whole pages, 4K or 2M on transparent huge pages, its
// TLAB sizing), and its
// advice to fix the heap's size and pre-touch it, gc+init warnings after the heap's lines on
// 17, gc=info lines after the description on 25.
func epsilonLines(s *flags.Set, model cpu.Model, activeProcessors int, build string) []flags.LogLine {
	var advice []flags.LogLine
	level, tags := "warning", "gc,init"
	if s.JDK() >= jdk.R25 {
		level, tags = "info", "gc"
	}
	// Whatever sized them: -Xmx below the ergonomic initial size makes both equal too.
	if s.Uint("InitialHeapSize") != s.Uint("MaxHeapSize") {
		advice = append(advice, flags.LogLine{Level: level, Tags: tags, Text: "Consider setting -Xms equal to -Xmx to avoid resizing hiccups"})
	}
	if !s.Bool("AlwaysPreTouch") {
		advice = append(advice, flags.LogLine{Level: level, Tags: tags, Text: "Consider enabling -XX:+AlwaysPreTouch to avoid memory commit hiccups"})
	}
	if !gcModelled(s) || build == "" || !s.Has("EpsilonMaxTLABSize") || !s.Has("EpsilonElasticTLAB") {
		return advice
	}
	page := uint64(4 << 10)
	if largePages(s) {
		page = 2 * mib
	}
	out := append(machineInitLines(s, model, activeProcessors, build), heapInitLines(s, page)...)
	if s.JDK() < jdk.R25 {
		out = append(out, advice...)
	}
	info := func(format string, a ...any) {
		out = append(out, flags.LogLine{Level: "info", Tags: "gc,init", Text: fmt.Sprintf(format, a...)})
	}
	info("TLAB Size Max: %s", exactUnit(s.Uint("EpsilonMaxTLABSize")))
	if s.Bool("EpsilonElasticTLAB") {
		info("TLAB Size Elasticity: %.2fx", s.Float("EpsilonTLABElasticity"))
		if s.Bool("EpsilonElasticTLABDecay") {
			info("TLAB Size Decay Time: %dms", s.Uint("EpsilonTLABDecayTime"))
		}
	}
	if s.JDK() >= jdk.R25 {
		out = append(out, advice...)
	}
	return out
}
