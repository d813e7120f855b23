package calibrate

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// A calibration against a real JVM (`jitsim calibrate --jvm`) runs jvmharness's Cost
// program under a list of flag sets — one per execution level, one per UseAVX level that
// selects other stub variants — in interleaved rounds, and composes the model's profile from
// the medians (model.FromJVM). It measures only primitives: ECB encryption and decryption
// (the AES block methods), the JDK's own GHASH.update, CTR (the counter loop), a non-inlined
// call, the provider glue, the compilers' speed, and at C2 the JDK's own
// GaloisCounterMode.implGCMCrypt0 (the combined GCM stub, JDK 21+). GCM and CBC of a payload are never measured: they are what
// `jitsim validate` checks the composition against.

// JVMOptions say which JVM a calibration measures and how long.
type JVMOptions struct {
	// Java is the java command (a path or a name on PATH).
	Java string
	// CPU is the CPU model the profile prices: this host's ("host").
	CPU cpu.Model
	// Rounds is the number of interleaved rounds; each value is their median.
	Rounds int
	// Quick shortens every measurement (a rough profile in about a minute).
	Quick bool
	// Command is the jitsim command line, recorded in the provenance.
	Command string
	// Progress, when set, is told before each JVM run: runs done, runs in all, and what.
	Progress func(done, total int, what string)
	// Run runs the harness (tests replay recordings); nil: the compiled Cost program on Java.
	Run func(ctx context.Context, vmOptions []string) (string, error)
	// RunIdle runs the background run once (the twin's Idle scenario under
	// -XX:+LogCompilation) and returns its stderr and compilation log; nil: the compiled
	// JitsimBench program on Java when Run is nil too, else no background is measured.
	RunIdle func(ctx context.Context) (stderr, log string, err error)
	// RunCompiles runs the compile-time run once with these VM options (the timed compiles'
	// flight recording is its own): its stdout and the recording's jdk.Compilation events as
	// `jfr print --json` prints them. Nil: the compiled Cost program with the jfr tool beside
	// Java when Run is nil too, else the compilers keep their -XX:+CITime speed.
	RunCompiles func(ctx context.Context, vmOptions []string) (stdout, events string, err error)
	// Now and Load are the clock and the load average of the provenance; nil: the real ones.
	Now  func() time.Time
	Load func() string
	// ExtraRounds is how many more rounds a level run gets whose Java rows have not settled
	// (unsettled: they disagree by more than ±25 % and no two rounds agree at the fast end),
	// one extra round at a time over the runs still unsettled, while the calibration has run
	// less than Budget. A row's rounds at one level were seen at two speeds often enough
	// (C1's GHASH 11.5 or 16–18 ns/byte, C2's Java AES 3.8 or 5.0) that three rounds may
	// hold the fast one only once.
	ExtraRounds int
	Budget      time.Duration
	// ModelOp, when set, runs jitsim's own 16-byte "final" operation of glue mode mode
	// ("gcm": a decryption; "cbc", "ctr": an encryption) on profile p on the model clock,
	// under the VM options given (a level's: -Xint, -XX:TieredStopAtLevel=N, -XX:UseAVX=N),
	// and returns its time per operation in ps: the glue rows are the JVM's operation less
	// that (model.Measurements.GlueCharged). Nil: less the operation's bytes priced per byte.
	ModelOp func(ctx context.Context, p model.Profile, rel jdk.Release, options []string, mode string) (int64, error)
}

// jvmRun is one flag set of the harness: the options it runs Cost with and the rows it reads.
type jvmRun struct {
	name    string
	options []string
	modes   []string
	citime  bool
	// fastest takes each round's fastest timed sub-round instead of its median: the stub
	// runs, because at C2 JDK 17 was seen running GMAC's AAD path at Java speed for
	// seconds at a time (a round's sub-rounds 5 µs and 150 µs per 16 KiB), and the stub is
	// what the row prices.
	fastest bool
}

// glueModes are the provider glue's rows of each mode on 16-byte messages.
var glueModes = func() []string {
	var ms []string
	for _, g := range model.GlueModes {
		ms = append(ms, "glue-"+g.Name+"-final", "glue-"+g.Name+"-init")
	}
	return ms
}()

// javaModes are the primitives measured at levels 0–3: the code per byte, a call, and the
// provider glue. C2's glue is measured in the first stub run (model.Measurements.GlueC2).
var javaModes = slices.Concat(model.JavaModes, glueModes)

// isGlue says whether mode is a provider-glue row. Those take each round's fastest sub-round,
// like the stub runs: the harness's loop of 16-byte operations runs in two modes within one
// JVM — a 16-byte GCM decryption's doFinal in 0.2 µs in some sub-rounds and 3.1 µs in others on
// Temurin 25 at C2, 0.2 and 2.5 µs on JDK 17 — and the median of a round falls on either,
// where a 16 KiB GCM operation beside it costs about 1 µs in all.
func isGlue(mode string) bool { return slices.Contains(glueModes, mode) }

