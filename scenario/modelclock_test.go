package scenario

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// lockedBuffer is the shared stdout of a run: the VM's tty (PrintCompilation)
// and the scenario's System.out in one stream, as in a real java process.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// modelRun runs a scenario on a fresh model-clock VM of cpuName with the
// VM options opts and returns everything it printed.
func modelRun(t *testing.T, cpuName string, rel jdk.Release, opts []string, threads int, name string, props map[string]string, args ...string) string {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	return modelRunScenario(t, cpuName, rel, opts, threads, s, props, args...)
}

// modelRunScenario is modelRun of a Scenario value (a workload file's).
func modelRunScenario(t *testing.T, cpuName string, rel jdk.Release, opts []string, threads int, s Scenario, props map[string]string, args ...string) string {
	t.Helper()
	return modelRunWith(t, cpuName, rel, opts, threads, s, props, nil, args...)
}

// modelRunObserved is modelRunScenario of s with an observer, default options.
func modelRunObserved(t *testing.T, cpuName string, rel jdk.Release, s Scenario, obs Observer) string {
	t.Helper()
	return modelRunWith(t, cpuName, rel, nil, 0, s, nil, obs)
}

// modelRunWith is modelRunScenario with an observer (nil: none).
func modelRunWith(t *testing.T, cpuName string, rel jdk.Release, opts []string, threads int, s Scenario, props map[string]string, obs Observer, args ...string) string {
	t.Helper()
	name := s.Name
	m, err := cpu.Lookup(cpuName)
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := flags.Parse(flags.Options{JDK: rel, Arch: m.Arch, Args: opts})
	if err != nil {
		t.Fatalf("flags %q: %v", opts, err)
	}
	var out lockedBuffer
	cfg := jrt.NewConfig().WithJDK(rel).WithFlags(set).WithCPU(m).WithActiveProcessors(m.Cores).
		WithTiers(tiers.Default()...).WithOutput(&out)
	if cfg, err = ModelConfig(cfg, cpuName, ""); err != nil {
		t.Fatal(err)
	}
	env := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: threads, ClockKind: ClockModel, CheckOutput: true, Observer: obs}
	if err := s.Run(context.Background(), env, props, args, &out); err != nil {
		t.Fatalf("%s on the model clock: %v\noutput:\n%s", name, err, out.String())
	}
	return out.String()
}

// modelCases are the determinism cases: every scenario, several threads,
// PrintCompilation on, outputs checked against crypto/cipher.
var modelCases = []struct {
	name    string
	cpu     string
	jdk     jdk.Release
	opts    []string
	threads int
	props   map[string]string
	args    []string
	want    string // a line the output must contain
}{
	{"TestAESMain", "haswell-e5-2660v3", jdk.R8u, []string{"-XX:+PrintCompilation"}, 2,
		map[string]string{"mode": "GCM", "msgSize": "512"}, []string{"60", "20"}, "TestAESDecode runtime was"},
	{"TestAESMain", "neoverse-n1", jdk.R8u, []string{"-XX:+PrintCompilation", "-Xbatch"}, 1,
		map[string]string{"mode": "CBC", "msgSize": "256"}, []string{"60", "20"}, "TestAESEncode runtime was"},
	{"CBCThroughput", "sandybridge-i5", jdk.R8, []string{"-XX:+PrintCompilation"}, 2,
		map[string]string{"msgSize": "1024"}, []string{"1", "2", "5"}, "Iteration"},
	{"AESGCMBench", "icelake-server", jdk.R25, nil, 1,
		map[string]string{"dataSize": "1024"}, []string{"1", "2", "5"}, "Iteration"},
	{"AESGCMUpdateAAD", "apple-m1", jdk.R17, nil, 2,
		map[string]string{"aadSize": "4096"}, []string{"1", "2", "3"}, "Iteration"},
	{"ParquetDecrypt", "skylake-avx2", jdk.R17, []string{"-XX:+PrintCompilation"}, 2,
		map[string]string{"pages": "40", "pageSize": "256"}, nil, "ParquetDecrypt"},
}

// runtimeLine matches the virtual times TestAESMain prints.
var runtimeLine = regexp.MustCompile(`runtime was [0-9.]+ ms`)

// TestModelClockDeterministic runs every scenario twice on fresh
// model-clock VMs, with GOMAXPROCS 1 and 2, and requires byte-identical
// output: compile ids, PrintCompilation timestamps and order, and every
// printed time are functions of the inputs alone (docs/model.md §3).
func TestModelClockDeterministic(t *testing.T) {
	for _, tc := range modelCases {
		t.Run(fmt.Sprintf("%s/%s/%d-threads", tc.name, tc.cpu, tc.threads), func(t *testing.T) {
			var first string
			for _, procs := range []int{1, 2, 2} {
				prev := goruntime.GOMAXPROCS(procs)
				out := modelRun(t, tc.cpu, tc.jdk, tc.opts, tc.threads, tc.name, tc.props, tc.args...)
				goruntime.GOMAXPROCS(prev)
				if !strings.Contains(out, tc.want) {
					t.Fatalf("output lacks %q:\n%s", tc.want, out)
				}
				if first == "" {
					first = out
					continue
				}
				if out != first {
					t.Fatalf("GOMAXPROCS=%d: output differs from the first run\nfirst:\n%s\nthis:\n%s", procs, first, out)
				}
			}
			if tc.name == "TestAESMain" && len(runtimeLine.FindAllString(first, -1)) != 2*tc.threads {
				t.Errorf("want %d runtime lines:\n%s", 2*tc.threads, first)
			}
		})
	}
}

