package warmup

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateKrun = flag.Bool("update-krun", false, "rewrite testdata/krun/*.json and, with bzip2 installed, *.json.bz2")

// krunFixture builds a small Krun results object of our own making, as
// Krun lays it out: three keys of three process executions of 60
// one-second-scale iterations (a flat one, one that warms up at iteration
// 10, one that slows down at 30), two cores of counters, one failed
// execution's empty slot, and the error flag set.
func krunFixture() map[string]any {
	rng := rand.New(rand.NewPCG(7, 19))
	shape := map[string]func(i int) float64{
		"nbody:HotSpot:default-java":    func(int) float64 { return 0.500 },
		"fasta:HotSpot:default-java":    func(i int) float64 { return map[bool]float64{true: 0.900, false: 0.400}[i < 10] },
		"richards:HotSpot:default-java": func(i int) float64 { return map[bool]float64{true: 0.300, false: 0.360}[i < 30] },
	}
	wall, cycles, eta := map[string]any{}, map[string]any{}, map[string]any{}
	for key, f := range shape {
		var execs [][]float64
		var cores [][][]int64
		var etas []float64
		for range 3 {
			times := make([]float64, 60)
			c := [][]int64{make([]int64, 60), make([]int64, 60)}
			total := 0.0
			for i := range times {
				times[i] = math.Round(f(i)*(1+0.002*rng.NormFloat64())*1e6) / 1e6
				c[0][i], c[1][i] = int64(times[i]*3.1e9), int64(rng.IntN(1000))
				total += times[i]
			}
			execs, cores, etas = append(execs, times), append(cores, c), append(etas, total)
		}
		if key == "fasta:HotSpot:default-java" {
			execs, cores = append(execs, []float64{}), append(cores, [][]int64{})
			etas = append(etas, 0)
		}
		wall[key], cycles[key], eta[key] = execs, cores, etas
	}
	return map[string]any{
		"config": "# a config of our own for the test\nVMS = {}\n", "wallclock_times": wall,
		"core_cycle_counts": cycles, "aperf_counts": cycles, "mperf_counts": cycles,
		"eta_estimates": eta, "audit": map[string]string{"uname": "test"}, "error_flag": true,
	}
}

// TestKrunFixture reads the fixture, plain and bzip2-compressed, and
// classifies each key as its shape was built.
func TestKrunFixture(t *testing.T) {
	plain := filepath.Join("testdata", "krun", "three.json")
	if *updateKrun {
		b, err := json.MarshalIndent(krunFixture(), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(plain, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("bzip2", "-kf9", plain).CombinedOutput(); err != nil {
			t.Fatalf("bzip2: %v\n%s", err, out)
		}
	}
	want := map[string]Class{"nbody:HotSpot:default-java": Flat, "fasta:HotSpot:default-java": Warmup,
		"richards:HotSpot:default-java": Slowdown}
	for _, file := range []string{plain, plain + ".bz2"} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		k, err := ReadKrun(f, file)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(k.Series) != 3 || k.Empty != 1 || !k.ErrorFlag || !strings.Contains(k.Config, "VMS") {
			t.Fatalf("%s: %d keys, %d empty, error flag %v", file, len(k.Series), k.Empty, k.ErrorFlag)
		}
		s, err := Summarize(k.Runs(), KrunOptions)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range s.Labels {
			if l.Class != want[l.Label] || l.Forks != 3 {
				t.Errorf("%s: %s is %s over %d executions, want %s over 3", file, l.Label, l.Class, l.Forks, want[l.Label])
			}
		}
		var out bytes.Buffer
		if err := WriteKrunClasses(&out, k, s); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"fasta      HotSpot  default-java  3       warmup    3 warmup    10", "1 process executions without iterations", "error_flag is set"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: table lacks %q:\n%s", file, w, out.String())
			}
		}
	}
}

