package bytecode

import (
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestInlineModules checks every inline module against the table: each
// calling method has a None and a Limited inline module in each of its
// profiles; the module imports exactly the methods the body reaches in that
// profile (each call's fallback to the dispatcher), the shims' charge
// hook, exports the method (and its OSR entry when the method has one) and
// exports "clinit" exactly when a reached body has static tables.
func TestInlineModules(t *testing.T) {
	for _, p := range jdk.All() {
		tab, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tab.Methods() {
			for _, b := range []Build{None, Limited} {
				ib := m.Inline(p, b)
				if len(m.Imports) == 0 {
					if ib != nil {
						t.Errorf("JDK %s %s: calls nothing but has a %s inline module", p, m.Key, b)
					}
					continue
				}
				if ib == nil {
					t.Errorf("JDK %s %s: no %s inline module", p, m.Key, b)
					continue
				}
				var reach []string
				clinit := false
				work := []*Method{m}
				for len(work) > 0 {
					c := work[0]
					work = work[1:]
					for _, k := range c.Imports {
						if slices.Contains(reach, k) {
							continue
						}
						callee, err := tab.Lookup(k)
						if err != nil {
							t.Fatal(err)
						}
						reach = append(reach, k)
						clinit = clinit || callee.Clinit
						work = append(work, callee)
					}
				}
				got := slices.Clone(ib.Imports)
				slices.Sort(got)
				slices.Sort(reach)
				if !slices.Equal(got, reach) {
					t.Errorf("JDK %s %s (%s): imports %v, want the reached methods %v", p, m.Key, b, got, reach)
				}
				info, err := parseModule(ib.Wasm)
				if err != nil {
					t.Fatal(err)
				}
				if !info.charge {
					t.Errorf("JDK %s %s (%s): no jitsim.charges import", p, m.Key, b)
				}
				if _, ok := info.exports[m.Key]; !ok {
					t.Errorf("JDK %s %s (%s): does not export the method", p, m.Key, b)
				}
				if _, ok := info.exports[m.OSRExport()]; ok != m.OSR {
					t.Errorf("JDK %s %s (%s): OSR export %v, method has OSR %v", p, m.Key, b, ok, m.OSR)
				}
				if _, ok := info.exports["clinit"]; ok != clinit {
					t.Errorf("JDK %s %s (%s): clinit export %v, want %v", p, m.Key, b, ok, clinit)
				}
			}
		}
	}
}

// TestInlineSlots checks the slot numbering: every key has a slot below
// MaxInlineSlots and SlotKey inverts InlineSlot.
func TestInlineSlots(t *testing.T) {
	ks, err := Keys()
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) > MaxInlineSlots {
		t.Fatalf("%d keys, the inline area holds %d", len(ks), MaxInlineSlots)
	}
	for _, k := range ks {
		s, ok := InlineSlot(k)
		if !ok || s >= MaxInlineSlots {
			t.Errorf("%s: slot %d, %v", k, s, ok)
			continue
		}
		if back, ok := SlotKey(s); !ok || back != k {
			t.Errorf("SlotKey(%d) = %q, want %q", s, back, k)
		}
	}
	if _, ok := InlineSlot("No.such"); ok {
		t.Error("InlineSlot found a key not in the table")
	}
}

// TestTableSlot checks that a profile's table resolves every slot to the
// method Lookup gives for the slot's key, and names a slot it cannot.
func TestTableSlot(t *testing.T) {
	for _, r := range jdk.All() {
		tab, err := ForProfile(r)
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; ; s++ {
			k, ok := SlotKey(s)
			if !ok {
				break
			}
			want, wantErr := tab.Lookup(k)
			got, err := tab.Slot(s)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Errorf("JDK %s slot %d (%s): Slot = %v, %v; Lookup = %v, %v", r, s, k, got, err, want, wantErr)
			}
		}
		if _, err := tab.Slot(-1); err == nil || !strings.Contains(err.Error(), "slot -1") {
			t.Errorf("JDK %s: Slot(-1) = %v, want an error naming the slot", r, err)
		}
	}
}

// TestBlocksImports: JDK 8's GCTR.update batches its AES block calls (src/jvm.h
// BLOCKS_ON) in its None build and in every None inline module that links its body,
// and each "jvm.blocks" import is also a "jvm" import of the module.
func TestBlocksImports(t *testing.T) {
	for _, p := range []jdk.Release{jdk.R8, jdk.R8u} {
		tab, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := tab.Lookup("GCTR.update")
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"AESCrypt.implEncryptBlock"}; !slices.Equal(m.Blocks, want) {
			t.Errorf("JDK %s GCTR.update: batched imports %v, want %v", p, m.Blocks, want)
		}
		for _, key := range []string{"GCTR.update", "GCTR.doFinal"} {
			m, err := tab.Lookup(key)
			if err != nil {
				t.Fatal(err)
			}
			ib := m.Inline(p, None)
			if ib == nil || !slices.Equal(ib.Blocks, []string{"AESCrypt.implEncryptBlock"}) {
				t.Errorf("JDK %s %s: inline module's batched imports %v", p, key, ib)
			}
		}
	}
}

// TestBlocksImportNeedsItsCall: a "jvm.blocks" import is read only beside the "jvm" import
// of the same callee; alone it is an error naming it.
func TestBlocksImportNeedsItsCall(t *testing.T) {
	module := func(imports ...[2]string) []byte {
		b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0} // header, one type () -> ()
		var sec []byte
		sec = append(sec, byte(len(imports)))
		for _, im := range imports {
			sec = append(sec, byte(len(im[0])))
			sec = append(sec, im[0]...)
			sec = append(sec, byte(len(im[1])))
			sec = append(sec, im[1]...)
			sec = append(sec, 0, 0) // a function of type 0
		}
		return append(append(b, 2, byte(len(sec))), sec...)
	}
	if _, err := parseModule(module([2]string{"jvm.blocks", "A.b"})); err == nil || !strings.Contains(err.Error(), "jvm.blocks.A.b") {
		t.Errorf("a jvm.blocks import alone: err = %v, want one naming it", err)
	}
	info, err := parseModule(module([2]string{"jvm", "A.b"}, [2]string{"jvm.blocks", "A.b"}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.imports, []string{"A.b"}) || !slices.Equal(info.blocks, []string{"A.b"}) {
		t.Errorf("imports %v, batched %v; want [A.b] and [A.b]", info.imports, info.blocks)
	}
}

// TestUnrolledBuilds reads every method's unrolled module and every None inline module's
// (each read panics when it does not match its None build's imports and exports), and checks
// that C2's unrolling reached GHASH's bit loop, the loop the flags are chosen for.
func TestUnrolledBuilds(t *testing.T) {
	for _, p := range jdk.All() {
		tab, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tab.Methods() {
			if len(m.Unrolled()) == 0 {
				t.Errorf("%s: empty unrolled module", m.Module)
			}
			if ib := m.Inline(p, None); ib != nil && len(ib.Unrolled()) == 0 {
				t.Errorf("JDK %s %s: empty unrolled inline module", p, m.Key)
			}
			if ib := m.Inline(p, Limited); ib != nil && !slices.Equal(ib.Unrolled(), ib.Wasm) {
				t.Errorf("JDK %s %s: the Limited inline module has an unrolled twin", p, m.Key)
			}
		}
	}
	tab, err := ForProfile(jdk.R8u)
	if err != nil {
		t.Fatal(err)
	}
	m, err := tab.Lookup("GHASH.processBlocks")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(m.Unrolled(), m.Wasm(None)) {
		t.Errorf("%s: the unrolled module is the None build", m.Module)
	}
}
