package aes

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The CTR entry, counterMode_AESCrypt: its shape, generic twin, variants and probe.

// StubCTR is the HotSpot StubRoutines entry name.
const StubCTR = "counterMode_AESCrypt"

// CTRFunc XORs src with the CTR key stream (SP 800-38A §6.5) into dst and
// returns len(src), as StubRoutines::counterMode_AESCrypt. ctr is the next
// counter block (big-endian, 128-bit increment); encCtr and used are the
// JDK CounterMode's encryptedCounter and used: the first 16-*used bytes of
// key stream come from encCtr[*used:], and a trailing partial block leaves its
// encrypted counter in encCtr with *used set to the bytes consumed. Start a
// stream with *used = 16.
type CTRFunc func(xk []uint32, ctr, encCtr *[16]byte, used *uint32, dst, src []byte) int

// CTRVariant is one implementation of the CTR stub.
type CTRVariant = variant.Impl[CTRFunc]

var entryCTR = declared.Entry(StubCTR, ctrProber)

const (
	ctrParCond = "UseAESCTRIntrinsics (needs UseAESIntrinsics and SSE4.1), no AVX-512 VAES with BW+VL"
	ctrVecCond = "UseAESCTRIntrinsics and avx512_vaes && avx512bw && avx512vl (UseAVX = 3)"
	ctrARMCond = "UseAESIntrinsics and UseAESCTRIntrinsics (aarch64 AES feature)"
)

