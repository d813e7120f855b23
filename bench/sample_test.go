package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestSamplesQuantizeAsSampleBuffer(t *testing.T) {
	// SampleBuffer keeps 10 significant bits: exact below 1024 ns.
	for ns, want := range map[int64]int64{0: 0, 1: 1, 1023: 1023, 1024: 1024, 1025: 1024, 2047: 2046, 2049: 2048,
		123456: 123392, -5: 0} {
		if got := quantize(ns); got != want {
			t.Errorf("quantize(%d) = %d, want %d", ns, got, want)
		}
	}
	var s Samples
	for _, ns := range []int64{1500, 1501, 900, 900, 2049} {
		s.Add(ns)
	}
	bins := s.Bins(1e3) // us
	want := []Bin{{0.9, 2}, {1.5, 2}, {2.048, 1}}
	if len(bins) != len(want) || s.Len() != 5 {
		t.Fatalf("bins %v (len %d), want %v", bins, s.Len(), want)
	}
	for i := range want {
		if math.Abs(bins[i].Value-want[i].Value) > 1e-12 || bins[i].Count != want[i].Count {
			t.Errorf("bin %d = %v, want %v", i, bins[i], want[i])
		}
	}
}

// A histogram of unit counts has the statistics of the plain list.
func TestBinStatsMatchListStats(t *testing.T) {
	xs := []float64{121900.5, 123800.2, 124100.9, 122950.3, 123500.0, 124200.4, 123300.7, 122800.1, 124600.8, 123400.6}
	var bins []Bin
	for _, x := range xs {
		bins = append(bins, Bin{x, 1})
	}
	a := Metric{RawData: [][]float64{xs}}.Stats()
	b := binStats(merged(bins))
	if a.N != b.N || math.Abs(a.Score-b.Score) > 1e-9 || math.Abs(a.Error-b.Error) > 1e-9 {
		t.Errorf("list %+v\nbins %+v", a, b)
	}
	for i := range a.PercentileValues {
		if math.Abs(a.PercentileValues[i]-b.PercentileValues[i]) > 1e-9 {
			t.Errorf("percentile %v: list %v, bins %v", a.PercentileKeys[i], a.PercentileValues[i], b.PercentileValues[i])
		}
	}
}

func sampleResult() Result {
	h := [][][]Bin{
		{{{2.5, 3}, {3.0, 1}}, {{2.5, 2}, {4.0, 2}}},
		{{{2.5, 4}}, {{2.0, 1}, {2.5, 3}}},
	}
	return Result{JMHVersion: "1.37", Benchmark: "jitsim.bench.CBCThroughput", Mode: SampleTime, Threads: 1, Forks: 2,
		JVM: "jitsim", Params: []Param{{"msgSize", "10240"}},
		Primary: Metric{Unit: "us/op", Histogram: h, RawData: IterationMeans(h)}}
}

func TestSampleModeFormats(t *testing.T) {
	r := sampleResult()
	st := r.Primary.Stats()
	if st.N != 16 || st.Score != 2.6875 {
		t.Fatalf("N %d mean %v, want 16 operations, mean 43/16", st.N, st.Score)
	}
	var b bytes.Buffer
	if err := WriteText(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	want := "Benchmark              (msgSize)    Mode  Cnt  Score   Error  Units\n" +
		"CBCThroughput              10240  sample   16  2.688 ± 0.554  us/op\n" +
		"CBCThroughput:p0.00        10240  sample       2.000          us/op\n" +
		"CBCThroughput:p0.50        10240  sample       2.500          us/op\n" +
		"CBCThroughput:p0.90        10240  sample       4.000          us/op\n" +
		"CBCThroughput:p0.95        10240  sample       4.000          us/op\n" +
		"CBCThroughput:p0.99        10240  sample       4.000          us/op\n" +
		"CBCThroughput:p0.999       10240  sample       4.000          us/op\n" +
		"CBCThroughput:p0.9999      10240  sample       4.000          us/op\n" +
		"CBCThroughput:p1.00        10240  sample       4.000          us/op\n"
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}

	b.Reset()
	if err := WriteJSON(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !json.Valid(b.Bytes()) {
		t.Fatalf("not JSON:\n%s", s)
	}
	for _, w := range []string{
		"            \"scoreUnit\" : \"us/op\",\n            \"rawDataHistogram\" : [\n                [\n                    [\n                        [ 2.5, 3 ],\n                        [ 3.0, 1 ]\n                    ],\n",
		"\"p0.9999\" : {", "\"p1.00\" : {\n                \"score\" : 4.0,\n                \"scoreError\" : \"NaN\",",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("JSON lacks %q:\n%s", w, s)
		}
	}
	if strings.Contains(s, "\"rawData\" : [\n                [\n                    2.") {
		t.Errorf("primary metric has rawData besides its histogram:\n%s", s)
	}
	back, err := ReadJSON(strings.NewReader(s), "jmh-result.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(back[0].Secondary) != 0 || !equalResult(back[0], r) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", back[0], r)
	}

	b.Reset()
	if err := WriteCSV(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\"jitsim.bench.CBCThroughput:p0.90\",\"sample\",1,1,4.000000,NaN,\"us/op\",10240\r\n") {
		t.Errorf("CSV:\n%s", b.String())
	}
}

func TestSampleIterationAndResultBlock(t *testing.T) {
	r := sampleResult()
	got := SampleIterationText(false, 1, r.Primary.Histogram[0][1], "us/op")
	want := "Iteration   1: 3.250 ±(99.9%) 5.596 us/op\n" +
		"                 p0.00:   2.500 us/op\n" +
		"                 p0.50:   3.250 us/op\n" +
		"                 p0.90:   4.000 us/op\n" +
		"                 p0.95:   4.000 us/op\n" +
		"                 p0.99:   4.000 us/op\n" +
		"                 p0.999:  4.000 us/op\n" +
		"                 p0.9999: 4.000 us/op\n" +
		"                 p1.00:   4.000 us/op\n"
	if got != want {
		t.Errorf("iteration:\n%s\nwant:\n%s", got, want)
	}
	if got := SampleIterationText(true, 2, r.Primary.Histogram[0][0], "us/op"); got != "# Warmup Iteration   2: 2.625 ±(99.9%) 1.615 us/op" {
		t.Errorf("warm-up iteration %q", got)
	}
	var b bytes.Buffer
	if err := WriteResultBlock(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Result \"jitsim.bench.CBCThroughput\":\n  N = 16\n  mean =      2.688 ±(99.9%) 0.554 us/op\n\n  Histogram, us/op:\n",
		"    [2.000, 2.125) = 1 \n    [2.125, 2.250) = 0 \n", "    [3.750, 3.875) = 0 \n\n", "\n  Percentiles, us/op:\n      p(0.0000) =      2.000 us/op\n", "     p(99.9999) =      4.000 us/op\n"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("result block lacks %q:\n%s", w, b.String())
		}
	}
}