// stubModes are the primitives measured per UseAVX level, and the stub entries that can serve
// each at C2, the preferred first (a mode served by none of them measures no stub). A
// direct mode (model.Direct) calls the JDK-internal method the stub replaces (it needs
// openGHASH): a run times it only where one of its entries serves it. GHASH's stub is timed through the JDK's
// own GHASH.update, not GMAC: at C2, JDK 17's GMAC ran at 0.27–5.7 ns/byte in its fastest
// sub-rounds across five JVMs (its AAD path stays in Java for seconds at a time), where
// GHASH.update beside it ran at 0.144–0.166, GCM − CTR's 0.164
// (runtime/model/testdata/jvm/README.md).
var stubModes = []struct {
	mode    string
	entries []string
}{
	{"ecb-enc", []string{aes.StubECBEncrypt, aes.StubEncryptBlock}},
	{"ecb-dec", []string{aes.StubECBDecrypt, aes.StubDecryptBlock}},
	{"ctr", []string{aes.StubCTR}},
	{model.GHASHMode, []string{gcm.StubGHASH}},
	{model.GCMCrypt0Mode, []string{gcm.StubGCM}},
}

const diagnostic = "-XX:+UnlockDiagnosticVMOptions"

// openGHASH lets the harness call the JDK's own GHASH (its model.GHASHMode row) and
// GaloisCounterMode.implGCMCrypt0 (model.GCMCrypt0Mode).
const openGHASH = "--add-opens=java.base/com.sun.crypto.provider=ALL-UNNAMED"

// levelRuns are the runs that measure Java code at levels 0..4.
func levelRuns() []jvmRun {
	return []jvmRun{
		{name: "interp", options: []string{openGHASH, "-Xint"}, modes: javaModes},
		{name: "c1-l1", options: []string{openGHASH, "-XX:TieredStopAtLevel=1"}, modes: javaModes},
		{name: "c1-l2", options: []string{openGHASH, "-XX:TieredStopAtLevel=2"}, modes: javaModes},
		{name: "c1-l3", options: []string{openGHASH, "-XX:TieredStopAtLevel=3", "-XX:+CITime"}, modes: javaModes, citime: true},
		{name: "c2-nointr", options: []string{openGHASH, diagnostic, "-XX:-UseAESIntrinsics", "-XX:-UseAESCTRIntrinsics", "-XX:-UseGHASHIntrinsics", "-XX:+CITime"},
			modes: model.JavaModes, citime: true},
	}
}

// firstUseRuns are the runs that measure each glue mode's first use, one fresh JVM each (a
// second mode's first use in the same JVM would find the shared classes loaded), with the
// CPU's own flags.
func firstUseRuns() []jvmRun {
	var runs []jvmRun
	for _, g := range model.GlueModes {
		run := model.FirstUseRun(g.Name)
		runs = append(runs, jvmRun{name: run, modes: []string{run + "-instance", run + "-op"}})
	}
	return runs
}

// stubRuns are the C2 runs at each UseAVX level the CPU supports that selects a set of stub
// variants no higher level selects, and which variant each run's modes measure. The first,
// the CPU's own UseAVX, also measures C2's provider glue.
func stubRuns(rel jdk.Release, m cpu.Model) ([]jvmRun, map[variant.ID][]model.RunMode) {
	which := map[variant.ID][]model.RunMode{}
	if m.Arch != jdk.AMD64 {
		served := servedBy("c2-default", rel, m, 0)
		run := jvmRun{name: "c2-default", options: directOpens(served), modes: modeNames(served), fastest: true}
		for id, rm := range served {
			which[id] = []model.RunMode{rm}
		}
		run.modes = append(run.modes, glueModes...)
		return append([]jvmRun{run}, counterLoopRuns(rel, m)...), which
	}
	var runs []jvmRun
	var seen []string
	for avx := (cpu.Mask{Release: rel, UseSSE: 4}).AVXLimit(m.Features); avx >= 0; avx-- {
		name := fmt.Sprintf("c2-avx%d", avx)
		served := servedBy(name, rel, m, avx)
		var key []string
		for id, rm := range served {
			key = append(key, rm.Mode+"="+id.Name())
		}
		slices.Sort(key)
		k := strings.Join(key, " ")
		if len(served) == 0 || slices.Contains(seen, k) {
			continue
		}
		seen = append(seen, k)
		runs = append(runs, jvmRun{name: name, options: append(directOpens(served), fmt.Sprintf("-XX:UseAVX=%d", avx)), modes: modeNames(served), fastest: true})
		for id, rm := range served {
			which[id] = append(which[id], rm)
		}
	}
	if len(runs) > 0 { // the CPU's default flags: C2's glue (model.Measurements.GlueC2)
		runs[0].modes = append(runs[0].modes, glueModes...)
	}
	return append(runs, counterLoopRuns(rel, m)...), which
}

