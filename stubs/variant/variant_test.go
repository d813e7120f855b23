package variant

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

func noProbe(ID, []byte, []byte) (func(), bool, error) { return nil, false, nil }

var testCost = Cost{PerBlock: func(u Insn) int64 { return u.Stream(6, CostRounds*u.AESTp, CostRounds*u.AESLat, 2000) }, PerCall: CallBulk, Formula: "six chains"}

func TestIDs(t *testing.T) {
	var l List
	e := l.Entry("counterMode_AESCrypt", noProbe)
	g := e.Generic()
	a := e.Asm(Spec{Name: "aesni-parallel6", Arch: jdk.AMD64, Needs: cpu.Of(cpu.AES, cpu.SSSE3)})
	b := e.Asm(Spec{Name: "aesni-parallel6", Arch: jdk.AMD64, Needs: cpu.Of(cpu.AES, cpu.SSSE3),
		Rules: []Rule{{Generator: "gen", Releases: jdk.Since(jdk.R17), Flags: UseAES, Requires: cpu.Of(cpu.AES), Condition: "c"}},
		Cost:  testCost, Host: []JVMRun{{Run: "run25", Mode: "ctr", Releases: jdk.SinceFeature(25)}, {Run: "run", Mode: "ctr"}}})
	if a == b {
		t.Error("two declarations share an ID")
	}
	if a.String() != "counterMode_AESCrypt/aesni-parallel6" || a.Arch() != jdk.AMD64 || a.Needs() != cpu.Of(cpu.AES, cpu.SSSE3) || a.IsGeneric() {
		t.Errorf("declared %v %v %v generic=%v", a, a.Arch(), a.Needs(), a.IsGeneric())
	}
	if !g.IsGeneric() || g.Name() != "generic" || g.Needs() != 0 || g.Arch() != 0 || a.Twin() != g || g.Twin() != g {
		t.Errorf("generic twin %v %v %v, twin of a %v", g, g.Arch(), g.Needs(), a.Twin())
	}
	if len(b.Rules()) != 1 || len(b.Host()) != 2 || b.Cost().PerBlock(Insn{AESLat: 600, AESTp: 100}) != 1000 {
		t.Errorf("b's declaration: %v %v", b.Rules(), b.Host())
	}
	// A release with a run of its own takes it; every other release the run naming none.
	if h, ok := b.HostRun(jdk.R25); !ok || h.Run != "run25" {
		t.Errorf("b.HostRun(25) = %v, %v; want run25", h, ok)
	}
	if h, ok := b.HostRun(jdk.R17); !ok || h.Run != "run" {
		t.Errorf("b.HostRun(17) = %v, %v; want run", h, ok)
	}
	if h, ok := a.HostRun(jdk.R17); ok {
		t.Errorf("a.HostRun(17) = %v; a declares no run", h)
	}
	if !g.Before(a) || !a.Before(b) || b.Before(a) {
		t.Error("Before does not follow declaration order")
	}
	var zero ID
	if zero.String() != "none" || zero.Stub() != "" || zero.IsGeneric() || zero.Needs() != 0 || zero.Twin() != zero {
		t.Errorf("zero ID %v", zero)
	}
	if ids := l.IDs(); len(ids) != 3 || ids[0] != g || ids[2] != b {
		t.Errorf("IDs = %v", ids)
	}

	// Code keeps declaration order whatever the order of Add, and marks its IDs built.
	var c Code[int]
	c.Add(b, 3)
	c.Add(g, 1)
	if f, ok := c.Find(g); !ok || f != 1 {
		t.Errorf("Find(generic) = %v, %v", f, ok)
	}
	if _, ok := c.Find(a); ok {
		t.Error("Find found an ID the code lacks")
	}
	if im := c.Impls(); len(im) != 2 || im[0].ID != g || im[1].ID != b {
		t.Errorf("Impls = %v", im)
	}
	if built := l.Built(); len(built) != 2 || built[0] != g || built[1] != b {
		t.Errorf("Built = %v", built)
	}
	impls := []Impl[int]{{ID: a, Fn: 1}, {ID: g, Fn: 2}}
	if f, ok := Find(g, impls); !ok || f != 2 {
		t.Errorf("Find(generic) = %v, %v", f, ok)
	}
	if ids := IDs(impls); len(ids) != 2 || ids[0] != a || ids[1] != g {
		t.Errorf("IDs = %v", ids)
	}
}

