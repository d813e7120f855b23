package tiers_test

import (
	"encoding/binary"
	"math/bits"
)

// A portable Go implementation of the reference methods' algorithms: the
// same T-table AES (two rounds per loop trip), the JDK's byte-at-a-time CTR
// loop with a 128-bit counter, CBC, and the bitwise GHASH blockMult. It is
// the benchmarks' "native Java-JIT-ish" peer: what the same algorithm costs
// when compiled by an ahead-of-time compiler with no wasm in between.

var ptS, ptSi [256]byte
var ptTe, ptTd [4][256]uint32

func init() {
	var alog, lg [256]byte
	p := byte(1)
	for i := range 255 {
		alog[i] = p
		lg[p] = byte(i)
		p ^= ptXtime(p)
	}
	for x := range 256 {
		var inv byte
		if x != 0 {
			inv = alog[(255-int(lg[x]))%255]
		}
		s := inv ^ bits.RotateLeft8(inv, 1) ^ bits.RotateLeft8(inv, 2) ^ bits.RotateLeft8(inv, 3) ^ bits.RotateLeft8(inv, 4) ^ 0x63
		ptS[x] = s
		ptSi[s] = byte(x)
	}
	for x := range 256 {
		s := ptS[x]
		te := uint32(ptMul(s, 2))<<24 | uint32(s)<<16 | uint32(s)<<8 | uint32(ptMul(s, 3))
		v := ptSi[x]
		td := uint32(ptMul(v, 14))<<24 | uint32(ptMul(v, 9))<<16 | uint32(ptMul(v, 13))<<8 | uint32(ptMul(v, 11))
		for r := range 4 {
			ptTe[r][x] = bits.RotateLeft32(te, -8*r)
			ptTd[r][x] = bits.RotateLeft32(td, -8*r)
		}
	}
}

func ptXtime(b byte) byte {
	if b&0x80 != 0 {
		return b<<1 ^ 0x1b
	}
	return b << 1
}

func ptMul(a, b byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a = ptXtime(a)
	}
	return p
}

// ptBlock encrypts (or, with the inverse schedule, decrypts) one block.
func ptBlock(dec bool, k []uint32, dst, src []byte) {
	if dec {
		ptDecrypt(k, dst, src)
		return
	}
	t0 := binary.BigEndian.Uint32(src) ^ k[0]
	t1 := binary.BigEndian.Uint32(src[4:]) ^ k[1]
	t2 := binary.BigEndian.Uint32(src[8:]) ^ k[2]
	t3 := binary.BigEndian.Uint32(src[12:]) ^ k[3]
	te0, te1, te2, te3 := &ptTe[0], &ptTe[1], &ptTe[2], &ptTe[3]
	ko := 4
	for ; ko < len(k)-8; ko += 8 {
		a0 := te0[t0>>24] ^ te1[t1>>16&0xff] ^ te2[t2>>8&0xff] ^ te3[t3&0xff] ^ k[ko]
		a1 := te0[t1>>24] ^ te1[t2>>16&0xff] ^ te2[t3>>8&0xff] ^ te3[t0&0xff] ^ k[ko+1]
		a2 := te0[t2>>24] ^ te1[t3>>16&0xff] ^ te2[t0>>8&0xff] ^ te3[t1&0xff] ^ k[ko+2]
		a3 := te0[t3>>24] ^ te1[t0>>16&0xff] ^ te2[t1>>8&0xff] ^ te3[t2&0xff] ^ k[ko+3]
		t0 = te0[a0>>24] ^ te1[a1>>16&0xff] ^ te2[a2>>8&0xff] ^ te3[a3&0xff] ^ k[ko+4]
		t1 = te0[a1>>24] ^ te1[a2>>16&0xff] ^ te2[a3>>8&0xff] ^ te3[a0&0xff] ^ k[ko+5]
		t2 = te0[a2>>24] ^ te1[a3>>16&0xff] ^ te2[a0>>8&0xff] ^ te3[a1&0xff] ^ k[ko+6]
		t3 = te0[a3>>24] ^ te1[a0>>16&0xff] ^ te2[a1>>8&0xff] ^ te3[a2&0xff] ^ k[ko+7]
	}
	a0 := te0[t0>>24] ^ te1[t1>>16&0xff] ^ te2[t2>>8&0xff] ^ te3[t3&0xff] ^ k[ko]
	a1 := te0[t1>>24] ^ te1[t2>>16&0xff] ^ te2[t3>>8&0xff] ^ te3[t0&0xff] ^ k[ko+1]
	a2 := te0[t2>>24] ^ te1[t3>>16&0xff] ^ te2[t0>>8&0xff] ^ te3[t1&0xff] ^ k[ko+2]
	a3 := te0[t3>>24] ^ te1[t0>>16&0xff] ^ te2[t1>>8&0xff] ^ te3[t2&0xff] ^ k[ko+3]
	ko += 4
	s := &ptS
	binary.BigEndian.PutUint32(dst, (uint32(s[a0>>24])<<24|uint32(s[a1>>16&0xff])<<16|uint32(s[a2>>8&0xff])<<8|uint32(s[a3&0xff]))^k[ko])
	binary.BigEndian.PutUint32(dst[4:], (uint32(s[a1>>24])<<24|uint32(s[a2>>16&0xff])<<16|uint32(s[a3>>8&0xff])<<8|uint32(s[a0&0xff]))^k[ko+1])
	binary.BigEndian.PutUint32(dst[8:], (uint32(s[a2>>24])<<24|uint32(s[a3>>16&0xff])<<16|uint32(s[a0>>8&0xff])<<8|uint32(s[a1&0xff]))^k[ko+2])
	binary.BigEndian.PutUint32(dst[12:], (uint32(s[a3>>24])<<24|uint32(s[a0>>16&0xff])<<16|uint32(s[a1>>8&0xff])<<8|uint32(s[a2&0xff]))^k[ko+3])
}

