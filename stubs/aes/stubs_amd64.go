//go:build !purego

package aes

import "github.com/jitsim/jitsim/stubs/cpu"

// Assembly prototypes; the bodies are generated into aes_amd64.s from _asm.
// Every n is a byte count, a multiple of 16.

//go:noescape
func encryptBlockAESNI(nr int, xk *uint32, dst, src *byte)

//go:noescape
func decryptBlockAESNI(nr int, xk *uint32, dst, src *byte)

//go:noescape
func cbcEncryptAESNI(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

//go:noescape
func cbcDecryptAESNI4(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

//go:noescape
func cbcDecryptVAES(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

//go:noescape
func ecbEncryptVAES(nr int, xk *uint32, dst, src *byte, n int)

//go:noescape
func ecbDecryptVAES(nr int, xk *uint32, dst, src *byte, n int)

//go:noescape
func ecbEncryptAVX4(nr int, xk *uint32, dst, src *byte, n int)

//go:noescape
func ecbDecryptAVX4(nr int, xk *uint32, dst, src *byte, n int)

//go:noescape
func ctrAESNI6(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

//go:noescape
func ctrVAES(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

// Feature sets the generated code uses (avo's "Requires" lines, plus SSSE3 for
// the PSHUFB that byte-swaps the JDK's key words; the VAES stubs also use
// VEX-encoded AVX, which AVX512F implies).
var (
	needsAESNI     = cpu.Of(cpu.AES, cpu.SSSE3)
	needsAVX       = needsAESNI.With(cpu.AVX) // VEX-encoded AES-NI on XMM
	needsVAES      = needsAESNI.With(cpu.AVX512F, cpu.VAES)
	needsVAESShufB = needsVAES.With(cpu.AVX512BW) // VPSHUFB on ZMM (counter byte order)
)

var (
	asmBlockEncrypt = []BlockVariant{{StubEncryptBlock, "aesni", "generate_aescrypt_encryptBlock", needsAESNI, EncryptBlockAESNI}}
	asmBlockDecrypt = []BlockVariant{{StubDecryptBlock, "aesni", "generate_aescrypt_decryptBlock", needsAESNI, DecryptBlockAESNI}}
	asmCBCEncrypt   = []CBCVariant{{StubCBCEncrypt, "aesni", "generate_cipherBlockChaining_encryptAESCrypt", needsAESNI, CBCEncryptAESNI}}
	asmCBCDecrypt   = []CBCVariant{
		{StubCBCDecrypt, "aesni-parallel4", "generate_cipherBlockChaining_decryptAESCrypt_Parallel", needsAESNI, CBCDecryptAESNI4},
		{StubCBCDecrypt, "vaes-avx512", "generate_cipherBlockChaining_decryptVectorAESCrypt", needsVAES, CBCDecryptVAES},
	}
	asmECBEncrypt = []ECBVariant{
		{StubECBEncrypt, "avx2-parallel4", "JDK-8376164 AVX2 4-block ECB encrypt (generator name unverified)", needsAVX, ECBEncryptAVX4},
		{StubECBEncrypt, "vaes-avx512", "generate_electronicCodeBook_encryptAESCrypt", needsVAES, ECBEncryptVAES},
	}
	asmECBDecrypt = []ECBVariant{
		{StubECBDecrypt, "avx2-parallel4", "JDK-8376164 AVX2 4-block ECB decrypt (generator name unverified)", needsAVX, ECBDecryptAVX4},
		{StubECBDecrypt, "vaes-avx512", "generate_electronicCodeBook_decryptAESCrypt", needsVAES, ECBDecryptVAES},
	}
	asmCTR = []CTRVariant{
		{StubCTR, "aesni-parallel6", "generate_counterMode_AESCrypt_Parallel", needsAESNI, CTRAESNI6},
		{StubCTR, "vaes-avx512", "generate_counterMode_VectorAESCrypt", needsVAESShufB, CTRVAES},
	}
)

// EncryptBlockAESNI is aescrypt_encryptBlock for AES-NI.
func EncryptBlockAESNI(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	encryptBlockAESNI(nr, &xk[0], &dst[0], &src[0])
}

// DecryptBlockAESNI is aescrypt_decryptBlock for AES-NI; xk is the decryption schedule.
func DecryptBlockAESNI(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	decryptBlockAESNI(nr, &xk[0], &dst[0], &src[0])
}

type cbcAsm func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

func cbcCall(f cbcAsm, xk []uint32, iv *[16]byte, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	if len(src) > 0 {
		f(nr, &xk[0], iv, &dst[0], &src[0], len(src))
	}
	return len(src)
}

// CBCEncryptAESNI is cipherBlockChaining_encryptAESCrypt for AES-NI (serial).
func CBCEncryptAESNI(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcEncryptAESNI, xk, iv, dst, src)
}

// CBCDecryptAESNI4 is cipherBlockChaining_decryptAESCrypt, AES-NI four blocks at a time.
func CBCDecryptAESNI4(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcDecryptAESNI4, xk, iv, dst, src)
}

// CBCDecryptVAES is cipherBlockChaining_decryptAESCrypt, AVX-512 VAES 32 blocks at a time.
func CBCDecryptVAES(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcDecryptVAES, xk, iv, dst, src)
}

type ecbAsm func(nr int, xk *uint32, dst, src *byte, n int)

func ecbCall(f ecbAsm, xk []uint32, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	if len(src) > 0 {
		f(nr, &xk[0], &dst[0], &src[0], len(src))
	}
	return len(src)
}

// ECBEncryptAVX4 is electronicCodeBook_encryptAESCrypt as JDK-8376164's AVX2 stub: four blocks at a time.
func ECBEncryptAVX4(xk []uint32, dst, src []byte) int { return ecbCall(ecbEncryptAVX4, xk, dst, src) }

// ECBDecryptAVX4 is electronicCodeBook_decryptAESCrypt as JDK-8376164's AVX2 stub.
func ECBDecryptAVX4(xk []uint32, dst, src []byte) int { return ecbCall(ecbDecryptAVX4, xk, dst, src) }

// ECBEncryptVAES is electronicCodeBook_encryptAESCrypt for AVX-512 VAES.
func ECBEncryptVAES(xk []uint32, dst, src []byte) int { return ecbCall(ecbEncryptVAES, xk, dst, src) }

// ECBDecryptVAES is electronicCodeBook_decryptAESCrypt for AVX-512 VAES.
func ECBDecryptVAES(xk []uint32, dst, src []byte) int { return ecbCall(ecbDecryptVAES, xk, dst, src) }

type ctrAsm func(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

func ctrBulk(f ctrAsm) func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
	return func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
		f(nr, &xk[0], ctr, &dst[0], &src[0], len(src))
	}
}

var ctrBulkAESNI6, ctrBulkVAES = ctrBulk(ctrAESNI6), ctrBulk(ctrVAES)

// CTRAESNI6 is counterMode_AESCrypt, AES-NI six blocks at a time.
func CTRAESNI6(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkAESNI6, EncryptBlockAESNI)
}

// CTRVAES is counterMode_AESCrypt, AVX-512 VAES 32 blocks at a time.
func CTRVAES(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkVAES, EncryptBlockAESNI)
}
