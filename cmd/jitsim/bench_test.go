package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/jitsim/jitsim/bench"
)

// runBenchCLI runs `jitsim bench args…` and returns stdout and stderr.
func runBenchCLI(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if st := run(append([]string{"bench"}, args...), strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim bench %s: status %d\nstderr: %s", strings.Join(args, " "), st, errb.String())
	}
	return out.String(), errb.String()
}

// jsonShape lists a JSON document's object keys as paths, in order,
// descending into the first element of arrays only and not into "params"
// (whose keys are the benchmark's) or "scorePercentiles" (checked by bench).
func jsonShape(t *testing.T, data []byte) []string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var keys []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			names := make([]string, 0, len(x))
			for k := range x {
				names = append(names, k)
			}
			slices.Sort(names)
			for _, k := range names {
				keys = append(keys, path+"."+k)
				if k != "params" && k != "scorePercentiles" && k != "secondaryMetrics" {
					walk(path+"."+k, x[k])
				}
			}
		case []any:
			if len(x) > 0 {
				walk(path+"[]", x[0])
			}
		}
	}
	walk("", v)
	return keys
}

// TestBenchJSONAndBenchstat runs AESGCMBench through the harness with tiny
// iterations: the -rf json file has the key layout of bench's JMH sample
// (testdata/jmh-result.json, JMH 1.37's) and reads back through
// bench.ReadJSON with one score per measurement iteration and fork; the
// console has JMH's table; --format=benchstat lines parse with benchfmt.
func TestBenchJSONAndBenchstat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "result.json")
	common := []string{"-f", "2", "-wi", "1", "-i", "3", "-w", "20ms", "-r", "20ms", "-p", "dataSize=1024", "-p", "op=encrypt,decrypt", "--jdk=17"}
	stdout, _ := runBenchCLI(t, append(slices.Clone(common), "-bm", "avgt", "-rf", "json", "-rff", file, "AESGCMBench")...)
	for _, want := range []string{"# Fork: 2 of 2", "Iteration   3: ", "Benchmark            (dataSize)     (op)  Mode  Cnt", "AESGCMBench.encrypt        1024  encrypt  avgt    6"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("console lacks %q:\n%s", want, stdout)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sample, err := os.ReadFile(filepath.Join("..", "..", "bench", "testdata", "jmh-result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if gs, ws := jsonShape(t, got), jsonShape(t, sample); !slices.Equal(gs, ws) {
		t.Errorf("JSON keys differ from JMH's sample\ngot:  %v\nwant: %v", gs, ws)
	}
	results, err := bench.ReadJSON(bytes.NewReader(got), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want 2 (op=encrypt, op=decrypt)", len(results))
	}
	for _, r := range results {
		if r.Mode != bench.AverageTime || r.Primary.Unit != "us/op" || len(r.Primary.RawData) != 2 || len(r.Primary.RawData[0]) != 3 {
			t.Errorf("%s: mode %s unit %s raw %v", r.Benchmark, r.Mode, r.Primary.Unit, r.Primary.RawData)
		}
		for _, f := range r.Primary.RawData {
			for _, s := range f {
				if !(s > 0) {
					t.Errorf("%s: score %v", r.Benchmark, s)
				}
			}
		}
	}

	lines, console := runBenchCLI(t, append(slices.Clone(common), "-bm", "thrpt", "--format=benchstat", "AESGCMBench")...)
	if !strings.Contains(console, "Result \"org.openjdk.bench.javax.crypto.full.AESGCMBench.decrypt\":") {
		t.Errorf("JMH console output not on stderr with --format=benchstat:\n%s", console)
	}
	rd := benchfmt.NewReader(strings.NewReader(lines), "bench.txt")
	names := map[string]int{}
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.Result:
			sec, ok := rec.Value("sec/op")
			bps, ok2 := rec.Value("B/s")
			if !ok || !ok2 || !(sec > 0) || bps <= 0 || string(rec.GetConfig("cpu")) != "host" {
				t.Errorf("line %q: sec/op %v B/s %v cpu %q", rec.Name.Full(), sec, bps, rec.GetConfig("cpu"))
			}
			names[string(rec.Name.Full())]++
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	want := map[string]int{"AESGCMBench.encrypt/dataSize=1024/op=encrypt-1": 6, "AESGCMBench.decrypt/dataSize=1024/op=decrypt-1": 6}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("benchstat results %v, want %v\n%s", names, want, lines)
	}
}

