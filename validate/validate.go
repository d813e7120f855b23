// Package validate checks the model clock against a real JVM on this machine, side by side
// (`jitsim validate --jvm`). How far is jitsim's steady-state time per operation from the
// JVM's, for each flag set, transformation, direction and size? The JVM runs jvmharness's
// Cost program over composite operations (GCM and CBC encryption and decryption, CTR at sizes
// a calibration does not run) in interleaved rounds; jitsim runs the same loop (scenario
// ModeLoop) on the model clock until its cost per operation stops changing. The cells are
// never the primitives `jitsim calibrate --jvm` measures (TestCellsAreNotCalibrated), so a
// profile calibrated on the JVM is checked on what it was not fitted to. RunWorkload compares
// a workload file the same way, phase by phase (workload.go).
package validate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/jitsim/jitsim/calibrate"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// FlagSet is one set of VM options the cells run under.
type FlagSet struct {
	Name    string
	Options []string
	// WarmOps is how many operations both sides run before the steady state may be declared:
	// enough for C2 to compile a method called once per operation (Tier4InvocationThreshold,
	// Tier4CompileThreshold), or C1's thresholds where C2 is off.
	WarmOps int
}

const diagnostic = "-XX:+UnlockDiagnosticVMOptions"

// FlagSets are the flag sets validate compares, in the order of its table.
var FlagSets = []FlagSet{
	{"default", nil, 30000},
	{"no-ghash", []string{diagnostic, "-XX:-UseGHASHIntrinsics"}, 30000},
	{"no-aes", []string{diagnostic, "-XX:-UseAESIntrinsics"}, 30000},
	{"no-ctr", []string{diagnostic, "-XX:-UseAESCTRIntrinsics"}, 30000},
	{"c1-only", []string{"-XX:TieredStopAtLevel=1"}, 3000},
	{"c2-only", []string{"-XX:-TieredCompilation"}, 30000},
	{"xint", []string{"-Xint"}, 0},
	{"avx2", []string{"-XX:UseAVX=2"}, 30000},
	{"avx0", []string{"-XX:UseAVX=0"}, 30000},
}

// Op is one composite operation: Cost's row name and ModeLoop's properties.
type Op struct {
	Row, Mode, Dir string
	Sizes          []int
}

// Ops are the composite operations and their sizes: CTR only at sizes the calibration does
// not run.
var Ops = []Op{
	{"gcm-enc", "GCM", "encrypt", []int{1024, 16384, 65536}},
	{"gcm-dec", "GCM", "decrypt", []int{1024, 16384, 65536}},
	{"cbc-enc", "CBC", "encrypt", []int{1024, 16384, 65536}},
	{"cbc-dec", "CBC", "decrypt", []int{1024, 16384, 65536}},
	{"ctr", "CTR", "encrypt", []int{1024, 65536}},
}

// Cell is one comparison: a flag set, an operation, a size.
type Cell struct {
	Set  FlagSet
	Op   Op
	Size int
}

// String names the cell as the table does.
func (c Cell) String() string { return fmt.Sprintf("%s %s %d", c.Set.Name, c.Op.Row, c.Size) }

// Cells are every cell, filtered by the flag-set, operation and size names given (empty:
// all).
func Cells(sets, ops []string, sizes []int) ([]Cell, error) {
	for _, s := range sets {
		if !slices.ContainsFunc(FlagSets, func(f FlagSet) bool { return f.Name == s }) {
			return nil, fmt.Errorf("no flag set %q (flag sets: %s)", s, strings.Join(setNames(), ", "))
		}
	}
	for _, o := range ops {
		if !slices.ContainsFunc(Ops, func(x Op) bool { return x.Row == o }) {
			return nil, fmt.Errorf("no operation %q (operations: gcm-enc, gcm-dec, cbc-enc, cbc-dec, ctr)", o)
		}
	}
	var cells []Cell
	for _, f := range FlagSets {
		if len(sets) > 0 && !slices.Contains(sets, f.Name) {
			continue
		}
		for _, o := range Ops {
			if len(ops) > 0 && !slices.Contains(ops, o.Row) {
				continue
			}
			for _, n := range o.Sizes {
				if len(sizes) > 0 && !slices.Contains(sizes, n) {
					continue
				}
				cells = append(cells, Cell{f, o, n})
			}
		}
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("no cell has those flag sets, operations and sizes")
	}
	return cells, nil
}

