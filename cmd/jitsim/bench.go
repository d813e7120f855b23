package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bench"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
)

const benchLong = `A JMH-like harness over jitsim's benchmark scenarios (AESGCMBench, AESGCMUpdateAAD,
CBCThroughput), with JMH's own single-dash options:

  -wi N, -i N        warm-up and measurement iterations (default 5, 5)
  -f N               forks: each a fresh VM (default 5)
  -t N|max           application threads (default 1)
  -w TIME, -r TIME   time per warm-up / measurement iteration (default 10s): an iteration runs
                     batches of the benchmark's operation until its time is up
  -wbs N, -bs N      with -bm ss: operations per single-shot iteration
  -bm MODE[,MODE]    thrpt, avgt, sample, ss or all; sample times every operation on its own
                     and reports the percentiles p0.00 … p1.00 (JSON: rawDataHistogram)
  -tu UNIT           ns, us, ms, s, m, hr
  -p NAME=V1,V2      run every value of a scenario property (dataSize, keyLength, op, …)
  -rf FORMAT         write a result file in JMH 1.37's layout: text, csv, scsv, json or
                     latex (-rff FILE; default jmh-result.FORMAT; -rff alone writes csv)
  -jvmArgs 'OPTS'    VM options (or write them directly: -XX:…)
  -prof comp         JMH's compiler profiler: secondary results compiler.time.profiled (compile
                     time during the measurement iterations, summed) and compiler.time.total
                     (the VM's compile time in all, warm-up included), in ms, from the VM's
                     own compile events

and jitsim's own options:

  --jdk, --cpu       JDK profile and CPU model, as for 'jitsim run'
  --clock wall|model the clock iterations are timed on (default wall): on the model clock
                     every cost comes from the CPU model's profile, any CPU model runs, and
                     scores are deterministic (every fork gives the same numbers)
  --profile FILE     with --clock=model, a cost profile file ('jitsim calibrate --out'); one
                     measured on a real JVM must match --jdk and the CPU (--force-profile)
  --format text|benchstat
                     benchstat: Go benchmark lines on stdout (with "Unit … assume=exact"
                     on the model clock), JMH's console output on stderr

-D properties pass to the scenario.

Example:
  jitsim bench -f 2 -wi 3 -i 5 -w 200ms -r 200ms -bm avgt -p dataSize=1024,16384 AESGCMBench`

