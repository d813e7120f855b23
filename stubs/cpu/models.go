package cpu

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// Model is a named CPU: its full feature set (for the model clock) and where
// the facts come from. Real execution under a model may use only
// [Model.Runnable].
type Model struct {
	Name        string // lookup key, e.g. "haswell-e5-2660v3"
	Description string // the part it stands for
	Arch        jdk.Arch
	Features    Set
	Cores       int    // physical cores of the part (host: logical CPUs seen by Go)
	Source      string // where each feature fact comes from
	// Memory is the machine's physical memory in bytes (host: what the kernel reports); 0
	// means DefaultMemory (PhysicalMemory).
	Memory uint64
	// ID is the vendor, family and code-generation extensions (x86; zero for arm64 and for
	// a model that gives none), which HotSpot's CPU ergonomics read (docs/flags.md).
	ID Identity
	// THP is the kernel's transparent-huge-page mode ("always", "madvise", "never"; host:
	// read from sysfs); "" means madvise, Debian's and most distributions' default.
	THP string
}

// Runnable returns the features real execution may use under m: m.Features
// intersected with [Host]. A model never adds a feature the host lacks.
func (m Model) Runnable() Set { return m.Features.Intersect(Host()) }

// x86 baselines shared by several rows.
var (
	x86SSE42  = Of(SSE2, SSE3, SSSE3, SSE41, SSE42)
	x86AVX    = x86SSE42.With(AVX, AES, PCLMULQDQ)
	x86AVX2   = x86AVX.With(AVX2)
	x86AVX512 = x86AVX2.With(AVX512F, AVX512BW, AVX512VL, AVX512DQ)
	// x86Haswell is the code-generation extensions Intel parts have from Haswell on.
	x86Haswell = ExtsOf(POPCNT, LZCNT, BMI1, BMI2, FMA, ERMS)
)

// haswellExts is the source of x86Haswell.
const haswellExts = "POPCNT, LZCNT, BMI1, BMI2, FMA and ERMS from Haswell on (Intel SDM, CPUID leaves 1, 7 and 0x80000001)"

// models is the one table of named CPUs. Each row's Source names the public
// fact sheet its feature list was taken from. Add a row to add a model.
var models = []Model{
	{
		Name:        "sandybridge-i5",
		Description: "Intel Core i5-2500K (2nd generation Core, Sandy Bridge, 2011)",
		Arch:        jdk.AMD64, Features: x86AVX, Cores: 4, ID: Identity{Vendor: VendorIntel, Family: 6, Ext: ExtsOf(POPCNT)},
		Source: "Intel ARK, Core i5-2500K: instruction set extensions SSE4.1/4.2, AVX; " +
			"Intel AES New Instructions: yes (AES-NI and PCLMULQDQ since Westmere); 4 cores; no AVX2; " +
			"family 6; POPCNT since Nehalem, no BMI/FMA/LZCNT before Haswell, ERMS from Ivy Bridge on (Intel SDM)",
	},
	{
		Name:        "haswell-e5-2660v3",
		Description: "Intel Xeon E5-2660 v3 (Haswell-EP, 2014)",
		Arch:        jdk.AMD64, Features: x86AVX2, Cores: 10, ID: Identity{Vendor: VendorIntel, Family: 6, Ext: x86Haswell},
		Source: "Intel ARK, Xeon E5-2660 v3: instruction set extensions Intel AVX2; " +
			"Intel AES New Instructions: yes; 10 cores; no AVX-512; family 6; " + haswellExts,
	},
	{
		Name:        "skylake-avx2",
		Description: "Intel Core i7-6700 (Skylake client, 2015)",
		Arch:        jdk.AMD64, Features: x86AVX2, Cores: 4, ID: Identity{Vendor: VendorIntel, Family: 6, Ext: x86Haswell},
		Source: "Intel ARK, Core i7-6700: instruction set extensions SSE4.1/4.2, AVX2; " +
			"Intel AES New Instructions: yes; 4 cores; client Skylake has no AVX-512; family 6; " + haswellExts,
	},
	{
		Name:        "icelake-server",
		Description: "Intel Xeon Platinum 8380 (3rd generation Xeon Scalable, Ice Lake-SP, 2021)",
		Arch:        jdk.AMD64, Features: x86AVX512.With(VAES, VPCLMULQDQ), Cores: 40,
		ID: Identity{Vendor: VendorIntel, Family: 6, Ext: x86Haswell.With(SHA)},
		Source: "Intel ARK, Xeon Platinum 8380: instruction set extensions AVX-512, 2 FMA units, " +
			"AES-NI, 40 cores; VAES and VPCLMULQDQ (EVEX forms) per Intel Optimization Reference " +
			"Manual, Ice Lake microarchitecture; family 6; " + haswellExts + "; SHA extensions since Ice Lake",
	},
	{
		Name:        "neoverse-n1",
		Description: "Arm Neoverse N1 (AWS Graviton2, 2019)",
		Arch:        jdk.ARM64, Features: Of(ASIMD, ARM_AES, PMULL), Cores: 64,
		Source: "Arm Neoverse N1 TRM: Armv8.2-A, optional Cryptographic Extension (AES, PMULL, SHA1, SHA256); " +
			"Graviton2 /proc/cpuinfo lists aes pmull sha1 sha2 but no sha3; 64 cores",
	},
	{
		Name:        "apple-m1",
		Description: "Apple M1 (Firestorm/Icestorm, 2020)",
		Arch:        jdk.ARM64, Features: Of(ASIMD, ARM_AES, PMULL, SHA3), Cores: 8,
		Source: "Apple M1: Armv8.5-A class; sysctl hw.optional.arm.FEAT_AES, FEAT_PMULL and " +
			"FEAT_SHA3 report 1; 4 performance + 4 efficiency cores",
	},
}

// hostModel describes this machine; Models and Lookup return it as "host".
func hostModel() Model {
	return Model{
		Name:        "host",
		Description: "the machine this process runs on (" + runtime.GOARCH + ")",
		Arch:        jdk.HostArch(),
		Features:    Host(),
		Cores:       runtime.NumCPU(),
		Source:      "golang.org/x/sys/cpu, read once at start-up",
		Memory:      hostMemory(),
		ID:          HostIdentity(),
		THP:         hostTHP(),
	}
}

// Models returns every known model, "host" first, then the table in order.
// The slice is a fresh copy.
func Models() []Model {
	return append([]Model{hostModel()}, models...)
}

// Lookup returns the model called name, or an error that lists the known names.
func Lookup(name string) (Model, error) {
	all := Models()
	names := make([]string, len(all))
	for i, m := range all {
		if m.Name == name {
			return m, nil
		}
		names[i] = m.Name
	}
	return Model{}, fmt.Errorf("stubs/cpu: unknown CPU model %q (known: %s)", name, strings.Join(names, ", "))
}
