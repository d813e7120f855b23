package runtime_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
)

// FuzzProviderGCM encrypts data (after aadLen bytes of AAD taken from its
// front) in up to three parts split at s1 and s2 on the JDK profile
// jdk%5, compares with crypto/cipher's Seal, decrypts, and — when tamper
// is non-zero — flips one bit of the sealed text and expects an
// AEADBadTagException and no plaintext. Seed corpus:
// testdata/fuzz/FuzzProviderGCM.
func FuzzProviderGCM(f *testing.F) {
	fuzzProfiles := jdk.Names()
	f.Fuzz(func(t *testing.T, jdk uint8, data []byte, aadLen uint8, s1, s2, tamper uint16) {
		prof := fuzzProfiles[int(jdk)%len(fuzzProfiles)]
		key := append(bytes.Repeat([]byte{jdk}, 15), aadLen)
		iv := []byte("jitsim-nonce")
		a := min(int(aadLen), len(data))
		aad, p := data[:a], data[a:]
		splits := []int{int(s1) % (len(p) + 1), int(s2) % (len(p) + 1)}
		if splits[0] > splits[1] {
			splits[0], splits[1] = splits[1], splits[0]
		}
		spec := jrt.GCMParameterSpec{TLen: 128, IV: iv}
		want := goGCM(t, key, iv, 16).Seal(nil, iv, p, aad)

		enc := newCipher(t, prof, "AES/GCM/NoPadding", jrt.EncryptMode, key, spec)
		if err := enc.UpdateAAD(aad); err != nil {
			t.Fatal(err)
		}
		got, err := feed(t, enc, p, splits)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("jdk %s: seal at %v differs from crypto/cipher (err %v)", prof, splits, err)
		}
		dec := newCipher(t, prof, "AES/GCM/NoPadding", jrt.DecryptMode, key, spec)
		if err := dec.UpdateAAD(aad); err != nil {
			t.Fatal(err)
		}
		ct := bytes.Clone(want)
		if tamper != 0 {
			bit := int(tamper) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
		}
		back, err := feed(t, dec, ct, splits)
		var je *jrt.JavaException
		switch {
		case tamper == 0 && (err != nil || !bytes.Equal(back, p)):
			t.Fatalf("jdk %s: open: %v", prof, err)
		case tamper != 0 && (!errors.As(err, &je) || je.Class != jrt.AEADBadTagException || back != nil):
			t.Fatalf("jdk %s: tampered open gave %x, %v", prof, back, err)
		}
	})
}
