package bench

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"
)

// Bin is one value of a sample-time histogram and how many operations took
// it, in the metric's unit (JMH's rawDataHistogram pairs).
type Bin struct {
	Value float64
	Count int64
}

// Samples collects the times of single operations, in nanoseconds, the way
// JMH's SampleBuffer does for -bm sample: a time keeps its 10 leading
// significant bits (exact below 1024 ns, within 0.1 % above), so that an
// iteration of millions of operations is a few hundred bins. The zero value
// is empty and ready to use.
type Samples struct {
	counts map[int64]int64
}

// samplePrecisionBits is SampleBuffer.PRECISION_BITS.
const samplePrecisionBits = 10

// quantize is the time SampleBuffer files ns under.
func quantize(ns int64) int64 {
	if ns < 0 {
		ns = 0
	}
	shift := max(0, 64-samplePrecisionBits-bits.LeadingZeros64(uint64(ns)))
	return ns >> shift << shift
}

// Add records one operation that took ns nanoseconds.
func (s *Samples) Add(ns int64) {
	if s.counts == nil {
		s.counts = map[int64]int64{}
	}
	s.counts[quantize(ns)]++
}

// Merge adds every sample of o to s.
func (s *Samples) Merge(o *Samples) {
	for k, n := range o.counts {
		if s.counts == nil {
			s.counts = map[int64]int64{}
		}
		s.counts[k] += n
	}
}

// Len is the number of operations recorded.
func (s *Samples) Len() int64 {
	var n int64
	for _, c := range s.counts {
		n += c
	}
	return n
}

// Bins returns the histogram in a unit unitNS nanoseconds long, ordered by
// value. The conversion is JMH's: the value is the quantized time times
// (units per day) / (nanoseconds per day).
func (s *Samples) Bins(unitNS float64) []Bin {
	const dayNS = 86400e9
	mult := math.Floor(dayNS/unitNS) / dayNS
	keys := make([]int64, 0, len(s.counts))
	for k := range s.counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([]Bin, len(keys))
	for i, k := range keys {
		out[i] = Bin{Value: mult * float64(k), Count: s.counts[k]}
	}
	return out
}

// merged returns the bins of all of hs as one histogram, equal values
// joined, ordered by value (JMH's TreeMultiset).
func merged(hs ...[]Bin) []Bin {
	m := map[float64]int64{}
	for _, h := range hs {
		for _, b := range h {
			m[b.Value] += b.Count
		}
	}
	out := make([]Bin, 0, len(m))
	for v, c := range m {
		out = append(out, Bin{v, c})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Value < out[j].Value })
	return out
}

// binStats is Stats over a histogram, as JMH's MultisetStatistics computes
// it: N is the number of operations, the mean and variance weigh each value
// by its count, and a percentile interpolates between the operations at
// positions ⌊p(N+1)/100⌋ and the next.
func binStats(bins []Bin) Stats {
	s := Stats{ConfidenceLevel: 0.999}
	nan := math.NaN()
	for _, b := range bins {
		if b.Count > 0 {
			s.N += int(b.Count)
		}
	}
	if s.N == 0 {
		s.Score, s.Mean, s.Min, s.Max, s.Stdev, s.Error, s.ConfLow, s.ConfHigh = nan, nan, nan, nan, nan, nan, nan, nan
		return s
	}
	var sum float64
	s.Min, s.Max = math.Inf(1), math.Inf(-1)
	for _, b := range bins {
		if b.Count <= 0 {
			continue
		}
		sum += b.Value * float64(b.Count)
		s.Min, s.Max = math.Min(s.Min, b.Value), math.Max(s.Max, b.Value)
	}
	s.Score = sum / float64(s.N)
	s.Mean = s.Score
	s.Stdev = nan
	if s.N > 1 {
		var v float64
		for _, b := range bins {
			if b.Count > 0 {
				v += (b.Value - s.Score) * (b.Value - s.Score) * float64(b.Count)
			}
		}
		s.Stdev = math.Sqrt(v / float64(s.N-1))
	}
	s.setInterval()
	for _, p := range percentileKeys {
		s.PercentileKeys = append(s.PercentileKeys, p)
		s.PercentileValues = append(s.PercentileValues, binPercentile(bins, s.Min, s.Max, p))
	}
	return s
}

