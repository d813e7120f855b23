package gcm_test

import (
	"fmt"

	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// Every GHASH variant the host can run computes the same state: here the
// GHASH of test case 2 of the GCM specification (one ciphertext block and
// the length block, H = E(0¹²⁸, 0¹²⁸)).
func ExampleGHASHVariants() {
	xk, _, _ := aes.ExpandKey(make([]byte, 16))
	var h [16]byte
	aes.EncryptBlockGeneric(xk, h[:], h[:])
	htbl := make([]uint64, gcm.HtblLen)
	for i := range 8 {
		htbl[0] = htbl[0]<<8 | uint64(h[i])
		htbl[1] = htbl[1]<<8 | uint64(h[8+i])
	}
	data := []byte{
		0x03, 0x88, 0xda, 0xce, 0x60, 0xb6, 0xa3, 0x92, 0xf3, 0x28, 0xc2, 0xb9, 0x71, 0xb2, 0xfe, 0x78,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,
	}
	states := map[[2]uint64]bool{}
	for _, v := range gcm.GHASHVariants() {
		if !cpu.Host().HasAll(v.Needs()) {
			continue
		}
		var s [2]uint64
		v.Fn(&s, htbl, data, 2)
		states[s] = true
	}
	for s := range states {
		fmt.Printf("%016x%016x\n", s[0], s[1])
	}
	// Output: f38cbb1ad69223dcc3457ae5b6b0f885
}
