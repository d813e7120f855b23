package warmup

import (
	"fmt"
	"math"
	"strings"
)

// Ratio compares one option set with the baseline set: each figure is the
// set's divided by the baseline's, so below 1 means less time. A figure is
// absent (nil) when either side has none, or the baseline's is zero.
type Ratio struct {
	Label    string `json:"label"`
	Baseline string `json:"baseline"`
	// SteadyPerOp is the ratio of the steady-state means per op, over the
	// steady iterations of every fork; SteadyLow and SteadyHigh bound its
	// 95 % confidence interval (delta method on the two means).
	SteadyPerOp *float64 `json:"steady_per_op,omitempty"`
	SteadyLow   *float64 `json:"steady_per_op_ci_low,omitempty"`
	SteadyHigh  *float64 `json:"steady_per_op_ci_high,omitempty"`
	// WarmupCost and TimeToSteady are the ratios of the median warm-up
	// costs and of the median times at which the steady state began.
	WarmupCost   *float64 `json:"warmup_cost,omitempty"`
	TimeToSteady *float64 `json:"time_to_steady,omitempty"`
}

// steadySample is the time per op of every steady iteration of every fork
// of label: its mean, its variance and its size.
func steadySample(runs []Run, s Summary, label string) (mean, variance float64, n int) {
	var xs []float64
	for i, r := range runs {
		a := s.Runs[i].Analysis
		if r.Label != label || !a.Steady {
			continue
		}
		xs = append(xs, r.PerOp()[a.SteadyIter:]...)
	}
	if len(xs) == 0 {
		return 0, 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		variance /= float64(len(xs) - 1)
	}
	return mean, variance, len(xs)
}

// Compare fills s.Ratios: every option set against baseline (the first
// set when baseline is empty). It is an error to name a set the study did
// not run.
func (s *Summary) Compare(runs []Run, baseline string) error {
	s.Ratios = nil
	if len(s.Labels) == 0 {
		return nil
	}
	base := -1
	if baseline == "" {
		base = 0
	}
	var names []string
	for i, l := range s.Labels {
		names = append(names, l.Label)
		if l.Label == baseline {
			base = i
		}
	}
	if base < 0 {
		return fmt.Errorf("warmup: baseline %q is not an option set of the study (%s)", baseline, strings.Join(names, ", "))
	}
	s.Baseline = s.Labels[base].Label
	if len(s.Labels) < 2 {
		return nil
	}
	b := s.Labels[base]
	bm, bv, bn := steadySample(runs, *s, b.Label)
	div := func(a, b float64, ok bool) *float64 {
		if !ok || b == 0 || math.IsNaN(a/b) || math.IsInf(a/b, 0) {
			return nil
		}
		r := a / b
		return &r
	}
	for i, l := range s.Labels {
		if i == base {
			continue
		}
		r := Ratio{Label: l.Label, Baseline: b.Label}
		both := l.Steady && b.Steady
		if m, v, n := steadySample(runs, *s, l.Label); both && n > 0 && bn > 0 && bm > 0 {
			r.SteadyPerOp = div(m, bm, true)
			if r.SteadyPerOp != nil {
				q := *r.SteadyPerOp
				se := q * math.Sqrt(v/(float64(n)*m*m)+bv/(float64(bn)*bm*bm))
				r.SteadyLow, r.SteadyHigh = div(q-1.96*se, 1, true), div(q+1.96*se, 1, true)
			}
		}
		r.WarmupCost = div(float64(l.WarmupCost), float64(b.WarmupCost), both)
		r.TimeToSteady = div(float64(l.SteadyStart), float64(b.SteadyStart), both)
		s.Ratios = append(s.Ratios, r)
	}
	return nil
}

// FormatRatio prints a ratio as "0.43×", or "-" when absent.
func FormatRatio(r *float64) string {
	if r == nil {
		return "-"
	}
	switch v := *r; {
	case v >= 100:
		return fmt.Sprintf("%.0f×", v)
	case v >= 10:
		return fmt.Sprintf("%.1f×", v)
	}
	return fmt.Sprintf("%.2f×", *r)
}

// FormatCI prints a ratio's interval as "[0.41, 0.45]", or "" when absent.
func FormatCI(lo, hi *float64) string {
	if lo == nil || hi == nil {
		return ""
	}
	return "[" + strings.TrimSuffix(FormatRatio(lo), "×") + ", " + strings.TrimSuffix(FormatRatio(hi), "×") + "]"
}

// writeRatios is the terminal's ratio table, after the summary table.
func writeRatios(b *strings.Builder, s Summary) {
	if len(s.Ratios) == 0 {
		return
	}
	nameW := len("option set")
	for _, r := range s.Ratios {
		nameW = max(nameW, len([]rune(r.Label)))
	}
	fmt.Fprintf(b, "\nagainst %s (set ÷ baseline; below 1 is less time):\n", s.Baseline)
	fmt.Fprintf(b, "%-*s  %-28s  %12s  %14s\n", nameW, "option set", "steady/op [95% CI]", "warm-up cost", "time to steady")
	for _, r := range s.Ratios {
		st := FormatRatio(r.SteadyPerOp)
		if ci := FormatCI(r.SteadyLow, r.SteadyHigh); ci != "" {
			st += " " + ci
		}
		fmt.Fprintf(b, "%-*s  %-28s  %12s  %14s\n", nameW, r.Label, st, FormatRatio(r.WarmupCost), FormatRatio(r.TimeToSteady))
	}
}
