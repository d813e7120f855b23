// Package variant names jitsim's stub variants and holds each one's declaration. A variant is
// one implementation of a HotSpot StubRoutines entry (the AES-NI code of counterMode_AESCrypt,
// the generic Go twin of ghash_processBlocks, …). The stub package that implements an entry
// declares it once with [List.Entry], and each of its variants once, with [Entry.Asm] or
// [Entry.Generic], under an exported [ID]. The declaration ([Spec]) is every fact jitsim
// keeps about the variant besides its code: its name, the architecture its code is built for,
// the CPU features that code uses, the selection rules under which HotSpot generates it, its
// cost shape for the model clock and the recorded JVM run that measured it. Everything else
// holds the ID: the selection (package stubs), the model clock's prices (runtime/model), the
// calibration probes (the entry's [Prober]) and the typed lookups of its code ([Code]).
package variant

import (
	"fmt"
	"slices"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ID is one declared stub variant. IDs are comparable (map keys); the zero ID names no
// variant, and its accessors return zero values.
type ID struct{ v *info }

type info struct {
	entry *Entry
	spec  Spec
	seq   int  // declaration order within its list
	built bool // a Code registry holds its code in this binary
}

// Spec is the declaration of one assembly variant.
type Spec struct {
	// Name is the variant's name within its entry ("vaes-avx512").
	Name string
	// Arch is the architecture its assembly is built for.
	Arch jdk.Arch
	// Needs are the CPU features its code uses: the one feature set that says whether a CPU
	// can run it.
	Needs cpu.Set
	// Rules are the conditions under which HotSpot generates it (none: no release selects
	// it, a measured alternative).
	Rules []Rule
	// Cost is its price on the model clock, from a CPU's instruction table. Every variant
	// a rule selects has one.
	Cost Cost
	// Host names the recorded JVM runs that exercised it on the recording host, each for the
	// releases it prices (none: the cost formula prices it there too).
	Host []JVMRun
}

// Rule is one condition under which HotSpot generates a variant: the release is one of
// Releases, every flag of Flags is on and the CPU, as cpu.Mask leaves it, has every feature
// of Requires. Requires is HotSpot's condition, not the variant's: the features the code uses
// are its Needs, which Requires must cover (stubs.TestRulesCoverNeeds).
type Rule struct {
	Generator string  // the HotSpot stub generator it models
	Releases  jdk.Set // the releases that generate it with this generator
	Flags     Flag
	Requires  cpu.Set
	Condition string // HotSpot's condition, in words
}

// Flag is an intrinsic-gating flag, as a bit for rules.
type Flag uint8

// The gating flags.
const (
	UseAES Flag = 1 << iota
	UseAESIntrinsics
	UseAESCTRIntrinsics
	UseGHASHIntrinsics
)

// Insn is what a cost shape reads of a microarchitecture: the latency and reciprocal
// throughput of the instructions the crypto stubs are made of, in cycles ×100 (50 = 0.5
// cycles). AES* is AESENC/AESDEC (x86) or a fused AESE+AESMC pair (arm64) on 128 bits;
// VAESTp the 512-bit VAES form (4 blocks); CLMUL* PCLMULQDQ or PMULL/PMULL2 (64×64);
// VCLMULTp the 512-bit VPCLMULQDQ form (4 products). Zero means the CPU has no such form.
// ROB is the out-of-order window (reorder-buffer entries) and Width the instructions issued
// per cycle: how many independent blocks the core overlaps, and what issuing a loop costs
// (zero: unknown, and [Insn.Stream] overlaps nothing beyond the code's own blocks).
type Insn struct {
	AESLat, AESTp, VAESTp, CLMULLat, CLMULTp, VCLMULTp int64
	ROB, Width                                         int64
}

// CostRounds is the AES round count the cost shapes assume: AES-128 (a key array of 44
// ints), the seeds' key size.
const CostRounds = 10

// Stream is the cost per block (cycles ×100) of a loop whose blocks are independent of each
// other (ECB, CBC decryption, CTR). The out-of-order window overlaps successive iterations,
// not only the p blocks one iteration holds, so the loop is bound by the largest of: the AES
// unit's throughput (aes, the block's rounds at throughput, cycles ×100); one block's
// dependent chain (chain, cycles ×100) spread over the blocks in flight, p or as many as the
// reorder buffer holds at uops instructions per block (×100), whichever is more; and issuing
// uops at Width per cycle. A chain across blocks (CBC encryption, the GHASH hash) is not a
// stream: it stays latency-bound.
func (u Insn) Stream(p, aes, chain, uops int64) int64 {
	inFlight := p * 100 // blocks ×100
	if u.ROB > 0 && uops > 0 {
		inFlight = max(inFlight, u.ROB*10_000/uops)
	}
	c := max(aes, chain*100/inFlight)
	if u.Width > 0 {
		c = max(c, uops/u.Width)
	}
	return c
}

// Calls is the cost per call (cycles ×100) of a single-block stub called once per trip of a
// loop whose blocks are independent of each other (CTR's counters, ECB): the loop is a
// stream of calls, priced by the rule of [Insn.Stream] with one block per iteration. The
// window holds ROB / (stub + caller) instructions' worth of calls, and one call's dependent
// chain (chain, cycles ×100) is spread over them; the AES unit's throughput (aes) and
// issuing the stub's own instructions (stub, ×100; its prologue included) bound it too. The
// caller's instructions (caller, ×100) only take window entries here: their issue is the
// caller's own code, priced by its own rows. overlap is false when the window holds no more
// than one call (or its size is unknown): the next call's instructions enter only once this
// one's result has been consumed, and the calls stay latency-bound, as a caller whose blocks
// form a chain (CBC encryption) does.
func (u Insn) Calls(aes, chain, stub, caller int64) (c int64, overlap bool) {
	if u.ROB <= 0 || stub+caller <= 0 {
		return 0, false
	}
	inFlight := u.ROB * 10_000 / (stub + caller) // calls ×100
	if inFlight <= 100 {
		return 0, false
	}
	c = max(aes, chain*100/inFlight)
	if u.Width > 0 {
		c = max(c, stub/u.Width)
	}
	return c, true
}

// Per-call overheads (cycles ×100): an estimate from the instruction count of each kind of
// stub's prologue and epilogue — stack frame, loading the 11 round keys, length checks, the
// tail loop's set-up — not measured.
const (
	CallBlock = 2000  // single-block stubs: ~20 cycles
	CallBulk  = 4000  // multi-block stubs: ~40 cycles
	CallGCM   = 10000 // combined GCM stubs: ~100 cycles (H-power table loads, counter set-up)
)

// Cost is a variant's cost as a function of a microarchitecture's instruction table:
// cycles per 16-byte block and per call, ×100. Formula says how, in words.
type Cost struct {
	PerBlock func(Insn) int64
	PerCall  int64
	Formula  string
	// InStream, for a single-block stub, is its cost per call (cycles ×100, prologue
	// included) when a loop of independent blocks calls it once per trip and its own code
	// issues caller instructions (×100) per call, and whether successive calls overlap at
	// all ([Insn.Calls]); nil for the bulk stubs, whose loops are their own. StreamFormula
	// says how, in words.
	InStream      func(u Insn, caller int64) (int64, bool)
	StreamFormula string
}

// JVMRun names a recorded real-JVM measurement (runtime/model's testdata/jvm): the run (a
// flag set on one release) and the mode that exercised the variant. Minus, when set, is a
// mode of the same run subtracted from Mode: the other stubs on the path, measured alone
// (GHASH as GCM through the separate stubs minus CTR). Releases are the releases whose
// price it is; zero means every release without a run of its own.
type JVMRun struct {
	Run, Mode, Minus string
	Releases         jdk.Set
}

// Prober builds the calibration probe of variant id of its entry: run times the variant's
// code over payload (whole 16-byte blocks) with the AES key key; before it is used, the
// probe checks the code's output against the entry's generic twin and returns the error if
// they differ. ok is false when this binary lacks id's code.
type Prober func(id ID, key, payload []byte) (run func(), ok bool, err error)

// Entry is one StubRoutines entry a stub package implements, with its variants.
type Entry struct {
	list    *List
	stub    string
	probe   Prober
	generic ID
}

// List is a stub package's declarations in declaration order: it declares each entry with
// [List.Entry] and each entry's variants through it, so the package can list every variant
// it declared.
type List struct{ ids []ID }

// Entry declares the StubRoutines entry stub, whose variants are timed by probe.
func (l *List) Entry(stub string, probe Prober) *Entry {
	if stub == "" || probe == nil {
		panic(fmt.Sprintf("BUG: stubs/variant: incomplete entry %q", stub))
	}
	return &Entry{list: l, stub: stub, probe: probe}
}

// Stub returns the entry's StubRoutines name.
func (e *Entry) Stub() string { return e.stub }

func (e *Entry) add(s Spec) ID {
	id := ID{&info{entry: e, spec: s, seq: len(e.list.ids)}}
	e.list.ids = append(e.list.ids, id)
	return id
}

const genericName = "generic"

// Generic declares the generic Go twin of the entry: portable code that needs no CPU
// feature and stands for the Java method the stub replaces. An entry has one.
func (e *Entry) Generic() ID {
	if e.generic.v != nil {
		panic("BUG: stubs/variant: two generic twins of " + e.stub)
	}
	e.generic = e.add(Spec{Name: genericName})
	return e.generic
}

// Asm declares an assembly variant of the entry. It panics on a declaration that
// contradicts itself (a feature of another architecture, a rule with no condition, a
// selectable variant with no cost): declarations are code, not input.
func (e *Entry) Asm(s Spec) ID {
	if s.Name == "" || s.Name == genericName || s.Arch == 0 {
		panic(fmt.Sprintf("BUG: stubs/variant: incomplete declaration %q/%q for %v", e.stub, s.Name, s.Arch))
	}
	for _, f := range s.Needs.Features() {
		if f.Arch() != s.Arch {
			panic(fmt.Sprintf("BUG: stubs/variant: %s/%s for %v needs %v, a feature of %v", e.stub, s.Name, s.Arch, f, f.Arch()))
		}
	}
	for _, r := range s.Rules {
		if r.Generator == "" || r.Releases == 0 || r.Condition == "" {
			panic(fmt.Sprintf("BUG: stubs/variant: incomplete rule of %s/%s: %+v", e.stub, s.Name, r))
		}
	}
	if len(s.Rules) > 0 && (s.Cost.PerBlock == nil || s.Cost.PerCall == 0 || s.Cost.Formula == "") {
		panic(fmt.Sprintf("BUG: stubs/variant: %s/%s is selectable but has no cost shape", e.stub, s.Name))
	}
	return e.add(s)
}

// IDs returns the declared variants in declaration order (a copy).
func (l *List) IDs() []ID { return slices.Clone(l.ids) }

// Built returns the declared variants whose code is in this binary, in declaration order.
func (l *List) Built() []ID {
	var ids []ID
	for _, id := range l.ids {
		if id.v.built {
			ids = append(ids, id)
		}
	}
	return ids
}

// Stub returns the HotSpot StubRoutines entry the variant implements ("counterMode_AESCrypt").
func (id ID) Stub() string {
	if id.v == nil {
		return ""
	}
	return id.v.entry.stub
}

// Name returns the variant's name within its entry ("vaes-avx512", "generic").
func (id ID) Name() string { return id.spec().Name }

// Arch returns the architecture the variant's assembly is built for; zero for a generic twin,
// which is built everywhere.
func (id ID) Arch() jdk.Arch { return id.spec().Arch }

// Needs returns the CPU features the variant's code uses. A generic twin needs none.
func (id ID) Needs() cpu.Set { return id.spec().Needs }

// Rules returns the variant's selection rules (a copy).
func (id ID) Rules() []Rule { return slices.Clone(id.spec().Rules) }

// Cost returns the variant's cost shape (zero for one no rule selects).
func (id ID) Cost() Cost { return id.spec().Cost }

// Host returns the recorded JVM runs that measured the variant (none: none).
func (id ID) Host() []JVMRun { return slices.Clone(id.spec().Host) }

// HostRun returns the recorded JVM run that prices the variant on release rel: the first of
// Host whose Releases has rel, else the first that names no release; ok is false when none.
func (id ID) HostRun(rel jdk.Release) (r JVMRun, ok bool) {
	for _, h := range id.spec().Host {
		if h.Releases.Has(rel) {
			return h, true
		}
	}
	for _, h := range id.spec().Host {
		if h.Releases == 0 {
			return h, true
		}
	}
	return JVMRun{}, false
}

// IsGeneric reports whether id is a generic Go twin.
func (id ID) IsGeneric() bool { return id.v != nil && id.v.spec.Arch == 0 }

// Twin returns the generic twin of id's entry (the zero ID for the zero ID).
func (id ID) Twin() ID {
	if id.v == nil {
		return ID{}
	}
	return id.v.entry.generic
}

// Probe builds id's calibration probe with its entry's [Prober].
func (id ID) Probe(key, payload []byte) (run func(), ok bool, err error) {
	if id.v == nil {
		return nil, false, nil
	}
	return id.v.entry.probe(id, key, payload)
}

// Before reports whether id was declared before other in their stub package (false for
// variants of different packages or the zero ID).
func (id ID) Before(other ID) bool {
	return id.v != nil && other.v != nil && id.v.entry.list == other.v.entry.list && id.v.seq < other.v.seq
}

// String returns "stub/name" ("counterMode_AESCrypt/vaes-avx512"), or "none" for the zero ID.
func (id ID) String() string {
	if id.v == nil {
		return "none"
	}
	return id.v.entry.stub + "/" + id.v.spec.Name
}

func (id ID) spec() Spec {
	if id.v == nil {
		return Spec{}
	}
	return id.v.spec
}

// Impl is one variant's code in this binary: its ID and its function, of the stub family's
// signature F (aes.CTRFunc, gcm.GHASHFunc, …).
type Impl[F any] struct {
	ID
	Fn F
}

// Code holds the code of one entry's variants that are built into this binary, of the
// entry's signature F. The entry's file adds the generic twin, the generated per-architecture
// files the assembly, each from an init function; readers use it after initialisation.
type Code[F any] struct{ impls []Impl[F] }

// Add records fn as the code of variant id.
func (c *Code[F]) Add(id ID, fn F) {
	if id.v == nil || id.v.built {
		panic("BUG: stubs/variant: code for " + id.String() + " added twice or for no variant")
	}
	id.v.built = true
	c.impls = append(c.impls, Impl[F]{id, fn})
	slices.SortStableFunc(c.impls, func(a, b Impl[F]) int { return a.v.seq - b.v.seq })
}

// Impls returns the built variants in declaration order, the generic twin first (a copy).
func (c *Code[F]) Impls() []Impl[F] { return slices.Clone(c.impls) }

// Find returns the function of variant id, or false when id's code is not in c (another
// entry's variant, or one not built into this binary).
func (c *Code[F]) Find(id ID) (F, bool) {
	for _, i := range c.impls {
		if i.ID == id {
			return i.Fn, true
		}
	}
	var zero F
	return zero, false
}

// Find returns the function of variant id from lists, or false when none of them has it.
func Find[F any](id ID, lists ...[]Impl[F]) (F, bool) {
	for _, l := range lists {
		for _, i := range l {
			if i.ID == id {
				return i.Fn, true
			}
		}
	}
	var zero F
	return zero, false
}

// IDs returns the IDs of lists' implementations, in order.
func IDs[F any](lists ...[]Impl[F]) []ID {
	var ids []ID
	for _, l := range lists {
		for _, i := range l {
			ids = append(ids, i.ID)
		}
	}
	return ids
}
