package gcm

import "github.com/jitsim/jitsim/stubs/aes"

// GCMGeneric is the generic twin of galoisCounterMode_AESCrypt: the Java body
// of GaloisCounterMode.implGCMCrypt0 reduced to its effect, one block at a
// time — the GCTR keystream block E(K, ctr) (SP 800-38D §6.5, inc32), XOR into
// dst, and GHASH of the ciphertext block (§6.4). It processes every whole
// block of src and returns the byte count; the caller finishes a partial
// block. Decrypting, each ciphertext block is hashed before dst is written.
func GCMGeneric(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int {
	n := gcmLen(xk, ctr, state, htbl, dst, src, ct, 16)
	enc := encrypting(dst, ct)
	h := [2]uint64{htbl[0], htbl[1]}
	s0, s1 := state[0], state[1]
	var ks [16]byte
	for off := 0; off < n; off += 16 {
		aes.EncryptBlockGeneric(xk, ks[:], ctr[:])
		inc32(ctr)
		if !enc {
			s0 ^= be64(ct[off : off+8])
			s1 ^= be64(ct[off+8 : off+16])
		}
		d, s := dst[off:off+16], src[off:off+16]
		for i := range ks {
			d[i] = s[i] ^ ks[i]
		}
		if enc {
			s0 ^= be64(ct[off : off+8])
			s1 ^= be64(ct[off+8 : off+16])
		}
		s0, s1 = blockMult(s0, s1, h)
	}
	state[0], state[1] = s0, s1
	return n
}

// inc32 increments the last four bytes of the counter block as a big-endian
// 32-bit integer, modulo 2^32 (SP 800-38D §6.2).
func inc32(ctr *[16]byte) {
	c := uint32(ctr[12])<<24 | uint32(ctr[13])<<16 | uint32(ctr[14])<<8 | uint32(ctr[15])
	c++
	ctr[12], ctr[13], ctr[14], ctr[15] = byte(c>>24), byte(c>>16), byte(c>>8), byte(c)
}
