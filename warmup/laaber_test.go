package warmup

import (
	"math"
	"testing"
	"time"
)

// TestRCIWHandWorked: a resample of {1, 3} has mean 1, 2 or 3 with
// probabilities 1/4, 1/2, 1/4, so of 1000 sorted means about 250 are 1 and
// 250 are 3: the 99 % interval runs from index 5 (a 1) to index 994 (a 3),
// width 2 over the mean 2: RCIW 1. A constant sample has width 0; an empty
// one or one of mean 0 has none.
func TestRCIWHandWorked(t *testing.T) {
	if got := rciw([]float64{1, 3}, 1000, 0.99, 1); got != 1 {
		t.Errorf("rciw{1,3} = %v, want 1", got)
	}
	if got := rciw([]float64{2, 2, 2}, 1000, 0.99, 1); got != 0 {
		t.Errorf("rciw{2,2,2} = %v, want 0", got)
	}
	for _, x := range [][]float64{nil, {0, 0}} {
		if got := rciw(x, 1000, 0.99, 1); !math.IsNaN(got) {
			t.Errorf("rciw%v = %v, want NaN", x, got)
		}
	}
}

// TestHistoryStopHandWorked, history 3, at least 4 iterations, values
// 0.5, 0.3, 0.2, 0.2, 0.25, 0.24, 0.23 after iterations 1…7:
//   - differences below 0.03: after 4 the last three are 0.3, 0.2, 0.2
//     (largest difference to the last 0.1); after 5, 0.2, 0.2, 0.25 (0.05);
//     after 6, 0.2, 0.25, 0.24 (0.04); after 7, 0.25, 0.24, 0.23 (0.02):
//     stop after 7;
//   - comparisons above 0.22, the last two of a history of three: after 4
//     they are 0.2, 0.2; after 5, 0.2, 0.25; after 6, 0.25, 0.24: stop after
//     6; with at most 5 iterations: 5 (never stable).
func TestHistoryStopHandWorked(t *testing.T) {
	w := []float64{0.5, 0.3, 0.2, 0.2, 0.25, 0.24, 0.23}
	stat := func(i int) float64 { return w[i] }
	if got := historyStop(w, 3, 4, 50, stat, deltasBelow(0.03)); got != 7 {
		t.Errorf("differences: stop after %d, want 7", got)
	}
	if got := historyStop(w, 3, 4, 50, stat, comparisonsAbove(0.22)); got != 6 {
		t.Errorf("comparisons: stop after %d, want 6", got)
	}
	if got := historyStop(w, 3, 4, 5, stat, comparisonsAbove(0.22)); got != 5 {
		t.Errorf("capped at 5: %d", got)
	}
	if got := historyStop(nil, 3, 4, 50, stat, deltasBelow(0.03)); got != 0 {
		t.Errorf("empty series: %d", got)
	}
}

// TestKLDPartsHandWorked:
//   - KL([0.5 0.5] ‖ [0.25 0.75]), width 1 = 0.5·ln 2 + 0.5·ln(2/3) =
//     0.5·ln(4/3) = 0.143841; with no point where both are non-zero it is +∞;
//   - quartiles of {1, 2, 3, 4}: positions 0.25·5 = 1.25 and 3.75, so 1.25
//     and 3.75, IQR 2.5: range [max(1.25 − 3.75, 0), 3.75 + 3.75] = [0, 7.5];
//   - density of {1, 2, 3, 4} at 2.5: sd = √(5/3) = 1.290994, IQR between
//     the sorted values at 1 and 3 is 2, 2/1.34 = 1.4925 > sd, so
//     h = 1.06 · 1.290994 · 4^(−1/5) = 1.037094; the kernels at distances
//     1.5 and 0.5 give 2·(e^(−(1.5/h)²/2) + e^(−(0.5/h)²/2)) /
//     (4·h·√(2π)) = 0.238812.
func TestKLDPartsHandWorked(t *testing.T) {
	if got := klContinuous([]float64{0.5, 0.5}, []float64{0.25, 0.75}, 1); math.Abs(got-0.143841) > 1e-6 {
		t.Errorf("KL = %v, want 0.143841", got)
	}
	if got := klContinuous([]float64{1, 0}, []float64{0, 1}, 1); !math.IsInf(got, 1) {
		t.Errorf("disjoint KL = %v, want +Inf", got)
	}
	if lo, hi := sampleRange([]float64{4, 1, 3, 2}); lo != 0 || hi != 7.5 {
		t.Errorf("range [%v, %v], want [0, 7.5]", lo, hi)
	}
	d := kde([]float64{1, 2, 3, 4}, 2.5-499*0.01, 0.01)
	if math.Abs(d[499]-0.238812) > 1e-6 {
		t.Errorf("density at 2.5 = %v, want 0.238812", d[499])
	}
	var mass float64
	for _, v := range kde([]float64{1, 2, 3, 4}, -10, 25.0/(kldPoints-1)) {
		mass += v * 25.0 / (kldPoints - 1)
	}
	if math.Abs(mass-1) > 1e-6 {
		t.Errorf("density integrates to %v", mass)
	}
}