// counterLoopRuns is model.CounterLoopRun where the CPU and release have it: CTR at C2 with
// the CTR stub off and the AES block stub on, everything else at the CPU's default.
func counterLoopRuns(rel jdk.Release, m cpu.Model) []jvmRun {
	if _, ok := model.CounterLoopVariant(m, rel); !ok {
		return nil
	}
	return []jvmRun{{name: model.CounterLoopRun, options: []string{diagnostic, "-XX:-UseAESCTRIntrinsics"}, modes: []string{"ctr"}, fastest: true}}
}

// directOpens are the options a stub run needs for its direct modes: the --add-opens that
// lets the harness call the JDK's internal method, when one is timed.
func directOpens(served map[variant.ID]model.RunMode) []string {
	for _, s := range stubModes {
		if model.Direct(s.mode) && servesMode(served, s.mode) {
			return []string{openGHASH}
		}
	}
	return nil
}

// servesMode says whether a variant of served is priced by mode.
func servesMode(served map[variant.ID]model.RunMode, mode string) bool {
	for _, rm := range served {
		if rm.Mode == mode {
			return true
		}
	}
	return false
}

// modeNames are the stub modes a run times: every Cipher mode, and the direct modes that
// one of its variants serves.
func modeNames(served map[variant.ID]model.RunMode) []string {
	var ns []string
	for _, s := range stubModes {
		if model.Direct(s.mode) && !servesMode(served, s.mode) {
			continue
		}
		ns = append(ns, s.mode)
	}
	return ns
}

// servedBy says which stub variant serves each stub mode in run on m at UseAVX=avx, with the
// intrinsics on.
func servedBy(run string, rel jdk.Release, m cpu.Model, avx int) map[variant.ID]model.RunMode {
	cfg := stubs.Config{JDK: rel, Arch: m.Arch, UseAES: true, UseAESIntrinsics: true, UseAESCTRIntrinsics: true, UseGHASHIntrinsics: true,
		UseAVX: avx, UseSSE: 4}
	out := map[variant.ID]model.RunMode{}
	for _, s := range stubModes {
		for _, e := range s.entries {
			if v, ok := stubs.Select(e, cfg, m.Features); ok {
				out[v.ID] = model.RunMode{Run: run, Mode: s.mode}
				break
			}
		}
	}
	return out
}

// timing is the harness's -D options: quick or full.
func timing(quick bool, run jvmRun) []string {
	warmOps := 0
	switch {
	case strings.HasPrefix(run.name, "c2"):
		// C2 compiles a method called once per operation after 5 000–15 000 calls
		// (Tier4InvocationThreshold, Tier4CompileThreshold): until then a mode's caller runs
		// C1 code that calls Java code the stub replaces at C2, a plateau a stability test
		// alone would take for the steady state.
		warmOps = 30000
	case strings.HasPrefix(run.name, "c1"):
		warmOps = 3000
	}
	if quick {
		return []string{"-DwarmMs=150", "-DstepMs=60", "-DmeasureMs=100", fmt.Sprintf("-DwarmOps=%d", warmOps/2)}
	}
	return []string{"-DwarmMs=400", "-DstepMs=100", "-DmeasureMs=300", fmt.Sprintf("-DwarmOps=%d", warmOps)}
}

// harnessOptions are the JVM options of one run of the harness.
func harnessOptions(quick bool, run jvmRun) []string {
	opts := append(append([]string{}, run.options...), timing(quick, run)...)
	return append(opts, "-Donly="+strings.Join(run.modes, ","))
}

// sample is one round's value of one measurement.
type sample struct {
	value    float64 // ps per byte, ps per call, or bytes/s for a CITime tier
	min, max float64 // the round's fastest and slowest sub-round, same unit
	op       float64 // CPU ns per operation, as printed
	size     int     // the operation's payload in bytes, as printed (0 for "call")
	sentinel float64 // the machine sentinel's reading beside the row, ps per read (0: none)
}

