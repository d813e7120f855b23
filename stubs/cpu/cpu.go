// Package cpu is jitsim's single view of processor features: the host's, read
// once from golang.org/x/sys/cpu into an immutable [Set], and named CPU models
// whose feature sets mask what the stubs may use.
//
// A model can only remove features from real execution, never add them:
// [Model.Runnable] is the model's set intersected with [Host]. HotSpot's
// UseAVX/UseSSE levels are a mask of the same kind ([Mask], after
// src/hotspot/cpu/x86/vm_version_x86.cpp, VM_Version::get_processor_features).
//
// This is the only package of jitsim that imports golang.org/x/sys/cpu.
package cpu

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// Feature is one processor feature the stubs can depend on.
//
// On x86, VAES and VPCLMULQDQ mean the AVX-512-enabled forms that
// golang.org/x/sys/cpu reports (HasAVX512VAES, HasAVX512VPCLMULQDQ, only
// together with HasAVX512): that is the condition HotSpot tests
// (VM_Version::supports_avx512_vaes) before it generates its VAES stubs.
type Feature uint8

// The features, x86 first, then arm64. The order is the bit order of [Set].
const (
	SSE2 Feature = iota
	SSE3
	SSSE3
	SSE41
	SSE42
	AVX
	AVX2
	AES
	PCLMULQDQ
	AVX512F
	AVX512BW
	AVX512VL
	AVX512DQ
	VAES
	VPCLMULQDQ

	ASIMD
	ARM_AES // spelled as in the stubs contract; "AES" is the x86 feature
	PMULL
	SHA3

	numFeatures
)

// feature describes one [Feature]: its printed name, its architecture and the
// features it implies (a CPU reporting it always reports these too).
type feature struct {
	name    string
	arch    jdk.Arch
	implies Set
}

// features is the one table of features; String, ParseFeature, the
// normalisation of Host and the implication tests all read it.
var features = [numFeatures]feature{
	SSE2:       {name: "sse2", arch: jdk.AMD64},
	SSE3:       {name: "sse3", arch: jdk.AMD64, implies: Of(SSE2)},
	SSSE3:      {name: "ssse3", arch: jdk.AMD64, implies: Of(SSE3)},
	SSE41:      {name: "sse4.1", arch: jdk.AMD64, implies: Of(SSSE3)},
	SSE42:      {name: "sse4.2", arch: jdk.AMD64, implies: Of(SSE41)},
	AVX:        {name: "avx", arch: jdk.AMD64, implies: Of(SSE42)},
	AVX2:       {name: "avx2", arch: jdk.AMD64, implies: Of(AVX)},
	AES:        {name: "aes", arch: jdk.AMD64, implies: Of(SSE2)},
	PCLMULQDQ:  {name: "pclmulqdq", arch: jdk.AMD64, implies: Of(SSE2)},
	AVX512F:    {name: "avx512f", arch: jdk.AMD64, implies: Of(AVX2)},
	AVX512BW:   {name: "avx512bw", arch: jdk.AMD64, implies: Of(AVX512F)},
	AVX512VL:   {name: "avx512vl", arch: jdk.AMD64, implies: Of(AVX512F)},
	AVX512DQ:   {name: "avx512dq", arch: jdk.AMD64, implies: Of(AVX512F)},
	VAES:       {name: "vaes", arch: jdk.AMD64, implies: Of(AVX512F, AES)},
	VPCLMULQDQ: {name: "vpclmulqdq", arch: jdk.AMD64, implies: Of(AVX512F, PCLMULQDQ)},
	ASIMD:      {name: "asimd", arch: jdk.ARM64},
	ARM_AES:    {name: "arm64.aes", arch: jdk.ARM64, implies: Of(ASIMD)},
	PMULL:      {name: "pmull", arch: jdk.ARM64, implies: Of(ARM_AES)},
	SHA3:       {name: "sha3", arch: jdk.ARM64, implies: Of(ASIMD)},
}

// String returns the feature's lower-case name ("avx2", "sse4.1", "pmull").
func (f Feature) String() string {
	if f < numFeatures {
		return features[f].name
	}
	return fmt.Sprintf("Feature(%d)", uint8(f))
}

// jdk.Arch returns the architecture the feature belongs to.
func (f Feature) Arch() jdk.Arch {
	if f < numFeatures {
		return features[f].arch
	}
	return 0
}

// Implies returns the features a CPU with f always has as well (direct and
// transitive), e.g. AVX2 implies AVX, SSE4.2 … SSE2.
func (f Feature) Implies() Set {
	var s Set
	todo := features[f].implies
	for todo != 0 {
		g := Feature(bits.TrailingZeros64(uint64(todo)))
		todo = todo.Without(g)
		if !s.Has(g) {
			s = s.With(g)
			todo |= features[g].implies
		}
	}
	return s
}

// Features returns every feature, in bit order.
func Features() []Feature {
	fs := make([]Feature, numFeatures)
	for i := range fs {
		fs[i] = Feature(i)
	}
	return fs
}

// ParseFeature returns the feature named name (as printed by [Feature.String]).
func ParseFeature(name string) (Feature, error) {
	for i, f := range features {
		if f.name == name {
			return Feature(i), nil
		}
	}
	names := make([]string, len(features))
	for i, f := range features {
		names[i] = f.name
	}
	return 0, fmt.Errorf("stubs/cpu: unknown feature %q (known: %s)", name, strings.Join(names, ", "))
}

// Set is a set of features, one bit per [Feature]. The zero value is empty.
// Sets are values: every method returns a new set.
type Set uint64

// Of returns the set of the given features.
func Of(fs ...Feature) Set {
	var s Set
	return s.With(fs...)
}

// Has reports whether f is in s.
func (s Set) Has(f Feature) bool { return f < numFeatures && s&(1<<f) != 0 }

// HasAll reports whether every feature of t is in s.
func (s Set) HasAll(t Set) bool { return s&t == t }

// With returns s plus fs.
func (s Set) With(fs ...Feature) Set {
	for _, f := range fs {
		if f >= numFeatures {
			panic(fmt.Sprintf("BUG: stubs/cpu: feature %d out of range", f))
		}
		s |= 1 << f
	}
	return s
}

// Without returns s minus fs.
func (s Set) Without(fs ...Feature) Set {
	for _, f := range fs {
		s &^= 1 << f
	}
	return s
}

// Intersect returns the features in both s and t.
func (s Set) Intersect(t Set) Set { return s & t }

// Features returns the members of s in bit order.
func (s Set) Features() []Feature {
	var fs []Feature
	for f := range numFeatures {
		if s.Has(f) {
			fs = append(fs, f)
		}
	}
	return fs
}

// String returns the members' names, sorted alphabetically and joined by
// commas ("aes,avx,avx2,…"), or "none"; the text is stable across runs, so it
// can appear in golden files.
func (s Set) String() string {
	fs := s.Features()
	if len(fs) == 0 {
		return "none"
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	sortStrings(names)
	return strings.Join(names, ",")
}

func sortStrings(a []string) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// Normalize returns s without any feature whose implied features are missing,
// so that the implications of the feature table hold. It is applied to the host
// set, where GODEBUG=cpu.avx=off can clear AVX but leave AVX2 reported.
func Normalize(s Set) Set {
	for {
		t := s
		for f := range numFeatures {
			if t.Has(f) && !t.HasAll(features[f].implies) {
				t = t.Without(f)
			}
		}
		if t == s {
			return s
		}
		s = t
	}
}
