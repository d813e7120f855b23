package model

// uarch is what the profiles use about one microarchitecture: its clock,
// its integer throughput per clock relative to Skylake (for scaling the
// cost of JIT-compiled and interpreted Java code and of the JIT compilers
// themselves), and the latency and reciprocal throughput, in cycles, of
// the instructions the crypto stubs are made of. Every field has its
// source beside it; docs/model.md collects them.
type uarch struct {
	cpu       string // stubs/cpu model name
	mhz       int64  // clock used for the costs
	mhzSource string
	ipc       int64 // Java/JIT code per clock, Skylake = 1000
	ipcSource string
	arm       bool

	// cycles ×100 (e.g. 50 = 0.5 cycles). aes* is AESENC/AESDEC (x86) or
	// a fused AESE+AESMC pair (arm64) on 128 bits; vaes* the 512-bit VAES
	// form (4 blocks); clmul* PCLMULQDQ or PMULL/PMULL2 (64×64); vclmul*
	// the 512-bit VPCLMULQDQ form (4 products).
	aesLat, aesTp, vaesTp, clmulLat, clmulTp, vclmulTp int64
	insnSource                                         string
}

// Sources cited by several rows.
const (
	srcAgner  = "Agner Fog, Instruction tables (agner.org/optimize, instruction_tables.pdf)"
	srcUops   = "uops.info instruction latency/throughput tables"
	srcIntelC = "Intel's published generation-over-generation IPC claims: Ivy Bridge ≈ +5% over Sandy Bridge, " +
		"Haswell ≈ +10% over Ivy Bridge (IDF 2012), Broadwell ≈ +5% over Haswell, Skylake ≈ +10% over Broadwell (IDF 2015), " +
		"Sunny Cove (Ice Lake) +18% over Skylake (Intel Architecture Day 2018, Computex 2019)"
)

