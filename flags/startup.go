package flags

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// The VM's start-up after the options are parsed: the checks and messages of
// Threads::create_vm that concern options jitsim otherwise leaves inert (the collector, agents,
// the class-data archive, the system properties the Java-level start-up reads). Each was
// observed on OpenJDK 17.0.15 and Temurin 25.0.3 (flags/testdata/recorded.json, cases
// prod_*); the checks come in the order the VM makes them.

// choiceFlags are ccstr flags whose value the VM checks against a fixed list once every option
// is parsed, with the text it prints (on stderr, followed by the launcher's lines).
var choiceFlags = []struct {
	name   string
	values []string
	text   string
}{
	{"NativeMemoryTracking", []string{"off", "summary", "detail"}, "Syntax error, expecting -XX:NativeMemoryTracking=[off|summary|detail]"},
}

// checkChoices runs the choiceFlags checks (JDK 9+). JDK 17 prints the text without a newline.
func (p *parser) checkChoices() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	for _, c := range choiceFlags {
		if !p.set.Has(c.name) || !p.set.WasSetOnCommandLine(c.name) {
			continue
		}
		v := p.set.String(c.name)
		ok := false
		for _, w := range c.values {
			ok = ok || v == w
		}
		if !ok {
			end := ""
			if behavesLike25(p.o.JDK) {
				end = "\n"
			}
			return &Error{Text: c.text + end, Launcher: true}
		}
	}
	return nil
}

// withLogWarnings gives a start-up error the unified-logging warnings printed before it (an
// error of -Xlog's own carries its lines already).
func (p *parser) withLogWarnings(err error) error {
	var e *Error
	if errors.As(err, &e) && e.Log == nil && !p.res.LogDisabled {
		e.Log = p.res.LogWarnings
	}
	return err
}

// logWarning adds a warning-level unified-logging line with the given tags.
func (p *parser) logWarning(tags, text string) {
	p.res.LogWarnings = append(p.res.LogWarnings, LogLine{Level: "warning", Tags: tags, Text: text})
}

// earlyWarnings are the warnings java prints once the compilation mode passed and before the
// compiler's constraints are checked (observed on 17.0.15 and 25.0.3: a bad mode or code-cache
// size stops java before them, a bad CICompilerCount, intrinsic list or CompileThreshold after
// them): the GC logging options JDK 9 replaced by -Xlog
// (Arguments::handle_deprecated_print_gc_flags), then large pages the machine lacks.
func (p *parser) earlyWarnings() {
	s := p.set
	// 17's biased locking gives way to heavy monitors, a locking debug switch (the flag
	// goes off, its origin kept; observed on 17.0.15, after the option's deprecation).
	if s.Has("UseBiasedLocking") && s.Bool("UseBiasedLocking") && s.Has("UseHeavyMonitors") && s.Bool("UseHeavyMonitors") {
		p.warning("Biased Locking is not supported with locking debug flags; ignoring UseBiasedLocking flag.")
		s.lookup("UseBiasedLocking").v = value{b: false}
	}
	for _, w := range []struct{ flag, text string }{
		{"PrintGC", "-XX:+PrintGC is deprecated. Will use -Xlog:gc instead."},
		{"PrintGCDetails", "-XX:+PrintGCDetails is deprecated. Will use -Xlog:gc* instead."},
	} {
		if s.Has(w.flag) && s.Bool(w.flag) {
			p.logWarning("gc", w.text)
		}
	}
	// The modelled machine has no large pages configured (no hugetlbfs pool): java turns
	// large pages off with a warning unless transparent huge pages serve them.
	// JDK 17's HugeTLBFS and SHM kinds each warn when asked for unless transparent huge
	// pages serve (SHM also unless large pages were turned off), then large pages asked for
	// on the command line warn as well (17.0.15; 25 has neither kind).
	given := func(name string) bool { return s.Has(name) && s.WasSetOnCommandLine(name) && s.Bool(name) }
	thp := s.Has("UseTransparentHugePages") && s.Bool("UseTransparentHugePages")
	if given("UseHugeTLBFS") && !thp {
		p.warning("HugeTLBFS is not configured or not supported by the operating system.")
	}
	if given("UseSHM") && !thp && !(s.WasSetOnCommandLine("UseLargePages") && !s.Bool("UseLargePages")) {
		p.warning("Large pages using UseSHM are not configured on this system.")
	}
	if given("UseLargePages") && !thp {
		p.logWarning("pagesize", "UseLargePages disabled, no large pages configured and available on the system.")
	}
	// Then the switches say what the machine gave: transparent huge pages serve large
	// pages unless the command line turned large pages off, which turns every kind off; the
	// kinds the machine lacks go off (values only, origins kept; 17.0.15 and 25.0.3:
	// -XX:+UseTransparentHugePages shows UseLargePages true {default}, -XX:+UseLargePages
	// false {command line}, -XX:-UseLargePages -XX:+UseTransparentHugePages both false).
	lpOff := s.Has("UseLargePages") && s.WasSetOnCommandLine("UseLargePages") && !s.Bool("UseLargePages")
	for name, on := range map[string]bool{"UseLargePages": thp && !lpOff, "UseTransparentHugePages": thp && !lpOff, "UseHugeTLBFS": false, "UseSHM": false} {
		if e := s.lookup(name); e != nil {
			e.v = value{b: on}
		}
	}
	// Temurin 25's ZGC maps its heap as shared memory, whose transparent huge pages the
	// modelled machine (as the recording one) leaves off.
	if thp && behavesLike25(p.o.JDK) && s.Collector() == "UseZGC" && !(s.WasSetOnCommandLine("UseLargePages") && !s.Bool("UseLargePages")) {
		p.logWarning("pagesize", "Shared memory transparent huge pages are not enabled in the OS. Set /sys/kernel/mm/transparent_hugepage/shmem_enabled to 'advise' to enable them.")
	}
}

// gcLogWarnings are where the GC logging options JDK 9 replaced by -Xlog log, and the warning
// of string deduplication on a collector that does not support it (JDK 17: G1 and Shenandoah
// only; JDK 18 added the others, JDK-8267185). java prints them after every option is parsed.
func (p *parser) gcLogWarnings() {
	s, j := p.set, p.o.JDK
	if !j.Modern() {
		return
	}
	// Without -Xloggc, the old flags log to stdout: gc at info, and with PrintGCDetails
	// every tag set that starts with gc.
	if !p.gcLogFile && s.Has("PrintGC") && (s.Bool("PrintGC") || s.Bool("PrintGCDetails")) {
		p.res.Logs = append(p.res.Logs, LogConfig{Selections: []LogSelection{{Tags: []string{"gc"}, Wildcard: s.Bool("PrintGCDetails"), Level: "info"}}, Output: "stdout"})
	}
	// Logging class+load+cause without a class to trace it for prints nothing; the releases
	// that have the option (25) say so.
	if s.Has("LogClassLoadingCauseFor") && s.String("LogClassLoadingCauseFor") == "" {
		for _, c := range p.res.Logs {
			if c.Matches([]string{"class", "load", "cause"}, "info") {
				p.warning("class load cause logging will not produce output without LogClassLoadingCauseFor")
				break
			}
		}
	}
	for _, c := range collectors {
		if s.Has(c) && s.Bool(c) {
			if w, ok := StringDedupUnsupported(s, c); ok {
				p.res.LogWarnings = append(p.res.LogWarnings, w)
			}
		}
	}
}

