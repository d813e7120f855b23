package warmup

import (
	"bytes"
	"strings"
	"testing"
)

// TestElbowHandWorked: points (1, 10), (2, 3), (3, 2), (10, 0) scale to
// x = 0, 1/9, 2/9, 1 and y = 1, 0.3, 0.2, 0; 1 − x − y is 0, 0.589, 0.578,
// 0: the elbow is at penalty 2.
func TestElbowHandWorked(t *testing.T) {
	if p, ok := Elbow([]float64{1, 2, 3, 10}, []int{10, 3, 2, 0}); !ok || p != 2 {
		t.Errorf("elbow %v %v, want 2", p, ok)
	}
	if _, ok := Elbow([]float64{1, 2}, []int{3}); ok {
		t.Error("lengths differ, yet an elbow")
	}
	if _, ok := Elbow([]float64{1, 2, 3}, []int{4, 2, 0}); ok {
		t.Error("a straight line has no elbow")
	}
}

// TestTrainiRule: a warm-up of 20 iterations at 5 ms, then 280 at 1 ms
// (2 % noise): the last segment's mean over the first's is 0.2, far below
// 0.95, so the steady state starts at 20. A change at iteration 280 of 300
// lies inside the last 50 (n/6): no steady state. A slowdown by 2 % at 150
// is within the 5 % equivalence margin: steady from 0.
func TestTrainiRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x     []float64
		class Class
		iter  int
	}{
		{"warm-up", steps(1, 0.02, [2]float64{5e-3, 20}, [2]float64{1e-3, 280}), TrainiSteady, 20},
		{"late change", steps(2, 0.02, [2]float64{1e-3, 280}, [2]float64{3e-3, 20}), TrainiNoSteady, -1},
		{"small step", steps(3, 0.002, [2]float64{1e-3, 150}, [2]float64{1.02e-3, 150}), TrainiSteady, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Traini(tc.x, 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			if r.Class != tc.class || r.SteadyIter != tc.iter {
				t.Errorf("%s at %d (penalty %.1f, changepoints %v); want %s at %d", r.Class, r.SteadyIter, r.Penalty, r.Changepoints, tc.class, tc.iter)
			}
		})
	}
	if _, err := Traini([]float64{1, -1, 2}, 0, 1); err == nil || !strings.Contains(err.Error(), "value 1") {
		t.Errorf("negative value: %v", err)
	}
}

func TestCombineTraini(t *testing.T) {
	for _, tc := range []struct {
		in   []Class
		want Class
	}{
		{[]Class{TrainiSteady, TrainiSteady}, TrainiSteady},
		{[]Class{TrainiSteady, TrainiNoSteady}, TrainiInconsistent},
		{[]Class{TrainiNoSteady}, TrainiNoSteady},
	} {
		if got := CombineTraini(tc.in); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestClassifierComparison: two forks, one warm-up both rules see, one
// whose late change warmup_stats's 25 % window calls "no steady state" but
// Traini et al.'s n/6 window does not: one disagreement listed.
func TestClassifierComparison(t *testing.T) {
	mk := func(fork int, x []float64) Run { return perOpRun("set", fork, x) }
	runs := []Run{mk(0, steps(1, 0.02, [2]float64{5e-3, 20}, [2]float64{1e-3, 280})),
		mk(1, steps(2, 0.02, [2]float64{1e-3, 240}, [2]float64{3e-3, 60}))}
	s, err := Summarize(runs, Options{Traini: true, BootstrapResamples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteClassifierComparison(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "1 of 2 runs disagree") || !strings.Contains(out, "whether steady") ||
		s.Labels[0].TrainiClass != TrainiSteady || s.Labels[0].Class != BadInconsistent {
		t.Errorf("comparison:\n%s\nlabel %+v", out, s.Labels[0])
	}
}
