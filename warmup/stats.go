package warmup

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// The constants of warmup_stats's summary (warmup/bootstrapper.py,
// warmup/statistics.py; Barrett et al. 2017 §4.4).
const (
	// BootstrapResamples is the number of bootstrap resamples of steady
	// performance in warmup_stats's high-quality mode (10 000 in its low).
	BootstrapResamples = 100_000
	// BootstrapLevel is the confidence level of that interval.
	BootstrapLevel = 0.99
)

// LabelStats is warmup_stats's summary of one option set's forks, beside
// jitsim's own medians in LabelSummary.
type LabelStats struct {
	// ClassCounts counts the forks of each class.
	ClassCounts map[Class]int `json:"class_counts"`
	// SteadyIter and SteadyStart are the median and 5th–95th percentiles
	// over the forks of the steady-state iteration and of when it began on
	// the run's clock (seconds); a flat fork counts as iteration 0 at 0 s.
	// warmup_stats reports them only when no fork is "no steady state" and
	// not every fork is flat.
	SteadyIter  *Spread `json:"steady_iter,omitempty"`
	SteadyStart *Spread `json:"steady_start_s,omitempty"`
	// SteadyPerf is the bootstrap interval of steady performance (seconds
	// per op), reported only when no fork is "no steady state".
	SteadyPerf *BootstrapCI `json:"steady_perf,omitempty"`
	// CommonOutliers and UniqueOutliers split each fork's outliers (in fork
	// order) into those at an iteration where another fork had one too and
	// those seen in this fork only.
	CommonOutliers [][]int `json:"common_outliers"`
	UniqueOutliers [][]int `json:"unique_outliers"`
}

// Spread is a median with its 5th and 95th percentiles.
type Spread struct {
	Median float64 `json:"median"`
	P5     float64 `json:"p5"`
	P95    float64 `json:"p95"`
}

// BootstrapCI is a bootstrap estimate: the median of the resampled means and
// the half-width of the central Level interval around it.
type BootstrapCI struct {
	Centre    float64 `json:"centre"`
	HalfWidth float64 `json:"half_width"`
	Resamples int     `json:"resamples"`
	Level     float64 `json:"level"`
}

// SpreadOf is the median and 5th–95th percentiles of v with numpy's linear
// interpolation, as warmup_stats's median_iqr computes them.
func SpreadOf(v []float64) Spread {
	s := slices.Clone(v)
	slices.Sort(s)
	return Spread{Median: percentile(s, 50), P5: percentile(s, 5), P95: percentile(s, 95)}
}

// SplitOutliers splits each fork's outlier indices into common ones (the
// same iteration is an outlier in at least one other fork) and unique ones,
// as warmup_stats's outliers.get_outliers does with its threshold of 1.
func SplitOutliers(all [][]int) (common, unique [][]int) {
	count := map[int]int{} // iteration → forks with an outlier there
	for _, fork := range all {
		seen := map[int]bool{}
		for _, i := range fork {
			if !seen[i] {
				seen[i] = true
				count[i]++
			}
		}
	}
	common, unique = make([][]int, len(all)), make([][]int, len(all))
	for f, fork := range all {
		common[f], unique[f] = []int{}, []int{}
		for _, i := range fork {
			if count[i] > 1 {
				common[f] = append(common[f], i)
			} else {
				unique[f] = append(unique[f], i)
			}
		}
	}
	return common, unique
}

// Bootstrap estimates steady performance as warmup_stats's bootstrapper
// does. forks holds, per fork, its steady segments' values (outliers
// excluded). Each fork contributes resamples/len(forks)+1 resamples; a
// resample draws, from each segment, as many values as it has, uniformly
// with replacement, and keeps the mean of all drawn. Of the sorted means the
// centre is the median (the mean of the two middle ones for an even count)
// and the half-width the mean of the distances from it to the means at
// indices ⌊e·L⌋ and u−1, e = (1−level)/2 and u the integer part of (1−e)·L
// rounded up to one decimal place. Forks or segments without values are
// skipped; with none at all the result is NaN.
func Bootstrap(forks [][][]float64, resamples int, level float64, seed uint64) BootstrapCI {
	ci := BootstrapCI{Centre: math.NaN(), HalfWidth: math.NaN(), Resamples: resamples, Level: level}
	var use [][][]float64
	for _, f := range forks {
		var segs [][]float64
		for _, s := range f {
			if len(s) > 0 {
				segs = append(segs, s)
			}
		}
		if len(segs) > 0 {
			use = append(use, segs)
		}
	}
	if len(use) == 0 || resamples <= 0 {
		return ci
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	per := resamples/len(use) + 1
	means := make([]float64, 0, per*len(use))
	for _, segs := range use {
		var total int
		for _, s := range segs {
			total += len(s)
		}
		for range per {
			var sum float64
			for _, s := range segs {
				for range len(s) {
					sum += s[r.IntN(len(s))]
				}
			}
			means = append(means, sum/float64(total))
		}
	}
	slices.Sort(means)
	l := int64(len(means))
	// In millionths: e·L exactly for levels given to six decimals.
	keep := int64(math.Round(level * 1e6))
	excl2 := 1_000_000 - keep // 2e in millionths
	lo := l * excl2 / 2_000_000
	hiTenths := (l*(2_000_000-excl2) + 199_999) / 200_000 // (1−e)·L in tenths, rounded up
	hi := hiTenths / 10
	lo, hi = min(max(lo, 0), l-1), min(max(hi, 1), l)
	var centre float64
	if l%2 == 0 {
		centre = (means[l/2-1] + means[l/2]) / 2
	} else {
		centre = means[l/2]
	}
	ci.Centre = centre
	ci.HalfWidth = ((means[hi-1] - centre) + (centre - means[lo])) / 2
	return ci
}

// labelSeed is a fixed bootstrap seed per option set, so that summary.json
// does not depend on the order of the sets.
func labelSeed(label string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(label))
	return h.Sum64()
}
