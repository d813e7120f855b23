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

// TestExplainChanges: the synthetic run's changepoints at its installs
// carry them, C2 first, and the verdict names the C2 install.
func TestExplainChanges(t *testing.T) {
	runs := synthRuns()[:1]
	s, err := Summarize(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Runs[0]
	if len(rs.Changes) != len(rs.Analysis.Changepoints) {
		t.Fatalf("%d changes for %d changepoints", len(rs.Changes), len(rs.Analysis.Changepoints))
	}
	var c2 *Change
	for i, ch := range rs.Changes {
		if ch.Iteration == 30 || ch.Iteration == 31 {
			c2 = &rs.Changes[i]
		}
	}
	if c2 == nil || len(c2.Causes) == 0 || c2.Causes[0].Kind != EventInstalled || c2.Causes[0].Level != 4 {
		t.Fatalf("changes %+v: none at the C2 install (iteration 30) led by it", rs.Changes)
	}
	if !strings.Contains(c2.Text, "C2 code for AESCrypt::implEncryptBlock was installed") ||
		!strings.Contains(c2.Text, "first called its intrinsic stub") {
		t.Errorf("change text %q", c2.Text)
	}
	if want := "when C2 code for AESCrypt::implEncryptBlock was installed"; !strings.Contains(rs.Verdict, want) || s.Labels[0].Verdict != rs.Verdict {
		t.Errorf("verdict %q lacks %q", rs.Verdict, want)
	}
	// Level 0 of GCTR::doFinal is followed and never compiled.
	if !strings.Contains(rs.Verdict, "1 followed method still below level 4 then: GCTR::doFinal at level 0") {
		t.Errorf("verdict %q does not name the method below level 4", rs.Verdict)
	}
}
