package warmup

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// steps builds a series of the given levels and lengths with Gaussian noise
// of relative size sd, from a fixed seed.
func steps(seed uint64, sd float64, parts ...[2]float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	var x []float64
	for _, p := range parts {
		for range int(p[1]) {
			x = append(x, p[0]*(1+sd*r.NormFloat64()))
		}
	}
	return x
}

func near(got, want []int, tol int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if d := got[i] - want[i]; d < -tol || d > tol {
			return false
		}
	}
	return true
}

func TestPELTKnownChangepoints(t *testing.T) {
	tests := []struct {
		name string
		x    []float64
		want []int
	}{
		{"step up", steps(1, 0.02, [2]float64{1, 100}, [2]float64{2, 100}), []int{100}},
		{"step down", steps(2, 0.02, [2]float64{5, 60}, [2]float64{1, 240}), []int{60}},
		{"several steps", steps(3, 0.02, [2]float64{8, 30}, [2]float64{4, 40}, [2]float64{2, 50}, [2]float64{1, 180}), []int{30, 70, 120}},
		{"variance change only", series(steps(4, 0.01, [2]float64{1, 150})).concat(steps(5, 0.2, [2]float64{1, 150})), []int{150}},
		{"constant", steps(0, 0, [2]float64{1, 50}), nil},
		{"too short", []float64{1, 9, 1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PELT(tc.x, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got, tc.want, 2) {
				t.Errorf("changepoints %v, want %v (±2)", got, tc.want)
			}
		})
	}
}

// TestPELTPlateaus: on exact plateaus (the model clock's) R's cost splits
// the 1 µs plateau wherever rounding of its prefix sums leaves a tiny
// positive variance (the answer R gives, testdata/rcpt synth/plateaus-1e-06);
// the scale-free variant keeps each plateau whole.
func TestPELTPlateaus(t *testing.T) {
	x := steps(0, 0, [2]float64{3e-6, 20}, [2]float64{1e-6, 80})
	if got, _ := PELT(x, 0, 0); len(got) < 2 {
		t.Errorf("PELT %v: R splits the plateau", got)
	}
	if got, _ := PELTScaleFree(x, 0, 0); !near(got, []int{20}, 0) {
		t.Errorf("PELTScaleFree %v, want [20]", got)
	}
	if got, _ := PELTScaleFree(steps(0, 0, [2]float64{1, 50}), 0, 0); got != nil {
		t.Errorf("PELTScaleFree on a constant: %v", got)
	}
}

type series []float64

func (s series) concat(t []float64) []float64 { return append(append([]float64{}, s...), t...) }

func TestPELTNoiseHasNoChangepoints(t *testing.T) {
	for seed := uint64(10); seed < 30; seed++ {
		x := steps(seed, 0.05, [2]float64{1, 500})
		got, err := PELT(x, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("seed %d: pure noise gave changepoints %v", seed, got)
		}
	}
}

// TestPELTAgainstExhaustiveSearch: no segmentation beats the optimum that
// trying every segmentation finds with the same cost (R's, in the data's
// units); PELT may lose to it, because R prunes a start at t itself although
// a minimum segment keeps t from being a changepoint for the next minSeg−1
// ends (testdata/rcpt holds R's answers on 60 such series, steps-m*), but on
// most series the two agree.
func TestPELTAgainstExhaustiveSearch(t *testing.T) {
	same, total, withCPs := 0, 0, 0
	for _, minSeg := range []int{2, 3, 5} {
		for seed := uint64(0); seed < 100; seed++ {
			x := steps(seed, 0.1, [2]float64{2, 7}, [2]float64{1, 9}, [2]float64{1.5, 8})
			pen := 3.0
			got, err := PELT(x, pen, minSeg)
			if err != nil {
				t.Fatal(err)
			}
			want := optimalPartition(x, pen, minSeg)
			total++
			if len(want) > 0 {
				withCPs++
			}
			cg, cw := segmentationCost(x, got, pen), segmentationCost(x, want, pen)
			if cg < cw-1e-9*math.Abs(cw) {
				t.Errorf("minSeg %d seed %d: PELT %v costs %v, below the optimum %v at %v", minSeg, seed, got, cg, want, cw)
			}
			if near(got, want, 0) {
				same++
			}
		}
	}
	if withCPs < 250 || same < total*3/4 {
		t.Errorf("%d of %d agree with the exhaustive search, %d have changepoints", same, total, withCPs)
	}
	t.Logf("%d of %d segmentations equal the exhaustive search's", same, total)
}