// binPercentile is MultisetStatistics.getPercentile over sorted bins.
func binPercentile(bins []Bin, lo, hi, p float64) float64 {
	if p == 0 {
		return lo
	}
	var n int64
	for _, b := range bins {
		n += max(b.Count, 0)
	}
	at := func(index int64) float64 { // the index-th operation, 1-based; index ≤ 0 is the first
		var cur int64
		for _, b := range bins {
			cur += max(b.Count, 0)
			if cur >= index {
				return b.Value
			}
		}
		return hi
	}
	pos := p * float64(n+1) / 100
	fl := math.Floor(pos)
	a, b := at(int64(fl)), at(int64(fl)+1)
	return a + (b-a)*(pos-fl)
}

// derivedPercentiles are the secondary results JMH derives from a
// sample-time metric (SampleTimeResult.getDerivativeResults): label and
// percentile.
var derivedPercentiles = []struct {
	label string
	p     float64
}{
	{"p0.00", 0}, {"p0.50", 50}, {"p0.90", 90}, {"p0.95", 95}, {"p0.99", 99},
	{"p0.999", 99.9}, {"p0.9999", 99.99}, {"p1.00", 100},
}

// isDerivedLabel reports whether label is one of derivedPercentiles'.
func isDerivedLabel(label string) bool {
	for _, d := range derivedPercentiles {
		if d.label == label {
			return true
		}
	}
	return false
}

// derived returns the percentile metrics of a sample-time metric: each
// has the percentile of all samples as its one value (no error, as JMH's
// ScalarDerivativeResult) and, as raw data, each iteration's percentile.
func (m Metric) derived() []NamedMetric {
	if len(m.Histogram) == 0 {
		return nil
	}
	all := m.allBins()
	st := binStats(all)
	out := make([]NamedMetric, len(derivedPercentiles))
	for i, d := range derivedPercentiles {
		v := binPercentile(all, st.Min, st.Max, d.p)
		dm := Metric{Unit: m.Unit, fixed: &v}
		for _, fork := range m.Histogram {
			row := make([]float64, len(fork))
			for j, it := range fork {
				ist := binStats(it)
				row[j] = binPercentile(it, ist.Min, ist.Max, d.p)
			}
			dm.RawData = append(dm.RawData, row)
		}
		out[i] = NamedMetric{Label: d.label, Metric: dm}
	}
	return out
}

// allBins is every iteration's histogram of m joined.
func (m Metric) allBins() []Bin {
	var hs [][]Bin
	for _, f := range m.Histogram {
		hs = append(hs, f...)
	}
	return merged(hs...)
}

// IterationMeans returns each iteration's mean of a histogram
// ([fork][iteration]), the per-iteration scores of a sample-time metric.
func IterationMeans(h [][][]Bin) [][]float64 {
	out := make([][]float64, len(h))
	for i, f := range h {
		out[i] = make([]float64, len(f))
		for j, it := range f {
			out[i][j] = binStats(it).Score
		}
	}
	return out
}

// SampleIterationText is what JMH prints for one iteration of -bm sample
// after "Iteration   1: " (TextReportFormat.iterationResult): the mean
// ± error of the iteration's operations, and after a measurement iteration
// one line per derived percentile, aligned under the score, and a blank
// line.
func SampleIterationText(warmup bool, i int, bins []Bin, unit string, secondary ...NamedMetric) string {
	prefix := IterationLine(warmup, i, 0, unit)
	prefix = prefix[:strings.Index(prefix, ": ")+2]
	text := prefix + scoreText(binStats(bins), unit)
	if warmup {
		return text
	}
	m := Metric{Unit: unit, Histogram: [][][]Bin{{bins}}}
	return text + "\n" + secondaryLines(len(prefix), append(m.derived(), secondary...))
}

