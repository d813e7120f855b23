package model

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// stubVariants are the stub variants the model prices: every declared one (a variant that
// no rule selects on a CPU is skipped), in the stub packages' declaration order.
func stubVariants() []variant.ID { return append(aes.Variants(), gcm.Variants()...) }

// insn is what a variant's cost shape reads of u.
func (u uarch) insn() variant.Insn {
	return variant.Insn{AESLat: u.aesLat, AESTp: u.aesTp, VAESTp: u.vaesTp, CLMULLat: u.clmulLat, CLMULTp: u.clmulTp, VCLMULTp: u.vclmulTp,
		ROB: u.rob, Width: u.width}
}

// cyclesToPs converts cycles ×100 at mhz to picoseconds.
func cyclesToPs(c100, mhz int64) int64 { return (c100*10_000 + mhz/2) / mhz }

// stubRows prices every stub variant a selection rule can pick on the
// model (stubs.Selectable: some release and flags), from the instruction-mix
// formulas and u's instruction table.
func stubRows(m cpu.Model, u uarch) []Row {
	var rows []Row
	for _, id := range stubVariants() {
		needs, c := id.Needs(), id.Cost()
		if c.PerBlock == nil || !stubs.Selectable(id, m.Arch, m.Features) ||
			needs.Has(cpu.VAES) && u.vaesTp == 0 || needs.Has(cpu.VPCLMULQDQ) && u.vclmulTp == 0 {
			continue
		}
		b := c.PerBlock(u.insn())
		src := fmt.Sprintf("instruction mix: %s = %.2f cycles/block at %d MHz [%s; %s; %s]", c.Formula, float64(b)/100, u.mhz, u.insnSource, u.robSource, u.mhzSource)
		rows = append(rows, Row{Stub(id.Name()), id.Stub(), PerBlock, cyclesToPs(b, u.mhz), src}, perCallRow(id, u))
	}
	return rows
}

// moveJavaRow moves a host row to u: compiled Java code with a loop of its own in javaLoops
// by (u's cycles per trip / the host's) × (host MHz / u's MHz); everything else — the
// interpreter, calls, dispatch, compiles — by (host MHz × IPC) / (u's MHz × IPC).
func moveJavaRow(r Row, host, u uarch, ls map[string]javaLoop) Row {
	if jl, ok := ls[r.Family]; ok && r.What != WhatInterp && r.What != WhatCall && r.What != WhatDispatch {
		l := jl.loop
		ct, bt := loopCycles(u, l)
		ch, bh := loopCycles(host, l)
		num, den := ct*host.mhz, ch*u.mhz
		r.Ps = (r.Ps*num + den/2) / den
		r.Source = fmt.Sprintf("%s; moved to %s by the hot loop of %s (%s): %.2f cycles per trip on %s (%s) against %.2f on the host (%s), "+
			"at %d MHz against the host's %d: × %.3f (the cores' resources and clocks, see the profile source)",
			r.Source, u.cpu, jl.module, loopMix(l), float64(ct)/100, u.cpu, bt, float64(ch)/100, bh, u.mhz, host.mhz, float64(num)/float64(den))
		return r
	}
	num, den := host.mhz*host.ipc, u.mhz*u.ipc
	r.Ps = (r.Ps*num + den/2) / den
	r.Source = fmt.Sprintf("%s; scaled to %s by (%d MHz × IPC %.2f)/(%d MHz × IPC %.2f) = %.3f (clock and published IPC, see the profile source)",
		r.Source, u.cpu, host.mhz, float64(host.ipc)/1000, u.mhz, float64(u.ipc)/1000, float64(num)/float64(den))
	return r
}

// perCallRow is a variant's per-call row: its prologue estimate at u's clock.
func perCallRow(id variant.ID, u uarch) Row {
	c := id.Cost().PerCall
	return Row{Stub(id.Name()), id.Stub(), PerCall, cyclesToPs(c, u.mhz),
		fmt.Sprintf("estimate: %.0f cycles of stub prologue/epilogue at %d MHz (instruction count, not measured)", float64(c)/100, u.mhz)}
}