// StringDedupUnsupported turns string deduplication off, as java does when it warns (the
// flag then reads {command line, ergonomic}), when it is on and collector does not
// deduplicate strings in the set's release, and returns java's warning. The parser asks it
// for a collector the options named, the ergonomics for the one they choose (17.0.15 warns
// alike for the Serial collector it picks on one processor).
func StringDedupUnsupported(s *Set, collector string) (LogLine, bool) {
	if !s.JDK().Modern() || !s.Has("UseStringDeduplication") || !s.Bool("UseStringDeduplication") || stringDedupCollectors[collector].Has(s.JDK()) {
		return LogLine{}, false
	}
	_ = s.SetErgo("UseStringDeduplication", "false")
	return LogLine{Level: "warning", Tags: "stringdedup", Text: "String Deduplication disabled: not supported by selected GC"}, true
}

// stringDedupCollectors are the releases in which each collector deduplicates strings: G1
// and Shenandoah always, Serial, Parallel and ZGC from JDK 18, Epsilon never (17.0.15 warns
// under Serial, Parallel, ZGC and Epsilon, 25.0.3 under Epsilon alone), the collector the
// options named or the one the ergonomics chose.
var stringDedupCollectors = map[string]jdk.Set{
	"UseG1GC":         jdk.AllReleases,
	"UseShenandoahGC": jdk.AllReleases,
	"UseSerialGC":     jdk.SinceFeature(18),
	"UseParallelGC":   jdk.SinceFeature(18),
	"UseZGC":          jdk.SinceFeature(18),
}

// classSpaceGranule is the compressed class space's reservation granule (a metaspace root
// chunk, 16 MB on 17 and 25).
const classSpaceGranule = 16 << 20

// ClassSpaceSize is the compressed class space the metaspace's ergonomics settle on for a
// class space size and MaxMetaspaceSize (observed on 17 and 25): at most 80 % of the
// maximum, rounded up to the 16 MB granule, at least one granule.
func ClassSpaceSize(classSpace, maxMetaspace uint64) uint64 {
	ccs := min(classSpace, uint64(float64(maxMetaspace)*0.8))
	return max((ccs+classSpaceGranule-1)/classSpaceGranule*classSpaceGranule, classSpaceGranule)
}

// classSpaceWarning is 25's warning when the metaspace's ergonomics change a class space
// size the command line gave (17 changes it silently).
func (p *parser) classSpaceWarning() {
	s := p.set
	if p.o.JDK < jdk.R25 || !s.Has("CompressedClassSpaceSize") || !s.WasSetOnCommandLine("CompressedClassSpaceSize") ||
		!s.Has("MaxMetaspaceSize") || s.Has("UseCompressedClassPointers") && !s.Bool("UseCompressedClassPointers") {
		return
	}
	if v, adj := s.Uint("CompressedClassSpaceSize"), ClassSpaceSize(s.Uint("CompressedClassSpaceSize"), s.Uint("MaxMetaspaceSize")); adj != v {
		p.logWarning("metaspace", fmt.Sprintf("CompressedClassSpaceSize adjusted from user input %d bytes to %d bytes", v, adj))
	}
}

// removedDirs are the JDK 8 directory properties java 9+ refuses, with the text after
// "-DNAME=VALUE" (Arguments::check_endorsed_and_ext_dirs; stdout, then the launcher's lines).
var removedDirs = []struct{ name, text string }{
	{"java.endorsed.dirs", " is not supported. Endorsed standards and standalone APIs\nin modular form will be supported via the concept of upgradeable modules.\n"},
	{"java.ext.dirs", " is not supported.  Use -classpath instead.\n"},
}

// checkRemovedDirs fails on -Djava.endorsed.dirs and -Djava.ext.dirs (JDK 9+).
func (p *parser) checkRemovedDirs() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	for _, d := range removedDirs {
		if v, ok := p.res.Property(d.name); ok {
			return &Error{Text: "-D" + d.name + "=" + v + d.text, Stdout: true, Launcher: true}
		}
	}
	return nil
}

// shenandoahChoice is a value of ShenandoahGCMode or ShenandoahGCHeuristics: its name in
// the error texts and the unlock it needs (Product: none).
type shenandoahChoice struct {
	value, display string
	kind           Kind
	releases       jdk.Set // 0: all
	// heuristics, for a mode, is the only heuristics it runs ("": any): another one the
	// command line names is ignored with a warning, not checked.
	heuristics string
}

// shenandoahModes and shenandoahHeuristics are the values Shenandoah takes (OpenJDK 17.0.15,
// Temurin 25.0.3: IU mode left in 21, generational mode came in 25).
var (
	shenandoahModes = []shenandoahChoice{
		{value: "satb", display: "Snapshot-At-The-Beginning (SATB)"},
		{value: "iu", display: "Incremental-Update (IU)", kind: Experimental, releases: jdk.Of(jdk.R17)},
		{value: "passive", display: "Passive", kind: Diagnostic},
		{value: "generational", display: "Generational", releases: jdk.Of(jdk.R25), heuristics: "adaptive"},
	}
	shenandoahHeuristics = []shenandoahChoice{
		{value: "adaptive", display: "Adaptive"}, {value: "static", display: "Static"},
		{value: "compact", display: "Compact"}, {value: "aggressive", display: "Aggressive", kind: Diagnostic},
	}
)

// ShenandoahDisplay is how Shenandoah names a value of ShenandoahGCMode or
// ShenandoahGCHeuristics in its messages and its gc+init description ("" for a value it
// does not take).
func ShenandoahDisplay(flag, value string) string {
	choices := shenandoahModes
	if flag == "ShenandoahGCHeuristics" {
		choices = shenandoahHeuristics
	}
	for _, c := range choices {
		if c.value == value {
			return c.display
		}
	}
	return ""
}

// ShenandoahHeuristics is the heuristics Shenandoah runs: ShenandoahGCHeuristics', unless the
// mode runs one only (25's generational mode: adaptive, whatever the command line names,
// unknown and locked values included). ignored is the value the command line named in
// vain ("" when none), which Shenandoah warns about as it reads its arguments (Temurin
// 25.0.3).
func ShenandoahHeuristics(s *Set) (heuristics, ignored string) {
	if !s.Has("ShenandoahGCHeuristics") {
		return "", ""
	}
	h := s.String("ShenandoahGCHeuristics")
	if !s.Has("ShenandoahGCMode") {
		return h, ""
	}
	mode := s.String("ShenandoahGCMode")
	for _, c := range shenandoahModes {
		if c.value == mode && (c.releases == 0 || c.releases.Has(s.JDK())) && c.heuristics != "" && c.heuristics != h {
			return c.heuristics, h
		}
	}
	return h, ""
}

