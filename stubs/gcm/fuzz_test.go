package gcm

import (
	"bytes"
	"testing"
)

// FuzzGHASH feeds the same H, state and data to every runnable GHASH variant
// and compares the states with the generic twin. The committed corpus
// (testdata/fuzz/FuzzGHASH) covers lengths around the 8- and 32-block
// aggregation boundaries. Run with go test -fuzz=FuzzGHASH ./stubs/gcm.
func FuzzGHASH(f *testing.F) {
	f.Add(make([]byte, 16), []byte{}, uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, h, data []byte, s0, s1 uint64) {
		if len(h) < 16 {
			return
		}
		htbl := make([]uint64, HtblLen)
		htbl[0], htbl[1] = be64(h[:8]), be64(h[8:16])
		blocks := len(data) / 16
		want := [2]uint64{s0, s1}
		GHASHGeneric(&want, htbl, data, blocks)
		for _, v := range runnableGHASH() {
			got := [2]uint64{s0, s1}
			v.Fn(&got, htbl, data, blocks)
			if got != want {
				t.Fatalf("%s: H=%x blocks=%d: state %x, generic %x", v.Name(), h[:16], blocks, got, want)
			}
		}
	})
}

// FuzzGCM seals with every runnable GCM variant (through the stub-built
// construction) and compares with crypto/cipher, then opens the result.
// keySel picks AES-128/192/256; the key bytes are taken from key, padded.
// The committed corpus (testdata/fuzz/FuzzGCM) covers every chunk size.
func FuzzGCM(f *testing.F) {
	f.Add([]byte("key"), uint8(0), make([]byte, 12), []byte("plaintext"), []byte("aad"))
	f.Fuzz(func(t *testing.T, keyBytes []byte, keySel uint8, iv, pt, aad []byte) {
		if len(iv) == 0 || len(iv) > 64 || len(pt) > 1<<16 {
			return
		}
		key := make([]byte, []int{16, 24, 32}[keySel%3])
		copy(key, keyBytes)
		want := stdGCM(t, key, len(iv)).Seal(nil, iv, pt, aad)
		for _, v := range runnableGCM() {
			c := newConstruction(t, key, v.Fn, bestGHASH().Fn)
			got := c.seal(make([]byte, len(pt)+16), iv, pt, aad)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: len %d: Seal differs from crypto/cipher at %d", v.Name(), len(pt), firstDiff(got, want))
			}
			back, ok := c.open(make([]byte, len(pt)), iv, want, aad)
			if !ok || !bytes.Equal(back, pt) {
				t.Fatalf("%s: len %d: Open failed (tag ok %v)", v.Name(), len(pt), ok)
			}
		}
	})
}