// TestKLDSimilarityHandWorked: a sample against itself diverges by 0 both
// ways, 2⁰·2⁰ = 1; the same constant twice has a one-point range: 1.
// {1, 1.1, 1.2, 1.3} and {10, 10.1, 10.2, 10.3}: each has sd 0.129 and
// IQR/1.34 = 0.2/1.34 = 0.149, so h = 1.06 · 0.129 · 4^(−1/5) = 0.104; the
// samples are 8.7/0.104 ≈ 84 bandwidths apart, where a Gaussian kernel
// underflows to 0: no common support, KL = +∞, similarity 0.
func TestKLDSimilarityHandWorked(t *testing.T) {
	a := []float64{1, 1.1, 1.2, 1.3}
	if got := kldSimilarity(a, a); math.Abs(got-1) > 1e-12 {
		t.Errorf("same sample: %v, want 1", got)
	}
	if got := kldSimilarity([]float64{2, 2}, []float64{2, 2, 2}); got != 1 {
		t.Errorf("same constant: %v, want 1", got)
	}
	if got := kldSimilarity(a, []float64{10, 10.1, 10.2, 10.3}); got != 0 {
		t.Errorf("far apart: %v, want 0", got)
	}
	if got := kldSimilarity(nil, a); !math.IsNaN(got) {
		t.Errorf("empty sample: %v, want NaN", got)
	}
}

// TestDynamicRulesOnPlateau: on a series whose first iterations are equal
// every statistic is flat from the start: RCIW is 0 after each of the first
// 5 iterations (stop after 5, the history), and successive distributions
// of one constant are the same (similarity 1 for iterations 2…6: stop after
// 6). A series never stable stops at the cap.
func TestDynamicRulesOnPlateau(t *testing.T) {
	mk := func(v func(i int) float64, n int) Run {
		r := Run{Label: "p"}
		for i := range n {
			r.Iterations = append(r.Iterations, Iteration{Index: i, Start: time.Duration(i), Duration: time.Duration(v(i) * 1e9), Ops: 1})
		}
		return r
	}
	flat := mk(func(int) float64 { return 2 }, 60)
	if got := rciwWarmup(rciwThreshold, rciwHistory, 5, 50)(flat); got != 5 {
		t.Errorf("RCIW on a plateau: %d, want 5", got)
	}
	if got := kldWarmup(kldThreshold, kldHistory, 5, 50)(flat); got != 6 {
		t.Errorf("KLD on a plateau: %d, want 6", got)
	}
	// Alternating 1, 100, 1, 100, …: the cumulative distribution keeps
	// swinging between a mode at 1 and an even mix, so no 5 successive
	// comparisons are all above 0.99 before the cap of 8.
	swing := mk(func(i int) float64 { return 1 + 99*float64(i%2) }, 60)
	if got := kldWarmup(kldThreshold, kldHistory, 5, 8)(swing); got != 8 {
		t.Errorf("KLD on a swinging series: %d, want the cap 8", got)
	}
}

// FuzzStopRules runs every warm-up setting on arbitrary per-iteration
// durations (zero, negative and huge included): a warm-up between 0 and
// the series' length, never a panic.
func FuzzStopRules(f *testing.F) {
	f.Add([]byte{5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 1, 255, 1, 255, 1, 255, 1, 255, 1, 255, 1})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 400 {
			raw = raw[:400]
		}
		r := Run{Label: "fuzz"}
		var at time.Duration
		for i, b := range raw {
			d := time.Duration(int8(b)) * time.Duration(1+i%7) * time.Millisecond
			r.Iterations = append(r.Iterations, Iteration{Index: i, Start: at, Duration: d, Ops: int64(1 + b%3)})
			at += max(d, 0)
		}
		for _, s := range StopRules {
			if w := s.Warmup(r); w < 0 || w > len(r.Iterations) {
				t.Fatalf("%s: warm-up %d of %d iterations", s.Name, w, len(r.Iterations))
			}
		}
	})
}
