package bench

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestPolicies: SUM and MAX secondaries score as JMH 1.37's Result does —
// the sum or the maximum, no error, an interval of the score alone — and
// print so in the iteration lines, the result block, the table, and JSON,
// whose reader tells the policy back.
func TestPolicies(t *testing.T) {
	r := Result{JMHVersion: "1.37", Benchmark: "b.B.m", Mode: AverageTime, Threads: 1, Forks: 2,
		Primary: Metric{Unit: "us/op", RawData: [][]float64{{3, 2, 1}, {3, 2, 1}}},
		Secondary: []NamedMetric{
			{Label: "compiler.time.total", Metric: Metric{Unit: "ms", Policy: Maximum, RawData: [][]float64{{80, 84, 94}, {81, 85, 90}}}},
			{Label: "compiler.time.profiled", Metric: Metric{Unit: "ms", Policy: Sum, RawData: [][]float64{{0, 4, 10}, {1, 4, 5}}}},
		}}
	sum, mx := r.Secondary[1].Stats(), r.Secondary[0].Stats()
	if sum.Score != 24 || !math.IsNaN(sum.Error) || sum.ConfLow != 24 || sum.ConfHigh != 24 || sum.Mean != 4 || sum.N != 6 {
		t.Errorf("sum: %+v", sum)
	}
	if mx.Score != 94 || !math.IsNaN(mx.Error) || mx.ConfLow != 94 || mx.Min != 80 {
		t.Errorf("max: %+v", mx)
	}
	var b bytes.Buffer
	if err := WriteResultBlock(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `Secondary result "b.B.m:compiler.time.profiled":
  24.000 ±(99.9%) 0.001 ms [Sum]
  (min, avg, max) = (≈ 0, 4.000, 10.000), stdev = 3.521
  CI (99.9%): [24.000, 24.000] (assumes normal distribution)

Secondary result "b.B.m:compiler.time.total":
  94.000 ±(99.9%) 0.001 ms [Maximum]
`
	if !strings.Contains(b.String(), want) {
		t.Errorf("result block:\n%s\nwant within it:\n%s", b.String(), want)
	}
	it := IterationText(false, 2, 2, "us/op", []NamedMetric{
		{Label: "compiler.time.total", Metric: Metric{Unit: "ms", Policy: Maximum, RawData: [][]float64{{84}}}},
		{Label: "compiler.time.profiled", Metric: Metric{Unit: "ms", Policy: Sum, RawData: [][]float64{{4}}}}})
	if wantIt := "Iteration   2: 2.000 us/op\n                 compiler.time.profiled: 4.000 ms\n                 compiler.time.total:    84.000 ms\n"; it != wantIt {
		t.Errorf("iteration text:\n%q\nwant\n%q", it, wantIt)
	}
	if w := IterationText(true, 1, 2, "us/op", r.Secondary); w != "# Warmup Iteration   1: 2.000 us/op" {
		t.Errorf("warm-up iteration: %q", w)
	}
	b.Reset()
	if err := WriteText(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "B.m:compiler.time.profiled  avgt    6  24.000             ms") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&b, "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range back[0].Secondary {
		if s.Policy != r.sortedSecondary()[i].Policy {
			t.Errorf("%s: policy %q back, wrote %q", s.Label, s.Policy, r.sortedSecondary()[i].Policy)
		}
	}
	r.Primary.Policy = Sum
	if err := r.Validate(); err == nil {
		t.Error("a summed primary metric validated")
	}
}
