package flags

import (
	"fmt"
	"sync"

	"github.com/jitsim/jitsim/jdk"
)

// entry is one flag's current state in a Set.
type entry struct {
	flag *Flag
	typ  Type
	v    value
	// origin is where the value came from; cmdErgo marks a value first given by the user and
	// then changed ergonomically ({command line, ergonomic}).
	origin  Origin
	cmdErgo bool
}

// Set holds every flag of one profile and architecture with its value and origin.
// The zero Set is not usable; get one from Parse or NewSet.
type Set struct {
	jdk  jdk.Release
	arch jdk.Arch
	// base holds the declared defaults, indexed like table and shared by every Set of the
	// profile and architecture (entries of flags that do not exist there have a nil flag);
	// own holds this set's copies of the entries it has looked up, which alone may change.
	base []entry
	own  map[int]*entry
	// oracle holds the compile commands read at start-up (nil: none); it is not changed
	// after Parse, so clones share it.
	oracle *oracle
	// logs are the -Xlog outputs configured at start-up (nil: none); like oracle, not
	// changed after Parse.
	logs []LogConfig
	// noSharing is -Xshare:off: no class-data archive is mapped.
	noSharing bool
	// interpreterOnly: the mode runs no compiler (-Xint, CompileThresholdScaling=0,
	// TieredStopAtLevel=0), which a -XX:-UseCompiler of the command line is not.
	interpreterOnly bool
}

// defaults caches, per profile and architecture, the declared defaults NewSet starts from.
var defaults struct {
	sync.Mutex
	sets map[[2]uint8][]entry
}

func defaultEntries(j jdk.Release, a jdk.Arch) []entry {
	defaults.Lock()
	defer defaults.Unlock()
	key := [2]uint8{uint8(j), uint8(a)}
	if vals, ok := defaults.sets[key]; ok {
		return vals
	}
	vals := make([]entry, len(table))
	for i, f := range table {
		if !f.Exists(j, a) {
			continue
		}
		v, err := parseDefault(f, j)
		if err != nil {
			panic("BUG: " + err.Error())
		}
		vals[i] = entry{flag: f, typ: f.Type.At(j), v: v}
	}
	if defaults.sets == nil {
		defaults.sets = map[[2]uint8][]entry{}
	}
	defaults.sets[key] = vals
	return vals
}

// NewSet returns the declared defaults of every flag that exists in profile j on arch a, all
// with origin {default}.
func NewSet(j jdk.Release, a jdk.Arch) *Set {
	return &Set{jdk: j, arch: a, base: defaultEntries(j, a), own: map[int]*entry{}}
}

// lookup returns the set's own entry of the named flag, which the caller may change, or nil
// when the flag does not exist in the set's profile and architecture.
func (s *Set) lookup(name string) *entry {
	i, ok := index[name]
	if !ok || s.base[i].flag == nil {
		return nil
	}
	if e := s.own[i]; e != nil {
		return e
	}
	e := s.base[i]
	s.own[i] = &e
	return &e
}

// peek returns the entry of the named flag for reading only, or nil. Unlike lookup it does
// not change the set, so a settled Set may be read from several goroutines.
func (s *Set) peek(name string) *entry {
	i, ok := index[name]
	if !ok {
		return nil
	}
	return s.at(i)
}

// at returns the entry of table[i] for reading only, or nil.
func (s *Set) at(i int) *entry {
	if e := s.own[i]; e != nil {
		return e
	}
	if s.base[i].flag == nil {
		return nil
	}
	return &s.base[i]
}

// JDK returns the set's profile.
func (s *Set) JDK() jdk.Release { return s.jdk }

// Arch returns the set's target architecture.
func (s *Set) Arch() jdk.Arch { return s.arch }

// Has reports whether the flag exists in this set's profile and architecture.
func (s *Set) Has(name string) bool { return s.peek(name) != nil }

func (s *Set) get(name string, want ...Type) *entry {
	e := s.peek(name)
	if e == nil {
		panic(fmt.Sprintf("BUG: flag %s does not exist in JDK %s/%s", name, s.jdk, s.arch))
	}
	if len(want) == 0 {
		return e
	}
	for _, t := range want {
		if e.typ == t {
			return e
		}
	}
	panic(fmt.Sprintf("BUG: flag %s is %s, not %v", name, e.typ, want))
}

// Bool returns a bool flag. Asking for a flag that does not exist or has another type is a
// programming error and panics.
func (s *Set) Bool(name string) bool { return s.get(name, Bool).v.b }

// Int returns an integer flag of any type as int64 (unsigned values above MaxInt64 wrap).
func (s *Set) Int(name string) int64 {
	e := s.get(name, Int, Intx, Uintx, Uint, Uint64, SizeT)
	if e.typ.unsigned() {
		return int64(e.v.u)
	}
	return e.v.i
}

// Uint returns an unsigned flag (uintx, uint, uint64_t, size_t).
func (s *Set) Uint(name string) uint64 { return s.get(name, Uintx, Uint, Uint64, SizeT).v.u }

// Float returns a double flag.
func (s *Set) Float(name string) float64 { return s.get(name, Double).v.f }

