package validate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/warmup"
)

// How does the warm-up compare? An AESGCMBench-like loop (jvmharness.Bench on the JVM,
// scenario AESGCMBench on the model clock, the same iterations of the same operations) gives
// each side a series of iterations; its landmarks are the first iteration's time per
// operation, the time until an iteration runs at half the steady speed, and the time until
// the steady state. -XX:+PrintCompilation on both sides gives the order in which the crypto
// methods first reach levels 3 and 4.

// Landmarks are one warm-up's landmarks.
type Landmarks struct {
	FirstPerOp time.Duration `json:"firstPerOpNs"`  // the first iteration's time per operation
	SteadyOp   time.Duration `json:"steadyPerOpNs"` // the median time per operation of the last fifth
	HalfSpeed  time.Duration `json:"halfSpeedNs"`   // from the loop's start to the end of the first iteration at ≤ 2 × steady
	Steady     time.Duration `json:"steadyNs"`      // from the loop's start to where the steady state begins
	Order      []string      `json:"order"`         // "Class::method@L" of the first level-3 and level-4 compiles, in order
	// FirstCPUPerOp is the first iteration's time per operation on the loop thread's CPU
	// clock, where the run reports it (the JVM's twin; 0 otherwise): FirstPerOp less the time
	// the thread waited for a CPU, which the model clock does not charge.
	FirstCPUPerOp time.Duration `json:"firstCpuPerOpNs,omitempty"`
}

// landmarksOf computes the landmarks of a series. The steady state begins at the first
// iteration from which the rolling median of five stays within 25 % of the final steady time
// and has reached 10 % of it.
func landmarksOf(its []warmup.Iteration) (Landmarks, error) {
	if len(its) < 10 {
		return Landmarks{}, fmt.Errorf("a warm-up of %d iterations: too few for landmarks (want ≥ 10)", len(its))
	}
	per := make([]float64, len(its))
	for i, it := range its {
		if it.Ops <= 0 {
			return Landmarks{}, fmt.Errorf("iteration %d has %d operations", i, it.Ops)
		}
		per[i] = float64(it.Duration) / float64(it.Ops)
	}
	steady := tailMedian(per)
	l := Landmarks{FirstPerOp: time.Duration(per[0]), SteadyOp: time.Duration(steady), FirstCPUPerOp: its[0].CPU / time.Duration(its[0].Ops)}
	end := func(i int) time.Duration { return its[i].Start + its[i].Duration - its[0].Start }
	l.HalfSpeed = end(len(its) - 1)
	for i, p := range per {
		if p <= 2*steady {
			l.HalfSpeed = end(i)
			break
		}
	}
	roll := make([]float64, len(per))
	for i := range per {
		roll[i] = median(per[max(0, i-2):min(len(per), i+3)])
	}
	start := len(per) - 1
	for i := len(per) - 1; i >= 0 && roll[i] <= 1.25*steady; i-- {
		start = i
	}
	for start < len(per)-1 && roll[start] > 1.10*steady {
		start++
	}
	l.Steady = its[start].Start - its[0].Start
	return l, nil
}

// tailMedian is the median of the last fifth of per (at least its last value): the steady
// time per operation.
func tailMedian(per []float64) float64 {
	return median(slices.Clone(per[len(per)-max(len(per)/5, 1):]))
}

