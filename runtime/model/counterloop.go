package model

import (
	"fmt"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// CounterLoopRun is the calibration run that times CTR with its own stub switched off
// (-XX:-UseAESCTRIntrinsics, harness row "ctr"): CounterLoopCaller's loop at C2 calling the
// single-block encryption stub once per block, as CTR with that flag and GCM's counter
// mode run on a release whose GCM goes through it.
const CounterLoopRun = "c2-noctr"

// CounterLoopCaller is the method whose loop CounterLoopRun times.
const CounterLoopCaller = "CounterMode.implCrypt"

// CounterLoopVariant is the single-block encryption stub CounterLoopCaller's loop calls on
// CPU m in release rel at C2 with the CTR stub off and everything else at its default, when
// the CTR stub is on by default there (else CTR's default path is that loop already) and
// the release's caller loops over such calls (bytecode.Method.Stream).
func CounterLoopVariant(m cpu.Model, rel jdk.Release) (variant.ID, bool) {
	cfg := stubs.Config{JDK: rel, Arch: m.Arch, UseAES: true, UseAESIntrinsics: true, UseAESCTRIntrinsics: true, UseGHASHIntrinsics: true,
		UseSSE: 4, UseAVX: cpu.Mask{Release: rel, UseSSE: 4}.AVXLimit(m.Features)}
	if _, ok := stubs.Select(aes.StubCTR, cfg, m.Features); !ok {
		return variant.ID{}, false
	}
	cfg.UseAESCTRIntrinsics = false
	v, ok := stubs.Select(aes.StubEncryptBlock, cfg, m.Features)
	if !ok {
		return variant.ID{}, false
	}
	ms, err := bytecode.All()
	if err != nil {
		return variant.ID{}, false
	}
	for _, c := range ms {
		if c.Key == CounterLoopCaller && c.Profiles.Has(rel) && c.Stream != nil && calleeIs(ms, c.Stream.Callee, rel, "_"+aes.StubEncryptBlock) {
			return v.ID, true
		}
	}
	return variant.ID{}, false
}

// counterLoopRows price, on a profile p measured on a real JVM, one call of the single-block
// stub from CounterLoopCaller's loop at C2 (StreamFamily): CounterLoopRun's CTR per block —
// per byte between its whole call and the 16-byte one, as stubRow takes it — less what p
// charges for the loop's own bytes at C2 and for the call's dispatch. What is left is the
// call with everything the compiled loop does around it: the stub's block and its entry,
// the arguments reloaded and the values the call clobbers spilled, which the entry's
// instruction-mix estimate leaves out (docs/measurements/validate.md §17). The entry is in
// the per-block price, so the per-call row is zero. The slope's 16-byte call is the glue run's,
// made with the CTR stub on: its price differs from the loop's own 16-byte call by tens of
// nanoseconds, under 0.01 ns a byte of the 16 KiB call. A measurement that leaves nothing for the call prices nothing:
// the entry's own rows price such a site.
func counterLoopRows(m cpu.Model, rel jdk.Release, meas Measurements, p Profile) ([]Row, error) {
	rm := RunMode{CounterLoopRun, "ctr"}
	if _, ok := meas.Rows[rm]; !ok {
		return nil, nil
	}
	id, ok := CounterLoopVariant(m, rel)
	if !ok {
		return nil, nil
	}
	perByte, src := meas.stubRow(rm)
	var loop, dispatch [2]Cost
	for i, n := range []int{0, 16} {
		var err error
		if loop[i], err = p.Cost(WhatC2, CounterLoopCaller, n); err != nil {
			return nil, err
		}
		if dispatch[i], err = p.Cost(WhatDispatch, id.Stub(), n); err != nil {
			return nil, err
		}
	}
	own, call := int64(loop[1]-loop[0]), int64(dispatch[0])
	block := 16*perByte - own - call
	if block <= 0 {
		return nil, nil // a measurement no dearer than its parts: the entry's own rows price the site
	}
	fam := StreamFamily(id.Stub(), CounterLoopCaller)
	return []Row{
		{Stub(id.Name()), fam, PerBlock, block, fmt.Sprintf("%d ps a block of %s's loop with the CTR stub off, less the %d ps its own 16 bytes cost at C2 and the %d ps dispatch; the loop: %s",
			16*perByte, CounterLoopCaller, own, call, src)},
		{Stub(id.Name()), fam, PerCall, 0, "the entry's instructions are in the per-block row, measured with them"},
	}, nil
}
