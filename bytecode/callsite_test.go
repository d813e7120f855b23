package bytecode

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestCallSitesObserved checks that every call of every body has its
// bytecode index in every profile, and that a body of an observed release
// (17, 25) carries its own index rather than borrowing one.
func TestCallSitesObserved(t *testing.T) {
	for _, r := range jdk.AllReleases.Releases() {
		tab, err := ForProfile(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tab.Methods() {
			for _, imp := range m.Imports {
				bci, ok := m.CallBCI(imp, r)
				if !ok || bci < 0 || bci > 0xffff { // a bci indexes a Code attribute (JVMS 4.7.3)
					t.Errorf("JDK %s: %s -> %s: bci %d, %v", r, m.Module, imp, bci, ok)
				}
				if CallObserved(r) {
					if _, own := m.Calls[imp][r]; !own {
						t.Errorf("JDK %s: %s -> %s has no observed index of its own", r, m.Module, imp)
					}
				}
			}
			for callee := range m.Calls {
				if _, ok := m.CallBCI(callee, r); !ok {
					t.Errorf("JDK %s: %s lists a call of %s it does not make", r, m.Module, callee)
				}
			}
		}
	}
	if _, ok := (&Method{}).CallBCI("AESCrypt.implEncryptBlock", jdk.R17); ok {
		t.Error("a body without imports has a call site")
	}
}

// TestCallSitesJavap pins the indices read with javap on the two JDKs
// (CallSources) that the recorded PrintIntrinsics lines show.
func TestCallSitesJavap(t *testing.T) {
	for _, c := range []struct {
		r              jdk.Release
		caller, callee string
		want           int
	}{
		{jdk.R17, "CounterMode.crypt", "CounterMode.implCrypt", 28},
		{jdk.R25, "CounterMode.crypt", "CounterMode.implCrypt", 86},
		{jdk.R17, "CipherBlockChaining.encrypt", "CipherBlockChaining.implEncrypt", 36},
		{jdk.R25, "CipherBlockChaining.encrypt", "CipherBlockChaining.implEncrypt", 94},
		{jdk.R17, "GHASH.update", "GHASH.processBlocks", 44},
		{jdk.R25, "GaloisCounterMode.implGCMCrypt", "GaloisCounterMode.implGCMCrypt0", 134},
		{jdk.R17, "CounterMode.implCrypt", "AESCrypt.implEncryptBlock", 6},
		{jdk.R21, "CounterMode.crypt", "CounterMode.implCrypt", 86}, // 25 stands in
		{jdk.R8, "GHASH.update", "GHASH.processBlock", 13},          // 17's site stands in
	} {
		tab, err := ForProfile(c.r)
		if err != nil {
			t.Fatal(err)
		}
		m, err := tab.Lookup(c.caller)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := m.CallBCI(c.callee, c.r); !ok || got != c.want {
			t.Errorf("JDK %s %s -> %s: @ %d (%v), want @ %d", c.r, c.caller, c.callee, got, ok, c.want)
		}
	}
}
