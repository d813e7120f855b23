package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Provenance says where and how a profile was measured on a real JVM (`jitsim calibrate
// --jvm`): which JVM, which CPU, when, under what load. A profile with a provenance prices
// only the release it was measured with and only a CPU model with the same features
// (Profile.Fits).
type Provenance struct {
	JVM        string   `json:"jvm"`        // the java command as given
	JVMVersion string   `json:"jvmVersion"` // java.vm.version, e.g. 17.0.15+6-Debian-1deb12u1
	JVMVendor  string   `json:"jvmVendor"`  // java.vendor
	CPUModel   string   `json:"cpuModel"`   // the processor's model name (/proc/cpuinfo)
	Features   []string `json:"features"`   // the CPU features stub selection reads (stubs/cpu names)
	Date       string   `json:"date"`       // RFC 3339, when the measurement started
	Load       string   `json:"load"`       // load averages before and after
	Rounds     int      `json:"rounds"`     // interleaved rounds per measurement
	Command    string   `json:"command"`    // the jitsim command line that measured it
}

// RunMode names one harness measurement: the run (a flag set) and what it measured
// (jvmharness Cost.java's row name: ecb-enc, ctr, ghash-jdk, gmac, call, …; or a
// -XX:+CITime tier).
type RunMode struct{ Run, Mode string }

// GHASHMode is the harness row that prices Java GHASH per byte at each level: the JDK's own
// GHASH.update over 16 KiB, called directly. GMAC (GCM over AAD only) runs the same methods
// but measured up to twice their cost at C1 on JDK 17 beside it in the same JVM, while
// CTR plus this row matches GCM decryption at levels 1, 2 and 4 (docs/measurements/validate.md).
const GHASHMode = "ghash-jdk"

// GCMCrypt0Mode is the harness row that prices the combined AES-GCM stubs: the JDK's own
// GaloisCounterMode.implGCMCrypt0 (JDK 21 and later) over 16 KiB, called directly, whose
// call C2 replaces with the stub. Unlike the other stub rows it holds no Cipher call: no
// tag, no provider glue.
const GCMCrypt0Mode = "gcm-crypt0"

// Direct says whether harness row mode calls a JDK-internal method directly, with no Cipher
// around it (GHASHMode, GCMCrypt0Mode): the harness needs
// --add-opens=java.base/com.sun.crypto.provider=ALL-UNNAMED for it.
func Direct(mode string) bool { return mode == GHASHMode || mode == GCMCrypt0Mode }

// JavaModes are the per-byte and per-call rows every level's run measures for javaRows.
var JavaModes = []string{"ecb-enc", "ecb-dec", GHASHMode, "ctr", "call"}

// Measure is one measured value with the source text its rows carry.
type Measure struct {
	Value  int64 // ps per byte; ps per call for mode "call"; bytecode bytes/s for a CITime tier
	Source string
}

// Measurements are what a calibration measured on one JVM, and which measurement prices
// what.
type Measurements struct {
	Rows    map[RunMode]Measure // per-byte and per-call measurements
	Compile map[RunMode]Measure // -XX:+CITime speeds
	// Levels name the run that measured Java code at each level 0..4.
	Levels LevelRuns
	// GlueC2 names the run whose glue rows price the glue at level 4, when it is not
	// Levels[4]: C2 with the intrinsics on, where the stubs serve the few payload bytes of a
	// 16-byte operation, so that what is left after the model's own charge is the glue.
	// Levels[4] runs C2 with the intrinsics off, where Java code for those bytes is most of
	// the operation and a small error in its price is a large one in the glue.
	GlueC2 string
	// GlueCharged is, per level (0..4) and glue mode name ("gcm"), what jitsim itself charges
	// for the harness's 16-byte "final" operation at that level on this profile without glue
	// (ps per operation), where the calibration ran it; a mode without an entry is less its
	// bytes priced per byte (GlueModes).
	GlueCharged map[GlueLevelMode]int64
	// C1, C2 are the (run, tier) whose CITime speed prices each compiler.
	C1, C2 RunMode
	// CompileTimes, when the calibration timed the JVM's compiles one by one, price a
	// compiler (WhatCompileC1, WhatCompileC2) by them instead of its CITime speed.
	CompileTimes map[string]CompileTime
	// Stubs is, per stub variant the JVM ran, the measurement of a payload it served (the
	// whole Cipher call at the measured size, Java glue included; GHASHMode's and
	// GCMCrypt0Mode's the stub's Java entry alone).
	Stubs map[variant.ID]RunMode
	// Size is the payload of each per-byte row's operation in bytes (the harness's -Dsize),
	// 0 when not known. With it a stub measured through a whole Cipher call is priced per
	// byte by the slope between that call and the mode's 16-byte "final" (stubRow).
	Size int
	// MHz is this CPU's effective clock as measured (a dependent chain of one-cycle integer
	// operations), MHzSource how: the clock the instruction-mix formulas of the variants the
	// JVM did not run are priced at.
	MHz       int64
	MHzSource string
}