// ShenandoahIgnoredHeuristics is Shenandoah's warning for a heuristics its mode does not run
// ("" when none).
func ShenandoahIgnoredHeuristics(s *Set) string {
	h, ignored := ShenandoahHeuristics(s)
	if ignored == "" {
		return ""
	}
	return fmt.Sprintf("Ignoring -XX:ShenandoahGCHeuristics input: %s, because %s shenandoah only supports %s heuristics", ignored, s.String("ShenandoahGCMode"), h)
}

// checkShenandoah fails on more concurrent than parallel GC threads, and on a Shenandoah mode
// or heuristics the release lacks or has not unlocked (ShenandoahHeap's start-up).
func (p *parser) checkShenandoah() error {
	s, j := p.set, p.o.JDK
	if !j.Modern() || !s.Has("UseShenandoahGC") || !s.Bool("UseShenandoahGC") {
		return nil
	}
	// No concurrent threads, then no parallel ones, then both counts given, before the mode
	// is looked at (17.0.15, 25.0.3); with ParallelGCThreads left to the ergonomics there
	// is no check. The collector's arguments
	// are checked before -XX:+PrintCommandLineFlags prints its line, which neither failure
	// follows; the mode's and the heuristics' do.
	threads := func(msg string) error {
		err := initError(msg).(*Error)
		err.beforeFlags = true
		return err
	}
	if s.WasSetOnCommandLine("ConcGCThreads") && s.Uint("ConcGCThreads") == 0 {
		return threads("Shenandoah expects ConcGCThreads > 0, check -XX:ConcGCThreads=#")
	}
	if s.WasSetOnCommandLine("ParallelGCThreads") && s.Uint("ParallelGCThreads") == 0 {
		return threads("Shenandoah expects ParallelGCThreads > 0, check -XX:ParallelGCThreads=#")
	}
	if s.WasSetOnCommandLine("ParallelGCThreads") && s.WasSetOnCommandLine("ConcGCThreads") && s.Uint("ConcGCThreads") > s.Uint("ParallelGCThreads") {
		return threads("Shenandoah expects ConcGCThreads <= ParallelGCThreads, check -XX:ParallelGCThreads, -XX:ConcGCThreads")
	}
	if text := ShenandoahRegionFailure(s); text != "" {
		// As the heap is made: 25 has logged its card table's entry size.
		err := initError(text).(*Error)
		err.AtHeap = true
		return err
	}
	for _, flag := range []string{"ShenandoahGCMode", "ShenandoahGCHeuristics"} {
		if text := ShenandoahChoiceFailure(s, flag); text != "" {
			err := initError(text).(*Error)
			err.AtHeap = true
			return err
		}
	}
	return nil
}

// ShenandoahRegionFailure is why Shenandoah cannot size its regions ("" when it can), as it
// sets them up after PrintCommandLineFlags' line and before its mode is looked at (17.0.15,
// 25.0.3): the bounds below the smallest region (256K) or crossed, a heap the command line
// made too small for ten regions of the size requested, a region size outside the bounds,
// or a heap too small for ten of the smallest regions.
func ShenandoahRegionFailure(s *Set) string {
	const smallest, minRegions = 256 << 10, 10
	for _, f := range []string{"ShenandoahMinRegionSize", "ShenandoahMaxRegionSize", "ShenandoahRegionSize"} {
		if !s.Has(f) {
			return ""
		}
	}
	lo, hi, region := s.Uint("ShenandoahMinRegionSize"), s.Uint("ShenandoahMaxRegionSize"), s.Uint("ShenandoahRegionSize")
	switch heap := s.Uint("MaxHeapSize"); {
	case lo < smallest:
		return fmt.Sprintf("Invalid -XX:ShenandoahMinRegionSize option: %s should not be lower than minimum region size (%s).", properUnit(lo), properUnit(smallest))
	case hi < smallest:
		return fmt.Sprintf("Invalid -XX:ShenandoahMaxRegionSize option: %s should not be lower than min region size (%s).", properUnit(hi), properUnit(smallest))
	case lo > hi:
		return fmt.Sprintf("Invalid -XX:ShenandoahMinRegionSize or -XX:ShenandoahMaxRegionSize: Minimum (%s) should be larger than maximum (%s).", properUnit(lo), properUnit(hi))
	case region != 0 && s.WasSetOnCommandLine("MaxHeapSize") && heap/region < minRegions:
		// A requested size is held to the heap first (-XX:ShenandoahRegionSize=100k
		// -Xmx640k; a heap the ergonomics sized is not modelled here).
		return fmt.Sprintf("Invalid -XX:ShenandoahRegionSize option: Max heap size (%s) is too low to afford the minimum number of regions (%d) of requested size (%s).", properUnit(heap), minRegions, properUnit(region))
	case region != 0 && region < lo:
		return fmt.Sprintf("Invalid -XX:ShenandoahRegionSize option: Heap region size (%s) should be larger than min region size (%s).", properUnit(region), properUnit(lo))
	case region != 0 && region > hi:
		return fmt.Sprintf("Invalid -XX:ShenandoahRegionSize option: Heap region size (%s) should be lower than max region size (%s).", properUnit(region), properUnit(hi))
	case region == 0 && s.WasSetOnCommandLine("MaxHeapSize") && heap/lo < minRegions:
		return fmt.Sprintf("Invalid -XX:ShenandoahMinRegionSize option: Max heap size (%s) is too low to afford the minimum number of regions (%d) of minimum region size (%s).", properUnit(heap), minRegions, properUnit(lo))
	}
	return ""
}

// properUnit writes a size as HotSpot's messages do: in the largest of G, M and K of which it
// is at least 100, else in bytes, rounded down (65536B, 100K, 65536K).
func properUnit(v uint64) string {
	for _, u := range []struct {
		n    uint64
		name string
	}{{1 << 30, "G"}, {1 << 20, "M"}, {1 << 10, "K"}} {
		if v >= 100*u.n {
			return strconv.FormatUint(v/u.n, 10) + u.name
		}
	}
	return strconv.FormatUint(v, 10) + "B"
}

