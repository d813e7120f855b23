package cpu

import "strings"

// Vendor is an x86 processor's maker as CPUID leaf 0 names it. HotSpot's x86 start-up keys
// several code-generation defaults on it (docs/flags.md, "CPU ergonomics").
type Vendor uint8

// The vendors jitsim tells apart; any other maker is VendorOther.
const (
	VendorUnknown Vendor = iota
	VendorIntel
	VendorAMD
	VendorOther
)

var vendorNames = [...]string{VendorUnknown: "unknown", VendorIntel: "Intel", VendorAMD: "AMD", VendorOther: "other"}

// String returns the vendor's short name ("Intel", "AMD").
func (v Vendor) String() string {
	if int(v) < len(vendorNames) {
		return vendorNames[v]
	}
	return "unknown"
}

// vendorOf maps CPUID's vendor string to a Vendor (Hygon's Zen parts count as AMD).
func vendorOf(s string) Vendor {
	switch s {
	case "GenuineIntel":
		return VendorIntel
	case "AuthenticAMD", "HygonGenuine":
		return VendorAMD
	case "":
		return VendorUnknown
	}
	return VendorOther
}

// Ext is an x86 instruction-set extension that steers HotSpot's code generation (its
// Use*Instruction flags) rather than a stub choice, so it is kept apart from [Feature].
type Ext uint8

// The extensions, in bit order of [ExtSet].
const (
	POPCNT Ext = iota
	LZCNT
	BMI1
	BMI2
	FMA
	SHA
	ERMS
	numExts
)

var extNames = [numExts]string{POPCNT: "popcnt", LZCNT: "lzcnt", BMI1: "bmi1", BMI2: "bmi2", FMA: "fma", SHA: "sha", ERMS: "erms"}

// String returns the extension's lower-case name.
func (x Ext) String() string {
	if x < numExts {
		return extNames[x]
	}
	return "ext?"
}

// ExtSet is a set of extensions.
type ExtSet uint16

// ExtsOf returns the set holding xs.
func ExtsOf(xs ...Ext) ExtSet {
	var s ExtSet
	for _, x := range xs {
		s = s.With(x)
	}
	return s
}

// Has reports whether x is in the set.
func (s ExtSet) Has(x Ext) bool { return x < numExts && s&(1<<x) != 0 }

// With returns the set with x added.
func (s ExtSet) With(x Ext) ExtSet { return s | 1<<x }

// String lists the set's names, comma-separated, in bit order.
func (s ExtSet) String() string {
	var names []string
	for x := range numExts {
		if s.Has(x) {
			names = append(names, x.String())
		}
	}
	return strings.Join(names, ",")
}

// ParseExts reads a list as String writes it; unknown names are reported by name.
func ParseExts(list string) (ExtSet, error) {
	var s ExtSet
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		found := false
		for x := range numExts {
			if extNames[x] == n {
				s, found = s.With(x), true
			}
		}
		if !found {
			return 0, &unknownExtError{name: n}
		}
	}
	return s, nil
}

type unknownExtError struct{ name string }

func (e *unknownExtError) Error() string {
	return "stubs/cpu: unknown extension " + strings.TrimSpace(e.name) + " (known: " + strings.Join(extNames[:], ", ") + ")"
}

// Identity is what an x86 CPU tells HotSpot about itself beyond the stub features: the
// vendor, the family (CPUID leaf 1, extended family added for family 0xF) and the extensions.
// The zero Identity is an unknown CPU (and every arm64 model): no vendor-keyed defaults apply.
type Identity struct {
	Vendor Vendor
	Family int
	Ext    ExtSet
}

// host's identity is read once, like its features.
var hostID = hostIdentity()

// HostIdentity returns this machine's identity (the zero Identity off x86_64).
func HostIdentity() Identity { return hostID }
