package gcm

import (
	"errors"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The ghash_processBlocks entry: its shape, variants and probe. The generic twin is
// ghash_generic.go's GHASHGeneric.

// StubGHASH is the HotSpot StubRoutines entry name.
const StubGHASH = "ghash_processBlocks"

// GHASHFunc is the signature of StubRoutines::ghash_processBlocks
// (com.sun.crypto.provider.GHASH.processBlocks): it absorbs blocks 16-byte
// blocks of data into state, using the subkey table htbl.
type GHASHFunc func(state *[2]uint64, htbl []uint64, data []byte, blocks int)

// GHASHVariant is one implementation of the ghash_processBlocks stub: its ID and its code.
type GHASHVariant = variant.Impl[GHASHFunc]

var entryGHASH = declared.Entry(StubGHASH, ghashProber)

// HotSpot's conditions (hotspot.md §2.4–2.6: generate_ghash_stubs in
// stubGenerator_x86_64_ghash.cpp, generate_compiler_stubs in stubGenerator_aarch64.cpp):
// x86 GHASH needs UseGHASHIntrinsics (CLMUL and UseSSE > 2); the AVX GHASH (JDK-8214074,
// JDK 12) replaces the one-block PCLMULQDQ stub (JDK-8073108, JDK 9 and 8u) whenever AVX is on.
var reqGHASH = cpu.Of(cpu.PCLMULQDQ, cpu.SSSE3)

var (
	genericGHASH = entryGHASH.Generic()
	// GHASHPCLMUL is one block per PCLMULQDQ reduction (generate_ghash_processBlocks, JDK-8073108).
	GHASHPCLMUL = entryGHASH.Asm(variant.Spec{Name: "pclmul-1block", Arch: jdk.AMD64, Needs: cpu.Of(cpu.SSE2, cpu.SSSE3, cpu.PCLMULQDQ),
		Rules: []variant.Rule{{Generator: "generate_ghash_processBlocks", Releases: jdk.Since(jdk.R8u), Flags: variant.UseGHASHIntrinsics,
			Requires: reqGHASH, Condition: "UseGHASHIntrinsics (CLMUL, UseSSE > 2), no AVX (JDK 8u: always this stub)"}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return u.CLMULLat + 3*u.CLMULTp + 1000 }, PerCall: variant.CallBulk,
			Formula: "one block per iteration, serial on the hash: 4 PCLMULQDQ (latency + 3 × throughput) + ~10 cycles shift/XOR reduction and byte swap"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_avx0", Mode: "gcm-enc", Minus: "ctr"}}})
	// GHASHAVX8 is eight blocks per reduction with H¹…H⁸ (generate_avx_ghash_processBlocks).
	GHASHAVX8 = entryGHASH.Asm(variant.Spec{Name: "avx-8block", Arch: jdk.AMD64, Needs: cpu.Of(cpu.AVX, cpu.PCLMULQDQ),
		Rules: []variant.Rule{{Generator: "generate_avx_ghash_processBlocks", Releases: jdk.Since(jdk.R17), Flags: variant.UseGHASHIntrinsics,
			Requires: reqGHASH.With(cpu.AVX), Condition: "UseGHASHIntrinsics (CLMUL, UseSSE > 2) and supports_avx (UseAVX ≥ 1)"}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return 4*u.CLMULTp + (u.CLMULLat+1000)/8 + 100 }, PerCall: variant.CallBulk,
			Formula: "8 blocks per reduction with H¹…H⁸: 4 PCLMULQDQ per block at throughput, one reduction (latency + ~10 cycles) per 8 blocks, + ~1 cycle"},
		// GCM − CTR holds the Java GCM engine around the stubs, so each release takes the run
		// of its own engine: JDK-8267125's one-pass engine (implGCMCrypt, JDK 18+) from
		// Temurin 25 with the combined stub disabled, JDK 17's GCTRGHASH engine from 17.
		Host: []variant.JVMRun{
			{Run: "jdk25_c2_avx2_split", Mode: "gcm-enc", Minus: "ctr", Releases: jdk.SinceFeature(18)},
			{Run: "jdk17_c2_default", Mode: "gcm-enc", Minus: "ctr"}}})
	// GHASHPMULL is the arm64 PMULL GHASH, eight blocks per reduction
	// (generate_ghash_processBlocks_wide).
	GHASHPMULL = entryGHASH.Asm(variant.Spec{Name: "pmull-8block", Arch: jdk.ARM64, Needs: cpu.Of(cpu.ASIMD, cpu.PMULL),
		Rules: []variant.Rule{
			{Generator: "generate_ghash_processBlocks", Releases: jdk.Since(jdk.R8u) &^ jdk.SinceFeature(18), Flags: variant.UseGHASHIntrinsics,
				Requires: cpu.Of(cpu.PMULL), Condition: "UseGHASHIntrinsics (aarch64 PMULL); jitsim runs its 8-block PMULL code for this generator too"},
			{Generator: "generate_ghash_processBlocks_wide", Releases: jdk.SinceFeature(18), Flags: variant.UseGHASHIntrinsics,
				Requires: cpu.Of(cpu.PMULL), Condition: "UseGHASHIntrinsics (aarch64 PMULL); JDK 18+"},
		},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return 4*u.CLMULTp + (u.CLMULLat+800)/8 + 100 }, PerCall: variant.CallBulk,
			Formula: "wide GHASH: 4 PMULL/PMULL2 per block at throughput, one reduction (latency + ~8 cycles) per 8 blocks, + ~1 cycle"}})
)

