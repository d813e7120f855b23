package warmup

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestOutliersHandWorked: twenty 1s with 5s at iterations 2 and 12, window
// 10 (half 5). Iteration 12's window is x[7:17], nine 1s and the 5: median
// 1; p90 at position 9·0.9 = 8.1, 1·0.9 + 5·0.1 = 1.4; p10 at 0.9, 1; band
// 3·(1.4 − 1) = 1.2, and 5 > 1 + 1.2: an outlier. Iteration 2's window
// x[0:7] starts at 0 and holds fewer than 10 values: skipped, so the early
// spike stays (a warm-up is not filtered away). Every 1 is within its band.
func TestOutliersHandWorked(t *testing.T) {
	x := make([]float64, 20)
	for i := range x {
		x[i] = 1
	}
	x[2], x[12] = 5, 5
	if got := Outliers(x, 10); !slices.Equal(got, []int{12}) {
		t.Errorf("outliers %v, want [12]", got)
	}
}

// TestPercentileArithmetic: warmup_stats's percentile interpolates as
// lower·(ceil−pos) + upper·(pos−floor); on [0.1, 0.2, 0.7] the 25th
// percentile sits at position 0.5: 0.1·0.5 + 0.2·0.5 = 0.15000000000000002
// in double arithmetic (the form lower + 0.5·(upper−lower) gives 0.15).
func TestPercentileArithmetic(t *testing.T) {
	s := []float64{0.1, 0.2, 0.7}
	lo, hi, w := 0.1, 0.2, 0.5
	if got, want := percentile(s, 25), lo*w+hi*w; got != want || want == 0.15 {
		t.Errorf("p25 %v, want %v", got, want)
	}
	if got := percentile(s, 50); got != 0.2 {
		t.Errorf("p50 %v, want 0.2", got)
	}
	if got := median50([]float64{1, 2, 4, 8}); got != 3 {
		t.Errorf("median %v, want 3", got)
	}
}

func TestSplitOutliers(t *testing.T) {
	// Iteration 7 is an outlier in forks 0 and 1, 9 in forks 1 and 2:
	// common; 3 and 12 appear once: unique.
	common, unique := SplitOutliers([][]int{{3, 7}, {7, 9}, {9, 12}})
	if want := [][]int{{7}, {7, 9}, {9}}; !slices.EqualFunc(common, want, slices.Equal) {
		t.Errorf("common %v, want %v", common, want)
	}
	if want := [][]int{{3}, {}, {12}}; !slices.EqualFunc(unique, want, slices.Equal) {
		t.Errorf("unique %v, want %v", unique, want)
	}
}

// TestClassifyHandWorked checks the walk of classify on segments written
// out, 100 iterations, Steady 25 (changes ending after iteration 75 mean no
// steady state), delta 1 % of the fastest segment's mean.
func TestClassifyHandWorked(t *testing.T) {
	seg := func(start, end int, mean, v float64) Segment { return Segment{start, end, mean, v} }
	tests := []struct {
		name       string
		segs       []Segment
		class      Class
		steadyIter int
		steadyMean float64
	}{
		// Bounds around the last segment 1 ± max(0, 0.01): [0.99, 1.01].
		// 5 is above them, ends at 9 ≤ 75: warm-up, steady from 10.
		{"warmup", []Segment{seg(0, 10, 5, 0), seg(10, 100, 1, 0)}, Warmup, 10, 1},
		// Walking back: 5 is a warm-up, the walk goes on; 0.5 is below the
		// bounds: slowdown, steady from 20 (warmup_stats does not stop at
		// the warm-up segment).
		{"faster before a warm-up is a slowdown", []Segment{seg(0, 10, 0.5, 0), seg(10, 20, 5, 0), seg(20, 100, 1, 0)}, Slowdown, 20, 1},
		// 1 ± 0 against [0.99, 1.01] is equivalent but comes after the
		// warm-up segment: the steady stretch is the last segment only.
		{"equivalent after a break is not steady", []Segment{seg(0, 10, 1, 0), seg(10, 20, 3, 0), seg(20, 100, 1, 0)}, Warmup, 20, 1},
		// 2 ends at 99 > 75: no steady state.
		{"late change", []Segment{seg(0, 80, 1, 0), seg(80, 100, 2, 0)}, NoSteadyState, -1, 0},
		// 1.1 ± 0.2 = [0.9, 1.3] overlaps [0.99, 1.01]: equivalent, flat;
		// steady mean (1.1 + 1)/2 = 1.05 from iteration 0.
		{"equivalent through variance", []Segment{seg(0, 50, 1.1, 0.2), seg(50, 100, 1, 0)}, Flat, 0, 1.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := Analysis{N: 100, Segments: tc.segs}
			classify(&a, Options{Steady: 25})
			if a.Class != tc.class || a.SteadyIter != tc.steadyIter || math.Abs(a.SteadyMean-tc.steadyMean) > 1e-12 {
				t.Errorf("class %s, steady at %d, mean %v; want %s, %d, %v", a.Class, a.SteadyIter, a.SteadyMean, tc.class, tc.steadyIter, tc.steadyMean)
			}
		})
	}
}

