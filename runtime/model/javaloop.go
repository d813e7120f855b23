package model

import (
	"fmt"
	"slices"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
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

// releaseWork is work a release's own compiled code does beside the hot loop its family's
// row was measured on (JDK 17's code on the recording host), from that release's code: per
// 16-byte block, the extra operations and the hot loop's trips. A compiled row of a listed
// family, on a listed release, costs its row × (trips × hot-loop cycles + the extra's cycles)
// / (trips × hot-loop cycles), each on the profile's core.
var releaseWork = []struct {
	families []string
	releases jdk.Set
	extra    bytecode.Loop // what the release's code adds per block, unrolled (no loop control)
	trips    int64         // trips of the family's hot loop per block
	source   string
}{
	{
		families: []string{"GHASH.processBlocks", "GHASH.processBlock"},
		releases: jdk.Of(jdk.R8, jdk.R8u),
		extra:    bytecode.Loop{Loads: 16, ALU: 32},
		trips:    127,
		source: "JDK 8's and 8u's GHASH.processBlock read each 8-byte half of a block with getLong, 8 trips of " +
			"(r << 8) + (b[i] & 0xFF) (a byte load, a shift and an add each, counted as the loop model counts wasm: " +
			"the mask folds into the byte load; C2 unrolls the 8 trips), where JDK 17's, whose GHASH.update the row " +
			"measured, reads each half with one big-endian VarHandle get; blockMult is the same in both: 64 + 63 bit " +
			"steps per block (published 8u sources; javap -c -p of OpenJDK 17.0.15)",
	},
}

// releaseRow adds to a compiled-code row what release rel's own code does beside the code
// the row measured (releaseWork), on u.
func releaseRow(r Row, u uarch, rel jdk.Release, ls map[string]javaLoop) Row {
	if r.What != WhatC1L1 && r.What != WhatC1L2 && r.What != WhatC1L3 && r.What != WhatC2 {
		return r
	}
	for _, w := range releaseWork {
		jl, ok := ls[r.Family]
		if !w.releases.Has(rel) || !slices.Contains(w.families, r.Family) || !ok {
			continue
		}
		hot, _ := loopCycles(u, jl.loop)
		extra, bound := loopCycles(u, w.extra)
		num, den := w.trips*hot+extra, w.trips*hot
		r.Ps = (r.Ps*num + den/2) / den
		r.Source = fmt.Sprintf("%s; on %v, × %.3f for the release's own code: %d loads and %d ALU operations per block "+
			"(%.2f cycles, %s) beside %d trips of %.2f cycles [%s]", r.Source, rel, float64(num)/float64(den),
			w.extra.Loads, w.extra.ALU, float64(extra)/100, bound, w.trips, float64(hot)/100, w.source)
	}
	return r
}
