package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// docResult is the AESGCMBench run of hotspot.md §5.5 (JMH's documented
// console, table and JSON output for the same data).
func docResult() Result {
	return Result{
		JMHVersion: "1.37", Benchmark: "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt",
		Mode: Throughput, Threads: 1, Forks: 2, JVM: "/usr/lib/jvm/jdk-21/bin/java",
		JVMArgs: []string{"-XX:+UnlockDiagnosticVMOptions"}, JDKVersion: "21.0.2",
		VMName: "OpenJDK 64-Bit Server VM", VMVersion: "21.0.2+13",
		WarmupIterations: 5, WarmupTime: "10 s", WarmupBatchSize: 1,
		MeasurementIterations: 5, MeasurementTime: "10 s", MeasurementBatchSize: 1,
		Params: []Param{{"provider", ""}, {"keyLength", "128"}, {"dataSize", "1024"}},
		Primary: Metric{Unit: "ops/s", RawData: [][]float64{
			{121900.5, 123800.2, 124100.9, 122950.3, 123500.0},
			{124200.4, 123300.7, 122800.1, 124600.8, 123400.6},
		}},
	}
}

func TestStatsMatchJMHDocumentedRun(t *testing.T) {
	st := docResult().Primary.Stats()
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"score", st.Score, 123455.45, 1e-9},
		{"error", st.Error, 1185.489, 1e-3},
		{"stdev", st.Stdev, 784.128, 1e-3},
		{"ci low", st.ConfLow, 122269.961, 1e-3},
		{"ci high", st.ConfHigh, 124640.939, 1e-3},
		{"min", st.Min, 121900.5, 0},
		{"max", st.Max, 124600.8, 0},
		{"t", st.TQuantile, 4.781, 5e-4},
		{"p0", st.PercentileValues[0], 121900.5, 0},
		{"p50", st.PercentileValues[1], 123450.3, 1e-9},
		{"p90", st.PercentileValues[2], 124560.76, 1e-9},
		{"p95", st.PercentileValues[3], 124600.8, 0},
		{"p100", st.PercentileValues[9], 124600.8, 0},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
	if st.N != 10 {
		t.Errorf("N = %d, want 10", st.N)
	}
}

func TestStatsFewSamples(t *testing.T) {
	for _, raw := range [][][]float64{{{5}}, {{5, 6}}, {}} {
		st := Metric{Unit: "ops/s", RawData: raw}.Stats()
		if !math.IsNaN(st.Error) {
			t.Errorf("%v: error %v, want NaN (JMH: N ≤ 2)", raw, st.Error)
		}
	}
	st := Metric{RawData: [][]float64{{1, 2, 3}}}.Stats()
	if math.IsNaN(st.Error) || st.Error <= 0 {
		t.Errorf("3 samples: error %v, want a positive number", st.Error)
	}
}

func TestTextTableMatchesJMHLayout(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, []Result{docResult()}); err != nil {
		t.Fatal(err)
	}
	// hotspot.md §5.5, JMH's TextResultFormat for this run. The documented
	// row has one blank too many before "thrpt" (it would not right-align
	// under "Mode"); TextResultFormat pads the empty provider value to the
	// column width, 12, so the row below is what JMH prints.
	want := "Benchmark            (dataSize)  (keyLength)  (provider)   Mode  Cnt       Score      Error  Units\n" +
		"AESGCMBench.encrypt        1024          128              thrpt   10  123455.450 ± 1185.489  ops/s\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestTextTableSecondaryApproximateAndSingle(t *testing.T) {
	r := Result{Benchmark: "a.b.X.m", Mode: AverageTime, Primary: Metric{Unit: "us/op", RawData: [][]float64{{0.0001}}},
		Secondary: []NamedMetric{{Label: "gc", Metric: Metric{Unit: "MB/sec", RawData: [][]float64{{10, 12, 14}}}}}}
	s := Result{Benchmark: "a.c.Y.m", Mode: SingleShotTime, Primary: Metric{Unit: "ms/op", RawData: [][]float64{{3, 3.5, 4}}}}
	var b bytes.Buffer
	if err := WriteText(&b, []Result{r, s}); err != nil {
		t.Fatal(err)
	}
	// Names: the common prefix "a" is cut to its first letter because
	// a.b and a.c part early (ClassUtils.denseClassNames). Errors:
	// t(0.9995, 2) = 31.599, stdev 2 and 0.5 over √3.
	want := "Benchmark   Mode  Cnt   Score    Error   Units\n" +
		"a.b.X.m     avgt       ≈ 10⁻⁴            us/op\n" +
		"a.b.X.m:gc  avgt    3  12.000 ± 36.487  MB/sec\n" +
		"a.c.Y.m       ss    3   3.500 ±  9.122   ms/op\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestDenseNames(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"org.openjdk.bench.AESGCMBench.encrypt"}, []string{"AESGCMBench.encrypt"}},
		{[]string{"org.x.A.m", "org.x.B.m"}, []string{"A.m", "B.m"}},
		{[]string{"org.x.A.m", "org.y.B.m"}, []string{"o.x.A.m", "o.y.B.m"}},
		{[]string{"A.m"}, []string{"A.m"}},
	}
	for _, tc := range tests {
		got := DenseNames(tc.in)
		for i, in := range tc.in {
			if got[in] != tc.want[i] {
				t.Errorf("DenseNames(%v)[%q] = %q, want %q", tc.in, in, got[in], tc.want[i])
			}
		}
	}
}

