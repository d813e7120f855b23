package aes

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The single-block entries, aescrypt_encryptBlock and aescrypt_decryptBlock: their shape,
// generic twins, variants and probes.

// HotSpot StubRoutines entry names.
const (
	StubEncryptBlock = "aescrypt_encryptBlock"
	StubDecryptBlock = "aescrypt_decryptBlock"
)

// BlockFunc encrypts or decrypts one 16-byte block from src into dst with the
// expanded key xk (the StubRoutines::aescrypt_encryptBlock/decryptBlock shape).
type BlockFunc func(xk []uint32, dst, src []byte)

// BlockVariant is one implementation of a block stub: its ID and its code.
type BlockVariant = variant.Impl[BlockFunc]

var (
	entryEncryptBlock = declared.Entry(StubEncryptBlock, blockProber(false))
	entryDecryptBlock = declared.Entry(StubDecryptBlock, blockProber(true))
)

var (
	genericEncryptBlock = entryEncryptBlock.Generic()
	// EncryptBlockAESNI is aescrypt_encryptBlock for AES-NI.
	EncryptBlockAESNI = entryEncryptBlock.Asm(variant.Spec{Name: "aesni", Arch: jdk.AMD64, Needs: needsAESNI,
		Rules: rule("generate_aescrypt_encryptBlock", jdk.R8, x86Flags, reqAESNI, blockCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 600 }, PerCall: variant.CallBlock,
			Formula:  "10 dependent AESENC (latency-bound) + ~6 cycles load/whiten/store",
			InStream: blockStream(uopsBlockAESNI), StreamFormula: blockStreamFormula("AESENC", uopsBlockAESNI)},
		// Measured through AES/ECB under UseAVX=2, where JDK 17 has no ECB stub and its Java
		// ECB loop calls the block stub per block (loop included).
		Host: []variant.JVMRun{{Run: "jdk17_c2_avx2", Mode: "ecb-enc"}}})
	// EncryptBlockARMv8 is aescrypt_encryptBlock for the Armv8 Cryptographic Extension.
	EncryptBlockARMv8 = entryEncryptBlock.Asm(variant.Spec{Name: "armv8-aes", Arch: jdk.ARM64, Needs: needsARMv8,
		Rules: rule("generate_aescrypt_encryptBlock", jdk.R8, variant.UseAESIntrinsics, reqARM, armCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 600 }, PerCall: variant.CallBlock,
			Formula:  "10 dependent AESE+AESMC pairs (latency-bound) + ~6 cycles load/store",
			InStream: blockStream(uopsBlockARMv8), StreamFormula: blockStreamFormula("AESE+AESMC", uopsBlockARMv8)}})
)

var (
	genericDecryptBlock = entryDecryptBlock.Generic()
	// DecryptBlockAESNI is aescrypt_decryptBlock for AES-NI; it takes the decryption schedule.
	DecryptBlockAESNI = entryDecryptBlock.Asm(variant.Spec{Name: "aesni", Arch: jdk.AMD64, Needs: needsAESNI,
		Rules: rule("generate_aescrypt_decryptBlock", jdk.R8, x86Flags, reqAESNI, blockCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 600 }, PerCall: variant.CallBlock,
			Formula:  "10 dependent AESDEC (latency-bound) + ~6 cycles load/whiten/store",
			InStream: blockStream(uopsBlockAESNI), StreamFormula: blockStreamFormula("AESDEC", uopsBlockAESNI)},
		Host: []variant.JVMRun{{Run: "jdk17_c2_avx2", Mode: "ecb-dec"}}})
	// DecryptBlockARMv8 is aescrypt_decryptBlock for Armv8; it takes the decryption schedule.
	DecryptBlockARMv8 = entryDecryptBlock.Asm(variant.Spec{Name: "armv8-aes", Arch: jdk.ARM64, Needs: needsARMv8,
		Rules: rule("generate_aescrypt_decryptBlock", jdk.R8, variant.UseAESIntrinsics, reqARM, armCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 600 }, PerCall: variant.CallBlock,
			Formula:  "10 dependent AESD+AESIMC pairs (latency-bound) + ~6 cycles load/store",
			InStream: blockStream(uopsBlockARMv8), StreamFormula: blockStreamFormula("AESD+AESIMC", uopsBlockARMv8)}})
)

// Instructions (×100) one call of a block stub executes for AES-128, counted from this
// package's assembly (the generators in _asm/aes_amd64.go and aes_arm64_gen.go), prologue
// and return included. AES-NI: 8 argument and pointer set-up, the block's load, 11 round-key
// loads and 11 PSHUFB, the whitening XOR, 10 rounds, the round-count compare and branch,
// the store, the return. Armv8: 4 argument loads, the key-length compare and branch, 3
// multi-register key loads, 15 REV32 of the round keys, the block's load, a compare and
// branch, 9 AESE+AESMC pairs, the last AESE and EOR, the store, the return.
const (
	uopsBlockAESNI = 4600
	uopsBlockARMv8 = 4900
)

// blockStream is a block stub's cost per call in a loop of independent blocks
// (variant.Insn.Calls): the chain spread over the calls in flight is the whole latency-bound
// call — 10 rounds at latency, ~6 cycles of load, whitening and store, and the call's
// prologue (variant.CallBlock) — so that a window holding one call prices it as the latency
// bound does, and the price falls from there as the window holds more.
func blockStream(uops int64) func(variant.Insn, int64) (int64, bool) {
	return func(u variant.Insn, caller int64) (int64, bool) {
		return u.Calls(variant.CostRounds*u.AESTp, variant.CostRounds*u.AESLat+600+variant.CallBlock, uops, caller)
	}
}