func (m Measurements) get(rows map[RunMode]Measure) measureFunc {
	return func(run, mode string) (int64, string) {
		v, ok := rows[RunMode{run, mode}]
		if !ok {
			panic(fmt.Sprintf("BUG: model: no measurement %s/%s", run, mode))
		}
		return v.Value, v.Source
	}
}

// check reports the first measurement javaRows needs that m lacks.
func (m Measurements) check() error {
	for _, run := range m.Levels {
		for _, mode := range JavaModes {
			if v, ok := m.Rows[RunMode{run, mode}]; !ok || v.Value <= 0 {
				return fmt.Errorf("model: no measurement of %s in run %s", mode, run)
			}
		}
	}
	if m.MHz < 100 || m.MHz > 10_000 {
		return fmt.Errorf("model: effective clock %d MHz out of range", m.MHz)
	}
	for _, c := range []RunMode{m.C1, m.C2} {
		if v, ok := m.Compile[c]; !ok || v.Value <= 0 {
			return fmt.Errorf("model: no -XX:+CITime %s speed in run %s", c.Mode, c.Run)
		}
	}
	for what, ct := range m.CompileTimes {
		if what != WhatCompileC1 && what != WhatCompileC2 {
			return fmt.Errorf("model: compile times of %q: not a compiler", what)
		}
		if err := ct.check(what); err != nil {
			return err
		}
	}
	for id, rm := range m.Stubs {
		if v, ok := m.Rows[rm]; !ok || v.Value <= 0 {
			return fmt.Errorf("model: stub variant %s: no measurement %s/%s", id.Name(), rm.Run, rm.Mode)
		}
	}
	return nil
}

// formulaUarch is the instruction table a JVM-calibrated profile prices the stub variants
// it could not measure with: the recording host's for x86, Neoverse N1's for arm64.
func formulaUarch(arch jdk.Arch) uarch {
	name := "host"
	if arch == jdk.ARM64 {
		name = "neoverse-n1"
	}
	u, _ := lookupUarch(name)
	return u
}

// FromJVM composes the cost profile of CPU model m for release rel from measurements of a
// real JVM on this machine, with the attribution of the recorded host profile (javaRows).
// Stub variants the JVM ran are priced per byte by their measurement; every other variant a
// rule can select on m (CBC's, and JDK 17's combined GCM stubs, which no primitive of that
// release reaches: never measured, so that validation has them to check) by its
// instruction-mix formula over the instruction table of
// formulaUarch, at the clock measured on this CPU. Nothing is scaled to fit a measurement.
func FromJVM(m cpu.Model, rel jdk.Release, meas Measurements, prov Provenance) (Profile, error) {
	if err := meas.check(); err != nil {
		return Profile{}, err
	}
	u := formulaUarch(m.Arch)
	u.mhz, u.mhzSource = meas.MHz, meas.MHzSource
	p := Profile{CPU: m.Name, GHz: float64(u.mhz) / 1000, Release: rel.String(), Provenance: &prov,
		Source: fmt.Sprintf("measured on %s (%s %s) with %s on %s, %d interleaved rounds; clock: %s",
			prov.CPUModel, prov.JVMVendor, prov.JVMVersion, prov.JVM, prov.Date, prov.Rounds, meas.MHzSource)}
	p.Rows = javaRows(meas.get(meas.Rows), meas.get(meas.Compile), meas.Levels, compileRuns{
		c1: [2]string{meas.C1.Run, meas.C1.Mode}, c2: [2]string{meas.C2.Run, meas.C2.Mode}})
	p.Rows = compileTimeRows(p.Rows, meas.CompileTimes)
	p.Rows = append(p.Rows, glueRows(meas)...)
	p.Rows = append(p.Rows, firstUseRows(meas)...)
	for _, id := range stubVariants() {
		c := id.Cost()
		if id.Arch() != m.Arch || !stubs.Selectable(id, m.Arch, m.Features) {
			continue
		}
		if rm, ok := meas.Stubs[id]; ok {
			ps, src := meas.stubRow(rm)
			p.Rows = append(p.Rows, Row{Stub(id.Name()), id.Stub(), PerByte, ps, src}, perCallRow(id, u))
			continue
		}
		if c.PerBlock == nil {
			continue
		}
		b := c.PerBlock(u.insn())
		src := fmt.Sprintf("not run by the calibration: instruction mix %s = %.2f cycles/block [%s] at the measured %d MHz",
			c.Formula, float64(b)/100, u.insnSource, u.mhz)
		p.Rows = append(p.Rows, Row{Stub(id.Name()), id.Stub(), PerBlock, cyclesToPs(b, u.mhz), src}, perCallRow(id, u))
	}
	loop, err := counterLoopRows(m, rel, meas, p)
	if err != nil {
		return Profile{}, err
	}
	p.Rows = append(p.Rows, loop...)
	return p, p.Validate()
}

