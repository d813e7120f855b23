package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/warmup"
)

// How does a user's own workload compare? jitsim resolves the workload file into a trace (the
// very operations its engine runs, scenario.Workload.Resolve), the harness's replayer runs
// that trace on the JVM (jvmharness.TraceReplay: no TOML on the Java side, every thread's
// output bytes checked by CRC), and jitsim runs the workload on its model clock (once per
// flag set: it is deterministic) and on its wall clock (every round, right after the JVM's).
// Both sides report thread 0's operations one by one; per phase they give the steady time
// per operation and, for a phase of at least ten operations, the warm-up landmarks of the
// AESGCMBench-like loop, each operation an iteration.

// minLandmarkOps is the fewest operations of a phase for which the warm-up landmarks apply
// (landmarksOf's bound).
const minLandmarkOps = 10

// workloadLandmarks are a workload phase's rows: the steady time per operation, then the
// warm-up landmarks.
var workloadLandmarks = append([]landmark{{"steady time per op", func(l Landmarks) time.Duration { return l.SteadyOp }}}, warmupLandmarks...)

// WorkloadOptions say what RunWorkload compares.
type WorkloadOptions struct {
	Java string
	// ModelOptions say how jitsim runs: release (the JVM's, checked), CPU model, the model
	// clock's profile, the tiers.
	ModelOptions
	Rounds   int
	Sets     []FlagSet
	Workload *scenario.Workload
	// Props are the workload's properties (maxOps, seed, msgSize, aadSize, threads), applied
	// on both sides as a run applies them.
	Props    map[string]string
	Progress func(done, total int, what string)
	// RunJVM replays the trace (file names trace and messages) with the VM options and
	// returns what the replayer printed, stderr then stdout (tests replay recordings); nil:
	// the compiled replayer on Java.
	RunJVM func(ctx context.Context, vmOptions []string, trace, messages string) ([]byte, error)
}

// PhaseResult is one phase of a workload under one flag set, on the JVM's rounds, jitsim's
// model clock and jitsim's wall-clock rounds: thread 0's operations of the phase.
type PhaseResult struct {
	Set     string `json:"flagSet"`
	Options string `json:"options"`
	Phase   string `json:"phase"`
	Ops     int64  `json:"ops"` // thread 0's operations
	// Warmup is whether the warm-up landmarks apply: at least ten operations. Without them
	// only the first operation and the steady time per operation are compared.
	Warmup bool        `json:"warmupLandmarks"`
	JVM    []Landmarks `json:"jvm"`   // one per round
	Model  Landmarks   `json:"model"` // jitsim's model clock
	Wall   []Landmarks `json:"wall"`  // jitsim's wall clock, one per round
	// Verdicts are per row: the steady time per operation (±25 %), then each landmark
	// (±50 %).
	Verdicts     []string `json:"verdicts"`
	JVMCommand   string   `json:"jvmCommand"`
	ModelCommand string   `json:"modelCommand"`
}

// WorkloadReport is validate's comparison of one workload.
type WorkloadReport struct {
	Workload string        `json:"workload"`
	Title    string        `json:"title"`
	Rounds   int           `json:"rounds"`
	Phases   []PhaseResult `json:"phases"`
	// Runs are the series of thread 0 for the warm-up study: jitsim's model clock, its wall
	// clock ("wall: " + the set) and the JVM's rounds ("java: " + the set).
	Runs []warmup.Run `json:"-"`
}

// rows are the phase's table rows: every landmark when they apply, else the steady time
// and the first operation.
func (p PhaseResult) rows() []landmarkRow {
	ls := workloadLandmarks
	if !p.Warmup {
		ls = ls[:2]
	}
	return rowsOf(ls, p.JVM, p.Model, p.Wall, p.Verdicts)
}