func TestDeclareRejectsContradictions(t *testing.T) {
	rule := []Rule{{Generator: "gen", Releases: jdk.Since(jdk.R17), Condition: "c"}}
	for name, f := range map[string]func(e *Entry){
		"feature of another arch": func(e *Entry) { e.Asm(Spec{Name: "x", Arch: jdk.AMD64, Needs: cpu.Of(cpu.PMULL)}) },
		"no arch":                 func(e *Entry) { e.Asm(Spec{Name: "x"}) },
		"named generic":           func(e *Entry) { e.Asm(Spec{Name: "generic", Arch: jdk.AMD64}) },
		"selectable, no cost":     func(e *Entry) { e.Asm(Spec{Name: "x", Arch: jdk.AMD64, Rules: rule}) },
		"rule without condition": func(e *Entry) {
			e.Asm(Spec{Name: "x", Arch: jdk.AMD64, Rules: []Rule{{Generator: "gen", Releases: jdk.Since(jdk.R17)}}, Cost: testCost})
		},
		"two generic twins": func(e *Entry) { e.Generic(); e.Generic() },
		"code added twice": func(e *Entry) {
			var c Code[int]
			id := e.Generic()
			c.Add(id, 1)
			c.Add(id, 2)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			var l List
			f(l.Entry("ghash_processBlocks", noProbe))
		}()
	}
}

func TestStream(t *testing.T) {
	zen5 := Insn{AESLat: 400, AESTp: 50, ROB: 448, Width: 6}
	for _, c := range []struct {
		name                string
		u                   Insn
		p, aes, chain, uops int64
		want                int64
	}{
		{"window wide: throughput", zen5, 4, 500, 4000, 2225, 500},
		{"window of p blocks only: latency / p", Insn{AESLat: 400, AESTp: 50}, 4, 500, 4000, 2225, 1000},
		{"window narrower than p: p", Insn{ROB: 10, Width: 100}, 4, 500, 4000, 2225, 1000},
		{"window of 8 blocks: latency / 8", Insn{ROB: 200, Width: 100}, 4, 500, 8000, 2500, 1000},
		{"issue-bound", zen5, 4, 500, 4000, 6000, 1000},
	} {
		if got := c.u.Stream(c.p, c.aes, c.chain, c.uops); got != c.want {
			t.Errorf("%s: Stream(%d, %d, %d, %d) = %d, want %d", c.name, c.p, c.aes, c.chain, c.uops, got, c.want)
		}
	}
}

func TestCalls(t *testing.T) {
	zen5 := Insn{AESLat: 400, AESTp: 50, ROB: 448, Width: 6}
	haswell := Insn{AESLat: 700, AESTp: 100, ROB: 192, Width: 4}
	for _, c := range []struct {
		name                     string
		u                        Insn
		aes, chain, stub, caller int64
		want                     int64
		overlap                  bool
	}{
		// CounterMode's byte loop: 16 trips of 16 operations beside the stub's 46; 448 entries
		// hold 1.48 calls, so the 46-cycle chain costs 31 cycles a call.
		{"window of 1.48 calls: chain / 1.48", zen5, 500, 4600, 4600, 25600, 3108, true},
		// ECB's loop (15 operations a call): 7.3 calls in flight; the stub's own 46
		// instructions at 6 a cycle bind.
		{"window wide: the stub's issue", zen5, 500, 4600, 4600, 1500, 766, true},
		// A caller of 75 operations a call on a 192-entry window (Haswell): 1.59 calls.
		{"haswell, 1.59 calls", haswell, 1000, 7600, 4600, 7500, 4810, true},
		{"window under one call: no overlap", haswell, 1000, 7600, 4600, 25600, 0, false},
		{"no window known: no overlap", Insn{AESLat: 700, AESTp: 100}, 1000, 7600, 4600, 7500, 0, false},
		{"throughput-bound", Insn{AESTp: 100, ROB: 10_000, Width: 100}, 1000, 7600, 4600, 7500, 1000, true},
		// The caller's instructions take window entries but do not add to the stub's issue.
		{"caller's issue not counted", Insn{AESTp: 10, ROB: 10_000, Width: 1}, 100, 100, 4600, 50_000, 4600, true},
	} {
		if got, ok := c.u.Calls(c.aes, c.chain, c.stub, c.caller); got != c.want || ok != c.overlap {
			t.Errorf("%s: Calls(%d, %d, %d, %d) = %d, %v; want %d, %v", c.name, c.aes, c.chain, c.stub, c.caller, got, ok, c.want, c.overlap)
		}
	}
}
