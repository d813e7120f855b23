package model

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// HostRecording says where the built-in host profile's JVM measurements were made: the
// "host" CPU model prices any machine with them unless a calibrated profile of that machine
// exists (`jitsim calibrate --jvm`).
const HostRecording = "on a 2-vCPU AMD EPYC VM (Zen 5, /proc/cpuinfo family 26) with OpenJDK 17.0.15 " +
	"and Temurin 25.0.3, median of five passes, 2026-12-06 (runtime/model/testdata/jvm); this machine may differ"

// jvmRow is one recorded JVM measurement (see jvm_measured.go).
type jvmRow struct {
	run, mode string
	value     int64
}

// jvm returns a recorded measurement and its source text.
func jvm(rows []jvmRow, run, mode string) (int64, string) {
	for _, r := range rows {
		if r.run == run && r.mode == mode {
			return r.value, fmt.Sprintf("JVM measurement testdata/jvm/out/pass*/%s.txt, row %s, median of the passes (thread CPU time, 16 KiB, AES-128)", run, mode)
		}
	}
	panic(fmt.Sprintf("BUG: model: no JVM measurement %s/%s in jvm_measured.go", run, mode))
}

// tierRuns maps each tier to the JDK 17 run that measured it on the host
// (testdata/jvm/run.sh): -Xint; -XX:TieredStopAtLevel=1, 2, 3; and C2
// with the AES, AES-CTR and GHASH intrinsics switched off.
var tierRuns = LevelRuns{"jdk17_interp", "jdk17_c1_l1", "jdk17_c1_l2", "jdk17_c1_l3", "jdk17_c2_nointr"}

// LevelRuns name, per execution level 0..4, the harness run that measured Java code at that
// level: -Xint; -XX:TieredStopAtLevel=1, 2, 3; C2 with the AES, AES-CTR and GHASH intrinsics
// switched off.
type LevelRuns [5]string

// measureFunc looks up one measurement: ps per byte (per call for mode "call", bytecode
// bytes per second for a compile tier), and the source text of the row it prices.
type measureFunc func(run, mode string) (int64, string)

// compileRuns are the (run, -XX:+CITime tier) pairs that measured C1's and C2's speed.
type compileRuns struct{ c1, c2 [2]string }

// hostJavaRows are the costs of Java code, calls and compiles measured
// with JDK 17 on the recording host.
func hostJavaRows() []Row {
	return javaRows(func(run, mode string) (int64, string) { return jvm(jvmRows, run, mode) },
		func(run, tier string) (int64, string) {
			v, _ := jvm(jvmCompile, run, tier)
			return v, fmt.Sprintf("in testdata/jvm/out/pass*/%s.txt, highest of the passes (wall-clock compiler timers on a loaded shared machine: an upper bound)", run)
		},
		tierRuns, compileRuns{c1: [2]string{"jdk17_c1_l3", "Tier3"}, c2: [2]string{"jdk17_c2_nointr", "Tier4"}})
}

// javaRows composes the costs of Java code, calls and compiles from a JVM's measurements:
// the one attribution every JVM-measured profile shares.
//
// Per-method attribution: AESCrypt's block methods cost what AES/ECB
// costs per byte (ECB is the block method in a loop); GHASH.processBlocks
// (and JDK 8's GHASH.processBlock) what the JDK's own GHASH.update costs
// per byte, called directly (GHASHMode);
// JDK 9+'s GHASH.blockMult, which those two call per block there, the
// same less the two non-inlined calls per block that figure holds
// at levels 0–3 (C1 inlines neither callee: both exceed C1MaxInlineSize);
// every other method (CTR, CBC and GCTR loops, the GCM engine) the
// difference CTR − ECB per byte, the counter and XOR work around the
// block cipher.
func javaRows(get, speed measureFunc, runs LevelRuns, comp compileRuns) []Row {
	var rows []Row
	for level, run := range runs {
		what, _ := TierWhat(level)
		enc, encSrc := get(run, "ecb-enc")
		dec, decSrc := get(run, "ecb-dec")
		gm, gmSrc := get(run, GHASHMode)
		ctr, ctrSrc := get(run, "ctr")
		call, callSrc := get(run, "call")
		glue, glueSrc := ctr-enc, fmt.Sprintf("CTR − ECB-encrypt per byte: %s minus %s", ctrSrc, encSrc)
		if glue < 0 {
			glue, glueSrc = 0, fmt.Sprintf("0: CTR measured below ECB-encrypt (%d vs %d ps/byte, noise), so the loop work is taken as free: %s; %s",
				ctr, enc, ctrSrc, encSrc)
		}
		rows = append(rows,
			Row{what, "AESCrypt.implEncryptBlock", PerByte, enc, encSrc},
			Row{what, "AESCrypt.implDecryptBlock", PerByte, dec, decSrc},
			Row{what, "GHASH.processBlocks", PerByte, gm, gmSrc},
			Row{what, "GHASH.processBlock", PerByte, gm, gmSrc},
			blockMultRow(level, what, gm, gmSrc, call, callSrc),
			Row{what, AnyFamily, PerByte, glue, glueSrc},
			Row{WhatCall, what, PerCall, call, "non-inlined static call from a loop at this tier: " + callSrc},
		)
	}
	c2call, src := get(runs[4], "call")
	rows = append(rows, Row{WhatDispatch, AnyFamily, PerCall, c2call,
		"a C2 call site bound to a stub is a direct call: the C2 non-inlined call cost, " + src})
	for _, c := range []struct {
		what string
		rt   [2]string
	}{{WhatCompileC1, comp.c1}, {WhatCompileC2, comp.c2}} {
		v, where := speed(c.rt[0], c.rt[1])
		rows = append(rows, Row{c.what, AnyFamily, PerBytecodeByte, (1_000_000_000_000 + v/2) / v,
			fmt.Sprintf("1/(-XX:+CITime %s speed %d bytes/s) %s", c.rt[1], v, where)})
	}
	return rows
}

