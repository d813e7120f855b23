package ergo

import (
	"fmt"
	"strconv"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// The garbage collector's share of the start-up ergonomics: what HotSpot settles from the
// machine's memory and processor count before it prints -XX:+PrintCommandLineFlags (the
// collector, the heap sizes, the GC worker counts, compressed oops), and what it aligns
// later, while the heap is reserved. Every number below was observed on OpenJDK 17.0.15 and
// Temurin 25.0.3 (docs/flags.md, "Heap and GC ergonomics"); the 8 profiles keep their table
// values (JDK 8's sizing differs and is not modelled).

const (
	mib = 1 << 20
	gib = 1 << 30
	// serverClassMemory is the least physical memory of a "server-class machine" (2 GB less
	// 256 MB of slack), which gets G1 rather than Serial when no collector is chosen; the
	// machine needs two active processors as well.
	serverClassMemory = 2*gib - 256*mib
	// oldSize is the old generation's default minimum (OldSize, removed in 25): with NewSize
	// it makes the least heap the ergonomics choose (6815736 bytes on both releases).
	oldSize = 5452592
	// taskQueueSize is a GC task queue's entries on 64-bit VMs; G1 sizes its mark stack
	// for one queue per concurrent worker.
	taskQueueSize = 1 << 17
	// serialHeapAlignment aligns the Serial and Parallel heaps, and G1's with regions below
	// it (the card table's page granularity on x86_64 Linux with 4 KB pages).
	serialHeapAlignment = 2 * mib
)

// gcArguments settles the collector and heap flags the way Arguments::apply_ergo does,
// before PrintCommandLineFlags is printed (values not yet aligned).
//
// compressedOopsMaxHeap is the largest maximum heap compressed oops take: what 32-bit offsets
// scaled by the object alignment address (32 GB at 8 bytes), less the collector's
// conservative heap alignment (32 MB for G1's and Shenandoah's largest region, 2 MB for
// Serial and Parallel; ZGC's, assumed 2 MB, was not observed at the boundary). Observed on 17.0.15 and 25.0.3: under G1 -Xmx32736m keeps them and
// -Xmx32737m does not, under Serial 32766m and 32767m; a command line that asks for them
// above it gets java's warning and the flag goes off.
func compressedOopsMaxHeap(s *flags.Set, gc string) uint64 {
	align := uint64(2 * mib)
	if gc == "UseG1GC" || gc == "UseShenandoahGC" {
		align = 32 * mib
	}
	objAlign := uint64(8)
	if s.Has("ObjectAlignmentInBytes") && s.Int("ObjectAlignmentInBytes") > 0 {
		objAlign = uint64(s.Int("ObjectAlignmentInBytes"))
	}
	return 4*gib*objAlign - align
}

// g1GCTimeRatio is G1's GCTimeRatio where the command line sets none (the declared 99 is
// Parallel's).
const g1GCTimeRatio = "12"

func (e *ergo) gcArguments(model cpu.Model, active int) {
	s := e.set
	if !gcModelled(s) {
		return
	}
	gc := s.Collector()
	if gc == "" {
		gc = "UseSerialGC"
		if active >= 2 && model.PhysicalMemory() >= serverClassMemory {
			gc = "UseG1GC"
		}
		if s.WasSetOnCommandLine(gc) && !s.Bool(gc) {
			// The command line turned the machine's collector off and named no other: none
			// is selected (flags.UnselectedCollectorFailure).
			return
		}
		e.setErgo(gc, "true")
		if w, ok := flags.StringDedupUnsupported(s, gc); ok {
			e.logs = append(e.logs, w)
		}
	}
	e.aggressiveHeap(model)
	e.heapSize(model)
	if !s.IsDefault("UseCompressedOops") && s.Bool("UseCompressedOops") && s.Uint("MaxHeapSize") > compressedOopsMaxHeap(s, gc) {
		e.warn("Max heap size too large for Compressed Oops")
		e.setDefault("UseCompressedOops", "false")
	}
	switch {
	case gc == "UseZGC":
		// ZGC has no compressed oops: a command line that asks for them is overruled
		// silently; the ones the VM would have turned on go off ergonomically, and a heap
		// beyond their reach leaves them at their default (-Xmx64g, observed on 17.0.15 and
		// 25.0.3).
		switch {
		case !s.IsDefault("UseCompressedOops"):
			e.setDefault("UseCompressedOops", "false")
		case s.Uint("MaxHeapSize") <= compressedOopsMaxHeap(s, gc):
			e.setErgo("UseCompressedOops", "false")
		}
	case s.IsDefault("UseCompressedOops") && s.Uint("MaxHeapSize") <= compressedOopsMaxHeap(s, gc):
		e.setErgo("UseCompressedOops", "true")
	}
	// 17 sets the class pointers' flag ergonomically; 25 has it on by default.
	if s.Has("UseCompressedClassPointers") && s.IsDefault("UseCompressedClassPointers") && !s.Bool("UseCompressedClassPointers") {
		e.setErgo("UseCompressedClassPointers", "true")
	}
	// The collectors that run parallel workers size ParallelGCThreads from the processors
	// when it is left at 0 (one the command line gave they refuse:
	// flags.WorkerThreadsFailure); Serial and Epsilon run none and keep the 0, the command
	// line's too (PrintCommandLineFlags shows -XX:ParallelGCThreads=0; 17.0.15, 25.0.3).
	parallel := s.Uint("ParallelGCThreads")
	if parallel == 0 && !s.WasSetOnCommandLine("ParallelGCThreads") && gc != "UseSerialGC" && gc != "UseEpsilonGC" {
		parallel = workerThreads(active)
		e.setDefault("ParallelGCThreads", strconv.FormatUint(parallel, 10))
	}
	switch gc {
	case "UseG1GC":
		// A GCTimeRatio of 0 sets no goal: G1 takes its own, the command line's origin kept
		// and -XX:+PrintCommandLineFlags showing it (17.0.15, 25.0.3; Parallel keeps the 0).
		if s.WasSetOnCommandLine("GCTimeRatio") && s.Uint("GCTimeRatio") == 0 {
			e.setDefault("GCTimeRatio", g1GCTimeRatio)
		}
		// A ConcGCThreads of 0 is no count: G1 sizes it as if it were left alone, keeping
		// the command line's origin (17.0.15, 25.0.3: {command line, ergonomic}).
		if s.IsDefault("ConcGCThreads") || s.Uint("ConcGCThreads") == 0 {
			e.setErgo("ConcGCThreads", strconv.FormatUint(max((parallel+2)/4, 1), 10))
		}
		if s.IsDefault("G1ConcRefinementThreads") {
			e.setErgo("G1ConcRefinementThreads", strconv.FormatUint(parallel, 10))
		}
		if s.IsDefault("MarkStackSize") {
			v := min(s.Uint("MarkStackSizeMax"), max(s.Uint("MarkStackSize"), s.Uint("ConcGCThreads")*taskQueueSize))
			e.setErgo("MarkStackSize", strconv.FormatUint(v, 10))
		}
		// G1 caps its drain target at a quarter queue with FLAG_SET_ERGO on 17; 25 leaves
		// the flag at its default.
		if s.JDK() < jdk.R25 && s.Has("GCDrainStackTargetSize") && s.IsDefault("GCDrainStackTargetSize") {
			e.setErgo("GCDrainStackTargetSize", strconv.FormatUint(min(s.Uint("GCDrainStackTargetSize"), taskQueueSize/4), 10))
		}
	case "UseShenandoahGC":
		// A heap that starts at its maximum has nothing to give back: Shenandoah turns its
		// uncommit off (FLAG_SET_DEFAULT, the command line's +ShenandoahUncommit too) and
		// says so as it reads its arguments, before PrintCommandLineFlags' line (17.0.15,
		// 25.0.3: -Xmx64m, whose initial heap is the maximum, and -Xms64m -Xmx64m; not
		// -Xms32m -Xmx64m, whose minimum is below the maximum either way).
		// On transparent huge pages a heap of fewer than ten 2 MB pages keeps small regions,
		// which cannot be uncommitted page by page: Shenandoah says so and turns uncommit
		// off first (17.0.15, 25.0.3: -Xmx18m, whose heap starts at its maximum without
		// the line below).
		if s.Has("ShenandoahUncommit") && s.Bool("ShenandoahUncommit") && largePages(s) && s.Uint("MaxHeapSize")/(2*mib) < 10 {
			e.setDefault("ShenandoahUncommit", "false")
			e.warn("Large pages size (2048K) is too large to afford page-sized regions, disabling uncommit")
		}
		if s.Has("ShenandoahUncommit") && s.Bool("ShenandoahUncommit") && s.Uint("InitialHeapSize") == s.Uint("MaxHeapSize") {
			e.setDefault("ShenandoahUncommit", "false")
			e.logs = append(e.logs, flags.LogLine{Level: "info", Tags: "gc", Text: "Min heap equals to max heap, disabling ShenandoahUncommit", Configured: true})
		}
		// A heuristics the mode does not run is ignored next (Temurin 25.0.3: the
		// generational mode under -Xmx64m logs it after the uncommit line).
		if w := flags.ShenandoahIgnoredHeuristics(s); w != "" && s.Collector() == "UseShenandoahGC" {
			e.logs = append(e.logs, flags.LogLine{Level: "warning", Tags: "gc", Text: w, Configured: true})
		}
	case "UseEpsilonGC":
		// A TLAB that does not grow has nothing to decay: Epsilon turns the decay off and
		// says so as it reads its arguments (17.0.15, 25.0.3).
		if s.Has("EpsilonElasticTLABDecay") && s.Bool("EpsilonElasticTLABDecay") && s.Has("EpsilonElasticTLAB") && !s.Bool("EpsilonElasticTLAB") {
			e.setDefault("EpsilonElasticTLABDecay", "false")
			e.logs = append(e.logs, flags.LogLine{Level: "warning", Tags: "gc", Text: "Disabling EpsilonElasticTLABDecay because EpsilonElasticTLAB is disabled", Configured: true})
		}
	case "UseZGC":
		// Generational ZGC (25): a quarter of the processors, at least one, for each
		// generation's concurrent workers.
		n := strconv.FormatUint(zgcWorkers(s, uint64(max((active+3)/4, 1))), 10)
		if s.WasSetOnCommandLine("ConcGCThreads") {
			n = strconv.FormatUint(s.Uint("ConcGCThreads"), 10)
		}
		for _, f := range []string{"ZYoungGCThreads", "ZOldGCThreads"} {
			if s.Has(f) && s.IsDefault(f) {
				e.setErgo(f, n)
			}
		}
	}
	e.metaspaceSizes()
	// Thread stacks are not madvised for huge pages unless the kernel forces them.
	if s.Has("THPStackMitigation") && s.IsDefault("THPStackMitigation") && !model.THPAlways() {
		e.setErgo("THPStackMitigation", "false")
	}
	e.aotFlags()
}

// aotFlags settles 25's AOT switches before PrintCommandLineFlags (observed on 25.0.3): an
// AOTMode the command line gives turns AOTClassLinking on; AOTInvokeDynamicLinking follows
// AOTClassLinking; training is recorded under AOTMode=record and replayed when a cache is
// named or the mode (auto or on) given; and with either, archiving with a Java agent is off.
// Each only where the command line left it.
func (e *ergo) aotFlags() {
	s := e.set
	for _, f := range []string{"AOTMode", "AOTCache", "AOTClassLinking", "AOTInvokeDynamicLinking", "AOTRecordTraining", "AOTReplayTraining", "AllowArchivingWithJavaAgent"} {
		if !s.Has(f) {
			return
		}
	}
	modeGiven := s.WasSetOnCommandLine("AOTMode")
	aot := modeGiven || s.String("AOTCache") != ""
	mode := s.String("AOTMode")
	if mode == "" {
		mode = "auto"
	}
	if modeGiven && s.IsDefault("AOTClassLinking") {
		e.setErgo("AOTClassLinking", "true")
	}
	set := func(name string, on bool) {
		if s.IsDefault(name) {
			e.setErgo(name, strconv.FormatBool(on))
		}
	}
	set("AOTInvokeDynamicLinking", s.Bool("AOTClassLinking"))
	set("AOTRecordTraining", mode == "record")
	set("AOTReplayTraining", aot && (mode == "auto" || mode == "on"))
	if aot {
		set("AllowArchivingWithJavaAgent", false)
	}
}

// metaspaceSizes settles the metaspace sizes against MaxMetaspaceSize, as the metaspace's
// ergonomics do before PrintCommandLineFlags (observed on 17 and 25): MetaspaceSize above
// the maximum is lowered to it, origin kept; the compressed class space is held to 80 % of
// the maximum in its 16 MB granules (flags.ClassSpaceSize), set ergonomically when that
// changes it.
func (e *ergo) metaspaceSizes() {
	s := e.set
	if !s.Has("MaxMetaspaceSize") || !s.Has("MetaspaceSize") {
		return
	}
	// The metaspace commits in 64 KB granules: its maximum is at least one, and the size
	// that starts its collections, at most the maximum, is whole granules, at least one, both
	// keeping their origins (17.0.15 and 25.0.3: MaxMetaspaceSize=0 is 65536, 100k stays
	// 102400; MetaspaceSize=100k is 65536, 1000001 983040, under MaxMetaspaceSize=200k 196608).
	const granule = 64 << 10
	maxMeta := s.Uint("MaxMetaspaceSize")
	if maxMeta < granule {
		maxMeta = granule
		e.setDefault("MaxMetaspaceSize", strconv.FormatUint(maxMeta, 10))
	}
	if size := max(min(s.Uint("MetaspaceSize"), maxMeta)/granule*granule, granule); size != s.Uint("MetaspaceSize") {
		e.setDefault("MetaspaceSize", strconv.FormatUint(size, 10))
	}
	if !s.Has("CompressedClassSpaceSize") || s.Has("UseCompressedClassPointers") && !s.Bool("UseCompressedClassPointers") {
		return
	}
	if ccs := flags.ClassSpaceSize(s.Uint("CompressedClassSpaceSize"), maxMeta); ccs != s.Uint("CompressedClassSpaceSize") {
		e.setErgo("CompressedClassSpaceSize", strconv.FormatUint(ccs, 10))
	}
}

// zgcWorkers caps a ZGC worker count so that each worker's relocation page (2 MB) stays
// within 2 % of the maximum heap, at least one worker: -Xmx128m runs one parallel worker on
// 2 and on 8 processors, -Xmx200m two (observed on 17 and 25).
func zgcWorkers(s *flags.Set, n uint64) uint64 {
	byHeap := uint64(float64(s.Uint("MaxHeapSize")) * 0.02 / (2 * mib))
	return max(min(n, byHeap), 1)
}

// gcModelled reports whether the set's release has the recorded flag table the GC
// ergonomics need (17 and 25 on x86_64; the profiles of hand rows keep their table values).
func gcModelled(s *flags.Set) bool {
	for _, f := range []string{"MaxRAM", "MaxRAMPercentage", "InitialRAMPercentage", "MinRAMPercentage", "ErgoHeapSizeLimit",
		"NewSize", "InitialHeapSize", "MinHeapSize", "ParallelGCThreads", "ConcGCThreads", "G1ConcRefinementThreads",
		"MarkStackSize", "MarkStackSizeMax", "G1HeapRegionSize", "UseCompressedOops"} {
		if !s.Has(f) {
			return false
		}
	}
	return s.JDK().Modern()
}

// workerThreads is the parallel GC worker count for n processors: all of the first eight,
// then five of every eight more.
func workerThreads(n int) uint64 {
	if n <= 8 {
		return uint64(n)
	}
	return uint64(8 + (n-8)*5/8)
}

// heapSize sizes MaxHeapSize, InitialHeapSize and MinHeapSize from the machine's memory
// where the command line left them: a quarter of it at most (MaxRAMPercentage), 1/64 to
// start (InitialRAMPercentage), half of it (MinRAMPercentage) when the memory is so small
// that a quarter is below the default maximum; -XX:MaxRAM stands in for the memory.
func (e *ergo) heapSize(model cpu.Model) {
	s := e.set
	phys := model.PhysicalMemory()
	// override: the command line sized the heap by the memory (MaxRAM or a share of it),
	// which may take compressed oops away (compressedOopsHeap).
	override := s.WasSetOnCommandLine("MaxRAM")
	if maxRAM := s.Uint("MaxRAM"); override {
		phys = maxRAM
	} else {
		phys = min(phys, maxRAM)
		// A RAM share given on the command line pins MaxRAM to the memory it is a share
		// of (observed with -XX:InitialRAMPercentage and -XX:MinRAMPercentage).
		for _, f := range []string{"MaxRAMPercentage", "MinRAMPercentage", "InitialRAMPercentage", "MaxRAMFraction", "MinRAMFraction", "InitialRAMFraction"} {
			if s.Has(f) && s.WasSetOnCommandLine(f) {
				e.setErgo("MaxRAM", strconv.FormatUint(phys, 10))
				override = true
				break
			}
		}
	}
	pct := func(name, fraction string) float64 {
		if s.Has(fraction) && s.WasSetOnCommandLine(fraction) && !s.WasSetOnCommandLine(name) && s.Uint(fraction) > 0 {
			return 100 / float64(s.Uint(fraction))
		}
		return s.Float(name)
	}
	part := func(p float64) uint64 { return uint64(float64(phys) * p / 100) }
	if !s.WasSetOnCommandLine("MaxHeapSize") {
		limit := part(pct("MaxRAMPercentage", "MaxRAMFraction"))
		if least := part(pct("MinRAMPercentage", "MinRAMFraction")); least < s.Uint("MaxHeapSize") {
			limit = least
		} else {
			limit = max(limit, s.Uint("MaxHeapSize"))
		}
		if cap := s.Uint("ErgoHeapSizeLimit"); cap != 0 {
			limit = min(limit, cap)
		}
		limit = e.compressedOopsHeap(limit, override)
		if s.WasSetOnCommandLine("InitialHeapSize") {
			limit = max(limit, s.Uint("InitialHeapSize"))
		} else if s.WasSetOnCommandLine("MinHeapSize") {
			limit = max(limit, s.Uint("MinHeapSize"))
		}
		e.setErgo("MaxHeapSize", strconv.FormatUint(limit, 10))
	}
	maxHeap := s.Uint("MaxHeapSize")
	least := min(s.Uint("NewSize")+oldSize, maxHeap)
	if s.Uint("InitialHeapSize") == 0 {
		initial := part(pct("InitialRAMPercentage", "InitialRAMFraction"))
		initial = min(max(initial, least, s.Uint("MinHeapSize")), maxHeap)
		e.setErgo("InitialHeapSize", strconv.FormatUint(initial, 10))
	}
	if s.Uint("MinHeapSize") == 0 {
		e.setErgo("MinHeapSize", strconv.FormatUint(min(least, s.Uint("InitialHeapSize")), 10))
	}
}

// compressedOopsHeap is the maximum heap the ergonomics choose when their limit is above what
// compressed oops address (observed on 17.0.15 and 25.0.3 with MaxRAM of 128g to 256g and
// MaxRAM=2^64-1): with compressed oops left to the VM and the heap sized by a MaxRAM or RAM
// share the command line gave, the oops go off (ergonomic, -XX:-UseCompressedOops in
// PrintCommandLineFlags) and the heap keeps the limit; otherwise, while the oops are on
// (asked for, or left on by the VM), the heap is cut to the oops' reach less
// HeapBaseMinAddress, where that leaves room for a heap of the default size (G1 at MaxRAM=256g
// with +UseCompressedOops: 32g-32m-2g; Serial 32g-2m-2g; ObjectAlignmentInBytes=16 64g-32m-2g;
// HeapBaseMinAddress=31g 1g-32m). ZGC, which turns the oops off later, is cut alike (32g-2m-2g).
// A machine whose own memory is above 128 GB takes the second branch (not observed here).
func (e *ergo) compressedOopsHeap(limit uint64, override bool) uint64 {
	s := e.set
	if !s.Has("UseCompressedOops") || !s.Bool("UseCompressedOops") && !s.IsDefault("UseCompressedOops") {
		return limit
	}
	reach := compressedOopsMaxHeap(s, s.Collector())
	if limit <= reach {
		return limit
	}
	if s.IsDefault("UseCompressedOops") && override {
		e.setErgo("UseCompressedOops", "false")
		return limit
	}
	base := s.Uint("HeapBaseMinAddress")
	if def, err := strconv.ParseUint(flags.Lookup("MaxHeapSize").Default.At(s.JDK()), 10, 64); err == nil && base+def < reach {
		reach -= base
	}
	return reach
}

// heapAlignment is the heap's alignment for the chosen collector: G1's region size (set
// here the way G1 chooses it when the command line does not), the card-table granularity
// for the generational collectors; 0 for the collectors whose sizes are not modelled.
func (e *ergo) heapAlignment() uint64 {
	s := e.set
	switch s.Collector() {
	case "UseG1GC":
		region := s.Uint("G1HeapRegionSize")
		if region == 0 {
			region = g1RegionSize(s.Uint("MaxHeapSize"))
			e.setErgo("G1HeapRegionSize", strconv.FormatUint(region, 10))
		}
		// The card table's granularity bounds the alignment from below (1 MB regions
		// still align the heap to 2 MB).
		return max(region, serialHeapAlignment)
	case "UseShenandoahGC":
		return shenandoahRegionSize(s)
	case "UseSerialGC", "UseParallelGC", "UseZGC":
		return serialHeapAlignment
	}
	return 0
}

// shenandoahRegionSize is Shenandoah's region size, which aligns its heap: the one
// ShenandoahRegionSize names, else the maximum heap in ShenandoahTargetNumRegions regions, as
// a power of two rounded down, between ShenandoahMinRegionSize and ShenandoahMaxRegionSize
// (observed on 17 and 25 from -Xmx100m, 256 KB regions, to -Xmx64g, 32 MB), and a huge page
// at least on transparent huge pages.
func shenandoahRegionSize(s *flags.Set) uint64 {
	if !s.Has("ShenandoahTargetNumRegions") {
		return serialHeapAlignment
	}
	// A size requested is used rounded down to a power of two, after the start-up checked
	// it as given (17.0.15, 25.0.3: 3m gives 2M regions, 300k 256K ones).
	target := s.Uint("ShenandoahRegionSize")
	if target == 0 {
		target = s.Uint("MaxHeapSize") / max(s.Uint("ShenandoahTargetNumRegions"), 1)
		lo, hi := s.Uint("ShenandoahMinRegionSize"), s.Uint("ShenandoahMaxRegionSize")
		target = min(max(target, lo), hi)
		// On transparent huge pages the size is whole 2 MB pages, when the heap holds ten
		// of them (17.0.15, 25.0.3: -Xmx18m keeps 256K regions, -Xmx20m has 2M ones, the
		// 6028M default heap 4M ones where it has 2M without).
		if largePages(s) && s.Uint("MaxHeapSize")/(2*mib) >= 10 {
			target = (target + 2*mib - 1) / (2 * mib) * (2 * mib)
		}
	}
	r := uint64(1)
	for r*2 <= target {
		r *= 2
	}
	return r
}

// g1RegionSize is G1's region size for a maximum heap: the heap in 2048 regions, as a power
// of two rounded up, between 1 MB and 32 MB.
func g1RegionSize(maxHeap uint64) uint64 {
	target := maxHeap / 2048
	r := uint64(mib)
	for r < target && r < 32*mib {
		r <<= 1
	}
	return r
}

// alignHeap aligns the heap sizes up to the collector's alignment, as the heap's reservation
// does after PrintCommandLineFlags (PrintFlagsFinal and the gc+init lines show these).
func (e *ergo) alignHeap() {
	s := e.set
	if !gcModelled(s) {
		return
	}
	a := e.heapAlignment()
	if a == 0 {
		return
	}
	for _, f := range []string{"MaxHeapSize", "InitialHeapSize", "MinHeapSize"} {
		if v := s.Uint(f); v%a != 0 {
			e.setErgo(f, strconv.FormatUint((v+a-1)/a*a, 10))
		}
	}
}

// startYoung is the least young generation with which a release's VM finishes starting: the
// JDK's own start-up allocates into it before the VM is initialized, and a collection needed
// before then stops the VM. Observed with a clean environment (the environment's strings are
// part of what the start-up allocates, so a large one moves the boundary up a step):
//   - Serial, with NewSize given (-Xmn, -XX:NewSize): the young generation is NewSize
//     aligned down to 64 KB, at least three 64 KB spaces (eden and two survivors); 17.0.15
//     stops at 320K and starts at 384K, 25.0.3 stops at 192K and starts at 256K. A young
//     generation the heap sizes starts (-Xmx2m: 640K; -Xmx3m -XX:NewRatio=10: 768K).
//   - G1: 17.0.15 stops with two regions whatever their size (-Xmx2m, 1 MB regions; -Xmx4m,
//     2 MB; -Xmx8m, 4 MB) and starts with three (-Xmx3m, -Xmx6m with 2 MB regions); 25.0.3
//     stops when the heap less one region leaves under 2 MB (-Xmx2m) and starts with two
//     2 MB or 4 MB regions.
//   - Parallel starts with a 64 KB young generation on both (-Xmn1k, -Xmx2m).
type startYoung struct {
	serial    uint64 // Serial's least young generation
	g1Regions uint64 // G1's least number of regions
	g1Eden    uint64 // G1's least heap beyond one region
}

var leastStartYoung = map[jdk.Release]startYoung{
	jdk.R17: {serial: 384 << 10, g1Regions: 3},
	jdk.R25: {serial: 256 << 10, g1Regions: 2, g1Eden: 2 * mib},
}

// reservableHeap is the largest Java heap the VM reserves on x86_64 Linux: the free address
// range below the java launcher, which the kernel maps at two thirds of the 128 TiB user
// address space (0x555555554000, about 85.3 TiB), moved up by address-space randomisation
// by up to 1 TiB. Observed on 17.0.15 and 25.0.3 with Serial and G1, three runs each: -Xmx85t
// reserved every time, -Xmx86t in one or two runs of three, -Xmx90t never; jitsim takes the
// boundary without the randomisation.
const reservableHeap = 0x555555554000

// heapReserveFailure is the text java stops with when the settled maximum heap is larger than
// the address range it can reserve (-Xmx90t, or the heap MaxRAM=2^64-1 sizes), after the
// collector's "Using" line: the same for Serial, Parallel, G1, Shenandoah and Epsilon, in KB
// ("KB" on 17, " KB" on 25). "" when the heap fits, for ZGC (which reserves its own ranges)
// and off x86_64 (not observed).
func heapReserveFailure(set *flags.Set) string {
	if !gcModelled(set) || set.Arch() != jdk.AMD64 || set.Collector() == "UseZGC" || set.Uint("MaxHeapSize") <= reservableHeap {
		return ""
	}
	unit := "KB"
	if set.JDK() >= jdk.R25 {
		unit = " KB"
	}
	return fmt.Sprintf("Could not reserve enough space for %d%s object heap", set.Uint("MaxHeapSize")>>10, unit)
}

// zgcMaxHeap is the largest heap ZGC supports (16 TB on 17.0.15 and 25.0.3); zgcTooLarge is
// what it says of a larger one.
const (
	zgcMaxHeap  = 16 << 40
	zgcTooLarge = "Java heap too large (max supported heap size is 16384G)"
)

// zgcHeapTooLarge reports whether ZGC refuses the settled maximum heap. 25 stops the VM after
// gc+init's NUMA line with zgcTooLarge as its initialization error; 17 logs it as a gc error
// after its workers' line, makes the rest of the collector (the backing file's lines, the
// runtime workers, "Using The Z Garbage Collector") and then fails with the launcher's lines
// alone (CollectorFailure).
func zgcHeapTooLarge(set *flags.Set) bool {
	return gcModelled(set) && set.Collector() == "UseZGC" && set.Uint("MaxHeapSize") > zgcMaxHeap
}

// leastMetaspace is the least MaxMetaspaceSize with which the VM loads its first classes: two
// 64 KB commit granules, one for the class space and one for the rest (17.0.15 and 25.0.3:
// 127k stops with "OutOfMemoryError: Metaspace" after the collector's start-up lines, 128k
// starts with the class-data archive). Without the archive the start-up's own classes need
// about 4 MB, and java's texts below that vary with the size (not modelled).
const leastMetaspace = 128 << 10

// metaspaceTooSmall reports whether MaxMetaspaceSize is below leastMetaspace.
func metaspaceTooSmall(set *flags.Set) bool {
	return set.JDK().Modern() && set.Has("MaxMetaspaceSize") && set.Uint("MaxMetaspaceSize") < leastMetaspace
}

// CollectorFailure reports whether the VM stops after the collector's start-up lines with the
// launcher's lines and no text of its own: 17's ZGC with a heap above its maximum.
func CollectorFailure(set *flags.Set) bool {
	return zgcHeapTooLarge(set) && set.JDK() < jdk.R25
}

// StartupFailure returns the text java stops with when the settled heap's young generation is
// too small for the VM's own start-up ("GC triggered before VM initialization completed"),
// "" when it starts. java prints it after the collector's start-up log lines, on stdout, and
// exits with status 1.
func StartupFailure(set *flags.Set) string {
	if text := flags.YoungRatioFailure(set); text != "" {
		return text
	}
	if text := heapReserveFailure(set); text != "" {
		return text
	}
	if zgcHeapTooLarge(set) && set.JDK() >= jdk.R25 {
		return zgcTooLarge
	}
	if metaspaceTooSmall(set) {
		return "OutOfMemoryError: Metaspace"
	}
	least, ok := leastStartYoung[set.JDK()]
	if !ok || !gcModelled(set) || !set.Has("NewSize") {
		return ""
	}
	young := set.Uint("NewSize")
	switch set.Collector() {
	case "UseSerialGC":
		if !set.WasSetOnCommandLine("NewSize") {
			// A young generation the heap sizes started in every run observed (-Xmx2m:
			// 640K; -Xmx3m -XX:NewRatio=10: 768K), and jitsim does not size Serial's young
			// generation: only a NewSize given is held to the boundary.
			return ""
		}
		a := genAlignment["UseSerialGC"]
		young = max(young/a*a, 3*a)
		if young >= least.serial {
			return ""
		}
	case "UseG1GC":
		region := set.Uint("G1HeapRegionSize")
		if region == 0 {
			return ""
		}
		regions := set.Uint("MaxHeapSize") / region
		if regions >= least.g1Regions && (regions-1)*region >= least.g1Eden {
			return ""
		}
	default:
		return ""
	}
	return fmt.Sprintf("GC triggered before VM initialization completed. Try increasing NewSize, current value %dK.", young>>10)
}

// MaxMemory is the heap's maximum as the running VM reports it (Runtime.maxMemory, which
// -XshowSettings:vm shows as the estimated maximum): the whole heap for G1, ZGC, Shenandoah
// and Epsilon; for Serial and Parallel the heap less the one survivor space that is always
// empty. The young generation's maximum is MaxNewSize when the command line set it, else the
// heap's 1/(NewRatio+1); Serial's survivor is a (SurvivorRatio+2)th of it, Parallel's a
// MinSurvivorRatio-th (a SurvivorRatio given makes it SurvivorRatio+2), each aligned down to the generation's alignment (observed on 17.0.15 and
// 25.0.3: 5.69G and 5.23G for a 6028M heap, 61.88M for Serial at -Xmx64m). 0 for a profile
// without the heap flags.
func MaxMemory(set *flags.Set) uint64 {
	if !set.Has("MaxHeapSize") {
		return 0
	}
	maxHeap := set.Uint("MaxHeapSize")
	gc := set.Collector()
	align, ok := genAlignment[gc]
	if !ok || !gcModelled(set) {
		return maxHeap
	}
	down := func(v uint64) uint64 { return v / align * align }
	young := maxHeap / (set.Uint("NewRatio") + 1)
	if set.WasSetOnCommandLine("MaxNewSize") {
		young = min(set.Uint("MaxNewSize"), maxHeap)
	}
	young = down(young)
	ratio := set.Uint("SurvivorRatio") + 2
	if gc == "UseParallelGC" && !set.WasSetOnCommandLine("SurvivorRatio") {
		// Parallel's MinSurvivorRatio, which a SurvivorRatio on the command line replaces
		// with SurvivorRatio+2 (-XX:SurvivorRatio=4 at -Xmx777m: 735.00M).
		ratio = set.Uint("MinSurvivorRatio")
	}
	return maxHeap - down(young/max(ratio, 1))
}

// aggressiveHeap is -XX:+AggressiveHeap's part that needs the machine (17.0.15, 25.0.3; the
// flags it sets regardless are flags.aggressiveHeapFlags'): a heap the command line did not
// size gets half the physical memory (at most all of it less 160 MB) as its maximum, initial
// and minimum size, a young generation it did not size three eighths of the maximum, and 17's
// BaseFootPrintEstimate the maximum, all as if the command line had set them (MaxRAM is not
// consulted).
func (e *ergo) aggressiveHeap(model cpu.Model) {
	s := e.set
	if !s.Has("AggressiveHeap") || !s.Bool("AggressiveHeap") {
		return
	}
	cmd := func(name string, v uint64) {
		if s.Has(name) {
			if err := s.SetCommandLine(name, strconv.FormatUint(v, 10)); err != nil {
				panic("BUG: ergonomics: " + err.Error())
			}
		}
	}
	if !s.WasSetOnCommandLine("MaxHeapSize") {
		phys := model.PhysicalMemory()
		heap := phys / 2
		if phys > 160<<20 {
			heap = min(heap, phys-160<<20)
		}
		cmd("MaxHeapSize", heap)
		cmd("InitialHeapSize", heap)
		cmd("MinHeapSize", heap)
	}
	if !s.WasSetOnCommandLine("NewSize") {
		young := s.Uint("MaxHeapSize") / 8 * 3
		cmd("NewSize", young)
		cmd("MaxNewSize", young)
	}
	cmd("BaseFootPrintEstimate", s.Uint("MaxHeapSize"))
}

// g1YoungSizer is G1's reading of the MaxNewSize the command line gave: a NewSize above it
// (given, or the declared 1331k) raises it to NewSize, and the young generation's most is then
// a whole number of regions, at least one, an ergonomic value over the command line's
// (PrintFlagsFinal: "command line, ergonomic"; 17.0.15 and 25.0.3: 1m, 2m and 5m with 4 MB
// regions all read 4 MB), where that changes it. Its warnings are g1YoungSizerWarnings'.
func (e *ergo) g1YoungSizer() {
	s := e.set
	if s.Collector() != "UseG1GC" && s.Collector() != "" || !gcModelled(s) || !s.WasSetOnCommandLine("MaxNewSize") {
		return
	}
	most := max(s.Uint("MaxNewSize"), s.Uint("NewSize"))
	region := s.Uint("G1HeapRegionSize")
	if region == 0 || most >= s.Uint("MaxHeapSize") {
		// A maximum as large as the heap is the heap's rule, not modelled here.
		if most > s.Uint("MaxNewSize") {
			e.setErgo("MaxNewSize", strconv.FormatUint(most, 10))
		}
		return
	}
	// A value already whole regions keeps its origin (9m with 1 MB regions).
	if v := max(most/region, 1) * region; v != s.Uint("MaxNewSize") {
		e.setErgo("MaxNewSize", strconv.FormatUint(v, 10))
	}
}

// ConstraintFailure returns the flag constraint java checks once the ergonomics have run (after
// -XX:+PrintCommandLineFlags is printed, before the heap is made) that the settled set breaks,
// "" when none. java prints it on stderr and stops as after a bad option.
//   - OpenJDK 17's G1 holds ConcGCThreads to at most ParallelGCThreads, the ergonomic one
//     included (-XX:ConcGCThreads=4 on two processors); Temurin 25 no longer checks it.
//   - Parallel holds InitialTenuringThreshold to at most MaxTenuringThreshold, each side
//     reporting (17 and 25; the other collectors take the pair as given). The maximum is the
//     one the tenuring switches left (-XX:InitialTenuringThreshold=10 -XX:+AlwaysTenure: 0).
func ConstraintFailure(set *flags.Set) string {
	if !set.JDK().Modern() || !gcModelled(set) {
		return ""
	}
	switch set.Collector() {
	case "UseG1GC":
		if set.JDK() >= jdk.R25 {
			return ""
		}
		if c, p := set.Uint("ConcGCThreads"), set.Uint("ParallelGCThreads"); c > p {
			return fmt.Sprintf("ConcGCThreads (%d) must be less than or equal to ParallelGCThreads (%d)", c, p)
		}
	case "UseParallelGC":
		if !set.Has("InitialTenuringThreshold") || !set.Has("MaxTenuringThreshold") {
			return ""
		}
		if initial, maxAge := set.Uint("InitialTenuringThreshold"), set.Uint("MaxTenuringThreshold"); initial > maxAge {
			return fmt.Sprintf("MaxTenuringThreshold (%d) must be greater than or equal to InitialTenuringThreshold (%d)\n"+
				"InitialTenuringThreshold (%d) must be less than or equal to MaxTenuringThreshold (%d)", maxAge, initial, initial, maxAge)
		}
	}
	return ""
}
