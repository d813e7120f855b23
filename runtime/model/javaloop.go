package model

import (
	"fmt"

	"github.com/jitsim/jitsim/bytecode"
)

// loopCycles is the cycles ×100 one trip of loop l takes on u, in steady state: the largest
// of the bounds its resources set — loads, stores and all memory operations on their
// ports, integer operations (and branches, where they share the ALU ports) on the ALUs,
// branches on the branch units, every operation through the issue width — and the
// dependency chain carried from trip to trip at u's L1 latency, 1-cycle integer operations
// and 3-cycle multiplies (all the CPUs here: Agner Fog's instruction tables; Arm's and
// Apple's the same). It also names the bound that decided.
func loopCycles(u uarch, l bytecode.Loop) (int64, string) {
	per := func(n int, ports int64) int64 { return (int64(n)*100 + ports/2) / ports }
	alu := l.ALU + l.Muls
	if u.branchOnALU {
		alu += l.Branches
	}
	best, name := l.Chain(bytecode.Latencies{Load: int(u.l1Lat), ALU: 1, Mul: 3}), "carried chain"
	for _, b := range []struct {
		c    int64
		name string
	}{
		{per(l.Loads, u.loadPorts), "loads"},
		{per(l.Stores, u.storePorts), "stores"},
		{per(l.Loads+l.Stores, u.memPorts), "memory operations"},
		{per(alu, u.aluPorts), "ALU operations"},
		{per(l.Branches, u.branchPorts), "branches"},
		{per(l.Uops(), u.width), "issue width"},
	} {
		if b.c > best {
			best, name = b.c, b.name
		}
	}
	return best, name
}

// loopMix is a loop's counts for the source of a row.
func loopMix(l bytecode.Loop) string {
	return fmt.Sprintf("%d loads, %d stores, %d ALU, %d multiplies, %d branches per trip", l.Loads, l.Stores, l.ALU, l.Muls, l.Branches)
}
