// Package jdk answers "which JDK, which processor architecture?": the one Release type every
// other package uses for a JDK profile, sets of releases, and the one Arch type.
//
// It is the lowest leaf of jitsim: it imports nothing of jitsim's. A package that needs
// per-release behaviour keeps it in rows keyed by Release (or guarded by a Set), never in a
// type of its own.
package jdk

import (
	"fmt"
	"math/bits"
	"runtime"
	"strings"
)

// Release is a JDK profile: the release whose flags, tier policy, intrinsics, stubs and
// provider routing jitsim reproduces. Releases are ordered oldest first, so "since 17" is
// r >= R17.
type Release uint8

// The releases jitsim models (design.md §5).
const (
	// R8 is JDK 8 GA: the AES intrinsics of JDK-7184394, no GHASH intrinsic, intrinsic flags
	// product, strict ">" in the tier policy, per-block AES in GCTR.
	R8 Release = iota
	// R8u is a late 8u with the GHASH backports of JDK-8073108 and JDK-8131062 that the seed
	// posts used.
	R8u
	// R17 is verified against OpenJDK 17.0.15.
	R17
	// R21 could not be observed here; it follows R17 wherever 17 and 25 differ, and its rows
	// follow the release's documented changes.
	R21
	// R22 could not be observed here either. It is the release JDK-8314901's post measured: the
	// AVX2 interleaved GCM stub (SinceFeature(22) in its generator rule) with JDK 18–23's
	// PARALLEL_LEN of 7680 (bytecode/testdata/javap/facts-22.txt). Where a published fact of 22
	// is not known it follows R21, as 21 follows 17.
	R22
	// R25 is verified against Temurin 25.0.3. It is the default.
	R25
	numRelease
)

// Default is the release used when none is named.
const Default = R25

var names = [numRelease]string{"8", "8u", "17", "21", "22", "25"}

// feature is the Java feature number of each release (Runtime.version().feature()); 8u is 8.
var feature = [numRelease]int{8, 8, 17, 21, 22, 25}

// String returns the release as --jdk takes it: "8", "8u", "17", "21", "22", "25".
func (r Release) String() string {
	if !r.Valid() {
		return fmt.Sprintf("Release(%d)", uint8(r))
	}
	return names[r]
}

// Valid reports whether r is one of the modelled releases.
func (r Release) Valid() bool { return r < numRelease }

// Feature returns the Java feature number: 8 for both 8 and 8u, else the release number.
func (r Release) Feature() int {
	if !r.Valid() {
		return 0
	}
	return feature[r]
}

// Modern reports whether r has JDK 9+ behaviour: ranges and constraints on flags, @argfiles,
// diagnostic intrinsic flags, the tier policy's ">=" predicates.
func (r Release) Modern() bool { return r >= R17 }

// Parse parses a --jdk value.
func Parse(s string) (Release, error) {
	for r, n := range names {
		if s == n {
			return Release(r), nil
		}
	}
	return 0, fmt.Errorf("unknown JDK profile %q (want one of %s)", s, strings.Join(names[:], ", "))
}

// MustParse is Parse for names written in the program; it panics on a bad name.
func MustParse(s string) Release {
	r, err := Parse(s)
	if err != nil {
		panic("BUG: " + err.Error())
	}
	return r
}

// All returns every release, oldest first.
func All() []Release {
	rs := make([]Release, numRelease)
	for i := range rs {
		rs[i] = Release(i)
	}
	return rs
}

// Names returns every release's name, oldest first.
func Names() []string { return append([]string(nil), names[:]...) }

// Set is a set of releases.
type Set uint8

// AllReleases holds every release.
const AllReleases = Set(1<<numRelease - 1)

// Of returns the set holding rs.
func Of(rs ...Release) Set {
	var s Set
	for _, r := range rs {
		s |= 1 << r
	}
	return s
}

// Since returns the releases from r on (r included).
func Since(r Release) Set { return AllReleases &^ (1<<r - 1) }

// SinceFeature returns the modelled releases whose Java feature number is at least n: "JDK n
// and later" for a change HotSpot made in a release jitsim may not model (a stub generator
// added in JDK 18 is in 21 and 25). A fact written this way names no modelled release, so
// adding or removing one leaves it alone.
func SinceFeature(n int) Set {
	var s Set
	for _, r := range All() {
		if r.Feature() >= n {
			s |= 1 << r
		}
	}
	return s
}

// Before returns the releases older than r.
func Before(r Release) Set { return Set(1<<r - 1) }

// Range returns the releases from since (included) to until (excluded); an invalid until
// means "to the newest".
func Range(since, until Release) Set {
	if !until.Valid() {
		return Since(since)
	}
	return Since(since) & Before(until)
}

// Has reports whether r is in s.
func (s Set) Has(r Release) bool { return r.Valid() && s&(1<<r) != 0 }

// Len returns the number of releases in s.
func (s Set) Len() int { return bits.OnesCount8(uint8(s)) }

// Releases returns s's releases, oldest first.
func (s Set) Releases() []Release {
	var out []Release
	for _, r := range All() {
		if s.Has(r) {
			out = append(out, r)
		}
	}
	return out
}

// String lists the set as "8u, 17, 25", or "all" for every release.
func (s Set) String() string {
	if s == AllReleases {
		return "all"
	}
	var b strings.Builder
	for i, r := range s.Releases() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r.String())
	}
	return b.String()
}

// Arch is a processor architecture. The zero value is no architecture jitsim models.
type Arch uint8

// The architectures jitsim models.
const (
	AMD64 Arch = iota + 1
	ARM64
)

// String returns the GOARCH spelling ("amd64", "arm64").
func (a Arch) String() string {
	switch a {
	case AMD64:
		return "amd64"
	case ARM64:
		return "arm64"
	}
	return fmt.Sprintf("Arch(%d)", uint8(a))
}

// Valid reports whether a is an architecture jitsim models.
func (a Arch) Valid() bool { return a == AMD64 || a == ARM64 }

// ParseArch parses "amd64"/"x86_64" or "arm64"/"aarch64".
func ParseArch(s string) (Arch, error) {
	switch s {
	case "amd64", "x86_64":
		return AMD64, nil
	case "arm64", "aarch64":
		return ARM64, nil
	}
	return 0, fmt.Errorf("unknown architecture %q (want amd64 or arm64)", s)
}

// HostArch returns the architecture this process runs on, or 0 on one jitsim does not model.
func HostArch() Arch {
	switch runtime.GOARCH {
	case "amd64":
		return AMD64
	case "arm64":
		return ARM64
	}
	return 0
}
