package main

import (
	"math/big"
	"regexp"
	"strconv"
)

// With -ranges, setflags reads a recorded PrintFlagsRanges table instead and sets each flag that
// has a finite range to a value just outside it, printing every run: HotSpot checks most ranges
// while it parses the option (the range line, then "Improperly specified VM option"), some only
// after every option is parsed (the range line alone).

var rangeRow = regexp.MustCompile(`^ *(\S+) (\S+) +\[ +(\S+) +\.\.\. +(\S+) +\] +\{([^}]*)\} \{([^}]*)\}$`)

// bounds are the integer types' limits.
var bounds = map[string][2]string{
	"int": {"-2147483648", "2147483647"}, "uint": {"0", "4294967295"},
	"intx": {"-9223372036854775808", "9223372036854775807"}, "uintx": {"0", "18446744073709551615"},
	"uint64_t": {"0", "18446744073709551615"}, "size_t": {"0", "18446744073709551615"},
}

// outside returns a value of type typ just outside [lo, hi], or "" when the type has none.
func outside(typ, lo, hi string) string {
	if typ == "double" {
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		switch {
		case err1 != nil || err2 != nil:
			return ""
		case h < 1e300:
			return strconv.FormatFloat(h+1, 'f', -1, 64)
		case l > -1e300:
			return strconv.FormatFloat(l-1, 'f', -1, 64)
		}
		return ""
	}
	b, ok := bounds[typ]
	if !ok {
		return ""
	}
	l, ok1 := new(big.Int).SetString(lo, 10)
	h, ok2 := new(big.Int).SetString(hi, 10)
	tl, _ := new(big.Int).SetString(b[0], 10)
	th, _ := new(big.Int).SetString(b[1], 10)
	if !ok1 || !ok2 {
		return ""
	}
	if h.Cmp(th) < 0 {
		return new(big.Int).Add(h, big.NewInt(1)).String()
	}
	if l.Cmp(tl) > 0 {
		return new(big.Int).Sub(l, big.NewInt(1)).String()
	}
	return ""
}

// rangeOption is the option for one PrintFlagsRanges line, or "" when it has none.
func rangeOption(line string) string {
	m := rangeRow.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if v := outside(m[1], m[3], m[4]); v != "" {
		return "-XX:" + m[2] + "=" + v
	}
	return ""
}
