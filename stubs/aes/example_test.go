package aes_test

import (
	"encoding/hex"
	"fmt"

	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// pick returns the last (most specialised) variant the host can run; the
// generic twin is always first, so there is always one.
func pickCTR() aes.CTRVariant {
	vs := aes.CTRVariants()
	for i := len(vs) - 1; i >= 0; i-- {
		if cpu.Host().HasAll(vs[i].Needs()) {
			return vs[i]
		}
	}
	panic("unreachable")
}

// ExampleExpandKey encrypts the FIPS 197 Appendix C.1 block with the
// generic twin of aescrypt_encryptBlock.
func ExampleExpandKey() {
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	enc, _, err := aes.ExpandKey(key)
	if err != nil {
		panic(err)
	}
	pt, _ := hex.DecodeString("00112233445566778899aabbccddeeff")
	ct := make([]byte, 16)
	aes.EncryptBlockGeneric(enc, ct, pt)
	fmt.Printf("%x\n", ct)
	// Output: 69c4e0d86a7b0430d8cdb78070b4c55a
}

// ExampleCTRFunc runs the best counterMode_AESCrypt variant this CPU can run
// on SP 800-38A F.5.1, in two calls that split the stream mid-block, the
// way the JDK's CounterMode keeps encryptedCounter and used between calls.
func ExampleCTRFunc() {
	key, _ := hex.DecodeString("2b7e151628aed2a6abf7158809cf4f3c")
	enc, _, _ := aes.ExpandKey(key)
	ctr := [16]byte{0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff}
	pt, _ := hex.DecodeString("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
	var encCtr [16]byte
	used := uint32(16) // no key stream left over
	ct := make([]byte, len(pt))
	fn := pickCTR().Fn
	n := fn(enc, &ctr, &encCtr, &used, ct[:5], pt[:5])
	n += fn(enc, &ctr, &encCtr, &used, ct[5:], pt[5:])
	fmt.Println(n, hex.EncodeToString(ct))
	// Output: 32 874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff
}

// ExampleCBCFunc decrypts SP 800-38A F.2.2 in place with every CBC decrypt
// variant the host can run; each returns the bytes done and leaves the last
// ciphertext block in iv.
func ExampleCBCFunc() {
	key, _ := hex.DecodeString("2b7e151628aed2a6abf7158809cf4f3c")
	_, dec, _ := aes.ExpandKey(key)
	for _, v := range aes.CBCDecryptVariants() {
		if !cpu.Host().HasAll(v.Needs()) {
			continue
		}
		buf, _ := hex.DecodeString("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2")
		iv := [16]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
		n := v.Fn(dec, &iv, buf, buf)
		if hex.EncodeToString(buf) != "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51" || n != 32 {
			fmt.Println(v.Name(), "wrong")
		}
	}
	fmt.Println("ok")
	// Output: ok
}

// ExampleECBFunc encrypts two blocks with the generic twin of
// electronicCodeBook_encryptAESCrypt (SP 800-38A F.1.1).
func ExampleECBFunc() {
	key, _ := hex.DecodeString("2b7e151628aed2a6abf7158809cf4f3c")
	enc, _, _ := aes.ExpandKey(key)
	pt, _ := hex.DecodeString("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51")
	ct := make([]byte, len(pt))
	n := aes.ECBEncryptGeneric(enc, ct, pt)
	fmt.Println(n, hex.EncodeToString(ct))
	// Output: 32 3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf
}