// TestKrunRoundTrip writes jitsim runs as Krun JSON, reads them back and
// finds the same iteration times and the same classification.
func TestKrunRoundTrip(t *testing.T) {
	var runs []Run
	for f := range 2 {
		for _, label := range []string{"", "-XX:TieredStopAtLevel=1", "java: "} {
			r := synthRun(label, f, 40, map[int]int{5: 3, 20: 4}, uint64(f+1))
			r.Scenario = "AESGCMBench"
			runs = append(runs, r)
		}
	}
	var b bytes.Buffer
	if err := WriteKrun(&b, runs, KrunExport{Command: "jitsim warmup AESGCMBench"}); err != nil {
		t.Fatal(err)
	}
	k, err := ReadKrun(&b, "round-trip.json")
	if err != nil {
		t.Fatal(err)
	}
	back := k.Runs()
	if len(back) != len(runs) {
		t.Fatalf("%d runs back, want %d", len(back), len(runs))
	}
	byKey := map[string][]Run{}
	for _, r := range back {
		byKey[r.Label] = append(byKey[r.Label], r)
	}
	perIter := func(rs []Run) []Run {
		out := make([]Run, len(rs))
		for i, r := range rs {
			out[i] = Run{Label: "x", Fork: r.Fork}
			for _, it := range r.Iterations {
				out[i].Iterations = append(out[i].Iterations, Iteration{Index: it.Index, Start: it.Start, Duration: it.Duration, Ops: 1})
			}
		}
		return out
	}
	for _, r := range runs {
		key := krunKey(r).String()
		got := byKey[key]
		if r.Fork >= len(got) {
			t.Fatalf("%s: no execution %d", key, r.Fork)
		}
		for i, it := range r.Iterations {
			if d := got[r.Fork].Iterations[i].Duration - it.Duration; d < -time.Nanosecond || d > time.Nanosecond {
				t.Fatalf("%s[%d][%d]: %v back, wrote %v", key, r.Fork, i, got[r.Fork].Iterations[i].Duration, it.Duration)
			}
		}
		a1, err := AnalyzeRun(perIter([]Run{r})[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		a2, err := AnalyzeRun(perIter(got[r.Fork : r.Fork+1])[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		if a1.Class != a2.Class || fmt.Sprint(a1.Changepoints) != fmt.Sprint(a2.Changepoints) {
			t.Errorf("%s fork %d: %s %v, read back %s %v", key, r.Fork, a1.Class, a1.Changepoints, a2.Class, a2.Changepoints)
		}
	}
	for _, want := range []string{"AESGCMBench:jitsim:default", "AESGCMBench:jitsim:-XX_TieredStopAtLevel=1", "AESGCMBench:java:default"} {
		if len(byKey[want]) != 2 {
			t.Errorf("key %s: %d executions, want 2 (keys %v)", want, len(byKey[want]), k.Series)
		}
	}
}

// TestKrunErrors: bad input names the file and the line of the offending
// value.
func TestKrunErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "f.json:1: the JSON ends early"},
		{"[1, 2]", "f.json:1: not a Krun results file"},
		{"{\"config\": \"x\"}", "f.json: not a Krun results file: no \"wallclock_times\""},
		{"{\n \"wallclock_times\": {\n  \"a:b:c\": [\n   [1.0,\n    -2.5]\n  ]\n }\n}", "f.json:5: wallclock_times: a:b:c[0][1]: -2.5 s is no iteration time"},
		{"{\n \"wallclock_times\": {\n  \"a:b:c\": [\n   [1.0,\n    \"x\"]]}}", "f.json:5: wallclock_times: a:b:c[0][1]: x is not a time"},
		{"{\n \"wallclock_times\": {\n  \"a-b\": [[1]]}}", "f.json:3: wallclock_times: key \"a-b\" is not bench:vm:variant"},
		{"{\n \"wallclock_times\": {\"a:b:c\": [[1]]},\n \"error_flag\": 3}", "f.json:3: error_flag: json: cannot unmarshal number"},
		{"{\"wallclock_times\": {\"a:b:c\": [[1]]}} {}", "f.json:1: text after the results object"},
		{"{\"wallclock_times\": {\"a:b:c\": [[]]}}", "f.json: no benchmark has an iteration"},
		{"{\"wallclock_times\": {\"a:b:c\": [[1],[2]]}, \"aperf_counts\": {\"a:b:c\": [[]]}}", "aperf_counts[\"a:b:c\"] has 1 process executions, wallclock_times 2"},
		{"{\n\"wallclock_times\": {\"a:b:c\": [[1]]},\n\"wallclock_times\": {}}", "f.json:3: \"wallclock_times\" appears twice"},
		{"BZh91AY&SYgarbage", "f.json: Krun results, bzip2: unexpected EOF"},
		{"{\"wallclock_times\": {\"a:b:c\": [[1, 2", "f.json:1: the JSON ends early"},
		{"{\n \"wallclock_times\": {\"a:b:c\": [[1]]},\n \"audit\": {\n  \"x\": ,}}", "f.json:4: audit: invalid character ','"},
		{"{\n \"wallclock_times\": {\"a:b:c\": [[1]]},\n \"aperf_counts\": {\n  \"a:b:c\": [[[1,\n \"2\"]]]}}", "f.json:5: aperf_counts: json: cannot unmarshal string"},
	} {
		_, err := ReadKrun(strings.NewReader(c.in), "f.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// FuzzReadKrun feeds arbitrary text to the Krun reader: it returns results
// or an error naming the file, never panics, and what it returns makes
// valid runs that export and read back.
func FuzzReadKrun(f *testing.F) {
	b, err := json.Marshal(krunFixture())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"wallclock_times": {"a:b:c": [[1, 0.5], []]}, "error_flag": false}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		k, err := ReadKrun(bytes.NewReader(in), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		runs := k.Runs()
		for _, r := range runs {
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
		}
		var out bytes.Buffer
		if err := WriteKrun(&out, runs, KrunExport{}); err != nil {
			if strings.Contains(err.Error(), "share the key") {
				return // keys that differ only in ':' and '_': refused with a clear error
			}
			t.Fatal(err)
		}
		if _, err := ReadKrun(&out, "again.json"); err != nil {
			t.Fatalf("re-reading our own export: %v", err)
		}
	})
}
