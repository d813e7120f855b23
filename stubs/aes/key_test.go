package aes

import (
	"encoding/hex"
	"testing"
)

// TestExpandKeyFIPS197 checks the last round key of each key size against
// FIPS 197 Appendix A.
func TestExpandKeyFIPS197(t *testing.T) {
	for _, tc := range []struct{ key, last string }{
		{"2b7e151628aed2a6abf7158809cf4f3c", "d014f9a8c9ee2589e13f0cc8b6630ca6"},
		{"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", "e98ba06f448c773c8ecc720401002202"},
		{"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", "fe4890d1e6188d0b046df344706c631e"},
	} {
		key, _ := hex.DecodeString(tc.key)
		enc, dec, err := ExpandKey(key)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		for _, w := range enc[len(enc)-4:] {
			got = append(got, byte(w>>24), byte(w>>16), byte(w>>8), byte(w))
		}
		if hex.EncodeToString(got) != tc.last {
			t.Errorf("key %s: last round key %x, want %s", tc.key, got, tc.last)
		}
		for c := range 4 {
			if dec[c] != enc[len(enc)-4+c] || dec[len(dec)-4+c] != enc[c] {
				t.Errorf("key %s: decryption schedule ends are not the encryption schedule's ends", tc.key)
			}
		}
		if r, _ := Rounds(enc); r != len(key)/4+6 {
			t.Errorf("Rounds = %d for %d-byte key", r, len(key))
		}
	}
	if _, _, err := ExpandKey(make([]byte, 17)); err == nil {
		t.Error("17-byte key accepted")
	}
}
