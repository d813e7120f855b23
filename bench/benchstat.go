package bench

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// unitNanos is the length of each JMH time unit in nanoseconds.
var unitNanos = map[string]float64{"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "m": 60e9, "hr": 3600e9}

// nsPerOp converts one score of metric unit u in mode m to nanoseconds per
// operation: thrpt scores are "ops/<time unit>", the others "<time unit>/op".
func nsPerOp(m Mode, unit string, score float64) (float64, error) {
	if m == Throughput {
		tu, ok := strings.CutPrefix(unit, "ops/")
		if !ok {
			return 0, fmt.Errorf("throughput unit %q is not ops/<time unit>", unit)
		}
		ns, ok := unitNanos[tu]
		if !ok {
			return 0, fmt.Errorf("unknown time unit %q in %q", tu, unit)
		}
		return ns / score, nil
	}
	tu, ok := strings.CutSuffix(unit, "/op")
	if !ok {
		return 0, fmt.Errorf("time unit %q is not <time unit>/op", unit)
	}
	ns, ok := unitNanos[tu]
	if !ok {
		return 0, fmt.Errorf("unknown time unit %q in %q", tu, unit)
	}
	return score * ns, nil
}

// BenchstatName is the Go benchmark name of a result: "Benchmark", the
// dense JMH name, one "/name=value" per parameter in name order (blanks
// replaced by '_', as a Go benchmark name has no spaces) and "-threads",
// the place Go puts GOMAXPROCS.
func BenchstatName(r Result, dense string) string {
	var b strings.Builder
	b.WriteString("Benchmark")
	b.WriteString(clean(dense))
	for _, p := range r.sortedParams() {
		b.WriteString("/" + clean(p.Name) + "=" + clean(p.Value))
	}
	b.WriteString("-" + strconv.Itoa(max(r.Threads, 1)))
	return b.String()
}

func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return '_'
		}
		return r
	}, s)
}

// WriteBenchstat writes results in the Go benchmark format
// (golang.org/design/14313-benchmark-format) so benchstat can compare two
// runs: the config lines in config (sorted by key, e.g. "goos", "cpu",
// "jdk"), then one line per measurement iteration of every fork —
//
//	BenchmarkAESGCMBench.encrypt/dataSize=1024-1  1  8100.2 ns/op  126.42 MB/s
//
// with the iteration count set to the batch size, the score converted to
// ns/op, and MB/s added when bytesPerOp (keyed by benchmark name) is known.
// exact says the scores carry no measurement noise (a deterministic
// clock): each unit then gets the metadata line "Unit ns/op assume=exact"
// (golang.org/design/14313-benchmark-format, unit metadata), which tells
// benchstat to compare the values as they are rather than test them.
func WriteBenchstat(w io.Writer, results []Result, config map[string]string, bytesPerOp map[string]int64, exact bool) error {
	keys := make([]string, 0, len(config))
	for k := range config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if k == "" || strings.ContainsAny(k, " \t:") || strings.ToLower(k[:1]) != k[:1] {
			return fmt.Errorf("bench: benchstat config key %q must be lower-case-first with no blanks or colons", k)
		}
		fmt.Fprintf(&b, "%s: %s\n", k, strings.ReplaceAll(config[k], "\n", " "))
	}
	if exact {
		b.WriteString("Unit ns/op assume=exact\n")
		if len(bytesPerOp) > 0 {
			b.WriteString("Unit MB/s assume=exact\n")
		}
	}
	var names []string
	for _, r := range results {
		names = append(names, r.Benchmark)
	}
	dense := DenseNames(names)
	for _, r := range results {
		if err := r.Validate(); err != nil {
			return err
		}
		name := BenchstatName(r, dense[r.Benchmark])
		n := max(r.MeasurementBatchSize, 1)
		for _, fork := range r.Primary.RawData {
			for _, score := range fork {
				ns, err := nsPerOp(r.Mode, r.Primary.Unit, score)
				if err != nil {
					return fmt.Errorf("bench: %s: %v", r.Benchmark, err)
				}
				fmt.Fprintf(&b, "%s \t%d\t%s ns/op", name, n, strconv.FormatFloat(ns, 'f', -1, 64))
				if bpo := bytesPerOp[r.Benchmark]; bpo > 0 && ns > 0 {
					fmt.Fprintf(&b, "\t%s MB/s", strconv.FormatFloat(float64(bpo)/ns*1e3, 'f', 2, 64))
				}
				b.WriteByte('\n')
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("bench: writing benchstat lines: %w", err)
	}
	return nil
}
