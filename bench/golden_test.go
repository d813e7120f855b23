package bench

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// goldenRun reads JMH 1.37's golden JSON (testdata/jmh-1.37): the run every
// golden file of JMH's ResultFormatTest holds.
func goldenRun(t *testing.T) []Result {
	t.Helper()
	f, err := os.Open("testdata/jmh-1.37/output-golden.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, err := ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// sameLines compares got with a golden file line by line, ignoring the
// line ends, as JMH's ResultFormatTest does. With tol > 0, numbers on a
// line may differ by that much relative: JMH's error comes from
// commons-math's t quantile, found by a solver to about 1e-9, and the full
// doubles in JSON show its last digits.
func sameLines(t *testing.T, golden string, got []byte, tol float64) {
	t.Helper()
	want, err := os.ReadFile("testdata/jmh-1.37/" + golden)
	if err != nil {
		t.Fatal(err)
	}
	split := func(b []byte) []string {
		s := strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
		return strings.Split(s, "\n")
	}
	g, w := split(got), split(want)
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl && !(tol > 0 && closeNumbers(gl, wl, tol)) {
			t.Errorf("%s line %d:\ngot  %q\nwant %q", golden, i+1, gl, wl)
			return
		}
	}
}

func TestFormatsMatchJMHGoldenFiles(t *testing.T) {
	rs := goldenRun(t)
	if len(rs) != 5 {
		t.Fatalf("%d results in JMH's golden JSON, want 5", len(rs))
	}
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer) error
		tol    float64
	}{
		{"output-golden.json", func(b *bytes.Buffer) error { return WriteJSON(b, rs) }, 1e-12},
		{"output-golden.text.root", func(b *bytes.Buffer) error { return WriteText(b, rs) }, 0},
		{"output-golden.csv.root", func(b *bytes.Buffer) error { return WriteCSV(b, rs) }, 0},
		{"output-golden.scsv.root", func(b *bytes.Buffer) error { return WriteSCSV(b, rs) }, 0},
		{"output-golden.latex.root", func(b *bytes.Buffer) error { return WriteLaTeX(b, rs) }, 0},
		// A decimal-comma locale: csv quotes the numbers, scsv need not.
		{"output-golden.csv.ru", func(b *bytes.Buffer) error { return writeXSV(b, rs, ",", true) }, 0},
		{"output-golden.scsv.ru", func(b *bytes.Buffer) error { return writeXSV(b, rs, ";", true) }, 0},
		{"output-golden.latex.ru", func(b *bytes.Buffer) error { return writeLaTeX(b, rs, true) }, 0},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			sameLines(t, tc.golden, b.Bytes(), tc.tol)
		})
	}
}

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

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"text", "CSV", "scsv", "Json", "LATEX"} {
		f, err := ParseFormat(s)
		if err != nil || !strings.EqualFold(string(f), s) {
			t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("tex"); err == nil {
		t.Error("ParseFormat(\"tex\"): no error")
	}
	if got := FormatLaTeX.DefaultFile(); got != "jmh-result.latex" {
		t.Errorf("DefaultFile = %q", got)
	}
}

// closeNumbers reports whether two lines are the same but for numbers
// within tol of each other, relative.
func closeNumbers(a, b string, tol float64) bool {
	if number.ReplaceAllString(a, "#") != number.ReplaceAllString(b, "#") {
		return false
	}
	na, nb := number.FindAllString(a, -1), number.FindAllString(b, -1)
	for i := range na {
		x, _ := strconv.ParseFloat(na[i], 64)
		y, _ := strconv.ParseFloat(nb[i], 64)
		if math.Abs(x-y) > tol*math.Max(math.Abs(x), math.Abs(y)) {
			return false
		}
	}
	return true
}
