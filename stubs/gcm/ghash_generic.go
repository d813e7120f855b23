package gcm

// GHASHGeneric is the generic twin of ghash_processBlocks: the JDK's
// GHASH.processBlocks Java body, absorbing each block with blockMult
// (SP 800-38D §6.4: Y_i = (Y_{i-1} ⊕ X_i) · H). It reads only htbl[0:2] and
// never writes htbl, so it can share a table with the asm stubs; like them it
// panics if htbl is shorter than HtblLen or data holds fewer than blocks*16
// bytes.
func GHASHGeneric(state *[2]uint64, htbl []uint64, data []byte, blocks int) {
	checkGHASHArgs(state, htbl, data, blocks)
	h := [2]uint64{htbl[0], htbl[1]}
	s0, s1 := state[0], state[1]
	for i := range blocks {
		b := data[16*i : 16*i+16]
		s0 ^= be64(b[0:8])
		s1 ^= be64(b[8:16])
		s0, s1 = blockMult(s0, s1, h)
	}
	state[0], state[1] = s0, s1
}

// blockMult multiplies x = (x0, x1) by h in GF(2^128) with the bitwise
// algorithm of SP 800-38D §6.3 (Algorithm 1), as the JDK's GHASH.blockMult
// does: for each bit of x from the most significant, conditionally add V to
// Z, then V = V·x (a right shift in GCM's reflected bit order, reduced by
// R = 11100001 || 0^120). Masks instead of branches keep it constant-time.
func blockMult(x0, x1 uint64, h [2]uint64) (z0, z1 uint64) {
	v0, v1 := h[0], h[1]
	for i := 0; i < 128; i++ {
		var bit uint64
		if i < 64 {
			bit = x0 >> (63 - i) & 1
		} else {
			bit = x1 >> (127 - i) & 1
		}
		m := -bit
		z0 ^= v0 & m
		z1 ^= v1 & m
		lsb := v1 & 1
		v1 = v1>>1 | v0<<63
		v0 = v0>>1 ^ 0xe100000000000000&-lsb
	}
	return z0, z1
}

func be64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

func putBE64(b []byte, v uint64) {
	_ = b[7]
	b[0], b[1], b[2], b[3] = byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32)
	b[4], b[5], b[6], b[7] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}