// compileOrder is the order in which crypto methods first reach levels 3 and 4 (normal
// compiles, not OSR), as "Class::method@L" with the package dropped.
func compileOrder(log *warmup.CompileLog) []string {
	var order []string
	seen := map[string]bool{}
	for _, r := range log.Crypto() {
		if r.OSR() || (r.Level != 3 && r.Level != 4) || r.Kind != warmup.CompileTask {
			continue
		}
		m := r.Method
		if i := strings.LastIndex(m[:max(strings.Index(m, "::"), 0)], "."); i >= 0 {
			m = m[i+1:]
		}
		k := fmt.Sprintf("%s@%d", m, r.Level)
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	return order
}

// methodOf is the method of an order entry "Class::method@L".
func methodOf(e string) string {
	if i := strings.LastIndex(e, "@"); i >= 0 {
		return e[:i]
	}
	return e
}

// The JVM's rounds seldom repeat one whole order of compiles (one in five, often none, on a
// 2-vCPU machine: two compiles queued within a millisecond of each other swap places from run
// to run), so "the JVM's majority order" is taken pair by pair: for each two methods, the
// order a strict majority of rounds puts them in. jitsim's order matches when it orders no
// pair against such a majority; pairs the rounds split evenly do not count either way.

// PairVote is a pair of compiles and how many rounds put First before Second.
type PairVote struct {
	First  string `json:"first"`
	Second string `json:"second"`
	Rounds int    `json:"rounds"` // rounds with First before Second
	Of     int    `json:"of"`     // rounds holding both
}

// majorityOrder is the JVM's order by pairwise majority: the entries every round holds, by
// how many others a strict majority of rounds puts them before (most first; ties by their
// mean position), and how many rounds repeat exactly that order (over those entries).
func majorityOrder(orders [][]string) ([]string, int) {
	common := commonEntries(orders)
	pos := positions(orders)
	wins := map[string]int{}
	mean := map[string]float64{}
	for _, a := range common {
		for _, p := range pos {
			mean[a] += float64(p[a]) / float64(len(pos))
		}
		for _, b := range common {
			if a != b && 2*before(pos, a, b) > len(pos) {
				wins[a]++
			}
		}
	}
	order := slices.Clone(common)
	slices.SortStableFunc(order, func(a, b string) int {
		if wins[a] != wins[b] {
			return wins[b] - wins[a]
		}
		switch {
		case mean[a] < mean[b]:
			return -1
		case mean[a] > mean[b]:
			return 1
		}
		return 0
	})
	n := 0
	for _, o := range orders {
		if slices.Equal(slices.DeleteFunc(slices.Clone(o), func(e string) bool { return !slices.Contains(common, e) }), order) {
			n++
		}
	}
	return order, n
}

// againstMajority are the pairs of model's order (entries every round holds) that a strict
// majority of the rounds orders the other way, the most decided first.
func againstMajority(model []string, orders [][]string) []PairVote {
	common := commonEntries(orders)
	pos := positions(orders)
	var in []string
	for _, e := range model {
		if slices.Contains(common, e) && !slices.Contains(in, e) {
			in = append(in, e)
		}
	}
	var out []PairVote
	for i, a := range in {
		for _, b := range in[i+1:] {
			if k := before(pos, b, a); 2*k > len(pos) {
				out = append(out, PairVote{First: b, Second: a, Rounds: k, Of: len(pos)})
			}
		}
	}
	slices.SortStableFunc(out, func(x, y PairVote) int { return y.Rounds - x.Rounds })
	return out
}

// commonEntries are the entries every order holds, in the first order's sequence.
func commonEntries(orders [][]string) []string {
	if len(orders) == 0 {
		return nil
	}
	var out []string
	for _, e := range orders[0] {
		all := !slices.Contains(out, e)
		for _, o := range orders[1:] {
			all = all && slices.Contains(o, e)
		}
		if all {
			out = append(out, e)
		}
	}
	return out
}

// positions are each order's first position of each entry.
func positions(orders [][]string) []map[string]int {
	pos := make([]map[string]int, len(orders))
	for i, o := range orders {
		pos[i] = map[string]int{}
		for j, e := range o {
			if _, dup := pos[i][e]; !dup {
				pos[i][e] = j
			}
		}
	}
	return pos
}

// before counts the rounds that put a before b.
func before(pos []map[string]int, a, b string) int {
	n := 0
	for _, p := range pos {
		if p[a] < p[b] {
			n++
		}
	}
	return n
}

// kendallTau is the rank agreement of two compile orders over the entries both hold:
// (concordant − discordant) / pairs, from −1 (reversed) through 0 to 1 (the same order), and
// the number of pairs compared (0: fewer than two common entries, tau undefined).
func kendallTau(a, b []string) (float64, int) {
	pos := map[string]int{}
	for i, e := range b {
		if _, dup := pos[e]; !dup {
			pos[e] = i
		}
	}
	var common []int // b's positions, in a's order
	seen := map[string]bool{}
	for _, e := range a {
		if j, ok := pos[e]; ok && !seen[e] {
			seen[e] = true
			common = append(common, j)
		}
	}
	c, d := 0, 0
	for i := range common {
		for j := i + 1; j < len(common); j++ {
			if common[i] < common[j] {
				c++
			} else {
				d++
			}
		}
	}
	if c+d == 0 {
		return 0, 0
	}
	return float64(c-d) / float64(c+d), c + d
}

// OrderAgreement is how well compile orders agree, as Kendall's tau: jitsim's order against
// each JVM round, and the JVM's rounds against each other (how much a real JVM agrees with
// itself, the yardstick for the first).
type OrderAgreement struct {
	Model    float64 `json:"modelTauMedian"` // median over the rounds of tau(jitsim, round)
	ModelMin float64 `json:"modelTauMin"`
	ModelMax float64 `json:"modelTauMax"`
	JVM      float64 `json:"jvmTauMedian"` // median over pairs of rounds
	JVMMin   float64 `json:"jvmTauMin"`
	JVMMax   float64 `json:"jvmTauMax"`
	Pairs    int     `json:"pairs"` // method pairs in jitsim's comparisons (0: undefined)
}

// String says the agreement in one line: jitsim against the JVM's rounds beside the rounds
// against each other.
func (a OrderAgreement) String() string {
	if a.Pairs == 0 {
		return "rank agreement: fewer than two methods in common, not measured"
	}
	verdict := "as close to the JVM as its own rounds are to each other"
	if a.Model < a.JVM {
		verdict = "less close to the JVM than its own rounds are to each other"
	}
	return fmt.Sprintf("rank agreement (Kendall's tau, 1 = same order): jitsim vs the JVM's rounds %.2f (%.2f–%.2f), the JVM's rounds vs each other %.2f (%.2f–%.2f): %s",
		a.Model, a.ModelMin, a.ModelMax, a.JVM, a.JVMMin, a.JVMMax, verdict)
}

// orderAgreement computes the agreement of model against rounds, and of the rounds among
// themselves; a comparison with fewer than two common entries is left out.
func orderAgreement(model []string, rounds [][]string) OrderAgreement {
	var mt, jt []float64
	var a OrderAgreement
	for _, r := range rounds {
		if t, n := kendallTau(model, r); n > 0 {
			mt, a.Pairs = append(mt, t), max(a.Pairs, n)
		}
	}
	for i := range rounds {
		for j := i + 1; j < len(rounds); j++ {
			if t, n := kendallTau(rounds[i], rounds[j]); n > 0 {
				jt = append(jt, t)
			}
		}
	}
	a.Model, a.ModelMin, a.ModelMax = medianRange(mt)
	a.JVM, a.JVMMin, a.JVMMax = medianRange(jt)
	return a
}

// medianRange is the median, minimum and maximum of xs (zeros for none).
func medianRange(xs []float64) (med, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med = s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return med, s[0], s[len(s)-1]
}

// WarmupOptions say what Warmup compares.
type WarmupOptions struct {
	Java         string
	JDK          jdk.Release
	CPU          cpu.Model
	ProfileFile  string
	HostProfiles string
	Force        bool
	Tiers        []jrt.Tier
	Rounds       int
	Sets         []FlagSet
	DataSize     int
	// Iterations and Ops are the loop's iterations and operations per iteration.
	Iterations, Ops int
	Progress        func(done, total int, what string)
	// RunJVM runs the warm-up program (tests replay recordings); nil: the compiled program.
	RunJVM func(ctx context.Context, vmOptions []string, args ...string) ([]byte, error)
}

// WarmupResult is one flag set's warm-up comparison.
type WarmupResult struct {
	Set   string      `json:"flagSet"`
	JVM   []Landmarks `json:"jvm"` // one per round
	Model Landmarks   `json:"model"`
	// JVMOrder is the JVM's order by pairwise majority (majorityOrder), JVMOrderN how
	// many rounds repeat it exactly.
	JVMOrder  []string `json:"jvmMajorityOrder"`
	JVMOrderN int      `json:"jvmMajorityRounds"`
	// Against are the pairs jitsim orders against a strict majority of the JVM's rounds;
	// OrderMatch says there are none.
	Against    []PairVote `json:"againstMajority"`
	OrderMatch bool       `json:"orderMatches"`
	// Agreement ranks the orders: the JVM's own rounds seldom share one order.
	Agreement OrderAgreement `json:"orderAgreement"`
	Verdicts  []string       `json:"verdicts"` // per landmark: first, half speed, steady
	// Runs are the series: the JVM's rounds ("java: " + the options) and jitsim's.
	Runs []warmup.Run `json:"-"`
}

// label names a flag set's series by the flag set's name ("no-ghash"; the JVM's "java:
// no-ghash"), short enough for the chart's legend.
func label(s FlagSet) string { return s.Name }

// Warmup runs the warm-up loop per flag set on the JVM (Rounds rounds, interleaved) and on the
// model clock, and compares their landmarks (within ±50 % on the medians) and compile
// orders.
func Warmup(ctx context.Context, o WarmupOptions) ([]WarmupResult, error) {
	args := []string{"AESGCMBench", "0", strconv.Itoa(o.Iterations), strconv.Itoa(o.Ops)}
	props := map[string]string{"dataSize": strconv.Itoa(o.DataSize)}
	runJVM := o.RunJVM
	if runJVM == nil {
		prog, err := jvmharness.Compile(ctx, o.Java, jvmharness.Bench)
		if err != nil {
			return nil, fmt.Errorf("validate: --jvm=%s: %w", o.Java, err)
		}
		defer prog.Close()
		runJVM = func(ctx context.Context, opts []string, args ...string) ([]byte, error) {
			out, err := prog.Run(ctx, opts, args...)
			return append(out.Stderr, out.Stdout...), err
		}
	}
	jvm := make([][]Landmarks, len(o.Sets))
	orders := make([][][]string, len(o.Sets))
	series := make([][]warmup.Run, len(o.Sets))
	total, done := o.Rounds*len(o.Sets)+len(o.Sets), 0
	for round := 1; round <= o.Rounds; round++ {
		for i, s := range o.Sets {
			if o.Progress != nil {
				o.Progress(done, total, fmt.Sprintf("JVM warm-up round %d/%d: %s", round, o.Rounds, s.Name))
			}
			opts := append(append([]string{}, s.Options...), "-XX:+PrintCompilation", "-DdataSize="+props["dataSize"])
			out, err := runJVM(ctx, opts, args...)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				return nil, fmt.Errorf("validate: --jvm=%s: warm-up %s: %w", o.Java, s.Name, err)
			}
			l, order, run, err := jvmLandmarks(out, int64(o.Ops), int64(o.DataSize))
			if err != nil {
				return nil, fmt.Errorf("validate: --jvm=%s: warm-up %s: %w", o.Java, s.Name, err)
			}
			run.Label, run.Fork, run.Scenario, run.Flags, run.CPU, run.JDK, run.Clock = "java: "+label(s), round, "AESGCMBench", s.Options, "host", o.JDK.String(), "wall"
			series[i] = append(series[i], run)
			jvm[i] = append(jvm[i], l)
			orders[i] = append(orders[i], order)
			done++
		}
	}
	var res []WarmupResult
	for i, s := range o.Sets {
		if o.Progress != nil {
			o.Progress(done, total, "model clock warm-up: "+s.Name)
		}
		m, mrun, err := modelWarmup(ctx, o, s, props, args)
		if err != nil {
			return nil, fmt.Errorf("validate: warm-up %s on the model clock: %w", s.Name, err)
		}
		done++
		// Only the methods both sides compile are compared: the JVM also compiles the
		// provider code jitsim does not model (Cipher.init, …), and inlines some methods
		// jitsim compiles on their own.
		both := map[string]bool{}
		for _, o := range orders[i] {
			for _, e := range o {
				for _, me := range m.Order {
					if methodOf(e) == methodOf(me) {
						both[methodOf(e)] = true
					}
				}
			}
		}
		keep := func(order []string) []string {
			return slices.DeleteFunc(slices.Clone(order), func(e string) bool { return !both[methodOf(e)] })
		}
		var common [][]string
		for _, o := range orders[i] {
			common = append(common, keep(o))
		}
		m.Order = keep(m.Order)
		r := WarmupResult{Set: s.Name, JVM: jvm[i], Model: m, Runs: append([]warmup.Run{mrun}, series[i]...)}
		r.JVMOrder, r.JVMOrderN = majorityOrder(common)
		r.Against = againstMajority(m.Order, common)
		r.OrderMatch = len(r.Against) == 0
		r.Agreement = orderAgreement(m.Order, common)
		for _, row := range landmarkRows(r) {
			r.Verdicts = append(r.Verdicts, landmarkVerdict(row))
		}
		res = append(res, r)
	}
	return res, nil
}

