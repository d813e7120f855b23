package warmup

import (
	"fmt"
	"math"
	"math/big"
)

// PELT finds changepoints in x by Pruned Exact Linear Time search (Killick,
// Fearnhead and Eckley, JASA 2012) with the normal mean-and-variance cost,
// and returns what R's changepoint package returns for
//
//	cpt.meanvar(x, method="PELT", penalty="Manual", pen.value=penalty, minseglen=minSeg)
//
// the call warmup_stats makes (Barrett et al., "Virtual Machine Warmup Blows
// Hot and Cold", OOPSLA 2017), to the last bit: the start index of every
// segment but the first, in increasing order (no changepoints: nil). R's
// changepoints are 1-based segment ends, the same numbers.
//
// penalty <= 0 selects warmup_stats's manual penalty 15·ln n; minSeg < 2 is
// raised to 2 as cpt.meanvar does. The facts of the package's C code
// (PELTC and mll_meanvar in changepoint 2.3) that decide its answer on real
// series, and that this function reproduces:
//
//   - a segment of m points costs m·(ln 2π + ln σ̂² + 1) with σ̂² =
//     (Σx² − (Σx)²/m)/m taken from prefix sums in double precision; a σ̂²
//     that comes out ≤ 0 is replaced by 1e-11 in the data's units (a small
//     positive one stays), so the answer depends on the unit and a plateau
//     of equal values costs whatever its rounding leaves;
//   - the prefix sums are R's cumsum, accumulated in x87 long double (64-bit
//     significand) and rounded to double after each step;
//   - F(0) = −penalty, F(t) = cost(0, t) for minSeg ≤ t < 2·minSeg, then
//     F(t) = min over kept starts s of (F(s) + cost(s, t)) + penalty, the
//     first minimum in increasing s winning a tie;
//   - after each t the starts with F(s) + cost(s, t) + penalty > F(t) +
//     penalty are pruned (at t itself, also when minSeg > 1), and the start
//     t − minSeg + 1 joins.
//
// Logarithms are correctly rounded (ln); the C library's agree on all but a
// few in 10⁵ arguments. Non-finite values, and values whose squares overflow,
// are an error.
func PELT(x []float64, penalty float64, minSeg int) ([]int, error) {
	if penalty <= 0 {
		penalty = DefaultPenalty(len(x))
	}
	cps, _, err := pelt(x, penalty, minSeg, false)
	return cps, err
}

// PELTScaleFree is PELT on x centred and scaled to unit variance, with a
// segment's variance floored at 1e-8 (of the series' variance) instead of
// R's 1e-11 for a non-positive one. The answer no longer depends on the
// unit, and an exactly constant stretch, which the model clock produces,
// stays one segment: R splits such plateaus wherever the rounding of its
// prefix sums leaves a tiny positive variance. It is not warmup_stats's
// answer (Options.ScaleFree).
func PELTScaleFree(x []float64, penalty float64, minSeg int) ([]int, error) {
	if penalty <= 0 {
		penalty = DefaultPenalty(len(x))
	}
	cps, _, err := pelt(x, penalty, minSeg, true)
	return cps, err
}

// pelt returns the changepoints and F(n), the penalised cost of the best
// segmentation as R's PELTC leaves it in lastchangelike[n], for any
// penalty, zero included.
func pelt(x []float64, penalty float64, minSeg int, scaleFree bool) ([]int, float64, error) {
	d, err := newPELTData(x, minSeg, scaleFree)
	if err != nil {
		return nil, 0, err
	}
	cps, fn := d.run(penalty)
	return cps, fn, nil
}

// peltData is a series prepared for PELT at any penalty: its prefix sums
// and variance floor.
type peltData struct {
	n, minSeg int
	s1, s2    []float64 // nil: too short, or constant under the scale-free cost
	floor     func(float64) float64
}

