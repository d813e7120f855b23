package warmup

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Laaber et al.'s RCIW and KLD stoppage criteria ("Dynamically
// reconfiguring software microbenchmarks: reducing execution time without
// sacrificing result quality", FSE'20), as their JMH fork
// (github.com/sealuzh/jmh, branch 1.21-reconfigure) implements them and as
// Traini et al. ("Towards effective assessment of steady state performance
// in Java software: are we there yet?", EMSE 2023) replay them: warm-up
// stops once a statistic of everything measured so far has been stable over
// a short history of iterations, and at most 50 warm-up iterations are
// spent (their replay, dynconfig.py of github.com/SEALABQualityGroup/steady-state,
// caps every criterion's warm-up at 50). As for CoV, a series here has one
// value per iteration (time per op), where the fork takes each iteration's
// sampled invocations.

// dynamicMaxWarmup is the upper bound on a dynamic rule's warm-up
// iterations in Traini et al.'s replay.
const dynamicMaxWarmup = 50

// Parameters of the RCIW criterion, from the fork: threshold 0.03 (its
// README's default for -rci), history 5 iterations
// (CiPercentageEvaluation.getIterationInstance), a bootstrap of the mean
// with 1000 resamples at significance 0.01, i.e. a 99 % interval
// (ReconfigureConstants CI_BOOTSTRAP_SIMULATIONS, CI_SIGNIFICANCE_LEVEL,
// CI_STATISTIC "mean").
const (
	rciwThreshold = 0.03
	rciwHistory   = 5
	rciwResamples = 1000
	rciwLevel     = 0.99
)

// Parameters of the KLD criterion, from the fork: threshold 0.99 (its
// README's default for -rkld), history 6 iterations, i.e. the last 5
// comparisons of successive iterations' distributions
// (DivergenceEvaluation.getIterationInstance), 1000 points on which the
// densities are compared and a range of quartiles ± 1.5 × IQR
// (ReconfigureConstants DIVERGENCE_NUMBER_OF_POINTS, RANGE_OUTLIER_FACTOR).
const (
	kldThreshold = 0.99
	kldHistory   = 6
	kldPoints    = 1000
	kldRange     = 1.5
)

// rciwWarmup is the RCIW criterion: after iteration i the relative width
// of the bootstrap confidence interval of the mean of everything measured
// so far, (upper − lower) / mean, is compared with that after each of the
// previous history−1 iterations; the warm-up stops when the largest
// difference is below threshold. The fork first drops outliers more than
// ten times off (OUTLIER_FACTOR); the model clock's series have none of
// that size, so none are dropped here. The bootstrap is seeded from the
// run's label, fork and iteration, so a run always scores the same.
func rciwWarmup(threshold float64, history, minWarmup, maxWarmup int) func(Run) int {
	return func(r Run) int {
		x := r.PerOp()
		seed := labelSeed(r.Label) ^ uint64(r.Fork)<<32
		return historyStop(x, history, minWarmup, maxWarmup, func(i int) float64 {
			return rciw(x[:i+1], rciwResamples, rciwLevel, seed+uint64(i))
		}, deltasBelow(threshold))
	}
}

// deltasBelow accepts a history whose last value differs from each earlier
// one by less than threshold (the fork's CoV and RCIW evaluations).
func deltasBelow(threshold float64) func([]float64) bool {
	return func(w []float64) bool {
		worst := 0.0
		for _, v := range w[:len(w)-1] {
			worst = max(worst, math.Abs(v-w[len(w)-1]))
		}
		return worst < threshold
	}
}

// kldWarmup is the KLD criterion: after iteration i the distribution of
// everything measured so far is compared with that of everything measured
// up to iteration i−1 (kldSimilarity); the warm-up stops when each of the
// last history−1 comparisons is above threshold. The fork compares 1000
// values drawn at random from the measurements; the measurements
// themselves are compared here, so a run always scores the same.
func kldWarmup(threshold float64, history, minWarmup, maxWarmup int) func(Run) int {
	return func(r Run) int {
		x := r.PerOp()
		return historyStop(x, history, minWarmup, maxWarmup, func(i int) float64 {
			if i == 0 {
				return math.NaN()
			}
			return kldSimilarity(x[:i], x[:i+1])
		}, comparisonsAbove(threshold))
	}
}

// comparisonsAbove accepts a history whose comparisons, all but the first
// value (which compares with an iteration before the history), are each
// above threshold (the fork's divergence evaluation).
func comparisonsAbove(threshold float64) func([]float64) bool {
	return func(w []float64) bool {
		for _, v := range w[1:] {
			if !(v > threshold) {
				return false
			}
		}
		return true
	}
}

// historyStop computes stat after each iteration i (0-based) of x and
// returns i+1 for the first i, at least max(history, minWarmup)−1, at which
// stable accepts the last history values; maxWarmup (or the series' end)
// when none does.
func historyStop(x []float64, history, minWarmup, maxWarmup int, stat func(i int) float64, stable func([]float64) bool) int {
	n := min(len(x), maxWarmup)
	history = max(history, 1)
	w := make([]float64, n)
	for i := range n {
		w[i] = stat(i)
		if i+1 < max(history, minWarmup) {
			continue
		}
		if stable(w[i-history+1 : i+1]) {
			return i + 1
		}
	}
	return n
}