// RunWorkload runs the workload on the JVM and on jitsim's wall clock, round after round and
// flag set after flag set (each JVM replay followed by jitsim's), and once per flag set on
// the model clock, and compares each phase.
func RunWorkload(ctx context.Context, o WorkloadOptions) (*WorkloadReport, error) {
	if o.Rounds < 1 || len(o.Sets) == 0 || o.Workload == nil {
		return nil, fmt.Errorf("validate: %d rounds, %d flag sets", o.Rounds, len(o.Sets))
	}
	w := o.Workload
	dir, err := os.MkdirTemp("", "jitsim-validate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res, err := w.Resolve(dir, o.Props)
	if err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	runJVM, closeJVM, err := o.replayer(ctx)
	if err != nil {
		return nil, err
	}
	defer closeJVM()
	scen := w.Scenario()
	sim := simOptions{ModelOptions: o.ModelOptions}
	// per flag set and phase: the JVM's and the wall clock's landmarks, round by round
	jvm := make([][][]Landmarks, len(o.Sets))
	wall := make([][][]Landmarks, len(o.Sets))
	rep := &WorkloadReport{Workload: w.Path, Title: w.Title, Rounds: o.Rounds}
	total, done := 2*o.Rounds*len(o.Sets)+len(o.Sets), 0
	step := func(what string) {
		if o.Progress != nil {
			o.Progress(done, total, what)
		}
	}
	for round := 1; round <= o.Rounds; round++ {
		for i, s := range o.Sets {
			step(fmt.Sprintf("JVM round %d/%d: %s", round, o.Rounds, s.Name))
			opts := append(append([]string{}, s.Options...), "-XX:+PrintCompilation")
			out, err := runJVM(ctx, opts, res.Trace, res.Messages)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err == nil {
				err = res.Verify(out)
			}
			var run warmup.Run
			if err == nil {
				run, err = warmup.ParseJVMOutput(out, 1, 0)
			}
			var ls []Landmarks
			if err == nil {
				ls, err = phaseLandmarks(run.Iterations, res.Phases)
			}
			if err != nil {
				return nil, fmt.Errorf("validate: --jvm=%s: %s, %s round %d: %w", o.Java, w.Path, s.Name, round, err)
			}
			jvm[i] = append(jvm[i], ls)
			run.Label, run.Fork, run.Scenario, run.Flags, run.CPU, run.JDK, run.Clock = "java: "+label(s), round, scen.Name, s.Options, "host", o.JDK.String(), setup.ClockWall
			rep.Runs = append(rep.Runs, run)
			done++
			step(fmt.Sprintf("jitsim wall clock round %d/%d: %s", round, o.Rounds, s.Name))
			sim.Clock = setup.ClockWall
			ls, run, err = simPhases(ctx, sim, s, scen, o.Props, res.Phases)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				return nil, fmt.Errorf("validate: %s, %s on jitsim's wall clock, round %d: %w", w.Path, s.Name, round, err)
			}
			wall[i] = append(wall[i], ls)
			run.Label, run.Fork = "wall: "+label(s), round
			rep.Runs = append(rep.Runs, run)
			done++
		}
	}
	for i, s := range o.Sets {
		step("model clock: " + s.Name)
		sim.Clock = setup.ClockModel
		model, run, err := simPhases(ctx, sim, s, scen, o.Props, res.Phases)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("validate: %s, %s on the model clock: %w", w.Path, s.Name, err)
		}
		rep.Runs = append(rep.Runs, run)
		done++
		opts := strings.Join(s.Options, " ")
		for k, ph := range res.Phases {
			p := PhaseResult{Set: s.Name, Options: opts, Phase: ph.Name, Ops: ph.Ops, Warmup: ph.Ops >= minLandmarkOps, Model: model[k],
				JVMCommand: strings.Join(append(append([]string{o.Java}, jvmharness.Options(append(append([]string{}, s.Options...), "-XX:+PrintCompilation"))...),
					"JitsimTraceReplay", filepath.Base(res.Trace), filepath.Base(res.Messages)), " "),
				ModelCommand: strings.Join(strings.Fields(fmt.Sprintf("jitsim warmup --clock=model --jdk=%s --cpu=%s %s %s", o.JDK, o.CPU.Name, opts, w.Path)), " ")}
			for r := range jvm[i] {
				p.JVM = append(p.JVM, jvm[i][r][k])
				p.Wall = append(p.Wall, wall[i][r][k])
			}
			for j, row := range p.rows() {
				if j == 0 {
					p.Verdicts = append(p.Verdicts, steadyVerdict(float64(row.Median), float64(row.Min), float64(row.Max), float64(row.Model)))
				} else {
					p.Verdicts = append(p.Verdicts, landmarkVerdict(row))
				}
			}
			rep.Phases = append(rep.Phases, p)
		}
	}
	step("done")
	return rep, nil
}

// replayer returns RunJVM, or the harness's replayer compiled for Java, and what to call
// when done with it.
func (o WorkloadOptions) replayer(ctx context.Context) (func(context.Context, []string, string, string) ([]byte, error), func(), error) {
	if o.RunJVM != nil {
		return o.RunJVM, func() {}, nil
	}
	prog, err := compileFor(ctx, o.Java, o.JDK, jvmharness.TraceReplay)
	if err != nil {
		return nil, nil, err
	}
	return func(ctx context.Context, opts []string, trace, messages string) ([]byte, error) {
		out, err := prog.Run(ctx, opts, trace, messages)
		return append(out.Stderr, out.Stdout...), err
	}, func() { prog.Close() }, nil
}