// The code of each GHASH variant built into this binary.
var ghashCode variant.Code[GHASHFunc]

func init() { ghashCode.Add(genericGHASH, GHASHGeneric) }

// GHASHVariants lists every GHASH stub built into this binary, generic first.
// Callers run a variant only if its Needs are a subset of cpu.Host().
func GHASHVariants() []GHASHVariant { return ghashCode.Impls() }

// GHASHCode returns the code of a ghash_processBlocks variant, or false when id is none built
// into this binary.
func GHASHCode(id variant.ID) (GHASHFunc, bool) { return ghashCode.Find(id) }

func checkGHASHArgs(state *[2]uint64, htbl []uint64, data []byte, blocks int) {
	if state == nil {
		panic("stubs/gcm: nil GHASH state")
	}
	if len(htbl) < HtblLen {
		panic("stubs/gcm: subkey table shorter than gcm.HtblLen words")
	}
	if blocks < 0 || blocks > len(data)/16 {
		panic("stubs/gcm: data shorter than blocks*16 bytes")
	}
}

// ghashKernel is the assembly's shape of the GHASH stub.
type ghashKernel func(state *[2]uint64, htbl *uint64, data *byte, blocks int)

// ghashAsm wraps a GHASH kernel as a GHASHFunc: argument checks, the first-use
// precomputation of the powers of H, and the call.
func ghashAsm(k ghashKernel) GHASHFunc {
	return func(state *[2]uint64, htbl []uint64, data []byte, blocks int) {
		checkGHASHArgs(state, htbl, data, blocks)
		if blocks == 0 {
			return
		}
		fillPowers(htbl)
		k(state, &htbl[0], &data[0], blocks)
	}
}

func bindGHASH(id variant.ID, k ghashKernel) { ghashCode.Add(id, ghashAsm(k)) }

func ghashProber(id variant.ID, key, payload []byte) (func(), bool, error) {
	fn, ok := GHASHCode(id)
	g, gok := GHASHCode(id.Twin())
	if !ok || !gok {
		return nil, false, nil
	}
	d, err := newProbeData(key, payload)
	if err != nil {
		return nil, true, err
	}
	n, htbl := len(payload), d.newHtbl()
	run := func() { var st [2]uint64; fn(&st, htbl, payload, n/16) }
	var a, b [2]uint64
	g(&a, d.newHtbl(), payload, n/16)
	fn(&b, htbl, payload, n/16)
	if a != b {
		return run, true, errors.New("GHASH state differs from the generic twin")
	}
	return run, true, nil
}
