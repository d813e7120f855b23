package warmup

import (
	"bufio"
	"compress/gzip"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPELTMatchesR compares PELT with R's changepoint package on the series
// of testdata/rcpt: model-clock, wall-clock and real-JVM runs of jitsim's
// studies in seconds per operation with outliers deleted, as warmup_stats
// feeds cpt.meanvar, plus constant, plateau and short noisy series. R's
// answers (answers.tsv) were computed by driver.R with the versions its
// header names; testdata/rcpt/README.md says how to recompute them. No R is
// needed here.
func TestPELTMatchesR(t *testing.T) {
	series := readRSeries(t, "testdata/rcpt/series.tsv.gz")
	answers := readRAnswers(t, "testdata/rcpt/answers.tsv")
	perSource := map[string]int{}
	for _, s := range series {
		want, ok := answers[s.id]
		if !ok {
			t.Fatalf("no R answer for %s", s.id)
		}
		perSource[strings.SplitN(s.id, "/", 2)[0]]++
		got, err := PELT(s.x, s.pen, s.minSeg)
		if err != nil {
			t.Errorf("%s: %v", s.id, err)
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (n=%d): PELT %v, R %v", s.id, len(s.x), got, want)
		}
	}
	for _, src := range []string{"model", "wall", "jvm"} {
		if perSource[src] < 100 {
			t.Errorf("%d %s series, want at least 100", perSource[src], src)
		}
	}
	t.Logf("series per source: %v", perSource)
}

type rSeries struct {
	id     string
	minSeg int
	pen    float64
	x      []float64
}

func readRSeries(t *testing.T, name string) []rSeries {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	var out []rSeries
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			t.Fatalf("%s:%d: %d fields, want 4", name, line, len(f))
		}
		s := rSeries{id: f[0]}
		if s.minSeg, err = strconv.Atoi(f[1]); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		if f[2] != "" {
			if s.pen, err = strconv.ParseFloat(f[2], 64); err != nil {
				t.Fatalf("%s:%d: %v", name, line, err)
			}
		}
		for _, v := range strings.Fields(f[3]) {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, line, err)
			}
			s.x = append(s.x, x)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func readRAnswers(t *testing.T, name string) map[string][]int {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]int{}
	for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		id, cps, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s:%d: no tab", name, i+1)
		}
		var v []int
		for _, c := range strings.Fields(cps) {
			n, err := strconv.Atoi(c)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			v = append(v, n)
		}
		out[id] = v
	}
	return out
}