func blockStreamFormula(round string, uops int64) string {
	return fmt.Sprintf("called once per trip of a loop of independent blocks: max(10 × %s throughput, (10 × latency + 6 + %.0f prologue) / the calls "+
		"the reorder buffer holds at %.0f instructions a call plus the caller's, %.0f / issue width)", round, float64(variant.CallBlock)/100, float64(uops)/100, float64(uops)/100)
}

// The code of each block variant built into this binary: the generic twins here, the
// assembly from zcode_*.go.
var blockEncryptCode, blockDecryptCode variant.Code[BlockFunc]

func init() {
	blockEncryptCode.Add(genericEncryptBlock, EncryptBlockGeneric)
	blockDecryptCode.Add(genericDecryptBlock, DecryptBlockGeneric)
}

// BlockEncryptVariants lists the aescrypt_encryptBlock variants built into this binary,
// the generic twin first; callers pick one whose Needs are within the CPU's features.
func BlockEncryptVariants() []BlockVariant { return blockEncryptCode.Impls() }

// BlockDecryptVariants lists the aescrypt_decryptBlock variants built into this binary.
func BlockDecryptVariants() []BlockVariant { return blockDecryptCode.Impls() }

// BlockCode returns the code of a block-stub variant (aescrypt_encryptBlock or
// aescrypt_decryptBlock), or false when id is none built into this binary.
func BlockCode(id variant.ID) (BlockFunc, bool) {
	if f, ok := blockEncryptCode.Find(id); ok {
		return f, true
	}
	return blockDecryptCode.Find(id)
}

// EncryptBlockGeneric is the generic twin of aescrypt_encryptBlock.
func EncryptBlockGeneric(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	encryptBlock(nr, xk, dst, src)
}

// DecryptBlockGeneric is the generic twin of aescrypt_decryptBlock; xk is the
// decryption schedule.
func DecryptBlockGeneric(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	decryptBlock(nr, xk, dst, src)
}

func checkBlock(xk []uint32, dst, src []byte) int {
	nr := rounds(xk)
	if len(src) < BlockSize {
		panic("stubs/aes: input not full block")
	}
	if len(dst) < BlockSize {
		panic("stubs/aes: output not full block")
	}
	return nr
}

// blockKernel is the assembly's shape of a block stub.
type blockKernel func(nr int, xk *uint32, dst, src *byte)

// blockAsm wraps a block kernel as a BlockFunc: argument checks, then the assembly.
func blockAsm(k blockKernel) BlockFunc {
	return func(xk []uint32, dst, src []byte) {
		nr := checkBlock(xk, dst, src)
		k(nr, &xk[0], &dst[0], &src[0])
	}
}

func bindBlockEncrypt(id variant.ID, k blockKernel) {
	blockEncryptCode.Add(id, blockAsm(k))
	blocksCode[id] = blocksAsm(k)
}

func bindBlockDecrypt(id variant.ID, k blockKernel) {
	blockDecryptCode.Add(id, blockAsm(k))
	blocksCode[id] = blocksAsm(k)
}

// BlocksFunc is a block stub entered once for n of its calls: call k runs the
// block at src[k*srcStride:] into dst[k*dstStride:], as the single-block entry
// would, one call after another. The arguments are checked once, for all n
// calls; each block is still the stub's own code on its own bytes.
type BlocksFunc func(xk []uint32, dst []byte, dstStride int, src []byte, srcStride, n int)

// blocksCode holds the BlocksFunc of each block variant built into this binary
// (the variant's own code, n calls at a time).
var blocksCode = map[variant.ID]BlocksFunc{
	genericEncryptBlock: blocksGeneric(encryptBlock),
	genericDecryptBlock: blocksGeneric(decryptBlock),
}

// BlocksCode returns the n-calls entry of a block-stub variant, or false when
// id is none built into this binary.
func BlocksCode(id variant.ID) (BlocksFunc, bool) {
	f, ok := blocksCode[id]
	return f, ok
}

// checkStrided checks n strided blocks of dst and src for xk and returns the
// rounds.
func checkStrided(xk []uint32, dst []byte, dstStride int, src []byte, srcStride, n int) int {
	nr := rounds(xk)
	if n < 0 || dstStride < 0 || srcStride < 0 {
		panic("stubs/aes: negative block count or stride")
	}
	if n > 0 && (len(src) < (n-1)*srcStride+BlockSize || len(dst) < (n-1)*dstStride+BlockSize) {
		panic("stubs/aes: strided blocks past the end of the arrays")
	}
	return nr
}

func blocksAsm(k blockKernel) BlocksFunc {
	return func(xk []uint32, dst []byte, dstStride int, src []byte, srcStride, n int) {
		nr := checkStrided(xk, dst, dstStride, src, srcStride, n)
		for i := range n {
			k(nr, &xk[0], &dst[i*dstStride], &src[i*srcStride])
		}
	}
}

func blocksGeneric(f func(nr int, xk []uint32, dst, src []byte)) BlocksFunc {
	return func(xk []uint32, dst []byte, dstStride int, src []byte, srcStride, n int) {
		nr := checkStrided(xk, dst, dstStride, src, srcStride, n)
		for i := range n {
			f(nr, xk, dst[i*dstStride:i*dstStride+BlockSize], src[i*srcStride:i*srcStride+BlockSize])
		}
	}
}

// blockProber times a block stub once per 16-byte block of the payload.
func blockProber(decrypt bool) variant.Prober {
	return prober(BlockCode, decrypt, func(f BlockFunc, k []uint32, out, in []byte) {
		for i := 0; i < len(in); i += BlockSize {
			f(k, out[i:i+BlockSize], in[i:i+BlockSize])
		}
	})
}