// String returns a ccstr or ccstrlist flag (list entries joined with newlines, as HotSpot
// stores them).
func (s *Set) String(name string) string { return s.get(name, Ccstr, Ccstrlist).v.s }

// Origin returns where the flag's value came from.
func (s *Set) Origin(name string) Origin { return s.get(name).origin }

// OriginString returns the origin as PrintFlagsFinal prints it inside braces, e.g.
// "command line, ergonomic".
func (s *Set) OriginString(name string) string {
	e := s.get(name)
	if e.cmdErgo {
		return "command line, ergonomic"
	}
	return e.origin.String()
}

// IsDefault reports whether the flag still has origin {default} (FLAG_IS_DEFAULT).
func (s *Set) IsDefault(name string) bool { return s.get(name).origin == Default }

// WasSetOnCommandLine reports whether the user set the flag (command line, environment
// variables or settings file), as FLAG_IS_CMDLINE does.
func (s *Set) WasSetOnCommandLine(name string) bool {
	e := s.get(name)
	return e.cmdErgo || e.origin == CommandLine || e.origin == Environment || e.origin == ConfigFile
}

// SetErgo sets a flag the way FLAG_SET_ERGO does: origin becomes {ergonomic}, or
// {command line, ergonomic} when the user had set it. text is -XX: value syntax ("true",
// "12", "1.5", a string).
func (s *Set) SetErgo(name, text string) error {
	e, v, err := s.ergoValue(name, text)
	if err != nil {
		return err
	}
	if e.origin == CommandLine || e.origin == Environment || e.origin == ConfigFile {
		e.cmdErgo = true
	}
	e.v, e.origin = v, Ergonomic
	return nil
}

// SetCommandLine sets a flag as if the command line had (FLAG_SET_CMDLINE): what the VM sets
// on an option's behalf, before its ergonomics, such as -XX:+AggressiveHeap's heap sizes.
func (s *Set) SetCommandLine(name, text string) error {
	e, v, err := s.ergoValue(name, text)
	if err != nil {
		return err
	}
	e.v, e.origin, e.cmdErgo = v, CommandLine, false
	return nil
}

// SetDefault changes a flag's value and keeps its origin, the way FLAG_SET_DEFAULT or plain
// assignment in vm_version_*.cpp does (a CPU-flipped UseAES still prints {default}).
func (s *Set) SetDefault(name, text string) error {
	e, v, err := s.ergoValue(name, text)
	if err != nil {
		return err
	}
	e.v = v
	return nil
}

func (s *Set) ergoValue(name, text string) (*entry, value, error) {
	e := s.lookup(name)
	if e == nil {
		return nil, value{}, fmt.Errorf("flag %s does not exist in JDK %s on %s", name, s.jdk, s.arch)
	}
	v, err := s.parseValue(e, text)
	if err != nil {
		return nil, value{}, fmt.Errorf("bad value %q for %s flag %s", text, e.typ, name)
	}
	return e, v, nil
}

func (s *Set) parseValue(e *entry, text string) (value, error) {
	switch e.typ {
	case Bool:
		switch text {
		case "true":
			return value{b: true}, nil
		case "false":
			return value{}, nil
		}
		return value{}, errSyntax
	case Int, Intx, Uintx, Uint, Uint64, SizeT:
		return parseInteger(e.typ, text, s.jdk)
	case Double:
		return parseDouble(text, s.jdk)
	}
	return value{s: text}, nil
}

// Value returns the flag's value formatted as PrintFlagsFinal shows it.
func (s *Set) Value(name string) string {
	e := s.get(name)
	return format(e.typ, e.v)
}

// Revert returns a flag to its declared default value and origin, as if no option and no
// rule had set it: the view of a set at an earlier point of start-up (java prints
// -XX:+PrintCommandLineFlags before CompilationPolicy::initialize sets CICompilerCount).
func (s *Set) Revert(name string) {
	if i, ok := index[name]; ok {
		delete(s.own, i)
	}
}

// Clone returns an independent copy of s.
func (s *Set) Clone() *Set {
	c := &Set{jdk: s.jdk, arch: s.arch, base: s.base, own: make(map[int]*entry, len(s.own)), oracle: s.oracle, logs: s.logs, noSharing: s.noSharing, interpreterOnly: s.interpreterOnly}
	for i, e := range s.own {
		cp := *e
		c.own[i] = &cp
	}
	return c
}

// Logs returns the unified-logging outputs the -Xlog options configured, in order (the VM
// writes the jit tags it models to them).
func (s *Set) Logs() []LogConfig { return s.logs }

// InterpreterOnly reports whether the compilation mode runs no compiler (-Xint,
// CompileThresholdScaling=0, TieredStopAtLevel=0). A -XX:-UseCompiler of the command line
// leaves the mode as it is: the compiler count is still sized as if the compilers ran.
func (s *Set) InterpreterOnly() bool { return s.interpreterOnly }

// Sharing reports whether the VM maps the class-data sharing archive (not under -Xshare:off).
func (s *Set) Sharing() bool { return !s.noSharing }
