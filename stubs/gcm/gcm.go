// Package gcm holds jitsim's native GHASH and AES-GCM stubs — the machine code
// HotSpot's StubRoutines::ghash_processBlocks and galoisCounterMode_AESCrypt
// entries stand for — and their generic Go twins.
//
// # State formats
//
// GHASH state and the hash subkey H are held the way the JDK's GHASH object
// holds them: a long[2] whose element 0 is the big-endian high 64 bits of the
// 128-bit field element (SP 800-38D §6.3) and element 1 the low 64 bits. The
// subkey table htbl starts with H (htbl[0], htbl[1]); the rest, up to
// [HtblLen], is stub-private space that the asm stubs fill with powers of H
// on first use, when htbl[2:] is all zero — as HotSpot's AVX GHASH/GCM stubs
// fill the JDK's subkeyHtbl. A caller that changes H must zero htbl[2:].
//
// The GCM counter is a 16-byte block incremented with inc32 (SP 800-38D §6.5):
// only its last four bytes, big-endian, wrap.
package gcm

import (
	"github.com/jitsim/jitsim/stubs/cpu"
)

// HtblLen is the minimum length of the subkey table every GHASH and GCM stub
// takes: H itself (2 words), H¹…H³² in the asm stubs' private layout
// (64 words) and Karatsuba operands for H¹…H⁸ (16 words). The JDK's GHASH.subkeyHtbl is at least this long.
const HtblLen = 2 + 2*maxPowers + 2*karatsubaPowers

// karatsubaPowers is the number of powers of H for which the asm stubs keep
// a Karatsuba middle operand (the 8-block xmm GHASH and GCM kernels).
const karatsubaPowers = 8

// maxPowers is the number of powers of H the widest stub aggregates per
// reduction (32 blocks in the zmm VAES/VPCLMULQDQ GCM loop).
const maxPowers = 32

// GHASHFunc is the signature of StubRoutines::ghash_processBlocks
// (com.sun.crypto.provider.GHASH.processBlocks): it absorbs blocks 16-byte
// blocks of data into state, using the subkey table htbl.
type GHASHFunc func(state *[2]uint64, htbl []uint64, data []byte, blocks int)

// GCMFunc is the signature of StubRoutines::galoisCounterMode_AESCrypt
// (com.sun.crypto.provider.GaloisCounterMode.implGCMCrypt0): AES-CTR with the
// inc32 counter ctr over a prefix of src into dst, and GHASH of the matching
// prefix of ct into state. It returns the number of bytes processed (a
// multiple of the stub's granularity); the caller finishes the rest. ct is
// dst when encrypting and src when decrypting; as in HotSpot, ct aliasing dst
// means encryption, so in-place (dst == src) is always encryption.
type GCMFunc func(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int

// GHASHVariant is one implementation of the ghash_processBlocks stub.
type GHASHVariant struct {
	Stub      string  // HotSpot StubRoutines entry: "ghash_processBlocks"
	Name      string  // e.g. "pclmul-1block", "avx-8block", "generic"
	Generator string  // HotSpot generator it models
	Needs     cpu.Set // CPU features the code uses; empty for generic
	Fn        GHASHFunc
}

// GCMVariant is one implementation of the galoisCounterMode_AESCrypt stub.
type GCMVariant struct {
	Stub      string  // HotSpot StubRoutines entry: "galoisCounterMode_AESCrypt"
	Name      string  // e.g. "avx2-interleaved8", "vaes-avx512", "generic"
	Generator string  // HotSpot generator it models
	Needs     cpu.Set // CPU features the code uses; empty for generic
	Fn        GCMFunc
}

// GHASHVariants lists every GHASH stub built into this binary, generic first.
// Callers run a variant only if its Needs are a subset of cpu.Host().
var GHASHVariants = append([]GHASHVariant{{
	Stub:      "ghash_processBlocks",
	Name:      "generic",
	Generator: "GHASH.processBlocks (Java body: blockMult per block)",
	Fn:        GHASHGeneric,
}}, archGHASHVariants...)

// GCMVariants lists every GCM stub built into this binary, generic first.
// Callers run a variant only if its Needs are a subset of cpu.Host().
var GCMVariants = append([]GCMVariant{{
	Stub:      "galoisCounterMode_AESCrypt",
	Name:      "generic",
	Generator: "GaloisCounterMode.implGCMCrypt0 (Java body: GCTR then GHASH)",
	Fn:        GCMGeneric,
}}, archGCMVariants...)

func checkGHASHArgs(state *[2]uint64, htbl []uint64, data []byte, blocks int) {
	if state == nil {
		panic("stubs/gcm: nil GHASH state")
	}
	if len(htbl) < 2 {
		panic("stubs/gcm: subkey table shorter than 2 words")
	}
	if blocks < 0 || blocks > len(data)/16 {
		panic("stubs/gcm: data shorter than blocks*16 bytes")
	}
}

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
	if len(htbl) < 2 {
		panic("stubs/gcm: subkey table shorter than 2 words")
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

// encrypting reports whether a GCM stub call encrypts: ct aliases dst, the
// rule of HotSpot's GCM stubs (JDK-8314901 review: encryption is ct == out).
func encrypting(dst, ct []byte) bool { return len(ct) > 0 && len(dst) > 0 && &ct[0] == &dst[0] }
