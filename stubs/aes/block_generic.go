package aes

// Generic AES (FIPS 197 §5.1 and the equivalent inverse cipher of §5.3.5)
// with 32-bit round tables. This is the purego build and the fallback when the
// CPU lacks the instructions a stub needs; its tables are derived from sbox at
// start-up.

import "math/bits"

var te0, td0 [256]uint32

// initRoundTables fills te0 and td0; key.go's init calls it once sbox exists
// (init functions run in file-name order, so this cannot be an init of its own).
func initRoundTables() {
	for i := range 256 {
		s := sbox[i]
		te0[i] = uint32(gmul(s, 2))<<24 | uint32(s)<<16 | uint32(s)<<8 | uint32(gmul(s, 3))
		v := invSbox[i]
		td0[i] = uint32(gmul(v, 14))<<24 | uint32(gmul(v, 9))<<16 | uint32(gmul(v, 13))<<8 | uint32(gmul(v, 11))
	}
}

func load32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func store32(b []byte, v uint32) {
	_ = b[3]
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}

func te(a, b, c, d uint32) uint32 {
	return te0[a>>24] ^ bits.RotateLeft32(te0[b>>16&0xff], -8) ^
		bits.RotateLeft32(te0[c>>8&0xff], -16) ^ bits.RotateLeft32(te0[d&0xff], -24)
}

func td(a, b, c, d uint32) uint32 {
	return td0[a>>24] ^ bits.RotateLeft32(td0[b>>16&0xff], -8) ^
		bits.RotateLeft32(td0[c>>8&0xff], -16) ^ bits.RotateLeft32(td0[d&0xff], -24)
}

func encryptBlock(nr int, xk []uint32, dst, src []byte) {
	_ = xk[4*nr+3]
	s0 := load32(src[0:]) ^ xk[0]
	s1 := load32(src[4:]) ^ xk[1]
	s2 := load32(src[8:]) ^ xk[2]
	s3 := load32(src[12:]) ^ xk[3]
	k := 4
	for range nr - 1 {
		s0, s1, s2, s3 = te(s0, s1, s2, s3)^xk[k], te(s1, s2, s3, s0)^xk[k+1],
			te(s2, s3, s0, s1)^xk[k+2], te(s3, s0, s1, s2)^xk[k+3]
		k += 4
	}
	last := func(a, b, c, d uint32) uint32 {
		return uint32(sbox[a>>24])<<24 | uint32(sbox[b>>16&0xff])<<16 | uint32(sbox[c>>8&0xff])<<8 | uint32(sbox[d&0xff])
	}
	o0 := last(s0, s1, s2, s3) ^ xk[k]
	o1 := last(s1, s2, s3, s0) ^ xk[k+1]
	o2 := last(s2, s3, s0, s1) ^ xk[k+2]
	o3 := last(s3, s0, s1, s2) ^ xk[k+3]
	store32(dst[0:], o0)
	store32(dst[4:], o1)
	store32(dst[8:], o2)
	store32(dst[12:], o3)
}

// decryptBlock runs the equivalent inverse cipher with the decryption schedule.
func decryptBlock(nr int, xk []uint32, dst, src []byte) {
	_ = xk[4*nr+3]
	s0 := load32(src[0:]) ^ xk[0]
	s1 := load32(src[4:]) ^ xk[1]
	s2 := load32(src[8:]) ^ xk[2]
	s3 := load32(src[12:]) ^ xk[3]
	k := 4
	for range nr - 1 {
		s0, s1, s2, s3 = td(s0, s3, s2, s1)^xk[k], td(s1, s0, s3, s2)^xk[k+1],
			td(s2, s1, s0, s3)^xk[k+2], td(s3, s2, s1, s0)^xk[k+3]
		k += 4
	}
	last := func(a, b, c, d uint32) uint32 {
		return uint32(invSbox[a>>24])<<24 | uint32(invSbox[b>>16&0xff])<<16 | uint32(invSbox[c>>8&0xff])<<8 | uint32(invSbox[d&0xff])
	}
	o0 := last(s0, s3, s2, s1) ^ xk[k]
	o1 := last(s1, s0, s3, s2) ^ xk[k+1]
	o2 := last(s2, s1, s0, s3) ^ xk[k+2]
	o3 := last(s3, s2, s1, s0) ^ xk[k+3]
	store32(dst[0:], o0)
	store32(dst[4:], o1)
	store32(dst[8:], o2)
	store32(dst[12:], o3)
}
