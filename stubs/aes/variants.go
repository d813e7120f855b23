package aes

import (
	"slices"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Which variants do the AES stubs have, and what does each one's code need? This file is the
// one declaration of each: its StubRoutines entry, its name, the architecture of its assembly
// and the CPU features that assembly uses. The code itself is in stubs_amd64.go and
// stubs_arm64.go (built for one GOARCH each, not under the purego tag) and block_generic.go.

// Feature sets the generated code uses: avo's "Requires" lines on amd64, plus SSSE3 for the
// PSHUFB that byte-swaps the JDK's key words (the VAES stubs also use VEX-encoded AVX, which
// AVX512F implies); AESE/AESD/AESMC/AESIMC and NEON on arm64.
var (
	needsAESNI     = cpu.Of(cpu.AES, cpu.SSSE3)
	needsAVX       = needsAESNI.With(cpu.AVX) // VEX-encoded AES-NI on XMM
	needsVAES      = needsAESNI.With(cpu.AVX512F, cpu.VAES)
	needsVAESShufB = needsVAES.With(cpu.AVX512BW) // VPSHUFB on ZMM (counter byte order)
	needsARMv8     = cpu.Of(cpu.ASIMD, cpu.ARM_AES)
)

// The variants of each entry: the generic Go twin (EncryptBlockGeneric, …, CTRGeneric) first,
// then the assembly. HotSpot's aarch64 port has no ECB stub, so arm64 has no ECB variant.
var (
	genericEncryptBlock = generic(StubEncryptBlock)
	// EncryptBlockAESNI is aescrypt_encryptBlock for AES-NI.
	EncryptBlockAESNI = asm(StubEncryptBlock, "aesni", jdk.AMD64, needsAESNI)
	// EncryptBlockARMv8 is aescrypt_encryptBlock for the Armv8 Cryptographic Extension.
	EncryptBlockARMv8 = asm(StubEncryptBlock, "armv8-aes", jdk.ARM64, needsARMv8)
)

var (
	genericDecryptBlock = generic(StubDecryptBlock)
	// DecryptBlockAESNI is aescrypt_decryptBlock for AES-NI; it takes the decryption schedule.
	DecryptBlockAESNI = asm(StubDecryptBlock, "aesni", jdk.AMD64, needsAESNI)
	// DecryptBlockARMv8 is aescrypt_decryptBlock for Armv8; it takes the decryption schedule.
	DecryptBlockARMv8 = asm(StubDecryptBlock, "armv8-aes", jdk.ARM64, needsARMv8)
)

var (
	genericCBCEncrypt = generic(StubCBCEncrypt)
	// CBCEncryptAESNI is cipherBlockChaining_encryptAESCrypt for AES-NI (serial).
	CBCEncryptAESNI = asm(StubCBCEncrypt, "aesni", jdk.AMD64, needsAESNI)
	// CBCEncryptARMv8 is cipherBlockChaining_encryptAESCrypt for Armv8.
	CBCEncryptARMv8 = asm(StubCBCEncrypt, "armv8-aes", jdk.ARM64, needsARMv8)
)

var (
	genericCBCDecrypt = generic(StubCBCDecrypt)
	// CBCDecryptAESNI4 is cipherBlockChaining_decryptAESCrypt, AES-NI four blocks at a time.
	CBCDecryptAESNI4 = asm(StubCBCDecrypt, "aesni-parallel4", jdk.AMD64, needsAESNI)
	// CBCDecryptVAES is cipherBlockChaining_decryptAESCrypt, AVX-512 VAES 32 blocks at a time.
	CBCDecryptVAES = asm(StubCBCDecrypt, "vaes-avx512", jdk.AMD64, needsVAES)
	// CBCDecryptARMv8 is cipherBlockChaining_decryptAESCrypt for Armv8 (one block per
	// iteration, as HotSpot's).
	CBCDecryptARMv8 = asm(StubCBCDecrypt, "armv8-aes", jdk.ARM64, needsARMv8)
)

var (
	genericECBEncrypt = generic(StubECBEncrypt)
	// ECBEncryptAVX4 is electronicCodeBook_encryptAESCrypt as JDK-8376164's AVX2 stub, four
	// blocks at a time (generator name unverified; no selection rule picks it).
	ECBEncryptAVX4 = asm(StubECBEncrypt, "avx2-parallel4", jdk.AMD64, needsAVX)
	// ECBEncryptVAES is electronicCodeBook_encryptAESCrypt for AVX-512 VAES.
	ECBEncryptVAES = asm(StubECBEncrypt, "vaes-avx512", jdk.AMD64, needsVAES)
)

var (
	genericECBDecrypt = generic(StubECBDecrypt)
	// ECBDecryptAVX4 is electronicCodeBook_decryptAESCrypt as JDK-8376164's AVX2 stub (no
	// selection rule picks it).
	ECBDecryptAVX4 = asm(StubECBDecrypt, "avx2-parallel4", jdk.AMD64, needsAVX)
	// ECBDecryptVAES is electronicCodeBook_decryptAESCrypt for AVX-512 VAES.
	ECBDecryptVAES = asm(StubECBDecrypt, "vaes-avx512", jdk.AMD64, needsVAES)
)

var (
	genericCTR = generic(StubCTR)
	// CTRAESNI6 is counterMode_AESCrypt, AES-NI six blocks at a time.
	CTRAESNI6 = asm(StubCTR, "aesni-parallel6", jdk.AMD64, needsAESNI)
	// CTRVAES is counterMode_AESCrypt, AVX-512 VAES 32 blocks at a time.
	CTRVAES = asm(StubCTR, "vaes-avx512", jdk.AMD64, needsVAESShufB)
	// CTRARMv8x4 is counterMode_AESCrypt for Armv8, four blocks at a time.
	CTRARMv8x4 = asm(StubCTR, "armv8-aes-4wide", jdk.ARM64, needsARMv8)
)

// declared holds every variant declared above, in declaration order.
var declared variant.List

var (
	generic = declared.Generic
	asm     = declared.Declare
)

// Variants returns every AES variant, of every architecture, whether or not this binary
// has its code, in declaration order: by entry, each entry's generic twin first.
func Variants() []variant.ID { return declared.IDs() }

// Built returns the variants whose code is in this binary, in the order of the variant lists.
func Built() []variant.ID {
	return slices.Concat(variant.IDs(BlockEncryptVariants, BlockDecryptVariants), variant.IDs(CBCEncryptVariants, CBCDecryptVariants),
		variant.IDs(ECBEncryptVariants, ECBDecryptVariants), variant.IDs(CTRVariants))
}

// BlockCode returns the code of a block-stub variant (aescrypt_encryptBlock or
// aescrypt_decryptBlock), or false when id is none built into this binary.
func BlockCode(id variant.ID) (BlockFunc, bool) {
	return variant.Find(id, BlockEncryptVariants, BlockDecryptVariants)
}

// CBCCode returns the code of a CBC variant, or false when id is none built into this binary.
func CBCCode(id variant.ID) (CBCFunc, bool) {
	return variant.Find(id, CBCEncryptVariants, CBCDecryptVariants)
}

// ECBCode returns the code of an ECB variant, or false when id is none built into this binary.
func ECBCode(id variant.ID) (ECBFunc, bool) {
	return variant.Find(id, ECBEncryptVariants, ECBDecryptVariants)
}

// CTRCode returns the code of a CTR variant, or false when id is none built into this binary.
func CTRCode(id variant.ID) (CTRFunc, bool) { return variant.Find(id, CTRVariants) }
