package warmup

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Traini et al.'s steady-state rule ("Towards effective assessment of
// steady state performance in Java software: Are we there yet?", EMSE
// 28(1):13, 2023; github.com/SEALABQualityGroup/steady-state), jitsim's
// second classifier beside warmup_stats's:
//
//   - outliers: median ± 3·(p99 − p1) in a 200-iteration window (windows cut
//     short at the start skipped, as warmup_stats does);
//   - the penalty: CROPS (Haynes, Eckley and Fearnhead 2017) over
//     [4·ln n, 10⁵·ln n] gives the number of changepoints of every optimal
//     segmentation in that range; the elbow of changepoints against penalty
//     is the penalty (15·ln n when CROPS finds fewer than two);
//   - PELT's changepoints at that penalty (R's cost);
//   - walking back from the segment before the last, the first segment whose
//     bootstrap 95 % interval (10 000 resamples) of mean(last)/mean(segment)
//     lies wholly outside [0.95, 1.05] ends the warm-up: the steady state
//     starts after it (at 0 when none does);
//   - a run is steady when that start lies before its last Steady
//     iterations (Traini et al.: 500 of 3000; default here n/6); an option
//     set is steady when every fork is, "no steady state" when none is, else
//     "inconsistent".

// The classes of Traini et al.'s rule.
const (
	TrainiSteady       Class = "steady state"
	TrainiNoSteady     Class = "no steady state"
	TrainiInconsistent Class = "inconsistent"
)

// The constants of the rule.
const (
	trainiResamples = 10_000
	trainiLevel     = 0.95
	trainiEffect    = 0.05
	trainiWindow    = 200
)

// TrainiResult is one run under Traini et al.'s rule.
type TrainiResult struct {
	Class        Class   `json:"class"`
	Penalty      float64 `json:"penalty"`
	Changepoints []int   `json:"changepoints"`
	Outliers     []int   `json:"outliers,omitempty"`
	// SteadyIter is the first iteration of the steady state (-1 when the
	// run has none).
	SteadyIter int `json:"steady_iter"`
}

// TrainiOutliers marks the values outside median ± 3·(p99 − p1) of their
// window, as Outliers does with p90 and p10.
func TrainiOutliers(x []float64, window int) []int {
	return bandOutliers(x, window, 99, 1)
}

// CROPSResult is what Traini et al. read from R changepoint's CROPS
// answer: pen.value.full and the changepoint count of each row of
// cpts.full. R's bookkeeping can leave the two of different lengths.
type CROPSResult struct {
	Penalties    []float64
	Changepoints []int
}