func setNames() []string {
	var ns []string
	for _, f := range FlagSets {
		ns = append(ns, f.Name)
	}
	return ns
}

// Options say what Run compares and how.
type Options struct {
	Java        string
	JDK         jdk.Release // the release the JVM is (Run checks it)
	CPU         cpu.Model
	ProfileFile string // the model clock's profile ("": the CPU model's, or this host's calibrated one)
	HostProfile string // the host profile cache directory (setup.HostProfileDir)
	Force       bool
	Rounds      int
	Cells       []Cell
	Quick       bool
	Progress    func(done, total int, what string)
	// RunJVM runs Cost with the options (tests replay recordings); nil: the compiled
	// program on Java.
	RunJVM func(ctx context.Context, vmOptions []string) (string, error)
	// Model prices one cell on the model clock; nil: ModelPerOp.
	Model func(ctx context.Context, c Cell) (ModelResult, error)
	// Wall, when set, also times each cell on jitsim's wall clock (reported, not judged).
	Wall func(ctx context.Context, c Cell) (float64, error)
	// ModelWorkers is how many cells run on the model clock at once, after the JVM's
	// rounds; 0: one per CPU (GOMAXPROCS).
	ModelWorkers int
}

// Result is one cell's comparison.
type Result struct {
	Cell         string  `json:"cell"`
	Set          string  `json:"flagSet"`
	Options      string  `json:"options"`
	Op           string  `json:"op"`
	Size         int     `json:"size"`
	JVM          float64 `json:"jvmNsPerOp"` // median over the rounds used
	JVMMin       float64 `json:"jvmMin"`
	JVMMax       float64 `json:"jvmMax"`
	Rounds       int     `json:"rounds"`        // the JVM rounds run, extra rounds included
	JVMUsed      int     `json:"jvmRoundsUsed"` // the rounds JVM, JVMMin and JVMMax rest on
	JVMDisturbed int     `json:"jvmDisturbed"`  // rounds the machine sentinel marked disturbed (calibrate.Sentinel)
	// JVMRounds are the JVM's value in each round, in order, and JVMRoundDisturbed whether
	// the sentinel marked that round.
	JVMRounds         []float64 `json:"jvmRounds"`
	JVMRoundDisturbed []bool    `json:"jvmRoundDisturbed"`
	// JVMRoundSentinel is the sentinel's reading beside the row in each round, ps per read.
	JVMRoundSentinel []float64 `json:"jvmRoundSentinel"`
	Model            float64   `json:"modelNsPerOp"`
	ModelSteady      bool      `json:"modelSteady"`
	ModelOps         int64     `json:"modelOps"`
	Factor           float64   `json:"factor"`                // model / JVM
	Wall             float64   `json:"wallNsPerOp,omitempty"` // jitsim's wall clock, when measured
	WallFactor       float64   `json:"wallFactor,omitempty"`  // wall / JVM
	JVMSlowdown      float64   `json:"jvmSlowdown,omitempty"` // vs the default set's same op and size
	ModelSlowdn      float64   `json:"modelSlowdown,omitempty"`
	Verdict          string    `json:"verdict"`
	JVMCommand       string    `json:"jvmCommand"`
	ModelCommand     string    `json:"modelCommand"`
}

// Verdicts.
const (
	Within    = "within ±25 %"
	Outside   = "outside"
	TooNoisy  = "JVM too noisy"
	NotSteady = "model not steady"
	// LandmarkWithin is a warm-up landmark's: jitsim within ±50 % of the JVM's median.
	LandmarkWithin = "within ±50 %"
	toleranceF     = 0.25
)

// ModelResult is one cell on the model clock.
type ModelResult struct {
	NsPerOp float64
	Steady  bool
	Ops     int64
	Command string
}