func (d deps) newBenchCommand(getenv func(string) (string, bool), status *int) *cobra.Command {
	return &cobra.Command{
		Use:                "bench [JMH options] [--jdk=…] [--cpu=…] [--clock=wall|model [--profile=FILE]] [--format=text|benchstat] [VM options…] SCENARIO",
		Short:              "Run a benchmark scenario the way JMH runs a benchmark",
		Long:               benchLong,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			*status = d.runBench(args, getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
}

// jmhVersion is the JMH release whose output formats jitsim writes.
const jmhVersion = "1.37"

// timeUnits are JMH's -tu units in nanoseconds.
var timeUnits = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "min": 60e9, "hr": 3600e9}

// benchRun is one benchmark × parameter combination × mode being run.
type benchRun struct {
	scen    scenario.Scenario
	spec    *vmSpec
	props   map[string]string
	params  []bench.Param
	opts    bench.Options
	mode    bench.Mode
	unit    string  // "ops/s", "us/op"
	unitNS  float64 // the unit's time in ns
	console io.Writer
	bytesOp int64
	overran int // measurement iterations that ran 50 % past their time
}

// runBench is `jitsim bench`; it returns the exit status.
func (d deps) runBench(args []string, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "jitsim bench: "+format+"\n", a...)
		return code
	}
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, benchLong)
			return 0
		}
	}
	opts, rest, err := bench.ParseOptions(args)
	if err != nil {
		return fail(2, "%v", err)
	}
	o, err := splitOwn(rest, map[string]bool{"jdk": true, "cpu": true, "format": true, "clock": true, "profile": true}, map[string]bool{"force-profile": true})
	if err != nil {
		return fail(2, "%v", err)
	}
	clock := o.last("clock", setup.ClockWall)
	if clock != setup.ClockWall && clock != setup.ClockModel {
		return fail(2, "--clock=%s: want wall or model", clock)
	}
	profile := o.last("profile", "")
	_, d.forceProfile = o.vals["force-profile"]
	if profile != "" && clock != setup.ClockModel {
		return fail(2, "--profile=%s: a cost profile prices the model clock; add --clock=model", profile)
	}
	format := o.last("format", "text")
	if format != "text" && format != "benchstat" {
		return fail(2, "--format: %q (want text or benchstat)", format)
	}
	rel, err := jdk.Parse(o.last("jdk", jdk.Default.String()))
	if err != nil {
		return fail(2, "--jdk: %v", err)
	}
	if o.scenario == "" {
		return fail(2, "no benchmark given; one of %s", strings.Join(benchmarkNames(), ", "))
	}
	if len(o.rest) > 0 {
		return fail(2, "arguments after the benchmark name (%s): iterations and batches come from -wi, -i, -w, -r", strings.Join(o.rest, " "))
	}
	scen, err := scenario.Find(o.scenario)
	if err != nil && (scenario.IsWorkloadFile(o.scenario) || scenario.IsTraceFile(o.scenario)) {
		return fail(1, "%v", err)
	}
	if err != nil || !scen.IsBenchmark() {
		return fail(1, "%q is not a jitsim benchmark scenario (benchmarks: %s)", o.scenario, strings.Join(benchmarkNames(), ", "))
	}
	if opts.TimeUnit != "" {
		if _, ok := timeUnits[opts.TimeUnit]; !ok {
			return fail(2, "-tu %s: unknown unit", opts.TimeUnit)
		}
	}
	vmArgs := append(append([]string{}, opts.JVMArgs...), o.vm...)
	spec, err := d.settleOn(clock, profile, optionLabel(vmArgs), rel, o.last("cpu", "host"), vmArgs, getenv, stderr)
	if err != nil {
		return fail(1, "%v", err)
	}
	base := scenario.PropsFrom(spec.Result.Properties)
	if v, ok := base["threads"]; ok {
		// The scenario would start -Dthreads threads while bench scores -t of them; JMH's
		// thread count is -t, so one that disagrees is refused rather than half-counted.
		if t := max(opts.Threads, 1); v != strconv.Itoa(t) {
			return fail(2, "-Dthreads=%s: bench runs -t threads (now %d); give -t %s instead of -Dthreads", v, t, v)
		}
		delete(base, "threads")
	}
	for _, p := range opts.Params {
		if _, ok := scen.Prop(p.Name); !ok || p.Name == "threads" || p.Name == "checkOutput" {
			return fail(2, "-p %s: %s has no parameter %q", p.Name, scen.Name, p.Name)
		}
	}
	console := stdout
	if format == "benchstat" {
		console = stderr
	}
	sig := notifyStop(context.Background(), stderr)
	defer sig.stop()
	ctx := sig.ctx
	prog := newProgress(stderr, getenv)
	var results []bench.Result
	var overran []int // per result: measurement iterations one batch overran
	bytesPerOp := map[string]int64{}
	start := time.Now()
	var stopped os.Signal