// jvmLandmarks reads one JVM warm-up run's output.
func jvmLandmarks(out []byte, ops, size int64) (Landmarks, []string, warmup.Run, error) {
	run, err := warmup.ParseJVMOutput(out, ops, size)
	if err != nil {
		return Landmarks{}, nil, run, err
	}
	l, err := landmarksOf(run.Iterations)
	if err != nil {
		return l, nil, run, err
	}
	log, err := warmup.ParsePrintCompilation(bytes.NewReader(out), "jvm", "jvm output")
	if err != nil {
		return l, nil, run, err
	}
	l.Order = compileOrder(log)
	return l, l.Order, run, nil
}

// modelWarmup runs the loop on the model clock with -XX:+PrintCompilation.
func modelWarmup(ctx context.Context, o WarmupOptions, s FlagSet, props map[string]string, args []string) (Landmarks, warmup.Run, error) {
	sim := simOptions{ModelOptions{JDK: o.JDK, CPU: o.CPU, ProfileFile: o.ProfileFile, HostProfiles: o.HostProfiles, Force: o.Force, Tiers: o.Tiers}, setup.ClockModel}
	run, _, vmOut, err := simSeries(ctx, sim, s, scenario.AESGCMBench, 1, props, args[1:])
	if err != nil {
		return Landmarks{}, run, err
	}
	l, err := landmarksOf(run.Iterations)
	if err != nil {
		return l, run, err
	}
	log, err := warmup.ParsePrintCompilation(bytes.NewReader(vmOut), "jitsim", "jitsim output")
	if err != nil {
		return l, run, err
	}
	l.Order = compileOrder(log)
	return l, run, nil
}