// ptDecrypt is the equivalent inverse cipher (FIPS 197 §5.3.5).
func ptDecrypt(k []uint32, dst, src []byte) {
	t0 := binary.BigEndian.Uint32(src) ^ k[0]
	t1 := binary.BigEndian.Uint32(src[4:]) ^ k[1]
	t2 := binary.BigEndian.Uint32(src[8:]) ^ k[2]
	t3 := binary.BigEndian.Uint32(src[12:]) ^ k[3]
	td0, td1, td2, td3 := &ptTd[0], &ptTd[1], &ptTd[2], &ptTd[3]
	ko := 4
	for ; ko < len(k)-8; ko += 8 {
		a0 := td0[t0>>24] ^ td1[t3>>16&0xff] ^ td2[t2>>8&0xff] ^ td3[t1&0xff] ^ k[ko]
		a1 := td0[t1>>24] ^ td1[t0>>16&0xff] ^ td2[t3>>8&0xff] ^ td3[t2&0xff] ^ k[ko+1]
		a2 := td0[t2>>24] ^ td1[t1>>16&0xff] ^ td2[t0>>8&0xff] ^ td3[t3&0xff] ^ k[ko+2]
		a3 := td0[t3>>24] ^ td1[t2>>16&0xff] ^ td2[t1>>8&0xff] ^ td3[t0&0xff] ^ k[ko+3]
		t0 = td0[a0>>24] ^ td1[a3>>16&0xff] ^ td2[a2>>8&0xff] ^ td3[a1&0xff] ^ k[ko+4]
		t1 = td0[a1>>24] ^ td1[a0>>16&0xff] ^ td2[a3>>8&0xff] ^ td3[a2&0xff] ^ k[ko+5]
		t2 = td0[a2>>24] ^ td1[a1>>16&0xff] ^ td2[a0>>8&0xff] ^ td3[a3&0xff] ^ k[ko+6]
		t3 = td0[a3>>24] ^ td1[a2>>16&0xff] ^ td2[a1>>8&0xff] ^ td3[a0&0xff] ^ k[ko+7]
	}
	a0 := td0[t0>>24] ^ td1[t3>>16&0xff] ^ td2[t2>>8&0xff] ^ td3[t1&0xff] ^ k[ko]
	a1 := td0[t1>>24] ^ td1[t0>>16&0xff] ^ td2[t3>>8&0xff] ^ td3[t2&0xff] ^ k[ko+1]
	a2 := td0[t2>>24] ^ td1[t1>>16&0xff] ^ td2[t0>>8&0xff] ^ td3[t3&0xff] ^ k[ko+2]
	a3 := td0[t3>>24] ^ td1[t2>>16&0xff] ^ td2[t1>>8&0xff] ^ td3[t0&0xff] ^ k[ko+3]
	ko += 4
	s := &ptSi
	binary.BigEndian.PutUint32(dst, (uint32(s[a0>>24])<<24|uint32(s[a3>>16&0xff])<<16|uint32(s[a2>>8&0xff])<<8|uint32(s[a1&0xff]))^k[ko])
	binary.BigEndian.PutUint32(dst[4:], (uint32(s[a1>>24])<<24|uint32(s[a0>>16&0xff])<<16|uint32(s[a3>>8&0xff])<<8|uint32(s[a2&0xff]))^k[ko+1])
	binary.BigEndian.PutUint32(dst[8:], (uint32(s[a2>>24])<<24|uint32(s[a1>>16&0xff])<<16|uint32(s[a0>>8&0xff])<<8|uint32(s[a3&0xff]))^k[ko+2])
	binary.BigEndian.PutUint32(dst[12:], (uint32(s[a3>>24])<<24|uint32(s[a2>>16&0xff])<<16|uint32(s[a1>>8&0xff])<<8|uint32(s[a0&0xff]))^k[ko+3])
}