// Lookup returns the cost profile of the named CPU model (stubs/cpu) as it prices a release
// the recording host has no run of its own for (LookupRelease prices one release).
func Lookup(name string) (Profile, error) { return LookupRelease(name, anyRelease) }

// LookupRelease returns the cost profile of the named CPU model as it prices release rel:
// on the host, a stub variant with a recorded run on rel's own path is priced by that run.
func LookupRelease(name string, rel jdk.Release) (Profile, error) {
	m, err := cpu.Lookup(name)
	if err != nil {
		return Profile{}, fmt.Errorf("model: %w", err)
	}
	u, ok := lookupUarch(m.Name)
	if !ok {
		return Profile{}, fmt.Errorf("model: CPU model %q has no cost profile (profiles: %s)", name, strings.Join(profileNames(), ", "))
	}
	return build(m, u, rel)
}

// Profiles returns the profile of every CPU model that has one, in
// stubs/cpu's order.
func Profiles() []Profile {
	var ps []Profile
	for _, m := range cpu.Models() {
		if u, ok := lookupUarch(m.Name); ok {
			p, err := build(m, u, anyRelease)
			if err != nil {
				panic("BUG: " + err.Error())
			}
			ps = append(ps, p)
		}
	}
	return ps
}

func profileNames() []string {
	var ns []string
	for _, u := range uarches {
		ns = append(ns, u.cpu)
	}
	return ns
}

// javaLoops name, per family of a compiled-Java row (levels 1–4), the reference module
// whose hot loop the row's measurement times: AES's block methods their table rounds;
// GHASH.update, and so every GHASH row, the bit loop of blockMult; the `*` row, measured as
// CTR − ECB, CounterMode.implCrypt's byte loop around the block call.
var javaLoops = []struct{ family, module string }{
	{"AESCrypt.implEncryptBlock", "AESCrypt.implEncryptBlock"},
	{"AESCrypt.implDecryptBlock", "AESCrypt.implDecryptBlock"},
	{"GHASH.processBlocks", "GHASH.blockMult"},
	{"GHASH.processBlock", "GHASH.blockMult"},
	{"GHASH.blockMult", "GHASH.blockMult"},
	{AnyFamily, "CounterMode.implCrypt"},
}

// javaLoop is a row family's loop and the module it was read from.
type javaLoop struct {
	loop   bytecode.Loop
	module string
}

// loops reads the hot loop of every module javaLoops names, once.
var loops = sync.OnceValues(func() (map[string]javaLoop, error) {
	ms, err := bytecode.All()
	if err != nil {
		return nil, err
	}
	out := map[string]javaLoop{}
	for _, jl := range javaLoops {
		for _, m := range ms {
			if m.Module == jl.module {
				l, err := m.HotLoop()
				if err != nil {
					return nil, fmt.Errorf("model: %w", err)
				}
				out[jl.family] = javaLoop{l, jl.module}
				break
			}
		}
		if _, ok := out[jl.family]; !ok {
			return nil, fmt.Errorf("model: no reference module %s for the %s rows", jl.module, jl.family)
		}
	}
	return out, nil
})

// build assembles one profile: the JVM-measured host rows, moved to other models — compiled
// Java code (levels 1–4) by the cycles its loop takes on each core at each clock, the
// interpreter, calls and compiles by clock and published IPC; stub rows measured on the host
// (host) or from the instruction-mix formulas (every other model).
func build(m cpu.Model, u uarch, rel jdk.Release) (Profile, error) {
	host, _ := lookupUarch("host")
	p := Profile{CPU: m.Name, GHz: float64(u.mhz) / 1000,
		Source: fmt.Sprintf("%s. Clock: %s. Integer core: %s. IPC vs Skylake %.2f (interpreter, calls, compiles): %s",
			m.Description, u.mhzSource, u.coreSource, float64(u.ipc)/1000, u.ipcSource)}
	ls, err := loops()
	if err != nil {
		return Profile{}, err
	}
	for _, r := range hostJavaRows() {
		if m.Name != "host" {
			r = moveJavaRow(r, host, u, ls)
		}
		p.Rows = append(p.Rows, releaseRow(r, u, rel, ls))
	}
	if m.Name == "host" {
		rows, err := hostStubRows(m, u, rel)
		if err != nil {
			return Profile{}, err
		}
		p.Rows = append(p.Rows, rows...)
	} else {
		p.Rows = append(p.Rows, stubRows(m, u)...)
		rows, err := streamRows(m, u, rel)
		if err != nil {
			return Profile{}, err
		}
		p.Rows = append(p.Rows, rows...)
	}
	return p, p.Validate()
}

