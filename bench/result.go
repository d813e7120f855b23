// Package bench is the format side of `jitsim bench`: JMH's result model
// (benchmark, mode, params, forks, per-fork raw data), score ± error as JMH
// computes it, JMH's human-readable summary table, JMH's JSON result file,
// Go benchmark-format lines for benchstat, and a reader for JMH's own
// single-dash options. It takes plain numbers; the harness that produces
// them (and the VM) live elsewhere.
//
// Testing: the default `go test` is fast; JITSIM_LONG=1 also runs the real
// benchstat (`go tool benchstat`, go.mod's tool directive) on our output.
package bench

import (
	"fmt"
	"math"
	"sort"
)

// Mode is a JMH benchmark mode (org.openjdk.jmh.annotations.Mode).
type Mode string

// The modes, by JMH's short labels.
const (
	Throughput     Mode = "thrpt"
	AverageTime    Mode = "avgt"
	SampleTime     Mode = "sample"
	SingleShotTime Mode = "ss"
)

// modes maps every spelling JMH's -bm accepts to a Mode, and gives each
// mode's long label as JMH prints it in "# Benchmark mode:".
var modes = []struct {
	mode        Mode
	long, label string
}{
	{Throughput, "Throughput", "Throughput, ops/time"},
	{AverageTime, "AverageTime", "Average time, time/op"},
	{SampleTime, "SampleTime", "Sampling time"},
	{SingleShotTime, "SingleShotTime", "Single shot invocation time"},
}

// ParseMode reads a mode by short or long name (case as JMH: exact).
func ParseMode(s string) (Mode, error) {
	for _, m := range modes {
		if s == string(m.mode) || s == m.long {
			return m.mode, nil
		}
	}
	return "", fmt.Errorf("unknown benchmark mode %q (want thrpt, avgt, sample, ss or all)", s)
}

// Label is the mode's long description, as in "# Benchmark mode: …".
func (m Mode) Label() string {
	for _, x := range modes {
		if x.mode == m {
			return x.label
		}
	}
	return string(m)
}

// Param is one @Param value of a benchmark.
type Param struct {
	Name, Value string
}

// Metric is one measured quantity: the per-fork, per-iteration scores of
// the measurement iterations, in Unit.
type Metric struct {
	Unit    string
	RawData [][]float64 // [fork][iteration]
	// Histogram, for -bm sample, holds each iteration's operation times
	// ([fork][iteration]); the statistics then come from all operations,
	// and RawData holds each iteration's mean (IterationMeans).
	Histogram [][][]Bin
	// Policy is how the samples make the score: their mean (the zero
	// value), sum or maximum (JMH's AggregationPolicy).
	Policy Policy
	// fixed is the one value of a metric derived from another (a
	// percentile of a sample-time metric): its score, without an error.
	fixed *float64
}

// Policy is JMH's AggregationPolicy: how a metric's samples make its
// score. AVG has an error and a Student-t interval; SUM and MAX have no
// error and an interval of the score alone (Result.getScoreError,
// getScoreConfidence).
type Policy string

// The policies; the zero value is AVG.
const (
	Average Policy = ""
	Sum     Policy = "sum"
	Maximum Policy = "max"
)

// Label is the policy as JMH prints it in a result block ("[Sum]").
func (p Policy) Label() string {
	switch p {
	case Sum:
		return "Sum"
	case Maximum:
		return "Maximum"
	}
	return "Average"
}

// Result is one benchmark × parameter combination (JMH's RunResult).
type Result struct {
	JMHVersion            string // the JMH version whose format is written, e.g. "1.37"
	Benchmark             string // fully qualified, e.g. "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt"
	Mode                  Mode
	Threads, Forks        int
	JVM                   string
	JVMArgs               []string
	JDKVersion            string
	VMName, VMVersion     string
	WarmupIterations      int
	WarmupTime            string // "10 s"
	WarmupBatchSize       int
	MeasurementIterations int
	MeasurementTime       string
	MeasurementBatchSize  int
	Params                []Param
	Primary               Metric
	Secondary             []NamedMetric
}

// NamedMetric is a secondary result (e.g. a profiler's "·gc.alloc.rate").
type NamedMetric struct {
	Label string
	Metric
}

// sortedParams returns the params ordered by name, as JMH keeps them.
func (r Result) sortedParams() []Param {
	ps := append([]Param(nil), r.Params...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

// sortedSecondary returns the secondary metrics ordered by label, as JMH
// keeps them (a TreeMap) in every result format, with the percentiles JMH
// derives from a sample-time primary metric ("p0.00" … "p1.00") among them.
func (r Result) sortedSecondary() []NamedMetric {
	ss := append([]NamedMetric(nil), r.Secondary...)
	ss = append(ss, r.Primary.derived()...)
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].Label < ss[j].Label })
	return ss
}

// Stats are the summary statistics JMH derives from a metric's samples
// (org.openjdk.jmh.util.ListStatistics and AbstractStatistics).
type Stats struct {
	N                 int
	Score             float64 // by the metric's Policy: the mean, sum or maximum
	Mean              float64
	Min, Max, Stdev   float64   // Stdev: sample standard deviation (n−1)
	Error             float64   // half-width of the 99.9 % Student-t interval; NaN when N ≤ 2
	ConfLow, ConfHigh float64   // Score ∓ Error
	PercentileKeys    []float64 // 0, 50, 90, …, 100
	PercentileValues  []float64
	ConfidenceLevel   float64 // 0.999
	TQuantile         float64 // t(1 − (1 − level)/2, N − 1)
}

