package bench

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteResultBlock writes the block JMH prints after all forks of one
// benchmark (TextReportFormat.endBenchmark):
//
//	Result "org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt":
//	  123455.450 ±(99.9%) 1185.489 ops/s [Average]
//	  (min, avg, max) = (121900.500, 123455.450, 124600.800), stdev = 784.128
//	  CI (99.9%): [122269.961, 124640.939] (assumes normal distribution)
//
// With too few samples for an error (N ≤ 2), or a score too small to
// print, only the mean is written, without "±" (Result.simpleExtendedInfo
// in JMH 1.37).
//
// A sample-time result gets JMH's distribution block instead: the count of
// operations, the mean, a histogram and the percentiles (none for two
// operations or fewer).
//
// Each secondary result (a profiler's) follows, after a blank line, as
// "Secondary result "BENCHMARK:LABEL":" and the same block, its policy in
// the brackets: [Sum] and [Maximum] have no error, so "±" is JMH's
// smallest (0.001) and the interval is the score alone.
func WriteResultBlock(w io.Writer, r Result) error {
	var b strings.Builder
	if len(r.Primary.Histogram) > 0 {
		var d strings.Builder
		writeDistribution(&d, r.Primary)
		if d.Len() > 0 {
			fmt.Fprintf(&b, "Result %q:\n%s", r.Benchmark, d.String())
		}
	} else {
		fmt.Fprintf(&b, "Result %q:\n", r.Benchmark)
		writeExtendedInfo(&b, r.Primary)
	}
	sec := append([]NamedMetric(nil), r.Secondary...)
	sort.SliceStable(sec, func(i, j int) bool { return sec[i].Label < sec[j].Label })
	for _, s := range sec {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Secondary result %q:\n", r.Benchmark+":"+s.Label)
		writeExtendedInfo(&b, s.Metric)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeExtendedInfo is JMH 1.37's Result.simpleExtendedInfo of m.
func writeExtendedInfo(b *strings.Builder, m Metric) {
	st := m.Stats()
	if st.N <= 2 || isApproximate(st.Score) {
		fmt.Fprintf(b, "  %s %s\n", formatScore(st.Mean), m.Unit)
		return
	}
	fmt.Fprintf(b, "  %s ±(99.9%%) %s %s [%s]\n", formatScore(st.Score), formatError((st.ConfHigh-st.ConfLow)/2), m.Unit, m.Policy.Label())
	fmt.Fprintf(b, "  (min, avg, max) = (%s, %s, %s), stdev = %s\n",
		formatScore(st.Min), formatScore(st.Mean), formatScore(st.Max), formatError(st.Stdev))
	fmt.Fprintf(b, "  CI (99.9%%): [%s, %s] (assumes normal distribution)\n", formatScore(st.ConfLow), formatScore(st.ConfHigh))
}

// WriteForkHeader writes the lines JMH prints before each fork of a
// benchmark (the "# …" preamble of its console output), from r's settings:
// version, VM, options, warm-up and measurement, threads, mode, benchmark,
// parameters, then "# Fork: i of n". The "# Run progress" line needs the
// harness's ETA and is left to it.
func WriteForkHeader(w io.Writer, r Result, fork int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# JMH version: %s\n", r.JMHVersion)
	fmt.Fprintf(&b, "# VM version: JDK %s, %s, %s\n", r.JDKVersion, r.VMName, r.VMVersion)
	opts := strings.Join(r.JVMArgs, " ")
	if opts == "" {
		opts = "<none>"
	}
	fmt.Fprintf(&b, "# VM options: %s\n", opts)
	phase := func(n int, t string) string {
		if n == 0 {
			return "<none>"
		}
		return fmt.Sprintf("%d iterations, %s each", n, t)
	}
	fmt.Fprintf(&b, "# Warmup: %s\n", phase(r.WarmupIterations, r.WarmupTime))
	fmt.Fprintf(&b, "# Measurement: %s\n", phase(r.MeasurementIterations, r.MeasurementTime))
	threads := "1 thread"
	if r.Threads != 1 {
		threads = fmt.Sprintf("%d threads", r.Threads)
	}
	fmt.Fprintf(&b, "# Threads: %s, will synchronize iterations\n", threads)
	fmt.Fprintf(&b, "# Benchmark mode: %s\n", r.Mode.Label())
	fmt.Fprintf(&b, "# Benchmark: %s\n", r.Benchmark)
	if ps := r.sortedParams(); len(ps) > 0 {
		parts := make([]string, len(ps))
		for i, p := range ps {
			parts[i] = p.Name + " = " + p.Value
		}
		fmt.Fprintf(&b, "# Parameters: (%s)\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "\n# Fork: %d of %d\n", fork, r.Forks)
	_, err := io.WriteString(w, b.String())
	return err
}

// IterationLine is one JMH iteration line, "# Warmup Iteration   1: 98765.432
// ops/s" or "Iteration   1: 121900.500 ops/s" (the index right-aligned in
// three columns, 1-based).
func IterationLine(warmup bool, i int, score float64, unit string) string {
	prefix := "Iteration"
	if warmup {
		prefix = "# Warmup Iteration"
	}
	return fmt.Sprintf("%s %3d: %s %s", prefix, i, formatScore(score), unit)
}
