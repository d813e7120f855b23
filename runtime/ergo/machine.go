package ergo

import (
	"fmt"
	"strconv"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// The machine's share of the start-up ergonomics that PrintFlagsFinal shows and the model
// does not act on: the x86 code-generation defaults HotSpot keys on the CPU's vendor, family
// and extensions, the collector's tuning defaults, G1's remembered-set sizes per region size,
// the code heaps' split and the metaspace steps. Every value was observed with
// -XX:+PrintFlagsFinal on OpenJDK 17.0.15 and Temurin 25.0.3 on an AMD family 0x1A host under
// the options of flags/testdata/jvmflags/ergonomics (docs/flags.md, "CPU and collector
// ergonomics"); the Intel rows are the documented behaviour, not recorded.

// machineRow is one flag the machine pass settles: when its releases have it and the command
// line left it alone, value gives the new value (ok false leaves the flag as it is), set
// FLAG_SET_ERGO-style when ergo is true, FLAG_SET_DEFAULT-style otherwise.
type machineRow struct {
	flag     string
	releases jdk.Set
	ergo     bool
	value    func(m *machineFacts) (string, bool)
	// warn, for an intrinsic switch, is java's warning when the command line turned the
	// switch on and unavailable holds: the switch goes off (its origin kept) after the
	// warning.
	warn        string
	unavailable func(m *machineFacts) bool
	// clamp, for a value the command line gave, returns what java makes of it and its
	// warning; "" warning when the value stands.
	clamp func(m *machineFacts) (value, warning string)
	// resets: java sets the flag whatever the command line gave (FLAG_SET_ERGO, the
	// command line's value reading {command line, ergonomic}); value sees the set as the
	// command line left it.
	resets bool
}

// machineFacts is what the rows read: the settled set, the CPU and the compilers.
type machineFacts struct {
	s  *flags.Set
	id cpu.Identity
	// feats is the model's feature set masked by the settled UseSSE/UseAVX levels.
	feats  cpu.Set
	c1, c2 int
	// cpus is the active processor count.
	cpus int
}

// maxVectorSize is the widest vector in bytes the settled AVX level gives on x86.
func maxVectorSize(m *machineFacts) int64 {
	switch {
	case m.avx() >= 3:
		return 64
	case m.avx() >= 1:
		return 32
	}
	return 16
}

func (m *machineFacts) x86() bool    { return m.s.Arch() == jdk.AMD64 && m.id.Vendor != cpu.VendorUnknown }
func (m *machineFacts) amd() bool    { return m.x86() && m.id.Vendor == cpu.VendorAMD }
func (m *machineFacts) intel() bool  { return m.x86() && m.id.Vendor == cpu.VendorIntel }
func (m *machineFacts) sse() int64   { return m.s.Int("UseSSE") }
func (m *machineFacts) avx() int64   { return m.s.Int("UseAVX") }
func (m *machineFacts) gc() string   { return m.s.Collector() }
func (m *machineFacts) g1() bool     { return m.gc() == "UseG1GC" }
func (m *machineFacts) c1Only() bool { return m.c1 > 0 && m.c2 == 0 }

// boolean formats b as a flag value, for rows that always decide.
func boolean(b bool) (string, bool) { return strconv.FormatBool(b), true }

// onX86 is a boolean row that decides only on an x86 CPU of known vendor.
func onX86(f func(m *machineFacts) bool) func(m *machineFacts) (string, bool) {
	return func(m *machineFacts) (string, bool) {
		if !m.x86() {
			return "", false
		}
		return boolean(f(m))
	}
}

// perVendor is an integer row with one value for AMD and one for Intel (other vendors keep
// the table's value).
func perVendor(amd, intel int64) func(m *machineFacts) (string, bool) {
	return func(m *machineFacts) (string, bool) {
		switch {
		case m.amd():
			return strconv.FormatInt(amd, 10), true
		case m.intel():
			return strconv.FormatInt(intel, 10), true
		}
		return "", false
	}
}

// unaligned is UseUnalignedLoadStores: always on AMD (observed with UseSSE=2 too), with
// SSE4.2 on Intel (documented, not recorded).
func unaligned(m *machineFacts) bool { return m.amd() || m.feats.Has(cpu.SSE42) }

// g1RemSets gives, per G1 region size in MB, the remembered-set sizes the release derives
// from it: on 17 G1RSetRegionEntries and G1RSetSparseRegionEntries (G1EagerReclaimRemSetThreshold
// follows the sparse entries); on 25 G1RemSetArrayOfCardsEntries (which the eager-reclaim
// threshold follows) and G1RemSetHowlNumBuckets. Observed at every region size G1 chooses.
var g1RemSets = map[uint64]remSet{
	1:  {256, 8, 10, 4},
	2:  {512, 16, 16, 8},
	4:  {768, 32, 32, 8},
	8:  {1024, 64, 64, 8},
	16: {1280, 128, 128, 8},
	32: {1536, 256, 256, 8},
}

// remSet is one region size's remembered-set sizes (g1RemSets).
type remSet struct{ regionEntries, sparse, arrayOfCards, howlBuckets uint64 }

// g1RemSet returns the row of g1RemSets for the settled region size.
func (m *machineFacts) g1RemSet() (remSet, bool) {
	if !m.g1() {
		return remSet{}, false
	}
	r, ok := g1RemSets[m.s.Uint("G1HeapRegionSize")/mib]
	return r, ok
}

func uintRow(f func(m *machineFacts) (uint64, bool)) func(m *machineFacts) (string, bool) {
	return func(m *machineFacts) (string, bool) {
		v, ok := f(m)
		return strconv.FormatUint(v, 10), ok
	}
}

// Code heap sizes: with the segmented code cache, the non-method heap is 5 MB plus a buffer
// per compiler thread (576716 bytes for each C1 thread, 6592 for each C2 thread, observed
// with 2 to 18 threads); 25 rounds it up to a 4 KB page. The rest of the reserved code cache
// is split evenly between the profiled and non-profiled heaps (25: the profiled half rounded
// up to a page). Without segmentation 17 leaves the non-method size at its default and 25
// sets it to one page; both set the other two to 0.
const (
	nonNMethodBase = 5 * mib
	c1CodeBuffer   = 576716
	c2CodeBuffer   = 6592
	codePage       = 4096
)

func (m *machineFacts) nonNMethod() uint64 {
	v := uint64(nonNMethodBase + m.c1*c1CodeBuffer + m.c2*c2CodeBuffer)
	if m.s.JDK() >= jdk.R25 {
		v = (v + codePage - 1) / codePage * codePage
	}
	return v
}

func (m *machineFacts) segmented() bool {
	return m.s.Has("SegmentedCodeCache") && m.s.Bool("SegmentedCodeCache")
}

// codeHeaps: the compiler buffer sizes are x86_64's (aarch64's C2 buffer is larger: OpenJDK
// 17.0.21.1 on arm64 gave 5826252 for one thread of each), so the code heap rows apply there
// only.
func (m *machineFacts) codeHeaps() bool { return m.s.Arch() == jdk.AMD64 }

func (m *machineFacts) profiledHalf() uint64 {
	rest := m.s.Uint("ReservedCodeCacheSize") - m.s.Uint("NonNMethodCodeHeapSize")
	half := rest / 2
	if m.s.JDK() >= jdk.R25 {
		half = (half + codePage - 1) / codePage * codePage
	}
	return half
}

// bothNMethodHeaps reports whether the command line sized both nmethod heaps and left the
// non-method heap to the ergonomics.
func (m *machineFacts) bothNMethodHeaps() bool {
	return m.s.WasSetOnCommandLine("ProfiledCodeHeapSize") && m.s.WasSetOnCommandLine("NonProfiledCodeHeapSize") &&
		!m.s.WasSetOnCommandLine("NonNMethodCodeHeapSize")
}

// leastNonNMethod is 25's least non-method heap: 400 KB the code cache keeps in use and a
// code buffer per compiler thread, to a page (995328 with one thread of each).
func (m *machineFacts) leastNonNMethod() uint64 {
	v := uint64(400<<10 + m.c1*c1CodeBuffer + m.c2*c2CodeBuffer)
	return (v + codePage - 1) / codePage * codePage
}

// oneNMethodHeap is the nmethod heap the command line sized when it sized only one of the
// two ("" for none or both): the other takes what the cache has left, at least a page.
func (m *machineFacts) oneNMethodHeap() string {
	p, np := m.s.WasSetOnCommandLine("ProfiledCodeHeapSize"), m.s.WasSetOnCommandLine("NonProfiledCodeHeapSize")
	switch {
	case p && !np:
		return "ProfiledCodeHeapSize"
	case np && !p:
		return "NonProfiledCodeHeapSize"
	}
	return ""
}

// nmethodRest is what the cache leaves the nmethod heap the command line did not size, below
// the one it sized and the non-method heap: at least a page (none left: one page, the
// non-method heap shrinking on 17 and the cache growing on 25).
func (m *machineFacts) nmethodRest(given string) uint64 {
	r, used := m.s.Uint("ReservedCodeCacheSize"), m.s.Uint("NonNMethodCodeHeapSize")+m.s.Uint(given)
	if used+codePage > r {
		return codePage
	}
	return r - used
}

// metaspaceStep aligns a metaspace expansion step down to the 64 KB commit granule.
func metaspaceStep(name string) func(m *machineFacts) (string, bool) {
	return uintRow(func(m *machineFacts) (uint64, bool) {
		return m.s.Uint(name) / (64 << 10) * (64 << 10), true
	})
}

// zgcTenuring is 25's ZGC bound on object ages: each age may leave a medium page and a small
// page per concurrent GC thread of garbage in the young generation, and the ages stop
// (below MaxTenuringThreshold) once that reaches ZYoungCompactionLimit percent of the maximum
// heap. Small pages are 2 MB; a medium page is 1/32 of the heap rounded down to a power of
// two, at most 32 MB, and none when that is not above a small page. Observed from -Xmx64m (8)
// through 128m (6), 448m (12), 512m (8), 1536m (12) to 2g and above (15), and with
// ConcGCThreads and ZYoungCompactionLimit set.
func zgcTenuring(m *machineFacts) (uint64, bool) {
	if m.gc() != "UseZGC" || !m.s.Has("ZYoungCompactionLimit") {
		return 0, false
	}
	const small = 2 * mib
	maxHeap := m.s.Uint("MaxHeapSize")
	medium := uint64(small)
	for medium*2 <= min(maxHeap/32, 32*mib) {
		medium *= 2
	}
	if medium <= small {
		medium = 0
	}
	perAge := medium + small*m.s.Uint("ConcGCThreads")
	limit := float64(maxHeap) * m.s.Float("ZYoungCompactionLimit") / 100
	ages := uint64(0)
	for ages < m.s.Uint("MaxTenuringThreshold") && float64(ages*perAge) < limit {
		ages++
	}
	return ages, true
}

// spaceAlignment is the generational collectors' space alignment (Serial 64 KB, Parallel
// 512 KB, observed in MaxNewSize and MinHeapDeltaBytes); 0 for the others.
func (m *machineFacts) spaceAlignment() uint64 {
	switch m.gc() {
	case "UseSerialGC":
		return 64 << 10
	case "UseParallelGC":
		return 512 << 10
	}
	return 0
}

var (
	jdk17 = jdk.Before(jdk.R25)
	jdk25 = jdk.Since(jdk.R25)
	all   = jdk.Since(jdk.R17)
)

// machineRows is the one table of the pass, in the order it runs (a row may read a flag an
// earlier row settled); Shenandoah's mode and heuristics settings (shenandoahErgo) run last.
var machineRows = append([]machineRow{
	// --- x86 code generation, by vendor and extension -------------------------------------
	{flag: "UseAddressNop", releases: all, value: onX86(func(m *machineFacts) bool { return m.amd() || m.intel() })},
	{flag: "UseXmmLoadAndClearUpper", releases: all, value: onX86(func(m *machineFacts) bool { return !m.amd() || m.sse() >= 3 })},
	{flag: "UseXmmRegToRegMoveAll", releases: all, value: onX86(func(m *machineFacts) bool { return m.sse() >= 3 })},
	{flag: "UseXmmI2D", releases: all, value: onX86(func(m *machineFacts) bool { return m.amd() && m.sse() >= 3 })},
	{flag: "UseXmmI2F", releases: all, value: onX86(func(m *machineFacts) bool { return m.amd() && m.sse() >= 3 })},
	{flag: "UseNewLongLShift", releases: all, value: onX86(func(m *machineFacts) bool { return m.amd() })},
	{flag: "UseUnalignedLoadStores", releases: all, value: onX86(unaligned)},
	{flag: "AlignVector", releases: all, value: onX86(func(m *machineFacts) bool { return !m.s.Bool("UseUnalignedLoadStores") })},
	{flag: "UseXMMForArrayCopy", releases: all, value: onX86(unaligned)},
	{flag: "UseXMMForObjInit", releases: all, value: onX86(unaligned)},
	{flag: "UseFPUForSpilling", releases: all, value: onX86(func(m *machineFacts) bool { return m.sse() >= 4 })},
	{flag: "OptimizeFill", releases: all, value: onX86(func(m *machineFacts) bool { return m.s.JDK() >= jdk.R25 && m.avx() >= 3 })},
	{flag: "UseBMI1Instructions", releases: all, value: onX86(func(m *machineFacts) bool { return m.id.Ext.Has(cpu.BMI1) && m.avx() >= 1 })},
	{flag: "UseBMI2Instructions", releases: all, value: onX86(func(m *machineFacts) bool { return m.id.Ext.Has(cpu.BMI2) && m.avx() >= 1 })},
	{flag: "UseCountLeadingZerosInstruction", releases: all, value: onX86(func(m *machineFacts) bool { return m.id.Ext.Has(cpu.LZCNT) })},
	// TZCNT is BMI1's but not VEX-encoded: -XX:UseAVX=0 leaves it on, -XX:-UseBMI1Instructions
	// turns it off.
	{flag: "UseCountTrailingZerosInstruction", releases: all, value: onX86(func(m *machineFacts) bool {
		return m.id.Ext.Has(cpu.BMI1) && !(m.s.WasSetOnCommandLine("UseBMI1Instructions") && !m.s.Bool("UseBMI1Instructions"))
	})},
	{flag: "UsePopCountInstruction", releases: all, value: onX86(func(m *machineFacts) bool { return m.id.Ext.Has(cpu.POPCNT) })},
	{flag: "UseFMA", releases: all, value: onX86(func(m *machineFacts) bool { return m.id.Ext.Has(cpu.FMA) && m.avx() >= 1 })},
	// UseSHA: the SHA extensions, or AVX2 with BMI2 (the SHA-512 stub's needs; documented,
	// not recorded: this host has the SHA extensions); 25 needs UseSSE=4 as well.
	{flag: "UseSHA", releases: all, value: onX86(func(m *machineFacts) bool {
		return (m.id.Ext.Has(cpu.SHA) || m.avx() >= 2 && m.id.Ext.Has(cpu.BMI2)) && (m.s.JDK() < jdk.R25 || m.sse() >= 4)
	})},
	// Intrinsics that need a vector or SSE level (observed by lowering -XX:UseAVX and
	// -XX:UseSSE): a lowered level turns them off; the SHA ones need UseSHA as well.
	// MaxVectorSize: the widest vector the AVX level gives (a size the command line gave is
	// held to it after the SHA intrinsics, below).
	{flag: "MaxVectorSize", releases: all, value: func(m *machineFacts) (string, bool) {
		if !m.x86() {
			return "", false
		}
		return strconv.FormatInt(maxVectorSize(m), 10), true
	}},
	// In the order java checks them, which is the order of its warnings when the command
	// line turns on one the CPU (or the lowered level) cannot serve (observed with
	// -XX:UseSSE=2 -XX:UseAVX=0 and every switch on, 17 and 25).
	levelRow("UseCRC32Intrinsics", all, func(m *machineFacts) bool { return m.sse() >= 3 },
		"CRC32 Intrinsics requires CLMUL instructions (not available on this CPU)"),
	levelRow("UseAdler32Intrinsics", all, func(m *machineFacts) bool { return m.avx() >= 2 },
		"Adler32 Intrinsics requires avx2 instructions (not available on this CPU)"),
	levelRow("UseCRC32CIntrinsics", all, func(m *machineFacts) bool { return m.sse() >= 4 },
		"CRC32C intrinsics are not available on this CPU"),
	levelRow("UseChaCha20Intrinsics", jdk25, func(m *machineFacts) bool { return m.avx() >= 1 },
		"ChaCha20 intrinsic requires AVX instructions"),
	levelRow("UseKyberIntrinsics", jdk25, func(m *machineFacts) bool { return m.avx() >= 3 },
		"Intrinsics for ML-KEM are not available on this CPU."),
	levelRow("UseDilithiumIntrinsics", jdk25, func(m *machineFacts) bool { return m.avx() >= 3 },
		"Intrinsics for ML-DSA are not available on this CPU."),
	{flag: "UseBASE64Intrinsics", releases: all, value: onX86(base64), warn: "Base64 intrinsic requires EVEX instructions on this CPU",
		unavailable: func(m *machineFacts) bool { return !base64(m) }},
	levelRow("UseSHA1Intrinsics", all, func(m *machineFacts) bool {
		return m.s.Bool("UseSHA") && m.id.Ext.Has(cpu.SHA) && m.sse() >= 4
	}, "Intrinsics for SHA-1 crypto hash functions not available on this CPU."),
	levelRow("UseSHA256Intrinsics", all, func(m *machineFacts) bool {
		return m.s.Bool("UseSHA") && m.sse() >= 4 && (m.id.Ext.Has(cpu.SHA) || m.avx() >= 2 && m.id.Ext.Has(cpu.BMI2))
	}, "Intrinsics for SHA-224 and SHA-256 crypto hash functions not available on this CPU."),
	levelRow("UseSHA512Intrinsics", all, func(m *machineFacts) bool {
		return m.s.Bool("UseSHA") && m.avx() >= 2 && m.id.Ext.Has(cpu.BMI2)
	}, "Intrinsics for SHA-384 and SHA-512 crypto hash functions not available on this CPU."),
	// 17 has no SHA-3 intrinsic on x86; 25's needs AVX-512 and, on by default only with
	// UseSHA, stays on without it when the command line asks (-XX:-UseSHA
	// -XX:+UseSHA3Intrinsics: no warning, still true).
	levelRow("UseSHA3Intrinsics", jdk17, func(*machineFacts) bool { return false }, sha3Warning),
	{flag: "UseSHA3Intrinsics", releases: jdk25, value: onX86(func(m *machineFacts) bool { return m.s.Bool("UseSHA") && m.avx() >= 3 }),
		warn: sha3Warning, unavailable: func(m *machineFacts) bool { return m.avx() < 3 }},
	// A MaxVectorSize the command line gave is held to at least 4, then at most the widest
	// vector, then a power of two (the widest), each with java's warning, between the SHA
	// and the Poly1305 intrinsics' (17.0.15, 25.0.3: 3 is 4, 96 is 64, 48 is 64, 64 at
	// UseAVX=1 32).
	{flag: "MaxVectorSize", releases: all, clamp: func(m *machineFacts) (string, string) {
		widest, v := maxVectorSize(m), m.s.Int("MaxVectorSize")
		switch {
		case v < 4:
			return "4", "MaxVectorSize must be at least 4 on this platform"
		case v > widest:
			return strconv.FormatInt(widest, 10), fmt.Sprintf("MaxVectorSize must be at most %d on this platform", widest)
		case v&(v-1) != 0:
			return strconv.FormatInt(widest, 10), fmt.Sprintf("MaxVectorSize must be a power of 2, setting to default: %d", widest)
		}
		return "", ""
	}},
	levelRow("UsePoly1305Intrinsics", jdk25, func(m *machineFacts) bool { return m.avx() >= 3 },
		"Intrinsics for Poly1305 crypto hash functions not available on this CPU."),
	levelRow("UseIntPolyIntrinsics", jdk25, func(m *machineFacts) bool { return m.avx() >= 3 },
		"Intrinsics for Polynomial crypto functions not available on this CPU."),
	levelRow("UseVectorizedHashCodeIntrinsic", jdk25, func(m *machineFacts) bool { return m.avx() >= 2 },
		"vectorizedHashCode intrinsics are not available on this CPU"),
	{flag: "AllocatePrefetchDistance", releases: all, value: perVendor(256, 192)},
	{flag: "AllocatePrefetchStepSize", releases: all, value: perVendor(64, 64)},
	{flag: "PrefetchCopyIntervalInBytes", releases: all, value: perVendor(576, 576)},
	{flag: "PrefetchScanIntervalInBytes", releases: all, value: perVendor(576, 576)},
	{flag: "PrefetchFieldsAhead", releases: jdk17, value: perVendor(1, 1)},
	// 25 sets the JCC erratum mitigation off, ergonomically, on a CPU without the erratum
	// (every AMD part); which Intel models have it is not modelled.
	{flag: "IntelJccErratumMitigation", releases: jdk25, ergo: true, value: func(m *machineFacts) (string, bool) {
		if !m.amd() {
			return "", false
		}
		return boolean(false)
	}},

	// --- the compilers ---------------------------------------------------------------------
	// 5 where C2 may inline; a TieredStopAtLevel below 4 keeps the declared 10 in every mode,
	// -Xint and -XX:-TieredCompilation included (17.0.15, 25.0.3).
	{flag: "C1InlineStackLimit", releases: all, value: func(m *machineFacts) (string, bool) {
		if m.c1Only() || m.s.Has("TieredStopAtLevel") && m.s.Int("TieredStopAtLevel") < 4 {
			return "", false
		}
		return "5", true
	}},
	{flag: "UseOptoBiasInlining", releases: jdk17, value: func(m *machineFacts) (string, bool) {
		return boolean(m.s.Has("UseBiasedLocking") && m.s.Bool("UseBiasedLocking"))
	}},
	// The code heaps are sized as the cache is reserved, each set ergonomically whatever the
	// command line gave: a heap given keeps its size in a segmented cache and becomes 0 (25's
	// non-method heap a page) in one that is not; 17 leaves its non-method heap alone there
	// (17.0.15, 25.0.3: -XX:ProfiledCodeHeapSize=100m reads {command line, ergonomic}, -Xint
	// -XX:ProfiledCodeHeapSize=100m 0).
	{flag: "NonNMethodCodeHeapSize", releases: all, ergo: true, resets: true, value: func(m *machineFacts) (string, bool) {
		switch {
		case !m.codeHeaps():
			return "", false
		case m.segmented() && m.s.WasSetOnCommandLine("NonNMethodCodeHeapSize"):
			return strconv.FormatUint(m.s.Uint("NonNMethodCodeHeapSize"), 10), true
		case m.segmented():
			// 17 shrinks the non-method heap to leave the other nmethod heap a page when
			// the one given fills the cache (ProfiledCodeHeapSize=235m: 5238784);
			// 25 grows the cache instead (below).
			v := m.nonNMethod()
			if p, np := m.s.Uint("ProfiledCodeHeapSize"), m.s.Uint("NonProfiledCodeHeapSize"); m.bothNMethodHeaps() {
				// Both nmethod heaps given: the non-method heap takes the rest, which 25
				// holds to its least size (ProfiledCodeHeapSize=100m
				// -XX:NonProfiledCodeHeapSize=100m: 40 MB; 120m each: 995328 on 25,
				// the cache growing by it).
				v = 0
				if r := m.s.Uint("ReservedCodeCacheSize"); r > p+np {
					v = r - p - np
				}
				if m.s.JDK() >= jdk.R25 {
					v = max(v, m.leastNonNMethod())
				}
			}
			if given := m.oneNMethodHeap(); given != "" && m.s.JDK() < jdk.R25 {
				if r, x := m.s.Uint("ReservedCodeCacheSize"), m.s.Uint(given); v+x+codePage > r && x+codePage <= r {
					v = r - x - codePage
				}
			}
			return strconv.FormatUint(v, 10), true
		case m.s.JDK() >= jdk.R25:
			return strconv.Itoa(codePage), true
		}
		return "", false
	}},
	{flag: "ProfiledCodeHeapSize", releases: all, ergo: true, resets: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		if !m.codeHeaps() {
			return 0, false
		}
		if !m.segmented() {
			return 0, true
		}
		if m.s.WasSetOnCommandLine("ProfiledCodeHeapSize") {
			return m.s.Uint("ProfiledCodeHeapSize"), true
		}
		if m.oneNMethodHeap() == "NonProfiledCodeHeapSize" {
			return m.nmethodRest("NonProfiledCodeHeapSize"), true
		}
		return m.profiledHalf(), true
	})},
	{flag: "NonProfiledCodeHeapSize", releases: all, ergo: true, resets: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		if !m.codeHeaps() {
			return 0, false
		}
		if !m.segmented() {
			return 0, true
		}
		if m.s.WasSetOnCommandLine("NonProfiledCodeHeapSize") {
			return m.s.Uint("NonProfiledCodeHeapSize"), true
		}
		return m.nmethodRest("ProfiledCodeHeapSize"), true
	})},
	// 25 grows a cache the command line did not size to hold its three heaps when the one
	// nmethod heap given leaves the other less than a page (ProfiledCodeHeapSize=239m:
	// 256442368, the heaps' sum; a size given fails the start-up check instead).
	{flag: "ReservedCodeCacheSize", releases: jdk25, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		if !m.codeHeaps() || !m.segmented() {
			return 0, false
		}
		sum := m.s.Uint("NonNMethodCodeHeapSize") + m.s.Uint("ProfiledCodeHeapSize") + m.s.Uint("NonProfiledCodeHeapSize")
		return sum, sum > m.s.Uint("ReservedCodeCacheSize")
	})},

	// --- the collector -----------------------------------------------------------------------
	{flag: "ParallelRefProcEnabled", releases: all, value: func(m *machineFacts) (string, bool) {
		return boolean((m.g1() || m.gc() == "UseParallelGC") && m.s.Uint("ParallelGCThreads") > 1)
	}},
	{flag: "MaxGCPauseMillis", releases: all, value: func(m *machineFacts) (string, bool) { return "200", m.g1() }},
	{flag: "GCPauseIntervalMillis", releases: all, value: func(m *machineFacts) (string, bool) {
		switch {
		case m.g1():
			return strconv.FormatUint(m.s.Uint("MaxGCPauseMillis")+1, 10), true
		case m.gc() == "UseShenandoahGC" && m.s.JDK() >= jdk.R25:
			return "5000", true
		}
		return "", false
	}},
	{flag: "GCTimeRatio", releases: all, value: func(m *machineFacts) (string, bool) { return g1GCTimeRatio, m.g1() }},
	{flag: "ScavengeBeforeFullGC", releases: jdk17, value: func(m *machineFacts) (string, bool) {
		switch m.gc() {
		case "UseG1GC", "UseSerialGC", "UseZGC":
			return boolean(false)
		}
		return "", false
	}},
	{flag: "UseCountedLoopSafepoints", releases: all, value: func(m *machineFacts) (string, bool) { return boolean(m.loopStripMining()) }},
	// The collectors strip-mine loops only where they turn the counted-loop safepoints on
	// themselves (the command line left UseCountedLoopSafepoints alone).
	{flag: "LoopStripMiningIter", releases: all, value: func(m *machineFacts) (string, bool) {
		if !m.loopStripMining() || m.s.WasSetOnCommandLine("UseCountedLoopSafepoints") {
			return "", false
		}
		return "1000", true
	}},
	{flag: "LoopStripMiningIterShortLoop", releases: all, value: uintRow(func(m *machineFacts) (uint64, bool) {
		return m.s.Uint("LoopStripMiningIter") / 10, m.loopStripMining()
	})},
	// G1's remembered sets: sized from the region under G1 (FLAG_SET_ERGO on the eager-reclaim
	// threshold and 25's rows), 0 under every other collector.
	notG1Zero("G1RSetRegionEntries", jdk17),
	notG1Zero("G1RSetSparseRegionEntries", jdk17),
	notG1Zero("G1RemSetArrayOfCardsEntries", jdk25),
	notG1Zero("G1RemSetHowlNumBuckets", jdk25),
	notG1Zero("G1EagerReclaimRemSetThreshold", all),
	{flag: "G1RSetRegionEntries", releases: jdk17, value: uintRow(func(m *machineFacts) (uint64, bool) {
		r, ok := m.g1RemSet()
		return r.regionEntries, ok
	})},
	{flag: "G1RSetSparseRegionEntries", releases: jdk17, value: uintRow(func(m *machineFacts) (uint64, bool) {
		r, ok := m.g1RemSet()
		return r.sparse, ok
	})},
	{flag: "G1RemSetArrayOfCardsEntries", releases: jdk25, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		r, ok := m.g1RemSet()
		return r.arrayOfCards, ok
	})},
	{flag: "G1RemSetHowlNumBuckets", releases: jdk25, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		r, ok := m.g1RemSet()
		return r.howlBuckets, ok
	})},
	{flag: "G1RemSetHowlMaxNumBuckets", releases: jdk25, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		return m.s.Uint("G1RemSetHowlMaxNumBuckets"), m.g1()
	})},
	{flag: "G1EagerReclaimRemSetThreshold", releases: all, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		r, ok := m.g1RemSet()
		if m.s.JDK() >= jdk.R25 {
			return r.arrayOfCards, ok
		}
		return r.sparse, ok
	})},
	// The worker counts of the collectors gcArguments leaves at the generic count: ZGC runs
	// 60 % of the processors rounded up, Shenandoah half (at least one); both a quarter, at
	// least one, concurrently (observed with 2 to 64 processors).
	{flag: "ParallelGCThreads", releases: all, value: uintRow(func(m *machineFacts) (uint64, bool) {
		switch m.gc() {
		case "UseZGC":
			return zgcWorkers(m.s, uint64(m.cpus*6+9)/10), true
		case "UseShenandoahGC":
			return uint64(max(m.cpus/2, 1)), true
		}
		return 0, false
	})},
	{flag: "ConcGCThreads", releases: all, value: uintRow(func(m *machineFacts) (uint64, bool) {
		n := uint64(max(m.cpus/4, 1))
		if m.gc() == "UseZGC" {
			n = zgcWorkers(m.s, n)
		}
		return n, m.gc() == "UseZGC" || m.gc() == "UseShenandoahGC"
	})},
	// Shenandoah does not uncommit a heap that starts at its maximum size (observed with
	// -Xmx100m, -Xms1g -Xmx1g and -XX:MinHeapSize=1g -Xmx1g on 17 and 25).
	{flag: "ShenandoahUncommit", releases: all, value: func(m *machineFacts) (string, bool) {
		return "false", m.gc() == "UseShenandoahGC" && m.s.Uint("InitialHeapSize") == m.s.Uint("MaxHeapSize")
	}},
	{flag: "MaxTenuringThreshold", releases: jdk25, value: uintRow(zgcTenuring)},
	// Parallel's heap grows and shrinks freely and compacts nearly everything.
	gcConst("UseParallelGC", jdk17, "MarkSweepDeadRatio", "1", false),
	gcConst("UseParallelGC", all, "MinHeapFreeRatio", "0", false),
	gcConst("UseParallelGC", all, "MaxHeapFreeRatio", "100", false),
	gcConst("UseZGC", jdk17, "ZAllocationSpikeTolerance", "1.0", false),
	gcConst("UseZGC", jdk25, "LogEventsBufferEntries", "250", false),
	gcConst("UseZGC", jdk25, "TLABSize", "262144", false),
	gcConst("UseZGC", jdk25, "UseNUMA", "false", true),
	gcConst("UseZGC", jdk25, "UseNUMAInterleaving", "false", true),
	gcConst("UseShenandoahGC", all, "LogEventsBufferEntries", "250", false),
	gcConst("UseShenandoahGC", all, "TLABAllocationWeight", "90", false),
	gcConst("UseShenandoahGC", jdk25, "UseDynamicNumberOfGCThreads", "false", false),
	gcConst("UseShenandoahGC", jdk25, "UseNUMA", "false", true),
	gcConst("UseShenandoahGC", jdk25, "UseNUMAInterleaving", "false", true),
	{flag: "MaxNewSize", releases: all, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		maxHeap := m.s.Uint("MaxHeapSize")
		if m.g1() {
			region := m.s.Uint("G1HeapRegionSize")
			if region == 0 {
				return 0, false
			}
			return maxHeap / region * m.s.Uint("G1MaxNewSizePercent") / 100 * region, true
		}
		a := m.spaceAlignment()
		if a == 0 || !m.s.Has("NewRatio") {
			return 0, false
		}
		return maxHeap / (m.s.Uint("NewRatio") + 1) / a * a, true
	})},
	{flag: "NewSize", releases: all, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		a := m.spaceAlignment()
		if a == 0 || !m.s.Has("NewRatio") {
			return 0, false
		}
		return m.s.Uint("InitialHeapSize") / (m.s.Uint("NewRatio") + 1) / a * a, true
	})},
	{flag: "OldSize", releases: jdk17, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		if m.spaceAlignment() == 0 {
			return 0, false
		}
		return m.s.Uint("InitialHeapSize") - m.s.Uint("NewSize"), true
	})},
	{flag: "MinHeapDeltaBytes", releases: all, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		a := m.spaceAlignment()
		switch m.gc() {
		case "UseG1GC":
			a = m.s.Uint("G1HeapRegionSize")
		case "UseZGC":
			a = 2 * mib
		case "UseShenandoahGC":
			a = shenandoahRegionSize(m.s)
		}
		if a == 0 {
			return 0, false
		}
		return (m.s.Uint("MinHeapDeltaBytes") + a - 1) / a * a, true
	})},
	{flag: "SoftMaxHeapSize", releases: all, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		maxHeap := m.s.Uint("MaxHeapSize")
		// 25's ZGC keeps a tenth of a heap it sized itself in reserve, not of one the command
		// line sized (-Xmx, MaxHeapSize, MaxRAMPercentage; MaxRAM still gets the tenth).
		if m.gc() == "UseZGC" && m.s.JDK() >= jdk.R25 && !m.s.WasSetOnCommandLine("MaxHeapSize") && !m.s.WasSetOnCommandLine("MaxRAMPercentage") {
			return uint64(float64(maxHeap) * 0.9), true
		}
		return maxHeap, true
	})},
	{flag: "MarkStackSizeMax", releases: jdk25, ergo: true, value: uintRow(func(m *machineFacts) (uint64, bool) {
		return m.s.Uint("MarkStackSizeMax"), m.g1()
	})},
	// 25 re-sets the x86 instruction-cache flush style ergonomically, to the same value.
	{flag: "X86ICacheSync", releases: jdk25, ergo: true, value: func(m *machineFacts) (string, bool) {
		return strconv.FormatInt(m.s.Int("X86ICacheSync"), 10), m.x86()
	}},
	{flag: "MinMetaspaceExpansion", releases: all, value: metaspaceStep("MinMetaspaceExpansion")},
	{flag: "MaxMetaspaceExpansion", releases: all, value: metaspaceStep("MaxMetaspaceExpansion")},
}, shenandoahRows()...)

