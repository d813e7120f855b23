package warmup

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"
)

// The stopping-criteria lab: on the model clock a run's true steady state
// is known from the VM's events, so warm-up settings can be scored against
// it rather than against a heuristic applied to the scored series itself.

// TrueSteady returns a run's true steady state from its VM events: the
// first iteration after the last one that installed code (installed, osr)
// or made code not entrant for any followed method, or that ended with a
// compile task still waiting in a queue (queued, not yet started); mean is
// the time per operation from there to the end, in seconds. It is an error
// when that leaves fewer than minTail iterations.
func TrueSteady(r Run, minTail int) (iter int, mean float64, err error) {
	waiting := map[int]bool{}
	last := -1
	for i, it := range r.Iterations {
		for _, e := range it.Events {
			switch e.Kind {
			case EventQueued:
				waiting[e.CompileID] = true
			case EventStarted:
				delete(waiting, e.CompileID)
			case EventInstalled, EventOSR, EventNotEntrant:
				last = i
			}
		}
		if len(waiting) > 0 {
			last = i
		}
	}
	iter = last + 1
	if n := len(r.Iterations); n-iter < max(minTail, 1) {
		return iter, 0, fmt.Errorf("warmup: run %q fork %d: the VM's code settles at iteration %d of %d, leaving fewer than %d iterations",
			r.Label, r.Fork, iter, n, max(minTail, 1))
	}
	var d time.Duration
	var ops int64
	for _, it := range r.Iterations[iter:] {
		d += it.Duration
		ops += it.ops()
	}
	return iter, d.Seconds() / float64(ops), nil
}

// StopRule is a warm-up setting: Warmup returns how many iterations of r it
// spends warming up (len(r.Iterations) when it never stops).
type StopRule struct {
	Name   string
	Window int // iterations the rule looks at at once (1 for fixed settings)
	Warmup func(r Run) int
}

// measureIters is how many iterations a setting measures after its
// warm-up (Traini et al.'s replay measures 10 iterations).
const measureIters = 10

// StopRules are the settings the lab scores, one row each.
var StopRules = []StopRule{
	{"JMH default (5 × 10 s)", 1, timedWarmup(5 * 10 * time.Second)},
	{"5 iterations", 1, fixedWarmup(5)},
	{"10 iterations", 1, fixedWarmup(10)},
	{"20 iterations", 1, fixedWarmup(20)},
	{"50 iterations", 1, fixedWarmup(50)},
	{"CoV < 0.01 (Laaber et al.)", 5, covWarmup(0.01, 5, 5, dynamicMaxWarmup)},
	{"RCIW < 0.03 (Laaber et al.)", rciwHistory, rciwWarmup(rciwThreshold, rciwHistory, 5, dynamicMaxWarmup)},
	{"KLD > 0.99 (Laaber et al.)", kldHistory, kldWarmup(kldThreshold, kldHistory, 5, dynamicMaxWarmup)},
}

// covWarmup is Laaber et al.'s CoV stoppage criterion (FSE'20; the
// defaults of their JMH fork, github.com/sealuzh/jmh: threshold 0.01,
// history 5, at least 5 warm-up iterations): after iteration i, the
// coefficient of variation of everything measured so far is compared with
// that after each of the previous history−1 iterations, and the warm-up
// stops when the largest difference is below the threshold. Their fork
// takes each iteration's sampled invocations; a series here has one value
// per iteration (time per op), so each iteration contributes that value.
// At most maxWarmup iterations are spent (laaber.go).
func covWarmup(threshold float64, history, minWarmup, maxWarmup int) func(Run) int {
	return func(r Run) int {
		x := r.PerOp()
		x = x[:min(len(x), maxWarmup)]
		covs := make([]float64, len(x))
		var sum, sq float64
		for i, v := range x {
			sum += v
			sq += v * v
			n := float64(i + 1)
			mean := sum / n
			if i > 0 && mean > 0 {
				sd := math.Sqrt(max((sq-n*mean*mean)/(n-1), 0))
				covs[i] = sd / mean
			}
			if i+1 < max(history, minWarmup) {
				continue
			}
			worst := 0.0
			for k := 1; k < history; k++ {
				worst = max(worst, math.Abs(covs[i-k]-covs[i]))
			}
			if worst < threshold {
				return i + 1
			}
		}
		return len(x)
	}
}

