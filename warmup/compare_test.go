package warmup

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompare: the baseline settles at 2 µs per op; the set without the
// intrinsic at 12 µs in one fork and 40 µs in the other (it never
// compiles), so its pooled steady ratio is about 13, with an interval
// around it.
func TestCompare(t *testing.T) {
	runs := synthRuns()
	s, err := Summarize(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Compare(runs, ""); err != nil {
		t.Fatal(err)
	}
	if s.Baseline != "-XX:+UseAESIntrinsics" || len(s.Ratios) != 1 {
		t.Fatalf("baseline %q, ratios %+v", s.Baseline, s.Ratios)
	}
	r := s.Ratios[0]
	if r.SteadyPerOp == nil || *r.SteadyPerOp < 11 || *r.SteadyPerOp > 15 {
		t.Fatalf("steady ratio %v, want about 13", FormatRatio(r.SteadyPerOp))
	}
	if *r.SteadyLow >= *r.SteadyPerOp || *r.SteadyHigh <= *r.SteadyPerOp {
		t.Errorf("interval %s does not hold %s", FormatCI(r.SteadyLow, r.SteadyHigh), FormatRatio(r.SteadyPerOp))
	}
	if err := s.Compare(runs, "-XX:-UseAESIntrinsics"); err != nil || s.Ratios[0].Label != "-XX:+UseAESIntrinsics" || *s.Ratios[0].SteadyPerOp > 0.2 {
		t.Errorf("baseline by name: %v, %+v", err, s.Ratios)
	}
	var b bytes.Buffer
	if err := WriteTerminal(&b, s, runs, 10); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "against -XX:-UseAESIntrinsics") || !strings.Contains(b.String(), "×") {
		t.Errorf("terminal lacks the ratios:\n%s", b.String())
	}
	if err := s.Compare(runs, "nope"); err == nil || !strings.Contains(err.Error(), "-XX:-UseAESIntrinsics") {
		t.Errorf("unknown baseline: %v", err)
	}
}

func TestFormatRatio(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	for _, tc := range []struct {
		r    *float64
		want string
	}{{nil, "-"}, {v(0.4321), "0.43×"}, {v(12.34), "12.3×"}, {v(250), "250×"}} {
		if got := FormatRatio(tc.r); got != tc.want {
			t.Errorf("FormatRatio(%v) = %q, want %q", tc.r, got, tc.want)
		}
	}
	if got := FormatCI(v(0.41), v(0.45)); got != "[0.41, 0.45]" {
		t.Errorf("FormatCI = %q", got)
	}
}