// TestModelClockIntrinsicSpeedup checks that the model clock reports what
// it models: GCM on the Haswell model, JDK 8u, is faster with the GHASH
// intrinsic than without (the seed's direction; the size of the ratio is
// the seeds' test's business), in virtual time.
func TestModelClockIntrinsicSpeedup(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	iters := []string{"3000", "1000"}
	if os.Getenv("JITSIM_LONG") == "1" {
		iters = []string{"20000", "10000"}
	}
	props := map[string]string{"mode": "GCM", "msgSize": "2048"}
	ms := func(out string) float64 {
		var v float64
		m := regexp.MustCompile(`TestAESEncode runtime was ([0-9.]+) ms`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no encode runtime in:\n%s", out)
		}
		fmt.Sscan(m[1], &v)
		return v
	}
	// The warm-up iterations take the methods to C2, where the intrinsic applies.
	on := ms(modelRun(t, "haswell-e5-2660v3", jdk.R8u, nil, 1, "TestAESMain", props, iters...))
	off := ms(modelRun(t, "haswell-e5-2660v3", jdk.R8u, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseGHASHIntrinsics"}, 1,
		"TestAESMain", props, iters...))
	t.Logf("encode: %.3f ms with GHASH intrinsic, %.3f ms without (%.2fx)", on, off, off/on)
	if !(on > 0 && off > on) {
		t.Errorf("encode %.3f ms with the intrinsic, %.3f ms without: want the intrinsic faster", on, off)
	}
}

// TestModelConfigProfileFile: a profile file replaces the CPU's profile
// (the costs of a run change with it), and a bad file is an error naming
// the file and line.
func TestModelConfigProfileFile(t *testing.T) {
	dir := t.TempDir()
	p, err := model.Lookup("haswell-e5-2660v3")
	if err != nil {
		t.Fatal(err)
	}
	// Double every cost: the run's virtual times must double exactly.
	for i := range p.Rows {
		p.Rows[i].Ps *= 2
	}
	js, err := p.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "double.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, js, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{\n  \"cpu\": \"x\",\n  \"rows\": [\n    {\"what\": \"interp\", \"nonsense\": 1}\n  ]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ModelConfig(jrt.NewConfig(), "haswell-e5-2660v3", bad); err == nil || !strings.Contains(err.Error(), bad+":") {
		t.Fatalf("bad profile file: err = %v, want one naming %s:LINE", err, bad)
	}
	run := func(file string) time.Duration {
		m, err := cpu.Lookup("haswell-e5-2660v3")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := ModelConfig(jrt.NewConfig().WithJDK(jdk.R17).WithCPU(m).WithTiers(tiers.Default()...), m.Name, file)
		if err != nil {
			t.Fatal(err)
		}
		// The span from the first iteration's start to the last one's end: one difference of
		// two virtual times, each truncated from picoseconds to whole nanoseconds.
		var first, end time.Duration = -1, 0
		obs := ObserverFunc(func(it Iteration) {
			if first < 0 {
				first = it.Start
			}
			end = it.Start + it.Duration
		})
		env := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, ClockKind: ClockModel, Observer: obs}
		s, _ := Lookup("TestAESMain")
		if err := s.Run(context.Background(), env, map[string]string{"mode": "CTR", "msgSize": "64", "paddingStr": "NoPadding"}, []string{"30", "0"}, io.Discard); err != nil {
			t.Fatal(err)
		}
		return end - first
	}
	own, doubled := run(""), run(good)
	t.Logf("profile of the CPU: %v; every cost doubled: %v", own, doubled)
	// Virtual time is exact in picoseconds, but an Iteration reports it in nanoseconds, rounded
	// down: doubling a span of E − S picoseconds doubles it exactly, and the truncation of its
	// two ends leaves the doubled span within 1 ns of twice the span as reported.
	if d := doubled - 2*own; own <= 0 || d < -time.Nanosecond || d > time.Nanosecond {
		t.Errorf("doubled profile gives %v, want 2 × %v = %v within the 1 ns of the report's rounding", doubled, own, 2*own)
	}
}

