package stubs

import (
	"cmp"
	"slices"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Config is the part of a VM configuration that decides which crypto stubs
// HotSpot generates: the JDK profile, the architecture, the final values of the
// intrinsic flags, and the UseAVX/UseSSE levels that mask CPU features (x86).
type Config struct {
	JDK                 jdk.Release
	Arch                jdk.Arch
	UseAES              bool
	UseAESIntrinsics    bool
	UseAESCTRIntrinsics bool
	UseGHASHIntrinsics  bool
	UseAVX, UseSSE      int // x86 only, the settled levels (cpu.Mask); arm64 ignores them
}

// Variant is the answer of [Select]: a declared stub variant ([variant.ID]) with what the
// selection adds. Its code is reached through the stub package by the ID (aes.CTRCode,
// gcm.GHASHCode, …).
type Variant struct {
	ID        variant.ID
	Stub      string  // the ID's HotSpot StubRoutines entry, e.g. "counterMode_AESCrypt"
	Name      string  // the ID's name, e.g. "vaes-avx512"
	Generator string  // HotSpot generator it models (the rule's)
	Needs     cpu.Set // the CPU features the variant's code uses (its ID's), built into this binary or not
	Condition string  // the HotSpot condition that selects it, in words
}

// Flag is an intrinsic-gating flag of [Config], as a bit for rule tables (variant.Flag).
type Flag = variant.Flag

// The gating flags.
const (
	UseAES              = variant.UseAES
	UseAESIntrinsics    = variant.UseAESIntrinsics
	UseAESCTRIntrinsics = variant.UseAESCTRIntrinsics
	UseGHASHIntrinsics  = variant.UseGHASHIntrinsics
)

func (c Config) flags() Flag {
	var f Flag
	for _, x := range []struct {
		on bool
		f  Flag
	}{{c.UseAES, UseAES}, {c.UseAESIntrinsics, UseAESIntrinsics},
		{c.UseAESCTRIntrinsics, UseAESCTRIntrinsics}, {c.UseGHASHIntrinsics, UseGHASHIntrinsics}} {
		if x.on {
			f |= x.f
		}
	}
	return f
}

// Rule is one row of the selection table: a variant's declared rule (variant.Rule) with its
// ID. HotSpot generates the variant (for its entry, on its architecture) when the release is
// one of Releases, every flag of Flags is on and the CPU as cpu.Mask leaves it has every
// feature of Requires.
type Rule struct {
	ID variant.ID
	variant.Rule
}

// rules is the selection table, in the order Select tries it: by stub package and entry,
// amd64 before arm64, then the variant whose rule requires the most CPU features first — a
// stub generator tests the widest vector features first and falls back to narrower code, as
// HotSpot's if/else chains do (TestRuleOrderUnambiguous) — then declaration order.
var rules = collect(aes.Variants(), gcm.Variants())

// built is the set of variants whose code is in this binary; twins maps a stub entry to its
// generic twin.
var built, twins = builtSet(aes.Built(), gcm.Built())

func collect(lists ...[]variant.ID) []Rule {
	var rs []Rule
	for _, l := range lists {
		for _, id := range l {
			for _, r := range id.Rules() {
				rs = append(rs, Rule{id, r})
			}
		}
	}
	entry := map[string]int{}
	for i, r := range rs {
		if _, ok := entry[r.ID.Stub()]; !ok {
			entry[r.ID.Stub()] = i
		}
	}
	slices.SortStableFunc(rs, func(a, b Rule) int {
		return cmp.Or(cmp.Compare(entry[a.ID.Stub()], entry[b.ID.Stub()]), cmp.Compare(a.ID.Arch(), b.ID.Arch()),
			cmp.Compare(len(b.Requires.Features()), len(a.Requires.Features())))
	})
	return rs
}

func builtSet(lists ...[]variant.ID) (map[variant.ID]bool, map[string]variant.ID) {
	b, t := map[variant.ID]bool{}, map[string]variant.ID{}
	for _, l := range lists {
		for _, id := range l {
			b[id] = true
			if id.IsGeneric() {
				t[id.Stub()] = id
			}
		}
	}
	return b, t
}

// Rules returns the selection table (a copy), for documentation and tests.
func Rules() []Rule { return slices.Clone(rules) }

// Select returns the variant HotSpot would have generated for the stub entry
// under cfg on a CPU with features cpus, or false if that JDK/flag/CPU
// combination generates no stub for it (the Java code runs instead). It
// follows the generator choice of StubGenerator::generate_aes_stubs /
// generate_ghash_stubs (x86_64) and generate_compiler_stubs (aarch64), after
// cpu.Mask has hidden the features above cfg's UseSSE/UseAVX levels (give it the settled
// levels, as PrintFlagsFinal shows them). The variant's code may not be built into this
// binary (another GOARCH, or the purego tag); see [Runnable].
func Select(stub string, cfg Config, cpus cpu.Set) (Variant, bool) {
	if !cfg.JDK.Valid() {
		return Variant{}, false
	}
	cpus = cpu.Mask{Release: cfg.JDK, UseSSE: cfg.UseSSE, UseAVX: cfg.UseAVX}.Apply(cpus)
	f := cfg.flags()
	for _, r := range rules {
		if r.ID.Stub() != stub || r.ID.Arch() != cfg.Arch || !r.Releases.Has(cfg.JDK) || f&r.Flags != r.Flags || !cpus.HasAll(r.Requires) {
			continue
		}
		return answer(r.ID, r.Generator, r.Condition), true
	}
	return Variant{}, false
}

func answer(id variant.ID, generator, condition string) Variant {
	return Variant{ID: id, Stub: id.Stub(), Name: id.Name(), Generator: generator, Needs: id.Needs(), Condition: condition}
}

// Selectable reports whether some rule selects variant id on a CPU of arch with features
// cpus, for some release and flags: the variants a cost profile of that CPU must price.
func Selectable(id variant.ID, arch jdk.Arch, cpus cpu.Set) bool {
	for _, r := range rules {
		if r.ID == id && id.Arch() == arch && cpus.HasAll(r.Requires) {
			return true
		}
	}
	return false
}

// Generic returns the generic Go twin of a stub (always built).
func Generic(stub string) (Variant, bool) {
	id, ok := twins[stub]
	if !ok {
		return Variant{}, false
	}
	return answer(id, "", "the generic Go twin (purego build, or the CPU lacks the variant's features)"), true
}

// Runnable returns v if this binary has its code and runnable covers its
// needs, and otherwise the stub's generic twin: a model may select a variant
// the host cannot execute (the model clock still charges the selected one).
func Runnable(v Variant, runnable cpu.Set) Variant {
	if built[v.ID] && runnable.HasAll(v.ID.Needs()) {
		return v
	}
	g, ok := Generic(v.Stub)
	if !ok {
		panic("BUG: stubs: no generic twin for " + v.Stub)
	}
	return g
}
