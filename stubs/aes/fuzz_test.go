package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/jitsim/jitsim/stubs/variant"
)

// Differential fuzz targets: every variant the host can run against
// crypto/aes + crypto/cipher on the same input. Seeds live in
// testdata/fuzz/FuzzXxx; run one with e.g. go test -fuzz FuzzCTR ./stubs/aes.

// fuzzKey turns arbitrary bytes into a 16-, 24- or 32-byte key (chosen by sel).
func fuzzKey(t *testing.T, sel uint8, raw []byte) (enc, dec []uint32, std cipher.Block) {
	key := make([]byte, []int{16, 24, 32}[sel%3])
	copy(key, raw)
	enc, dec, err := ExpandKey(key)
	if err != nil {
		t.Fatal(err)
	}
	std, err = stdaes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	return enc, dec, std
}

func usable(id variant.ID) bool { return ran.Runnable(id) }

func FuzzBlock(f *testing.F) {
	f.Fuzz(func(t *testing.T, sel uint8, key, block []byte) {
		if len(block) < 16 {
			return
		}
		block = block[:16]
		enc, dec, std := fuzzKey(t, sel, key)
		want := make([]byte, 16)
		std.Encrypt(want, block)
		for _, v := range BlockEncryptVariants() {
			if usable(v.ID) {
				got := make([]byte, 16)
				v.Fn(enc, got, block)
				if !bytes.Equal(got, want) {
					t.Errorf("encrypt %s: %x, want %x", v.Name(), got, want)
				}
			}
		}
		std.Decrypt(want, block)
		for _, v := range BlockDecryptVariants() {
			if usable(v.ID) {
				got := make([]byte, 16)
				v.Fn(dec, got, block)
				if !bytes.Equal(got, want) {
					t.Errorf("decrypt %s: %x, want %x", v.Name(), got, want)
				}
			}
		}
	})
}

func FuzzCBC(f *testing.F) {
	f.Fuzz(func(t *testing.T, sel uint8, key, iv, data []byte) {
		if len(iv) < 16 {
			return
		}
		data = data[:len(data)&^15]
		enc, dec, std := fuzzKey(t, sel, key)
		want := make([]byte, len(data))
		cipher.NewCBCEncrypter(std, iv[:16]).CryptBlocks(want, data)
		for _, v := range CBCEncryptVariants() {
			if usable(v.ID) {
				got := make([]byte, len(data))
				st := [16]byte(iv)
				if n := v.Fn(enc, &st, got, data); n != len(data) || !bytes.Equal(got, want) {
					t.Errorf("encrypt %s: n=%d, output differs at %d", v.Name(), n, firstDiff(got, want))
				}
			}
		}
		cipher.NewCBCDecrypter(std, iv[:16]).CryptBlocks(want, data)
		for _, v := range CBCDecryptVariants() {
			if usable(v.ID) {
				got := make([]byte, len(data))
				st := [16]byte(iv)
				if n := v.Fn(dec, &st, got, data); n != len(data) || !bytes.Equal(got, want) {
					t.Errorf("decrypt %s: n=%d, output differs at %d", v.Name(), n, firstDiff(got, want))
				}
			}
		}
	})
}

func FuzzECB(f *testing.F) {
	f.Fuzz(func(t *testing.T, sel uint8, key, data []byte) {
		data = data[:len(data)&^15]
		enc, dec, std := fuzzKey(t, sel, key)
		wantE, wantD := make([]byte, len(data)), make([]byte, len(data))
		for i := 0; i < len(data); i += 16 {
			std.Encrypt(wantE[i:], data[i:])
			std.Decrypt(wantD[i:], data[i:])
		}
		for _, v := range ECBEncryptVariants() {
			if usable(v.ID) {
				got := make([]byte, len(data))
				if n := v.Fn(enc, got, data); n != len(data) || !bytes.Equal(got, wantE) {
					t.Errorf("encrypt %s: n=%d, output differs at %d", v.Name(), n, firstDiff(got, wantE))
				}
			}
		}
		for _, v := range ECBDecryptVariants() {
			if usable(v.ID) {
				got := make([]byte, len(data))
				if n := v.Fn(dec, got, data); n != len(data) || !bytes.Equal(got, wantD) {
					t.Errorf("decrypt %s: n=%d, output differs at %d", v.Name(), n, firstDiff(got, wantD))
				}
			}
		}
	})
}

// FuzzCTR splits the stream at cut, so the second call starts mid-block with
// the (encCtr, used) state the first left behind.
func FuzzCTR(f *testing.F) {
	f.Fuzz(func(t *testing.T, sel uint8, key, ctr, data []byte, cut uint16) {
		if len(ctr) < 16 {
			return
		}
		enc, _, std := fuzzKey(t, sel, key)
		want := make([]byte, len(data))
		cipher.NewCTR(std, ctr[:16]).XORKeyStream(want, data)
		c := min(int(cut), len(data))
		for _, v := range CTRVariants() {
			if usable(v.ID) {
				got := make([]byte, len(data))
				st := [16]byte(ctr)
				var ec [16]byte
				used := uint32(16)
				n := v.Fn(enc, &st, &ec, &used, got[:c], data[:c])
				n += v.Fn(enc, &st, &ec, &used, got[c:], data[c:])
				if n != len(data) || !bytes.Equal(got, want) {
					t.Errorf("%s: n=%d, output differs at %d", v.Name(), n, firstDiff(got, want))
				}
			}
		}
	})
}