// rciw is the relative width of the percentile bootstrap interval of the
// mean of x at level: the means of resamples resamples (each drawing
// len(x) values uniformly with replacement) are sorted, the interval runs
// from the one at index ⌊e·B⌋ to the one at ⌈(1−e)·B⌉−1, e = (1−level)/2,
// and its width is divided by the mean of x. NaN when x is empty or its
// mean is not positive.
func rciw(x []float64, resamples int, level float64, seed uint64) float64 {
	if len(x) == 0 || resamples <= 0 {
		return math.NaN()
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / float64(len(x))
	if !(mean > 0) {
		return math.NaN()
	}
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909))
	means := make([]float64, resamples)
	for b := range means {
		var s float64
		for range len(x) {
			s += x[r.IntN(len(x))]
		}
		means[b] = s / float64(len(x))
	}
	slices.Sort(means)
	e := (1 - level) / 2
	lo := int(math.Floor(e * float64(resamples)))
	hi := int(math.Ceil((1-e)*float64(resamples))) - 1
	lo, hi = min(max(lo, 0), resamples-1), min(max(hi, 0), resamples-1)
	return (means[hi] - means[lo]) / mean
}

// kldSimilarity is the fork's divergence statistic of two samples
// (Divergence.getValue): 2^−KL(p‖q) · 2^−KL(q‖p), 1 for identical
// distributions and 0 for disjoint ones, where p and q are Gaussian kernel
// density estimates of the samples evaluated at kldPoints evenly spaced
// points over the union of their ranges [Q1 − 1.5·IQR, Q3 + 1.5·IQR]
// (clipped at 0) and KL is the Riemann sum of p·ln(p/q) over the points
// where both are non-zero (+∞ when there are none). When the range is a
// single point the samples are the same constant and the result is 1.
func kldSimilarity(before, after []float64) float64 {
	if len(before) == 0 || len(after) == 0 {
		return math.NaN()
	}
	lb, hb := sampleRange(before)
	la, ha := sampleRange(after)
	lo, hi := min(lb, la), max(hb, ha)
	if lo == hi {
		return 1
	}
	step := (hi - lo) / (kldPoints - 1)
	p, q := kde(before, lo, step), kde(after, lo, step)
	return math.Pow(2, -klContinuous(p, q, step)) * math.Pow(2, -klContinuous(q, p, step))
}

// sampleRange is [Q1 − 1.5·IQR, Q3 + 1.5·IQR] of x, the lower end clipped
// at 0, with quartiles as Apache Commons Math's default Percentile (which
// the fork uses) estimates them: position p·(n+1), interpolated linearly
// and clamped to the extremes.
func sampleRange(x []float64) (float64, float64) {
	s := slices.Sorted(slices.Values(x))
	q1, q3 := commonsPercentile(s, 0.25), commonsPercentile(s, 0.75)
	iqr := q3 - q1
	return max(q1-kldRange*iqr, 0), q3 + kldRange*iqr
}

func commonsPercentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	pos := p * float64(n+1)
	switch {
	case pos < 1:
		return sorted[0]
	case pos >= float64(n):
		return sorted[n-1]
	}
	f := math.Floor(pos)
	lower := sorted[int(f)-1]
	return lower + (pos-f)*(sorted[int(f)]-lower)
}

// kde evaluates a Gaussian kernel density estimate of x at lo + k·step for
// k < kldPoints. The bandwidth is the rule of thumb of the Smile library's
// KernelDensity, which the fork uses: 1.06 · min(sd, IQR/1.34) · n^(−1/5),
// IQR taken between the sorted values at n/4 and 3n/4. When that is 0 (more
// than half the values equal, common on the model clock) the standard
// deviation is used alone; a constant sample is a point mass, whose density
// is zero at every point but its own (there taken as 1/step, a unit mass).
func kde(x []float64, lo, step float64) []float64 {
	s := slices.Sorted(slices.Values(x))
	n := len(s)
	var sum, sq float64
	for _, v := range s {
		sum += v
	}
	mean := sum / float64(n)
	for _, v := range s {
		sq += (v - mean) * (v - mean)
	}
	sd := 0.0
	if n > 1 {
		sd = math.Sqrt(sq / float64(n-1))
	}
	sigma := min(sd, (s[3*n/4]-s[n/4])/1.34)
	if sigma <= 0 {
		sigma = sd
	}
	out := make([]float64, kldPoints)
	if sigma <= 0 {
		k := math.Round((s[0] - lo) / step)
		if k >= 0 && k < kldPoints && math.Abs(lo+k*step-s[0]) <= step/2 {
			out[int(k)] = 1 / step
		}
		return out
	}
	h := 1.06 * sigma * math.Pow(float64(n), -0.2)
	norm := 1 / (float64(n) * h * math.Sqrt(2*math.Pi))
	for k := range out {
		y := lo + float64(k)*step
		var d float64
		for _, v := range s {
			z := (y - v) / h
			d += math.Exp(-z * z / 2)
		}
		out[k] = d * norm
	}
	return out
}

// klContinuous is the fork's KullbackLeiblerDivergence.continuous: the sum
// of p·ln(p/q)·width over the points where both densities are non-zero,
// +∞ when there is no such point.
func klContinuous(p, q []float64, width float64) float64 {
	kl, any := 0.0, false
	for i := range p {
		if p[i] != 0 && q[i] != 0 {
			any = true
			kl += p[i] * math.Log(p[i]/q[i]) * width
		}
	}
	if !any {
		return math.Inf(1)
	}
	return kl
}
