package runtime

import (
	"slices"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
)

// TestIntrinsicsAgreeWithMethodTable checks what the intrinsic table and the
// reference code's method table must agree on, which the VM takes on trust
// when it starts: every intrinsic a method row names is a row of the
// intrinsic table; every intrinsic replaces a method in some profile and at
// most one per profile; and its methods in all profiles share the class,
// descriptor and wasm signature that its argument adapter and predicate
// index (the name may differ: JDK 8's AESCrypt.encryptBlock). It then checks
// that the VM marks exactly those methods in each profile's table.
func TestIntrinsicsAgreeWithMethodTable(t *testing.T) {
	rows := bytecode.Rows()
	var first [NumIntrinsics]*bytecode.Method
	var releases [NumIntrinsics]jdk.Set
	for i := range rows {
		m := &rows[i]
		if m.Intrinsic == "" {
			continue
		}
		id, ok := LookupIntrinsic(m.Intrinsic)
		if !ok || id.String() != m.Intrinsic {
			t.Errorf("%s (%s) is marked %q, which is no HotSpot name of the intrinsic table", m.Key, m.Module, m.Intrinsic)
			continue
		}
		if both := releases[id] & m.Profiles; both != 0 {
			t.Errorf("%s: JDK %s has two methods marked with it (one is %s, module %s)", id, both, m.Key, m.Module)
		}
		releases[id] |= m.Profiles
		f := first[id]
		if f == nil {
			first[id] = m
			continue
		}
		if m.Class != f.Class || m.Descriptor != f.Descriptor || m.Static != f.Static || m.Result != f.Result || !slices.Equal(m.Params, f.Params) {
			t.Errorf("%s: module %s (JDK %s) is %s.%s%s with params %v, module %s (JDK %s) is %s.%s%s with %v: the adapter binds one signature",
				id, m.Module, m.Profiles, m.Class, m.Name, m.Descriptor, m.Params, f.Module, f.Profiles, f.Class, f.Name, f.Descriptor, f.Params)
		}
	}
	for _, id := range Intrinsics() {
		if first[id] == nil {
			t.Errorf("%s: no method of the method table is marked with it", id)
			continue
		}
		if got := id.Row().Releases(); got != releases[id] {
			t.Errorf("%s: Releases() = %s, the method table's rows %s", id, got, releases[id])
		}
	}
	if t.Failed() {
		return
	}
	for _, j := range jdk.All() {
		tab, err := bytecode.ForProfile(j)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range Intrinsics() {
			var marked []string
			for _, m := range tab.Methods() {
				if intrinsicOf(m) == id {
					marked = append(marked, m.Key)
				}
			}
			r := id.Row()
			switch {
			case !r.InJDK(j) && len(marked) > 0:
				t.Errorf("JDK %s: %s is not in the profile, yet %v is marked with it", j, id, marked)
			case r.InJDK(j) && (len(marked) != 1 || marked[0] != r.Method(j).Key):
				t.Errorf("JDK %s: %s replaces %s, the profile's table marks %v", j, id, r.Method(j).Key, marked)
			}
		}
	}
}

// TestIntrinsicMethodOutsideItsReleases checks the method a decision names in
// a profile without the intrinsic: that of the oldest later profile with it.
func TestIntrinsicMethodOutsideItsReleases(t *testing.T) {
	for _, tt := range []struct {
		id   Intrinsic
		j    jdk.Release
		want string
	}{
		{ECBEncryptAESCrypt, jdk.R8, "ElectronicCodeBook::implECBEncrypt"},
		{CounterModeAESCrypt, jdk.R8u, "CounterMode::implCrypt"},
		{GHASHProcessBlocks, jdk.R8, "GHASH::processBlocks"},
		{GaloisCounterModeAESCrypt, jdk.R17, "GaloisCounterMode::implGCMCrypt0"},
		{AESCryptEncryptBlock, jdk.R8, "AESCrypt::encryptBlock"},
		{AESCryptEncryptBlock, jdk.R25, "AESCrypt::implEncryptBlock"},
	} {
		if got := tt.id.Row().Method(tt.j).String(); got != tt.want {
			t.Errorf("%s in JDK %s: %s, want %s", tt.id, tt.j, got, tt.want)
		}
	}
}
