package warmup

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Class is a run's warm-up classification, with warmup_stats's names.
type Class string

// The four classes of warmup_stats (Barrett et al. 2017, §4.3) and the two
// verdicts for a set of forks that disagree.
const (
	Flat             Class = "flat"            // no changepoint, or every segment equivalent to the last
	Warmup           Class = "warmup"          // earlier segments slower than the steady one
	Slowdown         Class = "slowdown"        // an earlier segment faster than the steady one
	NoSteadyState    Class = "no steady state" // a change within the last Steady iterations
	GoodInconsistent Class = "good inconsistent"
	BadInconsistent  Class = "bad inconsistent"
)

// Options tune Analyze. The zero value is warmup_stats's method with the
// defaults documented on each field.
type Options struct {
	// Penalty per changepoint; 0 means 15·ln n (warmup_stats).
	Penalty float64 `json:"penalty,omitempty"`
	// MinSegment is PELT's minimum segment length; 0 means 2 (cpt.meanvar).
	MinSegment int `json:"min_segment,omitempty"`
	// Delta is the absolute tolerance, in seconds per op, within which a
	// segment counts as equivalent to the last; DeltaPercent is the same as
	// a percentage of the fastest segment's mean (warmup_stats's "1%" form).
	// If both are zero DeltaPercent = 1 is used: our iterations are far
	// shorter than Krun's one-second ones, so warmup_stats's absolute
	// 0.001 s default would call everything flat. If both are set the
	// larger tolerance wins.
	Delta        float64 `json:"delta,omitempty"`
	DeltaPercent float64 `json:"delta_percent,omitempty"`
	// RawDeltas drops the segment variance from the equivalence test
	// (warmup_stats --raw-deltas).
	RawDeltas bool `json:"raw_deltas,omitempty"`
	// Steady is the number of final iterations within which a change means
	// "no steady state" (warmup_stats --steady, 500 of 2000 by default); 0
	// means a quarter of the series.
	Steady int `json:"steady,omitempty"`
	// OutlierWindow is the window of warmup_stats's Tukey outlier filter
	// (default 200); negative turns the filter off.
	OutlierWindow int `json:"outlier_window,omitempty"`
	// BootstrapResamples is the number of resamples of the steady
	// performance interval (LabelStats.SteadyPerf); 0 means warmup_stats's
	// 100 000, negative turns the bootstrap off.
	BootstrapResamples int `json:"bootstrap_resamples,omitempty"`
	// Cost picks the changepoint cost: CostR (PELT, R's cpt.meanvar to the
	// bit, warmup_stats's method) or CostScaleFree (PELTScaleFree: exact
	// plateaus stay whole, but the answer is no longer R's). Empty means
	// CostScaleFree for model-clock runs, whose exact plateaus R splits on
	// rounding noise, and CostR for all others (AnalyzeRun; Analyze, which
	// knows no clock, takes CostR).
	Cost string `json:"cost,omitempty"`
	// Traini also classifies every run with Traini et al.'s rule
	// (RunSummary.Traini, LabelSummary.TrainiClass).
	Traini bool `json:"traini,omitempty"`
}

// The changepoint costs of Options.Cost.
const (
	CostR         = "r"
	CostScaleFree = "scale-free"
)

// Validate reports an unknown Options.Cost.
func (o Options) Validate() error {
	_, err := o.cost("")
	return err
}

// cost resolves Options.Cost for a run on the given clock.
func (o Options) cost(clock string) (string, error) {
	switch o.Cost {
	case "":
		if clock == "model" {
			return CostScaleFree, nil
		}
		return CostR, nil
	case CostR, CostScaleFree:
		return o.Cost, nil
	}
	return "", fmt.Errorf("warmup: changepoint cost %q: want %s or %s", o.Cost, CostR, CostScaleFree)
}