// ShenandoahChoiceFailure is why Shenandoah refuses the value of ShenandoahGCMode or
// ShenandoahGCHeuristics ("" when it takes it): a value the release lacks, or one not
// unlocked. Shenandoah checks each as the heap is made, after the mode's (or the
// heuristics') own settings were logged (runtime/ergo's gc log stops there).
func ShenandoahChoiceFailure(s *Set, flag string) string {
	what, choices := "GC mode", shenandoahModes
	if flag == "ShenandoahGCHeuristics" {
		what, choices = "Heuristics", shenandoahHeuristics
	}
	if !s.Has(flag) {
		return ""
	}
	v := s.String(flag)
	if flag == "ShenandoahGCHeuristics" {
		v, _ = ShenandoahHeuristics(s)
	}
	i := slices.IndexFunc(choices, func(x shenandoahChoice) bool {
		return x.value == v && (x.releases == 0 || x.releases.Has(s.JDK()))
	})
	if i < 0 {
		return "Unknown -XX:" + flag + " option"
	}
	switch ch := choices[i]; {
	case ch.kind == Experimental && !s.Bool("UnlockExperimentalVMOptions"):
		return fmt.Sprintf("%s %q is experimental, and must be enabled via -XX:+UnlockExperimentalVMOptions.", what, ch.display)
	case ch.kind == Diagnostic && !s.Bool("UnlockDiagnosticVMOptions"):
		return fmt.Sprintf("%s %q is diagnostic, and must be enabled via -XX:+UnlockDiagnosticVMOptions.", what, ch.display)
	}
	return ""
}

// codeHeaps are the three segments of a segmented code cache, in java's order.
var codeHeaps = []string{"NonNMethodCodeHeapSize", "ProfiledCodeHeapSize", "NonProfiledCodeHeapSize"}

// codeHeapPage is what the code cache's start-up check counts for a heap the command line did
// not size: one 4 KB page.
const codeHeapPage = 4 << 10

// checkCodeHeaps is the code cache's start-up check, when the cache is segmented and the
// command line sized one of its three heaps. With all three given they must add up to
// ReservedCodeCacheSize: JDK 17 holds them to its ergonomic size too and says "not equal" for
// a sum below it; Temurin 25 sizes the cache from the heaps unless ReservedCodeCacheSize was
// given, and says "less than". With one or two given, the sum may not exceed the cache: 17
// counts a page for each heap not given (-XX:NonNMethodCodeHeapSize=240m: "… (245760K) +
// ProfiledCodeHeapSize (4K) + NonProfiledCodeHeapSize (4K) = 245768K is greater than …"),
// 25 a page for an nmethod heap and its ergonomic size for the non-method heap, which the
// compiler threads size (CodeHeapFailure, once they are counted); 25 again grows a cache it
// was not given (observed on 17.0.15 and 25.0.3).
func (p *parser) checkCodeHeaps() error {
	if behavesLike25(p.o.JDK) && !p.set.WasSetOnCommandLine("NonNMethodCodeHeapSize") {
		return nil
	}
	return codeHeapCheck(p.set, false)
}

// CodeHeapFailure is Temurin 25's code cache check of checkCodeHeaps on a settled set, when the
// non-method heap is the ergonomics' (-XX:ReservedCodeCacheSize=64m -XX:+SegmentedCodeCache
// -XX:NonProfiledCodeHeapSize=60m: "NonNMethodCodeHeapSize (5692K) + …"); nil when it passes
// or does not apply. java stops there after PrintCommandLineFlags' line and before the
// collector's start-up lines.
func CodeHeapFailure(s *Set) error {
	if !behavesLike25(s.jdk) || s.WasSetOnCommandLine("NonNMethodCodeHeapSize") {
		return nil
	}
	return codeHeapCheck(s, true)
}

// codeHeapCheck is the code cache's check of checkCodeHeaps; settled: the non-method heap not
// given counts its settled size, not a page.
func codeHeapCheck(s *Set, settled bool) error {
	j := s.jdk
	if !j.Modern() || !s.Has("SegmentedCodeCache") || !s.Bool("SegmentedCodeCache") {
		return nil
	}
	var sum uint64
	var parts []string
	given := 0
	for _, h := range codeHeaps {
		if !s.Has(h) {
			return nil
		}
		size := uint64(codeHeapPage)
		switch {
		case s.WasSetOnCommandLine(h):
			size = s.Uint(h)
			given++
		case settled && h == "NonNMethodCodeHeapSize":
			size = s.Uint(h)
		}
		sum += size
		parts = append(parts, fmt.Sprintf("%s (%dK)", h, size>>10))
	}
	if given == 0 || behavesLike25(j) && !s.WasSetOnCommandLine("ReservedCodeCacheSize") {
		return nil
	}
	r := s.Uint("ReservedCodeCacheSize")
	rel := "greater than"
	switch {
	case sum == r, sum < r && given < len(codeHeaps):
		return nil
	case sum < r && behavesLike25(j):
		rel = "less than"
	case sum < r:
		rel = "not equal to"
	}
	return initError(fmt.Sprintf("Invalid code heap sizes: %s = %dK is %s ReservedCodeCacheSize (%dK).", strings.Join(parts, " + "), sum>>10, rel, r>>10))
}

// checkCodeHeapPages stops the VM when a code heap the mode uses was given less than a page:
// the profiled heap wherever C1 profiles (tiered, TieredStopAtLevel 2 to 4, the default mode),
// the non-profiled one with both compilers at work. 17 rounds the size down to 4 KB pages and
// cannot reserve an empty heap (1k: "(0K)"); 25 rounds up and refuses only 0 (observed on
// 17.0.15 and 25.0.3; C1 alone, C2 alone and -Xint take either).
func (p *parser) checkCodeHeapPages() error {
	s, j := p.set, p.o.JDK
	if !j.Modern() || !s.Has("SegmentedCodeCache") || !s.Bool("SegmentedCodeCache") || !s.Bool("UseCompiler") || !s.Bool("TieredCompilation") {
		return nil
	}
	stop, mode := s.Int("TieredStopAtLevel"), s.CompilationModeInEffect()
	if mode != "default" && mode != "normal" {
		return nil
	}
	for _, h := range []struct {
		flag, name, short string
		used              bool
	}{
		{"ProfiledCodeHeapSize", "profiled nmethods", "profiled", stop >= 2},
		{"NonProfiledCodeHeapSize", "non-profiled nmethods", "non-profiled", stop == 4},
	} {
		if !h.used || !s.Has(h.flag) || !s.WasSetOnCommandLine(h.flag) {
			continue
		}
		switch v := s.Uint(h.flag); {
		case behavesLike25(j) && v == 0:
			return initError(fmt.Sprintf("Not enough space in %s code heap to run VM: 0K < 4K", h.short))
		case !behavesLike25(j) && v < 4<<10:
			return initError(fmt.Sprintf("Could not reserve enough space in CodeHeap '%s' (0K)", h.name))
		}
	}
	return nil
}

