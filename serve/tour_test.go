package serve

import (
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/scenario"
)

// TestTourPublishedNumbers: every tour page's published pair is a pair of numbers of the
// scenario file it names, in that file's unit, and its request passes the playground's checks.
func TestTourPublishedNumbers(t *testing.T) {
	names := []string{}
	for _, s := range scenario.List() {
		names = append(names, s.Name)
	}
	for _, p := range Tour {
		file, _, ok := strings.Cut(p.Source, ":")
		if !ok || !strings.HasPrefix(file, "examples/") {
			t.Errorf("%s: source %q does not start with its examples/ file", p.ID, p.Source)
			continue
		}
		f, err := scenario.LoadFile("../" + file)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		var values []float64
		var units []string
		for _, v := range f.Compare {
			for _, pub := range v.Published {
				values = append(values, pub.Value)
				units = append(units, pub.Unit)
			}
		}
		for _, x := range []float64{p.Published.A, p.Published.B} {
			i := slices.Index(values, x)
			if i < 0 || !strings.HasPrefix(p.Published.Unit, units[i]) {
				t.Errorf("%s: published %v %s is not a number of %s (%v %v)", p.ID, x, p.Published.Unit, file, values, units)
			}
		}
		if err := Check(p.Request, "", names); err != nil {
			t.Errorf("%s: the tour's request is refused: %v", p.ID, err)
		}
	}
}
