package flags

import (
	"fmt"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// valueConstraint is one of HotSpot's constraint functions on a flag's value beyond its range
// (a power of two, a multiple, a bound set by another flag): the VM checks some as it parses
// the option ("Improperly specified VM option" follows the text), the rest after the
// collector's ergonomics, each failure named, in the VM's flag order; a flag's first failing
// rule is its line. Found by setting every integer flag whose default is a power of two (or 0,
// 1, 2) to a value in its range that is not one, on OpenJDK 17.0.15 and Temurin 25.0.3, and by
// the bounds those runs revealed; the texts are java's.
type valueConstraint struct {
	flag     string
	releases jdk.Set
	atParse  bool
	rules    []constraintRule
}

// constraintRule returns java's line for value v (its bits; negative is false for an unsigned
// type) of flag name when it fails, "" when it passes.
type constraintRule func(name string, v uint64, negative bool, s *Set) string

// powerOfTwo refuses a value that is not a power of two with text, %d the value.
func powerOfTwo(text string) constraintRule {
	return func(_ string, v uint64, negative bool, _ *Set) string {
		if !negative && v > 0 && v&(v-1) == 0 {
			return ""
		}
		return fmt.Sprintf(text, signed(v, negative))
	}
}

// zeroOrPowerOfTwo is powerOfTwo that also takes 0.
func zeroOrPowerOfTwo(text string) constraintRule {
	pow := powerOfTwo(text)
	return func(name string, v uint64, negative bool, s *Set) string {
		if v == 0 {
			return ""
		}
		return pow(name, v, negative, s)
	}
}

// multipleOf refuses a value that is not a multiple of n with text, %d the value.
func multipleOf(n uint64, text string) constraintRule {
	return func(_ string, v uint64, negative bool, _ *Set) string {
		if !negative && v%n == 0 {
			return ""
		}
		return fmt.Sprintf(text, signed(v, negative))
	}
}

// atLeast refuses a value below min: "NAME (V) must be greater than or equal to MIN".
func atLeast(min int64) constraintRule {
	return func(name string, v uint64, negative bool, _ *Set) string {
		if n := signed(v, negative); n < min {
			return fmt.Sprintf("%s (%d) must be greater than or equal to %d", name, n, min)
		}
		return ""
	}
}

// atMostFlag refuses a value above another flag's (def when the set lacks that flag, as a
// debug-only one): "NAME (V) must be less than or equal to OTHER (W)".
func atMostFlag(other string, def int64) constraintRule {
	return func(name string, v uint64, negative bool, s *Set) string {
		w := def
		if s.Has(other) {
			w = s.Int(other)
		}
		if n := signed(v, negative); n > w {
			return fmt.Sprintf("%s (%d) must be less than or equal to %s (%d)", name, n, other, w)
		}
		return ""
	}
}

func signed(v uint64, negative bool) int64 {
	if negative {
		return -int64(-v)
	}
	return int64(v)
}

// valueConstraints are listed in the VM's flag order (jdk-*.flagtable.txt).
var valueConstraints = []valueConstraint{
	{flag: "ObjectAlignmentInBytes", atParse: true, rules: []constraintRule{powerOfTwo("ObjectAlignmentInBytes (%d) must be power of 2")}},
	{flag: "AVX3Threshold", rules: []constraintRule{zeroOrPowerOfTwo("AVX3Threshold ( %d ) must be 0 or a power of two value between 0 and MAX_INT")}},
	// CodeEntryAlignment is a debug-only flag on 17, 32 on x86_64 (the bound java names).
	{flag: "InteriorEntryAlignment", rules: []constraintRule{atMostFlag("CodeEntryAlignment", 32),
		powerOfTwo("InteriorEntryAlignment (%d) must be a power of two"), atLeast(16)}},
	{flag: "LargePageSizeInBytes", releases: jdk.Of(jdk.R25), atParse: true, rules: []constraintRule{powerOfTwo("LargePageSizeInBytes ( %d ) must be a power of 2")}},
	{flag: "BiasedLockingStartupDelay", releases: jdk.Before(jdk.R25), rules: []constraintRule{
		multipleOf(10, "BiasedLockingStartupDelay (%d) must be evenly divisible by PeriodicTask::interval_gran (10)")}},
	{flag: "CodeEntryAlignment", releases: jdk.Of(jdk.R25), rules: []constraintRule{powerOfTwo("CodeEntryAlignment (%d) must be a power of two")}},
	{flag: "OptoLoopAlignment", releases: jdk.Of(jdk.R25), rules: []constraintRule{powerOfTwo("OptoLoopAlignment (%d) must be a power of two")}},
	// java's text names the first flag G1RemSetMaxHowlNumBuckets.
	{flag: "G1RemSetHowlMaxNumBuckets", releases: jdk.Of(jdk.R25), rules: []constraintRule{powerOfTwo("G1RemSetMaxHowlNumBuckets (%d) must be a power of two.")}},
	{flag: "G1RemSetHowlNumBuckets", releases: jdk.Of(jdk.R25), rules: []constraintRule{powerOfTwo("G1RemSetHowlNumBuckets (%d) must be a power of two and greater than or equal to 1.")}},
	{flag: "GCCardSizeInBytes", releases: jdk.Of(jdk.R25), atParse: true, rules: []constraintRule{powerOfTwo("GCCardSizeInBytes ( %d ) must be a power of 2")}},
}

// constraintText returns java's line for the value an integer flag of type typ holds when its
// constraint refuses it at the stage asked for (atParse), "" when it passes or the flag has
// none there.
func constraintText(s *Set, name string, j jdk.Release, atParse bool, typ Type, v value) string {
	bits, negative := v.u, false
	if !typ.unsigned() {
		bits, negative = uint64(v.i), v.i < 0
	}
	for _, c := range valueConstraints {
		if c.flag != name || c.atParse != atParse || c.releases != 0 && !c.releases.Has(j) {
			continue
		}
		for _, r := range c.rules {
			if t := r(name, bits, negative, s); t != "" {
				return t + "\n"
			}
		}
	}
	return ""
}

// checkAfterErgo runs the constraints checked once the collector's ergonomics are done
// (after its start-up errors, before the stack size's and the code cache's; observed on 17.0.15
// and 25.0.3) for the flags the command line set, all failures named, then G1's pause goals.
func (p *parser) checkAfterErgo() error {
	var b strings.Builder
	for _, c := range valueConstraints {
		e := p.set.lookup(c.flag)
		if c.atParse || e == nil || e.origin == Default {
			continue
		}
		b.WriteString(constraintText(p.set, c.flag, p.o.JDK, false, e.typ, e.v))
	}
	b.WriteString(p.g1PauseConstraint())
	if b.Len() > 0 {
		return &Error{Text: b.String(), Launcher: true, Constraints: true}
	}
	return nil
}

// g1PauseConstraint is G1's check of its pause goals (G1 chosen or left to the ergonomics):
// an interval given needs a pause time given, and the pause must be shorter than the
// interval, each side reporting (observed on 17.0.15 and 25.0.3).
func (p *parser) g1PauseConstraint() string {
	s := p.set
	if !p.o.JDK.Modern() || !s.Has("GCPauseIntervalMillis") || !s.WasSetOnCommandLine("GCPauseIntervalMillis") {
		return ""
	}
	if c := s.Collector(); c != "" && c != "UseG1GC" {
		return ""
	}
	// The pause's check first (with a pause given), then the interval's: at least 1, then
	// a pause given, then longer than the pause (an interval of 0 without a pause is only
	// "at least 1").
	pauseSet := s.WasSetOnCommandLine("MaxGCPauseMillis")
	pause, interval := s.Uint("MaxGCPauseMillis"), s.Uint("GCPauseIntervalMillis")
	text := ""
	if pauseSet && pause >= interval {
		text = fmt.Sprintf("MaxGCPauseMillis (%d) must be less than GCPauseIntervalMillis (%d)\n", pause, interval)
	}
	switch {
	case interval < 1:
		return text + fmt.Sprintf("GCPauseIntervalMillis (%d) must be greater than or equal to 1\n", interval)
	case !pauseSet:
		return text + "GCPauseIntervalMillis cannot be set without setting MaxGCPauseMillis\n"
	case pause >= interval:
		return text + fmt.Sprintf("GCPauseIntervalMillis (%d) must be greater than MaxGCPauseMillis (%d)\n", interval, pause)
	}
	return text
}

// YoungRatioFailure is the generational collectors' check of NewRatio as they size their
// generations, "" when it passes: Serial and Parallel stop on 0, whatever young sizes the
// command line gave; G1 takes it (17.0.15, 25.0.3; after the heap's and the stacks' sizes,
// before TLABSize's, which it leaves unchecked; 25 logs gc+init's card-table line first).
// runtime/ergo reports it once the collector is settled, the ergonomics' choice included.
func YoungRatioFailure(s *Set) string {
	if !s.jdk.Modern() || !s.Has("NewRatio") || s.Uint("NewRatio") != 0 {
		return ""
	}
	if c := s.Collector(); c != "UseSerialGC" && c != "UseParallelGC" {
		return ""
	}
	return "Invalid young gen ratio specified"
}

// checkTLABSize is the one constraint checked once the heap is set up (after the stack sizes
// and the class-data archive; observed on 17.0.15 and 25.0.3): a TLABSize the command line
// gave, 0 included, must reach MinTLABSize, whatever the collector and UseTLAB. Its upper
// bound, the heap's ergonomic TLAB maximum, is not modelled.
func (p *parser) checkTLABSize() error {
	s := p.set
	if !p.o.JDK.Modern() || !s.Has("TLABSize") || !s.WasSetOnCommandLine("TLABSize") || !s.Has("MinTLABSize") || YoungRatioFailure(s) != "" {
		return nil
	}
	if size, min := s.Uint("TLABSize"), s.Uint("MinTLABSize"); size < min {
		return &Error{Text: fmt.Sprintf("TLABSize (%d) must be greater than or equal to MinTLABSize (%d)\n", size, min), Launcher: true}
	}
	return nil
}