// simOptions say how jitsim runs a series: release, CPU model, the model clock's profile and
// the tiers, on a clock (setup.ClockModel or setup.ClockWall).
type simOptions struct {
	ModelOptions
	Clock string
}

// simSeries runs scen on jitsim under flag set s with -XX:+PrintCompilation on threads
// threads (0: the scenario's own): the series of thread 0's iterations as `jitsim warmup`
// records it (each iteration with the entry level of every method, the VM's events filed
// under their iterations), each iteration's phase, and what the VM printed.
func simSeries(ctx context.Context, o simOptions, s FlagSet, scen scenario.Scenario, threads int, props map[string]string, args []string) (warmup.Run, []string, []byte, error) {
	run := warmup.Run{Label: label(s), Fork: 1, Scenario: scen.Name, Flags: s.Options, CPU: o.CPU.Name, JDK: o.JDK.String(), Clock: o.Clock}
	req := setup.Request{JDK: o.JDK, CPU: o.CPU, Options: append(append([]string{}, s.Options...), "-XX:+PrintCompilation"),
		Clock: o.Clock, Tiers: o.Tiers}
	if o.Clock == setup.ClockModel {
		req.ProfileFile, req.ForceProfile, req.HostProfiles = o.ProfileFile, o.Force, o.HostProfiles
	}
	r, err := setup.Resolve(req)
	if err != nil {
		return run, nil, nil, err
	}
	var vmOut bytes.Buffer
	clock := r.NewClock()
	vm, err := r.NewVM(clock, &vmOut)
	if err != nil {
		return run, nil, nil, err
	}
	defer vm.Close()
	// The series as `jitsim warmup` records it: each iteration with the entry level of
	// every method, and the VM's events filed under their iterations (warmup.Run.File).
	var mu sync.Mutex
	var events []warmup.Event
	unsub := vm.Subscribe(func(e jrt.Event) {
		mu.Lock()
		events = append(events, warmup.Event{Kind: warmup.EventKind(e.Kind.String()), Method: e.Method, Level: int(e.Level), At: e.At,
			CompileID: e.CompileID, Detail: e.Detail, BCI: max(e.BCI, 0)})
		mu.Unlock()
	})
	defer unsub()
	var its []warmup.Iteration
	var phases []string
	obs := scenario.ObserverFunc(func(it scenario.Iteration) {
		if it.Thread == 0 {
			its = append(its, warmup.Iteration{Index: len(its), Start: it.Start, Duration: it.Duration, Ops: it.Ops, Bytes: it.Bytes,
				Levels: vm.Levels()})
			phases = append(phases, it.Phase)
		}
	})
	// NewVM gives a workload's writer its own VM, so that preparing the messages its
	// decryptions read does not warm the VM under study.
	newVM := func() (*jrt.VM, error) { return r.NewVM(r.NewClock(), io.Discard) }
	env := scenario.Env{VM: vm, NewVM: newVM, Threads: threads, Clock: clock, ClockKind: o.Clock, Observer: obs}
	if err := scen.Run(ctx, env, props, args, io.Discard); err != nil {
		return run, nil, nil, err
	}
	if len(its) == 0 {
		return run, nil, nil, fmt.Errorf("%s reported no iterations", scen.Name)
	}
	run.Iterations = its
	var follow []string
	last := its[len(its)-1].Levels
	for _, m := range vm.IntrinsicMethods() {
		if _, called := last[m]; called {
			follow = append(follow, m)
		}
	}
	mu.Lock()
	run.File(events, follow)
	mu.Unlock()
	return run, phases, vmOut.Bytes(), nil
}

