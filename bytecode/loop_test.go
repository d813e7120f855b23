package bytecode

import (
	"strings"
	"testing"
)

// loopModule assembles a module of two functions of type (i32, i32) -> () with one i32
// local each, exported as "sum" and "chase", from their code bytes (without the local
// declarations and the final end).
func loopModule(sum, chase []byte) []byte {
	section := func(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }
	fn := func(code []byte) []byte {
		b := append([]byte{1, 1, 0x7f}, code...) // one group: one i32 local
		b = append(b, 0x0b)
		return append([]byte{byte(len(b))}, b...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(1, 1, 0x60, 2, 0x7f, 0x7f, 0)...)
	m = append(m, section(3, 2, 0, 0)...)
	m = append(m, section(7, 2, 3, 's', 'u', 'm', 0, 0, 5, 'c', 'h', 'a', 's', 'e', 0, 1)...)
	code := append([]byte{2}, fn(sum)...)
	code = append(code, fn(chase)...)
	return append(m, section(10, code...)...)
}

// TestLoopOfHandChecked reads two loops whose mix and chain can be counted by hand.
func TestLoopOfHandChecked(t *testing.T) {
	sum := []byte{
		0x03, 0x40, // loop
		0x20, 0, 0x28, 2, 0, // local.get p; i32.load: one load
		0x20, 2, 0x6a, 0x21, 2, // acc += it: one ALU, carried by acc (1 cycle)
		0x20, 0, 0x41, 4, 0x6a, 0x22, 0, // p = p + 4 (teed: stays an add): one ALU, carried by p
		0x20, 1, 0x47, 0x0d, 0, // p != n; br_if: the compare fuses with the branch
		0x0b, // end
	}
	chase := []byte{
		0x03, 0x40, // loop
		0x20, 0, 0x20, 0, 0x41, 2, 0x74, 0x6a, // p + (p << 2): folds into the address
		0x28, 2, 0, 0x22, 0, // p = load: carried by p, one load latency per trip
		0x0d, 0, // br_if p: one branch
		0x0b, // end
	}
	mod := loopModule(sum, chase)
	for _, c := range []struct {
		export                        string
		loads, stores, alu, muls, brs int
		chain4, chain5                int64
	}{
		{"sum", 1, 0, 2, 0, 1, 100, 100},
		{"chase", 1, 0, 0, 0, 1, 400, 500},
	} {
		l, err := LoopOf(mod, c.export)
		if err != nil {
			t.Fatalf("%s: %v", c.export, err)
		}
		if l.Loads != c.loads || l.Stores != c.stores || l.ALU != c.alu || l.Muls != c.muls || l.Branches != c.brs {
			t.Errorf("%s: loads %d stores %d alu %d muls %d branches %d, want %d %d %d %d %d", c.export,
				l.Loads, l.Stores, l.ALU, l.Muls, l.Branches, c.loads, c.stores, c.alu, c.muls, c.brs)
		}
		if got := l.Chain(Latencies{Load: 4, ALU: 1, Mul: 3}); got != c.chain4 {
			t.Errorf("%s: chain with 4-cycle loads %d cycles×100, want %d", c.export, got, c.chain4)
		}
		if got := l.Chain(Latencies{Load: 5, ALU: 1, Mul: 3}); got != c.chain5 {
			t.Errorf("%s: chain with 5-cycle loads %d cycles×100, want %d", c.export, got, c.chain5)
		}
	}
	if _, err := LoopOf(mod, "nothing"); err == nil || !strings.Contains(err.Error(), `"nothing"`) {
		t.Errorf("a missing export: error %v, want one naming it", err)
	}
	if _, err := LoopOf([]byte("not wasm"), "sum"); err == nil {
		t.Error("a non-module: no error")
	}
}

// TestLoopOfNested counts a nested loop whose code states its trip count (16 trips of a
// load, the counter's add and the fused compare-and-branch) and leaves out one whose bound
// is a parameter.
func TestLoopOfNested(t *testing.T) {
	nested := func(bound ...byte) []byte {
		b := []byte{
			0x03, 0x40, // loop
			0x41, 0, 0x21, 2, // j = 0
			0x03, 0x40, // loop
			0x20, 0, 0x28, 2, 0, 0x1a, // load p; drop: one load
			0x20, 2, 0x41, 1, 0x6a, 0x22, 2, // j = j + 1 (teed): one ALU
		}
		b = append(b, bound...)
		return append(b,
			0x47, 0x0d, 0, // j != bound; br_if: one branch
			0x0b,             // end
			0x20, 0, 0x0d, 0, // br_if p: the outer loop's one branch
			0x0b, // end
		)
	}
	mod := loopModule(nested(0x41, 16), nested(0x20, 1))
	for _, c := range []struct {
		export       string
		uops, nested int
	}{
		{"sum", 1, 16 * 3},
		{"chase", 1, 0},
	} {
		l, err := LoopOf(mod, c.export)
		if err != nil {
			t.Fatalf("%s: %v", c.export, err)
		}
		if l.Uops() != c.uops || l.Nested != c.nested {
			t.Errorf("%s: %d operations a trip and %d nested, want %d and %d", c.export, l.Uops(), l.Nested, c.uops, c.nested)
		}
	}
}

// TestLoopOfNestedValueAfter: a nested loop's value used as an address after the loop ends
// (folding it frees an operation of a loop no longer walked) is counted, never a panic.
func TestLoopOfNestedValueAfter(t *testing.T) {
	after := []byte{
		0x03, 0x40, // loop
		0x41, 0, 0x21, 2, // j = 0
		0x03, 0x7f, // loop (result i32)
		0x20, 2, 0x41, 1, 0x6a, 0x22, 2, // j = j + 1
		0x41, 16, 0x47, 0x0d, 0, // j != 16; br_if
		0x20, 0, 0x20, 2, 0x6a, // p + j: the loop's result
		0x0b,             // end
		0x28, 2, 0, 0x1a, // load at it; drop
		0x20, 0, 0x0d, 0, // br_if p
		0x0b, // end
	}
	l, err := LoopOf(loopModule(after, after), "sum")
	if err != nil {
		t.Fatal(err)
	}
	if l.Loads != 1 || l.Nested != 16*3 {
		t.Errorf("%d loads a trip and %d nested operations, want 1 and 48 (16 trips of two adds and the branch)", l.Loads, l.Nested)
	}
}

// TestHotLoopsOfPricedMethods reads the loops the model clock moves between CPUs: each has
// a loop, and AES's table round is load- and ALU-heavy where GHASH's bit loop has no
// table loads.
func TestHotLoopsOfPricedMethods(t *testing.T) {
	ms, err := All()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Loop{}
	for _, m := range ms {
		if m.Key != m.Module {
			continue
		}
		if l, err := m.HotLoop(); err == nil {
			got[m.Key] = l
		}
	}
	aes, gh, ctr := got["AESCrypt.implEncryptBlock"], got["GHASH.blockMult"], got["CounterMode.implCrypt"]
	if aes.Loads < 32 || aes.ALU < aes.Loads || aes.Chain(Latencies{4, 1, 3}) < 2*(4+1)*100 {
		t.Errorf("AES block loop: %+v, chain %d: want ≥ 32 table loads per two rounds and a load in each round's chain", aes, aes.Chain(Latencies{4, 1, 3}))
	}
	if gh.Uops() == 0 || gh.Loads > 1 || gh.ALU < 10 {
		t.Errorf("GHASH bit loop: %+v: want shifts and XORs, at most the one load of the state's second half", gh)
	}
	if ctr.Loads == 0 || ctr.Stores == 0 {
		t.Errorf("CTR byte loop: %+v: want the input and key-stream loads and the output store", ctr)
	}
	if g := got["GCTR.update"]; g.Nested != 16*14 {
		t.Errorf("GCTR.update: %d operations in its nested loops, want 16 trips of the xor's 14", g.Nested)
	}
	if ctr.Stores > 2 {
		t.Errorf("CTR byte loop: %+v: a batch's stores (its BLOCKS_ON path); want the byte loop's", ctr)
	}
}

// TestLoopOfTruncated: a cut module is an error, never a panic.
func TestLoopOfTruncated(t *testing.T) {
	ms, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Key != "GHASH.blockMult" {
			continue
		}
		b := m.Wasm(None)
		for n := range len(b) {
			if _, err := LoopOf(b[:n], m.Key); err == nil {
				t.Errorf("%s cut to %d of %d bytes: no error", m.Key, n, len(b))
			}
		}
		return
	}
	t.Fatal("no GHASH.blockMult module")
}

// FuzzLoopOf: any bytes, as a module or as one function's code in a module, give a loop or
// an error, never a panic.
func FuzzLoopOf(f *testing.F) {
	sum := []byte{0x03, 0x40, 0x20, 0, 0x28, 2, 0, 0x20, 2, 0x6a, 0x21, 2, 0x20, 1, 0x47, 0x0d, 0, 0x0b}
	nested := []byte{0x03, 0x40, 0x41, 0, 0x21, 2, 0x03, 0x7f, 0x20, 2, 0x41, 1, 0x6a, 0x22, 2,
		0x41, 16, 0x47, 0x0d, 0, 0x20, 0, 0x20, 2, 0x6a, 0x0b, 0x28, 2, 0, 0x1a, 0x20, 0, 0x0d, 0, 0x0b}
	f.Add(sum, false)
	f.Add(nested, false)
	f.Add(loopModule(sum, nested), true)
	f.Fuzz(func(t *testing.T, b []byte, whole bool) {
		if len(b) > 4096 {
			return
		}
		mod := b
		if !whole {
			if len(b) > 120 { // loopModule's one-byte section sizes
				return
			}
			mod = loopModule(b, b)
		}
		_, _ = LoopOf(mod, "sum")
	})
}
