package variant

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

func TestIDs(t *testing.T) {
	a := Declare("counterMode_AESCrypt", "aesni-parallel6", jdk.AMD64, cpu.Of(cpu.AES, cpu.SSSE3))
	b := Declare("counterMode_AESCrypt", "aesni-parallel6", jdk.AMD64, cpu.Of(cpu.AES, cpu.SSSE3))
	g := Generic("counterMode_AESCrypt")
	if a == b {
		t.Error("two declarations share an ID")
	}
	if a.String() != "counterMode_AESCrypt/aesni-parallel6" || a.Arch() != jdk.AMD64 || a.Needs() != cpu.Of(cpu.AES, cpu.SSSE3) || a.IsGeneric() {
		t.Errorf("declared %v %v %v generic=%v", a, a.Arch(), a.Needs(), a.IsGeneric())
	}
	if !g.IsGeneric() || g.Name() != "generic" || g.Needs() != 0 || g.Arch() != 0 {
		t.Errorf("generic twin %v %v %v", g, g.Arch(), g.Needs())
	}
	var zero ID
	if zero.String() != "none" || zero.Stub() != "" || zero.IsGeneric() || zero.Needs() != 0 {
		t.Errorf("zero ID %v", zero)
	}
	impls := []Impl[int]{{ID: a, Fn: 1}, {ID: g, Fn: 2}}
	if f, ok := Find(g, impls); !ok || f != 2 {
		t.Errorf("Find(generic) = %v, %v", f, ok)
	}
	if _, ok := Find(b, impls); ok {
		t.Error("Find found an ID the lists lack")
	}
	if ids := IDs(impls); len(ids) != 2 || ids[0] != a || ids[1] != g {
		t.Errorf("IDs = %v", ids)
	}
}

func TestDeclareRejectsContradictions(t *testing.T) {
	for name, f := range map[string]func(){
		"feature of another arch": func() { Declare("ghash_processBlocks", "x", jdk.AMD64, cpu.Of(cpu.PMULL)) },
		"no arch":                 func() { Declare("ghash_processBlocks", "x", 0, 0) },
		"named generic":           func() { Declare("ghash_processBlocks", "generic", jdk.AMD64, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