// CROPS follows R changepoint's cpt.meanvar(x, method="PELT",
// penalty="CROPS", pen.value=c(lo, hi)) (range_of_penalties) step by step,
// its bookkeeping included: PELT (R's cost, minimum segment 2) runs at both
// ends, then, between neighbours of the sorted tested penalties whose
// (separately sorted) segment counts differ by more than one, at the
// penalty where the two costs meet, unless all.equal to one already
// tested. A run's cost is F(n) − (segments − 1)·penalty as R takes it.
// Counts are kept in decreasing order and costs in increasing order, each
// apart from the penalties (a penalty tested twice is kept once, its count
// and cost twice); neighbours with equal counts are pruned; each interval
// starts where its segmentation costs as much as the previous one; that row
// of starts is recycled to the width of the longest row, as rbind does, and
// the upper penalty appended. cpts.full has a row per segmentation, or a
// single row when none has more than one changepoint (R's sapply then
// returns a vector).
func CROPS(x []float64, lo, hi float64) (CROPSResult, error) {
	var res CROPSResult
	data, err := newPELTData(x, 2, false)
	if err != nil {
		return res, err
	}
	var tested []float64 // sorted, unique
	var counts []int     // segments (changepoints + 1), decreasing
	var costs []float64  // unpenalised, increasing
	var segs [][]int     // changepoints, by decreasing count
	todo := []float64{lo, hi}
	for len(todo) > 0 {
		if len(counts) > 10*len(x)+20 {
			return res, fmt.Errorf("warmup: CROPS: no convergence after %d runs", len(counts))
		}
		var newSegs [][]int
		for _, p := range todo {
			cps, fn := data.run(p)
			counts = append(counts, len(cps)+1)
			costs = append(costs, fn-float64(float64(len(cps))*p))
			newSegs = append(newSegs, cps)
		}
		for _, p := range todo {
			if !slices.Contains(tested, p) {
				tested = append(tested, p)
			}
		}
		slices.Sort(tested)
		slices.SortFunc(counts, func(a, b int) int { return b - a })
		slices.Sort(costs)
		segs = append(segs, newSegs...)
		slices.SortStableFunc(segs, func(a, b []int) int { return len(b) - len(a) })
		todo = todo[:0]
		for i := 0; i+1 < len(tested); i++ {
			if d := counts[i] - counts[i+1]; d > 1 || d < -1 {
				todo = append(todo, (costs[i+1]-costs[i])*(1/float64(counts[i]-counts[i+1])))
			}
		}
		for k := len(todo) - 1; k >= 0; k-- {
			near := 0
			for j, t := range tested {
				if math.Abs(todo[k]-t) < math.Abs(todo[k]-tested[near]) {
					near = j
				}
			}
			if allEqual(todo[k], tested[near]) {
				todo = slices.Delete(todo, k, k+1)
			}
		}
	}
	drop := func(v []float64, j int) []float64 {
		if j < len(v) {
			return slices.Delete(v, j, j+1)
		}
		return v
	}
	for j := len(tested) - 1; j >= 1; j-- {
		if counts[j] == counts[j-1] {
			counts = slices.Delete(counts, j, j+1)
			tested = drop(tested, j)
			costs = drop(costs, j)
			if j < len(segs) {
				segs = slices.Delete(segs, j, j+1)
			}
		}
	}
	nb := len(tested)
	starts := make([]float64, nb)
	ends := make([]float64, nb)
	for k := range nb {
		if k == 0 {
			starts[0] = tested[0]
		} else {
			starts[k] = ends[k-1]
		}
		if k == nb-1 {
			ends[k] = tested[k]
		} else {
			ends[k] = (costs[k] - costs[k+1]) / float64(counts[k+1]-counts[k])
		}
	}
	width := max(nb, len(counts), len(costs))
	for i := range width {
		res.Penalties = append(res.Penalties, starts[i%nb])
	}
	res.Penalties = append(res.Penalties, hi)
	longest := 0
	for _, s := range segs {
		longest = max(longest, len(s))
	}
	if longest <= 1 {
		n := 0
		for _, s := range segs {
			if len(s) == 1 && s[0] > 0 {
				n++
			}
		}
		res.Changepoints = []int{n}
	} else {
		for _, s := range segs {
			res.Changepoints = append(res.Changepoints, len(s))
		}
	}
	return res, nil
}

// allEqual is R's isTRUE(all.equal(target, current)) for two numbers: the
// difference relative to |target| (absolute when |target| is within the
// tolerance) is at most 1.5e-8.
func allEqual(target, current float64) bool {
	d := math.Abs(target - current)
	if a := math.Abs(target); a > 1.5e-8 {
		d /= a
	}
	return d <= 1.5e-8
}