// TestBenchErrors checks that bad command lines are refused with a message
// naming the culprit.
func TestBenchErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"TestAESMain"}, "not a jitsim benchmark scenario"},
		{[]string{"-p", "colour=red", "AESGCMBench"}, "has no parameter \"colour\""},
		{[]string{"-bm", "random", "AESGCMBench"}, "option -bm"},
		{[]string{"-wi", "x", "AESGCMBench"}, "option -wi"},
		{[]string{"--format=csv", "AESGCMBench"}, "--format"},
		{[]string{"--clock=virtual", "AESGCMBench"}, "--clock=virtual"},
		{[]string{"--profile=p.json", "AESGCMBench"}, "add --clock=model"},
		{[]string{"--clock=model", "--profile=/nonexistent/p.json", "AESGCMBench"}, "p.json"},
		{[]string{"--cpu=nosuchcpu", "AESGCMBench"}, "--cpu"},
		{[]string{"-rf", "yaml", "AESGCMBench"}, "option -rf"},
		{[]string{"AESGCMBench", "5"}, "arguments after the benchmark name"},
		{[]string{"-XX:+NoSuchFlag", "AESGCMBench"}, "NoSuchFlag"},
		{nil, "no benchmark given"},
		{[]string{"--clock=model", "-Dthreads=2", "AESGCMBench"}, "-Dthreads=2: bench runs -t threads (now 1); give -t 2"},
		{[]string{"--clock=model", "-Dthreads=3", "-t", "2", "AESGCMBench"}, "give -t 3 instead"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			st := run(append([]string{"bench"}, tc.args...), strings.NewReader(""), &out, &errb, noEnv)
			if st == 0 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want an error containing %q", st, errb.String(), tc.want)
			}
		})
	}
}

// TestBenchThreadsProperty: -Dthreads equal to -t is the same run as -t alone (the
// scenario and bench agree on the thread count, scored over both threads).
func TestBenchThreadsProperty(t *testing.T) {
	args := []string{"--clock=model", "--cpu=icelake-server", "-f", "1", "-wi", "1", "-w", "2ms", "-i", "1", "-r", "2ms", "-t", "2", "-p", "dataSize=1024", "AESGCMBench"}
	plain, _ := runBenchCLI(t, args...)
	with, _ := runBenchCLI(t, append([]string{"-Dthreads=2"}, args...)...)
	// The header names the VM options, as JMH does; the rest must be the same, but for the
	// run's wall-clock total (a loaded machine takes more than a second now and then).
	with = strings.Replace(with, "# VM options: -Dthreads=2\n", "# VM options: <none>\n", 1)
	total := regexp.MustCompile(`(?m)^# Run complete\. Total time: .*$`)
	plain, with = total.ReplaceAllString(plain, "# Run complete."), total.ReplaceAllString(with, "# Run complete.")
	if plain != with || !strings.Contains(plain, "AESGCMBench.encrypt") {
		t.Errorf("-t 2 alone:\n%s\nwith -Dthreads=2:\n%s", plain, with)
	}
}