// landmarkRow is one landmark of one flag set: the JVM's median and range over the rounds,
// jitsim's, and their ratio; with jitsim's wall clock measured too, its median and range
// over the rounds and their ratio to the JVM's; Verdict is filled by the callers that have
// one.
type landmarkRow struct {
	Name                    string
	Median, Min, Max, Model time.Duration
	Factor                  float64
	Wall, WallMin, WallMax  time.Duration
	WallFactor              float64
	Verdict                 string
}

// landmark is one landmark: its name in the tables and where a Landmarks holds it.
type landmark struct {
	name string
	of   func(Landmarks) time.Duration
}

// warmupLandmarks are the warm-up landmarks: first iteration per operation, time to half
// speed, time to the steady state.
var warmupLandmarks = []landmark{
	{"first iteration, per op", func(l Landmarks) time.Duration { return l.FirstPerOp }},
	{"time to half speed", func(l Landmarks) time.Duration { return l.HalfSpeed }},
	{"time to steady state", func(l Landmarks) time.Duration { return l.Steady }},
}

// landmarkRows summarises r's three warm-up landmarks.
func landmarkRows(r WarmupResult) []landmarkRow {
	return rowsOf(warmupLandmarks, r.JVM, r.Model, nil, r.Verdicts)
}

// rowsOf summarises landmarks ls over the JVM's rounds, jitsim's model clock and, when
// measured, jitsim's wall-clock rounds; verdicts[k] is row k's.
func rowsOf(ls []landmark, jvm []Landmarks, model Landmarks, wall []Landmarks, verdicts []string) []landmarkRow {
	var rows []landmarkRow
	for k, lm := range ls {
		of := func(xs []Landmarks) []float64 {
			var v []float64
			for _, l := range xs {
				v = append(v, float64(lm.of(l)))
			}
			return v
		}
		v := of(jvm)
		med := median(v)
		row := landmarkRow{Name: lm.name, Median: time.Duration(med), Min: time.Duration(slices.Min(v)), Max: time.Duration(slices.Max(v)), Model: lm.of(model)}
		if med > 0 {
			row.Factor = float64(row.Model) / med
		}
		if w := of(wall); len(w) > 0 {
			row.Wall, row.WallMin, row.WallMax = time.Duration(median(w)), time.Duration(slices.Min(w)), time.Duration(slices.Max(w))
			if med > 0 {
				row.WallFactor = float64(row.Wall) / med
			}
		}
		if k < len(verdicts) {
			row.Verdict = verdicts[k]
		}
		rows = append(rows, row)
	}
	return rows
}

