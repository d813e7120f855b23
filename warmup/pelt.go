package warmup

import (
	"fmt"
	"math"
)

// PELT finds changepoints in x by Pruned Exact Linear Time search (Killick,
// Fearnhead and Eckley, JASA 2012) with the normal mean-and-variance cost
// that warmup_stats uses through R's changepoint::cpt.meanvar (Barrett et
// al., "Virtual Machine Warmup Blows Hot and Cold", OOPSLA 2017):
//
//	C(segment of n points) = n·(ln 2π + ln σ̂² + 1),   σ̂² the MLE variance,
//
// minimised over segmentations plus penalty per changepoint, each segment at
// least minSeg points long. It returns the start index of every segment but
// the first, in increasing order (no changepoints: nil).
//
// penalty <= 0 selects warmup_stats's manual penalty 15·ln n; minSeg < 2 is
// raised to 2 (a one-point segment has no variance). The data are centred
// and scaled first, which changes every segmentation's cost by the same
// constant, so the result does not depend on units; a segment's variance is
// floored at 1e-8 of the series variance so that exactly constant stretches
// (the model clock produces them) do not have a cost of −∞.
func PELT(x []float64, penalty float64, minSeg int) ([]int, error) {
	n := len(x)
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("warmup: PELT: value %d is %v", i, v)
		}
	}
	if minSeg < 2 {
		minSeg = 2
	}
	if n < 2*minSeg {
		return nil, nil
	}
	if penalty <= 0 {
		penalty = 15 * math.Log(float64(n))
	}
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	if ss == 0 {
		return nil, nil // a constant series has no changepoint
	}
	scale := math.Sqrt(ss / float64(n))
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, v := range x {
		z := (v - mean) / scale
		s1[i+1] = s1[i] + z
		s2[i+1] = s2[i] + z*z
	}
	const varFloor = 1e-8
	ln2pi1 := math.Log(2*math.Pi) + 1
	cost := func(a, b int) float64 { // points a..b-1
		m := float64(b - a)
		s := s1[b] - s1[a]
		v := (s2[b] - s2[a] - s*s/m) / m
		if v < varFloor {
			v = varFloor
		}
		return m * (ln2pi1 + math.Log(v))
	}
	f := make([]float64, n+1) // f[t]: best cost of x[0:t]
	last := make([]int, n+1)  // last[t]: start of the final segment of that best
	f[0] = -penalty
	cands := []int{0}
	// ring[t%minSeg][s] keeps f[s]+C(s,t) from step t for the pruning test
	// minSeg−1 steps later, so each (s, t) costs one logarithm; for long
	// minimum segments the value is recomputed instead of kept.
	var ring [][]float64
	if minSeg <= 16 {
		ring = make([][]float64, minSeg)
		for i := range ring {
			ring[i] = make([]float64, n+1)
		}
	}
	for t := minSeg; t <= n; t++ {
		best, arg := math.Inf(1), -1
		for _, s := range cands {
			if t-s < minSeg {
				continue
			}
			v := f[s] + cost(s, t)
			if ring != nil {
				ring[t%minSeg][s] = v
			}
			if c := v + penalty; c < best {
				best, arg = c, s
			}
		}
		if arg < 0 {
			panic("BUG: PELT has no admissible segment start")
		}
		f[t], last[t] = best, arg
		// Prune: a start s that already lost at u by more than the penalty,
		// f[s]+C(s,u) > f[u], loses at every later T ≥ u+minSeg, because
		// the likelihood cost satisfies C(s,T) ≥ C(s,u) + C(u,T) (the PELT
		// condition with K = 0). The rule only covers ends with a legal last
		// segment after u, so the test runs at u = t+1−minSeg: every end still
		// to come is at least minSeg past it. Pruning at u = t drops optimal
		// starts when minSeg > 1.
		if u := t + 1 - minSeg; u >= minSeg {
			kept := cands[:0]
			for _, s := range cands {
				if u-s >= minSeg {
					var v float64
					if ring != nil {
						v = ring[u%minSeg][s]
					} else {
						v = f[s] + cost(s, u)
					}
					if v > f[u] {
						continue
					}
				}
				kept = append(kept, s)
			}
			cands = kept
		}
		if s := t - minSeg + 1; s >= minSeg {
			cands = append(cands, s)
		}
	}
	var cps []int
	for t := last[n]; t > 0; t = last[t] {
		cps = append(cps, t)
	}
	for i, j := 0, len(cps)-1; i < j; i, j = i+1, j-1 {
		cps[i], cps[j] = cps[j], cps[i]
	}
	return cps, nil
}
