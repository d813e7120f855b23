package jce

import "github.com/jitsim/jitsim/jdk"

// BadTagLeavesPlaintext reports whether a GCM decryption on release rel
// whose tag check fails leaves unverified plaintext in the caller's output
// array before it throws AEADBadTagException. Releases that check the tag
// before any GCTR (JDK 8, 8u, 17) write nothing; JDK 18+ decrypts in one
// pass and then clears the output, except when the output is the input
// array itself at an offset not before the input's (inPlace), which it
// leaves holding the plaintext. Derived from the provider profile's row.
func BadTagLeavesPlaintext(rel jdk.Release, inPlace bool) (bool, error) {
	prof, err := profileFor(rel)
	if err != nil {
		return false, err
	}
	return inPlace && !prof.gcmVerifyFirst, nil
}
