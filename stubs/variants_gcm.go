package stubs

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// GHASH and GCM selection rules, from hotspot.md §2.4–2.6
// (StubGenerator::generate_ghash_stubs in stubGenerator_x86_64_ghash.cpp,
// generate_aes_stubs in stubGenerator_x86_64_aes.cpp, generate_compiler_stubs
// in stubGenerator_aarch64.cpp) and the ergonomics of §3: x86 GHASH needs
// UseGHASHIntrinsics (CLMUL and UseSSE > 2); the AVX GHASH (JDK-8214074,
// JDK 12) replaces the one-block PCLMULQDQ stub (JDK-8073108, JDK 9 and 8u)
// whenever AVX is on. The combined GCM stub exists from JDK 18 (JDK-8267125,
// AVX-512 VAES; aarch64 JDK-8271567) and JDK 22 (JDK-8314901, AVX2); on x86 it
// is generated under UseAESIntrinsics alone, on aarch64 under UseAESIntrinsics
// and UseGHASHIntrinsics.
//
// Requires is HotSpot's condition, plus — for the two x86 GCM stubs — the
// carry-less multiply features the code uses but HotSpot does not test
// (every CPU with VAES has VPCLMULQDQ and AVX512BW, every AVX2 CPU has
// PCLMULQDQ), so that a selected variant never needs more than its rule
// requires.
func init() {
	x86GHASH := cpu.Of(cpu.PCLMULQDQ, cpu.SSSE3)
	vaesGCM := cpu.Of(cpu.AES, cpu.SSSE3, cpu.VAES, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512DQ,
		cpu.VPCLMULQDQ, cpu.AVX512BW, cpu.AVX2)
	avx2GCM := cpu.Of(cpu.AES, cpu.SSSE3, cpu.AVX2, cpu.PCLMULQDQ)
	armGHASH := cpu.Of(cpu.PMULL)
	const (
		ghashAVX   = "UseGHASHIntrinsics (CLMUL, UseSSE > 2) and supports_avx (UseAVX ≥ 1)"
		ghashPlain = "UseGHASHIntrinsics (CLMUL, UseSSE > 2), no AVX (JDK 8u: always this stub)"
		gcmVAES    = "UseAESIntrinsics and avx512_vaes && avx512vl && avx512dq (UseAVX = 3); JDK 18+"
		gcmAVX2    = "UseAESIntrinsics, no AVX-512 VAES with VL+DQ, supports_avx2 (UseAVX ≥ 2); JDK 22+"
		armGH      = "UseGHASHIntrinsics (aarch64 PMULL); jitsim runs its 8-block PMULL code for this generator too"
		armGHWide  = "UseGHASHIntrinsics (aarch64 PMULL); JDK 18+"
		armGCM     = "UseAESIntrinsics and UseGHASHIntrinsics (aarch64 AES, PMULL); JDK 18+"
	)
	x86AESF := UseAES | UseAESIntrinsics
	register(
		Rule{gcm.GHASHAVX8, "generate_avx_ghash_processBlocks", jdk.Since(jdk.R17), UseGHASHIntrinsics,
			x86GHASH.With(cpu.AVX), ghashAVX},
		Rule{gcm.GHASHPCLMUL, "generate_ghash_processBlocks", jdk.Since(jdk.R8u), UseGHASHIntrinsics,
			x86GHASH, ghashPlain},
		Rule{gcm.GCMVAES, "generate_galoisCounterMode_AESCrypt", jdk.Since(jdk.R21), x86AESF, vaesGCM, gcmVAES},
		Rule{gcm.GCMAVX2, "generate_avx2_galoisCounterMode_AESCrypt", jdk.Since(jdk.R25), x86AESF, avx2GCM, gcmAVX2},

		Rule{gcm.GHASHPMULL, "generate_ghash_processBlocks", jdk.Range(jdk.R8u, jdk.R21), UseGHASHIntrinsics, armGHASH, armGH},
		Rule{gcm.GHASHPMULL, "generate_ghash_processBlocks_wide", jdk.Since(jdk.R21), UseGHASHIntrinsics, armGHASH, armGHWide},
		Rule{gcm.GCMPMULL, "generate_galoisCounterMode_AESCrypt", jdk.Since(jdk.R21),
			UseAESIntrinsics | UseGHASHIntrinsics, armGHASH.With(cpu.ARM_AES), armGCM},
	)
	registerBuilt(gcm.Built()...)
}