// levelRow is an x86 intrinsic switch that is on only while f holds (it never turns a
// switch on that the table has off).
func levelRow(flag string, releases jdk.Set, f func(m *machineFacts) bool, warn string) machineRow {
	return machineRow{flag: flag, releases: releases, value: func(m *machineFacts) (string, bool) {
		if !m.x86() || f(m) {
			return "", false
		}
		return boolean(false)
	}, warn: warn, unavailable: func(m *machineFacts) bool { return !f(m) }}
}

// base64 is UseBASE64Intrinsics' need: AVX2 on 25, AVX-512 with VL and BW on 17.
func base64(m *machineFacts) bool {
	if m.s.JDK() >= jdk.R25 {
		return m.avx() >= 2
	}
	return m.avx() >= 3 && m.feats.Has(cpu.AVX512VL) && m.feats.Has(cpu.AVX512BW)
}

// sha3Warning is java's warning for a SHA-3 intrinsic the CPU cannot serve.
const sha3Warning = "Intrinsics for SHA3-224, SHA3-256, SHA3-384 and SHA3-512 crypto hash functions not available on this CPU."

// notG1Zero is a G1 sizing row that the other collectors leave at 0.
func notG1Zero(flag string, releases jdk.Set) machineRow {
	return machineRow{flag: flag, releases: releases, value: func(m *machineFacts) (string, bool) { return "0", !m.g1() }}
}