// checkRTM is JDK 17's restricted transactional memory locking on x86 (the flags exist there
// only): no CPU jitsim models has RTM (TSX), so -XX:+UseRTMLocking stops the VM as it stops
// on this AMD host, after the warning that it overrides biased locking (observed on OpenJDK
// 17.0.15). RTM stack locks without RTM locking are the CPU pass's (runtime/ergo).
func (p *parser) checkRTM() error {
	s := p.set
	if !s.Has("UseRTMLocking") || !s.Bool("UseRTMLocking") {
		return nil
	}
	if s.Has("UseBiasedLocking") && s.Bool("UseBiasedLocking") && s.WasSetOnCommandLine("UseBiasedLocking") {
		p.warning("Biased locking is not supported with RTM locking; ignoring UseBiasedLocking flag.")
	}
	return initError("RTM instructions are not available on this CPU")
}

// initError is vm_exit_during_initialization: the text on stdout after java's header line,
// no launcher lines.
func initError(msg string) error {
	return &Error{Text: "Error occurred during initialization of VM\n" + msg + "\n", Stdout: true}
}

// collectors are the flags that select a garbage collector (GCConfig::select_gc).
var collectors = []string{"UseSerialGC", "UseParallelGC", "UseG1GC", "UseZGC", "UseShenandoahGC", "UseEpsilonGC"}

// Collector returns the flag of the collector the set selects ("UseG1GC", …), "" when none is
// on (the ergonomics then choose one for the machine).
func (s *Set) Collector() string {
	for _, c := range collectors {
		if s.Has(c) && s.Bool(c) {
			return c
		}
	}
	return ""
}

// WorkerThreadsFailure is the collectors' refusal of no GC worker threads, nil when they
// take the set: G1, ZGC and Parallel refuse a ParallelGCThreads=0 of the command line as
// their arguments are initialized, before -XX:+PrintCommandLineFlags' line; Serial and Epsilon
// run no workers and keep the 0 (17.0.15, 25.0.3). With no collector selected it is nil: the
// ergonomics choose one for the machine (G1, or Serial on one processor or a small memory),
// and runtime/setup asks again once they have.
func WorkerThreadsFailure(s *Set) error {
	if !s.jdk.Modern() || !s.Has("ParallelGCThreads") || !s.WasSetOnCommandLine("ParallelGCThreads") || s.Uint("ParallelGCThreads") != 0 {
		return nil
	}
	r, ok := noWorkersRefusals[s.Collector()]
	if !ok {
		return nil
	}
	if r.init {
		return initError(r.text)
	}
	return &Error{Text: r.text + "\n"}
}

// noWorkersRefusals is each collector's refusal of ParallelGCThreads=0 (WorkerThreadsFailure):
// its text, and whether it is an initialization error (on stdout after java's header line) or
// a plain error line. A collector without a row keeps the 0.
var noWorkersRefusals = map[string]struct {
	text string
	init bool
}{
	"UseG1GC":       {"The flag -XX:+UseG1GC can not be combined with -XX:ParallelGCThreads=0", true},
	"UseZGC":        {"The flag -XX:+UseZGC can not be combined with -XX:ParallelGCThreads=0", true},
	"UseParallelGC": {"The Parallel GC can not be combined with -XX:ParallelGCThreads=0", false},
}

// UnselectedCollectorFailure is java's failure when the ergonomics found no collector to
// select: the options named none and turned off the one the machine would get (G1, or Serial
// on one processor or a small memory), as GC selection does before -XX:+PrintCommandLineFlags'
// line and before the stack size is checked (17.0.15, 25.0.3: -XX:-UseG1GC; -XX:-UseSerialGC
// -XX:ActiveProcessorCount=1). It is asked of a settled set; nil when a collector is on.
func UnselectedCollectorFailure(s *Set) error {
	if !s.jdk.Modern() || s.Collector() != "" {
		return nil
	}
	// A profile whose ergonomics choose no collector (no recorded flag table) leaves the set
	// without one too: only a default turned off is java's failure.
	for _, c := range []string{"UseG1GC", "UseSerialGC"} {
		if s.Has(c) && s.WasSetOnCommandLine(c) && !s.Bool(c) {
			return initError("Garbage collector not selected (default collector explicitly disabled)")
		}
	}
	return nil
}

// checkCollectors fails when more than one collector was selected (JDK 9+).
func (p *parser) checkCollectors() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	n := 0
	for _, c := range collectors {
		if p.set.Has(c) && p.set.Bool(c) {
			n++
		}
	}
	if n > 1 {
		return initError("Multiple garbage collectors selected")
	}
	if err := WorkerThreadsFailure(p.set); err != nil {
		return err
	}
	// ZGC refuses no concurrent threads too, after the parallel ones (17.0.15, 25.0.3).
	if p.set.Has("UseZGC") && p.set.Bool("UseZGC") && p.set.WasSetOnCommandLine("ConcGCThreads") && p.set.Uint("ConcGCThreads") == 0 {
		return initError("The flag -XX:+UseZGC can not be combined with -XX:ConcGCThreads=0")
	}
	return nil
}

// checkJVMCICompiler fails when the JVMCI compiler is asked for and the JDK provides none:
// OpenJDK 17.0.15's jdk.internal.vm.compiler module does; Temurin 25.0.3, whose Graal module is
// jdk.graal.compiler, says "No JVMCI compiler found".
func (p *parser) checkJVMCICompiler() error {
	j := p.o.JDK
	if !j.Modern() || !p.set.Has("UseJVMCICompiler") || !p.set.Bool("UseJVMCICompiler") {
		return nil
	}
	if systemModule(j, "jdk.internal.vm.compiler") {
		return nil
	}
	return &Error{Text: "Cannot use JVMCI compiler: No JVMCI compiler found\n", Stdout: true}
}

// agent is one -agentlib:, -agentpath:, -javaagent: or -Xrun option.
type agent struct {
	kind    string // "agentlib", "agentpath" or "javaagent"
	name    string // library name, library path or JAR path
	options string
	text    string // the option as written
}

// agentOption returns the act of an agent option row: it notes the agent for loadAgents.
func agentOption(kind string) func(p *parser, t token, val string) error {
	return func(p *parser, t token, _ string) error {
		rest := t.text
		switch {
		case strings.HasPrefix(rest, "-Xrun"):
			rest = strings.TrimPrefix(rest, "-Xrun")
			name, opts, _ := strings.Cut(rest, ":")
			p.agents = append(p.agents, agent{kind: "agentlib", name: name, options: opts, text: t.text})
			return nil
		default:
			_, rest, _ = strings.Cut(rest, ":")
		}
		name, opts, _ := strings.Cut(rest, "=")
		p.agents = append(p.agents, agent{kind: kind, name: name, options: opts, text: t.text})
		return nil
	}
}

// jdkAgentLibraries are the agent libraries a JDK ships in its lib directory.
var jdkAgentLibraries = []string{"jdwp", "instrument"}

