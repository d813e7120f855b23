package flags

import (
	"fmt"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// valueConstraint is one of HotSpot's constraint functions on a single flag's value beyond its
// range (a power of two, a multiple): the VM checks some as it parses the option ("Improperly
// specified VM option" follows the text), the rest after the collector's ergonomics, each
// failure named, in the VM's flag order. Found by setting every integer flag whose default is a power
// of two (or 0, 1, 2) to a value in its range that is not one, on OpenJDK 17.0.15 and
// Temurin 25.0.3; the texts are java's, %d the value given.
type valueConstraint struct {
	flag     string
	releases jdk.Set
	atParse  bool
	ok       func(v uint64) bool
	text     string
}

func powerOfTwo(v uint64) bool       { return v > 0 && v&(v-1) == 0 }
func zeroOrPowerOfTwo(v uint64) bool { return v == 0 || powerOfTwo(v) }

// valueConstraints are listed in the VM's flag order (jdk-*.flagtable.txt).
var valueConstraints = []valueConstraint{
	{flag: "ObjectAlignmentInBytes", atParse: true, ok: powerOfTwo, text: "ObjectAlignmentInBytes (%d) must be power of 2"},
	{flag: "AVX3Threshold", ok: zeroOrPowerOfTwo, text: "AVX3Threshold ( %d ) must be 0 or a power of two value between 0 and MAX_INT"},
	{flag: "InteriorEntryAlignment", ok: powerOfTwo, text: "InteriorEntryAlignment (%d) must be a power of two"},
	{flag: "LargePageSizeInBytes", releases: jdk.Of(jdk.R25), atParse: true, ok: powerOfTwo, text: "LargePageSizeInBytes ( %d ) must be a power of 2"},
	{flag: "BiasedLockingStartupDelay", releases: jdk.Before(jdk.R25), ok: func(v uint64) bool { return v%10 == 0 },
		text: "BiasedLockingStartupDelay (%d) must be evenly divisible by PeriodicTask::interval_gran (10)"},
	{flag: "CodeEntryAlignment", releases: jdk.Of(jdk.R25), ok: powerOfTwo, text: "CodeEntryAlignment (%d) must be a power of two"},
	{flag: "OptoLoopAlignment", releases: jdk.Of(jdk.R25), ok: powerOfTwo, text: "OptoLoopAlignment (%d) must be a power of two"},
	// java's text names the first flag G1RemSetMaxHowlNumBuckets.
	{flag: "G1RemSetHowlMaxNumBuckets", releases: jdk.Of(jdk.R25), ok: powerOfTwo, text: "G1RemSetMaxHowlNumBuckets (%d) must be a power of two."},
	{flag: "G1RemSetHowlNumBuckets", releases: jdk.Of(jdk.R25), ok: powerOfTwo, text: "G1RemSetHowlNumBuckets (%d) must be a power of two and greater than or equal to 1."},
	{flag: "GCCardSizeInBytes", releases: jdk.Of(jdk.R25), atParse: true, ok: powerOfTwo, text: "GCCardSizeInBytes ( %d ) must be a power of 2"},
}

// constraintText returns java's line for the value an integer flag of type typ holds (v,
// its bits) when its constraint refuses it at the stage asked for (atParse), "" when it
// passes or the flag has none there. A negative value passes no constraint.
func constraintText(name string, j jdk.Release, atParse bool, typ Type, v value) string {
	for _, c := range valueConstraints {
		if c.flag != name || c.atParse != atParse || c.releases != 0 && !c.releases.Has(j) {
			continue
		}
		if typ.unsigned() {
			if !c.ok(v.u) {
				return fmt.Sprintf(c.text, v.u) + "\n"
			}
		} else if v.i < 0 || !c.ok(uint64(v.i)) {
			return fmt.Sprintf(c.text, v.i) + "\n"
		}
	}
	return ""
}

// checkAfterErgo runs the constraints checked once the collector's ergonomics are done
// (after its start-up errors, before the stack size's and the code cache's; observed on 17.0.15
// and 25.0.3) for the flags the command line set, all failures named.
func (p *parser) checkAfterErgo() error {
	var b strings.Builder
	for _, c := range valueConstraints {
		e := p.set.lookup(c.flag)
		if c.atParse || e == nil || e.origin == Default {
			continue
		}
		b.WriteString(constraintText(c.flag, p.o.JDK, false, e.typ, e.v))
	}
	if b.Len() > 0 {
		return &Error{Text: b.String(), Launcher: true}
	}
	return nil
}
