package model

import (
	"fmt"
	"strings"

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
	return variant.Insn{AESLat: u.aesLat, AESTp: u.aesTp, VAESTp: u.vaesTp, CLMULLat: u.clmulLat, CLMULTp: u.clmulTp, VCLMULTp: u.vclmulTp}
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
		src := fmt.Sprintf("instruction mix: %s = %.2f cycles/block at %d MHz [%s; %s]", c.Formula, float64(b)/100, u.mhz, u.insnSource, u.mhzSource)
		rows = append(rows, Row{Stub(id.Name()), id.Stub(), PerBlock, cyclesToPs(b, u.mhz), src}, perCallRow(id, u))
	}
	return rows
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

// build assembles one profile: the JVM-measured host rows, scaled by clock
// and IPC for other models; stub rows measured on the host (host) or from
// the instruction-mix formulas (every other model).
func build(m cpu.Model, u uarch, rel jdk.Release) (Profile, error) {
	host, _ := lookupUarch("host")
	p := Profile{CPU: m.Name, GHz: float64(u.mhz) / 1000,
		Source: fmt.Sprintf("%s. Clock: %s. IPC vs Skylake %.2f: %s", m.Description, u.mhzSource, float64(u.ipc)/1000, u.ipcSource)}
	for _, r := range hostJavaRows() {
		if m.Name != "host" {
			num, den := host.mhz*host.ipc, u.mhz*u.ipc
			r.Ps = (r.Ps*num + den/2) / den
			r.Source = fmt.Sprintf("%s; scaled to %s by (%d MHz × IPC %.2f)/(%d MHz × IPC %.2f) = %.3f (clock and published IPC, see the profile source)",
				r.Source, m.Name, host.mhz, float64(host.ipc)/1000, u.mhz, float64(u.ipc)/1000, float64(num)/float64(den))
		}
		p.Rows = append(p.Rows, r)
	}
	if m.Name == "host" {
		rows, err := hostStubRows(m, u, rel)
		if err != nil {
			return Profile{}, err
		}
		p.Rows = append(p.Rows, rows...)
	} else {
		p.Rows = append(p.Rows, stubRows(m, u)...)
	}
	return p, p.Validate()
}
