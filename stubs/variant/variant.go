// Package variant names jitsim's stub variants. A variant is one implementation of a HotSpot
// StubRoutines entry (the AES-NI code of counterMode_AESCrypt, the generic Go twin of
// ghash_processBlocks, …). The stub package that implements a variant declares it once, with
// [Declare], under an exported [ID] that carries its entry, its name, the architecture its code is
// built for and the CPU features that code uses. Everything else that speaks of the variant holds
// the ID: the selection rules (package stubs), the cost shapes, host measurements and calibration
// probes of the model clock (runtime/model), and the typed lookups of its code (aes.CTRCode,
// gcm.GHASHCode, …).
package variant

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ID is one declared stub variant. IDs are comparable (map keys); the zero ID names no
// variant, and its accessors return zero values.
type ID struct{ v *info }

type info struct {
	stub, name string
	arch       jdk.Arch
	needs      cpu.Set
}

// Declare returns the ID of the variant name of the StubRoutines entry stub, whose code is
// assembly for arch using the CPU features needs. It panics on a declaration that
// contradicts itself (a feature of another architecture): declarations are code, not input.
func Declare(stub, name string, arch jdk.Arch, needs cpu.Set) ID {
	if stub == "" || name == "" || name == genericName || arch == 0 {
		panic(fmt.Sprintf("BUG: stubs/variant: incomplete declaration %q/%q for %v", stub, name, arch))
	}
	for _, f := range needs.Features() {
		if f.Arch() != arch {
			panic(fmt.Sprintf("BUG: stubs/variant: %s/%s for %v needs %v, a feature of %v", stub, name, arch, f, f.Arch()))
		}
	}
	return ID{&info{stub, name, arch, needs}}
}

const genericName = "generic"

// Generic returns the ID of the generic Go twin of the entry stub: portable code that needs
// no CPU feature and stands for the Java method the stub replaces.
func Generic(stub string) ID {
	if stub == "" {
		panic("BUG: stubs/variant: generic twin of no stub")
	}
	return ID{&info{stub: stub, name: genericName}}
}

// List is a stub package's declarations in declaration order: it declares each variant with
// [Declare] or [Generic] and keeps its ID, so the package can list every variant it declared.
type List struct{ ids []ID }

// Declare declares an assembly variant, as [Declare] does, and appends it to the list.
func (l *List) Declare(stub, name string, arch jdk.Arch, needs cpu.Set) ID {
	id := Declare(stub, name, arch, needs)
	l.ids = append(l.ids, id)
	return id
}

// Generic declares the generic twin of stub, as [Generic] does, and appends it to the list.
func (l *List) Generic(stub string) ID {
	id := Generic(stub)
	l.ids = append(l.ids, id)
	return id
}

// IDs returns the declared variants in declaration order (a copy).
func (l *List) IDs() []ID { return append([]ID(nil), l.ids...) }

// Stub returns the HotSpot StubRoutines entry the variant implements ("counterMode_AESCrypt").
func (id ID) Stub() string {
	if id.v == nil {
		return ""
	}
	return id.v.stub
}

// Name returns the variant's name within its entry ("vaes-avx512", "generic").
func (id ID) Name() string {
	if id.v == nil {
		return ""
	}
	return id.v.name
}

// Arch returns the architecture the variant's assembly is built for; zero for a generic twin,
// which is built everywhere.
func (id ID) Arch() jdk.Arch {
	if id.v == nil {
		return 0
	}
	return id.v.arch
}

// Needs returns the CPU features the variant's code uses: the one feature set that says
// whether a CPU can run it. A generic twin needs none.
func (id ID) Needs() cpu.Set {
	if id.v == nil {
		return 0
	}
	return id.v.needs
}

// IsGeneric reports whether id is a generic Go twin.
func (id ID) IsGeneric() bool { return id.v != nil && id.v.arch == 0 }

// String returns "stub/name" ("counterMode_AESCrypt/vaes-avx512"), or "none" for the zero ID.
func (id ID) String() string {
	if id.v == nil {
		return "none"
	}
	return id.v.stub + "/" + id.v.name
}

// Impl is one variant's code in this binary: its ID and its function, of the stub family's
// signature F (aes.CTRFunc, gcm.GHASHFunc, …).
type Impl[F any] struct {
	ID
	Fn F
}

// Find returns the function of variant id from lists, or false when none of them has it
// (another family's variant, or one whose code is not built into this binary).
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
