package gcm

import "math/bits"

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

// blockMult multiplies x = (x0, x1) by h in GF(2^128), GCM's field in its
// reflected bit order (the most significant bit of x0 is the coefficient of
// x^0): the product the JDK's GHASH.blockMult computes bit by bit (SP 800-38D
// §6.3, Algorithm 1). Here it is three 64x64 carry-less products
// (Karatsuba) and a reduction by x^128 = x^7 + x^2 + x + 1, with no branch
// or table on the data, so it stays constant-time; TestBlockMult holds it to
// the bitwise algorithm.
func blockMult(x0, x1 uint64, h [2]uint64) (z0, z1 uint64) {
	// As 128-bit integers A = x0:x1 and B = h0:h1, integer bit k is the
	// coefficient of x^(127-k); their carry-less product's bit k is that of
	// x^(254-k).
	lh, ll := clmul64(x1, h[1])
	hh, hl := clmul64(x0, h[0])
	mh, ml := clmul64(x0^x1, h[0]^h[1])
	mh ^= lh ^ hh
	ml ^= ll ^ hl
	p3, p2, p1, p0 := hh, hl^mh, lh^ml, ll
	// Shifted left once, bit k is the coefficient of x^(255-k): the high
	// half (p3:p2) is the product's degrees 0..127, the low half (p1:p0)
	// its degrees 128..255, both in x's layout.
	p3, p2, p1, p0 = p3<<1|p2>>63, p2<<1|p1>>63, p1<<1|p0>>63, p0<<1
	// Fold the low half L: L·x^128 = L·(1 + x + x^2 + x^7); multiplying by x^k
	// is a right shift by k, and the bits it shifts out (degrees 128 and up)
	// are folded once more.
	t1 := p1 ^ (p1 >> 1) ^ (p1 >> 2) ^ (p1 >> 7)
	t0 := p0 ^ (p0>>1 | p1<<63) ^ (p0>>2 | p1<<62) ^ (p0>>7 | p1<<57)
	o := p0<<63 ^ p0<<62 ^ p0<<57 // the shifted-out bits, as degrees 0..6
	t1 ^= o ^ (o >> 1) ^ (o >> 2) ^ (o >> 7)
	return p3 ^ t1, p2 ^ t0
}

// The lane masks: mK has the bits at positions K, K+5, K+10, … of a word.
const (
	m0 = 0x1084210842108421
	m1 = m0 << 1
	m2 = m0 << 2
	m3 = m0 << 3
	m4 = 0x0842108421084210 // m0<<4 less bit 64
)

// clmul64 is the 128-bit carry-less product of x and y. Each operand is split
// into five lanes of every fifth bit; an integer product of two lanes sums at
// most 13 terms at any bit, fewer than 2^4, so its carries stay below the next
// bit of the same lane class, and the class's bits of the sum are the
// carry-less product's there. Bit 64+q of the product is in class K when q
// is in class K+1.
func clmul64(x, y uint64) (hi, lo uint64) {
	x0, x1, x2, x3, x4 := x&m0, x&m1, x&m2, x&m3, x&m4
	y0, y1, y2, y3, y4 := y&m0, y&m1, y&m2, y&m3, y&m4
	lane := func(a0, b0, a1, b1, a2, b2, a3, b3, a4, b4 uint64) (h, l uint64) {
		h0, l0 := bits.Mul64(a0, b0)
		h1, l1 := bits.Mul64(a1, b1)
		h2, l2 := bits.Mul64(a2, b2)
		h3, l3 := bits.Mul64(a3, b3)
		h4, l4 := bits.Mul64(a4, b4)
		return h0 ^ h1 ^ h2 ^ h3 ^ h4, l0 ^ l1 ^ l2 ^ l3 ^ l4
	}
	h0, l0 := lane(x0, y0, x1, y4, x2, y3, x3, y2, x4, y1)
	h1, l1 := lane(x0, y1, x1, y0, x2, y4, x3, y3, x4, y2)
	h2, l2 := lane(x0, y2, x1, y1, x2, y0, x3, y4, x4, y3)
	h3, l3 := lane(x0, y3, x1, y2, x2, y1, x3, y0, x4, y4)
	h4, l4 := lane(x0, y4, x1, y3, x2, y2, x3, y1, x4, y0)
	lo = l0&m0 | l1&m1 | l2&m2 | l3&m3 | l4&m4
	hi = h0&m1 | h1&m2 | h2&m3 | h3&m4 | h4&m0
	return hi, lo
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