// gcConst is a flag one collector sets to a fixed value.
// shenandoahRows are the machine rows of shenandoahErgo: each sets its flag's default (java's
// FLAG_SET_DEFAULT, so PrintFlagsFinal says {default}) under its mode or heuristics.
func shenandoahRows() []machineRow {
	rows := make([]machineRow, 0, len(shenandoahErgo))
	for _, r := range shenandoahErgo {
		name, value := r.flagValue()
		rows = append(rows, machineRow{flag: name, releases: r.releases, value: func(m *machineFacts) (string, bool) {
			return value, r.applies(m.s)
		}})
	}
	return rows
}

func gcConst(gc string, releases jdk.Set, flag, value string, ergo bool) machineRow {
	return machineRow{flag: flag, releases: releases, ergo: ergo, value: func(m *machineFacts) (string, bool) { return value, m.gc() == gc }}
}

// loopStripMining: C2 keeps safepoints in counted loops, strip-mined, under the concurrent
// collectors (G1, ZGC, Shenandoah), not under Serial or Parallel.
// loopStripMining is C2's check of the counted-loop safepoints against the strip-mining
// iteration count, after the collector chose their defaults (observed on 17.0.15 and 25.0.3,
// under -Xint and C1 only too): safepoints without an iteration count get one, a count
// without safepoints goes to 0, each with java's note on stderr (no warning prefix, not
// silenced by -XX:-PrintWarnings).
func (e *ergo) loopStripMining() {
	s := e.set
	if !s.Has("UseCountedLoopSafepoints") || !s.Has("LoopStripMiningIter") {
		return
	}
	m := &machineFacts{s: s}
	safepoints := s.Bool("UseCountedLoopSafepoints")
	iter := s.Uint("LoopStripMiningIter")
	if !s.WasSetOnCommandLine("UseCountedLoopSafepoints") && m.loopStripMining() {
		safepoints = true
		if !s.WasSetOnCommandLine("LoopStripMiningIter") {
			iter = 1000
		}
	}
	switch {
	case safepoints && iter == 0:
		e.note("When counted loop safepoints are enabled, LoopStripMiningIter must be at least 1 (a safepoint every 1 iteration): setting it to 1")
		e.setDefault("LoopStripMiningIter", "1")
	case !safepoints && iter > 0:
		e.note("Disabling counted safepoints implies no loop strip mining: setting LoopStripMiningIter to 0")
		e.setDefault("LoopStripMiningIter", "0")
	}
}

