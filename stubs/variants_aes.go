package stubs

import (
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// AES selection rules, from hotspot.md §2.4–2.6 (StubGenerator::generate_aes_stubs
// in src/hotspot/cpu/x86/stubGenerator_x86_64_aes.cpp, generate_compiler_stubs in
// src/hotspot/cpu/aarch64/stubGenerator_aarch64.cpp) and the ergonomics of
// vm_version_x86.cpp §3.2: x86 AES intrinsics need AES-NI, UseAES and
// UseSSE > 2; the CTR intrinsic needs SSE4.1 and UseAESIntrinsics; x86 has no
// CTR stub before JDK 9 (JDK-8143355) and aarch64 none before the JDK 18
// rework (JDK-8271567).
func init() {
	// UseSSE > 2 keeps SSE3 and SSSE3 together (cpu.Mask), and every AES-NI
	// part has SSSE3, whose PSHUFB the stubs use to byte-swap key words.
	x86AES := cpu.Of(cpu.AES, cpu.SSSE3)
	vaesCBC := x86AES.With(cpu.VAES, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512DQ)
	vaesCTR := x86AES.With(cpu.SSE41, cpu.VAES, cpu.AVX512F, cpu.AVX512BW, cpu.AVX512VL)
	arm := cpu.Of(cpu.ARM_AES)
	const (
		blockCond  = "UseAESIntrinsics (x86: UseAES, AES-NI, UseSSE > 2)"
		vaesCond   = "UseAESIntrinsics and avx512_vaes && avx512vl && avx512dq (UseAVX = 3)"
		ctrPar     = "UseAESCTRIntrinsics (needs UseAESIntrinsics and SSE4.1), no AVX-512 VAES with BW+VL"
		ctrVec     = "UseAESCTRIntrinsics and avx512_vaes && avx512bw && avx512vl (UseAVX = 3)"
		armCond    = "UseAESIntrinsics (aarch64 AES feature)"
		armCTRCond = "UseAESIntrinsics and UseAESCTRIntrinsics (aarch64 AES feature)"
	)
	x86F := UseAES | UseAESIntrinsics
	register(
		Rule{aes.EncryptBlockAESNI, "generate_aescrypt_encryptBlock", jdk.Since(jdk.R8), x86F, x86AES, blockCond},
		Rule{aes.DecryptBlockAESNI, "generate_aescrypt_decryptBlock", jdk.Since(jdk.R8), x86F, x86AES, blockCond},
		Rule{aes.CBCEncryptAESNI, "generate_cipherBlockChaining_encryptAESCrypt", jdk.Since(jdk.R8), x86F, x86AES, blockCond},
		Rule{aes.CBCDecryptVAES, "generate_cipherBlockChaining_decryptVectorAESCrypt", jdk.Since(jdk.R17), x86F, vaesCBC, vaesCond},
		Rule{aes.CBCDecryptAESNI4, "generate_cipherBlockChaining_decryptAESCrypt_Parallel", jdk.Since(jdk.R8), x86F, x86AES,
			blockCond + ", no AVX-512 VAES with VL+DQ"},
		Rule{aes.ECBEncryptVAES, "generate_electronicCodeBook_encryptAESCrypt", jdk.Since(jdk.R17), x86F, vaesCBC, vaesCond},
		Rule{aes.ECBDecryptVAES, "generate_electronicCodeBook_decryptAESCrypt", jdk.Since(jdk.R17), x86F, vaesCBC, vaesCond},
		Rule{aes.CTRVAES, "generate_counterMode_VectorAESCrypt", jdk.Since(jdk.R17), x86F | UseAESCTRIntrinsics, vaesCTR, ctrVec},
		Rule{aes.CTRAESNI6, "generate_counterMode_AESCrypt_Parallel", jdk.Since(jdk.R17), x86F | UseAESCTRIntrinsics,
			x86AES.With(cpu.SSE41), ctrPar},

		Rule{aes.EncryptBlockARMv8, "generate_aescrypt_encryptBlock", jdk.Since(jdk.R8), UseAESIntrinsics, arm, armCond},
		Rule{aes.DecryptBlockARMv8, "generate_aescrypt_decryptBlock", jdk.Since(jdk.R8), UseAESIntrinsics, arm, armCond},
		Rule{aes.CBCEncryptARMv8, "generate_cipherBlockChaining_encryptAESCrypt", jdk.Since(jdk.R8), UseAESIntrinsics, arm, armCond},
		Rule{aes.CBCDecryptARMv8, "generate_cipherBlockChaining_decryptAESCrypt", jdk.Since(jdk.R8), UseAESIntrinsics, arm, armCond},
		Rule{aes.CTRARMv8x4, "generate_counterMode_AESCrypt", jdk.Since(jdk.R21), UseAESIntrinsics | UseAESCTRIntrinsics, arm, armCTRCond},
	)
	registerBuilt(aes.Built()...)
}