var (
	genericCTR = entryCTR.Generic()
	// CTRAESNI6 is counterMode_AESCrypt, AES-NI six blocks at a time.
	CTRAESNI6 = entryCTR.Asm(variant.Spec{Name: "aesni-parallel6", Arch: jdk.AMD64, Needs: needsAESNI,
		Rules: rule("generate_counterMode_AESCrypt_Parallel", jdk.R17, x86Flags|variant.UseAESCTRIntrinsics,
			reqAESNI.With(cpu.SSE41), ctrParCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return aesniStream(u, 6, uopsCTR6) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, 6 per iteration, overlapped across iterations: max(10 × AESENC throughput, 10 × latency / blocks the reorder buffer holds at 21.67 instructions a block, 21.67 / issue width)"},
		Host: []variant.JVMRun{
			{Run: "jdk25_c2_avx2_split", Mode: "ctr", Releases: jdk.SinceFeature(25)},
			{Run: "jdk17_c2_avx2", Mode: "ctr"}}})
	// CTRVAES is counterMode_AESCrypt, AVX-512 VAES 32 blocks at a time.
	CTRVAES = entryCTR.Asm(variant.Spec{Name: "vaes-avx512", Arch: jdk.AMD64, Needs: needsVAESShufB,
		Rules: rule("generate_counterMode_VectorAESCrypt", jdk.R17, x86Flags|variant.UseAESCTRIntrinsics,
			reqAESNI.With(cpu.SSE41, cpu.VAES, cpu.AVX512F, cpu.AVX512BW, cpu.AVX512VL), ctrVecCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return vaesStream(u, uopsCTRVAES) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, 32 per iteration in zmm registers: max(10 × VAESENC-zmm throughput / 4, 10 × latency / blocks in flight at 3.94 instructions a block, 3.94 / issue width)"},
		Host: []variant.JVMRun{
			{Run: "jdk25_c2_default", Mode: "ctr", Releases: jdk.SinceFeature(25)},
			{Run: "jdk17_c2_default", Mode: "ctr"}}})
	// CTRARMv8x4 is counterMode_AESCrypt for Armv8, four blocks at a time.
	CTRARMv8x4 = entryCTR.Asm(variant.Spec{Name: "armv8-aes-4wide", Arch: jdk.ARM64, Needs: needsARMv8,
		Rules: []variant.Rule{{Generator: "generate_counterMode_AESCrypt", Releases: jdk.SinceFeature(18),
			Flags: variant.UseAESIntrinsics | variant.UseAESCTRIntrinsics, Requires: reqARM, Condition: ctrARMCond}},
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return aesniStream(u, 4, uopsCTRARMv8x4) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, bulk_width 4, overlapped across iterations: max(10 × AESE+AESMC throughput, 10 × latency / blocks the reorder buffer holds at 27 instructions a block, 27 / issue width)"}})
)

// The code of each CTR variant built into this binary.
var ctrCode variant.Code[CTRFunc]

func init() { ctrCode.Add(genericCTR, CTRGeneric) }

// CTRVariants lists the CTR variants built into this binary, generic first.
func CTRVariants() []CTRVariant { return ctrCode.Impls() }

// CTRCode returns the code of a CTR variant, or false when id is none built into this binary.
func CTRCode(id variant.ID) (CTRFunc, bool) { return ctrCode.Find(id) }

// CTRGeneric is the generic twin of counterMode_AESCrypt.
func CTRGeneric(xk []uint32, ctr, encCtr *[16]byte, used *uint32, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkGeneric, EncryptBlockGeneric)
}

func ctrBulkGeneric(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
	c := *ctr
	var ks [16]byte
	for i := 0; i < len(src); i += BlockSize {
		encryptBlock(nr, xk, ks[:], c[:])
		addCounter(&c, 1)
		for j := range 16 {
			dst[i+j] = src[i+j] ^ ks[j]
		}
	}
}

func checkCTR(xk []uint32, used *uint32, dst, src []byte) int {
	nr := rounds(xk)
	if len(dst) < len(src) {
		panic("stubs/aes: output smaller than input")
	}
	if *used > BlockSize {
		panic("stubs/aes: CTR used count out of range 0..16")
	}
	return nr
}

// addCounter adds n to the 128-bit big-endian counter (the JDK CounterMode's
// increment, applied n times).
func addCounter(ctr *[16]byte, n uint64) {
	lo := be64(ctr[8:])
	hi := be64(ctr[:8])
	nlo := lo + n
	if nlo < lo {
		hi++
	}
	put64(ctr[8:], nlo)
	put64(ctr[:8], hi)
}

func be64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

func put64(b []byte, v uint64) {
	_ = b[7]
	for i := range 8 {
		b[i] = byte(v >> (56 - 8*i))
	}
}

// ctrCrypt is the CTR framing shared by every CTR variant: it drains the
// JDK's leftover key stream (encCtr[*used:]), hands whole blocks to bulk in
// runs that never carry out of the counter's low 64 bits (so the assembly only
// ever adds to one lane), and encrypts one more counter for a trailing partial
// block, as CounterMode.implCrypt and HotSpot's stub do.
func ctrCrypt(xk []uint32, ctr, encCtr *[16]byte, used *uint32, dst, src []byte,
	bulk func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte), block BlockFunc) int {
	nr := checkCTR(xk, used, dst, src)
	n := len(src)
	dst = dst[:n]
	i := 0
	for *used < BlockSize && i < n {
		dst[i] = src[i] ^ encCtr[*used]
		*used++
		i++
	}
	for n-i >= BlockSize {
		blocks := uint64((n - i) / BlockSize)
		if room := -be64(ctr[8:]); room != 0 && room < blocks { // blocks before the low half wraps
			blocks = room
		}
		m := int(blocks) * BlockSize
		bulk(nr, xk, ctr, dst[i:i+m], src[i:i+m])
		addCounter(ctr, blocks)
		i += m
	}
	if i < n {
		block(xk, encCtr[:], ctr[:])
		addCounter(ctr, 1)
		*used = 0
		for ; i < n; i++ {
			dst[i] = src[i] ^ encCtr[*used]
			*used++
		}
	}
	return n
}

// ctrKernel is the assembly's shape of the CTR stub's bulk: whole blocks, n bytes, the
// counter's low 64 bits not carrying.
type ctrKernel func(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

// ctrAsm wraps a CTR kernel, with the block kernel tail encrypts a trailing partial block's
// counter, as a CTRFunc.
func ctrAsm(k ctrKernel, tail blockKernel) CTRFunc {
	bulk := func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
		k(nr, &xk[0], ctr, &dst[0], &src[0], len(src))
	}
	block := blockAsm(tail)
	return func(xk []uint32, ctr, encCtr *[16]byte, used *uint32, dst, src []byte) int {
		return ctrCrypt(xk, ctr, encCtr, used, dst, src, bulk, block)
	}
}

func bindCTR(id variant.ID, k ctrKernel, tail blockKernel) { ctrCode.Add(id, ctrAsm(k, tail)) }

// ctrProber times the CTR stub over the payload from a fresh counter.
var ctrProber = prober(CTRCode, false, func(f CTRFunc, k []uint32, out, in []byte) {
	var c, e [16]byte
	used := uint32(BlockSize)
	f(k, &c, &e, &used, out, in)
})