func (m *machineFacts) loopStripMining() bool {
	switch m.gc() {
	case "UseG1GC", "UseZGC", "UseShenandoahGC":
		return true
	}
	return false
}

// machinePass runs machineRows on a settled set (after the CPU pass and the heap's
// alignment). It applies to the releases with a recorded table (gcModelled); a row whose flag
// the command line set, or that the release lacks, is skipped.
func (e *ergo) machinePass(model cpu.Model, activeProcessors int) {
	s := e.set
	if !gcModelled(s) {
		return
	}
	m := &machineFacts{s: s, id: model.ID, feats: e.feats, cpus: active(s, activeProcessors)}
	if cfg, err := policy.FromFlags(s); err == nil {
		if s.Has("CICompilerCount") {
			cfg.CICompilerCount = s.Int("CICompilerCount")
		}
		m.c1, m.c2, _ = policy.CompilerCounts(active(s, activeProcessors), sizingConfig(s, cfg))
	}
	for i := range machineRows {
		r := &machineRows[i]
		if !r.releases.Has(s.JDK()) || !s.Has(r.flag) {
			continue
		}
		if s.WasSetOnCommandLine(r.flag) && !r.resets {
			if r.warn != "" && m.x86() && s.Bool(r.flag) && r.unavailable(m) {
				e.warn("%s", r.warn)
				e.setDefault(r.flag, "false")
			}
			if r.clamp != nil && m.x86() {
				if v, w := r.clamp(m); w != "" {
					e.warn("%s", w)
					e.setDefault(r.flag, v)
				}
			}
			continue
		}
		if r.value == nil {
			continue
		}
		v, ok := r.value(m)
		if !ok {
			continue
		}
		if r.ergo {
			e.setErgo(r.flag, v)
		} else {
			e.setDefault(r.flag, v)
		}
	}
}