combos:
	for _, params := range paramCombos(opts.Params) {
		props := map[string]string{}
		for k, v := range base {
			props[k] = v
		}
		for _, p := range params {
			props[p.Name] = p.Value
		}
		for _, mode := range opts.Modes {
			br := &benchRun{scen: scen, spec: spec, props: props, params: params, opts: opts, mode: mode, console: console}
			br.setUnit()
			r, err := br.run(ctx, prog)
			if stopped = sig.stoppedBy(); stopped != nil {
				// Keep the measurement iterations done before the signal
				// (benchRun.run keeps a cut fork's scores); the result
				// and -rff file below hold exactly those.
				if len(r.Primary.RawData) > 0 {
					results = append(results, r)
					overran = append(overran, br.overran)
				}
				break combos
			}
			if err != nil {
				prog.wait()
				var je *jce.JavaException
				if errors.As(err, &je) {
					return fail(1, "Exception in thread \"main\" %s", je.Error())
				}
				return fail(1, "%s: %v", r.Benchmark, err)
			}
			results = append(results, r)
			overran = append(overran, br.overran)
			if br.bytesOp > 0 {
				bytesPerOp[r.Benchmark] = br.bytesOp
			}
		}
	}
	prog.wait()
	if stopped != nil {
		fmt.Fprintf(console, "\n\n# Run stopped by %s. Total time: %s\n\n", signalName(stopped), jmhTotal(time.Since(start)))
	} else {
		fmt.Fprintf(console, "\n\n# Run complete. Total time: %s\n\n", jmhTotal(time.Since(start)))
	}
	if err := bench.WriteText(console, results); err != nil {
		return fail(1, "%v", err)
	}
	defer func() {
		// Last on stderr, once for the whole run, where it is seen.
		if w := shortIterationWarning(results, overran, opts); w != "" {
			fmt.Fprintln(stderr, w)
		}
	}()
	if format == "benchstat" {
		// Only what two runs to compare share goes into the config lines:
		// benchstat puts results with different configs in different tables,
		// so the JDK and VM options are the files' names to give, not keys.
		cfg := map[string]string{"goos": "linux", "goarch": spec.CPU.Arch.String(), "cpu": spec.CPU.Name}
		// On the model clock a score is exact: the same on every run, so
		// benchstat is told not to look for noise between them.
		exact := spec.Clock == setup.ClockModel
		if err := bench.WriteBenchstat(stdout, results, cfg, bytesPerOp, exact); err != nil {
			return fail(1, "%v", err)
		}
	}
	if opts.ResultFile != "" {
		var b bytes.Buffer
		err = bench.Write(&b, opts.ResultFormat, results)
		if err == nil {
			err = os.WriteFile(opts.ResultFile, b.Bytes(), 0o644)
		}
		if err != nil {
			return fail(1, "-rff %s: %v", opts.ResultFile, err)
		}
		fmt.Fprintf(console, "\nBenchmark result is saved to %s\n", opts.ResultFile)
	}
	if stopped != nil {
		n := 0
		for _, r := range results {
			for _, f := range r.Primary.RawData {
				n += len(f)
			}
		}
		stoppedLine(stderr, "bench", stopped, fmt.Sprintf("the results hold the %d measurement iterations done before it", n))
		return signalStatus(stopped)
	}
	return 0
}

// shortIterationWarning is the one warning of a run whose iterations are
// too short for its scores to mean much: some result's error is larger
// than its score (a few short iterations of a still-changing benchmark),
// or one batch of operations took longer than a whole measurement
// iteration (overran, per result). It names the option to raise: -r for
// timed iterations, -bs for single-shot ones, and -i. "" when all is well.
func shortIterationWarning(results []bench.Result, overran []int, opts bench.Options) string {
	var why []string
	raise := map[string]bool{}
	for i, r := range results {
		name := strings.TrimPrefix(r.Benchmark, "org.openjdk.bench.javax.crypto.full.")
		for _, p := range r.Params {
			name += " " + p.Name + "=" + p.Value
		}
		st := r.Primary.Stats()
		if st.Error > st.Score && st.Score > 0 {
			why = append(why, fmt.Sprintf("%s (%s): error %.3f is larger than the score %.3f %s", name, r.Mode, st.Error, st.Score, r.Primary.Unit))
			if r.Mode == bench.SingleShotTime {
				raise["-bs"] = true
			} else {
				raise["-r"] = true
			}
			raise["-i"] = true
		}
		if i < len(overran) && overran[i] > 0 {
			why = append(why, fmt.Sprintf("%s (%s): in %d of its measurement iterations one batch of operations ran past the iteration time", name, r.Mode, overran[i]))
			raise["-r"] = true
		}
	}
	if len(why) == 0 {
		return ""
	}
	var opt []string
	if raise["-r"] {
		opt = append(opt, fmt.Sprintf("-r (the time per measurement iteration, now %s)", bench.JMHTime(opts.MeasurementTime)))
	}
	if raise["-bs"] {
		opt = append(opt, fmt.Sprintf("-bs (operations per single-shot iteration, now %d)", opts.MeasurementBatchSize))
	}
	if raise["-i"] {
		opt = append(opt, fmt.Sprintf("-i (measurement iterations, now %d)", opts.MeasurementIterations))
	}
	return "jitsim bench: warning: the iterations are too short for a meaningful score:\n  " + strings.Join(why, "\n  ") +
		"\nRaise " + strings.Join(opt, " or ") + "."
}

