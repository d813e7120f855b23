package gcm

import (
	"bytes"
	"errors"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The galoisCounterMode_AESCrypt entry: its shape, variants and probe. The generic twin is
// gcm_generic.go's GCMGeneric.

// StubGCM is the HotSpot StubRoutines entry name.
const StubGCM = "galoisCounterMode_AESCrypt"

// GCMFunc is the signature of StubRoutines::galoisCounterMode_AESCrypt
// (com.sun.crypto.provider.GaloisCounterMode.implGCMCrypt0): AES-CTR with the
// inc32 counter ctr over a prefix of src into dst, and GHASH of the matching
// prefix of ct into state. It returns the number of bytes processed (a
// multiple of the stub's granularity); the caller finishes the rest. ct is
// dst when encrypting and src when decrypting; as in HotSpot, ct aliasing dst
// means encryption, so in-place (dst == src) is always encryption.
type GCMFunc func(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int

// GCMVariant is one implementation of the galoisCounterMode_AESCrypt stub.
type GCMVariant = variant.Impl[GCMFunc]

var entryGCM = declared.Entry(StubGCM, gcmProber)

// HotSpot's conditions (hotspot.md §2.4–2.6): the combined GCM stub exists from JDK 18
// (JDK-8267125, AVX-512 VAES; aarch64 JDK-8271567) and JDK 22 (JDK-8314901, AVX2); on x86 it
// is generated under UseAESIntrinsics alone, on aarch64 under UseAESIntrinsics and
// UseGHASHIntrinsics. The two x86 rules also require the carry-less multiply features the
// code uses but HotSpot does not test (every CPU with VAES has VPCLMULQDQ and AVX512BW, every
// AVX2 CPU has PCLMULQDQ), so that a selected variant never needs more than its rule requires.
var (
	genericGCM = entryGCM.Generic()
	// GCMAVX2 is AES rounds of eight xmm blocks interleaved with the GHASH of eight
	// (generate_avx2_galoisCounterMode_AESCrypt, JDK-8314901). Its code uses VEX-encoded AVX
	// only; HotSpot generates it when the CPU has AVX2, which the selection rule says.
	GCMAVX2 = entryGCM.Asm(variant.Spec{Name: "avx2-interleaved8", Arch: jdk.AMD64, Needs: cpu.Of(cpu.AVX, cpu.AES, cpu.PCLMULQDQ),
		Rules: []variant.Rule{{Generator: "generate_avx2_galoisCounterMode_AESCrypt", Releases: jdk.SinceFeature(22),
			Flags: variant.UseAES | variant.UseAESIntrinsics, Requires: cpu.Of(cpu.AES, cpu.SSSE3, cpu.AVX2, cpu.PCLMULQDQ),
			Condition: "UseAESIntrinsics, no AVX-512 VAES with VL+DQ, supports_avx2 (UseAVX ≥ 2); JDK 22+"}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 {
			return max(variant.CostRounds*u.AESTp, 4*u.CLMULTp) + (u.CLMULLat+1000)/8 + 200
		}, PerCall: variant.CallGCM,
			Formula: "AES-CTR and GHASH interleaved 8 blocks at a time on different ports: max(10 × AESENC throughput, 4 × PCLMULQDQ throughput) + reduction/8 + ~2 cycles"},
		Host: []variant.JVMRun{{Run: "jdk25_c2_avx2", Mode: "gcm-enc"}}})
	// GCMVAESYMM is the VAES/VPCLMULQDQ kernel on ymm registers, 16 blocks per reduction: the
	// measured alternative to GCMVAES, which no selection rule picks.
	GCMVAESYMM = entryGCM.Asm(variant.Spec{Name: "vaes-avx512-ymm", Arch: jdk.AMD64,
		Needs: cpu.Of(cpu.AVX2, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512BW, cpu.VAES, cpu.VPCLMULQDQ)})
	// GCMVAES is the VAES/VPCLMULQDQ kernel on zmm registers, 32 blocks per reduction
	// (generate_galoisCounterMode_AESCrypt, JDK-8267125).
	GCMVAES = entryGCM.Asm(variant.Spec{Name: "vaes-avx512", Arch: jdk.AMD64,
		Needs: cpu.Of(cpu.AVX2, cpu.AVX512F, cpu.AVX512BW, cpu.VAES, cpu.VPCLMULQDQ),
		Rules: []variant.Rule{{Generator: "generate_galoisCounterMode_AESCrypt", Releases: jdk.SinceFeature(18),
			Flags: variant.UseAES | variant.UseAESIntrinsics,
			Requires: cpu.Of(cpu.AES, cpu.SSSE3, cpu.VAES, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512DQ,
				cpu.VPCLMULQDQ, cpu.AVX512BW, cpu.AVX2),
			Condition: "UseAESIntrinsics and avx512_vaes && avx512vl && avx512dq (UseAVX = 3); JDK 18+"}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 {
			return max(variant.CostRounds*u.VAESTp/4, 4*u.VCLMULTp/4) + 100
		}, PerCall: variant.CallGCM,
			Formula: "AES and GHASH interleaved 16+ blocks at a time in zmm: max(10 × VAESENC-zmm throughput / 4, 4 × VPCLMULQDQ-zmm throughput / 4) + ~1 cycle"},
		Host: []variant.JVMRun{{Run: "jdk25_c2_default", Mode: "gcm-enc"}}})
	// GCMPMULL is AES-then-GHASH over eight blocks on arm64 (generate_galoisCounterMode_AESCrypt,
	// JDK-8271567).
	GCMPMULL = entryGCM.Asm(variant.Spec{Name: "aes-pmull-8block", Arch: jdk.ARM64, Needs: cpu.Of(cpu.ASIMD, cpu.ARM_AES, cpu.PMULL),
		Rules: []variant.Rule{{Generator: "generate_galoisCounterMode_AESCrypt", Releases: jdk.SinceFeature(18),
			Flags: variant.UseAESIntrinsics | variant.UseGHASHIntrinsics, Requires: cpu.Of(cpu.PMULL, cpu.ARM_AES),
			Condition: "UseAESIntrinsics and UseGHASHIntrinsics (aarch64 AES, PMULL); JDK 18+"}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 {
			return u.Stream(8, variant.CostRounds*u.AESTp, variant.CostRounds*u.AESLat, uopsGCMPMULLAES) + 4*u.CLMULTp + (u.CLMULLat+800)/8
		}, PerCall: variant.CallGCM,
			Formula: "AES-CTR over 8 blocks, then GHASH over them (not interleaved): the AES side independent blocks, max(10 × AESE+AESMC throughput, 10 × latency / blocks in flight, its 23 instructions a block / issue width), + 4 PMULL throughput + reduction/8"}})
)

// uopsGCMPMULLAES is the AES side's instructions per block (×100) in aes-pmull-8block's loop,
// AES-128, counted from gcm_arm64.s: 80 AESE + 72 AESMC, 8 final EORs and 25 for the counters
// per 8 blocks. The GHASH side's are priced by its own terms.
const uopsGCMPMULLAES = 2313

// The code of each GCM variant built into this binary.
var gcmCode variant.Code[GCMFunc]

func init() { gcmCode.Add(genericGCM, GCMGeneric) }

// GCMVariants lists every GCM stub built into this binary, generic first.
// Callers run a variant only if its Needs are a subset of cpu.Host().
func GCMVariants() []GCMVariant { return gcmCode.Impls() }

// GCMCode returns the code of a galoisCounterMode_AESCrypt variant, or false when id is none
// built into this binary.
func GCMCode(id variant.ID) (GCMFunc, bool) { return gcmCode.Find(id) }

// gcmLen checks the arguments of a GCMFunc and returns the number of bytes the
// stub may touch, rounded down to whole blocks of gran bytes.
func gcmLen(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte, gran int) int {
	switch len(xk) {
	case 44, 52, 60:
	default:
		panic("stubs/gcm: expanded key must have 44, 52 or 60 words")
	}
	if ctr == nil || state == nil {
		panic("stubs/gcm: nil counter or GHASH state")
	}
	if len(htbl) < HtblLen {
		panic("stubs/gcm: subkey table shorter than gcm.HtblLen words")
	}
	if len(dst) < len(src) {
		panic("stubs/gcm: output smaller than input")
	}
	if len(ct) < len(src) {
		panic("stubs/gcm: ciphertext slice smaller than input")
	}
	n := len(src) / gran * gran
	if n > 0 && &ct[0] != &dst[0] && &ct[0] != &src[0] {
		panic("stubs/gcm: ct must be dst (encrypting) or src (decrypting)")
	}
	return n
}

func encrypting(dst, ct []byte) bool { return len(ct) > 0 && len(dst) > 0 && &ct[0] == &dst[0] }

// gcmKernel is the amd64 assembly's shape of a GCM kernel, one for each direction; chunks
// count 8·w blocks (w = blocks per vector register: 1 for AVX2, 2 for VAES (ymm), 4 for
// VAES512 (zmm)).
type gcmKernel func(xk *uint32, rounds int, ctr *[16]byte, state *[2]uint64, htbl *uint64, dst, src *byte, chunks int)

// gcmAsm wraps an encrypting and a decrypting GCM kernel of granularity gran bytes as a
// GCMFunc.
func gcmAsm(enc, dec gcmKernel, gran int) GCMFunc {
	return func(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int {
		n := gcmLen(xk, ctr, state, htbl, dst, src, ct, gran)
		if n == 0 {
			return 0
		}
		fillPowers(htbl)
		k := dec
		if encrypting(dst, ct) {
			k = enc
		}
		k(&xk[0], len(xk)/4-1, ctr, state, &htbl[0], &dst[0], &src[0], n/gran)
		return n
	}
}

// gcmKernelCT is the shape of a GCM kernel that takes the ciphertext pointer itself
// (hashing each chunk after encrypting it), as the arm64 one does.
//
//lint:ignore U1000 the arm64 kernel's shape; zcode_arm64.go uses it, an amd64 build does not compile that file
type gcmKernelCT func(xk *uint32, rounds int, ctr *[16]byte, state *[2]uint64, htbl *uint64, dst, src, ct *byte, chunks int)

// gcmAsmCT wraps a gcmKernelCT of granularity gran bytes as a GCMFunc.
//
//lint:ignore U1000 see gcmKernelCT
func gcmAsmCT(k gcmKernelCT, gran int) GCMFunc {
	return func(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int {
		n := gcmLen(xk, ctr, state, htbl, dst, src, ct, gran)
		if n == 0 {
			return 0
		}
		fillPowers(htbl)
		k(&xk[0], len(xk)/4-1, ctr, state, &htbl[0], &dst[0], &src[0], &ct[0], n/gran)
		return n
	}
}

// bindGCM attaches an amd64 kernel pair to its variant (zcode_amd64.go calls it).
func bindGCM(id variant.ID, enc, dec gcmKernel, gran int) { gcmCode.Add(id, gcmAsm(enc, dec, gran)) }

// bindGCMCT attaches an arm64 kernel to its variant (zcode_arm64.go calls it).
//
//lint:ignore U1000 see gcmKernelCT
func bindGCMCT(id variant.ID, k gcmKernelCT, gran int) { gcmCode.Add(id, gcmAsmCT(k, gran)) }

func gcmProber(id variant.ID, key, payload []byte) (func(), bool, error) {
	fn, ok := GCMCode(id)
	g, gok := GCMCode(id.Twin())
	if !ok || !gok {
		return nil, false, nil
	}
	d, err := newProbeData(key, payload)
	if err != nil {
		return nil, true, err
	}
	out, htbl := make([]byte, len(payload)), d.newHtbl()
	run := func() {
		var c [16]byte
		var st [2]uint64
		fn(d.ke, &c, &st, htbl, out, payload, out)
	}
	want := make([]byte, len(payload))
	var c1, c2 [16]byte
	var a, b [2]uint64
	m := g(d.ke, &c1, &a, d.newHtbl(), want, payload, want)
	k := fn(d.ke, &c2, &b, htbl, out, payload, out)
	// A variant processes a prefix (its granularity); compare what both did.
	k = min(k, m)
	if k == 0 {
		return run, true, errors.New("processed no bytes")
	}
	if !bytes.Equal(out[:k], want[:k]) {
		return run, true, errors.New("output differs from the generic twin")
	}
	return run, true, nil
}
