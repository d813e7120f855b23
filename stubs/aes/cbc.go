package aes

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The CBC entries, cipherBlockChaining_encryptAESCrypt and
// cipherBlockChaining_decryptAESCrypt: their shape, generic twins, variants and probes.

// HotSpot StubRoutines entry names.
const (
	StubCBCEncrypt = "cipherBlockChaining_encryptAESCrypt"
	StubCBCDecrypt = "cipherBlockChaining_decryptAESCrypt"
)

// CBCFunc encrypts or decrypts len(src) bytes (a multiple of 16) in CBC mode
// (NIST SP 800-38A §6.2), updates iv to the last ciphertext block and returns
// the number of bytes processed, as StubRoutines::cipherBlockChaining_*AESCrypt.
type CBCFunc func(xk []uint32, iv *[16]byte, dst, src []byte) int

// CBCVariant is one implementation of a CBC stub.
type CBCVariant = variant.Impl[CBCFunc]

var (
	entryCBCEncrypt = declared.Entry(StubCBCEncrypt, cbcProber(false))
	entryCBCDecrypt = declared.Entry(StubCBCDecrypt, cbcProber(true))
)

var (
	genericCBCEncrypt = entryCBCEncrypt.Generic()
	// CBCEncryptAESNI is cipherBlockChaining_encryptAESCrypt for AES-NI (serial).
	CBCEncryptAESNI = entryCBCEncrypt.Asm(variant.Spec{Name: "aesni", Arch: jdk.AMD64, Needs: needsAESNI,
		Rules: rule("generate_cipherBlockChaining_encryptAESCrypt", jdk.R8, x86Flags, reqAESNI, blockCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 400 }, PerCall: variant.CallBulk,
			Formula: "CBC encryption is one serial chain: 10 × AESENC latency + ~4 cycles (load, XOR with the previous block, store)"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_default", Mode: "cbc-enc"}}})
	// CBCEncryptARMv8 is cipherBlockChaining_encryptAESCrypt for Armv8.
	CBCEncryptARMv8 = entryCBCEncrypt.Asm(variant.Spec{Name: "armv8-aes", Arch: jdk.ARM64, Needs: needsARMv8,
		Rules: rule("generate_cipherBlockChaining_encryptAESCrypt", jdk.R8, variant.UseAESIntrinsics, reqARM, armCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 400 }, PerCall: variant.CallBulk,
			Formula: "one serial chain: 10 × AESE+AESMC latency + ~4 cycles"}})
)

var (
	genericCBCDecrypt = entryCBCDecrypt.Generic()
	// CBCDecryptAESNI4 is cipherBlockChaining_decryptAESCrypt, AES-NI four blocks at a time.
	CBCDecryptAESNI4 = entryCBCDecrypt.Asm(variant.Spec{Name: "aesni-parallel4", Arch: jdk.AMD64, Needs: needsAESNI,
		Rules: rule("generate_cipherBlockChaining_decryptAESCrypt_Parallel", jdk.R8, x86Flags, reqAESNI,
			blockCond+", no AVX-512 VAES with VL+DQ"),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return aesniStream(u, 4, uopsCBCDecrypt4) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, 4 per iteration, overlapped across iterations: max(10 × AESDEC throughput, 10 × latency / blocks the reorder buffer holds at 22.25 instructions a block, 22.25 / issue width)"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_avx2", Mode: "cbc-dec"}}})
	// CBCDecryptVAES is cipherBlockChaining_decryptAESCrypt, AVX-512 VAES 32 blocks at a time.
	CBCDecryptVAES = entryCBCDecrypt.Asm(variant.Spec{Name: "vaes-avx512", Arch: jdk.AMD64, Needs: needsVAES,
		Rules: rule("generate_cipherBlockChaining_decryptVectorAESCrypt", jdk.R17, x86Flags, reqVAESCBC, vaesCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return vaesStream(u, uopsCBCDecryptVAES) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, 32 per iteration in zmm registers: max(10 × VAESDEC-zmm throughput / 4, 10 × latency / blocks in flight at 4.22 instructions a block, 4.22 / issue width)"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_default", Mode: "cbc-dec"}}})
	// CBCDecryptARMv8 is cipherBlockChaining_decryptAESCrypt for Armv8 (one block per
	// iteration, as HotSpot's).
	CBCDecryptARMv8 = entryCBCDecrypt.Asm(variant.Spec{Name: "armv8-aes", Arch: jdk.ARM64, Needs: needsARMv8,
		Rules: rule("generate_cipherBlockChaining_decryptAESCrypt", jdk.R8, variant.UseAESIntrinsics, reqARM, armCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return variant.CostRounds*u.AESLat + 400 }, PerCall: variant.CallBulk,
			Formula: "HotSpot's aarch64 CBC decryption runs one block per iteration: 10 × AESD+AESIMC latency + ~4 cycles"}})
)

// vaes32 is the per-block cost of 32 blocks in flight in zmm registers.
func vaesStream(u variant.Insn, uops int64) int64 {
	return u.Stream(32, variant.CostRounds*u.VAESTp/4, variant.CostRounds*u.AESLat, uops)
}