// benchmarkNames lists the benchmark scenarios.
func benchmarkNames() []string {
	var out []string
	for _, s := range scenario.List() {
		if s.IsBenchmark() {
			out = append(out, s.Name)
		}
	}
	return out
}

// paramCombos is the cartesian product of the -p spaces, the first
// parameter varying slowest (JMH's order); one empty combination without -p.
func paramCombos(spaces []bench.ParamSpace) [][]bench.Param {
	combos := [][]bench.Param{nil}
	for _, sp := range spaces {
		var next [][]bench.Param
		for _, c := range combos {
			for _, v := range sp.Values {
				next = append(next, append(append([]bench.Param{}, c...), bench.Param{Name: sp.Name, Value: v}))
			}
		}
		combos = next
	}
	return combos
}

// jmhTotal prints a duration as JMH's "Total time: 00:01:23".
func jmhTotal(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// setUnit picks the score unit: ops per time unit for thrpt, time per op
// otherwise, in -tu or the mode's default (s for thrpt, us otherwise).
func (b *benchRun) setUnit() {
	tu := b.opts.TimeUnit
	if tu == "" {
		tu = "us"
		if b.mode == bench.Throughput {
			tu = "s"
		}
	}
	b.unitNS = timeUnits[tu]
	if b.mode == bench.Throughput {
		b.unit = "ops/" + tu
	} else {
		b.unit = tu + "/op"
	}
}

// result is the Result skeleton of b (no data yet).
func (b *benchRun) result() bench.Result {
	forks := max(b.opts.Forks, 1)
	r := bench.Result{JMHVersion: jmhVersion, Benchmark: benchmarkFullName(b.scen.BenchmarkMethod(b.props)), Mode: b.mode,
		Threads: max(b.opts.Threads, 1), Forks: forks, JVM: "jitsim", JVMArgs: b.spec.Options, JDKVersion: b.spec.JDK.String(),
		VMName: "jitsim 64-Bit Server VM model", VMVersion: Version + " (CPU model " + b.spec.CPU.Name + clockNote(b.spec.Clock) + ")",
		WarmupIterations: b.opts.WarmupIterations, WarmupTime: bench.JMHTime(b.opts.WarmupTime), WarmupBatchSize: b.opts.WarmupBatchSize,
		MeasurementIterations: b.opts.MeasurementIterations, MeasurementTime: bench.JMHTime(b.opts.MeasurementTime),
		MeasurementBatchSize: b.opts.MeasurementBatchSize, Params: b.params, Primary: bench.Metric{Unit: b.unit}}
	if b.mode == bench.SingleShotTime {
		r.WarmupTime, r.MeasurementTime = "single-shot", "single-shot"
	} else {
		r.WarmupBatchSize, r.MeasurementBatchSize = 1, 1
	}
	return r
}

// clockNote is what the VM version adds for the model clock.
func clockNote(clock string) string {
	if clock == setup.ClockModel {
		return ", model clock"
	}
	return ""
}

// benchmarkFullName qualifies a benchmark method as JMH names it: the JDK's
// micro-benchmarks live in org.openjdk.bench.javax.crypto.full, jitsim's
// own under jitsim.bench.
func benchmarkFullName(method string) string {
	if strings.HasPrefix(method, "AESGCMBench.") {
		return "org.openjdk.bench.javax.crypto.full." + method
	}
	return "jitsim.bench." + method
}

// run runs every fork of b, printing JMH's console output, and returns the
// result with the measurement iterations' scores.
func (b *benchRun) run(ctx context.Context, prog *progress) (bench.Result, error) {
	r := b.result()
	iters := b.opts.WarmupIterations + b.opts.MeasurementIterations
	bar := prog.bar(strings.TrimPrefix(r.Benchmark, "org.openjdk.bench.javax.crypto.full."), r.Forks*iters)
	defer bar.done()
	for f := 1; f <= r.Forks; f++ {
		if err := bench.WriteForkHeader(b.console, r, f); err != nil {
			return r, err
		}
		scores, hist, sec, err := b.fork(ctx, bar)
		keep := func() {
			r.Primary.RawData = append(r.Primary.RawData, scores)
			if hist != nil {
				r.Primary.Histogram = append(r.Primary.Histogram, hist)
			}
			for i, s := range sec {
				if len(r.Secondary) <= i {
					r.Secondary = append(r.Secondary, bench.NamedMetric{Label: s.Label, Metric: bench.Metric{Unit: s.Unit, Policy: s.Policy}})
				}
				r.Secondary[i].RawData = append(r.Secondary[i].RawData, s.RawData...)
			}
		}
		if err != nil {
			if ctx.Err() != nil && len(scores) > 0 { // stopped: keep the fork's iterations done
				keep()
			}
			return r, fmt.Errorf("fork %d: %w", f, err)
		}
		keep()
		fmt.Fprintln(b.console)
	}
	fmt.Fprintln(b.console)
	return r, bench.WriteResultBlock(b.console, r)
}

// fork runs one fork on a fresh VM and returns its measurement scores
// (with -bm sample also each iteration's histogram of operation times, and
// with -prof the profilers' secondary results, one sample per measurement
// iteration); when it stops early with an error, those of the iterations
// that ended.
func (b *benchRun) fork(ctx context.Context, bar *bar) (scores []float64, hist [][]bench.Bin, sec []bench.NamedMetric, err error) {
	clock := b.spec.NewClock()
	vm, err := b.spec.NewVM(clock, io.Discard)
	if err != nil {
		return nil, nil, nil, err
	}
	defer vm.Close()
	var comp *compileTimer
	if slices.Contains(b.opts.Profilers, "comp") {
		comp = newCompileTimer(vm)
		defer comp.stop()
		sec = compSecondary()
	}
	if vm.ModelClock() {
		// The VM keeps virtual time; iterations end by it, so that a
		// fork's batches, and so its scores, are the same on every run.
		clock = vm
	}
	env := scenario.Env{VM: vm, Threads: max(b.opts.Threads, 1), Clock: clock, ClockKind: b.spec.Clock}
	batch := 1 // operations per batch, grown while batches are short
	for i := range b.opts.WarmupIterations + b.opts.MeasurementIterations {
		warm := i < b.opts.WarmupIterations
		budget, shots := b.opts.MeasurementTime, b.opts.MeasurementBatchSize
		if warm {
			budget, shots = b.opts.WarmupTime, b.opts.WarmupBatchSize
		}
		var samples []bench.Samples // per thread, -bm sample
		if b.mode == bench.SampleTime {
			samples = make([]bench.Samples, env.Threads)
			env.OpTime = func(thread int, d time.Duration) { samples[thread].Add(d.Nanoseconds()) }
		}
		var before int64
		if comp != nil {
			before = comp.millis()
		}
		score, err := b.iteration(ctx, env, clock, budget, shots, &batch, warm)
		if err != nil {
			return scores, hist, sec, err
		}
		idx := i + 1
		if !warm {
			idx -= b.opts.WarmupIterations
		}
		var itSec []bench.NamedMetric // this iteration's secondary results
		if comp != nil && !warm {
			now := comp.millis()
			itSec = compSecondary()
			for k, v := range []int64{now - before, now} {
				itSec[k].RawData = [][]float64{{float64(v)}}
				if len(sec[k].RawData) == 0 {
					sec[k].RawData = [][]float64{nil}
				}
				sec[k].RawData[0] = append(sec[k].RawData[0], float64(v))
			}
		}
		line := bench.IterationText(warm, idx, score, b.unit, itSec)
		if samples != nil {
			// JMH joins the threads' samples into one histogram; its mean is
			// the iteration's score.
			var all bench.Samples
			for t := range samples {
				all.Merge(&samples[t])
			}
			bins := all.Bins(b.unitNS)
			score = bench.IterationMeans([][][]bench.Bin{{bins}})[0][0]
			line = bench.SampleIterationText(warm, idx, bins, b.unit, itSec...) // a measurement ends in a blank line, as in JMH
			if !warm {
				hist = append(hist, bins)
			}
		}
		if !warm {
			scores = append(scores, score)
		}
		fmt.Fprintln(b.console, line)
		bar.inc()
	}
	return scores, hist, sec, nil
}

// compSecondary are -prof comp's two results, empty, named and
// aggregated as JMH 1.37's CompilerProfiler names them: the compile time
// during each measurement iteration, summed, and the VM's compile time in
// all at each iteration's end, the maximum; both in whole milliseconds.
func compSecondary() []bench.NamedMetric {
	return []bench.NamedMetric{
		{Label: "compiler.time.profiled", Metric: bench.Metric{Unit: "ms", Policy: bench.Sum}},
		{Label: "compiler.time.total", Metric: bench.Metric{Unit: "ms", Policy: bench.Maximum}},
	}
}

// compileTimer keeps a VM's total compile time from its own compile
// events, as HotSpot's CompilationMXBean.getTotalCompilationTime counts
// it: the time of every compile from its start on a compiler thread to the
// install of its code (normal or OSR), summed when the code is installed.
// A compile that fails installs nothing and is not counted (the VM does
// not report failures to subscribers).
type compileTimer struct {
	mu      sync.Mutex
	started map[int]time.Duration
	total   time.Duration
	unsub   func()
}

func newCompileTimer(vm *jrt.VM) *compileTimer {
	c := &compileTimer{started: map[int]time.Duration{}}
	c.unsub = vm.Subscribe(func(e jrt.Event) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch e.Kind {
		case jrt.EventStarted:
			c.started[e.CompileID] = e.At
		case jrt.EventInstalled, jrt.EventOSR:
			if at, ok := c.started[e.CompileID]; ok {
				delete(c.started, e.CompileID)
				if e.At > at {
					c.total += e.At - at
				}
			}
		}
	})
	return c
}