func (o Options) bootstrapResamples() int {
	if o.BootstrapResamples == 0 {
		return BootstrapResamples
	}
	return o.BootstrapResamples
}

// Segment is a stretch between changepoints: iterations [Start, End).
type Segment struct {
	Start    int     `json:"start"`
	End      int     `json:"end"`
	Mean     float64 `json:"mean"`     // seconds per op, outliers excluded
	Variance float64 `json:"variance"` // MLE variance, outliers excluded
}

// Analysis is what Analyze found in one series.
type Analysis struct {
	N            int       `json:"n"`
	Cost         string    `json:"cost,omitempty"` // the changepoint cost used (Options.Cost)
	Class        Class     `json:"class"`
	Changepoints []int     `json:"changepoints"` // first iteration of each segment after the first
	Segments     []Segment `json:"segments"`
	Outliers     []int     `json:"outliers,omitempty"`
	Steady       bool      `json:"steady"`
	// SteadyIter is the first iteration of the steady state: the first of
	// the trailing segments equivalent to the last one (0 when flat).
	SteadyIter int `json:"steady_iter"`
	// SteadyMean is the mean of those segments' means (warmup_stats's
	// steady-state mean), seconds per op.
	SteadyMean float64 `json:"steady_mean"`
	// SteadyStart is when the steady state begins on the run's clock and
	// WarmupCost the time spent before it beyond what the same operations
	// would have taken at SteadyMean (negative for a slowdown). AnalyzeRun
	// fills them; Analyze assumes one op per value and back-to-back values.
	SteadyStart time.Duration `json:"steady_start_ns"`
	WarmupCost  time.Duration `json:"warmup_cost_ns"`
	// FinalMedian is the median time per op of the last Steady iterations
	// (a quarter of the series by default), the run's final speed whether
	// or not a steady state was found. HalfSpeedIter is the first
	// iteration, outliers aside, that ran at half that speed or better
	// (time per op at most twice FinalMedian), and HalfSpeedStart when it
	// began: a measure of warm-up that noise in the tail cannot void.
	FinalMedian    float64       `json:"final_median"`
	HalfSpeedIter  int           `json:"half_speed_iter"`
	HalfSpeedStart time.Duration `json:"half_speed_start_ns"`
}

// Outliers returns the indices warmup_stats's filter marks in x: a value
// outside median ± 3·(p90 − p10) of the window of the given size centred on
// it. Points whose window is cut short at the start of the series are never
// outliers, so a warm-up is not filtered away.
func Outliers(x []float64, window int) []int {
	return bandOutliers(x, window, 90, 10)
}

// bandOutliers marks the values outside median ± 3·(p[hi] − p[lo]) of their
// window; windows cut short at the start are skipped.
func bandOutliers(x []float64, window int, hiPct, loPct float64) []int {
	if window <= 0 {
		window = 200
	}
	var out []int
	half := window / 2
	buf := make([]float64, 0, window)
	for i, v := range x {
		lo, hi := max(i-half, 0), min(i+half, len(x))
		if lo == 0 && hi < window {
			continue
		}
		buf = append(buf[:0], x[lo:hi]...)
		sort.Float64s(buf)
		med := median50(buf)
		band := 3 * (percentile(buf, hiPct) - percentile(buf, loPct))
		if v > med+band || v < med-band {
			out = append(out, i)
		}
	}
	return out
}

// percentile is the linear-interpolation percentile of sorted data in the
// arithmetic of warmup_stats's outliers.percentile (and numpy's default):
// position (n−1)·p/100, then lower·(ceil−pos) + upper·(pos−floor), so that
// a value on the band's edge is judged as warmup_stats judges it.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	switch n {
	case 0:
		return math.NaN()
	case 1:
		return sorted[0]
	}
	pos := float64(n-1) * (p / 100)
	lo, hi := math.Floor(pos), math.Ceil(pos)
	if lo == hi {
		return sorted[int(pos)]
	}
	return sorted[int(lo)]*(hi-pos) + sorted[int(hi)]*(pos-lo)
}

