//go:build !purego

package aes

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

var (
	asmBlockEncrypt = []BlockVariant{{ID: EncryptBlockAESNI, Fn: aesniEncryptBlock}}
	asmBlockDecrypt = []BlockVariant{{ID: DecryptBlockAESNI, Fn: aesniDecryptBlock}}
	asmCBCEncrypt   = []CBCVariant{{ID: CBCEncryptAESNI, Fn: aesniCBCEncrypt}}
	asmCBCDecrypt   = []CBCVariant{{ID: CBCDecryptAESNI4, Fn: aesni4CBCDecrypt}, {ID: CBCDecryptVAES, Fn: vaesCBCDecrypt}}
	asmECBEncrypt   = []ECBVariant{{ID: ECBEncryptAVX4, Fn: avx4ECBEncrypt}, {ID: ECBEncryptVAES, Fn: vaesECBEncrypt}}
	asmECBDecrypt   = []ECBVariant{{ID: ECBDecryptAVX4, Fn: avx4ECBDecrypt}, {ID: ECBDecryptVAES, Fn: vaesECBDecrypt}}
	asmCTR          = []CTRVariant{{ID: CTRAESNI6, Fn: aesni6CTR}, {ID: CTRVAES, Fn: vaesCTR}}
)

// The Go halves of the variants (variants.go documents each): argument checks, then the
// assembly.

func aesniEncryptBlock(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	encryptBlockAESNI(nr, &xk[0], &dst[0], &src[0])
}

func aesniDecryptBlock(xk []uint32, dst, src []byte) {
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

func aesniCBCEncrypt(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcEncryptAESNI, xk, iv, dst, src)
}

func aesni4CBCDecrypt(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcDecryptAESNI4, xk, iv, dst, src)
}

func vaesCBCDecrypt(xk []uint32, iv *[16]byte, dst, src []byte) int {
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

func avx4ECBEncrypt(xk []uint32, dst, src []byte) int { return ecbCall(ecbEncryptAVX4, xk, dst, src) }

func avx4ECBDecrypt(xk []uint32, dst, src []byte) int { return ecbCall(ecbDecryptAVX4, xk, dst, src) }

func vaesECBEncrypt(xk []uint32, dst, src []byte) int { return ecbCall(ecbEncryptVAES, xk, dst, src) }

func vaesECBDecrypt(xk []uint32, dst, src []byte) int { return ecbCall(ecbDecryptVAES, xk, dst, src) }

type ctrAsm func(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)

func ctrBulk(f ctrAsm) func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
	return func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
		f(nr, &xk[0], ctr, &dst[0], &src[0], len(src))
	}
}

var ctrBulkAESNI6, ctrBulkVAES = ctrBulk(ctrAESNI6), ctrBulk(ctrVAES)

func aesni6CTR(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkAESNI6, aesniEncryptBlock)
}

func vaesCTR(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkVAES, aesniEncryptBlock)
}