// loadAgents models create_vm_init_agents: a library that cannot be found or loaded stops the
// VM with the dynamic loader's words; a Java agent whose JAR has no manifest stops it after the
// instrument library's complaint. Agents that load are inert (jitsim runs no native or Java
// agent code), except the debugger's: JDWP listening on a socket prints its address.
func (p *parser) loadAgents() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	for _, a := range p.agents {
		switch a.kind {
		case "agentpath":
			if a.name != "" {
				if msg := elfProblem(a.name); msg != "" {
					return initError("Could not find agent library " + a.name + " in absolute path, with error: " + msg)
				}
			}
			if err := p.agentEntry(a.name, a.name); err != nil {
				return err
			}
		case "agentlib":
			path, found := p.agentLibrary(a.name)
			if !found {
				return initError("Could not find agent library " + a.name + " on the library path, with error: lib" + a.name +
					".so: cannot open shared object file: No such file or directory")
			}
			if err := p.agentEntry(a.name, path); err != nil {
				return err
			}
			if a.name == "jdwp" {
				if err := p.jdwp(a); err != nil {
					return err
				}
			}
		case "javaagent":
			if msg := javaAgentProblem(a.name); msg != "" {
				p.notice(msg + "\n")
				failed := "agent library failed to init: instrument"
				if behavesLike25(p.o.JDK) {
					failed = "agent library failed Agent_OnLoad: instrument"
				}
				return initError(failed)
			}
		}
	}
	return nil
}

// agentEntry stops JDK 17 on a library that loads but exports no Agent_OnLoad: a library
// that is not an agent (-agentpath:/lib/x86_64-linux-gnu/libz.so.1, -agentlib:z on
// -Djava.library.path), or an empty -agentpath:, which loads the launcher itself ("… in the
// agent library: " and nothing after; observed on 17.0.15). Temurin 25.0.3 crashes there
// (SIGSEGV in JvmtiAgent::load, a report naming the process), which is not modelled: the
// agent is taken as loaded. path is the file ("" for the JDK's own agents, which have the
// entry).
func (p *parser) agentEntry(name, path string) error {
	if behavesLike25(p.o.JDK) || path == "" && name != "" || path != "" && exportsSymbol(path, "Agent_OnLoad") {
		return nil
	}
	return initError("Could not find Agent_OnLoad function in the agent library: " + name)
}

// exportsSymbol reports whether the ELF file at path defines the dynamic symbol sym; a file
// it cannot read as ELF is taken to (the loader's own checks come first, elfProblem).
func exportsSymbol(path, sym string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		// No dynamic symbols at all: no entry point either.
		return !errors.Is(err, elf.ErrNoSymbols)
	}
	for _, s := range syms {
		if s.Name == sym && s.Section != elf.SHN_UNDEF {
			return true
		}
	}
	return false
}

// agentLibrary returns the file of -agentlib:name ("" for the JDK's own agents) and whether
// it was found: lib<name>.so is the JDK's or lies in a directory of -Djava.library.path or
// LD_LIBRARY_PATH.
func (p *parser) agentLibrary(name string) (string, bool) {
	for _, l := range jdkAgentLibraries {
		if l == name {
			return "", true
		}
	}
	var dirs []string
	if v, ok := p.res.Property("java.library.path"); ok {
		dirs = append(dirs, filepath.SplitList(v)...)
	}
	if v, ok := p.getenv("LD_LIBRARY_PATH"); ok {
		dirs = append(dirs, filepath.SplitList(v)...)
	}
	for _, d := range dirs {
		if path := filepath.Join(d, "lib"+name+".so"); d != "" && elfProblem(path) == "" {
			return path, true
		}
	}
	return "", false
}

// elfProblem returns what the dynamic loader says when asked to load path ("" when it would
// find an ELF file there). A name without a slash is looked up on the library path, not in
// the working directory.
func elfProblem(path string) string {
	if !strings.Contains(path, "/") {
		return path + ": cannot open shared object file: No such file or directory"
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return path + ": cannot open shared object file: No such file or directory"
		}
		return path + ": cannot open shared object file: Permission denied"
	}
	defer f.Close()
	var magic [64]byte
	n, err := io.ReadFull(f, magic[:])
	switch {
	case err != nil && n == 0 && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		return path + ": cannot read file data: Is a directory"
	case n < len(magic):
		return path + ": file too short"
	case !bytes.HasPrefix(magic[:], []byte("\x7fELF")):
		return path + ": invalid ELF header"
	}
	return ""
}

// javaAgentProblem returns what the instrument library prints when the JAR of a -javaagent:
// cannot be used ("" when it can).
func javaAgentProblem(jar string) string {
	z, err := zip.OpenReader(jar)
	if err != nil {
		return "Error opening zip file or JAR manifest missing : " + jar
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name != "META-INF/MANIFEST.MF" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			break
		}
		// A manifest is small; 1 MB is far beyond any real one.
		m, err := io.ReadAll(io.LimitReader(r, 1<<20))
		r.Close()
		if err != nil {
			break
		}
		for _, l := range strings.Split(string(m), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "Premain-Class:") {
				return ""
			}
		}
		return "Failed to find Premain-Class manifest attribute in " + jar
	}
	return "Error opening zip file or JAR manifest missing : " + jar
}

// jdwpOption is one option the debugger agent takes: its name, whether it is a y/n switch,
// the releases that take it (0: all), and the error that ends the start when it is given at
// all (removed: an option the agent still names).
type jdwpOption struct {
	name     string
	yesNo    bool
	releases jdk.Set
	removed  string
}

// jdwpOptions are the debugger agent's options (OpenJDK 17.0.15, Temurin 25.0.3: onjcmd
// left in 21, includevirtualthreads came in 21).
var jdwpOptions = []jdwpOption{
	{name: "transport"}, {name: "address"}, {name: "allow"}, {name: "timeout"},
	{name: "launch"}, {name: "onthrow"}, {name: "logfile"}, {name: "logflags"}, {name: "debugflags"},
	{name: "server", yesNo: true}, {name: "suspend", yesNo: true}, {name: "quiet", yesNo: true},
	{name: "onuncaught", yesNo: true}, {name: "strict", yesNo: true}, {name: "stdalloc", yesNo: true},
	{name: "pause", yesNo: true}, {name: "mutf8", yesNo: true},
	{name: "onjcmd", yesNo: true, releases: jdk.Of(jdk.R17)},
	{name: "includevirtualthreads", yesNo: true, releases: jdk.Of(jdk.R25)},
	{name: "precrash", removed: "The precrash option removed, use -XX:OnError"},
}