// median50 is warmup_stats's outliers.median: the middle value, or the mean
// of the two middle values, of sorted data.
func median50(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Analyze finds changepoints in x (seconds per op, one value per
// iteration), classifies the series and locates its steady state, following
// warmup_stats's bin/mark_changepoints_in_json and summary_statistics.py.
func Analyze(x []float64, o Options) (Analysis, error) {
	return analyze(x, o, "")
}

func analyze(x []float64, o Options, clock string) (Analysis, error) {
	n := len(x)
	a := Analysis{N: n}
	cost, err := o.cost(clock)
	if err != nil {
		return a, err
	}
	a.Cost = cost
	if n == 0 {
		return a, fmt.Errorf("warmup: analyze: empty series")
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return a, fmt.Errorf("warmup: analyze: value %d is %v", i, v)
		}
	}
	if o.OutlierWindow >= 0 {
		a.Outliers = Outliers(x, o.OutlierWindow)
	}
	isOut := make([]bool, n)
	for _, i := range a.Outliers {
		isOut[i] = true
	}
	kept := make([]float64, 0, n)
	orig := make([]int, 0, n) // kept index → original index
	for i, v := range x {
		if !isOut[i] {
			kept = append(kept, v)
			orig = append(orig, i)
		}
	}
	detect := PELT
	if cost == CostScaleFree {
		detect = PELTScaleFree
	}
	cps, err := detect(kept, o.Penalty, o.MinSegment)
	if err != nil {
		return a, err
	}
	// Back to original indices; an outlier just before a changepoint stays
	// with the earlier segment, as warmup_stats shifts indices.
	bounds := []int{0}
	for _, c := range cps {
		bounds = append(bounds, orig[c-1]+1)
	}
	bounds = append(bounds, n)
	for i := 0; i+1 < len(bounds); i++ {
		s := Segment{Start: bounds[i], End: bounds[i+1]}
		var sum, sq float64
		var m int
		for j := s.Start; j < s.End; j++ {
			if !isOut[j] {
				sum += x[j]
				m++
			}
		}
		if m > 0 {
			s.Mean = sum / float64(m)
			for j := s.Start; j < s.End; j++ {
				if !isOut[j] {
					sq += (x[j] - s.Mean) * (x[j] - s.Mean)
				}
			}
			s.Variance = sq / float64(m)
		}
		a.Segments = append(a.Segments, s)
	}
	a.Changepoints = bounds[1 : len(bounds)-1]
	if a.Changepoints == nil {
		a.Changepoints = []int{}
	}
	classify(&a, o)
	a.SteadyStart, a.WarmupCost = 0, 0
	a.FinalMedian, a.HalfSpeedIter = halfSpeed(x, isOut, steadyWindow(o, n))
	var at float64
	for i := 0; i < a.HalfSpeedIter; i++ {
		at += x[i]
	}
	a.HalfSpeedStart = seconds(at)
	if a.Steady {
		at = 0
		for i := 0; i < a.SteadyIter; i++ {
			at += x[i]
		}
		a.SteadyStart = seconds(at)
		a.WarmupCost = seconds(at - float64(a.SteadyIter)*a.SteadyMean)
	}
	return a, nil
}

// steadyWindow is Options.Steady with its default, a quarter of n.
func steadyWindow(o Options, n int) int {
	if o.Steady > 0 {
		return o.Steady
	}
	return max(n/4, 1)
}

// halfSpeed returns the median of the last window values and the first
// value, outliers aside, at most twice that median (the last value when
// only outliers were).
func halfSpeed(x []float64, isOut []bool, window int) (float64, int) {
	tail := append([]float64(nil), x[max(len(x)-window, 0):]...)
	sort.Float64s(tail)
	med := percentile(tail, 50)
	for i, v := range x {
		if !isOut[i] && v <= 2*med {
			return med, i
		}
	}
	return med, len(x) - 1
}

// classify applies warmup_stats's rules (bin/mark_changepoints_in_json,
// Segments.get_classification), walking back from the last segment: a
// segment whose mean ± variance overlaps the last segment's mean ± max(
// variance, delta) is equivalent to it. Of the others, the first met that
// ends inside the last Steady iterations makes the run "no steady state",
// the first faster than the bounds a slowdown; a slower one marks a warm-up
// and the walk goes on, so a faster segment before a warm-up still makes a
// slowdown. The steady state is the unbroken stretch of equivalent segments
// at the end (warmup_stats's summary_statistics).
func classify(a *Analysis, o Options) {
	segs := a.Segments
	fastest := math.Inf(1)
	for _, s := range segs {
		fastest = min(fastest, s.Mean)
	}
	pct := o.DeltaPercent
	if o.Delta == 0 && pct == 0 {
		pct = 1
	}
	delta := max(o.Delta, fastest*pct/100)
	steady := steadyWindow(o, a.N)
	last := segs[len(segs)-1]
	spread := func(s Segment) float64 {
		if o.RawDeltas {
			return 0
		}
		return s.Variance
	}
	lower := min(last.Mean-spread(last), last.Mean-delta)
	upper := max(last.Mean+spread(last), last.Mean+delta)
	a.Class = Flat
	first := len(segs) - 1 // first steady segment
	unbroken := true
walk:
	for i := len(segs) - 2; i >= 0; i-- {
		s := segs[i]
		if s.Mean+spread(s) >= lower && s.Mean-spread(s) <= upper {
			if unbroken {
				first = i
			}
			continue
		}
		unbroken = false
		switch {
		case s.End-1 > a.N-steady:
			a.Class = NoSteadyState
			break walk
		case s.Mean-spread(s) < lower:
			a.Class = Slowdown
			break walk
		default:
			a.Class = Warmup
		}
	}
	if a.Class == NoSteadyState {
		a.Steady, a.SteadyIter, a.SteadyMean = false, -1, 0
		return
	}
	a.Steady = true
	var sum float64
	for _, s := range segs[first:] {
		sum += s.Mean
	}
	a.SteadyMean = sum / float64(len(segs)-first)
	a.SteadyIter = segs[first].Start
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }

// AnalyzeRun analyses r's time per op and places the steady state on the
// run's own clock: SteadyStart is the start of iteration SteadyIter, and the
// warm-up cost sums, over earlier iterations, each one's duration minus its
// operations at the steady-state mean.
func AnalyzeRun(r Run, o Options) (Analysis, error) {
	if err := r.Validate(); err != nil {
		return Analysis{}, err
	}
	a, err := analyze(r.PerOp(), o, r.Clock)
	if err != nil {
		return a, fmt.Errorf("warmup: run %q fork %d: %w", r.Label, r.Fork, err)
	}
	a.HalfSpeedStart = r.Iterations[a.HalfSpeedIter].Start
	if a.Steady {
		a.SteadyStart = r.Iterations[a.SteadyIter].Start
		var cost float64
		for _, it := range r.Iterations[:a.SteadyIter] {
			cost += it.Duration.Seconds() - float64(it.ops())*a.SteadyMean
		}
		a.WarmupCost = seconds(cost)
	}
	return a, nil
}

// Combine gives the verdict for several forks of one option set, as
// warmup_stats's summary tables do: their common class, "good inconsistent"
// when they mix flat and warmup only, else "bad inconsistent".
func Combine(classes []Class) Class {
	set := map[Class]bool{}
	for _, c := range classes {
		set[c] = true
	}
	switch {
	case len(set) == 0:
		return ""
	case len(set) == 1:
		return classes[0]
	case len(set) == 2 && set[Flat] && set[Warmup]:
		return GoodInconsistent
	default:
		return BadInconsistent
	}
}