// Run measures every cell on the JVM (round after round, each (flag set, size) one JVM) and
// on the model clock, and judges each.
func Run(ctx context.Context, o Options) ([]Result, error) {
	if o.Rounds < 1 {
		return nil, fmt.Errorf("validate: %d rounds", o.Rounds)
	}
	runJVM := o.RunJVM
	if runJVM == nil {
		prog, err := compileFor(ctx, o.Java, o.JDK, jvmharness.Cost)
		if err != nil {
			return nil, err
		}
		defer prog.Close()
		runJVM = func(ctx context.Context, opts []string) (string, error) {
			out, err := prog.Run(ctx, opts)
			return string(out.Stdout), err
		}
	}
	model := o.Model
	if model == nil {
		model = func(ctx context.Context, c Cell) (ModelResult, error) {
			return ModelPerOp(ctx, ModelOptions{JDK: o.JDK, CPU: o.CPU, ProfileFile: o.ProfileFile, HostProfiles: o.HostProfile, Force: o.Force}, c)
		}
	}
	// One JVM per (flag set, size) per round, measuring that size's operations.
	type group struct {
		set  FlagSet
		size int
		ops  []string
	}
	var groups []group
	for _, c := range o.Cells {
		i := slices.IndexFunc(groups, func(g group) bool { return g.set.Name == c.Set.Name && g.size == c.Size })
		if i < 0 {
			groups = append(groups, group{set: c.Set, size: c.Size})
			i = len(groups) - 1
		}
		groups[i].ops = append(groups[i].ops, c.Op.Row)
	}
	type key struct {
		set, op string
		size    int
	}
	type round struct{ ns, sentinel float64 }
	samples := map[key][]round{}
	commands := map[key]string{}
	sent := calibrate.NewSentinel()
	marked := func(k key, x round) bool { return sent.Disturbed(fmt.Sprint(k), x.sentinel) }
	unmarked := func(k key) int { return countFunc(samples[k], func(x round) bool { return !marked(k, x) }) }
	total := o.Rounds*len(groups) + len(o.Cells)
	done := 0
	runGroup := func(g group, what string) error {
		if o.Progress != nil {
			o.Progress(done, total, what)
		}
		opts := jvmOptions(g.set, g.size, g.ops, o.Quick)
		out, err := runJVM(ctx, opts)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("validate: --jvm=%s: %s %d B: %w", o.Java, g.set.Name, g.size, err)
		}
		rows, err := calibrate.ParseCostRows(out)
		if err != nil {
			return fmt.Errorf("validate: --jvm=%s: %s %d B: %w", o.Java, g.set.Name, g.size, err)
		}
		for _, op := range g.ops {
			row, ok := rows[op]
			if !ok {
				return fmt.Errorf("validate: --jvm=%s: %s %d B printed no %s row", o.Java, g.set.Name, g.size, op)
			}
			k := key{g.set.Name, op, g.size}
			samples[k] = append(samples[k], round{row.NsPerOp, row.Sentinel})
			sent.Add(fmt.Sprint(k), row.Sentinel)
			commands[k] = o.Java + " " + strings.Join(jvmharness.Options(opts), " ") + " Cost"
		}
		done++
		return nil
	}
	for r := 1; r <= o.Rounds; r++ {
		for _, g := range groups {
			if err := runGroup(g, fmt.Sprintf("JVM round %d/%d: %s %d B", r, o.Rounds, g.set.Name, g.size)); err != nil {
				return nil, err
			}
		}
	}
	// A round the machine sentinel marked is replaced: a group with a cell left with fewer
	// than o.Rounds unmarked rounds runs again, one round at a time over those groups, at
	// most o.Rounds more times.
	for extra := 1; extra <= o.Rounds; extra++ {
		var again []group
		for _, g := range groups {
			if slices.ContainsFunc(g.ops, func(op string) bool { return unmarked(key{g.set.Name, op, g.size}) < o.Rounds }) {
				again = append(again, g)
			}
		}
		if len(again) == 0 {
			break
		}
		total += len(again)
		for _, g := range again {
			what := fmt.Sprintf("JVM extra round %d/%d: %s %d B (the machine sentinel marked a round)", extra, o.Rounds, g.set.Name, g.size)
			if err := runGroup(g, what); err != nil {
				return nil, err
			}
		}
	}
	models, err := modelCells(ctx, o, model, func(what string) {
		if o.Progress != nil {
			o.Progress(done, total, what)
		}
	}, func() { done++ })
	if err != nil {
		return nil, err
	}
	var res []Result
	for i, c := range o.Cells {
		m := models[i]
		k := key{c.Set.Name, c.Op.Row, c.Size}
		r := Result{Cell: c.String(), Set: c.Set.Name, Options: strings.Join(c.Set.Options, " "), Op: c.Op.Row, Size: c.Size,
			Rounds: len(samples[k]), Model: m.NsPerOp, ModelSteady: m.Steady, ModelOps: m.Ops, JVMCommand: commands[k], ModelCommand: m.Command}
		var kept []float64
		for _, x := range samples[k] {
			d := marked(k, x)
			r.JVMRounds = append(r.JVMRounds, x.ns)
			r.JVMRoundDisturbed = append(r.JVMRoundDisturbed, d)
			r.JVMRoundSentinel = append(r.JVMRoundSentinel, x.sentinel)
			if d {
				r.JVMDisturbed++
			} else {
				kept = append(kept, x.ns)
			}
		}
		// The rounds the sentinel did not mark, when there are o.Rounds of them; else all.
		used := r.JVMRounds
		if len(kept) >= o.Rounds {
			used = kept
		}
		r.JVM, r.JVMMin, r.JVMMax, r.JVMUsed = median(used), slices.Min(used), slices.Max(used), len(used)
		r.Factor = r.Model / r.JVM
		r.Verdict = judge(r)
		if o.Wall != nil {
			w, err := o.Wall(ctx, c)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				return nil, fmt.Errorf("validate: %s on the wall clock: %w", c, err)
			}
			r.Wall, r.WallFactor = w, w/r.JVM
		}
		res = append(res, r)
	}
	for i := range res {
		for _, d := range res {
			if d.Set == "default" && d.Op == res[i].Op && d.Size == res[i].Size && res[i].Set != "default" {
				res[i].JVMSlowdown, res[i].ModelSlowdn = res[i].JVM/d.JVM, res[i].Model/d.Model
			}
		}
	}
	if o.Progress != nil {
		o.Progress(total, total, "done")
	}
	return res, nil
}