// StreamFamily is the family of the rows that price single-block stub entry stub when it is
// called from caller's loop of independent blocks (bytecode.Method.Stream): such a site is
// priced by these rows where the profile has them, else by the entry's own.
func StreamFamily(stub, caller string) string { return stub + " from " + caller }

// streamRows prices, for every single-block stub variant a rule can pick on the model and
// every method of release rel whose loop calls that stub's method on independent blocks, one
// call from that loop (variant.Cost.InStream): the caller's instructions per call are its
// hot loop's (bytecode.LoopOf), the loops nested in it included (a 16-byte xor between
// calls takes window entries as CounterMode's byte loop does), times its trips per call.
// The prologue is issued within the
// stream, so the per-call row is zero. A caller whose window holds no more than one call gets
// no rows: its calls do not overlap. For anyRelease, each caller key's first body in the
// table.
func streamRows(m cpu.Model, u uarch, rel jdk.Release) ([]Row, error) {
	ms, err := bytecode.All()
	if err != nil {
		return nil, err
	}
	var rows []Row
	seen := map[string]bool{}
	for _, id := range aes.Variants() {
		c := id.Cost()
		if c.InStream == nil || !stubs.Selectable(id, m.Arch, m.Features) {
			continue
		}
		for _, caller := range ms {
			s := caller.Stream
			if s == nil || rel != anyRelease && !caller.Profiles.Has(rel) {
				continue
			}
			fam := StreamFamily(id.Stub(), caller.Key)
			if seen[id.Name()+"/"+fam] || !calleeIs(ms, s.Callee, rel, "_"+id.Stub()) {
				continue
			}
			seen[id.Name()+"/"+fam] = true
			l, err := caller.HotLoop()
			if err != nil {
				return nil, fmt.Errorf("model: the loop of %s: %w", caller.Key, err)
			}
			callerUops := int64(s.Trips*(l.Uops()+l.Nested)) * 100
			b, ok := c.InStream(u.insn(), callerUops)
			if !ok {
				continue // no overlap: the entry's latency-bound rows price the site
			}
			src := fmt.Sprintf("instruction mix: %s, called from %s's loop (%d trips of %d operations a call: %s%s) = %.2f cycles a call at %d MHz [%s; %s; %s]",
				c.StreamFormula, caller.Key, s.Trips, l.Uops()+l.Nested, loopMix(l), nestedMix(l), float64(b)/100, u.mhz, u.insnSource, u.robSource, u.mhzSource)
			rows = append(rows, Row{Stub(id.Name()), fam, PerBlock, cyclesToPs(b, u.mhz), src},
				Row{Stub(id.Name()), fam, PerCall, 0, "the prologue's instructions are issued within the stream of calls (in the per-block row)"})
		}
	}
	return rows, nil
}

// nestedMix is the source's words for the operations of a loop's nested loops, if any.
func nestedMix(l bytecode.Loop) string {
	if l.Nested == 0 {
		return ""
	}
	return fmt.Sprintf(", and %d in its nested loops", l.Nested)
}

// calleeIs reports whether method key, in release rel (any release for anyRelease), is
// the intrinsic candidate intrinsic.
func calleeIs(ms []*bytecode.Method, key string, rel jdk.Release, intrinsic string) bool {
	return slices.ContainsFunc(ms, func(m *bytecode.Method) bool {
		return m.Key == key && (rel == anyRelease || m.Profiles.Has(rel)) && m.Intrinsic == intrinsic
	})
}
