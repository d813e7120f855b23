package bench

import (
	"bytes"
	"strings"
	"testing"
)

// The tests in this file pin what JMH 1.37's result-format writers
// (org.openjdk.jmh.results.format: CSVResultFormat and XSVResultFormat,
// TextResultFormat, LaTeXResultFormat, JSONResultFormat, and the
// ScoreFormatter they share) produce, each fact stated on its own so that
// it holds whatever the goldens in testdata/formats say. The goldens pin
// jitsim's whole output; these tests say which parts of it are JMH's.

// factsRun has two results whose parameters differ in name and whose
// values need quoting in one delimiter or the other, secondary metrics
// given out of label order, and no result with more than two samples, so
// every error is missing.
func factsRun() []Result {
	return []Result{
		{Benchmark: "a.B.m", Mode: Throughput, Threads: 2,
			Params:  []Param{{"zeta", "1"}, {"alpha", "x y"}},
			Primary: Metric{Unit: "ops/s", RawData: [][]float64{{1.5}, {2.25}}},
			Secondary: []NamedMetric{
				{Label: "gc.count", Metric: Metric{Unit: "counts", RawData: [][]float64{{2}}}},
				{Label: "alloc", Metric: Metric{Unit: "MB/sec", RawData: [][]float64{{3}}}},
			}},
		{Benchmark: "a.B.n", Mode: AverageTime, Threads: 1,
			Params:  []Param{{"mid", `say "hi"`}, {"alpha", "a,b"}},
			Primary: Metric{Unit: "us/op", RawData: [][]float64{{0.5}}}},
	}
}

