//go:build !purego

package aes

// The arm64 assembly stubs are not written yet; until they are, arm64 runs
// the generic twins only.
var (
	asmBlockEncrypt []BlockVariant
	asmBlockDecrypt []BlockVariant
	asmCBCEncrypt   []CBCVariant
	asmCBCDecrypt   []CBCVariant
	asmECBEncrypt   []ECBVariant
	asmECBDecrypt   []ECBVariant
	asmCTR          []CTRVariant
)