// segmentationCost is the penalised cost of x cut at cps, with PELT's cost.
func segmentationCost(x []float64, cps []int, pen float64) float64 {
	s1, s2 := cumsumLD(x, false), cumsumLD(x, true)
	bounds := append(append([]int{0}, cps...), len(x))
	total := -pen
	for i := 0; i+1 < len(bounds); i++ {
		a, b := bounds[i], bounds[i+1]
		m := float64(b - a)
		s := s1[b] - s1[a]
		v := (s2[b] - s2[a] - s*s/m) / m
		if v <= 0 {
			v = 1e-11
		}
		total += m*(lnTwoPi+ln(v)+1) + pen
	}
	return total
}

// optimalPartition is the unpruned O(n²) search with PELT's cost.
func optimalPartition(x []float64, pen float64, minSeg int) []int {
	n := len(x)
	f := make([]float64, n+1)
	last := make([]int, n+1)
	f[0] = -pen
	for t := 1; t <= n; t++ {
		f[t] = math.Inf(1)
		for s := 0; s <= t-minSeg; s++ {
			if s != 0 && s < minSeg {
				continue
			}
			if c := f[s] + segmentationCost(x[s:t], nil, 0); c+pen < f[t] {
				f[t], last[t] = c+pen, s
			}
		}
	}
	var cps []int
	for t := last[n]; t > 0; t = last[t] {
		cps = append([]int{t}, cps...)
	}
	return cps
}

func TestPELTRejectsBadValues(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		if _, err := PELT([]float64{1, 2, v, 3}, 0, 0); err == nil {
			t.Errorf("PELT accepted %v", v)
		}
	}
}

func TestOutliersAreNotChangepoints(t *testing.T) {
	x := steps(42, 0.02, [2]float64{1, 600})
	spikes := []int{150, 151, 320, 480}
	for _, i := range spikes {
		x[i] = 10
	}
	a, err := Analyze(x, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Changepoints) != 0 || a.Class != Flat {
		t.Errorf("class %s, changepoints %v; want flat with none", a.Class, a.Changepoints)
	}
	found := map[int]bool{}
	for _, i := range a.Outliers {
		found[i] = true
	}
	for _, i := range spikes {
		if !found[i] {
			t.Errorf("spike at %d not marked as an outlier (outliers %v)", i, a.Outliers)
		}
	}
	// Without the filter the spikes do split the series: the filter is what
	// keeps them out.
	b, _ := Analyze(x, Options{OutlierWindow: -1})
	if len(b.Changepoints) == 0 {
		t.Errorf("without the outlier filter no changepoints were found; the test is not exercising the filter")
	}
}

func TestClassification(t *testing.T) {
	tests := []struct {
		name       string
		x          []float64
		o          Options
		class      Class
		steadyIter int // -1: no steady state
		steadyMean float64
	}{
		{"flat", steps(1, 0.02, [2]float64{1e-3, 300}), Options{}, Flat, 0, 1e-3},
		{"warmup", steps(2, 0.02, [2]float64{4e-3, 30}, [2]float64{2e-3, 30}, [2]float64{1e-3, 240}), Options{}, Warmup, 60, 1e-3},
		{"slowdown", steps(3, 0.02, [2]float64{1e-3, 60}, [2]float64{1.5e-3, 240}), Options{}, Slowdown, 60, 1.5e-3},
		{"no steady state", steps(4, 0.02, [2]float64{1e-3, 250}, [2]float64{2e-3, 50}), Options{Steady: 75}, NoSteadyState, -1, 0},
		{"change within tolerance is flat", steps(5, 0.001, [2]float64{1.005e-3, 100}, [2]float64{1e-3, 200}), Options{DeltaPercent: 1, RawDeltas: true}, Flat, 0, 1.0017e-3},
		{"same change beyond a tighter tolerance is a warmup", steps(5, 0.001, [2]float64{1.005e-3, 100}, [2]float64{1e-3, 200}), Options{DeltaPercent: 0.1, RawDeltas: true}, Warmup, 100, 1e-3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(tc.x, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if a.Class != tc.class {
				t.Fatalf("class %q, want %q (segments %+v)", a.Class, tc.class, a.Segments)
			}
			if tc.steadyIter < 0 {
				if a.Steady || a.SteadyIter != -1 {
					t.Errorf("steady %v at %d, want none", a.Steady, a.SteadyIter)
				}
				return
			}
			if d := a.SteadyIter - tc.steadyIter; d < -2 || d > 2 {
				t.Errorf("steady state at %d, want %d ±2", a.SteadyIter, tc.steadyIter)
			}
			if math.Abs(a.SteadyMean-tc.steadyMean) > 0.01*tc.steadyMean {
				t.Errorf("steady mean %g, want %g ±1%%", a.SteadyMean, tc.steadyMean)
			}
		})
	}
}