// blockMultRow prices JDK 9+'s GHASH.blockMult per byte from GHASH.update's per-byte cost
// at one level: at levels 0–3 GHASH.update ran processBlocks → processBlock → blockMult with both calls
// made (C1 inlines neither: 37 and 245 bytecode bytes, above C1MaxInlineSize), and the model
// charges those calls apart, so they come off, per 16-byte block; C2 inlines them, so level 4
// keeps the whole figure.
func blockMultRow(level int, what string, gm int64, gmSrc string, call int64, callSrc string) Row {
	if level == 4 {
		return Row{what, "GHASH.blockMult", PerByte, gm, gmSrc + " (C2 inlines processBlock and blockMult into the loop)"}
	}
	ps := gm - (2*call+8)/16
	src := fmt.Sprintf("GHASH.update per byte less two non-inlined calls per 16-byte block (processBlocks → processBlock → blockMult): %s; %s", gmSrc, callSrc)
	if ps < 0 {
		ps, src = 0, "0: two calls per block measured above GHASH.update's cost (noise): "+src
	}
	return Row{what, "GHASH.blockMult", PerByte, ps, src}
}

// anyRelease, as the release a host profile is built for, selects the recorded runs that name
// no release: the profile model.Lookup and the cost table show.
const anyRelease = jdk.Release(255)

// hostStubRows are the host's stub costs for release rel: per byte as the JVM run the variant
// declares for rel (variant.ID.HostRun) measured them — UseAVX=3 by default there; UseAVX=2
// selects the AVX2/AES-NI variants, UseAVX=0 the one-block GHASH — and per call from the
// prologue estimate at the host clock. On a non-amd64 host the x86 measurements do not apply
// and the formulas run.
func hostStubRows(m cpu.Model, u uarch, rel jdk.Release) ([]Row, error) {
	if m.Arch != jdk.AMD64 {
		return stubRows(m, u), nil
	}
	var rows []Row
	for _, id := range stubVariants() {
		h, ok := id.HostRun(rel)
		if !ok {
			continue
		}
		ps, src, err := hostStubMeasure(h)
		if err != nil {
			return nil, fmt.Errorf("model: stub variant %s: %w", id.Name(), err)
		}
		rows = append(rows, Row{Stub(id.Name()), id.Stub(), PerByte, ps, src}, perCallRow(id, u))
	}
	return rows, nil
}

// hostStubMeasure is the per-byte price of a stub from its recorded run: the mode's whole
// Cipher call at 16 KiB (its release's Java glue included), less the Minus mode of the same
// run when the run reaches the stub only with other stubs on the path.
func hostStubMeasure(h variant.JVMRun) (int64, string, error) {
	ps, src := jvm(jvmRows, h.Run, h.Mode)
	if h.Minus == "" {
		return ps, src + " (the whole Cipher call at 16 KiB, Java glue included)", nil
	}
	sub, subSrc := jvm(jvmRows, h.Run, h.Minus)
	if ps <= sub {
		return 0, "", fmt.Errorf("%s/%s (%d ps/byte) is not above %s (%d ps/byte)", h.Run, h.Mode, ps, h.Minus, sub)
	}
	return ps - sub, fmt.Sprintf("%s less %s, the other stub on the same path measured alone in the same run: %s; %s",
		h.Mode, h.Minus, src, subSrc), nil
}
