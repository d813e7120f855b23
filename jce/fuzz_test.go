package jce_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
)

// FuzzProviderGCM encrypts data (after aadLen bytes of AAD taken from its
// front) in up to three parts split at s1 and s2 on the JDK profile
// pick%5 (jdk.All), compares with crypto/cipher's Seal, decrypts, and — when tamper
// is non-zero — flips one bit of the sealed text and expects an
// AEADBadTagException and no plaintext. Seed corpus:
// testdata/fuzz/FuzzProviderGCM.
func FuzzProviderGCM(f *testing.F) {
	f.Fuzz(func(t *testing.T, pick uint8, data []byte, aadLen uint8, s1, s2, tamper uint16) {
		prof := jdk.All()[int(pick)%len(jdk.All())]
		key := append(bytes.Repeat([]byte{pick}, 15), aadLen)
		iv := []byte("jitsim-nonce")
		a := min(int(aadLen), len(data))
		aad, p := data[:a], data[a:]
		splits := []int{int(s1) % (len(p) + 1), int(s2) % (len(p) + 1)}
		if splits[0] > splits[1] {
			splits[0], splits[1] = splits[1], splits[0]
		}
		spec := jce.GCMParameterSpec{TLen: 128, IV: iv}
		want := goGCM(t, key, iv, 16).Seal(nil, iv, p, aad)

		enc := newCipher(t, prof, "AES/GCM/NoPadding", jce.EncryptMode, key, spec)
		if err := enc.UpdateAAD(aad); err != nil {
			t.Fatal(err)
		}
		got, err := feed(t, enc, p, splits)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("jdk %s: seal at %v differs from crypto/cipher (err %v)", prof, splits, err)
		}
		dec := newCipher(t, prof, "AES/GCM/NoPadding", jce.DecryptMode, key, spec)
		if err := dec.UpdateAAD(aad); err != nil {
			t.Fatal(err)
		}
		ct := bytes.Clone(want)
		if tamper != 0 {
			bit := int(tamper) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
		}
		back, err := feed(t, dec, ct, splits)
		var je *jce.JavaException
		switch {
		case tamper == 0 && (err != nil || !bytes.Equal(back, p)):
			t.Fatalf("jdk %s: open: %v", prof, err)
		case tamper != 0 && (!errors.As(err, &je) || je.Class != jce.AEADBadTagException || back != nil):
			t.Fatalf("jdk %s: tampered open gave %x, %v", prof, back, err)
		}
	})
}
