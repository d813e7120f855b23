package scenario

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/tiers"
)

// TestRunFile runs a small scenario file end to end on the real tiers:
// options parsed per variant, fresh VMs, output with the published
// numbers beside it, bytes checked.
func TestRunFile(t *testing.T) {
	text := `title = "small GCM"
source = "test"
scenario = "TestAESMain"
jdk = "17"
args = ["3", "1"]
options = ["-XX:+UnlockDiagnosticVMOptions"]
[properties]
mode = "GCM"
msgSize = 1000
[[compare]]
name = "on"
  [[compare.published]]
  metric = "TestAESEncode runtime"
  value = 4092.488144
  unit = "ms"
[[compare]]
name = "off"
options = ["-XX:-UseGHASHIntrinsics"]
  [[compare.published]]
  metric = "TestAESEncode runtime"
  value = 18781.033722
  unit = "ms"
[[ratio]]
name = "small encode off/on"
num = "off"
den = "on"
metric = "TestAESEncode runtime"
`
	f, err := ParseFile("small.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	var iters atomic.Int64
	var res Results
	err = RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Stderr: &errOut, CheckOutput: true,
		Options: []string{"-DmsgSize=999"}, Results: func(r Results) { res = r },
		Observer: func(string) Observer {
			return ObserverFunc(func(Iteration) { iters.Add(1) })
		}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{
		"=== on: jitsim run --jdk=17 --cpu=host --clock=wall -XX:+UnlockDiagnosticVMOptions -DmsgSize=999 TestAESMain 3 1\n",
		"=== off: jitsim run --jdk=17 --cpu=host --clock=wall -XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics -DmsgSize=999 TestAESMain 3 1\n",
		"--- published: TestAESEncode runtime = 4092.488144 ms\n",
		"msgSize=999,",
		"--- jitsim:    TestAESEncode runtime = ",
		"\n=== headline ratios, published vs jitsim (--jdk=17 --cpu=host --clock=wall)\nsmall encode off/on: published 4.59x, jitsim ",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if len(res.Ratios) != 1 || len(res.Measured) != 2 {
		t.Fatalf("results = %+v", res)
	}
	// The measured runtime is the one TestAESMain printed (same clock reads, rounded).
	on, _ := res.Value("on", "TestAESEncode runtime")
	if printed := fmt.Sprintf("TestAESEncode runtime = %s ms", sig(on.Jitsim)); !strings.Contains(out.String(), printed) || on.Jitsim <= 0 {
		t.Errorf("measured %v, output lacks %q", on.Jitsim, printed)
	}
	if r := res.Ratios[0]; math.Abs(r.Published-18781.033722/4092.488144) > 1e-12 || !(r.Jitsim > 0) || math.Abs(r.Distance-(r.Jitsim/r.Published-1)) > 1e-12 {
		t.Errorf("ratio = %+v", r)
	}
	if got := iters.Load(); got != 2*2*(3+1) {
		t.Errorf("observer saw %d iterations, want 16", got)
	}

	t.Run("model clock", func(t *testing.T) {
		// The same file on the model clock, twice: byte-identical output, ratios included.
		g, err := ParseFile("m.toml", []byte(strings.Replace(text, `jdk = "17"`, "jdk = \"17\"\ncpu = \"haswell-e5-2660v3\"\nclock = \"model\"", 1)))
		if err != nil {
			t.Fatal(err)
		}
		var outs [2]bytes.Buffer
		for i := range outs {
			if err := RunFile(context.Background(), g, FileEnv{Tiers: tiers.Default(), Stdout: &outs[i], CheckOutput: true}); err != nil {
				t.Fatalf("run %d: %v\n%s", i, err, outs[i].String())
			}
		}
		if outs[0].String() != outs[1].String() {
			t.Errorf("two model-clock runs differ:\n%s\n---\n%s", outs[0].String(), outs[1].String())
		}
		for _, want := range []string{"--clock=model", "\n=== headline ratios, published vs jitsim (--jdk=17 --cpu=haswell-e5-2660v3 --clock=model)\nsmall encode off/on: published 4.59x, jitsim "} {
			if !strings.Contains(outs[0].String(), want) {
				t.Errorf("output lacks %q:\n%s", want, outs[0].String())
			}
		}
	})
	t.Run("foreign CPU on the wall clock", func(t *testing.T) {
		foreign := "neoverse-n1"
		if jdk.HostArch() == jdk.ARM64 {
			foreign = "haswell-e5-2660v3"
		}
		g, err := ParseFile("w.toml", []byte(strings.Replace(text, `jdk = "17"`, "jdk = \"17\"\ncpu = \""+foreign+"\"", 1)))
		if err != nil {
			t.Fatal(err)
		}
		err = RunFile(context.Background(), g, FileEnv{Tiers: tiers.Default()})
		if err == nil || !strings.Contains(err.Error(), "cannot run on the wall clock") || !strings.Contains(err.Error(), foreign) {
			t.Fatalf("err = %v, want a refusal naming %s", err, foreign)
		}
	})
	t.Run("bad command-line option", func(t *testing.T) {
		var out bytes.Buffer
		err := RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Options: []string{"-XX:+UseFastAES"}})
		if err == nil || !strings.Contains(err.Error(), "Unrecognized VM option 'UseFastAES'") || !strings.Contains(err.Error(), `variant "off"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestRunExamples runs every example file end to end, on its own clock,
// with tiny counts and sizes (arguments replaced, -D options after the
// file's): every variant's options must start a VM and every output must
// check out. examples/seeds_test.go holds the ratios to the published ones.
func TestRunExamples(t *testing.T) {
	paths, err := filepath.Glob("../examples/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	args := map[string][]string{"TestAESMain": {"2", "1"}, "ParquetDecrypt": {}}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			a, ok := args[f.Scenario]
			if !ok {
				a = []string{"0", "1", "1"}
			}
			var out bytes.Buffer
			err = RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Args: a, CheckOutput: true,
				Options: []string{"-DdataSize=512", "-DaadSize=2048", "-DmsgSize=1024"}})
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if n := strings.Count(out.String(), ": jitsim run --jdk="); n != len(f.Compare) {
				t.Errorf("%d variants ran, want %d", n, len(f.Compare))
			}
		})
	}
}

// TestRecorderMetrics feeds known iterations to the recorder and checks each
// metric rule's arithmetic exactly: a span of thread 0, a throughput summed
// over threads and averaged over iterations, an average time per operation.
func TestRecorderMetrics(t *testing.T) {
	text := `scenario = "AESGCMBench"
[[compare]]
name = "a"
  [[compare.published]]
  metric = "AESGCMBench.encrypt"
  value = 100
  unit = "ops/s"
  [[compare.published]]
  metric = "AESGCMUpdateAAD2.test"
  value = 100
  unit = "us/op"
[[compare]]
name = "b"
  [[compare.published]]
  metric = "AESGCMBench.encrypt"
  value = 50
  unit = "ops/s"
[[ratio]]
name = "a/b"
num = "a"
den = "b"
metric = "AESGCMBench.encrypt"
[[ratio]]
name = "given"
num = "a"
den = "b"
metric = "AESGCMBench.encrypt"
published = 4.0
informative = true
`
	f, err := ParseFile("m.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(f)
	ms := time.Millisecond
	oa, ob := rec.observer("a", nil), rec.observer("b", nil)
	// a: two threads; iteration 0: 10 ops in 10 ms and 10 ms (1000 + 1000 ops/s), iteration 1: 10 ops in 5 ms and 20 ms (2000 + 500).
	for _, it := range []Iteration{
		{Phase: "warmup", Thread: 0, Index: 0, Duration: ms, Ops: 10},
		{Phase: "measure", Thread: 0, Index: 0, Duration: 10 * ms, Ops: 10},
		{Phase: "measure", Thread: 1, Index: 0, Duration: 10 * ms, Ops: 10},
		{Phase: "measure", Thread: 0, Index: 1, Duration: 5 * ms, Ops: 10},
		{Phase: "measure", Thread: 1, Index: 1, Duration: 20 * ms, Ops: 10},
	} {
		oa.Iteration(it)
	}
	ob.Iteration(Iteration{Phase: "measure", Index: 0, Duration: 10 * ms, Ops: 5})
	res := rec.results(f)
	want := map[string]float64{"a/AESGCMBench.encrypt": (2000 + 2500) / 2.0, "b/AESGCMBench.encrypt": 500,
		"a/AESGCMUpdateAAD2.test": (1000.0 + (500.0+2000)/2) / 2}
	for _, m := range res.Measured {
		if w := want[m.Variant+"/"+m.Metric]; math.Abs(m.Jitsim-w) > 1e-9 {
			t.Errorf("%s %s = %v, want %v", m.Variant, m.Metric, m.Jitsim, w)
		}
	}
	if r := res.Ratios[0]; r.Published != 2 || math.Abs(r.Jitsim-4.5) > 1e-12 || math.Abs(r.Distance-1.25) > 1e-12 {
		t.Errorf("ratio a/b = %+v", r)
	}
	if r := res.Ratios[1]; r.Published != 4 || math.Abs(r.Distance-0.125) > 1e-12 {
		t.Errorf("ratio given = %+v", r)
	}
	var out bytes.Buffer
	printRatios(&out, f, res)
	for _, want := range []string{"a/b: published 2.00x, jitsim 4.50x, distance +125.0%\n", "given: published 4.00x, jitsim 4.50x, distance +12.5% (informative: not held to a band)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	// Span: thread 0 only, first start to last end.
	g, err := ParseFile("s.toml", []byte("scenario = \"TestAESMain\"\n[[compare]]\nname = \"x\"\n  [[compare.published]]\n  metric = \"TestAESEncode runtime\"\n  value = 1\n  unit = \"ms\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	rec = newRecorder(g)
	o := rec.observer("x", nil)
	o.Iteration(Iteration{Phase: "encrypt-warmup", Start: 0, Duration: 100 * ms})
	o.Iteration(Iteration{Phase: "encrypt", Start: 200 * ms, Duration: ms})
	o.Iteration(Iteration{Phase: "encrypt", Start: 201 * ms, Duration: 2 * ms})
	o.Iteration(Iteration{Phase: "encrypt", Thread: 1, Start: 150 * ms, Duration: 90 * ms})
	if got := rec.value("x", "TestAESEncode runtime", "ms"); got != 3 {
		t.Errorf("span = %v ms, want 3", got)
	}
	if got := rec.value("x", "TestAESDecode runtime", "ms"); !math.IsNaN(got) {
		t.Errorf("unrecorded phase = %v, want NaN", got)
	}
}
