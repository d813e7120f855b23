package bytecode

import (
	"bytes"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

func TestTableLoads(t *testing.T) {
	for _, p := range jdk.All() {
		t.Run("jdk="+p.String(), func(t *testing.T) {
			tab, err := ForProfile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range tab.Methods() {
				if m.Size <= 0 {
					t.Errorf("%s: size %d", m.Key, m.Size)
				}
				// the signature in the table must match the export's arity
				n := 0
				for _, p := range m.Params {
					if p.Kind.IsArray() {
						n += 2
					} else {
						n++
					}
				}
				if n == 0 {
					t.Errorf("%s: no params", m.Key)
				}
			}
		})
	}
}

func TestProfileDifferences(t *testing.T) {
	tests := []struct {
		profile           jdk.Release
		key, module, name string
		wantErr           bool
	}{
		{jdk.R8, "GCTR.update", "GCTR.update.jdk8", "update", false},
		{jdk.R17, "GCTR.update", "GCTR.update", "update", false},
		{jdk.R8, "AESCrypt.implEncryptBlock", "AESCrypt.implEncryptBlock", "encryptBlock", false},
		{jdk.R25, "AESCrypt.implEncryptBlock", "AESCrypt.implEncryptBlock", "implEncryptBlock", false},
		{jdk.R8, "GHASH.processBlocks", "", "", true},
		{jdk.R8u, "GHASH.processBlocks", "GHASH.processBlocks", "processBlocks", false},
		{jdk.R17, "GaloisCounterMode.implGCMCrypt0", "", "", true},
		{jdk.R21, "GaloisCounterMode.implGCMCrypt0", "GaloisCounterMode.implGCMCrypt0.p7680", "implGCMCrypt0", false},
		{jdk.R25, "GaloisCounterMode.implGCMCrypt0", "GaloisCounterMode.implGCMCrypt0.p512", "implGCMCrypt0", false},
	}
	for _, tt := range tests {
		t.Run(tt.profile.String()+"/"+tt.key, func(t *testing.T) {
			tab, err := ForProfile(tt.profile)
			if err != nil {
				t.Fatal(err)
			}
			m, err := tab.Lookup(tt.key)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("found %s, want none", m.Module)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Module != tt.module || m.Name != tt.name {
				t.Errorf("got %s %s, want %s %s", m.Module, m.Name, tt.module, tt.name)
			}
		})
	}
}

func TestBuildsDiffer(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if bytes.Equal(m.Wasm(None), m.Wasm(Full)) {
			t.Errorf("%s: none and full builds are identical", m.Module)
		}
	}
}

func TestUnknownProfile(t *testing.T) {
	if _, err := ForProfile(jdk.Release(11)); err == nil {
		t.Fatal("want an error for a release outside jdk.All")
	}
}
