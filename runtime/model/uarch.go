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

	// The integer core's resources, per cycle: what bounds a loop of compiled Java code
	// (loopCycles). Loads, stores and memory operations in all (address units shared by
	// loads and stores), integer ALU ports, branch units (branchOnALU: they are ALU ports
	// too), operations issued (the narrowest of decode, rename and dispatch a loop meets),
	// and the L1 load-to-use latency in cycles.
	loadPorts, storePorts, memPorts, aluPorts, branchPorts, width, l1Lat int64
	branchOnALU                                                          bool
	coreSource                                                           string

	// rob is the reorder buffer's entries (instructions or µops in flight): how many
	// independent AES blocks the core overlaps across a stub loop's iterations
	// (variant.Insn.Stream).
	rob       int64
	robSource string
}

// Sources cited by several rows.
const (
	srcAgner   = "Agner Fog, Instruction tables (agner.org/optimize, instruction_tables.pdf)"
	srcUops    = "uops.info instruction latency/throughput tables"
	srcAgnerMA = "Agner Fog, The microarchitecture of Intel, AMD and VIA CPUs (agner.org/optimize, microarchitecture.pdf)"
	srcIntelC  = "Intel's published generation-over-generation IPC claims: Ivy Bridge ≈ +5% over Sandy Bridge, " +
		"Haswell ≈ +10% over Ivy Bridge (IDF 2012), Broadwell ≈ +5% over Haswell, Skylake ≈ +10% over Broadwell (IDF 2015), " +
		"Sunny Cove (Ice Lake) +18% over Skylake (Intel Architecture Day 2018, Computex 2019)"
)