// jdwp models the debugger agent's start: its option errors, and the address it listens on
// when it is a server on a socket (printed on stdout once the VM is up). jitsim does not wait
// for a debugger, whatever suspend says.
func (p *parser) jdwp(a agent) error {
	if a.options == "help" {
		return nil
	}
	fail := func(what string) error {
		return &Error{Text: "ERROR: JDWP " + what + ": " + jdwpOptionText(a) + "\n"}
	}
	// The options are read in order, each NAME=VALUE: an empty one (a single trailing
	// comma aside), one without a value or with an empty one, a name the release does not take or a switch
	// other than y or n is a syntax error, and a removed option ends the reading with its
	// own error (17.0.15, 25.0.3).
	var items []string
	if a.options != "" {
		items = strings.Split(a.options, ",")
	}
	if len(items) > 1 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	opts := map[string]string{}
	var needTransport []string
	for _, kv := range items {
		k, v, ok := strings.Cut(kv, "=")
		i := slices.IndexFunc(jdwpOptions, func(o jdwpOption) bool {
			return o.name == k && (o.releases == 0 || o.releases.Has(p.o.JDK))
		})
		if !ok || v == "" || i < 0 || jdwpOptions[i].yesNo && v != "y" && v != "n" {
			return fail("option syntax error")
		}
		if jdwpOptions[i].removed != "" {
			return fail(jdwpOptions[i].removed)
		}
		if _, again := opts[k]; again && k == "transport" {
			return fail("multiple transports are not supported in this release")
		}
		opts[k] = v
		if k == "address" || k == "allow" || k == "timeout" {
			needTransport = append(needTransport, k)
		}
	}
	// Without a transport, the first option that needs one is named; a transport that is
	// not a server's needs the address to attach to.
	if opts["transport"] == "" {
		if len(needTransport) > 0 {
			return fail(needTransport[0] + " specified without transport")
		}
		return fail("no transport specified")
	}
	if opts["server"] != "y" && opts["address"] == "" {
		return &Error{Text: "ERROR: JDWP Non-server transport " + opts["transport"] +
			" must have a connection address specified through the 'address=' option\n" +
			"ERROR: JDWP invalid option: " + jdwpOptionText(a) + "\n"}
	}
	// A debugger started on an event needs the command to launch it, and listens only then.
	onEvent := opts["onthrow"] != "" || opts["onuncaught"] == "y" || opts["onjcmd"] == "y"
	if (opts["onthrow"] != "" || opts["onuncaught"] == "y") && opts["launch"] == "" {
		return fail("Specify launch=<command line> when using onthrow or onuncaught suboption")
	}
	if opts["transport"] == "dt_socket" && opts["server"] == "y" && opts["quiet"] != "y" && !onEvent {
		addr := opts["address"]
		if i := strings.LastIndexByte(addr, ':'); i >= 0 {
			addr = addr[i+1:]
		}
		if addr != "" && addr != "0" {
			p.res.Started = append(p.res.Started, "Listening for transport dt_socket at address: "+addr+"\n")
		}
	}
	return nil
}

// jdwpOptionText is how the JDWP agent names its options in errors: always as -agentlib:jdwp=.
func jdwpOptionText(a agent) string { return "-agentlib:jdwp=" + a.options }

// checkSharedArchive models the class-data archive's start: a -XX:SharedArchiveFile that does
// not exist stops the VM under -Xshare:on; JDK 25 also logs an error under -Xshare:auto (the
// default). An existing file is taken as a valid archive.
func (p *parser) checkSharedArchive() error {
	j := p.o.JDK
	if j.Modern() && p.share == "off" && p.set.Has("ArchiveClassesAtExit") && p.set.WasSetOnCommandLine("ArchiveClassesAtExit") {
		// A dynamic archive extends the base archive -Xshare:off leaves unloaded: 17.0.15
		// stops, Temurin 25.0.3 warns and runs without it.
		if !behavesLike25(j) {
			return initError("DynamicDumpSharedSpaces is unsupported when base CDS archive is not loaded")
		}
		// Logged as the archive would be mapped: after the collector's start-up lines.
		p.res.RunLog = append(p.res.RunLog, LogLine{Level: "warning", Tags: "cds",
			Text: "-XX:ArchiveClassesAtExit is unsupported when base CDS archive is not loaded. Run with -Xlog:cds for more info."})
	}
	if !j.Modern() || p.share == "off" || p.share == "dump" {
		return nil
	}
	// The release tables that were not recorded (8, 8u, 21, 25 on aarch64) may lack these
	// flags: there is then nothing on the command line to check.
	wasSet := func(name string) bool { return p.set.Has(name) && p.set.WasSetOnCommandLine(name) }
	const savedState = "The saved state of UseCompressedOops and UseCompressedClassPointers is different from runtime, CDS will be disabled."
	if !behavesLike25(j) && p.share == "on" && !wasSet("SharedArchiveFile") && wasSet("UseCompressedClassPointers") &&
		!p.set.Bool("UseCompressedClassPointers") {
		p.notice("An error has occurred while processing the shared archive file.\nUnable to use shared archive.\n" + savedState + "\n")
		return initError("Unable to use shared archive.")
	}
	if behavesLike25(j) && !wasSet("SharedArchiveFile") && wasSet("UseCompressedClassPointers") &&
		!p.set.Bool("UseCompressedClassPointers") {
		// The JDK's archives hold compressed class pointers; Temurin 25.0.3 says so when they
		// are turned off, and stops under -Xshare:on (OpenJDK 17.0.15 drops the archive
		// silently, and stops under -Xshare:on as above).
		// Logged as the archive is mapped, after the collector's start-up lines (and so
		// after -XX:+PrintCommandLineFlags' line); under -Xshare:on the failure follows it.
		warning := LogLine{Level: "warning", Tags: "cds", Text: "Unable to use shared archive file.\n" + savedState}
		if p.share == "on" {
			p.res.LogWarnings = append(p.res.LogWarnings, warning)
			return initError("Unable to use shared archive. Unrecoverable archive loading error (run with -Xlog:aot,cds for details): Unable to map shared spaces")
		}
		p.res.RunLog = append(p.res.RunLog, warning)
	}
	if !wasSet("SharedArchiveFile") {
		return nil
	}
	name := p.set.String("SharedArchiveFile")
	if p.set.Has("AutoCreateSharedArchive") && p.set.Bool("AutoCreateSharedArchive") {
		return nil // 25 creates the archive at exit when it is missing
	}
	base, _, two := strings.Cut(name, string(os.PathListSeparator))
	if two && !behavesLike25(j) {
		// 17 checks the base archive of a base and a dynamic one as it checks one alone.
		name, two = base, false
	}
	if two {
		// A base and a dynamic archive: 25 maps the base first, and one that does not exist
		// fails as the archive is mapped (after PrintCommandLineFlags' line).
		if _, err := os.Stat(base); err == nil {
			return nil
		}
		failed := []LogLine{{Level: "error", Tags: "cds", Text: "An error has occurred while processing the shared archive file. Run with -Xlog:aot,cds for details."},
			{Level: "error", Tags: "cds", Text: "Loading static archive failed."}}
		if p.share == "on" {
			err := initError("Unable to use shared archive. Unrecoverable archive loading error (run with -Xlog:aot,cds for details): Unable to map shared spaces").(*Error)
			err.Log = failed
			return err
		}
		p.noArchive = true
		p.res.RunLog = append(p.res.RunLog, failed...)
		return nil
	}
	if name == "" || strings.Contains(name, string(os.PathListSeparator)) {
		return nil
	}
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	if behavesLike25(j) {
		invalid := LogLine{Level: "error", Tags: "cds", Text: "Not a valid shared archive file (" + name + ")"}
		if p.share == "on" {
			// 25 reads the archive's header while it parses the options, before
			// -XX:+PrintCommandLineFlags' line.
			err := initError("Unable to use shared archive: invalid archive").(*Error)
			err.Log = []LogLine{invalid, {Level: "error", Tags: "cds", Text: "CDS is incompatible with other specified options."}}
			err.beforeFlags = true
			return err
		}
		p.res.LogWarnings = append(p.res.LogWarnings, invalid)
		return nil
	}
	if p.share == "on" {
		p.notice("An error has occurred while processing the shared archive file.\nSpecified shared archive not found (" + name + ").\n")
		return initError("Unable to use shared archive.")
	}
	return nil
}