// modelCells runs every cell of o on the model clock, o.ModelWorkers at a time, and returns
// their results in o.Cells' order, or the first failing cell's error in that order. A cell's
// result depends on nothing but the cell and the profile — the model clock reads no wall clock
// and each cell has a VM of its own — so cells run side by side; they run only after the
// JVM's rounds, never beside a JVM being timed. progress and step are called under one lock.
func modelCells(ctx context.Context, o Options, model func(context.Context, Cell) (ModelResult, error), progress func(string), step func()) ([]ModelResult, error) {
	workers := o.ModelWorkers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(o.Cells)))
	out := make([]ModelResult, len(o.Cells))
	errs := make([]error, len(o.Cells))
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next atomic.Int64
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(o.Cells) || cctx.Err() != nil {
					return
				}
				mu.Lock()
				progress("model clock: " + o.Cells[i].String())
				mu.Unlock()
				out[i], errs[i] = model(cctx, o.Cells[i])
				if errs[i] != nil {
					cancel() // the later cells are not needed
				}
				mu.Lock()
				step()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("validate: %s on the model clock: %w", o.Cells[i], err)
		}
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("validate: %s on the model clock: %w", o.Cells[i], err)
		}
	}
	return out, nil
}

// compileFor checks that java is a JVM of release rel and compiles harness program p for it.
func compileFor(ctx context.Context, java string, rel jdk.Release, p jvmharness.Program) (*jvmharness.Compiled, error) {
	props, err := jvmharness.Properties(ctx, java)
	if err != nil {
		return nil, fmt.Errorf("validate: --jvm=%s: %w", java, err)
	}
	if spec := strings.TrimPrefix(props["java.specification.version"], "1."); spec != strconv.Itoa(rel.Feature()) {
		return nil, fmt.Errorf("validate: --jvm=%s is java %s, not JDK %s (give --jdk=%s)", java, props["java.version"], rel, spec)
	}
	prog, err := jvmharness.Compile(ctx, java, p)
	if err != nil {
		return nil, fmt.Errorf("validate: --jvm=%s: %w", java, err)
	}
	return prog, nil
}

