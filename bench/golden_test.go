package bench

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// syntheticRun is a run made up to reach every branch of the writers:
// parameters with different names (so some results lack some "Param: x"
// columns), values that need quoting in csv or in scsv, secondary metrics
// given out of label order and in other units, forks of unequal length,
// results with one or two samples (no error), an approximate score, and a
// sample-mode result with its operation histograms.
func syntheticRun() []Result {
	base := func(bench string, mode Mode, threads, forks int) Result {
		return Result{JMHVersion: "1.37", Benchmark: bench, Mode: mode, Threads: threads, Forks: forks,
			JVM: "jitsim", JVMArgs: []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseGHASHIntrinsics"},
			JDKVersion: "17.0.9", VMName: "jitsim 64-Bit Server VM model", VMVersion: "synthetic (CPU model icelake-server, model clock)",
			WarmupIterations: 2, WarmupTime: "5 ms", WarmupBatchSize: 1,
			MeasurementIterations: 3, MeasurementTime: "5 ms", MeasurementBatchSize: 1}
	}
	enc := base("org.example.jitsim.Codec.encode", Throughput, 4, 3)
	enc.Params = []Param{{"size", "1024"}, {"codec", "gzip, fast"}, {"label", `say "hi"`}}
	enc.Primary = Metric{Unit: "ops/ms", RawData: [][]float64{{510.25, 530.5, 525}, {498.75}, {560, 545.125}}}
	enc.Secondary = []NamedMetric{
		{Label: "·gc.count", Metric: Metric{Unit: "counts", RawData: [][]float64{{3}}}},
		{Label: "·gc.alloc.rate", Metric: Metric{Unit: "MB/sec", RawData: [][]float64{{812.5, 790}, {805.25}, {799, 801.5}}}},
	}

	dec := base("org.example.jitsim.Codec.decode", AverageTime, 1, 2)
	dec.Params = []Param{{"window", "64 KiB"}, {"codec", "zstd;level=3"}, {"size", "1024"}}
	dec.Primary = Metric{Unit: "us/op", RawData: [][]float64{{1.25, 1.5, 1.375}, {1.3}}}
	dec.Secondary = []NamedMetric{{Label: "·alloc", Metric: Metric{Unit: "us/op", RawData: [][]float64{{0.0002}, {0.0003}}}}}

	sha := base("org.example.jitsim.Digest.sha", SingleShotTime, 1, 2)
	sha.MeasurementIterations = 1
	sha.Primary = Metric{Unit: "ms/op", RawData: [][]float64{{12.5}, {13.75}}}

	h := [][][]Bin{
		{{{1.5, 40}, {1.75, 9}, {4.0, 1}}, {{1.5, 38}, {2.0, 12}}},
		{{{1.25, 5}, {1.5, 44}, {8.5, 1}}},
	}
	hash := base("org.example.jitsim.Digest.hash", SampleTime, 2, 2)
	hash.Params = []Param{{"size", "64"}}
	hash.Primary = Metric{Unit: "us/op", Histogram: h, RawData: IterationMeans(h)}

	return []Result{enc, dec, sha, hash}
}

// goldenDir holds the outputs of jitsim's own writers for syntheticRun;
// `go test ./bench -run TestFormatsGolden -update` rewrites them. The
// layouts they pin are checked against JMH 1.37's writers, independently,
// in format_facts_test.go.
const goldenDir = "testdata/formats"

// checkGolden compares got with goldenDir/name, or rewrites the file under
// -update. With tol > 0, numbers on a line may differ by that much,
// relative: JSON prints full doubles, whose last digits a different
// floating-point evaluation order (FMA on some architectures) may change.
func checkGolden(t *testing.T, name string, got []byte, tol float64) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bench -run %s -update to create it)", err, t.Name())
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.SplitAfter(string(got), "\n"), strings.SplitAfter(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl && !(tol > 0 && closeNumbers(gl, wl, tol)) {
			t.Fatalf("%s line %d:\ngot  %q\nwant %q\n(-update rewrites it)", path, i+1, gl, wl)
		}
	}
}

func TestFormatsGolden(t *testing.T) {
	rs := syntheticRun()
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer) error
		tol    float64
	}{
		{"run.json", func(b *bytes.Buffer) error { return WriteJSON(b, rs) }, 1e-12},
		{"run.text", func(b *bytes.Buffer) error { return WriteText(b, rs) }, 0},
		{"run.csv", func(b *bytes.Buffer) error { return WriteCSV(b, rs) }, 0},
		{"run.scsv", func(b *bytes.Buffer) error { return WriteSCSV(b, rs) }, 0},
		{"run.latex", func(b *bytes.Buffer) error { return WriteLaTeX(b, rs) }, 0},
		// The decimal-comma variants, tested though not offered.
		{"run-decimal-comma.csv", func(b *bytes.Buffer) error { return writeXSV(b, rs, ",", true) }, 0},
		{"run-decimal-comma.scsv", func(b *bytes.Buffer) error { return writeXSV(b, rs, ";", true) }, 0},
		{"run-decimal-comma.latex", func(b *bytes.Buffer) error { return writeLaTeX(b, rs, true) }, 0},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, b.Bytes(), tc.tol)
		})
	}
}

// The JSON golden reads back into the run it was written from, and the
// other formats written from what was read are the goldens again.
func TestGoldenJSONReadsBack(t *testing.T) {
	f, err := os.Open(filepath.Join(goldenDir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	rs := syntheticRun()
	if len(back) != len(rs) {
		t.Fatalf("read %d results, want %d", len(back), len(rs))
	}
	for i, r := range rs {
		want := r
		want.Params = want.sortedParams()
		want.Secondary = append([]NamedMetric(nil), r.Secondary...)
		sort.Slice(want.Secondary, func(i, j int) bool { return want.Secondary[i].Label < want.Secondary[j].Label })
		if !equalResult(back[i], want) {
			t.Errorf("result %d:\nread %+v\nwant %+v", i+1, back[i], want)
		}
	}
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer) error
	}{
		{"run.text", func(b *bytes.Buffer) error { return WriteText(b, back) }},
		{"run.csv", func(b *bytes.Buffer) error { return WriteCSV(b, back) }},
		{"run.latex", func(b *bytes.Buffer) error { return WriteLaTeX(b, back) }},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(goldenDir, tc.golden))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s written from the JSON read back:\n%s\nwant:\n%s", tc.golden, b.Bytes(), want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"text", "CSV", "scsv", "Json", "LATEX"} {
		f, err := ParseFormat(s)
		if err != nil || !strings.EqualFold(string(f), s) {
			t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("tex"); err == nil {
		t.Error("ParseFormat(\"tex\"): no error")
	}
	if got := FormatLaTeX.DefaultFile(); got != "jmh-result.latex" {
		t.Errorf("DefaultFile = %q", got)
	}
}

// closeNumbers reports whether two lines are the same but for numbers
// within tol of each other, relative.
func closeNumbers(a, b string, tol float64) bool {
	if number.ReplaceAllString(a, "#") != number.ReplaceAllString(b, "#") {
		return false
	}
	na, nb := number.FindAllString(a, -1), number.FindAllString(b, -1)
	for i := range na {
		x, _ := strconv.ParseFloat(na[i], 64)
		y, _ := strconv.ParseFloat(nb[i], 64)
		if math.Abs(x-y) > tol*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}