// TestModelClockSharesCores: on one CPU (-XX:ActiveProcessorCount=1) the
// loop thread shares its core with the compiler threads, so its first
// iteration is slower than with a core for every thread, while the last
// one, with every compile done, runs at the same speed (docs/model.md §3).
func TestModelClockSharesCores(t *testing.T) {
	scores := func(opts []string) []float64 {
		out := modelRun(t, "haswell-e5-2660v3", jdk.R17, opts, 1, "AESGCMBench", map[string]string{"dataSize": "16384"}, "0", "6", "100")
		var v []float64
		for _, m := range regexp.MustCompile(`Iteration +\d+: ([0-9.]+) ops/s`).FindAllStringSubmatch(out, -1) {
			var f float64
			fmt.Sscan(m[1], &f)
			v = append(v, f)
		}
		if len(v) != 6 {
			t.Fatalf("%v: want 6 iterations in:\n%s", opts, out)
		}
		return v
	}
	one := scores([]string{"-XX:ActiveProcessorCount=1"})
	four := scores([]string{"-XX:ActiveProcessorCount=4"})
	t.Logf("ops/s per iteration, 1 CPU: %.0f; 4 CPUs: %.0f", one, four)
	if !(one[0] < 0.8*four[0]) {
		t.Errorf("first iteration %.0f ops/s on 1 CPU, %.0f on 4: want the shared core at least 20%% slower", one[0], four[0])
	}
	if last := len(one) - 1; math.Abs(one[last]/four[last]-1) > 0.01 {
		t.Errorf("last iteration %.0f ops/s on 1 CPU, %.0f on 4: want the same once compiles are done", one[last], four[last])
	}
}

// TestModelClockBackgroundCompiles checks the profile's background compiles (the real JVM's
// own, model.Background): on two shared cores they slow the first iterations, where the
// compiler threads are busy with them, and leave the steady state alone; with no compiler
// (-Xint) nothing changes.
func TestModelClockBackgroundCompiles(t *testing.T) {
	m, err := cpu.Lookup("haswell-e5-2660v3")
	if err != nil {
		t.Fatal(err)
	}
	p, err := setup.CostProfile(m, jdk.R17, "", false)
	if err != nil {
		t.Fatal(err)
	}
	p.Release = jdk.R17.String()
	p.Provenance = &model.Provenance{JVM: "java", JVMVersion: "17", Date: "2026-12-07T00:00:00Z", Rounds: 1}
	bg := &model.Background{Source: "a test stream: 200 C1 compiles of 500 bytes, one a millisecond"}
	for i := 0; i < 200; i++ {
		bg.Compiles = append(bg.Compiles, model.FormatBackgroundCompile(model.BackgroundCompile{At: model.Cost(i) * 1_000_000_000, Compiler: model.WhatCompileC1, Bytes: 500}))
	}
	scores := func(opts []string, bg *model.Background, size, iters, ops int) []float64 {
		t.Helper()
		set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: m.Arch, Args: append([]string{"-XX:ActiveProcessorCount=2"}, opts...)})
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.Background = bg
		if err := q.Validate(); err != nil {
			t.Fatal(err)
		}
		var out lockedBuffer
		cfg := jrt.NewConfig().WithJDK(jdk.R17).WithFlags(set).WithCPU(m).WithActiveProcessors(m.Cores).
			WithTiers(tiers.Default()...).WithOutput(&out).WithModel(q)
		s, _ := Lookup("AESGCMBench")
		env := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, ClockKind: ClockModel, CheckOutput: true}
		if err := s.Run(context.Background(), env, map[string]string{"dataSize": fmt.Sprint(size)}, []string{"0", fmt.Sprint(iters), fmt.Sprint(ops)}, &out); err != nil {
			t.Fatalf("%v: %v\n%s", opts, err, out.String())
		}
		var v []float64
		for _, m := range regexp.MustCompile(`Iteration +\d+: ([0-9.]+) ops/s`).FindAllStringSubmatch(out.String(), -1) {
			var f float64
			fmt.Sscan(m[1], &f)
			v = append(v, f)
		}
		if len(v) != iters {
			t.Fatalf("%v: want %d iterations in:\n%s", opts, iters, out.String())
		}
		return v
	}
	with, without := scores(nil, bg, 16384, 8, 100), scores(nil, nil, 16384, 8, 100)
	t.Logf("ops/s per iteration, with the background: %.0f; without: %.0f", with, without)
	if !(with[0] < 0.95*without[0]) {
		t.Errorf("first iteration %.0f ops/s with the background, %.0f without: want it at least 5%% slower", with[0], without[0])
	}
	if last := len(with) - 1; math.Abs(with[last]/without[last]-1) > 0.01 {
		t.Errorf("last iteration %.0f ops/s with the background, %.0f without: want the same once compiles are done", with[last], without[last])
	}
	xw, xo := scores([]string{"-Xint"}, bg, 1024, 3, 10), scores([]string{"-Xint"}, nil, 1024, 3, 10)
	for i := range xw {
		if xw[i] != xo[i] {
			t.Errorf("-Xint iteration %d: %.3f ops/s with the background, %.3f without: no compiler, no background", i+1, xw[i], xo[i])
		}
	}
}