func fixedWarmup(k int) func(Run) int {
	return func(r Run) int { return min(k, len(r.Iterations)) }
}

// timedWarmup warms up for a time budget on the run's clock, as JMH's
// warm-up iterations of fixed duration do: the first iteration starting
// at or after the budget is measured.
func timedWarmup(budget time.Duration) func(Run) int {
	return func(r Run) int {
		if len(r.Iterations) == 0 {
			return 0
		}
		first := r.Iterations[0].Start
		for i, it := range r.Iterations {
			if it.Start-first >= budget {
				return i
			}
		}
		return len(r.Iterations)
	}
}

// Score is one setting on one run, against the run's true steady state.
type Score struct {
	Rule       string
	Warmup     int           // iterations spent warming up
	TrueIter   int           // the true steady state's first iteration
	Error      time.Duration // warm-up end minus true steady start, on the run's clock (negative: too early)
	Wasted     time.Duration // warm-up beyond the true steady start (0 when too early)
	Deviation  float64       // |measured mean / true mean − 1| over the next 10 iterations; NaN when the run ends first
	NeverEnded bool          // the run ended before the warm-up did
}

// ScoreRun scores every rule of rules on r. The run's true steady state
// must leave at least 10 × the longest window after it, the 10 measured
// iterations counting as a window.
func ScoreRun(r Run, rules []StopRule) ([]Score, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	longest := measureIters
	for _, s := range rules {
		longest = max(longest, s.Window)
	}
	trueIter, trueMean, err := TrueSteady(r, 10*longest)
	if err != nil {
		return nil, err
	}
	at := func(i int) time.Duration {
		if i >= len(r.Iterations) {
			last := r.Iterations[len(r.Iterations)-1]
			return last.Start + last.Duration
		}
		return r.Iterations[i].Start
	}
	var out []Score
	for _, rule := range rules {
		w := rule.Warmup(r)
		s := Score{Rule: rule.Name, Warmup: w, TrueIter: trueIter, Error: at(w) - at(trueIter), Deviation: math.NaN(),
			NeverEnded: w >= len(r.Iterations)}
		s.Wasted = max(s.Error, 0)
		if end := w + measureIters; end <= len(r.Iterations) {
			var d time.Duration
			var ops int64
			for _, it := range r.Iterations[w:end] {
				d += it.Duration
				ops += it.ops()
			}
			s.Deviation = math.Abs(d.Seconds()/float64(ops)/trueMean - 1)
		}
		out = append(out, s)
	}
	return out, nil
}

// WriteLabTable scores rules on every model-clock run and writes one row per
// run and rule: the true steady state's first iteration, the rule's warm-up,
// the estimation error and wasted time on the run's clock, and the measured
// result's deviation from the true steady mean. Runs on other clocks are
// skipped: their truth is not known.
func WriteLabTable(w io.Writer, runs []Run, rules []StopRule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-40s %4s  %-28s %5s %7s %12s %12s %10s\n", "option set", "fork", "warm-up setting", "true", "warm-up", "error", "wasted", "deviation")
	for _, r := range runs {
		if r.Clock != "model" {
			continue
		}
		scores, err := ScoreRun(r, rules)
		if err != nil {
			fmt.Fprintf(&b, "%-40s %4d  %v\n", r.Label, r.Fork, err)
			continue
		}
		for _, s := range scores {
			dev := "-"
			if !math.IsNaN(s.Deviation) {
				dev = fmt.Sprintf("%.2f %%", 100*s.Deviation)
			}
			warm := fmt.Sprint(s.Warmup)
			if s.NeverEnded {
				warm = "never"
			}
			fmt.Fprintf(&b, "%-40s %4d  %-28s %5d %7s %12v %12v %10s\n", r.Label, r.Fork, s.Rule, s.TrueIter, warm,
				s.Error.Round(time.Microsecond), s.Wasted.Round(time.Microsecond), dev)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
