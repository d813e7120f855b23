package gcm

// fillPowers writes H¹…H³² into htbl[2:HtblLen] in the layout the asm stubs
// read, if htbl[2:] has not been filled since it was last zeroed. It is the Go half of the asm stubs'
// first-use precomputation (HotSpot computes its subkeyHtbl powers inside the
// stub, generate_ghash_processBlocks's "avx_ghash_precompute" step; doing it
// here once per key costs 32 bitwise multiplications and keeps the asm short).
//
// Layout: the powers are stored in descending order, H³² first, so that a
// 16-, 32- or 64-byte load starting at power p yields the powers for blocks
// j, j+1, … of a chunk whose last block gets H¹. Each entry is the 128-bit
// integer I(P) = P's bytes reversed (what PSHUFB with a byte-reversal mask,
// or REV64+EXT on arm64, makes of a GHASH block), multiplied by the integer
// 2 modulo the reflected polynomial: the carry-less product of I(X) and that
// value is then exactly I(X·P) before reduction, without the 1-bit shift
// that reflected multiplication otherwise needs. Word 2k holds the low 64
// bits, word 2k+1 the high ones (little-endian xmm order).
func fillPowers(htbl []uint64) {
	if len(htbl) < HtblLen {
		panic("BUG: stubs/gcm: fillPowers on a table the argument checks should have rejected")
	}
	// H¹ is stored as H·2 mod P, zero only if H is: a non-zero slot means the
	// table is filled (the caller zeroes htbl[2:] whenever H changes).
	if i := powerIndex(1); htbl[i]|htbl[i+1] != 0 {
		return
	}
	h := [2]uint64{htbl[0], htbl[1]}
	p := h
	for k := 1; k <= maxPowers; k++ {
		hi, lo := p[0], p[1]
		carry := hi >> 63
		hi = hi<<1 | lo>>63
		lo <<= 1
		hi ^= 0xc200000000000000 & -carry
		lo ^= carry
		i := powerIndex(k)
		htbl[i], htbl[i+1] = lo, hi
		if k <= karatsubaPowers {
			j := karatsubaIndex(k)
			htbl[j], htbl[j+1] = lo^hi, lo^hi
		}
		p[0], p[1] = blockMult(p[0], p[1], h)
	}
}

// karatsubaIndex returns the htbl word index of the Karatsuba entry of H^k
// (1 ≤ k ≤ karatsubaPowers): both words hold the XOR of the two halves of
// H^k's entry, the middle operand of a three-multiplication product.
func karatsubaIndex(k int) int { return 2 + 2*maxPowers + 2*(karatsubaPowers-k) }

// powerIndex returns the htbl word index of H^k (1 ≤ k ≤ maxPowers).
func powerIndex(k int) int { return 2 + 2*(maxPowers-k) }
