package flags

import (
	"fmt"
	"strings"
)

// JDK is a JDK profile: the release whose flag set, flag kinds, defaults and message texts
// jitsim reproduces.
type JDK int

// The JDK profiles, oldest first (the order matters: rows say "since" a profile).
const (
	// JDK8 is JDK 8 GA: AES intrinsics (JDK-7184394), no GHASH intrinsic, intrinsic flags product.
	JDK8 JDK = iota
	// JDK8u is a late 8u with the GHASH backports (JDK-8073108, JDK-8131062) the seed posts used.
	JDK8u
	// JDK17 is verified against OpenJDK 17.0.15.
	JDK17
	// JDK21 could not be observed here; it follows JDK17 wherever 17 and 25 differ.
	JDK21
	// JDK25 is verified against Temurin 25.0.3. It is the default profile.
	JDK25
	numJDK
)

// DefaultJDK is the profile used when none is named.
const DefaultJDK = JDK25

var jdkNames = [numJDK]string{"8", "8u", "17", "21", "25"}

// String returns the profile's name as --jdk takes it ("8", "8u", "17", "21", "25").
func (j JDK) String() string {
	if j < 0 || j >= numJDK {
		return fmt.Sprintf("JDK(%d)", int(j))
	}
	return jdkNames[j]
}

// ParseJDK parses a --jdk value.
func ParseJDK(s string) (JDK, error) {
	for j, n := range jdkNames {
		if s == n {
			return JDK(j), nil
		}
	}
	return 0, fmt.Errorf("unknown JDK profile %q (want one of %s)", s, strings.Join(jdkNames[:], ", "))
}

// JDKs returns every profile, oldest first.
func JDKs() []JDK { return []JDK{JDK8, JDK8u, JDK17, JDK21, JDK25} }

// modern reports whether the profile has JDK 9+ behaviour (ranges, @argfiles, JDK_JAVA_OPTIONS,
// VMOptionsFile, diagnostic intrinsic flags).
func (j JDK) modern() bool { return j >= JDK17 }

// behavesLike25 reports whether messages follow Temurin 25 rather than JDK 17 where the two
// differ. JDK 21 could not be observed and its messages follow 17 (its flag rows follow the
// release's documented changes, e.g. InlineFrequencyRatio from JDK 18).
func (j JDK) behavesLike25() bool { return j >= JDK25 }

// Arch is a target CPU architecture. Flags declared in a cpu/<arch>/globals_<arch>.hpp exist
// only on that architecture.
type Arch int

// The architectures jitsim models.
const (
	AMD64 Arch = iota
	ARM64
)

// String returns the Go name of the architecture.
func (a Arch) String() string {
	switch a {
	case AMD64:
		return "amd64"
	case ARM64:
		return "arm64"
	}
	return fmt.Sprintf("Arch(%d)", int(a))
}

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

// Type is a flag's value type as PrintFlagsFinal names it.
type Type int

// The flag types jitsim models.
const (
	Bool Type = iota
	Int
	Intx
	Uintx
	Double
	Ccstr
	Ccstrlist
)

var typeNames = [...]string{"bool", "int", "intx", "uintx", "double", "ccstr", "ccstrlist"}

// String returns the type name HotSpot prints.
func (t Type) String() string {
	if t < 0 || int(t) >= len(typeNames) {
		return fmt.Sprintf("Type(%d)", int(t))
	}
	return typeNames[t]
}

func (t Type) isString() bool { return t == Ccstr || t == Ccstrlist }

// Kind is a flag's availability class (JVMFlag kinds in jvmFlag.hpp).
type Kind int

// The kinds jitsim models. Develop and notproduct flags are not in product builds and so not
// in the table.
const (
	Product Kind = iota
	Diagnostic
	Experimental
)

// String returns the kind word HotSpot prints.
func (k Kind) String() string {
	switch k {
	case Product:
		return "product"
	case Diagnostic:
		return "diagnostic"
	case Experimental:
		return "experimental"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Origin says where a flag's current value came from (JVMFlagOrigin).
type Origin int

// The origins jitsim produces.
const (
	Default Origin = iota
	CommandLine
	Environment
	ConfigFile
	Ergonomic
)

var originNames = [...]string{"default", "command line", "environment", "config file", "ergonomic"}

// String returns the origin word HotSpot prints inside braces.
func (o Origin) String() string {
	if o < 0 || int(o) >= len(originNames) {
		return fmt.Sprintf("Origin(%d)", int(o))
	}
	return originNames[o]
}