// judge applies the decision rule: a JVM spread beyond ±25 % of its median is too noisy to
// judge; else within when |model/JVM − 1| ≤ 0.25.
func judge(r Result) string {
	if !r.ModelSteady {
		return NotSteady
	}
	return steadyVerdict(r.JVM, r.JVMMin, r.JVMMax, r.Model)
}

// steadyVerdict is the steady-state decision rule on a JVM median with its range and
// jitsim's value: too noisy when the range leaves ±25 % of the median, else within when
// |jitsim/JVM − 1| ≤ 0.25.
func steadyVerdict(jvm, lo, hi, model float64) string {
	switch {
	case hi > jvm*(1+toleranceF) || lo < jvm*(1-toleranceF):
		return TooNoisy
	case math.Abs(model/jvm-1) <= toleranceF:
		return Within
	}
	return Outside
}

// jvmOptions are the JVM options of one Cost run of a cell group.
func jvmOptions(s FlagSet, size int, ops []string, quick bool) []string {
	t := []string{"-DwarmMs=600", "-DstepMs=150", "-DmeasureMs=500"}
	if quick {
		t = []string{"-DwarmMs=200", "-DstepMs=80", "-DmeasureMs=150"}
	}
	opts := append(append([]string{}, s.Options...), t...)
	return append(opts, fmt.Sprintf("-DwarmOps=%d", s.WarmOps), fmt.Sprintf("-Dsize=%d", size), "-Donly="+strings.Join(ops, ","))
}

// countFunc counts the elements of s for which f holds.
func countFunc[T any](s []T, f func(T) bool) int {
	n := 0
	for _, x := range s {
		if f(x) {
			n++
		}
	}
	return n
}

// median is calibrate.Median: the JVM's value of a cell over its rounds.
func median(v []float64) float64 { return calibrate.Median(v) }

// ModelOptions say how a cell runs on the model clock.
type ModelOptions struct {
	JDK          jdk.Release
	CPU          cpu.Model
	ProfileFile  string
	HostProfiles string
	Force        bool
	Tiers        []jrt.Tier
	// MaxOps bounds the operations of one cell. Zero: a million, and past them as long as a
	// compile is still queued or running, up to modelWarmLimit of simulated time.
	MaxOps int64
}

// WallPerOp runs cell c's operation (scenario ModeLoop) on jitsim's wall clock: the flag
// set's WarmOps operations (at least 1 s), then the median of five batches of at least 50 ms
// each, per operation.
func WallPerOp(ctx context.Context, o ModelOptions, c Cell) (float64, error) {
	r, err := setup.Resolve(setup.Request{JDK: o.JDK, CPU: o.CPU, Options: c.Set.Options, Tiers: o.Tiers})
	if err != nil {
		return 0, err
	}
	clock := r.NewClock()
	vm, err := r.NewVM(clock, io.Discard)
	if err != nil {
		return 0, err
	}
	defer vm.Close()
	props := map[string]string{"mode": c.Op.Mode, "op": c.Op.Dir, "dataSize": strconv.Itoa(c.Size)}
	env := scenario.Env{VM: vm, Threads: 1, Clock: clock, ClockKind: setup.ClockWall}
	var ops int64
	start := clock.Now()
	n := 1
	var per []float64
	for len(per) < 5 {
		bs, err := scenario.ModeLoop.RunBatch(ctx, env, props, n, io.Discard)
		if err != nil {
			return 0, err
		}
		b := bs[0]
		ops += b.Ops
		if b.Duration < 50*time.Millisecond {
			n *= 2
			continue
		}
		if ops >= int64(c.Set.WarmOps) && clock.Now()-start >= time.Second {
			per = append(per, float64(b.Duration.Nanoseconds())/float64(b.Ops))
		}
	}
	return median(per), nil
}