func TestJavaDouble(t *testing.T) {
	tests := map[float64]string{
		123455.45: "123455.45", 1: "1.0", 0: "0.0", 124600.8: "124600.8", 99.9999: "99.9999",
		1e7: "1.0E7", 12345678.9: "1.23456789E7", 0.001: "0.001", 0.0004: "4.0E-4", -2.5: "-2.5", 1e-10: "1.0E-10",
	}
	for v, want := range tests {
		if got := JavaDouble(v); got != want {
			t.Errorf("JavaDouble(%v) = %q, want %q", v, got, want)
		}
	}
}

// shape replaces every number in a JMH JSON text by '#', leaving the layout:
// keys, order, nesting, indentation, commas and line breaks.
var number = regexp.MustCompile(`-?\d+(\.\d+)?(E-?\d+)?`)

func shape(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, " : ")
		if ok {
			out = append(out, number.ReplaceAllStringFunc(k, func(m string) string {
				if strings.Contains(k, `"`) {
					return m // a percentile key is part of the schema
				}
				return "#"
			})+" : "+number.ReplaceAllString(v, "#"))
			continue
		}
		out = append(out, number.ReplaceAllString(l, "#"))
	}
	return strings.Join(out, "\n")
}

func numbers(s string) []float64 {
	var out []float64
	for _, l := range strings.Split(s, "\n") {
		_, v, ok := strings.Cut(l, " : ")
		if !ok {
			v = l
		}
		if strings.HasPrefix(strings.TrimSpace(v), `"`) {
			continue
		}
		for _, m := range number.FindAllString(v, -1) {
			f, _ := strconv.ParseFloat(m, 64)
			out = append(out, f)
		}
	}
	return out
}

func TestJSONMatchesJMHSchema(t *testing.T) {
	want, err := os.ReadFile("testdata/jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Result{docResult()}); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b.Bytes()) {
		t.Fatalf("output is not JSON:\n%s", b.String())
	}
	if gs, ws := shape(b.String()), shape(string(want)); gs != ws {
		t.Fatalf("layout differs from testdata/jmh-result.json\ngot:\n%s\nwant:\n%s", gs, ws)
	}
	// The hand-written file rounds the derived numbers to 3 decimals, as
	// JMH's documentation does; the writer prints them in full.
	gn, wn := numbers(b.String()), numbers(string(want))
	if len(gn) != len(wn) {
		t.Fatalf("%d numbers, want %d", len(gn), len(wn))
	}
	for i := range gn {
		if math.Abs(gn[i]-wn[i]) > 5e-4 {
			t.Errorf("number %d = %v, want %v", i, gn[i], wn[i])
		}
	}
}