// securityManager holds, per release, what -Djava.security.manager makes the Java-level
// start-up (System.initPhase3) do: JDK 17 warns when the option enables a manager; JDK 24+
// refuses every value but "disallow".
var securityManagerRefusal = map[jdk.Release]string{
	jdk.R25: "java.lang.Error: A command line option has attempted to allow or enable the Security Manager. Enabling a Security Manager is not supported.\n" +
		"\tat java.lang.System.initPhase3(java.base@25.0.3/System.java:1970)\n",
}

// checkSystemProperties models what the Java-level start-up says about the system properties
// it reads: the security manager, and (JDK 25) a java.io.tmpdir that is not a directory.
func (p *parser) checkSystemProperties() error {
	j := p.o.JDK
	if !j.Modern() {
		return nil
	}
	if dir, ok := p.res.Property("java.io.tmpdir"); ok && dir != "" && behavesLike25(j) {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			p.notice("WARNING: java.io.tmpdir directory does not exist\n")
		}
	}
	sm, ok := p.res.Property("java.security.manager")
	if !ok || sm == "disallow" {
		return nil
	}
	if text, refused := securityManagerRefusal[j]; refused {
		return initError(text)
	}
	if sm == "" || sm == "default" {
		p.notice("WARNING: A command line option has enabled the Security Manager\n" +
			"WARNING: The Security Manager is deprecated and will be removed in a future release\n")
	}
	return nil
}

// checkAOTOptions is Temurin 25's check of its AOT cache options as it reads them (before
// -XX:+PrintCommandLineFlags' line): none of AOTCache, AOTConfiguration and AOTMode, in that
// order, goes with an -Xshare option or the older archive options; AOTMode=record needs a
// configuration or a cache to write and no cache to read; AOTMode=create needs a
// configuration, which must be one the JVM recorded (jitsim refuses one that does not exist),
// and a cache to write; AOTConfiguration needs record or create (observed on 25.0.3).
func (p *parser) checkAOTOptions() error {
	s := p.set
	if s.Has("AutoCreateSharedArchive") && s.Bool("AutoCreateSharedArchive") && (!s.WasSetOnCommandLine("SharedArchiveFile") || s.String("SharedArchiveFile") == "") {
		// An archive to create needs its name (25.0.3: a cds warning, then the launcher's
		// lines, whatever -Xshare says).
		return &Error{Launcher: true, beforeFlags: true, Log: []LogLine{{Level: "warning", Tags: "cds", Text: "-XX:+AutoCreateSharedArchive requires -XX:SharedArchiveFile"}}}
	}
	if !s.Has("AOTMode") || !s.Has("AOTCache") || !s.Has("AOTConfiguration") || !s.Has("AOTCacheOutput") {
		return nil
	}
	given := func(name string) bool { return s.Has(name) && s.WasSetOnCommandLine(name) && s.String(name) != "" }
	archiveOptions := p.shareGiven || given("SharedArchiveFile") || given("DumpLoadedClassList") || given("SharedClassListFile")
	for _, name := range []string{"AOTCache", "AOTConfiguration", "AOTMode"} {
		if given(name) && archiveOptions {
			return initError("Option " + name + " cannot be used at the same time with -Xshare:on, -Xshare:auto, -Xshare:off, -Xshare:dump, DumpLoadedClassList, SharedClassListFile, or SharedArchiveFile")
		}
	}
	mode := s.String("AOTMode")
	if mode == "" {
		mode = "auto"
	}
	config := s.String("AOTConfiguration")
	switch mode {
	case "record":
		if given("AOTCache") {
			return initError("AOTCache must not be specified when using -XX:AOTMode=record")
		}
		if config == "" && !given("AOTCacheOutput") {
			return initError("At least one of AOTCacheOutput and AOTConfiguration must be specified when using -XX:AOTMode=record")
		}
	case "create":
		if config == "" {
			return initError("AOTConfiguration must be specified when using -XX:AOTMode=create")
		}
		if !given("AOTCache") && !given("AOTCacheOutput") {
			return initError("AOTCache or AOTCacheOutput must be specified when using -XX:AOTMode=create")
		}
		if _, err := os.Stat(config); err != nil {
			return initError("Must be a valid AOT configuration generated by the current JVM: " + config)
		}
	default:
		if config != "" {
			return initError("AOTConfiguration can only be used with when AOTMode is record or create (selected AOTMode = " + mode + ")")
		}
	}
	return nil
}

// startAOTCache is what Temurin 25 does with its AOT cache as it maps the archive (after
// -XX:+PrintCommandLineFlags' line, after the collector's start-up lines): AOTMode=off and
// AOTMode=record map no archive (the banner loses "sharing"), record saying at exit where it
// wrote the configuration; a cache that does not exist is logged as three aot errors, and
// under AOTMode=on ends the start (observed on 25.0.3; a cache that exists is taken as valid).
func (p *parser) startAOTCache() error {
	s := p.set
	if !s.Has("AOTMode") || !s.Has("AOTCache") {
		return nil
	}
	switch mode := s.String("AOTMode"); mode {
	case "off":
		p.noArchive = true
	case "record":
		p.noArchive = true
		if config := s.String("AOTConfiguration"); config != "" {
			p.res.ExitLog = append(p.res.ExitLog, LogLine{Plain: true, Text: " AOTConfiguration recorded: " + config})
		}
	case "", "auto", "on":
		cache := s.String("AOTCache")
		if cache == "" {
			return nil
		}
		if _, err := os.Stat(cache); err == nil {
			return nil
		}
		p.noArchive = true
		failed := []LogLine{
			{Level: "error", Tags: "aot", Text: "An error has occurred while processing the AOT cache. Run with -Xlog:aot for details."},
			{Level: "error", Tags: "aot", Text: "Loading static archive failed."},
			{Level: "error", Tags: "aot", Text: "Unable to map shared spaces"},
		}
		if mode == "on" {
			err := initError("Unable to use AOT cache.").(*Error)
			err.Log = failed
			return err
		}
		p.res.RunLog = append(p.res.RunLog, failed...)
	}
	return nil
}
