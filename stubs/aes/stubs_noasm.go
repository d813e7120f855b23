//go:build (!amd64 && !arm64) || purego

package aes

var (
	asmBlockEncrypt []BlockVariant
	asmBlockDecrypt []BlockVariant
	asmCBCEncrypt   []CBCVariant
	asmCBCDecrypt   []CBCVariant
	asmECBEncrypt   []ECBVariant
	asmECBDecrypt   []ECBVariant
	asmCTR          []CTRVariant
)