func TestJSONReadsJMHFileAndRoundTrips(t *testing.T) {
	f, err := os.Open("testdata/jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	want := docResult()
	want.Params = want.sortedParams()
	if len(got) != 1 || !equalResult(got[0], want) {
		t.Fatalf("read %+v\nwant %+v", got, want)
	}
	var b1, b2 bytes.Buffer
	if err := WriteJSON(&b1, got); err != nil {
		t.Fatal(err)
	}
	again, err := ReadJSON(&b1, "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	WriteJSON(&b2, again)
	var b3 bytes.Buffer
	WriteJSON(&b3, got)
	if b2.String() != b3.String() {
		t.Errorf("write→read→write is not stable")
	}
}

func equalResult(a, b Result) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func TestJSONNonFiniteAndSecondary(t *testing.T) {
	r := Result{JMHVersion: "1.37", Benchmark: "x.Y.z", Mode: AverageTime, Threads: 2, Forks: 1,
		Primary:   Metric{Unit: "us/op", RawData: [][]float64{{1.5, 2.5}}},
		Secondary: []NamedMetric{{Label: "·gc.alloc.rate", Metric: Metric{Unit: "MB/sec", RawData: [][]float64{{1, 2, 3}}}}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	for _, want := range []string{`"scoreError" : "NaN",`, "\"scoreConfidence\" : [\n                \"NaN\",\n                \"NaN\"\n            ],",
		`"·gc.alloc.rate" : {`, `"secondaryMetrics" : {`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, `"params"`) {
		t.Errorf("params written for a benchmark without parameters")
	}
	back, err := ReadJSON(strings.NewReader(s), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	if !equalResult(back[0], r) {
		t.Errorf("round trip: %+v, want %+v", back[0], r)
	}
}

func TestReadJSONErrors(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"not json":     {"{", "r.json:1: JMH JSON: want an array of results"},
		"unknown key":  {"[\n {\"benchmark\":\"a\",\n  \"mode\":\"thrpt\", \"bogus\":1}]", `r.json:3: JMH JSON result 1: json: unknown field "bogus"`},
		"bad mode":     {"[{\"benchmark\":\"a\",\"primaryMetric\":{\"scoreUnit\":\"ops/s\"}},\n {\"benchmark\":\"b\",\"mode\":\"fast\",\"primaryMetric\":{\"scoreUnit\":\"ops/s\"}}]", "r.json:1: JMH JSON result 1 (a): unknown benchmark mode"},
		"bad number":   {"[{\"benchmark\":\"a\",\"mode\":\"thrpt\",\"primaryMetric\":{\"scoreUnit\":\"ops/s\",\n \"rawData\":[[1,\n \"x\"]]}}]", "r.json:3: JMH JSON result 1: "},
		"no benchmark": {"[\n\n {\"mode\":\"thrpt\",\"primaryMetric\":{\"scoreUnit\":\"ops/s\"}}]", "r.json:3: JMH JSON result 1: bench: result without a benchmark name"},
		"trailing":     {"[] []", "r.json:1: text after the array of results"},
	} {
		if _, err := ReadJSON(strings.NewReader(c.in), "r.json"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

func TestBenchstatLinesParse(t *testing.T) {
	thr := docResult()
	avg := Result{Benchmark: "org.openjdk.bench.javax.crypto.full.AESGCMBench.decrypt", Mode: AverageTime, Threads: 2,
		MeasurementBatchSize: 4, Params: []Param{{"provider", "Sun JCE"}},
		Primary: Metric{Unit: "us/op", RawData: [][]float64{{8.1, 8.3}, {8.2}}}}
	var b bytes.Buffer
	err := WriteBenchstat(&b, []Result{thr, avg}, map[string]string{"goos": "linux", "cpu": "Intel Xeon"},
		map[string]int64{thr.Benchmark: 1024}, false)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(b.Bytes()), "bench.txt")
	var n int
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			n++
			name := string(rec.Name.Full())
			ns, ok := rec.Value("sec/op")
			if !ok {
				t.Fatalf("%s: no sec/op", name)
			}
			switch {
			case strings.HasPrefix(name, "AESGCMBench.encrypt/dataSize=1024/keyLength=128/provider=-1"):
				if rec.Iters != 1 {
					t.Errorf("%s: iters %d", name, rec.Iters)
				}
				mbs, ok := rec.Value("B/s")
				if !ok || math.Abs(mbs/(1024/ns)-1) > 1e-3 {
					t.Errorf("%s: B/s %v for %v s/op", name, mbs, ns)
				}
			case name == "AESGCMBench.decrypt/provider=Sun_JCE-2":
				if rec.Iters != 4 || ns < 8e-6 || ns > 8.4e-6 {
					t.Errorf("%s: iters %d, %v s/op", name, rec.Iters, ns)
				}
			default:
				t.Errorf("unexpected name %q", name)
			}
			if got := string(rec.GetConfig("cpu")); got != "Intel Xeon" {
				t.Errorf("cpu config %q", got)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		}
	}
	if n != 13 {
		t.Errorf("%d results parsed, want 10 + 3", n)
	}
	// 1e9/121900.5 ns/op for the first sample.
	if !strings.Contains(b.String(), "BenchmarkAESGCMBench.encrypt/dataSize=1024/keyLength=128/provider=-1 \t1\t8203."+"") {
		t.Errorf("first line not as expected:\n%s", b.String())
	}
}

func TestBenchstatRejectsBadUnits(t *testing.T) {
	r := docResult()
	r.Primary.Unit = "widgets"
	if err := WriteBenchstat(&bytes.Buffer{}, []Result{r}, nil, nil, false); err == nil {
		t.Error("no error for a throughput unit that is not ops/<unit>")
	}
	if err := WriteBenchstat(&bytes.Buffer{}, nil, map[string]string{"Bad Key": "x"}, nil, false); err == nil {
		t.Error("no error for a config key with a blank")
	}
}

func TestParseOptions(t *testing.T) {
	def := DefaultOptions()
	tests := []struct {
		name  string
		args  []string
		check func(o Options) bool
		rest  []string
	}{
		{"defaults", nil, func(o Options) bool {
			return o.Forks == 5 && o.WarmupIterations == 5 && o.MeasurementIterations == 5 && o.Threads == 1 &&
				o.WarmupTime == 10*time.Second && o.MeasurementTime == 10*time.Second && o.Modes[0] == Throughput &&
				o.ResultFormat == "" && o.ResultFile == ""
		}, nil},
		{"counts and times", []string{"-wi", "3", "-i=7", "-f", "1", "-t", "4", "-w", "500ms", "-r", "2 s"}, func(o Options) bool {
			return o.WarmupIterations == 3 && o.MeasurementIterations == 7 && o.Forks == 1 && o.Threads == 4 &&
				o.WarmupTime == 500*time.Millisecond && o.MeasurementTime == 2*time.Second
		}, nil},
		{"modes", []string{"-bm", "avgt,Throughput"}, func(o Options) bool {
			return len(o.Modes) == 2 && o.Modes[0] == AverageTime && o.Modes[1] == Throughput
		}, nil},
		{"all modes", []string{"-bm", "all"}, func(o Options) bool { return len(o.Modes) == 4 }, nil},
		{"params", []string{"-p", "dataSize=1024,8192", "-p", "provider="}, func(o Options) bool {
			return len(o.Params) == 2 && o.Params[0].Name == "dataSize" && len(o.Params[0].Values) == 2 &&
				o.Params[0].Values[1] == "8192" && o.Params[1].Values[0] == ""
		}, nil},
		{"json result", []string{"-rf", "json"}, func(o Options) bool { return o.ResultFormat == "json" && o.ResultFile == "jmh-result.json" }, nil},
		{"result file", []string{"-rf", "JSON", "-rff", "out.json"}, func(o Options) bool { return o.ResultFormat == "json" && o.ResultFile == "out.json" }, nil},
		{"file alone: JMH's default, csv", []string{"-rff", "r.json"}, func(o Options) bool { return o.ResultFormat == FormatCSV }, nil},
		{"scsv", []string{"-rf", "scsv"}, func(o Options) bool { return o.ResultFormat == FormatSCSV && o.ResultFile == "jmh-result.scsv" }, nil},
		{"latex", []string{"-rf=LaTeX"}, func(o Options) bool { return o.ResultFormat == FormatLaTeX && o.ResultFile == "jmh-result.latex" }, nil},
		{"vm options pass through", []string{"-f", "2", "-XX:-UseAESIntrinsics", "-Dmode=GCM", "--jdk=17", "AESGCMBench"},
			func(o Options) bool { return o.Forks == 2 }, []string{"-XX:-UseAESIntrinsics", "-Dmode=GCM", "--jdk=17", "AESGCMBench"}},
		{"jvm args", []string{"-jvmArgs", "-Xint -XX:+PrintCompilation"}, func(o Options) bool {
			return len(o.JVMArgs) == 2 && o.JVMArgs[0] == "-Xint"
		}, nil},
		{"time unit", []string{"-tu", "ns"}, func(o Options) bool { return o.TimeUnit == "ns" }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, rest, err := ParseOptions(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(o) {
				t.Errorf("options %+v (defaults %+v)", o, def)
			}
			if strings.Join(rest, "|") != strings.Join(tc.rest, "|") {
				t.Errorf("rest %q, want %q", rest, tc.rest)
			}
		})
	}
}

func TestParseOptionsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // the error must name the option
	}{
		{[]string{"-wi"}, "-wi needs a value"},
		{[]string{"-wi", "x"}, "-wi"},
		{[]string{"-i", "0"}, "-i"},
		{[]string{"-f", "-1"}, "-f"},
		{[]string{"-t", "two"}, "-t"},
		{[]string{"-w", "10"}, "-w"},
		{[]string{"-r", "5 fortnights"}, "-r"},
		{[]string{"-bm", "fast"}, "-bm"},
		{[]string{"-p", "=1"}, "-p"},
		{[]string{"-rff", ""}, "-rff"},
		{[]string{"-rf", "yaml"}, "-rf"},
		{[]string{"-tu", "weeks"}, "-tu"},
		{[]string{"-prof", "gc"}, "-prof"},
	}
	for _, tc := range tests {
		_, _, err := ParseOptions(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q) error %v, want one naming %q", tc.args, err, tc.want)
		}
	}
}

func TestJMHTime(t *testing.T) {
	for d, want := range map[time.Duration]string{10 * time.Second: "10 s", 500 * time.Millisecond: "500 ms",
		time.Minute: "1 min", 1500 * time.Microsecond: "1500 us", 7: "7 ns"} {
		if got := JMHTime(d); got != want {
			t.Errorf("JMHTime(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestResultBlockMatchesJMH(t *testing.T) {
	var b bytes.Buffer
	if err := WriteResultBlock(&b, docResult()); err != nil {
		t.Fatal(err)
	}
	// hotspot.md §5.5, verbatim.
	want := `Result "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt":
  123455.450 ±(99.9%) 1185.489 ops/s [Average]
  (min, avg, max) = (121900.500, 123455.450, 124600.800), stdev = 784.128
  CI (99.9%): [122269.961, 124640.939] (assumes normal distribution)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	WriteResultBlock(&b, Result{Benchmark: "x.Y.z", Mode: SingleShotTime, Primary: Metric{Unit: "ms/op", RawData: [][]float64{{2}}}})
	if want := "Result \"x.Y.z\":\n  2.000 ms/op\n"; b.String() != want {
		t.Errorf("single sample: %q, want %q", b.String(), want)
	}
}

func TestForkHeaderAndIterationLines(t *testing.T) {
	var b bytes.Buffer
	if err := WriteForkHeader(&b, docResult(), 1); err != nil {
		t.Fatal(err)
	}
	// hotspot.md §5.5 (the "# Run progress" line is the harness's).
	want := `# JMH version: 1.37
# VM version: JDK 21.0.2, OpenJDK 64-Bit Server VM, 21.0.2+13
# VM options: -XX:+UnlockDiagnosticVMOptions
# Warmup: 5 iterations, 10 s each
# Measurement: 5 iterations, 10 s each
# Threads: 1 thread, will synchronize iterations
# Benchmark mode: Throughput, ops/time
# Benchmark: org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt
# Parameters: (dataSize = 1024, keyLength = 128, provider = )

# Fork: 1 of 2
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	if got, want := IterationLine(true, 1, 98765.432, "ops/s"), "# Warmup Iteration   1: 98765.432 ops/s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := IterationLine(false, 12, 121900.5, "ops/s"), "Iteration  12: 121900.500 ops/s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestJSONRefusesSampleMode(t *testing.T) {
	r := docResult()
	r.Mode = SampleTime
	if err := WriteJSON(&bytes.Buffer{}, []Result{r}); err == nil || !strings.Contains(err.Error(), "sample") {
		t.Errorf("error %v, want one about sample mode", err)
	}
}