// uarches is the table. The host row describes the recording machine of
// the JVM measurements (testdata/jvm): an AMD EPYC reporting CPU family 26
// (Zen 5) in /proc/cpuinfo.
var uarches = []uarch{
	{
		cpu: "host", mhz: 2100,
		mhzSource: "/proc/cpuinfo 'cpu MHz' 2096 on the recording VM (AMD EPYC, family 26 = Zen 5); the hypervisor hides boost, " +
			"so 2.1 GHz is the nominal clock; `jitsim calibrate` measures the effective clock with a dependent multiply-add chain",
		ipc: 1550,
		ipcSource: "Zen 3 ≈ Sunny Cove per clock (AnandTech, 'AMD Zen 3 Ryzen Deep Dive Review', 2020: SPEC2017 per-GHz parity with Ice/Tiger Lake); " +
			"Zen 4 +13% over Zen 3 (AMD, 2022), Zen 5 +16% over Zen 4 (AMD Computex 2024): 1.18 × 1.13 × 1.16 ≈ 1.55 × Skylake; " + srcIntelC,
		aesLat: 300, aesTp: 50, vaesTp: 50, clmulLat: 400, clmulTp: 50, vclmulTp: 100,
		insnSource: "AMD Zen 4/5: AESENC latency 3–4, 2 per cycle; VPCLMULQDQ 2 per cycle (xmm/ymm) (" + srcUops + "; AMD Software " +
			"Optimization Guide for the Zen 5 microarchitecture); only used to check the stub formulas against the host's measurements",
	},
	{
		cpu: "sandybridge-i5", mhz: 3700,
		mhzSource: "Intel ARK Core i5-2500K: 3.3 GHz base, 3.7 GHz max turbo (one core busy: the benchmarks here are single-threaded)",
		ipc:       750, ipcSource: "1/(1.05 × 1.10 × 1.05 × 1.10) ≈ 0.75 × Skylake; " + srcIntelC,
		aesLat: 800, aesTp: 100, clmulLat: 1400, clmulTp: 800,
		insnSource: srcAgner + ", Sandy Bridge: AESENC latency 8, reciprocal throughput 1; PCLMULQDQ latency 14, reciprocal throughput 8",
	},
	{
		cpu: "haswell-e5-2660v3", mhz: 3300,
		mhzSource: "Intel ARK Xeon E5-2660 v3: 2.6 GHz base, 3.3 GHz max turbo",
		ipc:       866, ipcSource: "1/(1.05 × 1.10) ≈ 0.866 × Skylake; " + srcIntelC,
		aesLat: 700, aesTp: 100, clmulLat: 700, clmulTp: 200,
		insnSource: "AESENC latency 7, throughput 1 per cycle on Haswell (Bogdanov, Lauridsen, Tischhauser, 'Comb to Pipeline', FSE 2015, §1); " +
			"PCLMULQDQ latency 7, reciprocal throughput 2 (" + srcAgner + ", Haswell)",
	},
	{
		cpu: "skylake-avx2", mhz: 4000,
		mhzSource: "Intel ARK Core i7-6700: 3.4 GHz base, 4.0 GHz max turbo",
		ipc:       1000, ipcSource: "the reference (1.0)",
		aesLat: 400, aesTp: 50, clmulLat: 700, clmulTp: 100,
		insnSource: srcAgner + ", Skylake: AESENC latency 4, reciprocal throughput 0.5; PCLMULQDQ latency 7, reciprocal throughput 1",
	},
	{
		cpu: "icelake-server", mhz: 3400,
		mhzSource: "Intel ARK Xeon Platinum 8380: 2.3 GHz base, 3.4 GHz max turbo",
		ipc:       1180, ipcSource: "+18% over Skylake; " + srcIntelC,
		aesLat: 300, aesTp: 50, vaesTp: 100, clmulLat: 600, clmulTp: 100, vclmulTp: 100,
		insnSource: srcUops + ", Ice Lake: AESENC latency 3, reciprocal throughput 0.5; VAESENC zmm reciprocal throughput 1 " +
			"(one 512-bit AES unit); PCLMULQDQ latency 6, reciprocal throughput 1; VPCLMULQDQ zmm reciprocal throughput 1",
	},
	{
		cpu: "neoverse-n1", mhz: 2500, arm: true,
		mhzSource: "AWS Graviton2: 2.5 GHz, no turbo (AWS EC2 M6g/C6g documentation)",
		ipc:       1000,
		ipcSource: "Neoverse N1 ≈ Skylake per clock on SPECint2017 rate-1 (AnandTech, 'Amazon's Arm-based Graviton2 Against AMD and Intel', 2020: " +
			"Graviton2 at 2.5 GHz within about 10–20% of Skylake-SP at 3.1 GHz+ single-threaded) — a coarse factor",
		aesLat: 200, aesTp: 50, clmulLat: 200, clmulTp: 100,
		insnSource: "Arm Neoverse N1 Software Optimization Guide, §3.15 cryptography: AESE/AESD/AESMC/AESIMC latency 2, " +
			"throughput 2 per cycle (AESE+AESMC pairs fuse); PMULL/PMULL2 (64-bit) latency 2, throughput 1",
	},
	{
		cpu: "apple-m1", mhz: 3200, arm: true,
		mhzSource: "Apple M1 Firestorm performance core: 3.2 GHz",
		ipc:       1770,
		ipcSource: "AnandTech 'The 2020 Mac Mini Unleashed: Putting Apple Silicon M1 To The Test': M1 at 3.2 GHz ≈ Zen 3 at ~4.9 GHz on " +
			"SPECint2017 single-thread, i.e. ≈ 1.5 × Zen 3 ≈ 1.5 × 1.18 ≈ 1.77 × Skylake per clock",
		aesLat: 300, aesTp: 25, clmulLat: 300, clmulTp: 25,
		insnSource: "Dougall Johnson, Apple M1 Firestorm instruction tables (dougallj.github.io/applecpu/firestorm-simd.html): " +
			"fused AESE+AESMC latency 3, four SIMD pipes (throughput 4 per cycle); PMULL latency 3, throughput 4 per cycle",
	},
}

func lookupUarch(cpu string) (uarch, bool) {
	for _, u := range uarches {
		if u.cpu == cpu {
			return u, true
		}
	}
	return uarch{}, false
}
