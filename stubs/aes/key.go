// Package aes holds jitsim's native AES stubs — the machine code HotSpot's
// StubRoutines::aescrypt_*, cipherBlockChaining_*, electronicCodeBook_* and
// counterMode_AESCrypt entries stand for — and their generic Go twins.
//
// # Key layout
//
// Every stub takes the expanded key the way the JDK's AESCrypt object holds it:
// an int[] of 4·(Nr+1) words (44, 52 or 60 for AES-128/192/256), each word the
// big-endian packing of four key-schedule bytes (FIPS 197 §5.2). The stubs
// derive the round count from the length, as HotSpot's do, and byte-swap the
// words as they load them. Decryption takes the schedule of the equivalent
// inverse cipher (FIPS 197 §5.3.5): round keys in reverse order with
// InvMixColumns applied to all but the first and last.
package aes

import (
	"errors"
	"fmt"
)

// KeySizeError reports a key whose length is not 16, 24 or 32 bytes.
type KeySizeError int

func (k KeySizeError) Error() string {
	return fmt.Sprintf("stubs/aes: invalid key size %d (want 16, 24 or 32 bytes)", int(k))
}

// ErrScheduleLength reports an expanded key whose length is not 44, 52 or 60 words.
var ErrScheduleLength = errors.New("stubs/aes: expanded key must have 44, 52 or 60 words")

// sbox and invSbox are computed once from the field arithmetic of FIPS 197 §5.1.1
// rather than typed in, so the tables cannot carry a transcription error.
var sbox, invSbox [256]byte

func init() {
	// Walk the multiplicative group with generator 3: p = 3^i, q = 3^-i.
	p, q := byte(1), byte(1)
	for {
		p = p ^ (p << 1) ^ byte(int8(p)>>7)&0x1b // p *= 3
		q ^= q << 1                              // q /= 3
		q ^= q << 2
		q ^= q << 4
		q ^= byte(int8(q)>>7) & 0x09
		x := q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63
		sbox[p] = x
		if p == 1 {
			break
		}
	}
	sbox[0] = 0x63
	for i := range 256 {
		invSbox[sbox[i]] = byte(i)
	}
	initRoundTables()
}

func rotl8(x byte, n uint) byte { return x<<n | x>>(8-n) }

// Rounds returns the number of AES rounds (10, 12 or 14) for an expanded key of
// 44, 52 or 60 words, the rule HotSpot's stubs apply to the key array length.
func Rounds(xk []uint32) (int, error) {
	switch len(xk) {
	case 44, 52, 60:
		return len(xk)/4 - 1, nil
	}
	return 0, ErrScheduleLength
}

func subWord(w uint32) uint32 {
	return uint32(sbox[w>>24])<<24 | uint32(sbox[w>>16&0xff])<<16 | uint32(sbox[w>>8&0xff])<<8 | uint32(sbox[w&0xff])
}

// ExpandKey returns the encryption schedule (FIPS 197 §5.2) and the equivalent
// inverse cipher's decryption schedule (§5.3.5) for a 16-, 24- or 32-byte key.
func ExpandKey(key []byte) (enc, dec []uint32, err error) {
	nk := len(key) / 4
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, nil, KeySizeError(len(key))
	}
	nr := nk + 6
	n := 4 * (nr + 1)
	enc = make([]uint32, n)
	for i := range nk {
		enc[i] = uint32(key[4*i])<<24 | uint32(key[4*i+1])<<16 | uint32(key[4*i+2])<<8 | uint32(key[4*i+3])
	}
	rcon := uint32(1)
	for i := nk; i < n; i++ {
		t := enc[i-1]
		switch {
		case i%nk == 0:
			t = subWord(t<<8|t>>24) ^ rcon<<24
			rcon = uint32(xtime(byte(rcon)))
		case nk > 6 && i%nk == 4:
			t = subWord(t)
		}
		enc[i] = enc[i-nk] ^ t
	}
	dec = make([]uint32, n)
	for r := 0; r <= nr; r++ {
		for c := range 4 {
			w := enc[4*(nr-r)+c]
			if r > 0 && r < nr {
				w = invMixColumn(w)
			}
			dec[4*r+c] = w
		}
	}
	return enc, dec, nil
}

func xtime(b byte) byte { return b<<1 ^ byte(int8(b)>>7)&0x1b }

// gmul multiplies in GF(2^8) modulo x^8+x^4+x^3+x+1.
func gmul(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		a = xtime(a)
		b >>= 1
	}
	return p
}

func invMixColumn(w uint32) uint32 {
	a0, a1, a2, a3 := byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
	b0 := gmul(a0, 14) ^ gmul(a1, 11) ^ gmul(a2, 13) ^ gmul(a3, 9)
	b1 := gmul(a0, 9) ^ gmul(a1, 14) ^ gmul(a2, 11) ^ gmul(a3, 13)
	b2 := gmul(a0, 13) ^ gmul(a1, 9) ^ gmul(a2, 14) ^ gmul(a3, 11)
	b3 := gmul(a0, 11) ^ gmul(a1, 13) ^ gmul(a2, 9) ^ gmul(a3, 14)
	return uint32(b0)<<24 | uint32(b1)<<16 | uint32(b2)<<8 | uint32(b3)
}
