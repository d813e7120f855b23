package model

import (
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
)

// TestUarchCoreResources: every CPU model carries the integer core's resources with a
// source, so that loopCycles can price a loop on it.
func TestUarchCoreResources(t *testing.T) {
	for _, u := range uarches {
		if u.loadPorts <= 0 || u.storePorts <= 0 || u.memPorts < max(u.loadPorts, u.storePorts) || u.aluPorts <= 0 ||
			u.branchPorts <= 0 || u.width <= 0 || u.l1Lat <= 0 || u.coreSource == "" {
			t.Errorf("%s: core resources %+v incomplete or inconsistent", u.cpu, u)
		}
	}
}

// TestLoopCyclesBounds: the bound that decides is the tightest resource.
func TestLoopCyclesBounds(t *testing.T) {
	ms, err := bytecode.All()
	if err != nil {
		t.Fatal(err)
	}
	var aes bytecode.Loop
	for _, m := range ms {
		if m.Key == "AESCrypt.implEncryptBlock" && m.Module == m.Key {
			if aes, err = m.HotLoop(); err != nil {
				t.Fatal(err)
			}
		}
	}
	snb, _ := lookupUarch("sandybridge-i5")
	c, why := loopCycles(snb, aes)
	want := (int64(aes.Uops())*100 + 2) / 4 // 4-wide: the table round issues more than its ALUs and loads need
	if alu := (int64(aes.ALU+aes.Branches)*100 + 1) / 3; alu > want {
		want = alu
	}
	if c != want {
		t.Errorf("AES round on Sandy Bridge: %d cycles×100 (%s), want %d", c, why, want)
	}
	wide := snb
	wide.width, wide.aluPorts, wide.loadPorts, wide.memPorts = 100, 100, 100, 100
	if c, why := loopCycles(wide, aes); why != "carried chain" || c != aes.Chain(bytecode.Latencies{Load: 4, ALU: 1, Mul: 3}) {
		t.Errorf("AES round with unbounded ports: %d (%s), want the carried chain", c, why)
	}
}

// TestReleaseWork: JDK 8u's compiled GHASH costs more than JDK 17's by its own byte-wise
// reads beside blockMult's 127 bit steps, on every core; JDK 17 and the interpreter keep the
// measured row.
func TestReleaseWork(t *testing.T) {
	ls, err := loops()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range uarches {
		p8u, err := LookupRelease(u.cpu, jdk.R8u)
		if err != nil {
			t.Fatal(err)
		}
		p17, err := LookupRelease(u.cpu, jdk.R17)
		if err != nil {
			t.Fatal(err)
		}
		hot, _ := loopCycles(u, ls["GHASH.processBlocks"].loop)
		extra, _ := loopCycles(u, releaseWork[0].extra)
		for _, what := range []string{WhatC2, WhatC1L1, WhatInterp} {
			r8u, ok8u := p8u.Row(what, "GHASH.processBlocks", PerByte)
			r17, ok17 := p17.Row(what, "GHASH.processBlocks", PerByte)
			if !ok8u || !ok17 {
				t.Fatalf("%s: no %s GHASH.processBlocks row", u.cpu, what)
			}
			want := r17.Ps
			if what != WhatInterp {
				want = (r17.Ps*(127*hot+extra) + 127*hot/2) / (127 * hot)
			}
			if r8u.Ps != want || what != WhatInterp && r8u.Ps <= r17.Ps {
				t.Errorf("%s %s: 8u %d ps/byte, 17 %d, want 8u %d", u.cpu, what, r8u.Ps, r17.Ps, want)
			}
		}
	}
}