// parseCost reads the rows of one harness run: mode → sample, and CITime tier → speed.
func parseCost(out string) (rows map[string]sample, speeds map[string]float64, err error) {
	rows, speeds = map[string]sample{}, map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if f := strings.Fields(l); len(f) > 0 && f[0] == "row" {
			if len(f) < 3 {
				return nil, nil, fmt.Errorf("harness output line %d: %q: a row too short", line, l)
			}
			kv := map[string]float64{}
			for _, x := range f[2:] {
				k, v, ok := strings.Cut(x, "=")
				if !ok {
					return nil, nil, fmt.Errorf("harness output line %d: %q: %q is not key=value", line, l, x)
				}
				n, err := strconv.ParseFloat(v, 64)
				if err != nil || !(n >= 0 && n <= 1e15) {
					return nil, nil, fmt.Errorf("harness output line %d: %q: %s=%s is not a measurement", line, l, k, v)
				}
				kv[k] = n
			}
			var s sample
			if f[1] == "call" {
				s = sample{value: kv["cpu-ns/call"] * 1000, min: kv["min"] * 1000, max: kv["max"] * 1000, op: kv["cpu-ns/call"], sentinel: kv["sentinel"]}
			} else {
				size := kv["size"]
				if size <= 0 {
					return nil, nil, fmt.Errorf("harness output line %d: %q: no size", line, l)
				}
				if size != float64(int(size)) || size > 1<<30 {
					return nil, nil, fmt.Errorf("harness output line %d: %q: size=%v is not a byte count", line, l, size)
				}
				s = sample{value: kv["cpu-ns/byte"] * 1000, min: kv["min"] * 1000 / size, max: kv["max"] * 1000 / size, op: kv["cpu-ns/op"], size: int(size),
					sentinel: kv["sentinel"]}
			}
			if !(s.value > 0) {
				return nil, nil, fmt.Errorf("harness output line %d: %q: no time", line, l)
			}
			rows[f[1]] = s
			continue
		}
		// -XX:+CITime: "  Tier3 {speed: 80653.250 bytes/s; standard: …"
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "Tier") && strings.Contains(t, "{speed:") {
			tier := strings.Fields(t)[0]
			rest := t[strings.Index(t, "{speed:")+len("{speed:"):]
			f := strings.Fields(rest)
			if len(f) > 0 {
				if v, err := strconv.ParseFloat(f[0], 64); err == nil && v > 0 {
					speeds[tier] = v
				}
			}
		}
	}
	return rows, speeds, sc.Err()
}

// JVMResult is a calibration's profile and what each of its measurements was.
type JVMResult struct {
	Profile model.Profile
	Release jdk.Release
	// Measured are the measurements, per run and mode: the value the profile takes, the
	// median and the spread over the rounds.
	Measured []Measured
	// Sentinel says what the machine sentinel read through the calibration.
	Sentinel string
	// Compiles says what priced the compilers: the compile-time run's fits, or why not.
	Compiles string
}

// Spread is the larger distance from the median to the fastest or slowest timed sub-round
// of any round, relative to the median.
func (m Measured) Spread() float64 {
	if m.Median <= 0 {
		return 0
	}
	lo, hi := min(m.Min, m.SubMin), max(m.Max, m.SubMax)
	if strings.HasPrefix(m.Mode, "Tier") {
		lo, hi = m.Min, m.Max
	}
	return max(hi-m.Median, m.Median-lo) / m.Median
}

// Measured is one measurement over the rounds.
type Measured struct {
	Run, Mode string
	// Value is what the profile takes: Settled over the rounds the machine sentinel did not
	// mark disturbed (over all, when fewer than two are left; the median of all for a CITime
	// tier), from Used of them.
	Value            float64
	Used             int
	Median, Min, Max float64 // over the rounds: ps per byte (per call for "call"; bytes/s for a CITime tier)
	Command          string
	Rounds           int
	SubMin, SubMax   float64 // the fastest and slowest timed sub-round of any round
	// Disturbed is how many of the rounds had the machine sentinel read over
	// disturbedAbove times the fastest reading of the row beside it (Sentinel); Value
	// leaves them out when two or more other rounds remain.
	Disturbed int
}