// landmarkVerdict is the warm-up decision rule: a JVM range beyond ±50 % of its median is too
// noisy to judge; else within when jitsim is within ±50 % of the JVM's median.
func landmarkVerdict(row landmarkRow) string {
	switch {
	case row.Max > row.Median*3/2 || row.Min < row.Median/2:
		return TooNoisy
	case row.Median > 0 && row.Factor >= 0.5 && row.Factor <= 1.5:
		return LandmarkWithin
	}
	return Outside
}

// WriteWarmup prints the warm-up comparison: per flag set and landmark, the JVM's median and
// range over the rounds, jitsim's, the factor and verdict; then the compile orders.
func WriteWarmup(w io.Writer, rs []WarmupResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "flag set\tlandmark\tJVM median\tJVM min–max\tjitsim\tjitsim/JVM\tverdict")
	for _, r := range rs {
		for k, row := range landmarkRows(r) {
			fmt.Fprintf(tw, "%s\t%s\t%v\t%v–%v\t%v\t%.2f\t%s\n", r.Set, row.Name, row.Median.Round(time.Microsecond),
				row.Min.Round(time.Microsecond), row.Max.Round(time.Microsecond), row.Model.Round(time.Microsecond), row.Factor, r.Verdicts[k])
		}
	}
	tw.Flush()
	for _, r := range rs {
		if line := firstCPULine(r); line != "" {
			fmt.Fprintln(w, line)
		}
	}
	for _, r := range rs {
		match := "differs from"
		if r.OrderMatch {
			match = "matches"
		}
		fmt.Fprintf(w, "\n%s: first level-3/4 compiles of the crypto methods both compile: jitsim's order %s the JVM's majority, pair by pair (%s)\n  JVM:    %s\n  jitsim: %s\n",
			r.Set, match, r.AgainstLine(), strings.Join(r.JVMOrder, " → "), strings.Join(r.Model.Order, " → "))
		fmt.Fprintf(w, "  %s\n", r.Agreement)
	}
}

