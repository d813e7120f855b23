package warmup

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"
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
		runs, err := ReadCSV(bytes.NewReader([]byte(in)), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv:") {
				t.Fatalf("error does not name the file and line: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteCSV(&out, runs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadCSV(&out, "again.csv")
		if err != nil {
			t.Fatalf("re-reading our own CSV: %v", err)
		}
		if len(again) != len(runs) {
			t.Fatalf("%d runs, then %d", len(runs), len(again))
		}
	})
}

// FuzzAnalyze runs the analysis on arbitrary series, with R's cost and the
// scale-free one, and the summary with Traini et al.'s rule: an error must name the bad value or say what is wrong,
// never a panic; otherwise segments must tile the series, changepoints must
// be increasing and inside it, and the class must be one of the four. The
// seeds hold NaN, infinities, zeros, huge, subnormal and constant values.
func FuzzAnalyze(f *testing.F) {
	seed := func(v ...float64) []byte {
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	f.Add(seed(3, 3, 3, 1, 1, 1, 1, 1), uint8(0))
	f.Add(seed(1, 1, 1, 1, 5, 5, 5, 5, 5), uint8(131))
	f.Add(seed(1, 2, math.NaN(), 3, 4), uint8(0))
	f.Add(seed(1, math.Inf(1), 2, 3, 4), uint8(128))
	f.Add(seed(1, 2, 3, math.Inf(-1), 4), uint8(0))
	f.Add(seed(0, 0, 0, 0, 0, 0, 0, 0), uint8(0))
	f.Add(seed(0, 0, 0, 0, 0, 0, 0, 0), uint8(128))
	f.Add(seed(1e300, 1e300, 1, 1, 1, 1), uint8(1))
	f.Add(seed(1e153, 1e153, 1e153, 1e153, 1e153, 1e153, 1, 1), uint8(129))
	f.Add(seed(math.MaxFloat64, 0, math.MaxFloat64, 0, 1, 2), uint8(130))
	f.Add(seed(5e-324, 5e-324, 1e-310, 1e-310, 5e-324, 1e-310), uint8(0))
	f.Add(seed(0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), uint8(0))
	f.Add(seed(1e-6, 1e-6, 1e-6, 1e-6, 3e-6, 3e-6, 3e-6, 3e-6), uint8(128))
	f.Fuzz(func(t *testing.T, raw []byte, steady uint8) { // steady's top bit: the scale-free cost
		var x []float64
		for i := 0; i+8 <= len(raw); i += 8 {
			x = append(x, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
		o := Options{Steady: int(steady & 0x7f), Cost: CostR, BootstrapResamples: 200}
		if steady&0x80 != 0 {
			o.Cost = CostScaleFree
		}
		a, err := Analyze(x, o)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "warmup: ") {
				t.Fatalf("error %q does not say where it comes from", msg)
			}
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
		if math.IsNaN(a.SteadyMean) || math.IsNaN(a.FinalMedian) {
			t.Fatalf("NaN in the analysis: %+v", a)
		}
		// The summary's statistics of the same values as two forks.
		var runs []Run
		for fork := range 2 {
			r := Run{Label: "fuzz", Fork: fork}
			for i, v := range x {
				r.Iterations = append(r.Iterations, Iteration{Index: i, Start: time.Duration(i), Duration: time.Duration(min(v, 1e9) * 1e9), Ops: 1})
			}
			runs = append(runs, r)
		}
		o.Traini = len(x) <= 64 // CROPS and the ratio bootstrap on short series
		if _, err := Summarize(runs, o); err != nil && !strings.HasPrefix(err.Error(), "warmup: ") {
			t.Fatalf("summary error %q does not say where it comes from", err)
		}
	})
}

// FuzzReadJSON feeds arbitrary text to the series.json reader: runs or an
// error that names the file, never a panic; what it returns writes back
// and reads again to as many runs.
func FuzzReadJSON(f *testing.F) {
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{synthRun("", 0, 6, map[int]int{2: 3, 4: 4}, 1)}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.String())
	f.Add(`[{"label": "x", "fork": 0, "iterations": [{"index": 0, "start_ns": 0, "duration_ns": -1}]}]`)
	f.Fuzz(func(t *testing.T, in string) {
		runs, err := ReadJSON(strings.NewReader(in), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, runs); err != nil {
			t.Fatal(err)
		}
		again, err := ReadJSON(&out, "again.json")
		if err != nil {
			t.Fatalf("re-reading our own JSON: %v", err)
		}
		if len(again) != len(runs) {
			t.Fatalf("%d runs, then %d", len(runs), len(again))
		}
	})
}

// TestReadersNameFileAndLine: the series readers point at the line of the
// offending value.
func TestReadersNameFileAndLine(t *testing.T) {
	for _, c := range []struct {
		read func(string) error
		in   string
		want string
	}{
		{func(s string) error { _, err := ReadJSON(strings.NewReader(s), "s.json"); return err },
			"[\n {\"label\": \"a\", \"fork\": 0, \"iterations\": [\n  {\"index\": 0,\n   \"duration_ns\": \"slow\"}]}]",
			"s.json:4: series JSON: run 1: json: cannot unmarshal string"},
		{func(s string) error { _, err := ReadJSON(strings.NewReader(s), "s.json"); return err },
			"[\n {\"label\": \"a\", \"fork\": 0, \"iterations\": [{\"index\": 0, \"duration_ns\": 5}]},\n {\"label\": \"b\", \"fork\": 0,\n  \"iterations\": []}]",
			"s.json:3: warmup: run \"b\" fork 0: no iterations"},
		{func(s string) error { _, err := ReadJSON(strings.NewReader(s), "s.json"); return err },
			"[\n {\"label\": \"a\", \"surprise\": 1}]", "s.json:2: series JSON: run 1: json: unknown field \"surprise\""},
		{func(s string) error { _, err := ReadJSON(strings.NewReader(s), "s.json"); return err },
			"[\n {\"label\": \"a\",", "s.json:2: the JSON ends early"},
		{func(s string) error { _, err := ReadCSV(strings.NewReader(s), "s.csv"); return err },
			"label,fork,index,start_ns,duration_ns,ops,bytes,ns_per_op,events\na,0,0,0,5,1,16,5,\na,0,1,5,x,1,16,5,\n",
			"s.csv:3: series CSV: column duration_ns: strconv.ParseInt"},
		{func(s string) error { _, err := ReadCSV(strings.NewReader(s), "s.csv"); return err },
			"label,fork,index,start_ns,duration_ns,ops,bytes,ns_per_op,events\na,0,0,0,5,1,16,5,\n\"b,0\n",
			"s.csv:3: series CSV: extraneous or missing \" in quoted-field"},
		{func(s string) error { _, err := ReadCSV(strings.NewReader(s), "s.csv"); return err },
			"label,fork,index,start_ns,duration_ns,ops,bytes,ns_per_op,events\na,0,0,0,5,1,16,5,\na,0,1,0,-5,1,16,5,\n",
			"s.csv:2: warmup: run \"a\" fork 0: iteration 1: negative duration"},
		{func(s string) error { _, err := ReadCSV(strings.NewReader(s), "s.csv"); return err },
			"", "s.csv:1: series CSV: empty, no header"},
	} {
		if err := c.read(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}