// JVM calibrates against the real JVM o.Java: it runs every flag set once per round, round
// after round (so a change of machine load spreads over all of them), and composes the
// profile from the medians. Cancelling ctx stops the JVM and returns ctx's error.
func JVM(ctx context.Context, o JVMOptions) (JVMResult, error) {
	if o.Rounds < 1 {
		return JVMResult{}, fmt.Errorf("calibrate: %d rounds", o.Rounds)
	}
	now, load := o.Now, o.Load
	if now == nil {
		now = time.Now
	}
	if load == nil {
		load = loadAverage
	}
	props, err := jvmProperties(ctx, o)
	if err != nil {
		return JVMResult{}, err
	}
	rel, err := releaseOf(props)
	if err != nil {
		return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
	}
	run, runCompiled := o.Run, o.RunCompiles
	var noCompiles error // why the compilers keep their CITime speed
	if run == nil {
		prog, err := jvmharness.Compile(ctx, o.Java, jvmharness.Cost)
		if err != nil {
			return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
		}
		defer prog.Close()
		run = func(ctx context.Context, opts []string) (string, error) {
			out, err := prog.Run(ctx, opts)
			return string(out.Stdout), err
		}
		if runCompiled == nil {
			if tool, err := jfrTool(o.Java); err != nil {
				noCompiles = fmt.Errorf("%w: %w", errNoRecording, err)
			} else {
				runCompiled = func(ctx context.Context, opts []string) (string, string, error) {
					return runCompiles(ctx, prog, tool, opts)
				}
			}
		}
	} else if runCompiled == nil {
		noCompiles = fmt.Errorf("%w: the harness is replayed", errNoRecording)
	}
	var clock clockSamples
	if err := clock.sample(5, 20*time.Millisecond); err != nil {
		return JVMResult{}, err
	}
	sent := NewSentinel()
	disturbed := func(run, mode string) func(sample) bool {
		return func(s sample) bool { return sent.Disturbed(run+" "+mode, s.sentinel) }
	}
	start, loadBefore := now(), load()
	runs := levelRuns()
	sruns, stubOf := stubRuns(rel, o.CPU)
	runs = append(runs, sruns...)
	runs = append(runs, firstUseRuns()...)
	glueC2 := ""
	if len(sruns) > 0 {
		glueC2 = sruns[0].name
	}
	type key struct{ run, mode string }
	samples := map[key][]sample{}
	payload := 0 // the per-byte rows' payload (Measurements.Size), as the harness printed it
	commands := map[string]string{}
	fastestRun := map[string]bool{}
	for _, r := range runs {
		fastestRun[r.name] = r.fastest
	}
	total, done := o.Rounds*len(runs), 0
	if runCompiled != nil {
		total += o.Rounds
	}
	var timed []timedCompile
	compileCommand := ""
	// timeCompiles runs the compile-time run once; a JVM that cannot record its compiles
	// keeps the CITime speeds, and is not asked again.
	timeCompiles := func(round int) error {
		if runCompiled == nil || noCompiles != nil {
			return nil
		}
		if o.Progress != nil {
			o.Progress(done, total, fmt.Sprintf("round %d/%d: %s", round, o.Rounds, compileRunName))
		}
		cr := compileRun()
		opts := harnessOptions(o.Quick, cr)
		compileCommand = o.Java + " " + strings.Join(jvmharness.Options(append(recordingOptions("FILE"), opts...)), " ") + " Cost"
		stdout, events, err := runCompiled(ctx, opts)
		done++
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			var rec []recordedCompile
			if rec, err = parseCompileEvents(events); err == nil {
				timed = append(timed, joinCompiles(parsePrintedCompiles(stdout), rec)...)
				return nil
			}
		}
		noCompiles = fmt.Errorf("%w: %s: %w", errNoRecording, compileRunName, err)
		return nil
	}
	measure := func(r jvmRun, what string) error {
		if o.Progress != nil {
			o.Progress(done, total, what)
		}
		if err := clock.sample(1, 20*time.Millisecond); err != nil {
			return err
		}
		opts := harnessOptions(o.Quick, r)
		commands[r.name] = o.Java + " " + strings.Join(jvmharness.Options(opts), " ") + " Cost"
		out, err := run(ctx, opts)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("calibrate: --jvm=%s: run %s: %w", o.Java, r.name, err)
		}
		rows, speeds, err := parseCost(out)
		if err != nil {
			return fmt.Errorf("calibrate: --jvm=%s: run %s: %w", o.Java, r.name, err)
		}
		for _, m := range r.modes {
			s, ok := rows[m]
			if !ok {
				return fmt.Errorf("calibrate: --jvm=%s: run %s printed no %s row:\n%s", o.Java, r.name, m, clip(out))
			}
			if r.fastest || isGlue(m) {
				s.value = s.min
			}
			sent.Add(r.name+" "+m, s.sentinel)
			if s.size > 0 && !isGlue(m) && !strings.HasPrefix(m, "first-") {
				if payload != 0 && s.size != payload {
					return fmt.Errorf("calibrate: --jvm=%s: run %s: row %s over %d bytes, other rows over %d", o.Java, r.name, m, s.size, payload)
				}
				payload = s.size
			}
			samples[key{r.name, m}] = append(samples[key{r.name, m}], s)
		}
		if r.citime {
			for t, v := range speeds {
				samples[key{r.name, t}] = append(samples[key{r.name, t}], sample{value: v, min: v, max: v})
			}
		}
		done++
		return nil
	}
	for round := 1; round <= o.Rounds; round++ {
		for _, r := range runs {
			if err := measure(r, fmt.Sprintf("round %d/%d: %s", round, o.Rounds, r.name)); err != nil {
				return JVMResult{}, err
			}
		}
		if err := timeCompiles(round); err != nil {
			return JVMResult{}, err
		}
	}
	// Unsettled level runs get more rounds (JVMOptions.ExtraRounds), within the budget: no
	// run starts once it is spent.
	spent := func() bool { return o.Budget > 0 && now().Sub(start) >= o.Budget }