// TestSpreadOf: on 0, 10, 20, 30, 40 the median is 20; p5 sits at position
// 4·0.05 = 0.2: 0·0.8 + 10·0.2 = 2; p95 at 3.8: 30·0.2 + 40·0.8 = 38.
func TestSpreadOf(t *testing.T) {
	got := SpreadOf([]float64{40, 0, 30, 10, 20})
	if want := (Spread{Median: 20, P5: 2, P95: 38}); math.Abs(got.Median-want.Median) > 1e-12 ||
		math.Abs(got.P5-want.P5) > 1e-12 || math.Abs(got.P95-want.P95) > 1e-12 {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// TestBootstrapHandWorked: one segment {1, 3}. A resample of two values
// has mean 1 (p = 1/4), 2 (1/2) or 3 (1/4): the 0.5 % quantile is 1, the
// 99.5 % one 3 and the median 2, so centre 2 and half-width ((3−2)+(2−1))/2
// = 1. A constant segment has centre its value and half-width 0.
func TestBootstrapHandWorked(t *testing.T) {
	ci := Bootstrap([][][]float64{{{1, 3}}}, BootstrapResamples, BootstrapLevel, 1)
	if ci.Centre != 2 || ci.HalfWidth != 1 {
		t.Errorf("{1, 3}: centre %v, half-width %v; want 2, 1", ci.Centre, ci.HalfWidth)
	}
	ci = Bootstrap([][][]float64{{{0.25, 0.25, 0.25}}, {{0.25}}}, 1000, BootstrapLevel, 1)
	if ci.Centre != 0.25 || ci.HalfWidth != 0 {
		t.Errorf("constant: centre %v, half-width %v; want 0.25, 0", ci.Centre, ci.HalfWidth)
	}
	if ci := Bootstrap(nil, 1000, BootstrapLevel, 1); !math.IsNaN(ci.Centre) {
		t.Errorf("no data: centre %v, want NaN", ci.Centre)
	}
}

// TestBootstrapAgainstReference: warmup_stats's 100 000 resamples at 99 %
// give a centre and half-width within 1 % of a 10⁶-resample reference, on
// three forks of two steady segments of noisy data, for several seeds.
func TestBootstrapAgainstReference(t *testing.T) {
	if testing.Short() {
		t.Skip("the 10⁶-resample reference takes a few seconds")
	}
	r := rand.New(rand.NewPCG(20, 17))
	var forks [][][]float64
	for f := range 3 {
		var segs [][]float64
		for s, n := range []int{40, 60} {
			seg := make([]float64, n)
			for i := range seg {
				seg[i] = 1e-3 * (1 + 0.01*float64(f+s) + 0.05*r.NormFloat64())
			}
			segs = append(segs, seg)
		}
		forks = append(forks, segs)
	}
	ref := Bootstrap(forks, 1_000_000, BootstrapLevel, 999)
	for seed := uint64(1); seed <= 3; seed++ {
		ci := Bootstrap(forks, BootstrapResamples, BootstrapLevel, seed)
		if d := math.Abs(ci.Centre/ref.Centre - 1); d > 0.01 {
			t.Errorf("seed %d: centre %g, reference %g (%.3f %% off)", seed, ci.Centre, ref.Centre, 100*d)
		}
		if d := math.Abs(ci.HalfWidth/ref.HalfWidth - 1); d > 0.01 {
			t.Errorf("seed %d: half-width %g, reference %g (%.3f %% off)", seed, ci.HalfWidth, ref.HalfWidth, 100*d)
		}
		t.Logf("seed %d: centre %.6g half-width %.6g; reference %.6g %.6g", seed, ci.Centre, ci.HalfWidth, ref.Centre, ref.HalfWidth)
	}
}

// TestLabelStatsRules: warmup_stats reports the steady iteration's spread
// only when no fork is "no steady state" and not all are flat, and steady
// performance only when no fork is "no steady state".
func TestLabelStatsRules(t *testing.T) {
	mk := perOpRun
	flat := steps(1, 0, [2]float64{1e-3, 100})
	warm := steps(2, 0.01, [2]float64{5e-3, 10}, [2]float64{1e-3, 90})
	late := steps(3, 0.01, [2]float64{1e-3, 90}, [2]float64{5e-3, 10})
	s, err := Summarize([]Run{mk("mixed", 0, flat), mk("mixed", 1, warm), mk("flat", 0, flat), mk("flat", 1, flat),
		mk("bad", 0, warm), mk("bad", 1, late)}, Options{Steady: 25, BootstrapResamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	byLabel := map[string]*LabelStats{}
	for _, l := range s.Labels {
		byLabel[l.Label] = l.Stats
	}
	// mixed: flat at 0 and warm-up at 10: median 5, p5 0.5, p95 9.5.
	if m := byLabel["mixed"]; m.SteadyIter == nil || *m.SteadyIter != (Spread{5, 0.5, 9.5}) || m.SteadyPerf == nil ||
		m.ClassCounts[Flat] != 1 || m.ClassCounts[Warmup] != 1 {
		t.Errorf("mixed: %+v, steady iteration %+v", m, m.SteadyIter)
	}
	if f := byLabel["flat"]; f.SteadyIter != nil || f.SteadyStart != nil || f.SteadyPerf == nil || math.Abs(f.SteadyPerf.Centre-1e-3) > 1e-15 {
		t.Errorf("all flat: steady iteration %v, performance %+v; want none and 1 ms", f.SteadyIter, f.SteadyPerf)
	}
	if b := byLabel["bad"]; b.SteadyIter != nil || b.SteadyPerf != nil {
		t.Errorf("a fork without steady state: %+v, want no steady statistics", b)
	}
}

// perOpRun is a run of one op per iteration taking x[i] seconds each, back
// to back.
func perOpRun(label string, fork int, x []float64) Run {
	r := Run{Label: label, Fork: fork}
	var at time.Duration
	for i, v := range x {
		d := time.Duration(v * 1e9)
		r.Iterations = append(r.Iterations, Iteration{Index: i, Start: at, Duration: d, Ops: 1})
		at += d
	}
	return r
}
