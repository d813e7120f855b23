package stubs

import (
	"fmt"
	"slices"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
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
	Needs     cpu.Set // the ID's features when its code is built into this binary; 0 otherwise
	Condition string  // the HotSpot condition that selects it, in words
}

// Flag is an intrinsic-gating flag of [Config], as a bit for rule tables.
type Flag uint8

// The gating flags.
const (
	UseAES Flag = 1 << iota
	UseAESIntrinsics
	UseAESCTRIntrinsics
	UseGHASHIntrinsics
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

// Rule is one row of the selection table: HotSpot generates variant ID (for its entry,
// on its architecture) when the JDK profile is one of Releases, every flag of Flags is on and
// the CPU as cpu.Mask leaves it has every feature of Requires. Requires is HotSpot's condition,
// not the variant's: the features the code uses are the ID's Needs, which Requires must cover
// (TestRulesCoverNeeds). Rules for one stub are tried in table order; the first match wins,
// so the most specific variant comes first, as in HotSpot's if/else chains.
type Rule struct {
	ID        variant.ID
	Generator string
	Releases  jdk.Set // the releases that generate this stub with this generator
	Flags     Flag
	Requires  cpu.Set
	Condition string
}

var (
	rules []Rule
	built = map[variant.ID]bool{}
	twins = map[string]variant.ID{} // stub entry → its generic twin
)

// register adds selection rules; each variants_*.go file calls it from init.
func register(rs ...Rule) {
	for _, r := range rs {
		if r.ID.Arch() == 0 || r.Generator == "" || r.Releases == 0 || r.Condition == "" {
			panic(fmt.Sprintf("BUG: stubs: incomplete selection rule %+v", r))
		}
		rules = append(rules, r)
	}
}

// registerBuilt records the variants whose code a stub package built into this binary.
func registerBuilt(ids ...variant.ID) {
	for _, id := range ids {
		if built[id] {
			panic("BUG: stubs: variant " + id.String() + " registered twice")
		}
		built[id] = true
		if id.IsGeneric() {
			twins[id.Stub()] = id
		}
	}
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
	v := Variant{ID: id, Stub: id.Stub(), Name: id.Name(), Generator: generator, Condition: condition}
	if built[id] {
		v.Needs = id.Needs()
	}
	return v
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
