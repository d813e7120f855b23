//go:build !purego

package aes

import "github.com/jitsim/jitsim/stubs/cpu"

// Assembly prototypes; the bodies are generated into aes_arm64.s by
// aes_arm64_gen.go. Every n is a byte count, a positive multiple of 16.

//go:noescape
func encryptBlockARMv8(nr int, xk *uint32, dst, src *byte)

//go:noescape
func decryptBlockARMv8(nr int, xk *uint32, dst, src *byte)

//go:noescape
func cbcEncryptARMv8(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

//go:noescape
func cbcDecryptARMv8(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

//go:noescape
func ctrARMv8x4(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

// needsARMv8 is what the code uses: AESE/AESD/AESMC/AESIMC and NEON.
var needsARMv8 = cpu.Of(cpu.ASIMD, cpu.ARM_AES)

// HotSpot's aarch64 port has no ECB stub, so arm64 offers only the generic twin there.
var (
	asmBlockEncrypt = []BlockVariant{{StubEncryptBlock, "armv8-aes", "generate_aescrypt_encryptBlock", needsARMv8, EncryptBlockARMv8}}
	asmBlockDecrypt = []BlockVariant{{StubDecryptBlock, "armv8-aes", "generate_aescrypt_decryptBlock", needsARMv8, DecryptBlockARMv8}}
	asmCBCEncrypt   = []CBCVariant{{StubCBCEncrypt, "armv8-aes", "generate_cipherBlockChaining_encryptAESCrypt", needsARMv8, CBCEncryptARMv8}}
	asmCBCDecrypt   = []CBCVariant{{StubCBCDecrypt, "armv8-aes", "generate_cipherBlockChaining_decryptAESCrypt", needsARMv8, CBCDecryptARMv8}}
	asmECBEncrypt   []ECBVariant
	asmECBDecrypt   []ECBVariant
	asmCTR          = []CTRVariant{{StubCTR, "armv8-aes-4wide", "generate_counterMode_AESCrypt", needsARMv8, CTRARMv8x4}}
)

// EncryptBlockARMv8 is aescrypt_encryptBlock for the Armv8 Cryptographic Extension.
func EncryptBlockARMv8(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	encryptBlockARMv8(nr, &xk[0], &dst[0], &src[0])
}

// DecryptBlockARMv8 is aescrypt_decryptBlock for Armv8; xk is the decryption schedule.
func DecryptBlockARMv8(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	decryptBlockARMv8(nr, &xk[0], &dst[0], &src[0])
}

type cbcAsm func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)

func cbcCall(f cbcAsm, xk []uint32, iv *[16]byte, dst, src []byte) int {
	nr := checkBlocks(xk, dst, src)
	if len(src) > 0 {
		f(nr, &xk[0], iv, &dst[0], &src[0], len(src))
	}
	return len(src)
}

// CBCEncryptARMv8 is cipherBlockChaining_encryptAESCrypt for Armv8.
func CBCEncryptARMv8(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcEncryptARMv8, xk, iv, dst, src)
}

// CBCDecryptARMv8 is cipherBlockChaining_decryptAESCrypt for Armv8 (one block per iteration, as HotSpot's).
func CBCDecryptARMv8(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcDecryptARMv8, xk, iv, dst, src)
}

func ctrBulkARMv8x4(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
	ctrARMv8x4(nr, &xk[0], ctr, &dst[0], &src[0], len(src))
}

// CTRARMv8x4 is counterMode_AESCrypt for Armv8, four blocks at a time.
func CTRARMv8x4(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkARMv8x4, EncryptBlockARMv8)
}
