package gcm

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Which variants do the GHASH and GCM stubs have, and what does each one's code need? This
// file is the one declaration of each: its StubRoutines entry, its name, the architecture of
// its assembly and the CPU features that assembly uses (avo's "Requires" lines on amd64,
// TestNeedsCoverAsmRequires). The code is in gcm_amd64.go and gcm_arm64.go (one GOARCH each,
// not under the purego tag), ghash_generic.go and gcm_generic.go.

// HotSpot StubRoutines entry names.
const (
	StubGHASH = "ghash_processBlocks"
	StubGCM   = "galoisCounterMode_AESCrypt"
)

// The ghash_processBlocks variants: the generic twin (GHASHGeneric, the Java body: blockMult
// per block) first, then the assembly.
var (
	genericGHASH = generic(StubGHASH)
	// GHASHPCLMUL is one block per PCLMULQDQ reduction (generate_ghash_processBlocks, JDK-8073108).
	GHASHPCLMUL = asm(StubGHASH, "pclmul-1block", jdk.AMD64, cpu.Of(cpu.SSE2, cpu.SSSE3, cpu.PCLMULQDQ))
	// GHASHAVX8 is eight blocks per reduction with H¹…H⁸ (generate_avx_ghash_processBlocks).
	GHASHAVX8 = asm(StubGHASH, "avx-8block", jdk.AMD64, cpu.Of(cpu.AVX, cpu.PCLMULQDQ))
	// GHASHPMULL is the arm64 PMULL GHASH, eight blocks per reduction
	// (generate_ghash_processBlocks_wide).
	GHASHPMULL = asm(StubGHASH, "pmull-8block", jdk.ARM64, cpu.Of(cpu.ASIMD, cpu.PMULL))
)

// The galoisCounterMode_AESCrypt variants: the generic twin (GCMGeneric, the Java body of
// implGCMCrypt0: GCTR then GHASH) first, then the assembly.
var (
	genericGCM = generic(StubGCM)
	// GCMAVX2 is AES rounds of eight xmm blocks interleaved with the GHASH of eight
	// (generate_avx2_galoisCounterMode_AESCrypt, JDK-8314901). Its code uses VEX-encoded AVX
	// only; HotSpot generates it when the CPU has AVX2, which the selection rule says.
	GCMAVX2 = asm(StubGCM, "avx2-interleaved8", jdk.AMD64, cpu.Of(cpu.AVX, cpu.AES, cpu.PCLMULQDQ))
	// GCMVAESYMM is the VAES/VPCLMULQDQ kernel on ymm registers, 16 blocks per reduction: the
	// measured alternative to GCMVAES, which no selection rule picks.
	GCMVAESYMM = asm(StubGCM, "vaes-avx512-ymm", jdk.AMD64,
		cpu.Of(cpu.AVX2, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512BW, cpu.VAES, cpu.VPCLMULQDQ))
	// GCMVAES is the VAES/VPCLMULQDQ kernel on zmm registers, 32 blocks per reduction
	// (generate_galoisCounterMode_AESCrypt, JDK-8267125).
	GCMVAES = asm(StubGCM, "vaes-avx512", jdk.AMD64, cpu.Of(cpu.AVX2, cpu.AVX512F, cpu.AVX512BW, cpu.VAES, cpu.VPCLMULQDQ))
	// GCMPMULL is AES-then-GHASH over eight blocks on arm64 (generate_galoisCounterMode_AESCrypt,
	// JDK-8271567).
	GCMPMULL = asm(StubGCM, "aes-pmull-8block", jdk.ARM64, cpu.Of(cpu.ASIMD, cpu.ARM_AES, cpu.PMULL))
)

// declared holds every variant declared above, in declaration order.
var declared variant.List

var (
	generic = declared.Generic
	asm     = declared.Declare
)

// Variants returns every GHASH and GCM variant, of every architecture, whether or not this
// binary has its code, in declaration order: by entry, each entry's generic twin first.
func Variants() []variant.ID { return declared.IDs() }

// Built returns the variants whose code is in this binary, in the order of the variant lists.
func Built() []variant.ID { return append(variant.IDs(GHASHVariants), variant.IDs(GCMVariants)...) }

// GHASHCode returns the code of a ghash_processBlocks variant, or false when id is none built
// into this binary.
func GHASHCode(id variant.ID) (GHASHFunc, bool) { return variant.Find(id, GHASHVariants) }

// GCMCode returns the code of a galoisCounterMode_AESCrypt variant, or false when id is none
// built into this binary.
func GCMCode(id variant.ID) (GCMFunc, bool) { return variant.Find(id, GCMVariants) }

// FillTable writes into htbl[2:HtblLen] what variant id's code keeps there for the H in
// htbl[0:2] — the powers of H that every assembly variant of this binary computes on its
// first call, unless they are there already — so that a caller can compute a table once and
// copy it into fresh ones. It leaves htbl alone for a generic twin (which reads only H) and
// for a variant whose code is not in this binary. It panics, as the stubs do, if htbl is
// shorter than HtblLen.
func FillTable(id variant.ID, htbl []uint64) {
	if len(htbl) < HtblLen {
		panic("stubs/gcm: subkey table shorter than gcm.HtblLen words")
	}
	_, ghash := GHASHCode(id)
	_, gcm := GCMCode(id)
	if id.IsGeneric() || !ghash && !gcm {
		return
	}
	fillPowers(htbl)
}
