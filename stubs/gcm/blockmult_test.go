package gcm

import (
	"math/rand/v2"
	"testing"
)

// blockMultBitwise is SP 800-38D §6.3's Algorithm 1 bit by bit, as the JDK's
// GHASH.blockMult computes it: the oracle of blockMult.
func blockMultBitwise(x0, x1 uint64, h [2]uint64) (z0, z1 uint64) {
	v0, v1 := h[0], h[1]
	for i := range 128 {
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

// TestBlockMult holds the carry-less blockMult to the bitwise algorithm on
// random operands, dense and sparse ones (single bits, all ones), which reach
// the reductions' edges.
func TestBlockMult(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	words := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 1 << r.IntN(64)
		case 1:
			return ^uint64(0)
		default:
			return r.Uint64()
		}
	}
	for i := range 20000 {
		x0, x1, h := words(), words(), [2]uint64{words(), words()}
		if i%7 == 0 {
			x0 = 0
		}
		g0, g1 := blockMult(x0, x1, h)
		w0, w1 := blockMultBitwise(x0, x1, h)
		if g0 != w0 || g1 != w1 {
			t.Fatalf("blockMult(%#x, %#x, %#x) = %#x %#x, want %#x %#x", x0, x1, h, g0, g1, w0, w1)
		}
	}
}

func BenchmarkBlockMult(b *testing.B) {
	h := [2]uint64{0x66e94bd4ef8a2c3b, 0x884cfa59ca342b2e}
	x0, x1 := uint64(0x0388dace60b6a392), uint64(0xf328c2b971b2fe78)
	b.Run("carryless", func(b *testing.B) {
		for b.Loop() {
			x0, x1 = blockMult(x0, x1, h)
		}
	})
	b.Run("bitwise", func(b *testing.B) {
		for b.Loop() {
			x0, x1 = blockMultBitwise(x0, x1, h)
		}
	})
}