// AgainstLine says which pairs jitsim orders against the JVM's majority, or that none.
func (r WarmupResult) AgainstLine() string {
	rounds := fmt.Sprintf("%d of %d rounds repeat the JVM's order whole", r.JVMOrderN, len(r.JVM))
	if len(r.Against) == 0 {
		return "no pair against a majority of the rounds; " + rounds
	}
	var ps []string
	for _, p := range r.Against {
		ps = append(ps, fmt.Sprintf("%s before %s in %d of %d", p.First, p.Second, p.Rounds, p.Of))
	}
	return fmt.Sprintf("%d pairs against the JVM's rounds: %s; %s", len(r.Against), strings.Join(ps, ", "), rounds)
}

// firstCPULine says, where the JVM's rounds report their thread CPU time, the JVM's first
// iteration per operation on that clock beside jitsim's: no verdict, the landmark is the wall
// clock's, but on a shared machine the difference is the time the JVM's loop thread waited
// for a CPU (its compiler threads' and other processes' turns), which the model clock does
// not charge. "" when no round reports it.
func firstCPULine(r WarmupResult) string {
	var v []float64
	for _, l := range r.JVM {
		if l.FirstCPUPerOp > 0 {
			v = append(v, float64(l.FirstCPUPerOp))
		}
	}
	if len(v) == 0 {
		return ""
	}
	med := median(slices.Clone(v))
	return fmt.Sprintf("%s: the JVM's first iteration on its loop thread's CPU clock: %v per op (%v–%v, %d rounds); jitsim/that %.2f (no verdict: the time the thread waited for a CPU is the difference)",
		r.Set, time.Duration(med).Round(time.Microsecond), time.Duration(slices.Min(v)).Round(time.Microsecond),
		time.Duration(slices.Max(v)).Round(time.Microsecond), len(v), float64(r.Model.FirstPerOp)/med)
}