func newPELTData(x []float64, minSeg int, scaleFree bool) (*peltData, error) {
	n := len(x)
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("warmup: PELT: value %d is %v", i, v)
		}
		if math.IsInf(v*v, 0) {
			return nil, fmt.Errorf("warmup: PELT: value %d (%g) is too large: its square overflows", i, v)
		}
	}
	if minSeg < 2 {
		minSeg = 2
	}
	d := &peltData{n: n, minSeg: minSeg}
	if n < 2*minSeg {
		return d, nil
	}
	floor := func(v float64) float64 { // mll_meanvar
		if v <= 0 || math.IsNaN(v) {
			return 1e-11
		}
		return v
	}
	if scaleFree {
		var mean, ss float64
		for _, v := range x {
			mean += v
		}
		mean /= float64(n)
		for _, v := range x {
			ss += (v - mean) * (v - mean)
		}
		if ss == 0 {
			return d, nil // a constant series has no changepoint
		}
		if math.IsInf(ss, 0) {
			return nil, fmt.Errorf("warmup: PELT: the series' variance overflows")
		}
		sd := math.Sqrt(ss / float64(n))
		z := make([]float64, n)
		for i, v := range x {
			z[i] = (v - mean) / sd
		}
		x = z
		floor = func(v float64) float64 { return max(v, 1e-8) }
	}
	s1, s2 := cumsumLD(x, false), cumsumLD(x, true)
	if math.IsInf(s1[n], 0) || math.IsInf(s2[n], 0) {
		return nil, fmt.Errorf("warmup: PELT: the series' sum of squares overflows")
	}
	d.s1, d.s2, d.floor = s1, s2, floor
	return d, nil
}

// run is PELT at one penalty: the changepoints and F(n).
func (d *peltData) run(penalty float64) ([]int, float64) {
	if d.s1 == nil {
		return nil, 0
	}
	n, minSeg, s1, s2, floor := d.n, d.minSeg, d.s1, d.s2, d.floor
	cost := func(a, b int) float64 { // points a..b-1
		m := float64(b - a)
		s := s1[b] - s1[a]
		v := floor((s2[b] - s2[a] - s*s/m) / m)
		return float64(m * (lnTwoPi + ln(v) + 1)) // no fused multiply-add
	}
	f := make([]float64, n+1) // f[t]: best penalised cost of x[0:t]
	last := make([]int, n+1)  // last[t]: start of the final segment of that best
	f[0] = -penalty
	for t := minSeg; t < 2*minSeg; t++ {
		f[t] = cost(0, t)
	}
	cands := []int{0, minSeg}
	tmp := make([]float64, 0, n)
	for t := 2 * minSeg; t <= n; t++ {
		tmp = tmp[:0]
		for _, s := range cands {
			tmp = append(tmp, f[s]+cost(s, t)+penalty)
		}
		best := 0
		for i := 1; i < len(tmp); i++ {
			if tmp[i] < tmp[best] {
				best = i
			}
		}
		f[t], last[t] = tmp[best], cands[best]
		bound := f[t] + penalty
		kept := cands[:0]
		for i, s := range cands {
			if tmp[i] <= bound {
				kept = append(kept, s)
			}
		}
		cands = append(kept, t-minSeg+1)
	}
	var cps []int
	for t := last[n]; t > 0; t = last[t] {
		cps = append(cps, t)
	}
	for i, j := 0, len(cps)-1; i < j; i, j = i+1, j-1 {
		cps[i], cps[j] = cps[j], cps[i]
	}
	return cps, f[n]
}

// DefaultPenalty is warmup_stats's manual penalty for n points, 15·ln n.
func DefaultPenalty(n int) float64 { return 15 * ln(float64(n)) }

// lnTwoPi is ln 2π rounded to nearest, as a C compiler folds log(2*M_PI).
var lnTwoPi = ln(2 * math.Pi)

// cumsumLD returns R's c(0, cumsum(x)) (or of x^2 when sq): the running sum
// is held with a 64-bit significand, rounded to nearest even after each
// addition as x87 long double arithmetic does, and each prefix is rounded to
// a double.
func cumsumLD(x []float64, sq bool) []float64 {
	out := make([]float64, len(x)+1)
	acc := new(big.Float).SetPrec(64).SetMode(big.ToNearestEven)
	term := new(big.Float).SetPrec(64).SetMode(big.ToNearestEven)
	for i, v := range x {
		if sq {
			v = v * v
		}
		acc.Add(acc, term.SetFloat64(v))
		out[i+1], _ = acc.Float64()
	}
	return out
}
