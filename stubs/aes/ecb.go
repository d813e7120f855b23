package aes

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/variant"
)

// The ECB entries, electronicCodeBook_encryptAESCrypt and electronicCodeBook_decryptAESCrypt
// (JDK 17+ on x86; HotSpot's aarch64 port has none): their shape, generic twins, variants
// and probes.

// HotSpot StubRoutines entry names.
const (
	StubECBEncrypt = "electronicCodeBook_encryptAESCrypt"
	StubECBDecrypt = "electronicCodeBook_decryptAESCrypt"
)

// ECBFunc encrypts or decrypts len(src) bytes (a multiple of 16) in ECB mode
// (SP 800-38A §6.1) and returns the bytes processed, as
// StubRoutines::electronicCodeBook_*AESCrypt.
type ECBFunc func(xk []uint32, dst, src []byte) int

// ECBVariant is one implementation of an ECB stub.
type ECBVariant = variant.Impl[ECBFunc]

var (
	entryECBEncrypt = declared.Entry(StubECBEncrypt, ecbProber(false))
	entryECBDecrypt = declared.Entry(StubECBDecrypt, ecbProber(true))
)

var (
	genericECBEncrypt = entryECBEncrypt.Generic()
	// ECBEncryptAVX4 is electronicCodeBook_encryptAESCrypt as JDK-8376164's AVX2 stub, four
	// blocks at a time (generator name unverified; no selection rule picks it).
	ECBEncryptAVX4 = entryECBEncrypt.Asm(variant.Spec{Name: "avx2-parallel4", Arch: jdk.AMD64, Needs: needsAVX})
	// ECBEncryptVAES is electronicCodeBook_encryptAESCrypt for AVX-512 VAES.
	ECBEncryptVAES = entryECBEncrypt.Asm(variant.Spec{Name: "vaes-avx512", Arch: jdk.AMD64, Needs: needsVAES,
		Rules: rule("generate_electronicCodeBook_encryptAESCrypt", jdk.R17, x86Flags, reqVAESCBC, vaesCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return vaesStream(u, uopsECBVAES) }, PerCall: variant.CallBulk,
			Formula: "independent blocks, 32 per iteration in zmm registers: max(10 × VAESENC-zmm throughput / 4, 10 × latency / blocks in flight at 3.44 instructions a block, 3.44 / issue width)"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_default", Mode: "ecb-enc"}}})
)

var (
	genericECBDecrypt = entryECBDecrypt.Generic()
	// ECBDecryptAVX4 is electronicCodeBook_decryptAESCrypt as JDK-8376164's AVX2 stub (no
	// selection rule picks it).
	ECBDecryptAVX4 = entryECBDecrypt.Asm(variant.Spec{Name: "avx2-parallel4", Arch: jdk.AMD64, Needs: needsAVX})
	// ECBDecryptVAES is electronicCodeBook_decryptAESCrypt for AVX-512 VAES.
	ECBDecryptVAES = entryECBDecrypt.Asm(variant.Spec{Name: "vaes-avx512", Arch: jdk.AMD64, Needs: needsVAES,
		Rules: rule("generate_electronicCodeBook_decryptAESCrypt", jdk.R17, x86Flags, reqVAESCBC, vaesCond),
		Cost: variant.Cost{PerBlock: func(u variant.Insn) int64 { return vaesStream(u, uopsECBVAES) }, PerCall: variant.CallBulk,
			Formula: "as the VAES ECB encryption, with VAESDEC"},
		Host: []variant.JVMRun{{Run: "jdk17_c2_default", Mode: "ecb-dec"}}})
)

// The code of each ECB variant built into this binary.
var ecbEncryptCode, ecbDecryptCode variant.Code[ECBFunc]

func init() {
	ecbEncryptCode.Add(genericECBEncrypt, ECBEncryptGeneric)
	ecbDecryptCode.Add(genericECBDecrypt, ECBDecryptGeneric)
}

// ECBEncryptVariants lists the ECB encryption variants built into this binary, generic first.
func ECBEncryptVariants() []ECBVariant { return ecbEncryptCode.Impls() }

// ECBDecryptVariants lists the ECB decryption variants built into this binary, generic first.
func ECBDecryptVariants() []ECBVariant { return ecbDecryptCode.Impls() }

// ECBCode returns the code of an ECB variant, or false when id is none built into this binary.
func ECBCode(id variant.ID) (ECBFunc, bool) {
	if f, ok := ecbEncryptCode.Find(id); ok {
		return f, true
	}
	return ecbDecryptCode.Find(id)
}

// ECBEncryptGeneric is the generic twin of electronicCodeBook_encryptAESCrypt.
func ECBEncryptGeneric(xk []uint32, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	for i := 0; i < len(src); i += BlockSize {
		encryptBlock(nr, xk, dst[i:i+BlockSize], src[i:i+BlockSize])
	}
	return len(src)
}

// ECBDecryptGeneric is the generic twin of electronicCodeBook_decryptAESCrypt.
func ECBDecryptGeneric(xk []uint32, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	for i := 0; i < len(src); i += BlockSize {
		decryptBlock(nr, xk, dst[i:i+BlockSize], src[i:i+BlockSize])
	}
	return len(src)
}

// ecbKernel is the assembly's shape of an ECB stub; n is a byte count, a multiple of 16.
type ecbKernel func(nr int, xk *uint32, dst, src *byte, n int)

// ecbAsm wraps an ECB kernel as an ECBFunc: argument checks, then the assembly.
func ecbAsm(k ecbKernel) ECBFunc {
	return func(xk []uint32, dst, src []byte) int {
		nr := checkBlocks(xk, dst, src)
		if len(src) > 0 {
			k(nr, &xk[0], &dst[0], &src[0], len(src))
		}
		return len(src)
	}
}

func bindECBEncrypt(id variant.ID, k ecbKernel) { ecbEncryptCode.Add(id, ecbAsm(k)) }
func bindECBDecrypt(id variant.ID, k ecbKernel) { ecbDecryptCode.Add(id, ecbAsm(k)) }

func ecbProber(decrypt bool) variant.Prober {
	return prober(ECBCode, decrypt, func(f ECBFunc, k []uint32, out, in []byte) { f(k, out, in) })
}
