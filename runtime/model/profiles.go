package model

import (
	"fmt"
	"strings"

	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// aesRounds is the round count the stub formulas and the measurements
// assume: AES-128 (key array of 44 ints), the seeds' key size.
const aesRounds = 10

// stubShape is one stub variant's cost as a function of a
// microarchitecture's instruction latencies and throughputs: cycles per
// 16-byte block and per call, ×100. Formula says how, in words. The
// variant's entry, architecture and features are its ID's.
type stubShape struct {
	id       variant.ID
	perBlock func(u uarch) int64
	perCall  int64
	formula  string
}

// Per-call overheads (cycles ×100): an estimate from the instruction count
// of each kind of stub's prologue and epilogue — stack frame, loading the
// 11 round keys, length checks, the tail loop's set-up — not measured.
const (
	callBlock = 2000  // single-block stubs: ~20 cycles
	callBulk  = 4000  // multi-block stubs: ~40 cycles
	callGCM   = 10000 // combined GCM stubs: ~100 cycles (H-power table loads, counter set-up)
)

// par is the cost per block of P independent AES chains: bound by
// throughput or by latency/P, whichever is larger.
func par(u uarch, p int64) int64 { return max(aesRounds*u.aesTp, aesRounds*u.aesLat/p) }

var stubShapes = []stubShape{
	// x86_64 (stubGenerator_x86_64_aes.cpp, stubGenerator_x86_64_ghash.cpp).
	{aes.EncryptBlockAESNI, func(u uarch) int64 { return aesRounds*u.aesLat + 600 }, callBlock,
		"10 dependent AESENC (latency-bound) + ~6 cycles load/whiten/store"},
	{aes.DecryptBlockAESNI, func(u uarch) int64 { return aesRounds*u.aesLat + 600 }, callBlock,
		"10 dependent AESDEC (latency-bound) + ~6 cycles load/whiten/store"},
	{aes.CBCEncryptAESNI, func(u uarch) int64 { return aesRounds*u.aesLat + 400 }, callBulk,
		"CBC encryption is one serial chain: 10 × AESENC latency + ~4 cycles (load, XOR with the previous block, store)"},
	{aes.CBCDecryptAESNI4, func(u uarch) int64 { return par(u, 4) + 200 }, callBulk,
		"4 blocks in flight: max(10 × AESDEC throughput, 10 × latency / 4) + ~2 cycles XOR/store"},
	{aes.CBCDecryptVAES,
		func(u uarch) int64 { return max(aesRounds*u.vaesTp/4, aesRounds*u.aesLat/32) + 100 }, callBulk,
		"32 blocks in flight in zmm registers: max(10 × VAESDEC-zmm throughput / 4, 10 × latency / 32) + ~1 cycle"},
	{aes.ECBEncryptVAES,
		func(u uarch) int64 { return max(aesRounds*u.vaesTp/4, aesRounds*u.aesLat/32) + 100 }, callBulk,
		"as the VAES CBC decryption: max(10 × VAESENC-zmm throughput / 4, 10 × latency / 32) + ~1 cycle"},
	{aes.ECBDecryptVAES,
		func(u uarch) int64 { return max(aesRounds*u.vaesTp/4, aesRounds*u.aesLat/32) + 100 }, callBulk,
		"as the VAES CBC decryption"},
	{aes.CTRAESNI6, func(u uarch) int64 { return par(u, 6) + 200 }, callBulk,
		"6 blocks in flight: max(10 × AESENC throughput, 10 × latency / 6) + ~2 cycles (counter increment and shuffle, XOR)"},
	{aes.CTRVAES,
		func(u uarch) int64 { return max(aesRounds*u.vaesTp/4, aesRounds*u.aesLat/16) + 100 }, callBulk,
		"16 blocks in flight in zmm registers: max(10 × VAESENC-zmm throughput / 4, 10 × latency / 16) + ~1 cycle"},
	{gcm.GHASHPCLMUL, func(u uarch) int64 { return u.clmulLat + 3*u.clmulTp + 1000 }, callBulk,
		"one block per iteration, serial on the hash: 4 PCLMULQDQ (latency + 3 × throughput) + ~10 cycles shift/XOR reduction and byte swap"},
	{gcm.GHASHAVX8, func(u uarch) int64 { return 4*u.clmulTp + (u.clmulLat+1000)/8 + 100 }, callBulk,
		"8 blocks per reduction with H¹…H⁸: 4 PCLMULQDQ per block at throughput, one reduction (latency + ~10 cycles) per 8 blocks, + ~1 cycle"},
	{gcm.GCMAVX2,
		func(u uarch) int64 { return max(aesRounds*u.aesTp, 4*u.clmulTp) + (u.clmulLat+1000)/8 + 200 }, callGCM,
		"AES-CTR and GHASH interleaved 8 blocks at a time on different ports: max(10 × AESENC throughput, 4 × PCLMULQDQ throughput) + reduction/8 + ~2 cycles"},
	{gcm.GCMVAES,
		func(u uarch) int64 { return max(aesRounds*u.vaesTp/4, 4*u.vclmulTp/4) + 100 }, callGCM,
		"AES and GHASH interleaved 16+ blocks at a time in zmm: max(10 × VAESENC-zmm throughput / 4, 4 × VPCLMULQDQ-zmm throughput / 4) + ~1 cycle"},

	// aarch64 (stubGenerator_aarch64.cpp). An AES round is a fused AESE+AESMC pair.
	{aes.EncryptBlockARMv8, func(u uarch) int64 { return aesRounds*u.aesLat + 600 }, callBlock,
		"10 dependent AESE+AESMC pairs (latency-bound) + ~6 cycles load/store"},
	{aes.DecryptBlockARMv8, func(u uarch) int64 { return aesRounds*u.aesLat + 600 }, callBlock,
		"10 dependent AESD+AESIMC pairs (latency-bound) + ~6 cycles load/store"},
	{aes.CBCEncryptARMv8, func(u uarch) int64 { return aesRounds*u.aesLat + 400 }, callBulk,
		"one serial chain: 10 × AESE+AESMC latency + ~4 cycles"},
	{aes.CBCDecryptARMv8, func(u uarch) int64 { return aesRounds*u.aesLat + 400 }, callBulk,
		"HotSpot's aarch64 CBC decryption runs one block per iteration: 10 × AESD+AESIMC latency + ~4 cycles"},
	{aes.CTRARMv8x4, func(u uarch) int64 { return par(u, 4) + 200 }, callBulk,
		"bulk_width 4: max(10 × AESE+AESMC throughput, 10 × latency / 4) + ~2 cycles"},
	{gcm.GHASHPMULL, func(u uarch) int64 { return 4*u.clmulTp + (u.clmulLat+800)/8 + 100 }, callBulk,
		"wide GHASH: 4 PMULL/PMULL2 per block at throughput, one reduction (latency + ~8 cycles) per 8 blocks, + ~1 cycle"},
	{gcm.GCMPMULL,
		func(u uarch) int64 { return par(u, 8) + 4*u.clmulTp + (u.clmulLat+800)/8 + 200 }, callGCM,
		"AES-CTR over 8 blocks, then GHASH over them (not interleaved): par8 AES + 4 PMULL throughput + reduction/8 + ~2 cycles"},
}

// cyclesToPs converts cycles ×100 at mhz to picoseconds.
func cyclesToPs(c100, mhz int64) int64 { return (c100*10_000 + mhz/2) / mhz }

// stubRows prices every stub variant a selection rule can pick on the
// model (stubs.Selectable: some release and flags), from the instruction-mix
// formulas and u's instruction table.
func stubRows(m cpu.Model, u uarch) []Row {
	var rows []Row
	for _, s := range stubShapes {
		needs := s.id.Needs()
		if !stubs.Selectable(s.id, m.Arch, m.Features) ||
			needs.Has(cpu.VAES) && u.vaesTp == 0 || needs.Has(cpu.VPCLMULQDQ) && u.vclmulTp == 0 {
			continue
		}
		b := s.perBlock(u)
		src := fmt.Sprintf("instruction mix: %s = %.2f cycles/block at %d MHz [%s; %s]", s.formula, float64(b)/100, u.mhz, u.insnSource, u.mhzSource)
		rows = append(rows,
			Row{Stub(s.id.Name()), s.id.Stub(), PerBlock, cyclesToPs(b, u.mhz), src},
			Row{Stub(s.id.Name()), s.id.Stub(), PerCall, cyclesToPs(s.perCall, u.mhz),
				fmt.Sprintf("estimate: %.0f cycles of stub prologue/epilogue at %d MHz (instruction count, not measured)", float64(s.perCall)/100, u.mhz)})
	}
	return rows
}

// Lookup returns the cost profile of the named CPU model (stubs/cpu).
func Lookup(name string) (Profile, error) {
	m, err := cpu.Lookup(name)
	if err != nil {
		return Profile{}, fmt.Errorf("model: %w", err)
	}
	u, ok := lookupUarch(m.Name)
	if !ok {
		return Profile{}, fmt.Errorf("model: CPU model %q has no cost profile (profiles: %s)", name, strings.Join(profileNames(), ", "))
	}
	return build(m, u)
}

// Profiles returns the profile of every CPU model that has one, in
// stubs/cpu's order.
func Profiles() []Profile {
	var ps []Profile
	for _, m := range cpu.Models() {
		if u, ok := lookupUarch(m.Name); ok {
			p, err := build(m, u)
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
func build(m cpu.Model, u uarch) (Profile, error) {
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
		p.Rows = append(p.Rows, hostStubRows(m, u)...)
	} else {
		p.Rows = append(p.Rows, stubRows(m, u)...)
	}
	return p, p.Validate()
}