extraRounds:
	for extra := 1; extra <= o.ExtraRounds; extra++ {
		var again []jvmRun
		for _, r := range levelRuns() {
			for _, m := range model.JavaModes {
				if unsettled(samples[key{r.name, m}], disturbed(r.name, m)) {
					again = append(again, r)
					break
				}
			}
		}
		if len(again) == 0 || spent() {
			break
		}
		total += len(again)
		for i, r := range again {
			if i > 0 && spent() {
				total -= len(again) - i
				break extraRounds
			}
			if err := measure(r, fmt.Sprintf("extra round %d/%d: %s (its rounds disagree by more than ±25 %%)", extra, o.ExtraRounds, r.name)); err != nil {
				return JVMResult{}, err
			}
		}
	}
	if o.Progress != nil {
		o.Progress(done, total, "done")
	}
	var res JVMResult
	mhz, mhzSrc := clock.result()
	meas := model.Measurements{Rows: map[model.RunMode]model.Measure{}, Compile: map[model.RunMode]model.Measure{},
		Stubs: map[variant.ID]model.RunMode{}, C1: model.RunMode{Run: "c1-l3", Mode: "Tier3"}, C2: model.RunMode{Run: "c2-nointr", Mode: "Tier4"}, GlueC2: glueC2, Size: payload,
		MHz: mhz, MHzSource: mhzSrc}
	for i, r := range levelRuns() {
		meas.Levels[i] = r.name
	}
	allRows, allDisturbed := 0, 0
	keys := make([]key, 0, len(samples))
	for k := range samples {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return strings.Compare(a.run+" "+a.mode, b.run+" "+b.mode) })
	for _, k := range keys {
		ss := samples[k]
		lo, hi := ss[0].min, ss[0].max
		for _, s := range ss {
			lo, hi = min(lo, s.min), max(hi, s.max)
		}
		vals, unmarked := marks(ss, disturbed(k.run, k.mode))
		nDisturbed := len(vals) - len(unmarked)
		allRows += len(ss)
		allDisturbed += nDisturbed
		compile := strings.HasPrefix(k.mode, "Tier")
		med, mn, mx := Median(vals), slices.Min(vals), slices.Max(vals)
		val, used := med, len(vals)
		kept := vals
		if !compile {
			kept = usable(vals, unmarked)
			val, used = Settled(kept)
		}
		unit := "ps/byte"
		switch {
		case compile:
			unit = "bytes/s"
		case k.mode == "call":
			unit = "ps/call"
		}
		rounds := fmt.Sprintf("%d interleaved rounds", len(ss))
		switch left := len(kept) < len(ss); {
		case left && used < len(kept):
			rounds = fmt.Sprintf("the %d of %d interleaved rounds the machine sentinel did not mark disturbed and within 25 %% of the fastest", used, len(ss))
		case left:
			rounds = fmt.Sprintf("the %d of %d interleaved rounds the machine sentinel did not mark disturbed", used, len(ss))
		case used < len(ss):
			rounds = fmt.Sprintf("the %d of %d interleaved rounds within 25 %% of the fastest", used, len(ss))
		}
		what := "median of " + rounds
		if (fastestRun[k.run] || isGlue(k.mode)) && !compile {
			what = "median of the fastest sub-rounds of " + rounds
		}
		src := fmt.Sprintf("`%s`, row %s: %s in thread CPU time %.0f %s (rounds %.0f–%.0f)",
			commands[k.run], k.mode, what, val, unit, mn, mx)
		mv := model.Measure{Value: int64(val + 0.5), Source: src}
		if compile {
			meas.Compile[model.RunMode{Run: k.run, Mode: k.mode}] = mv
		} else {
			meas.Rows[model.RunMode{Run: k.run, Mode: k.mode}] = mv
		}
		res.Measured = append(res.Measured, Measured{Run: k.run, Mode: k.mode, Value: val, Used: used, Median: med, Min: mn, Max: mx,
			Command: commands[k.run], Rounds: len(ss), SubMin: lo, SubMax: hi, Disturbed: nDisturbed})
	}
	res.Sentinel = sent.Summary(allRows, allDisturbed)
	if noCompiles == nil && runCompiled != nil {
		speed := map[string]float64{}
		for what, rm := range map[string]model.RunMode{model.WhatCompileC1: meas.C1, model.WhatCompileC2: meas.C2} {
			if v := meas.Compile[rm].Value; v > 0 {
				speed[what] = 1e12 / float64(v)
			}
		}
		var why map[string]string
		meas.CompileTimes, why = fitCompileTimes(timed, rel, fmt.Sprintf("`%s`, %d rounds", compileCommand, o.Rounds), speed)
		res.Compiles = compileTimesSummary(meas.CompileTimes, why)
	} else {
		res.Compiles = "-XX:+CITime speeds (" + noCompiles.Error() + ")"
	}
	// A variant several UseAVX levels select is priced by its fastest measurement: what
	// slows one run of a stub down is the JVM running the mode's Java path for a while
	// (see jvmRun.fastest), never the stub.
	for id, cands := range stubOf {
		best, bestV := cands[0], -1.0
		for _, c := range cands {
			i := slices.IndexFunc(res.Measured, func(m Measured) bool { return m.Run == c.Run && m.Mode == c.Mode })
			if i < 0 {
				continue
			}
			if v := res.Measured[i].Value; bestV < 0 || v < bestV {
				best, bestV = c, v
			}
		}
		meas.Stubs[id] = best
	}
	var feats []string
	for _, f := range cpu.Normalize(o.CPU.Features).Features() {
		feats = append(feats, f.String())
	}
	prov := model.Provenance{JVM: o.Java, JVMVersion: props["java.vm.version"], JVMVendor: props["java.vendor"], CPUModel: cpuModelName(),
		Features: feats, Date: start.UTC().Format(time.RFC3339), Load: fmt.Sprintf("before %s, after %s", loadBefore, load()),
		Rounds: o.Rounds, Command: o.Command}
	if prov.JVMVersion == "" {
		prov.JVMVersion = props["java.version"]
	}
	idle := o.RunIdle
	if idle == nil && o.Run == nil {
		prog, err := jvmharness.Compile(ctx, o.Java, jvmharness.Bench)
		if err != nil {
			return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
		}
		defer prog.Close()
		idle = func(ctx context.Context) (string, string, error) { return runIdle(ctx, prog, o.Quick) }
	}
	var bg *model.Background
	if idle != nil {
		if o.Progress != nil {
			o.Progress(done, total, "the JVM's own compiles beside a workload")
		}
		command := o.Java + " " + strings.Join(jvmharness.Options(idleOptions("FILE")), " ") + " JitsimBench " + strings.Join(idleArgs(o.Quick), " ")
		if bg, err = background(ctx, o.Rounds, command, idle); err != nil {
			return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
		}
	}
	if o.ModelOp != nil {
		if err := glueCharged(ctx, o, rel, &meas, prov, runs); err != nil {
			return JVMResult{}, err
		}
	}
	p, err := model.FromJVM(o.CPU, rel, meas, prov)
	if err != nil {
		return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
	}
	if bg != nil {
		p.Background = bg
		if err := p.Validate(); err != nil {
			return JVMResult{}, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
		}
	}
	res.Profile, res.Release = p, rel
	return res, nil
}