// modelWarmLimit bounds the simulated time a model-clock cell runs past its million
// operations while compiles are pending: the JVM side warms up for at least 600 ms of CPU
// time and then until its rounds agree, so a model that needs longer than this is reported
// not steady rather than run on.
const modelWarmLimit = 2 * time.Second

// ModelPerOp runs cell c's operation (scenario ModeLoop) on the model clock: at least the
// flag set's WarmOps operations, in batches that grow to 5 ms of simulated time, until three
// successive batches cost the same per operation within 0.2 % and no VM event (a compile
// queued or installed, a deoptimisation) happened during them; the steady time per
// operation is the last batch's. Equal batches alone are not enough: a method waiting for its
// C2 compile runs at C1 speed, exactly the same batch after batch. Without o.MaxOps, a cell
// whose compiles are still pending after a million operations (a small operation whose C2
// compile, priced by the bytes it parses, outlasts them) runs on until they have ended and
// three batches have passed without an event, within modelWarmLimit of simulated time.
func ModelPerOp(ctx context.Context, o ModelOptions, c Cell) (ModelResult, error) {
	r, err := setup.Resolve(setup.Request{JDK: o.JDK, CPU: o.CPU, Options: c.Set.Options, Clock: setup.ClockModel,
		ProfileFile: o.ProfileFile, ForceProfile: o.Force, HostProfiles: o.HostProfiles, Tiers: o.Tiers})
	if err != nil {
		return ModelResult{}, err
	}
	if r.Tiers == nil {
		return ModelResult{}, fmt.Errorf("BUG: validate: no tiers")
	}
	vm, err := r.NewVM(r.NewClock(), io.Discard)
	if err != nil {
		return ModelResult{}, err
	}
	defer vm.Close()
	var events atomic.Int64
	unsub := vm.Subscribe(func(jrt.Event) { events.Add(1) })
	defer unsub()
	props := map[string]string{"mode": c.Op.Mode, "op": c.Op.Dir, "dataSize": strconv.Itoa(c.Size)}
	env := scenario.Env{VM: vm, Threads: 1, Clock: vm, ClockKind: setup.ClockModel}
	maxOps, extend := o.MaxOps, o.MaxOps == 0
	if maxOps == 0 {
		maxOps = 1_000_000
	}
	cmd := fmt.Sprintf("jitsim bench --clock=model --jdk=%s --cpu=%s %s -p mode=%s -p op=%s -p dataSize=%d ModeLoop",
		o.JDK, o.CPU.Name, strings.Join(c.Set.Options, " "), c.Op.Mode, c.Op.Dir, c.Size)
	var ops int64
	n := 1
	type batch struct {
		per   float64
		quiet bool
	}
	var last []batch
	var simulated time.Duration
	// settling: a compile is pending, or one of the last three batches saw one end
	settling := func() bool {
		if len(last) < 3 || vm.CompilesPending() {
			return true
		}
		for _, x := range last[len(last)-3:] {
			if !x.quiet {
				return true
			}
		}
		return false
	}
	for ops < maxOps || extend && simulated < modelWarmLimit && settling() {
		before := events.Load()
		bs, err := scenario.ModeLoop.RunBatch(ctx, env, props, n, io.Discard)
		if err != nil {
			return ModelResult{}, err
		}
		b := bs[0]
		ops += b.Ops
		simulated += b.Duration
		per := float64(b.Duration.Nanoseconds()) / float64(b.Ops)
		if b.Duration < 5*time.Millisecond {
			n *= 2
		}
		// a compile started before the batch may install after it with no event in between
		last = append(last, batch{per, events.Load() == before && !vm.CompilesPending()})
		if ops < int64(c.Set.WarmOps) || len(last) < 3 {
			continue
		}
		l := last[len(last)-3:]
		lo, hi := l[0].per, l[0].per
		quiet := true
		for _, x := range l {
			lo, hi, quiet = min(lo, x.per), max(hi, x.per), quiet && x.quiet
		}
		if quiet && hi <= lo*1.002 {
			return ModelResult{NsPerOp: per, Steady: true, Ops: ops, Command: cmd}, nil
		}
	}
	return ModelResult{NsPerOp: last[len(last)-1].per, Ops: ops, Command: cmd}, nil
}