// Elbow is the penalty at the elbow of the changepoint count against the
// penalty (pens[i] against cps[i]): with both scaled to [0, 1] by their
// smallest and largest values, the point farthest below the line from
// (0, 1) to (1, 0) — the maximum of Kneedle's difference curve for a convex
// decreasing curve (Satopää et al. 2011), the first of equals. ok is false
// when the lengths differ, with fewer than two points, or with none below
// that line.
func Elbow(pens []float64, cps []int) (pen float64, ok bool) {
	if len(pens) != len(cps) || len(pens) < 2 {
		return 0, false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	y0, y1 := math.Inf(1), math.Inf(-1)
	for i, p := range pens {
		x0, x1 = min(x0, p), max(x1, p)
		y0, y1 = min(y0, float64(cps[i])), max(y1, float64(cps[i]))
	}
	if x1 <= x0 || y1 <= y0 {
		return 0, false
	}
	best, arg := 0.0, -1
	for i, p := range pens {
		xn := (p - x0) / (x1 - x0)
		yn := (float64(cps[i]) - y0) / (y1 - y0)
		if d := 1 - xn - yn; d > best {
			best, arg = d, i
		}
	}
	if arg < 0 {
		return 0, false
	}
	return pens[arg], true
}

// Traini classifies x (seconds per op, one value per iteration) with
// Traini et al.'s rule; steady is the final stretch a steady state must
// begin before (0: n/6), seed fixes the bootstrap.
func Traini(x []float64, steady int, seed uint64) (TrainiResult, error) {
	res := TrainiResult{SteadyIter: -1}
	n := len(x)
	if n == 0 {
		return res, fmt.Errorf("warmup: traini: empty series")
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return res, fmt.Errorf("warmup: traini: value %d is %v", i, v)
		}
	}
	res.Outliers = TrainiOutliers(x, trainiWindow)
	isOut := make([]bool, n)
	for _, i := range res.Outliers {
		isOut[i] = true
	}
	var kept []float64
	var orig []int
	for i, v := range x {
		if !isOut[i] {
			kept, orig = append(kept, v), append(orig, i)
		}
	}
	ln := math.Log(float64(len(kept)))
	res.Penalty = 15 * ln
	if len(kept) >= 4 {
		c, err := CROPS(kept, 4*ln, 1e5*ln)
		if err != nil {
			return res, err
		}
		// Traini et al. append a count of 0 for the upper penalty; when the
		// lengths still differ their script stops, and the default stays.
		cps := c.Changepoints
		if len(c.Penalties) == len(cps)+1 {
			cps = append(slices.Clone(cps), 0)
		}
		switch p, ok := Elbow(c.Penalties, cps); {
		case len(cps) == len(c.Penalties) && len(cps) < 2:
			res.Penalty = c.Penalties[0]
		case ok:
			res.Penalty = p
		}
	}
	cps, err := PELT(kept, res.Penalty, 2)
	if err != nil {
		return res, err
	}
	bounds := []int{0}
	for _, c := range cps {
		bounds = append(bounds, orig[c-1]+1)
	}
	bounds = append(bounds, n)
	res.Changepoints = slices.Clone(bounds[1 : len(bounds)-1])
	if res.Changepoints == nil {
		res.Changepoints = []int{}
	}
	r := rand.New(rand.NewPCG(seed, 0x5ea1ab))
	last := x[bounds[len(bounds)-2]:]
	start := 0
	for i := len(bounds) - 3; i >= 0; i-- {
		if ratioDiffers(r, last, x[bounds[i]:bounds[i+1]]) {
			start = bounds[i+1]
			break
		}
	}
	if steady <= 0 {
		steady = max(n/6, 1)
	}
	if start <= n-steady-1 {
		res.Class, res.SteadyIter = TrainiSteady, start
	} else {
		res.Class = TrainiNoSteady
	}
	return res, nil
}

// ratioDiffers is Traini et al.'s test: the 95 % bootstrap interval of
// mean(a)/mean(b), 10 000 resamples, lies at or below 0.95 or at or above
// 1.05.
func ratioDiffers(r *rand.Rand, a, b []float64) bool {
	ratios := make([]float64, trainiResamples)
	for k := range ratios {
		ratios[k] = resampleMean(r, a) / resampleMean(r, b)
	}
	slices.Sort(ratios)
	alpha := (1 - trainiLevel) / 2
	lo, hi := percentile(ratios, 100*alpha), percentile(ratios, 100*(1-alpha))
	return hi <= 1-trainiEffect || lo >= 1+trainiEffect
}

func resampleMean(r *rand.Rand, v []float64) float64 {
	var s float64
	for range len(v) {
		s += v[r.IntN(len(v))]
	}
	return s / float64(len(v))
}

// CombineTraini is the option set's verdict under Traini et al.'s rule.
func CombineTraini(classes []Class) Class {
	steady, none := false, false
	for _, c := range classes {
		steady = steady || c == TrainiSteady
		none = none || c == TrainiNoSteady
	}
	switch {
	case !steady:
		return TrainiNoSteady
	case none:
		return TrainiInconsistent
	}
	return TrainiSteady
}
