package bench

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestStudentTQuantileKnownValues(t *testing.T) {
	// Published two-sided critical values (e.g. NIST/SEMATECH e-Handbook
	// table 1.3.6.7.2) to the digits given there.
	tests := []struct {
		p    float64
		df   int
		want float64
		tol  float64
	}{
		{0.9995, 9, 4.781, 5e-4}, // JMH's factor for 10 samples
		{0.9995, 1, 636.619, 5e-3},
		{0.9995, 4, 8.610, 5e-4},
		{0.9995, 29, 3.659, 5e-4},
		{0.9995, 100, 3.390, 5e-4},
		{0.975, 1, 12.706, 5e-4},
		{0.975, 10, 2.228, 5e-4},
		{0.975, 30, 2.042, 5e-4},
		{0.95, 5, 2.015, 5e-4},
		{0.995, 20, 2.845, 5e-4},
		{0.5, 7, 0, 0},
		{0.0005, 9, -4.781, 5e-4},
	}
	for _, tc := range tests {
		got, err := StudentTQuantile(tc.p, tc.df)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > tc.tol {
			t.Errorf("t(%v, %d) = %.6f, want %.3f", tc.p, tc.df, got, tc.want)
		}
	}
}

func TestStudentTQuantileAgainstGonum(t *testing.T) {
	// gonum's distuv is the oracle only; the quantile used is our own.
	for _, p := range []float64{0.6, 0.9, 0.975, 0.995, 0.9995} {
		for df := 1; df <= 400; df++ {
			got, err := StudentTQuantile(p, df)
			if err != nil {
				t.Fatal(err)
			}
			want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("t(%v, %d) = %.12g, gonum %.12g", p, df, got, want)
			}
		}
	}
	// Large df tends to the normal quantile.
	got, _ := StudentTQuantile(0.9995, 1_000_000)
	if math.Abs(got-3.2905267) > 1e-4 {
		t.Errorf("t(0.9995, 1e6) = %v, want ≈ z = 3.2905", got)
	}
}

func TestStudentTQuantileBadInput(t *testing.T) {
	for _, tc := range []struct {
		p  float64
		df int
	}{{0.5, 0}, {0, 5}, {1, 5}, {math.NaN(), 5}, {-1, 3}} {
		if _, err := StudentTQuantile(tc.p, tc.df); err == nil {
			t.Errorf("StudentTQuantile(%v, %d): no error", tc.p, tc.df)
		}
	}
}
