package flags

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
)

// behavesLike25 reports whether messages follow Temurin 25 rather than JDK 17 where the two
// differ. JDK 21 could not be observed and its messages follow 17 (its flag rows follow the
// release's documented changes, e.g. InlineFrequencyRatio from JDK 18).
func behavesLike25(r jdk.Release) bool { return r >= jdk.R25 }

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
	Uint
	Uint64
	SizeT
)

var typeNames = [...]string{"bool", "int", "intx", "uintx", "double", "ccstr", "ccstrlist", "uint", "uint64_t", "size_t"}

// String returns the type name HotSpot prints.
func (t Type) String() string {
	if t < 0 || int(t) >= len(typeNames) {
		return fmt.Sprintf("Type(%d)", int(t))
	}
	return typeNames[t]
}

func (t Type) isString() bool { return t == Ccstr || t == Ccstrlist }

// unsigned reports whether t holds an unsigned integer (value.u).
func (t Type) unsigned() bool { return t == Uintx || t == Uint || t == Uint64 || t == SizeT }

// Kind is a flag's availability class (JVMFlag kinds in jvmFlag.hpp).
type Kind int

// The kinds jitsim models. Develop and notproduct flags are not in product builds and so not
// in the table. Manageable flags are product flags that may also be set at run time through
// the management interface; they need no unlock.
const (
	Product Kind = iota
	Diagnostic
	Experimental
	Manageable
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
	case Manageable:
		return "manageable"
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
