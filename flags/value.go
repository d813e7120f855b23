package flags

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// value is a flag value; which field is meaningful depends on the flag's Type.
type value struct {
	b bool
	i int64 // Int, Intx
	u uint64
	f float64
	s string
}

var errSyntax = errors.New("bad value")

// parseDefault turns a row's declared default text into a value.
func parseDefault(f *Flag, j jdk.Release) (value, error) {
	s := f.Default.At(j)
	switch f.Type.At(j) {
	case Bool:
		switch s {
		case "true":
			return value{b: true}, nil
		case "false":
			return value{}, nil
		}
		return value{}, fmt.Errorf("bool default %q", s)
	case Int, Intx:
		n, err := strconv.ParseInt(s, 10, 64)
		return value{i: n}, err
	case Uintx, Uint, Uint64, SizeT:
		n, err := strconv.ParseUint(s, 10, 64)
		return value{u: n}, err
	case Double:
		x, err := strconv.ParseFloat(s, 64)
		return value{f: x}, err
	default:
		return value{s: s}, nil
	}
}

// inValueRange reports whether s is non-empty and made only of the characters HotSpot's
// parse_argument accepts in a numeric value (VALUE_RANGE "[-kmgtxKMGTX0123456789abcdefABCDEF]").
func inValueRange(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c == '-':
		case strings.IndexByte("kmgtxKMGTX", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// atojulong models Arguments::atojulong: decimal, or hex after 0x/0X, with an optional single
// k/m/g/t suffix (either case); any other trailing text or an overflow fails.
func atojulong(s string) (uint64, bool) {
	base := 10
	digits := s
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base = 16
		digits = s[2:]
	}
	n := 0
	for n < len(digits) && isDigit(digits[n], base) {
		n++
	}
	if base == 16 && n == 0 {
		// strtoull("0x…", 16) with no hex digit parses just the "0"; the "x" is then the
		// remainder, which is not a size suffix.
		return 0, false
	}
	if n == 0 {
		return 0, false
	}
	v, err := strconv.ParseUint(digits[:n], base, 64)
	if err != nil {
		return 0, false
	}
	rest := digits[n:]
	if rest == "" {
		return v, true
	}
	if len(rest) != 1 {
		return 0, false
	}
	var shift uint
	switch rest[0] {
	case 'k', 'K':
		shift = 10
	case 'm', 'M':
		shift = 20
	case 'g', 'G':
		shift = 30
	case 't', 'T':
		shift = 40
	default:
		return 0, false
	}
	if v > math.MaxUint64>>shift {
		return 0, false
	}
	return v << shift, true
}

func isDigit(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	if base == 16 {
		return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	return false
}

// parseInteger models set_numeric_flag for the integer flag types. JDK 8/17 cast the parsed
// 64-bit magnitude to the flag's type (so overflow wraps, as OpenJDK 17.0.15 shows for int and
// uint); JDK 25 rejects values that do not fit (Temurin 25.0.3). A minus sign is rejected for
// every unsigned type.
func parseInteger(t Type, s string, j jdk.Release) (value, error) {
	if !inValueRange(s) {
		return value{}, errSyntax
	}
	neg := false
	if s[0] == '-' {
		if t.unsigned() {
			return value{}, errSyntax
		}
		neg = true
		s = s[1:]
	}
	v, ok := atojulong(s)
	if !ok {
		return value{}, errSyntax
	}
	switch t {
	case Uintx, Uint64, SizeT:
		return value{u: v}, nil
	case Uint:
		if behavesLike25(j) && v > math.MaxUint32 {
			return value{}, errSyntax
		}
		return value{u: uint64(uint32(v))}, nil
	case Intx:
		if behavesLike25(j) && (v > math.MaxInt64 && !(neg && v == 1<<63)) {
			return value{}, errSyntax
		}
		n := int64(v)
		if neg {
			n = -n
		}
		return value{i: n}, nil
	case Int:
		if behavesLike25(j) && (v > math.MaxInt32 && !(neg && v == 1<<31)) {
			return value{}, errSyntax
		}
		n := int32(uint32(v))
		if neg {
			n = -n
		}
		return value{i: int64(n)}, nil
	}
	panic("BUG: parseInteger on " + t.String())
}

// fp17 is the first pattern JDK 8/17's parse_argument tries for a double value: digits (and
// minus signs), a dot, then digits, e, E, + or -.
var fp17 = regexp.MustCompile(`^[-0-9]+\.[-0-9eE+]+$`)

// strtod25 is what Temurin 25.0.3 accepts for a double: C strtod syntax (decimal or hex, sign
// allowed) consuming the whole value, without inf/nan.
var strtod25 = regexp.MustCompile(`^[+-]?(0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)$`)

// parseDouble models the double-valued paths of parse_argument for the profile.
func parseDouble(s string, j jdk.Release) (value, error) {
	if behavesLike25(j) {
		if !strtod25.MatchString(s) {
			return value{}, errSyntax
		}
		t := s
		if strings.ContainsAny(t, "xX") && !strings.ContainsAny(t, "pP") {
			t += "p0"
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsInf(x, 0) {
			return value{}, errSyntax
		}
		return value{f: x}, nil
	}
	if fp17.MatchString(s) {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return value{}, errSyntax
		}
		return value{f: x}, nil
	}
	// Otherwise JDK 8/17 fall back to the integer syntax (so "2k" and "0x1" are doubles too);
	// a minus sign is then rejected for a double.
	if !inValueRange(s) || s[0] == '-' {
		return value{}, errSyntax
	}
	v, ok := atojulong(s)
	if !ok {
		return value{}, errSyntax
	}
	return value{f: float64(v)}, nil
}

// format renders v the way PrintFlagsFinal prints a value of type t.
func format(t Type, v value) string {
	switch t {
	case Bool:
		if v.b {
			return "true"
		}
		return "false"
	case Int, Intx:
		return strconv.FormatInt(v.i, 10)
	case Uintx, Uint, Uint64, SizeT:
		return strconv.FormatUint(v.u, 10)
	case Double:
		return fmt.Sprintf("%f", v.f)
	default:
		return v.s
	}
}

// inRange reports whether v lies in r (nil r: no range).
func inRange(t Type, r *Range, v value) bool {
	if r == nil {
		return true
	}
	switch t {
	case Int, Intx:
		return v.i >= r.Min && v.i <= r.Max
	case Uintx, Uint, Uint64, SizeT:
		return v.u >= r.UMin && v.u <= r.UMax
	case Double:
		return v.f >= r.FMin && v.f <= r.FMax
	}
	return true
}

// rangeMessage is JVMFlagRange's "outside the allowed range" line (jvmFlagRangeList.cpp).
func rangeMessage(f *Flag, t Type, r *Range, v value) string {
	var lo, hi string
	switch t {
	case Int, Intx:
		lo, hi = strconv.FormatInt(r.Min, 10), strconv.FormatInt(r.Max, 10)
	case Uintx, Uint, Uint64, SizeT:
		lo, hi = strconv.FormatUint(r.UMin, 10), strconv.FormatUint(r.UMax, 10)
	case Double:
		lo, hi = fmt.Sprintf("%f", r.FMin), fmt.Sprintf("%f", r.FMax)
	}
	return fmt.Sprintf("%s %s=%s is outside the allowed range [ %s ... %s ]\n", t, f.Name, format(t, v), lo, hi)
}