// uarches is the table. The host row describes the recording machine of
// the JVM measurements (testdata/jvm): an AMD EPYC reporting CPU family 26
// (Zen 5) in /proc/cpuinfo.
var uarches = []uarch{
	{
		cpu: "host", mhz: 3450,
		mhzSource: "3450 MHz effective while the JVM rows were recorded: the recording's latency-bound aesni CBC-encrypt rows " +
			"(jdk17_c2_*, cbc-enc: 781–838 ps/byte, median 796) re-run beside calibrate's dependent one-cycle chain (2.60–2.76 cycles " +
			"per byte); the chain alone reads 3663–4049 MHz on this VM now, 3268–3344 on 2026-12-01; /proc/cpuinfo shows 2096–2695, " +
			"the hypervisor hiding the boost (docs/measurements/model-costs.md, \"The host clock\")",
		ipc: 1550,
		ipcSource: "Zen 3 ≈ Sunny Cove per clock (AnandTech, 'AMD Zen 3 Ryzen Deep Dive Review', 2020: SPEC2017 per-GHz parity with Ice/Tiger Lake); " +
			"Zen 4 +13% over Zen 3 (AMD, 2022), Zen 5 +16% over Zen 4 (AMD Computex 2024): 1.18 × 1.13 × 1.16 ≈ 1.55 × Skylake; " + srcIntelC,
		aesLat: 400, aesTp: 50, vaesTp: 50, clmulLat: 400, clmulTp: 50, vclmulTp: 100,
		insnSource: "AESENC latency 4, as measured on this host: its latency-bound CBC encryption (ten dependent AESENCs a block) " +
			"runs 43 cycles per block by calibrate's dependent one-cycle chain (docs/measurements/model-costs.md, \"The host clock\"), " +
			"where 3 would give 34; 2 per cycle; VPCLMULQDQ 2 per cycle (xmm/ymm) (" + srcUops + "; AMD Software " +
			"Optimization Guide for the Zen 5 microarchitecture); checks the stub formulas against the host's measurements, and " +
			"prices the variants a JVM calibration on x86 does not reach (formulaUarch)",
		loadPorts: 4, storePorts: 2, memPorts: 4, aluPorts: 6, branchPorts: 3, width: 6, l1Lat: 4, branchOnALU: true,
		coreSource: "Zen 5: six integer ALUs, three of them branch units; four address units: four loads, or two loads and two stores, " +
			"per cycle; about six instructions per cycle sustained (" + srcAgnerMA + ", Zen 5; AMD Software Optimization Guide for the " +
			"Zen 5 microarchitecture, pub. 58455); L1 load-to-use 4 cycles (AMD's guide)",
		rob: 448, robSource: "Zen 5: 448-entry reorder buffer (AMD Software Optimization Guide for the Zen 5 microarchitecture, pub. 58455; AMD, Hot Chips 2024)",
	},
	{
		cpu: "sandybridge-i5", mhz: 3700,
		mhzSource: "Intel ARK Core i5-2500K: 3.3 GHz base, 3.7 GHz max turbo (one core busy: the benchmarks here are single-threaded)",
		ipc:       750, ipcSource: "1/(1.05 × 1.10 × 1.05 × 1.10) ≈ 0.75 × Skylake; " + srcIntelC,
		aesLat: 800, aesTp: 100, clmulLat: 1400, clmulTp: 800,
		insnSource: srcAgner + ", Sandy Bridge: AESENC latency 8, reciprocal throughput 1; PCLMULQDQ latency 14, reciprocal throughput 8",
		loadPorts:  2, storePorts: 1, memPorts: 2, aluPorts: 3, branchPorts: 1, width: 4, l1Lat: 4, branchOnALU: true,
		coreSource: "Sandy Bridge: integer ALUs on ports 0, 1, 5, branches on port 5; ports 2 and 3 each a load or a store address, " +
			"port 4 store data; 4 µops per cycle; L1 load-to-use 4 cycles (" + srcAgnerMA + ", Sandy Bridge; Intel 64 and IA-32 " +
			"Architectures Optimization Reference Manual, Sandy Bridge microarchitecture)",
		rob: 168, robSource: "Sandy Bridge: 168-entry reorder buffer (Intel 64 and IA-32 Architectures Optimization Reference Manual, Sandy Bridge microarchitecture; " + srcAgnerMA + ")",
	},
	{
		cpu: "haswell-e5-2660v3", mhz: 3300,
		mhzSource: "Intel ARK Xeon E5-2660 v3: 2.6 GHz base, 3.3 GHz max turbo",
		ipc:       866, ipcSource: "1/(1.05 × 1.10) ≈ 0.866 × Skylake; " + srcIntelC,
		aesLat: 700, aesTp: 100, clmulLat: 700, clmulTp: 200,
		insnSource: "AESENC latency 7, throughput 1 per cycle on Haswell (Bogdanov, Lauridsen, Tischhauser, 'Comb to Pipeline', FSE 2015, §1); " +
			"PCLMULQDQ latency 7, reciprocal throughput 2 (" + srcAgner + ", Haswell)",
		loadPorts: 2, storePorts: 1, memPorts: 3, aluPorts: 4, branchPorts: 2, width: 4, l1Lat: 4, branchOnALU: true,
		coreSource: haswellCore + "Haswell)",
		rob:        192, robSource: "Haswell: 192-entry reorder buffer (Intel Optimization Reference Manual, Haswell microarchitecture; " + srcAgnerMA + ")",
	},
	{
		cpu: "skylake-avx2", mhz: 4000,
		mhzSource: "Intel ARK Core i7-6700: 3.4 GHz base, 4.0 GHz max turbo",
		ipc:       1000, ipcSource: "the reference (1.0)",
		aesLat: 400, aesTp: 50, clmulLat: 700, clmulTp: 100,
		insnSource: srcAgner + ", Skylake: AESENC latency 4, reciprocal throughput 0.5; PCLMULQDQ latency 7, reciprocal throughput 1",
		loadPorts:  2, storePorts: 1, memPorts: 3, aluPorts: 4, branchPorts: 2, width: 4, l1Lat: 4, branchOnALU: true,
		coreSource: haswellCore + "Skylake)",
		rob:        224, robSource: "Skylake: 224-entry reorder buffer (Intel Optimization Reference Manual, Skylake client microarchitecture; " + srcAgnerMA + ")",
	},
	{
		cpu: "icelake-server", mhz: 3400,
		mhzSource: "Intel ARK Xeon Platinum 8380: 2.3 GHz base, 3.4 GHz max turbo",
		ipc:       1180, ipcSource: "+18% over Skylake; " + srcIntelC,
		aesLat: 300, aesTp: 50, vaesTp: 100, clmulLat: 600, clmulTp: 100, vclmulTp: 100,
		insnSource: srcUops + ", Ice Lake: AESENC latency 3, reciprocal throughput 0.5; VAESENC zmm reciprocal throughput 1 " +
			"(one 512-bit AES unit); PCLMULQDQ latency 6, reciprocal throughput 1; VPCLMULQDQ zmm reciprocal throughput 1",
		loadPorts: 2, storePorts: 2, memPorts: 4, aluPorts: 4, branchPorts: 2, width: 5, l1Lat: 5, branchOnALU: true,
		coreSource: "Sunny Cove: integer ALUs on ports 0, 1, 5, 6, branches on 0 and 6; loads on ports 2 and 3, store addresses on 7 " +
			"and 8, store data on 4 and 9; 5-wide rename; L1 load-to-use 5 cycles (" + srcAgnerMA + ", Ice Lake; Intel Optimization " +
			"Reference Manual, Ice Lake client/server microarchitecture)",
		rob: 352, robSource: "Sunny Cove: 352-entry reorder buffer (Intel Architecture Day 2018; Intel Optimization Reference Manual, Ice Lake client/server microarchitecture)",
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
		loadPorts: 2, storePorts: 1, memPorts: 2, aluPorts: 3, branchPorts: 1, width: 4, l1Lat: 4,
		coreSource: "Arm Neoverse N1 Software Optimization Guide, §2 and §3: two load/store pipelines (two loads, or a load and a " +
			"store, per cycle), two single-cycle integer pipes and one multi-cycle integer pipe, one branch pipe of its own; " +
			"4 instructions decoded per cycle; L1 load-to-use 4 cycles",
		rob: 128, robSource: "Neoverse N1: up to 128 instructions in flight (Arm Neoverse N1 Software Optimization Guide, §2; Arm, Hot Chips 2019)",
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
		loadPorts: 3, storePorts: 2, memPorts: 4, aluPorts: 6, branchPorts: 2, width: 8, l1Lat: 3, branchOnALU: true,
		coreSource: "Dougall Johnson, Apple M1 Firestorm microarchitecture (dougallj.github.io/applecpu/firestorm.html): six integer " +
			"ALUs, two of which take branches; four load/store units (up to three loads and two stores per cycle); 8-wide decode; " +
			"AnandTech, 'Apple Announces The Apple Silicon M1': L1 load-to-use 3 cycles",
		rob: 630, robSource: "Firestorm: about 630 instructions in flight (Dougall Johnson, Apple M1 Firestorm microarchitecture, dougallj.github.io/applecpu/firestorm.html; AnandTech, 'Apple Announces The Apple Silicon M1')",
	},
}

// haswellCore is the integer core Haswell and Skylake share.
const haswellCore = "integer ALUs on ports 0, 1, 5, 6, branches on 0 and 6; loads on ports 2 and 3 (each also a store address), " +
	"a simple store address on 7, store data on 4; 4 µops per cycle; L1 load-to-use 4 cycles (" + srcAgnerMA + ", "

func lookupUarch(cpu string) (uarch, bool) {
	for _, u := range uarches {
		if u.cpu == cpu {
			return u, true
		}
	}
	return uarch{}, false
}