// TestBenchModelClockIsExact runs bench on the model clock with a CPU model
// of another architecture: both forks give the same scores, a second run
// gives the same file, and the benchstat lines say assume=exact.
func TestBenchModelClockIsExact(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--clock=model", "--cpu=neoverse-n1", "--jdk=17", "-f", "2", "-wi", "1", "-i", "3", "-w", "2ms", "-r", "2ms",
		"-bm", "avgt", "-p", "dataSize=1024", "AESGCMBench"}
	var files [2][]byte
	for i := range files {
		file := filepath.Join(dir, fmt.Sprintf("r%d.json", i))
		runBenchCLI(t, append([]string{"-rf", "json", "-rff", file}, common...)...)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Errorf("two model-clock runs wrote different results:\n%s\n%s", files[0], files[1])
	}
	rs, err := bench.ReadJSON(bytes.NewReader(files[0]), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	raw := rs[0].Primary.RawData
	if len(raw) != 2 || !slices.Equal(raw[0], raw[1]) || !(raw[0][0] > 0) {
		t.Errorf("forks disagree on the model clock: %v", raw)
	}
	if !strings.Contains(rs[0].VMVersion, "neoverse-n1, model clock") {
		t.Errorf("vmVersion %q does not name the model clock", rs[0].VMVersion)
	}

	lines, _ := runBenchCLI(t, append([]string{"--format=benchstat"}, common...)...)
	rd := benchfmt.NewReader(strings.NewReader(lines), "bench.txt")
	assumed := map[string]string{}
	for rd.Scan() {
		if u, ok := rd.Result().(*benchfmt.UnitMetadata); ok {
			assumed[u.OrigUnit] = u.Value
		}
	}
	if assumed["ns/op"] != "exact" || assumed["MB/s"] != "exact" {
		t.Errorf("unit metadata %v, want ns/op and MB/s assume=exact\n%s", assumed, lines)
	}
}

// TestBenchResultFormats writes each -rf format of one model-clock run.
func TestBenchResultFormats(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ rf, want string }{
		{"csv", `"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: dataSize"` + "\r\n" +
			`"org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt","avgt",1,3,`},
		{"scsv", `"Benchmark";"Mode";"Threads";"Samples";"Score";"Score Error (99.9%)";"Unit";"Param: dataSize"` + "\r\n" +
			`"org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt";"avgt";1;3;`},
		{"latex", `\begin{tabular}{r|l|rl}` + "\n" + ` \multicolumn{1}{c|}{\texttt{Benchmark}} & \texttt{dataSize} & \multicolumn{2}{c}{\texttt{Score, us/op}} \\`},
		{"text", "Benchmark            (dataSize)  Mode  Cnt"},
	} {
		t.Run(f.rf, func(t *testing.T) {
			file := filepath.Join(dir, "r."+f.rf)
			stdout, _ := runBenchCLI(t, "--clock=model", "--cpu=icelake-server", "-f", "1", "-wi", "0", "-i", "3", "-r", "1ms",
				"-bm", "avgt", "-p", "dataSize=1024", "-rf", f.rf, "-rff", file, "AESGCMBench")
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(b), f.want) {
				t.Errorf("%s file:\n%s\nwant it to start with:\n%s", f.rf, b, f.want)
			}
			if !strings.Contains(stdout, "Benchmark result is saved to "+file) {
				t.Errorf("console does not name the file:\n%s", stdout)
			}
		})
	}
}

