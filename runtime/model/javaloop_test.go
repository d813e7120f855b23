package model

import (
	"testing"

	"github.com/jitsim/jitsim/bytecode"
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
