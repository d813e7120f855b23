package warmup

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// FuzzReadCSV feeds arbitrary text to the series.csv reader: it must return
// runs or an error, never panic, and what it returns must write back and
// read again to the same iterations.
func FuzzReadCSV(f *testing.F) {
	var b bytes.Buffer
	r := synthRun("-XX:+UseAESIntrinsics", 0, 8, map[int]int{2: 3, 6: 4}, 1)
	if err := WriteCSV(&b, []Run{r}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	f.Fuzz(func(t *testing.T, in string) {
		runs, err := ReadCSV(bytes.NewReader([]byte(in)))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteCSV(&out, runs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadCSV(&out)
		if err != nil {
			t.Fatalf("re-reading our own CSV: %v", err)
		}
		if len(again) != len(runs) {
			t.Fatalf("%d runs, then %d", len(runs), len(again))
		}
	})
}

// FuzzAnalyze runs the analysis on arbitrary series: segments must tile the
// series, changepoints must be increasing and inside it, and the class must
// be one of the four.
func FuzzAnalyze(f *testing.F) {
	seed := func(v ...float64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	f.Add(seed(3, 3, 3, 1, 1, 1, 1, 1), uint8(0))
	f.Add(seed(1, 1, 1, 1, 5, 5, 5, 5, 5), uint8(3))
	f.Fuzz(func(t *testing.T, raw []byte, steady uint8) {
		var x []float64
		for i := 0; i+8 <= len(raw); i += 8 {
			x = append(x, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
		a, err := Analyze(x, Options{Steady: int(steady)})
		if err != nil {
			return
		}
		if a.Segments[0].Start != 0 || a.Segments[len(a.Segments)-1].End != len(x) {
			t.Fatalf("segments %+v do not cover %d values", a.Segments, len(x))
		}
		for i := 1; i < len(a.Segments); i++ {
			if a.Segments[i].Start != a.Segments[i-1].End || a.Segments[i].Start != a.Changepoints[i-1] {
				t.Fatalf("segments %+v / changepoints %v do not tile", a.Segments, a.Changepoints)
			}
		}
		switch a.Class {
		case Flat, Warmup, Slowdown, NoSteadyState:
		default:
			t.Fatalf("class %q", a.Class)
		}
		if a.Steady && (a.SteadyIter < 0 || a.SteadyIter >= len(x)) {
			t.Fatalf("steady iteration %d of %d", a.SteadyIter, len(x))
		}
	})
}