// IterationText is a measurement iteration's line with its secondary
// results (one iteration's samples each) under it, as JMH prints them
// (TextReportFormat.iterationResult): sorted by label, the labels padded
// to the longest, aligned under the score, and a blank line after. A
// warm-up iteration, or one without secondary results, is its line alone.
func IterationText(warmup bool, i int, score float64, unit string, secondary []NamedMetric) string {
	line := IterationLine(warmup, i, score, unit)
	if warmup || len(secondary) == 0 {
		return line
	}
	return line + "\n" + secondaryLines(strings.Index(line, ": ")+2, secondary)
}

// secondaryLines are the secondary results' lines under an iteration's,
// indented by prefix columns.
func secondaryLines(prefix int, secondary []NamedMetric) string {
	sec := append([]NamedMetric(nil), secondary...)
	sort.SliceStable(sec, func(i, j int) bool { return sec[i].Label < sec[j].Label })
	keyLen := 0
	for _, s := range sec {
		keyLen = max(keyLen, utf8.RuneCountInString(s.Label))
	}
	var b strings.Builder
	for _, s := range sec {
		fmt.Fprintf(&b, "%s  %s %s\n", strings.Repeat(" ", prefix), padRight(s.Label+":", keyLen+1), scoreText(s.Stats(), s.Unit))
	}
	return b.String()
}

// scoreText is Result.toString: "score ±(99.9%) error unit", or "score
// unit" without an error.
func scoreText(st Stats, unit string) string {
	if !math.IsNaN(st.Error) && !isApproximate(st.Score) {
		return formatScore(st.Score) + " ±(99.9%) " + formatError(st.Error) + " " + unit
	}
	return formatScore(st.Score) + " " + unit
}

// writeDistribution is Result.distributionExtendedInfo, the block JMH
// prints for a sample-time result after its forks: the count, the mean
// with its error, a histogram of at least ten bins and the percentiles.
// It writes nothing for two operations or fewer.
func writeDistribution(b *strings.Builder, m Metric) {
	all := m.allBins()
	st := binStats(all)
	if st.N <= 2 {
		return
	}
	fmt.Fprintf(b, "  N = %d\n", st.N)
	fmt.Fprintf(b, "  mean = %s ±(99.9%%) %s %s\n", padLeft(formatScore(st.Score), 10), formatError(st.Error), m.Unit)
	fmt.Fprintf(b, "\n  Histogram, %s:\n", m.Unit)
	lo, hi := st.Min, st.Max
	bin := math.Pow(10, math.Floor(math.Log10(hi-lo)))
	lo = math.Floor(lo/bin) * bin
	hi = math.Ceil(hi/bin) * bin
	span := hi - lo
	var levels []float64
	if span > 0 {
		for span/bin < 10 { // jmh.histogramBins
			bin /= 2
		}
		n := max(2, int(math.Ceil(span/bin)))
		for c := range n {
			levels = append(levels, lo+float64(c)*bin)
		}
	} else {
		levels = []float64{st.Min - ulp(st.Min), st.Max + ulp(st.Max)}
	}
	width := len(formatScore(hi))
	// MultisetStatistics.getHistogram: a value at or above the last level
	// is not counted, as in JMH.
	counts := make([]int64, len(levels)-1)
	c := 0
values:
	for _, bn := range all {
		for levels[c] > bn.Value || bn.Value >= levels[c+1] {
			c++
			if c > len(levels)-2 {
				break values
			}
		}
		counts[c] += bn.Count
	}
	for i := range counts {
		fmt.Fprintf(b, "    [%s, %s) = %d \n", padLeft(javaFixed(levels[i]), width), padLeft(javaFixed(levels[i+1]), width), counts[i])
	}
	fmt.Fprintf(b, "\n  Percentiles, %s:\n", m.Unit)
	for _, p := range []float64{0.00, 0.50, 0.90, 0.95, 0.99, 0.999, 0.9999, 0.99999, 0.999999, 1.0} {
		label := "p(" + javaF(p*100, 4) + ")"
		fmt.Fprintf(b, "    %11s = %s %s\n", label, padLeft(formatScore(binPercentile(all, st.Min, st.Max, p*100)), 10), m.Unit)
	}
}

// ulp is Java's Math.ulp for a finite double.
func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}