func TestWarmupCostOnRunClock(t *testing.T) {
	// 10 iterations at 5 ms per op (2 ops each), then 90 at 1 ms per op: the
	// warm-up costs 10·2·(5−1) ms = 80 ms beyond steady state.
	var r Run
	r.Label = "x"
	var at time.Duration
	for i := range 100 {
		per := time.Millisecond
		if i < 10 {
			per = 5 * time.Millisecond
		}
		d := 2 * per
		r.Iterations = append(r.Iterations, Iteration{Index: i, Start: at, Duration: d, Ops: 2})
		at += d + 100*time.Microsecond // a gap between iterations
	}
	// Exact plateaus: the scale-free cost keeps them whole (R's would split
	// the 1 ms one, TestPELTPlateaus).
	a, err := AnalyzeRun(r, Options{Cost: CostScaleFree})
	if err != nil {
		t.Fatal(err)
	}
	if a.Class != Warmup || a.SteadyIter != 10 {
		t.Fatalf("class %s at %d, want warmup at 10", a.Class, a.SteadyIter)
	}
	if want := r.Iterations[10].Start; a.SteadyStart != want {
		t.Errorf("steady start %v, want %v", a.SteadyStart, want)
	}
	if want := 80 * time.Millisecond; a.WarmupCost != want {
		t.Errorf("warm-up cost %v, want %v", a.WarmupCost, want)
	}
}

func TestAnalyzeRejectsBadInput(t *testing.T) {
	for name, x := range map[string][]float64{"empty": nil, "nan": {1, math.NaN()}, "negative": {1, -1}} {
		if _, err := Analyze(x, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		in   []Class
		want Class
	}{
		{[]Class{Warmup, Warmup}, Warmup},
		{[]Class{Flat, Warmup, Flat}, GoodInconsistent},
		{[]Class{Flat, Slowdown}, BadInconsistent},
		{[]Class{Warmup, NoSteadyState}, BadInconsistent},
		{nil, ""},
	}
	for _, tc := range tests {
		if got := Combine(tc.in); got != tc.want {
			t.Errorf("Combine(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHalfSpeed: the first iteration at half the final speed (the median
// of the last Steady iterations) or better — before the steady state when
// an intermediate tier already gets there, an isolated fast outlier aside,
// and defined without a steady state too.
func TestHalfSpeed(t *testing.T) {
	spike := steps(5, 0, [2]float64{10, 250}, [2]float64{1, 250})
	spike[100] = 1 // an outlier inside a slow stretch
	tests := []struct {
		name        string
		x           []float64
		steady      bool
		iter, start int // start in units of the values' sum
	}{
		{"flat", steps(1, 0.01, [2]float64{2, 100}), true, 0, 0},
		{"one step", steps(2, 0, [2]float64{10, 20}, [2]float64{2, 80}), true, 20, 200},
		{"C1 reaches half", steps(3, 0, [2]float64{10, 20}, [2]float64{3.5, 30}, [2]float64{2, 150}), true, 20, 200},
		{"C1 too slow", steps(4, 0, [2]float64{10, 20}, [2]float64{5, 30}, [2]float64{2, 150}), true, 50, 350},
		{"outlier ignored", spike, true, 250, 249*10 + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Analyze(tc.x, Options{Steady: 20})
			if err != nil {
				t.Fatal(err)
			}
			if a.Steady != tc.steady || a.HalfSpeedIter != tc.iter {
				t.Fatalf("steady %v, half speed at %d (class %s, steady at %d); want %v, %d", a.Steady, a.HalfSpeedIter, a.Class, a.SteadyIter, tc.steady, tc.iter)
			}
			if want := seconds(float64(tc.start)); a.HalfSpeedStart != want || a.FinalMedian <= 0 {
				t.Errorf("half speed start %v, want %v", a.HalfSpeedStart, want)
			}
			if a.Steady && (a.HalfSpeedIter > a.SteadyIter || a.HalfSpeedStart > a.SteadyStart) {
				t.Errorf("half speed (%d, %v) after steady state (%d, %v)", a.HalfSpeedIter, a.HalfSpeedStart, a.SteadyIter, a.SteadyStart)
			}
		})
	}
}

// TestHalfSpeedWithoutSteadyState: the final median and half speed need no
// steady state — a noisy tail (here alternating 1 and 3) still has a median.
func TestHalfSpeedWithoutSteadyState(t *testing.T) {
	x := []float64{20, 20, 9, 5, 4, 1, 3, 1, 3, 1, 3, 1}
	med, i := halfSpeed(x, make([]bool, len(x)), 4)
	if med != 2 || i != 4 {
		t.Errorf("final median %v, half speed at %d; want 2 and 4", med, i)
	}
	out := make([]bool, len(x))
	out[4] = true
	if _, i := halfSpeed(x, out, 4); i != 5 {
		t.Errorf("with iteration 4 an outlier: half speed at %d, want 5", i)
	}
}
