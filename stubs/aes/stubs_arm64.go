//go:build !purego

package aes

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

// HotSpot's aarch64 port has no ECB stub, so arm64 offers only the generic twin there.
var (
	asmBlockEncrypt = []BlockVariant{{ID: EncryptBlockARMv8, Fn: armv8EncryptBlock}}
	asmBlockDecrypt = []BlockVariant{{ID: DecryptBlockARMv8, Fn: armv8DecryptBlock}}
	asmCBCEncrypt   = []CBCVariant{{ID: CBCEncryptARMv8, Fn: armv8CBCEncrypt}}
	asmCBCDecrypt   = []CBCVariant{{ID: CBCDecryptARMv8, Fn: armv8CBCDecrypt}}
	asmECBEncrypt   []ECBVariant
	asmECBDecrypt   []ECBVariant
	asmCTR          = []CTRVariant{{ID: CTRARMv8x4, Fn: armv8x4CTR}}
)

// The Go halves of the variants (variants.go documents each): argument checks, then the
// assembly.

func armv8EncryptBlock(xk []uint32, dst, src []byte) {
	nr := checkBlock(xk, dst, src)
	encryptBlockARMv8(nr, &xk[0], &dst[0], &src[0])
}

func armv8DecryptBlock(xk []uint32, dst, src []byte) {
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

func armv8CBCEncrypt(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcEncryptARMv8, xk, iv, dst, src)
}

func armv8CBCDecrypt(xk []uint32, iv *[16]byte, dst, src []byte) int {
	return cbcCall(cbcDecryptARMv8, xk, iv, dst, src)
}

func ctrBulkARMv8x4(nr int, xk []uint32, ctr *[16]byte, dst, src []byte) {
	ctrARMv8x4(nr, &xk[0], ctr, &dst[0], &src[0], len(src))
}

func armv8x4CTR(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int {
	return ctrCrypt(xk, ctr, encCtr, used, dst, src, ctrBulkARMv8x4, armv8EncryptBlock)
}
