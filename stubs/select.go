package stubs

import (
	"fmt"
	"slices"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
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

// Variant is one row of the answer of [Select]: a stub implementation in
// family-agnostic form.
type Variant struct {
	Stub      string  // HotSpot StubRoutines entry, e.g. "counterMode_AESCrypt"
	Name      string  // variant name in its stub package, e.g. "vaes-avx512"
	Generator string  // HotSpot generator it models
	Needs     cpu.Set // features its code uses (0 when the variant is not built for this GOARCH)
	Fn        any     // the stub package's typed func (aes.CTRFunc, gcm.GHASHFunc, …); nil when not built
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

// Rule is one row of the selection table: HotSpot generates variant Name for
// Stub on Arch when the JDK profile is one of Releases, every flag of Flags is on and the (masked) CPU has every feature of
// Requires. Rules for one stub are tried in table order; the first match wins,
// so the most specific variant comes first, as in HotSpot's if/else chains.
type Rule struct {
	Stub      string
	Arch      jdk.Arch
	Name      string
	Generator string
	Releases  jdk.Set // the releases that generate this stub with this generator
	Flags     Flag
	Requires  cpu.Set
	Condition string
}

// Impl is what a stub package contributes for one variant: its code and needs.
type Impl struct {
	Stub, Name string
	Needs      cpu.Set
	Fn         any
}

var (
	rules []Rule
	impls = map[[2]string]Impl{}
)

// register adds selection rules; each variants_*.go file calls it from init.
func register(rs ...Rule) {
	for _, r := range rs {
		if r.Stub == "" || r.Name == "" || r.Generator == "" || r.Arch == 0 || r.Releases == 0 ||
			r.Condition == "" {
			panic(fmt.Sprintf("BUG: stubs: incomplete selection rule %+v", r))
		}
		rules = append(rules, r)
	}
}

// registerImpls records the variants a stub package built for this GOARCH.
func registerImpls(is ...Impl) {
	for _, i := range is {
		k := [2]string{i.Stub, i.Name}
		if _, dup := impls[k]; dup {
			panic(fmt.Sprintf("BUG: stubs: variant %s/%s registered twice", i.Stub, i.Name))
		}
		impls[k] = i
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
// levels, as PrintFlagsFinal shows them). The returned Fn is nil when the variant is not
// built into this binary (another GOARCH, or the purego tag); see [Runnable].
func Select(stub string, cfg Config, cpus cpu.Set) (Variant, bool) {
	if !cfg.JDK.Valid() {
		return Variant{}, false
	}
	cpus = cpu.Mask{Release: cfg.JDK, UseSSE: cfg.UseSSE, UseAVX: cfg.UseAVX}.Apply(cpus)
	f := cfg.flags()
	for _, r := range rules {
		if r.Stub != stub || r.Arch != cfg.Arch || !r.Releases.Has(cfg.JDK) || f&r.Flags != r.Flags || !cpus.HasAll(r.Requires) {
			continue
		}
		v := Variant{Stub: r.Stub, Name: r.Name, Generator: r.Generator, Condition: r.Condition}
		if i, ok := impls[[2]string{r.Stub, r.Name}]; ok {
			v.Needs, v.Fn = i.Needs, i.Fn
		}
		return v, true
	}
	return Variant{}, false
}

// Generic returns the generic Go twin of a stub (always built).
func Generic(stub string) (Variant, bool) {
	i, ok := impls[[2]string{stub, "generic"}]
	if !ok {
		return Variant{}, false
	}
	return Variant{Stub: stub, Name: "generic", Generator: "", Fn: i.Fn,
		Condition: "the generic Go twin (purego build, or the CPU lacks the variant's features)"}, true
}

// Runnable returns v if this binary has its code and runnable covers its
// needs, and otherwise the stub's generic twin: a model may select a variant
// the host cannot execute (the model clock still charges the selected one).
func Runnable(v Variant, runnable cpu.Set) Variant {
	if v.Fn != nil && runnable.HasAll(v.Needs) {
		return v
	}
	g, ok := Generic(v.Stub)
	if !ok {
		panic("BUG: stubs: no generic twin for " + v.Stub)
	}
	return g
}