// CSV and SCSV: a header of seven always-quoted column names, then one
// quoted "Param: NAME" column per parameter name of any result, sorted by
// name. Each record ends in CRLF. Benchmark (with ":label" for a secondary
// metric, labels in sorted order), mode and unit are always quoted;
// threads, samples, numbers and parameter values only when they hold the
// delimiter, a blank, a double quote or a line break, a quote doubled
// inside. Score and error are printed as Java's %f, six decimals, and a
// missing error as NaN. A result without a parameter leaves its field
// empty. SCSV is the same with ';' between fields.
func TestCSVFactsFromJMH(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		write      func(*bytes.Buffer) error
	}{
		{"csv", `"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: alpha","Param: mid","Param: zeta"` + "\r\n" +
			`"a.B.m","thrpt",2,2,1.875000,NaN,"ops/s","x y",,1` + "\r\n" +
			`"a.B.m:alloc","thrpt",2,1,3.000000,NaN,"MB/sec","x y",,1` + "\r\n" +
			`"a.B.m:gc.count","thrpt",2,1,2.000000,NaN,"counts","x y",,1` + "\r\n" +
			`"a.B.n","avgt",1,1,0.500000,NaN,"us/op","a,b","say ""hi""",` + "\r\n",
			func(b *bytes.Buffer) error { return WriteCSV(b, factsRun()) }},
		{"scsv", `"Benchmark";"Mode";"Threads";"Samples";"Score";"Score Error (99.9%)";"Unit";"Param: alpha";"Param: mid";"Param: zeta"` + "\r\n" +
			`"a.B.m";"thrpt";2;2;1.875000;NaN;"ops/s";"x y";;1` + "\r\n" +
			`"a.B.m:alloc";"thrpt";2;1;3.000000;NaN;"MB/sec";"x y";;1` + "\r\n" +
			`"a.B.m:gc.count";"thrpt";2;1;2.000000;NaN;"counts";"x y";;1` + "\r\n" +
			`"a.B.n";"avgt";1;1;0.500000;NaN;"us/op";a,b;"say ""hi""";` + "\r\n",
			func(b *bytes.Buffer) error { return WriteSCSV(b, factsRun()) }},
		// In a locale with a decimal comma, JMH prints the numbers (and the
		// "99,9%" of the header) with a comma: csv must then quote them,
		// scsv need not. jitsim writes these variants only in tests.
		{"csv, decimal comma", `"Benchmark","Mode","Threads","Samples","Score","Score Error (99,9%)","Unit","Param: alpha","Param: mid","Param: zeta"` + "\r\n" +
			`"a.B.m","thrpt",2,2,"1,875000",NaN,"ops/s","x y",,1` + "\r\n",
			func(b *bytes.Buffer) error { return writeXSV(b, factsRun(), ",", true) }},
		{"scsv, decimal comma", `"Benchmark";"Mode";"Threads";"Samples";"Score";"Score Error (99,9%)";"Unit";"Param: alpha";"Param: zeta"` + "\r\n" +
			`"a.B.m";"thrpt";2;2;1,875000;NaN;"ops/s";"x y";1` + "\r\n",
			func(b *bytes.Buffer) error {
				r := factsRun()[0]
				r.Secondary = nil
				return writeXSV(b, []Result{r}, ";", true)
			}},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if tc.name == "csv, decimal comma" {
			got = strings.Join(strings.SplitAfter(got, "\r\n")[:2], "")
		}
		if got != tc.want {
			t.Errorf("%s:\ngot\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}

// A three-sample result has an error, printed with six decimals too.
func TestCSVRecordsEndInCRLF(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []Result{docResult()}); err != nil {
		t.Fatal(err)
	}
	want := `"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: dataSize","Param: keyLength","Param: provider"` + "\r\n" +
		`"org.openjdk.bench.javax.crypto.full.AESGCMBench.encrypt","thrpt",1,10,123455.450000,1185.489147,"ops/s",1024,128,` + "\r\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

// LaTeX with one unit: a tabular of "r|", one "l|" per parameter name
// (sorted), then "rl"; the unit goes into the score's heading, which spans
// two columns. Names are made dense as in the text table, and '_', '#',
// '{' and '}' escaped, in names and in parameter values; a result without
// a parameter has an empty cell. Scores have three decimals; the error
// follows as "\scriptsize $\pm$" and three decimals when there is one,
// and is left out (an empty cell) when it is missing. The table does not
// end in a newline. With a decimal comma, both numbers take it.
func TestLaTeXSingleUnitFromJMH(t *testing.T) {
	rs := []Result{
		{Benchmark: "a.X.run_fast", Mode: Throughput, Params: []Param{{"beta", "#2"}, {"alpha", "{1}"}},
			Primary:   Metric{Unit: "ops/s", RawData: [][]float64{{10, 12, 14}}},
			Secondary: []NamedMetric{{Label: "gc", Metric: Metric{Unit: "ops/s", RawData: [][]float64{{3}}}}}},
		{Benchmark: "a.X.slow", Mode: Throughput, Params: []Param{{"alpha", "2"}},
			Primary: Metric{Unit: "ops/s", RawData: [][]float64{{7.25}}}},
	}
	want := `\begin{tabular}{r|l|l|rl}` + "\n" +
		` \multicolumn{1}{c|}{\texttt{Benchmark}} & \texttt{alpha} & \texttt{beta} & \multicolumn{2}{c}{\texttt{Score, ops/s}} \\` + "\n" +
		`\hline` + "\n" +
		`\texttt{X.run\_fast} & \texttt{\{1\}} & \texttt{\#2} & \texttt{12.000} & \scriptsize $\pm$ \texttt{36.487}  \\` + "\n" +
		`\texttt{X.run\_fast:gc} & \texttt{\{1\}} & \texttt{\#2} & \texttt{3.000} &  \\` + "\n" +
		`\texttt{X.slow} & \texttt{2} & \texttt{} & \texttt{7.250} &  \\` + "\n" +
		`\end{tabular}`
	var b bytes.Buffer
	if err := WriteLaTeX(&b, rs); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	if err := writeLaTeX(&b, rs, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `\texttt{12,000} & \scriptsize $\pm$ \texttt{36,487}  \\`) {
		t.Errorf("decimal comma:\n%s", b.String())
	}
}

// LaTeX with mixed units: the score heading spans three columns, each row
// ends in its unit, and an approximate score is "$\approx 10^{n}$" with no
// error.
func TestLaTeXMixedUnitsAndApproximate(t *testing.T) {
	rs := []Result{
		{Benchmark: "a.X.m_1", Mode: AverageTime, Primary: Metric{Unit: "us/op", RawData: [][]float64{{0.0001}}}},
		{Benchmark: "a.X.n", Mode: Throughput, Primary: Metric{Unit: "ops/s", RawData: [][]float64{{10, 12, 14}}}},
	}
	var b bytes.Buffer
	if err := WriteLaTeX(&b, rs); err != nil {
		t.Fatal(err)
	}
	want := `\begin{tabular}{r|rll}` + "\n" +
		` \multicolumn{1}{c|}{\texttt{Benchmark}} & \multicolumn{3}{c}{\texttt{Score}} \\` + "\n" +
		`\hline` + "\n" +
		`\texttt{X.m\_1} & \texttt{$\approx 10^{-4}$} & & \texttt{us/op} \\` + "\n" +
		`\texttt{X.n} & \texttt{12.000} & \scriptsize $\pm$ \texttt{36.487} & \texttt{ops/s} \\` + "\n" +
		`\end{tabular}`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Text: dense names, left-aligned in a column as wide as the longest; one
// right-aligned "(name)" column per parameter name, sorted, "N/A" where a
// result lacks it; Mode, Cnt (blank for a single sample), Score with three
// decimals, "±" and the error (both blank when the error is missing) and
// Units, right-aligned, each of these columns two wider than its widest
// entry; secondary metrics as "name:label" rows after their result,
// labels sorted.
func TestTextFactsFromJMH(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, factsRun()); err != nil {
		t.Fatal(err)
	}
	want := "Benchmark     (alpha)     (mid)  (zeta)   Mode  Cnt  Score   Error   Units\n" +
		"B.m               x y       N/A       1  thrpt    2  1.875           ops/s\n" +
		"B.m:alloc         x y       N/A       1  thrpt       3.000          MB/sec\n" +
		"B.m:gc.count      x y       N/A       1  thrpt       2.000          counts\n" +
		"B.n               a,b  say \"hi\"     N/A   avgt       0.500           us/op\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// JSON: a top-level array, one object per result with its keys in a fixed
// order, one value per line, four blanks per level, `"key" : value`, a
// closing bracket on its own line (an empty list included); "params" is an
// object sorted by name; every metric has score, scoreError,
// scoreConfidence, the ten scorePercentiles keyed 0.0 … 100.0, scoreUnit
// and rawData with one array per fork; numbers are Java doubles
// (Double.toString) and a missing one is the string "NaN".
func TestJSONFactsFromJMH(t *testing.T) {
	r := Result{JMHVersion: "1.37", Benchmark: "a.B.m", Mode: Throughput, Threads: 1, Forks: 2,
		JVM: "jvm", JDKVersion: "17", VMName: "vm", VMVersion: "1",
		WarmupIterations: 1, WarmupTime: "1 s", WarmupBatchSize: 1,
		MeasurementIterations: 1, MeasurementTime: "1 s", MeasurementBatchSize: 1,
		Params:  []Param{{"b", "x y"}, {"a", `"q"`}},
		Primary: Metric{Unit: "ops/s", RawData: [][]float64{{1}, {3}}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Result{r}); err != nil {
		t.Fatal(err)
	}
	want := `[
    {
        "jmhVersion" : "1.37",
        "benchmark" : "a.B.m",
        "mode" : "thrpt",
        "threads" : 1,
        "forks" : 2,
        "jvm" : "jvm",
        "jvmArgs" : [
        ],
        "jdkVersion" : "17",
        "vmName" : "vm",
        "vmVersion" : "1",
        "warmupIterations" : 1,
        "warmupTime" : "1 s",
        "warmupBatchSize" : 1,
        "measurementIterations" : 1,
        "measurementTime" : "1 s",
        "measurementBatchSize" : 1,
        "params" : {
            "a" : "\"q\"",
            "b" : "x y"
        },
        "primaryMetric" : {
            "score" : 2.0,
            "scoreError" : "NaN",
            "scoreConfidence" : [
                "NaN",
                "NaN"
            ],
            "scorePercentiles" : {
                "0.0" : 1.0,
                "50.0" : 2.0,
                "90.0" : 3.0,
                "95.0" : 3.0,
                "99.0" : 3.0,
                "99.9" : 3.0,
                "99.99" : 3.0,
                "99.999" : 3.0,
                "99.9999" : 3.0,
                "100.0" : 3.0
            },
            "scoreUnit" : "ops/s",
            "rawData" : [
                [
                    1.0
                ],
                [
                    3.0
                ]
            ]
        },
        "secondaryMetrics" : {
        }
    }
]
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