// aesniStream prices an AES-NI (or arm64 AES) loop of independent blocks, p per iteration.
func aesniStream(u variant.Insn, p, uops int64) int64 {
	return u.Stream(p, variant.CostRounds*u.AESTp, variant.CostRounds*u.AESLat, uops)
}

// Instructions per block (×100) of the independent-block loops' main iteration, AES-128,
// counted from this package's assembly (the generators in _asm/aes_amd64.go and
// aes_arm64_gen.go): the AES rounds, the round keys' loads and byte swaps where the loop
// reloads them, the data loads, XORs and stores, the counter's shuffle and add, the loop
// control. They set how many blocks the reorder buffer holds and what issuing costs.
const (
	uopsCBCDecrypt4    = 2225 // 89 per 4 blocks: 40 AESDEC, 11 key loads + 11 PSHUFB, 8 loads/moves, 9 XORs and moves, 4 stores, 6 loop
	uopsCTR6           = 2167 // 130 per 6 blocks: 60 AESENC, 22 key, 18 counter (move, PSHUFB, PADDQ), 6 + 18 XOR/load/store, 6 loop
	uopsCTRARMv8x4     = 2700 // 108 per 4 blocks: 40 AESE + 36 AESMC, 8 EOR, 16 counter (REV, 2 VMOV, ADD), load, store, 6 loop
	uopsECBVAES        = 344  // 110 per 32 blocks: 80 VAES, 8 loads, 8 XORs, 8 stores, 6 loop
	uopsCBCDecryptVAES = 422  // 135 per 32 blocks: 80 VAES, 8 loads + 8 moves, 8 VALIGNQ + 16 XORs, 1 move, 8 stores, 6 loop
	uopsCTRVAES        = 394  // 126 per 32 blocks: 80 VAES, 16 counter (VPSHUFB, VPADDQ), 16 XORs, 8 stores, 6 loop
)

// The code of each CBC variant built into this binary.
var cbcEncryptCode, cbcDecryptCode variant.Code[CBCFunc]

func init() {
	cbcEncryptCode.Add(genericCBCEncrypt, CBCEncryptGeneric)
	cbcDecryptCode.Add(genericCBCDecrypt, CBCDecryptGeneric)
}

// CBCEncryptVariants lists the CBC encryption variants built into this binary, generic first.
func CBCEncryptVariants() []CBCVariant { return cbcEncryptCode.Impls() }

// CBCDecryptVariants lists the CBC decryption variants built into this binary, generic first.
func CBCDecryptVariants() []CBCVariant { return cbcDecryptCode.Impls() }

// CBCCode returns the code of a CBC variant, or false when id is none built into this binary.
func CBCCode(id variant.ID) (CBCFunc, bool) {
	if f, ok := cbcEncryptCode.Find(id); ok {
		return f, true
	}
	return cbcDecryptCode.Find(id)
}

// CBCEncryptGeneric is the generic twin of cipherBlockChaining_encryptAESCrypt.
func CBCEncryptGeneric(xk []uint32, iv *[16]byte, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	var x [16]byte
	for i := 0; i < len(src); i += BlockSize {
		for j := range 16 {
			x[j] = src[i+j] ^ iv[j]
		}
		encryptBlock(nr, xk, iv[:], x[:])
		copy(dst[i:i+BlockSize], iv[:])
	}
	return len(src)
}

// CBCDecryptGeneric is the generic twin of cipherBlockChaining_decryptAESCrypt;
// xk is the decryption schedule. In place is allowed.
func CBCDecryptGeneric(xk []uint32, iv *[16]byte, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	var c, p [16]byte
	for i := 0; i < len(src); i += BlockSize {
		copy(c[:], src[i:i+BlockSize])
		decryptBlock(nr, xk, p[:], c[:])
		for j := range 16 {
			dst[i+j] = p[j] ^ iv[j]
		}
		*iv = c
	}
	return len(src)
}

// cbcKernel is the assembly's shape of a CBC stub; n is a byte count, a multiple of 16.
type cbcKernel func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

// cbcAsm wraps a CBC kernel as a CBCFunc: argument checks, then the assembly.
func cbcAsm(k cbcKernel) CBCFunc {
	return func(xk []uint32, iv *[16]byte, dst, src []byte) int {
		nr := checkBlocks(xk, dst, src)
		if len(src) > 0 {
			k(nr, &xk[0], iv, &dst[0], &src[0], len(src))
		}
		return len(src)
	}
}

func bindCBCEncrypt(id variant.ID, k cbcKernel) { cbcEncryptCode.Add(id, cbcAsm(k)) }
func bindCBCDecrypt(id variant.ID, k cbcKernel) { cbcDecryptCode.Add(id, cbcAsm(k)) }

func cbcProber(decrypt bool) variant.Prober {
	return prober(CBCCode, decrypt, func(f CBCFunc, k []uint32, out, in []byte) { var iv [16]byte; f(k, &iv, out, in) })
}