// Settled is the value a row's rounds give and how many rounds it rests on: the median of
// the rounds within 25 % of the fastest when at least two lie there, else the median of all.
//
// What slows a primitive down between rounds is mostly not the JVM: on a shared 2-vCPU VM
// the same compiled Java loop in one JVM, with no compile or collection in between, ran
// ×1.5 slower for seconds at a time and then fast again, and the GCM stub likewise, while a
// multiply chain beside them moved 5 % (docs/measurements/validate.md §19). A row measures
// for 0.3 s per JVM, so a round lands inside such a stretch or not, and the rounds of one
// calibration are minutes apart. Interference only ever adds time, so a speed two rounds
// reproduce at the fast end is the machine's undisturbed one; a single fast round is not
// taken (it may be a rare shape of the JVM's own code), and the median decides then. A
// row whose rounds all agree gets its median, as before.
func Settled(v []float64) (float64, int) {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 || !(s[0] > 0) {
		return Median(v), len(v)
	}
	n := 0
	for n < len(s) && s[n] <= 1.25*s[0] {
		n++
	}
	if n < 2 {
		return Median(v), len(v)
	}
	return Median(s[:n]), n
}

// unsettled says whether a row's rounds have not yet settled: the machine sentinel marked
// all but one of them disturbed, or those it did not mark (all, when fewer than two are left)
// disagree by more than ±25 % (the slowest over 1.25 times the fastest) and no two of them are
// within 25 % of the fastest.
func unsettled(ss []sample, disturbed func(sample) bool) bool {
	if len(ss) < 2 {
		return false
	}
	all, kept := marks(ss, disturbed)
	if len(kept) < len(all) && len(kept) < 2 {
		return true
	}
	vals := usable(all, kept)
	lo, hi := slices.Min(vals), slices.Max(vals)
	if !(lo > 0 && hi > 1.25*lo) {
		return false
	}
	_, used := Settled(vals)
	return used == len(vals)
}

// glueCharged fills meas.GlueCharged: what jitsim itself charges, on the profile composed
// without glue, for each glue mode's 16-byte operation at each level the glue was measured
// at, under the VM options of the run that measured it.
func glueCharged(ctx context.Context, o JVMOptions, rel jdk.Release, meas *model.Measurements, prov model.Provenance, runs []jvmRun) error {
	bare, err := model.FromJVM(o.CPU, rel, meas.WithoutGlue(), prov)
	if err != nil {
		return fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
	}
	meas.GlueCharged = map[model.GlueLevelMode]int64{}
	for level, run := range meas.Levels {
		if level == 4 && meas.GlueC2 != "" {
			run = meas.GlueC2
		}
		i := slices.IndexFunc(runs, func(r jvmRun) bool { return r.name == run })
		if i < 0 {
			return fmt.Errorf("BUG: calibrate: no run %s", run)
		}
		var opts []string
		for _, opt := range runs[i].options {
			if opt == "-Xint" || strings.HasPrefix(opt, "-XX:TieredStopAtLevel=") || strings.HasPrefix(opt, "-XX:UseAVX=") {
				opts = append(opts, opt)
			}
		}
		for _, g := range model.GlueModes {
			if _, ok := meas.Rows[model.RunMode{Run: run, Mode: "glue-" + g.Name + "-final"}]; !ok {
				continue
			}
			if o.Progress != nil {
				o.Progress(1, 1, fmt.Sprintf("jitsim's own %s operation at level %d", g.Name, level))
			}
			ps, err := o.ModelOp(ctx, bare, rel, opts, g.Name)
			if err != nil {
				return fmt.Errorf("calibrate: jitsim's own %s operation under %q: %w", g.Name, opts, err)
			}
			meas.GlueCharged[model.GlueLevelMode{Level: level, Mode: g.Name}] = ps
		}
	}
	return nil
}