// WriteTable prints the results: cell, JVM median with its range, the rounds they rest on of
// the rounds run and how many the machine sentinel marked disturbed (calibrate.Sentinel), the
// model, the factor and the verdict, then the count of each verdict.
func WriteTable(w io.Writer, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	wall := len(rs) > 0 && rs[0].Wall > 0
	head := "flag set\top\tbytes\tJVM µs/op\tJVM min–max\trounds used\tdisturbed\tjitsim µs/op\tjitsim/JVM\tslowdown JVM\tslowdown jitsim\tverdict\t"
	if wall {
		head += "wall µs/op\twall/JVM\t"
	}
	fmt.Fprintln(tw, head)
	count := map[string]int{}
	for _, r := range rs {
		slow := "\t"
		if r.JVMSlowdown > 0 {
			slow = fmt.Sprintf("%.2f×\t%.2f×", r.JVMSlowdown, r.ModelSlowdn)
		}
		extra := ""
		if wall {
			extra = fmt.Sprintf("%.3f\t%.2f\t", r.Wall/1000, r.WallFactor)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f–%.3f\t%d/%d\t%d\t%.3f\t%.2f\t%s\t%s\t%s\n", r.Set, r.Op, r.Size, r.JVM/1000, r.JVMMin/1000, r.JVMMax/1000,
			r.JVMUsed, r.Rounds, r.JVMDisturbed, r.Model/1000, r.Factor, slow, r.Verdict, extra)
		count[r.Verdict]++
	}
	tw.Flush()
	fmt.Fprintf(w, "%d cells: %d %s, %d %s, %d %s, %d %s\n", len(rs), count[Within], Within, count[Outside], Outside,
		count[TooNoisy], TooNoisy, count[NotSteady], NotSteady)
}

// glueOps are the operations (rows of Ops) whose provider glue a calibration measures, by
// glue mode (model.GlueModes), as the harness's "final" rows run them: GCM a decryption,
// CBC and CTR an encryption.
var glueOps = func() map[string]Op {
	m := map[string]Op{}
	for mode, row := range map[string]string{"gcm": "gcm-dec", "cbc": "cbc-enc", "ctr": "ctr"} {
		i := slices.IndexFunc(Ops, func(o Op) bool { return o.Row == row })
		m[mode] = Ops[i]
	}
	return m
}()

// ModelGlueOp is calibrate.JVMOptions.ModelOp for CPU model m: jitsim's own 16-byte
// operation of a glue mode on a profile, at its steady state on the model clock under the
// options given, in ps per operation.
func ModelGlueOp(m cpu.Model, tiers []jrt.Tier) func(ctx context.Context, p model.Profile, rel jdk.Release, options []string, mode string) (int64, error) {
	return func(ctx context.Context, p model.Profile, rel jdk.Release, options []string, mode string) (int64, error) {
		op, ok := glueOps[mode]
		if !ok {
			return 0, fmt.Errorf("BUG: validate: no glue operation %q", mode)
		}
		set := FlagSet{Name: "calibrate", Options: options, WarmOps: 30000}
		for _, o := range options {
			switch {
			case o == "-Xint":
				set.WarmOps = 0
			case strings.HasPrefix(o, "-XX:TieredStopAtLevel="):
				set.WarmOps = 3000
			}
		}
		data, err := p.MarshalIndent()
		if err != nil {
			return 0, err
		}
		dir, err := os.MkdirTemp("", "jitsim-glue-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dir)
		f := filepath.Join(dir, "profile.json")
		if err := os.WriteFile(f, data, 0o600); err != nil {
			return 0, err
		}
		r, err := ModelPerOp(ctx, ModelOptions{JDK: rel, CPU: m, ProfileFile: f, Tiers: tiers}, Cell{set, op, 16})
		if err != nil {
			return 0, err
		}
		return int64(r.NsPerOp*1000 + 0.5), nil
	}
}