// stubRow is the per-byte price of a stub variant the JVM ran, from its measurement rm.
// A direct row (Direct) is the stub's Java entry alone. A whole Cipher call of a mode whose
// 16-byte "final" the level-4 glue run measured is priced by the slope between the two
// calls: what one more byte costs, without the per-call part (the provider glue and the
// stub's entry) that the model charges per call by their own rows — divided over the
// bytes, it was charged twice, and too much on a larger call and too little on a smaller
// one. Otherwise the whole call per byte, glue included.
func (m Measurements) stubRow(rm RunMode) (int64, string) {
	v := m.Rows[rm]
	if Direct(rm.Mode) {
		return v.Value, v.Source + " (the stub's Java entry called directly: no Cipher around it)"
	}
	whole := v.Source + " (the whole Cipher call, Java glue included)"
	const small = 16
	name, _, _ := strings.Cut(rm.Mode, "-")
	run := m.Levels[4]
	if m.GlueC2 != "" {
		run = m.GlueC2
	}
	fin, ok := m.Rows[RunMode{run, "glue-" + name + "-final"}]
	if !ok || m.Size <= small || !slices.ContainsFunc(GlueModes, func(g GlueMode) bool { return g.Name == name }) {
		return v.Value, whole
	}
	big, little := v.Value*int64(m.Size), fin.Value*small
	ps := (big - little) / int64(m.Size-small)
	if ps <= 0 {
		return v.Value, whole + fmt.Sprintf("; not less its %d-byte call (%d ps), which cost as much", small, little)
	}
	return ps, fmt.Sprintf("per byte between the %d-byte Cipher call, %d ps, and the %d-byte one, %d ps "+
		"(the per-call glue and stub entry left out: charged per call by their own rows): %s; %s",
		m.Size, big, small, little, v.Source, fin.Source)
}

// GlueModes are the modes whose provider glue a calibration measures, with what one
// 16-byte "final" operation of the harness hands the modelled methods, in bytes: GHASH's
// (GHASH.update's per-byte cost), the AES block method's (ECB's) and the counter or chaining loop's
// (CTR − ECB).
var GlueModes = []GlueMode{
	{"gcm", 32, 32, 16}, // a 16-byte GCM decryption: GHASH over the ciphertext and the length block; the keystream and the tag's block
	{"cbc", 0, 16, 16},
	{"ctr", 0, 16, 16},
}

// GlueMode is one mode whose glue a calibration measures.
type GlueMode struct {
	Name             string // the harness's glue-NAME-PHASE rows; the model's family NAME.PHASE in capitals
	GHASH, AES, Loop int    // the bytes its 16-byte "final" hands GHASH, the AES block method and the mode's loop
}

// GlueLevelMode names one glue mode ("gcm", "cbc", "ctr") at one level (0..4).
type GlueLevelMode struct {
	Level int
	Mode  string
}

// WithoutGlue returns m without its glue and first-use rows: what composes the profile
// jitsim runs the glue's operations on to learn what it charges for them itself
// (GlueCharged).
func (m Measurements) WithoutGlue() Measurements {
	rows := make(map[RunMode]Measure, len(m.Rows))
	for k, v := range m.Rows {
		if !strings.HasPrefix(k.Mode, "glue-") && !strings.HasPrefix(k.Mode, "first-") {
			rows[k] = v
		}
	}
	m.Rows, m.GlueCharged = rows, nil
	return m
}