// percentileKeys are the percentiles JMH's JSON writer emits.
var percentileKeys = []float64{0, 50, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999, 100}

// Stats computes the metric's statistics over all forks' samples. With
// N ≤ 2 the error is NaN, as in JMH's AbstractStatistics.getMeanErrorAt.
func (m Metric) Stats() Stats {
	if m.fixed != nil { // JMH's SingletonStatistics
		v, nan := *m.fixed, math.NaN()
		s := Stats{N: 1, Score: v, Mean: v, Min: v, Max: v, Stdev: nan, Error: nan, ConfLow: nan, ConfHigh: nan, ConfidenceLevel: 0.999}
		for _, p := range percentileKeys {
			s.PercentileKeys = append(s.PercentileKeys, p)
			s.PercentileValues = append(s.PercentileValues, v)
		}
		return s
	}
	if len(m.Histogram) > 0 {
		return binStats(m.allBins())
	}
	var xs []float64
	for _, f := range m.RawData {
		xs = append(xs, f...)
	}
	s := Stats{N: len(xs), ConfidenceLevel: 0.999}
	nan := math.NaN()
	if s.N == 0 {
		s.Score, s.Mean, s.Min, s.Max, s.Stdev, s.Error, s.ConfLow, s.ConfHigh = nan, nan, nan, nan, nan, nan, nan, nan
		return s
	}
	var sum float64
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		sum += x
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	}
	s.Score = sum / float64(s.N)
	s.Mean = s.Score
	if s.N > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - s.Score) * (x - s.Score)
		}
		s.Stdev = math.Sqrt(ss / float64(s.N-1))
	} else {
		s.Stdev = nan
	}
	s.setInterval()
	switch m.Policy {
	case Sum, Maximum:
		s.Score = sum
		if m.Policy == Maximum {
			s.Score = s.Max
		}
		s.Error, s.ConfLow, s.ConfHigh = nan, s.Score, s.Score
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	for _, p := range percentileKeys {
		s.PercentileKeys = append(s.PercentileKeys, p)
		s.PercentileValues = append(s.PercentileValues, Percentile(sorted, p))
	}
	return s
}

// Percentile is the p-th percentile of sorted data by the estimator JMH's
// statistics use (commons-math Percentile, default method): position
// p·(n+1)/100, the minimum below position 1, the maximum from position n,
// linear interpolation between neighbours in between; p = 0 is the minimum.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if p <= 0 {
		return sorted[0]
	}
	pos := p * float64(n+1) / 100
	switch {
	case pos < 1:
		return sorted[0]
	case pos >= float64(n):
		return sorted[n-1]
	}
	lo := math.Floor(pos)
	i := int(lo) - 1
	return sorted[i] + (pos-lo)*(sorted[i+1]-sorted[i])
}

// Validate reports the first thing wrong with r, naming the benchmark.
func (r Result) Validate() error {
	if r.Benchmark == "" {
		return fmt.Errorf("bench: result without a benchmark name")
	}
	if _, err := ParseMode(string(r.Mode)); err != nil {
		return fmt.Errorf("bench: %s: %v", r.Benchmark, err)
	}
	if r.Primary.Unit == "" {
		return fmt.Errorf("bench: %s: primary metric has no unit", r.Benchmark)
	}
	if r.Primary.Policy != Average {
		return fmt.Errorf("bench: %s: the primary metric's score is a mean, not a %s", r.Benchmark, r.Primary.Policy)
	}
	for _, nm := range r.Secondary {
		if nm.Label == "" {
			return fmt.Errorf("bench: %s: secondary metric without a label", r.Benchmark)
		}
		if nm.Policy != Average && nm.Policy != Sum && nm.Policy != Maximum {
			return fmt.Errorf("bench: %s: secondary metric %q: unknown policy %q", r.Benchmark, nm.Label, nm.Policy)
		}
		if len(r.Primary.Histogram) > 0 && isDerivedLabel(nm.Label) {
			return fmt.Errorf("bench: %s: secondary metric %q is derived from the sample-time primary metric", r.Benchmark, nm.Label)
		}
	}
	if len(r.Primary.Histogram) > 0 && r.Mode != SampleTime {
		return fmt.Errorf("bench: %s: a histogram of operation times in mode %q (only sample has them)", r.Benchmark, r.Mode)
	}
	return nil
}

// setInterval sets the score's error and confidence interval from N, Stdev and
// ConfidenceLevel: Student's t, as JMH computes them, or NaN for fewer than three samples.
func (s *Stats) setInterval() {
	s.Error, s.ConfLow, s.ConfHigh = math.NaN(), math.NaN(), math.NaN()
	if s.N > 2 {
		q, err := StudentTQuantile(1-(1-s.ConfidenceLevel)/2, s.N-1)
		if err != nil {
			panic("BUG: " + err.Error())
		}
		s.TQuantile = q
		s.Error = q * s.Stdev / math.Sqrt(float64(s.N))
		s.ConfLow, s.ConfHigh = s.Score-s.Error, s.Score+s.Error
	}
}