// jvmProperties asks the JVM for its system properties (or, when tests replay a recording,
// takes them from the recording's "props" run).
func jvmProperties(ctx context.Context, o JVMOptions) (map[string]string, error) {
	if o.Run != nil {
		out, err := o.Run(ctx, []string{"-XshowSettings:properties", "-version"})
		if err != nil {
			return nil, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
		}
		props := map[string]string{}
		for _, l := range strings.Split(out, "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(l), " = "); ok {
				props[k] = v
			}
		}
		return props, nil
	}
	if st, err := os.Stat(o.Java); err == nil && st.IsDir() {
		return nil, fmt.Errorf("calibrate: --jvm=%s is a directory; give its bin/java", o.Java)
	}
	props, err := jvmharness.Properties(ctx, o.Java)
	if err != nil {
		return nil, fmt.Errorf("calibrate: --jvm=%s: %w", o.Java, err)
	}
	return props, nil
}

// releaseOf is the release jitsim models for a JVM's java.specification.version.
func releaseOf(props map[string]string) (jdk.Release, error) {
	spec := props["java.specification.version"]
	name := strings.TrimPrefix(spec, "1.")
	rel, err := jdk.Parse(name)
	if err != nil || spec == "" {
		return 0, fmt.Errorf("java %s (specification %q) is no release jitsim models (%s)", props["java.version"], spec, strings.Join(jdk.Names(), ", "))
	}
	return rel, nil
}

// Median is the median of v (the mean of the middle two for an even count).
func Median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// loadAverage is /proc/loadavg's first three fields, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// cpuModelName is the processor's model name from /proc/cpuinfo, or the architecture.
func cpuModelName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				return strings.TrimSpace(v)
			}
		}
	}
	return goruntime.GOARCH + " (no /proc/cpuinfo model name)"
}

// WriteMeasured prints the measurements of a JVM calibration: run, mode, the value taken and
// how many rounds it rests on, the median and range over the rounds, and the spread.
func WriteMeasured(w io.Writer, ms []Measured) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tmeasured\tvalue\trounds used\tmedian\trounds min–max\tsub-rounds min–max\tspread\tdisturbed\tunit\t")
	for _, m := range ms {
		unit := "ps/byte"
		switch {
		case strings.HasPrefix(m.Mode, "Tier"):
			unit = "bytes/s"
		case m.Mode == "call":
			unit = "ps/call"
		}
		noisy := ""
		if m.Spread() > 0.25 {
			noisy = "noisy"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%d/%d\t%.0f\t%.0f–%.0f\t%.0f–%.0f\t±%.0f%%\t%d/%d\t%s\t%s\n", m.Run, m.Mode, m.Value, m.Used, m.Rounds, m.Median,
			m.Min, m.Max, m.SubMin, m.SubMax, 100*m.Spread(), m.Disturbed, m.Rounds, unit, noisy)
	}
	tw.Flush()
}

// CostRow is one row of a Cost run of composite operations.
type CostRow struct {
	NsPerOp  float64 // CPU ns per operation: the median of the run's timed rounds
	Sentinel float64 // the machine sentinel's reading beside them, ps per read (0: none; Sentinel)
}

// ParseCostRows reads the rows of a Cost run of composite operations, by row name.
func ParseCostRows(out string) (map[string]CostRow, error) {
	rows, _, err := parseCost(out)
	if err != nil {
		return nil, err
	}
	ns := map[string]CostRow{}
	for k, s := range rows {
		ns[k] = CostRow{NsPerOp: s.op, Sentinel: s.sentinel}
	}
	return ns, nil
}

// Run is one flag set a calibration runs the harness with.
type Run struct {
	Name    string
	Options []string // the flag set, without the harness's timing options
	Modes   []string // Cost's rows it reads
	Size    int      // payload bytes
}

// costSize is the payload of the harness's per-byte rows, Cost's default -Dsize, as Runs
// lists it for validate's cells; the calibration itself prices by the size the rows print.
const costSize = 16384

// Runs are the flag sets a calibration of release rel on CPU model m runs, in order.
func Runs(rel jdk.Release, m cpu.Model) []Run {
	var out []Run
	stub, _ := stubRuns(rel, m)
	for _, r := range append(levelRuns(), stub...) {
		out = append(out, Run{Name: r.name, Options: r.options, Modes: r.modes, Size: costSize})
	}
	return out
}