// simPhases runs the workload on jitsim (sim.Clock) under flag set s and returns each phase's
// landmarks and thread 0's series.
func simPhases(ctx context.Context, sim simOptions, s FlagSet, scen scenario.Scenario, props map[string]string, phases []scenario.ResolvedPhase) ([]Landmarks, warmup.Run, error) {
	run, names, _, err := simSeries(ctx, sim, s, scen, 0, props, nil)
	if err != nil {
		return nil, run, err
	}
	// The engine ran the operations the trace lists: thread 0's phases in order.
	k, n := 0, int64(0)
	for _, name := range names {
		for k < len(phases) && n == phases[k].Ops {
			k, n = k+1, 0
		}
		if k == len(phases) || name != phases[k].Name {
			return nil, run, fmt.Errorf("thread 0 ran an operation of phase %q where the resolved trace has %s", name, phaseAt(phases, k))
		}
		n++
	}
	ls, err := phaseLandmarks(run.Iterations, phases)
	return ls, run, err
}

// phaseAt names phase k of phases, or their end.
func phaseAt(phases []scenario.ResolvedPhase, k int) string {
	if k < len(phases) {
		return fmt.Sprintf("phase %q", phases[k].Name)
	}
	return "no more operations"
}

// phaseLandmarks splits thread 0's operations (one iteration each) into the phases, in order,
// and returns each phase's landmarks: all of them from ten operations on, else the first
// operation and the steady time per operation.
func phaseLandmarks(its []warmup.Iteration, phases []scenario.ResolvedPhase) ([]Landmarks, error) {
	var want int64
	for _, p := range phases {
		want += p.Ops
	}
	if int64(len(its)) != want {
		return nil, fmt.Errorf("thread 0 reported %d operations; the resolved trace gives it %d", len(its), want)
	}
	var out []Landmarks
	at := 0
	for _, p := range phases {
		part := its[at : at+int(p.Ops)]
		at += int(p.Ops)
		var l Landmarks
		switch {
		case len(part) >= minLandmarkOps:
			var err error
			if l, err = landmarksOf(part); err != nil {
				return nil, fmt.Errorf("phase %q: %w", p.Name, err)
			}
		case len(part) > 0:
			per := make([]float64, len(part))
			for i, it := range part {
				per[i] = float64(it.Duration) / float64(max(it.Ops, 1))
			}
			l = Landmarks{FirstPerOp: time.Duration(per[0]), SteadyOp: time.Duration(tailMedian(per))}
		}
		out = append(out, l)
	}
	return out, nil
}

// fourDigits rounds d to four significant digits (at least to 100 ns): a workload's times
// run from a microsecond per operation to seconds of warm-up.
func fourDigits(d time.Duration) time.Duration {
	r := 100 * time.Nanosecond
	for d/r >= 10000 {
		r *= 10
	}
	return d.Round(r)
}

// WriteWorkload prints the workload comparison: per flag set, phase and row, the JVM's median
// and range over the rounds, jitsim's model clock and its ratio to the JVM, jitsim's wall
// clock (median and range) and its ratio, and the verdict.
func WriteWorkload(w io.Writer, r *WorkloadReport) {
	fmt.Fprintf(w, "workload %s (%s): thread 0's operations, %d rounds\n", r.Workload, r.Title, r.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "flag set\tphase\tops\tmeasure\tJVM median\tJVM min–max\tjitsim model\tmodel/JVM\tjitsim wall\twall min–max\twall/JVM\tverdict")
	us := fourDigits
	for _, p := range r.Phases {
		for _, row := range p.rows() {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%v\t%v–%v\t%v\t%.2f\t%v\t%v–%v\t%.2f\t%s\n", p.Set, p.Phase, p.Ops, row.Name, us(row.Median),
				us(row.Min), us(row.Max), us(row.Model), row.Factor, us(row.Wall), us(row.WallMin), us(row.WallMax), row.WallFactor, row.Verdict)
		}
	}
	tw.Flush()
	count := map[string]int{}
	n := 0
	for _, p := range r.Phases {
		for _, v := range p.Verdicts {
			count[v]++
			n++
		}
	}
	fmt.Fprintf(w, "%d comparisons: %d within (±25 %% steady, ±50 %% landmarks), %d %s, %d %s\n", n, count[Within]+count[LandmarkWithin],
		count[Outside], Outside, count[TooNoisy], TooNoisy)
}