// millis is the total so far in whole milliseconds, as the MXBean gives it.
func (c *compileTimer) millis() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total.Milliseconds()
}

func (c *compileTimer) stop() { c.unsub() }

// iteration runs one iteration and returns its score. A single-shot
// iteration is one batch of shots operations, scored by its time; a timed
// iteration runs batches until budget has passed on the clock, each thread
// summing its operations and time, scored as the threads' summed
// throughput (thrpt) or mean time per operation (avgt). The batch size
// doubles while a batch takes under an eighth of the budget.
func (b *benchRun) iteration(ctx context.Context, env scenario.Env, clock jrt.Clock, budget time.Duration, shots int, batch *int, warm bool) (float64, error) {
	threads := env.Threads
	ops := make([]int64, threads)
	dur := make([]time.Duration, threads)
	n := *batch
	if b.mode == bench.SingleShotTime {
		n = max(shots, 1)
	}
	t0 := clock.Now()
	for {
		bs, err := b.scen.RunBatch(ctx, env, b.props, n, io.Discard)
		if err != nil {
			return 0, err
		}
		if len(bs) != threads {
			return 0, fmt.Errorf("BUG: %d batches for %d threads", len(bs), threads)
		}
		var longest time.Duration
		for _, x := range bs {
			ops[x.Thread] += x.Ops
			dur[x.Thread] += x.Duration
			longest = max(longest, x.Duration)
			if x.Ops > 0 {
				b.bytesOp = x.Bytes / x.Ops
			}
		}
		if b.mode == bench.SingleShotTime {
			break
		}
		if el := clock.Now() - t0; el >= budget {
			if el > budget+budget/2 && !warm {
				b.overran++ // one batch took longer than the iteration
			}
			break
		}
		if longest < budget/8 {
			n *= 2
		}
	}
	if b.mode != bench.SingleShotTime {
		*batch = n
	}
	var score float64
	for t := range threads {
		ns := float64(dur[t].Nanoseconds())
		switch {
		case b.mode == bench.Throughput && ns > 0:
			score += float64(ops[t]) / (ns / b.unitNS)
		case b.mode == bench.SingleShotTime:
			score += ns / b.unitNS / float64(threads)
		case b.mode != bench.Throughput:
			score += ns / float64(ops[t]) / b.unitNS / float64(threads)
		}
	}
	return score, nil
}