func ptCBCEncrypt(k []uint32, r, src, dst []byte) {
	var x [16]byte
	for i := 0; i+16 <= len(src); i += 16 {
		for j := range 16 {
			x[j] = src[i+j] ^ r[j]
		}
		ptBlock(false, k, dst[i:], x[:])
		copy(r, dst[i:i+16])
	}
}

func ptCBCDecrypt(kd []uint32, r, src, dst []byte) {
	var x, save [16]byte
	for i := 0; i+16 <= len(src); i += 16 {
		copy(save[:], src[i:])
		ptBlock(true, kd, x[:], save[:])
		for j := range 16 {
			dst[i+j] = x[j] ^ r[j]
		}
		copy(r, save[:])
	}
}

func ptECB(dec bool, k []uint32, src, dst []byte) {
	for i := 0; i+16 <= len(src); i += 16 {
		ptBlock(dec, k, dst[i:], src[i:])
	}
}

// ptCTR is CounterMode.implCrypt's byte loop.
func ptCTR(k []uint32, counter, ectr []byte, used *int, src, dst []byte) {
	u := *used
	for i := range src {
		if u >= 16 {
			ptBlock(false, k, ectr, counter)
			for j := 15; j >= 0; j-- {
				counter[j]++
				if counter[j] != 0 {
					break
				}
			}
			u = 0
		}
		dst[i] = src[i] ^ ectr[u]
		u++
	}
	*used = u
}

// ptGHASH is GHASH.processBlocks with the bitwise blockMult.
func ptGHASH(st *[2]uint64, h [2]uint64, data []byte) {
	for i := 0; i+16 <= len(data); i += 16 {
		x0 := st[0] ^ binary.BigEndian.Uint64(data[i:])
		x1 := st[1] ^ binary.BigEndian.Uint64(data[i+8:])
		var z0, z1 uint64
		v0, v1 := h[0], h[1]
		x := x0
		for b := range 128 {
			if b == 64 {
				x = x1
			}
			m := uint64(int64(x) >> 63)
			z0 ^= v0 & m
			z1 ^= v1 & m
			r := uint64(int64(v1<<63) >> 63)
			v1 = v1>>1 | v0<<63
			v0 = v0>>1 ^ 0xe100000000000000&r
			x <<= 1
		}
		st[0], st[1] = z0, z1
	}
}

// ptGCTR is GCTR with inc32, whole blocks.
func ptGCTR(k []uint32, counter, src, dst []byte) {
	var e [16]byte
	for i := 0; i+16 <= len(src); i += 16 {
		ptBlock(false, k, e[:], counter)
		for j := range 16 {
			dst[i+j] = src[i+j] ^ e[j]
		}
		for j := 15; j >= 12; j-- {
			counter[j]++
			if counter[j] != 0 {
				break
			}
		}
	}
}