// glueRows are the provider glue per level and mode, when the runs measured it: "final" is
// a doFinal of an initialised cipher on 16 bytes less what the model charges for those bytes
// itself; "init" is an init alone, of an unchanged key, for which the model charges nothing
// else. (The init was an init and a doFinal less the doFinal alone: for GCM that set an
// encryption beside a decryption, whose doFinal costs more at C2, and C2's GCM init came out
// at zero on both JDKs.)
func glueRows(meas Measurements) []Row {
	var rows []Row
	for level, run := range meas.Levels {
		what, _ := TierWhat(level)
		if level == 4 && meas.GlueC2 != "" {
			run = meas.GlueC2
		}
		get := func(mode string) (Measure, bool) { v, ok := meas.Rows[RunMode{run, mode}]; return v, ok }
		enc, _ := get("ecb-enc")
		gm, _ := get(GHASHMode)
		ctr, _ := get("ctr")
		loop := max(ctr.Value-enc.Value, 0)
		for _, g := range GlueModes {
			fin, ok1 := get("glue-" + g.Name + "-final")
			ini, ok2 := get("glue-" + g.Name + "-init")
			if !ok1 || !ok2 {
				continue
			}
			// Rows hold ps per byte of the 16-byte operation: back to ps per operation.
			finOp, iniOp := fin.Value*16, ini.Value*16
			payload := int64(g.GHASH)*gm.Value + int64(g.AES)*enc.Value + int64(g.Loop)*loop
			less := fmt.Sprintf("the %d ps the model charges for its bytes at this level (%d B GHASH, %d B AES, %d B loop)", payload, g.GHASH, g.AES, g.Loop)
			if c, ok := meas.GlueCharged[GlueLevelMode{level, g.Name}]; ok {
				payload = c
				less = fmt.Sprintf("the %d ps jitsim's own 16-byte operation takes on this profile without glue at this level", c)
			}
			mode := strings.ToUpper(g.Name)
			f := max(finOp-payload, 0)
			rows = append(rows,
				Row{WhatGlue, what + "/" + mode + ".final", PerCall, f, fmt.Sprintf(
					"a doFinal of 16 bytes, %d ps, less %s: %s", finOp, less, fin.Source)},
				Row{WhatGlue, what + "/" + mode + ".init", PerCall, iniOp, fmt.Sprintf(
					"an init of an unchanged key, %d ps: %s", iniOp, ini.Source)})
		}
	}
	return rows
}

// FirstUseRun is the run that measures a glue mode's first use in a fresh JVM: rows
// "first-MODE-instance" and "first-MODE-op".
func FirstUseRun(mode string) string { return "first-" + mode }

// firstUseRows are the first-use costs per glue mode, when the runs measured them: the
// first Cipher.getInstance less the second, and the first init and 16-byte doFinal less the
// second, in one fresh JVM.
func firstUseRows(meas Measurements) []Row {
	var rows []Row
	for _, g := range GlueModes {
		run := FirstUseRun(g.Name)
		inst, ok1 := meas.Rows[RunMode{run, run + "-instance"}]
		op, ok2 := meas.Rows[RunMode{run, run + "-op"}]
		if !ok1 || !ok2 {
			continue
		}
		mode := strings.ToUpper(g.Name)
		rows = append(rows,
			Row{WhatFirstUse, mode + ".instance", PerCall, inst.Value * 16, "the first Cipher.getInstance in a fresh JVM less the second: " + inst.Source},
			Row{WhatFirstUse, mode + ".op", PerCall, op.Value * 16, "the first init and 16-byte doFinal in a fresh JVM less the second instance's: " + op.Source})
	}
	return rows
}

// Fits reports why p cannot price release rel on CPU model m, or nil: a profile measured on
// a real JVM (Provenance set) prices only the release it was measured with, on a CPU model
// whose features are the ones it was measured on. A profile without a provenance (a CPU
// model's own, or one `jitsim calibrate` measured of jitsim's tiers) fits every release.
func (p Profile) Fits(rel jdk.Release, m cpu.Model) error {
	if p.Provenance == nil {
		return nil
	}
	if p.Release != "" && p.Release != rel.String() {
		return fmt.Errorf("it was measured on JDK %s (%s), not JDK %s", p.Release, p.Provenance.JVMVersion, rel)
	}
	var have cpu.Set
	for _, f := range p.Provenance.Features {
		ft, err := cpu.ParseFeature(f)
		if err != nil {
			return fmt.Errorf("its CPU feature %q: %v", f, err)
		}
		have = have.With(ft)
	}
	if want := cpu.Normalize(m.Features); cpu.Normalize(have) != want {
		return fmt.Errorf("it was measured on a CPU with features %s (%s), not %s's %s", cpu.Normalize(have), p.Provenance.CPUModel, m.Name, want)
	}
	return nil
}

// validate range-checks a provenance as a profile file carries it.
func (v Provenance) validate() error {
	switch {
	case strings.TrimSpace(v.JVM) == "" || strings.TrimSpace(v.JVMVersion) == "":
		return fmt.Errorf(`provenance: empty "jvm" or "jvmVersion"`)
	case v.Rounds < 1 || v.Rounds > 1000:
		return fmt.Errorf(`provenance: "rounds" %d out of range 1..1000`, v.Rounds)
	}
	if _, err := time.Parse(time.RFC3339, v.Date); err != nil {
		return fmt.Errorf(`provenance: "date" %q is not an RFC 3339 time`, v.Date)
	}
	for _, f := range v.Features {
		if _, err := cpu.ParseFeature(f); err != nil {
			return fmt.Errorf(`provenance: "features": %v`, err)
		}
	}
	return nil
}
