package jce

import (
	"strings"
	"testing"
)

// TestUpperIs holds upperIs to strings.ToUpper, which the padding names were
// compared through before: dotless i and long s upper-case to ASCII letters.
func TestUpperIs(t *testing.T) {
	for _, s := range []string{"NoPadding", "nopadding", "NOPADDING", "nopaddıng", "pkcſ5padding", "PKCS5Padding",
		"NoPaddin", "NoPaddingX", "", "\xffNoPadding", "NoPadding\xff", "ＮoPadding"} {
		for _, want := range []string{"NOPADDING", "PKCS5PADDING"} {
			if got, exp := upperIs(s, want), strings.ToUpper(s) == want; got != exp {
				t.Errorf("upperIs(%q, %q) = %v, strings.ToUpper says %v", s, want, got, exp)
			}
		}
	}
}