// TestBenchSampleMode runs -bm sample on the model clock on two threads:
// every operation is a sample, the JSON holds JMH's rawDataHistogram, and
// the table and console have the percentiles.
func TestBenchSampleMode(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s.json")
	stdout, _ := runBenchCLI(t, "--clock=model", "--cpu=icelake-server", "-f", "1", "-wi", "1", "-i", "2", "-w", "2ms", "-r", "3ms",
		"-t", "2", "-bm", "sample", "-p", "dataSize=1024", "-rf", "json", "-rff", file, "AESGCMBench")
	for _, want := range []string{"Iteration   2: ", "                 p0.9999: ", "  Percentiles, us/op:\n      p(0.0000) = ",
		"AESGCMBench.encrypt:p0.50          1024  sample  "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("console lacks %q:\n%s", want, stdout)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"rawDataHistogram" : [`) {
		t.Fatalf("no rawDataHistogram:\n%s", b)
	}
	rs, err := bench.ReadJSON(bytes.NewReader(b), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Mode != bench.SampleTime || len(r.Primary.Histogram) != 1 || len(r.Primary.Histogram[0]) != 2 {
		t.Fatalf("mode %s, histogram %v", r.Mode, r.Primary.Histogram)
	}
	var ops int64
	for _, it := range r.Primary.Histogram[0] {
		for _, bin := range it {
			ops += bin.Count
		}
	}
	if st := r.Primary.Stats(); int64(st.N) != ops || ops < 4 || !(st.Score > 0) {
		t.Errorf("%d operations sampled, N %d, score %v", ops, st.N, st.Score)
	}
}

// TestBenchShortIterationWarning: iterations shorter than one operation on
// the model clock get the warning, once, naming -r; a run with enough time
// gets none.
func TestBenchShortIterationWarning(t *testing.T) {
	args := []string{"--clock=model", "--cpu=icelake-server", "-f", "1", "-wi", "3", "-w", "5ms", "-i", "3", "-bm", "avgt", "-p", "dataSize=1024,2048", "AESGCMBench"}
	_, stderr := runBenchCLI(t, append([]string{"-r", "100us"}, args...)...)
	if strings.Count(stderr, "warning: the iterations are too short") != 1 || !strings.Contains(stderr, "Raise -r (the time per measurement iteration, now 100 us).") ||
		!strings.Contains(stderr, "AESGCMBench.encrypt dataSize=2048 (avgt): in 3 of its measurement iterations one batch") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, stderr := runBenchCLI(t, append([]string{"-r", "5ms"}, args...)...); strings.Contains(stderr, "warning") {
		t.Errorf("warning with 5 ms iterations after warm-up:\n%s", stderr)
	}
	// Without warm-up the first iteration runs GHASH in the interpreter and
	// C1 (blockMult compiles during it) and the others run C2 code: the
	// error is larger than the score.
	if _, stderr := runBenchCLI(t, append(append([]string{"-r", "5ms"}, args[:len(args)-1]...), "-wi", "0", "AESGCMBench")...); !strings.Contains(stderr, "error 2964.369 is larger than the score 128.082 us/op") {
		t.Errorf("no error warning without warm-up:\n%s", stderr)
	}
}

func TestShortIterationWarningNamesOption(t *testing.T) {
	opts := bench.DefaultOptions()
	opts.MeasurementTime = 200 * time.Millisecond
	opts.MeasurementIterations = 3
	noisy := bench.Result{Benchmark: "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt", Mode: bench.Throughput,
		Params: []bench.Param{{Name: "dataSize", Value: "16384"}}, Primary: bench.Metric{Unit: "ops/s", RawData: [][]float64{{10, 30, 42}}}}
	steady := bench.Result{Benchmark: "x.Y.ss", Mode: bench.SingleShotTime, Primary: bench.Metric{Unit: "us/op", RawData: [][]float64{{10, 10.1, 9.9}}}}
	got := shortIterationWarning([]bench.Result{noisy, steady}, []int{0, 0}, opts)
	want := "jitsim bench: warning: the iterations are too short for a meaningful score:\n" +
		"  AESGCMBench.encrypt dataSize=16384 (thrpt): error 294.925 is larger than the score 27.333 ops/s\n" +
		"Raise -r (the time per measurement iteration, now 200 ms) or -i (measurement iterations, now 3)."
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	steady.Primary.RawData = [][]float64{{1, 50, 2}}
	if got := shortIterationWarning([]bench.Result{steady}, nil, opts); !strings.Contains(got, "Raise -bs (operations per single-shot iteration, now 1) or -i") {
		t.Errorf("single shot: %s", got)
	}
	if got := shortIterationWarning([]bench.Result{noisy}, nil, opts); got == "" {
		t.Error("no warning")
	}
}

// TestBenchProfComp: -prof comp adds JMH 1.37's CompilerProfiler results,
// from the VM's own compile events: per measurement iteration under its
// line, in the result blocks, as rows of the table and of every -rf format.
// The numbers must hold together: each fork's totals never fall, each
// iteration's compile time is the rise of the total over it (whole ms),
// the profiled score is the sum of the iterations' and the total score the
// maximum, and the model clock's forks agree exactly.
func TestBenchProfComp(t *testing.T) {
	t.Parallel() // the model clock: deterministic however the CPUs are shared
	dir := t.TempDir()
	rff := filepath.Join(dir, "r.json")
	out, _ := runBenchCLI(t, "--clock=model", "--cpu=icelake-server", "-f", "2", "-wi", "1", "-i", "4", "-w", "10ms", "-r", "100ms",
		"-bm", "avgt", "-prof", "comp", "-rf", "json", "-rff", rff, "-p", "dataSize=16384", "AESGCMBench")
	for _, want := range []string{"Iteration   1: ", "\n                 compiler.time.profiled: ", "\n                 compiler.time.total:    ",
		`Secondary result "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt:compiler.time.profiled":`, " ms [Sum]\n", " ms [Maximum]\n",
		"AESGCMBench.encrypt:compiler.time.profiled       16384  avgt    8", "AESGCMBench.encrypt:compiler.time.total          16384  avgt    8"} {
		if !strings.Contains(out, want) {
			t.Errorf("console lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(rff)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := bench.ReadJSON(bytes.NewReader(data), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || len(rs[0].Secondary) != 2 {
		t.Fatalf("%d results, secondary %v", len(rs), rs[0].Secondary)
	}
	prof, total := rs[0].Secondary[0], rs[0].Secondary[1]
	if prof.Label != "compiler.time.profiled" || total.Label != "compiler.time.total" || prof.Unit != "ms" ||
		prof.Policy != bench.Sum || total.Policy != bench.Maximum {
		t.Fatalf("secondary metrics %+v, %+v", prof, total)
	}
	sum, top := 0.0, 0.0
	for f := range prof.RawData {
		for i, p := range prof.RawData[f] {
			tot := total.RawData[f][i]
			if p < 0 || p != math.Trunc(p) || tot != math.Trunc(tot) {
				t.Errorf("fork %d iteration %d: %v ms during, %v ms in all: want whole ms ≥ 0", f, i, p, tot)
			}
			if i > 0 && tot-total.RawData[f][i-1] != p {
				t.Errorf("fork %d iteration %d: total rose %v → %v but %v ms were compiled during it", f, i, total.RawData[f][i-1], tot, p)
			}
			sum, top = sum+p, max(top, tot)
		}
	}
	if top == 0 {
		t.Errorf("no compile time at all: %v", total.RawData)
	}
	if st := prof.Stats(); st.Score != sum || !math.IsNaN(st.Error) || st.ConfLow != sum {
		t.Errorf("profiled score %v ± %v [%v], want the sum %v without error", st.Score, st.Error, st.ConfLow, sum)
	}
	if st := total.Stats(); st.Score != top {
		t.Errorf("total score %v, want the maximum %v", st.Score, top)
	}
	if fmt.Sprint(prof.RawData[0]) != fmt.Sprint(prof.RawData[1]) || fmt.Sprint(total.RawData[0]) != fmt.Sprint(total.RawData[1]) {
		t.Errorf("model-clock forks differ: %v, %v", prof.RawData, total.RawData)
	}
	for _, want := range []string{`"compiler.time.profiled" : {`, `"scoreError" : "NaN",`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %q", want)
		}
	}
	for _, f := range []string{"csv", "scsv", "latex", "text"} {
		p := filepath.Join(dir, "r."+f)
		runBenchCLI(t, "--clock=model", "--cpu=icelake-server", "-f", "1", "-wi", "0", "-i", "2", "-r", "50ms", "-prof", "comp", "-rf", f, "-rff", p, "AESGCMBench")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "AESGCMBench.encrypt:compiler.time.profiled") || !strings.Contains(string(b), "AESGCMBench.encrypt:compiler.time.total") {
			t.Errorf("-rf %s lacks the compiler rows:\n%s", f, b)
		}
	}
	var o, e bytes.Buffer
	if st := run([]string{"bench", "-prof", "gc", "AESGCMBench"}, strings.NewReader(""), &o, &e, noEnv); st != 2 || !strings.Contains(e.String(), "-prof gc: jitsim has the profiler comp only") {
		t.Errorf("-prof gc: status %d, %s", st, e.String())
	}
}
