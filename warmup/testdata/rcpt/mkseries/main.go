// Command mkseries turns warm-up studies (series.json) into the series file
// the R changepoint goldens are computed from: one line per run, the run's
// time per operation in seconds with warmup_stats's outliers deleted, as
// warmup.Analyze hands it to PELT. Values are written as hexadecimal floats
// so that R reads the same bits.
//
//	go run ./warmup/testdata/rcpt/mkseries -o series.tsv.gz SOURCE=DIR...
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/warmup"
)

func main() {
	out := flag.String("o", "", "output file (.tsv.gz)")
	flag.Parse()
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkseries:", err)
		os.Exit(1)
	}
}

func run(out string, dirs []string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	fmt.Fprintln(zw, "# id\tminseglen\tpenalty\tseconds per op (hex), outliers deleted")
	for _, arg := range dirs {
		study := filepath.Base(arg)
		name := filepath.Join(arg, "series.json")
		r, err := os.Open(name)
		if err != nil {
			return err
		}
		runs, err := warmup.ReadJSON(r, name)
		r.Close()
		if err != nil {
			return err
		}
		for _, run := range runs {
			x := run.PerOp()
			drop := map[int]bool{}
			for _, i := range warmup.Outliers(x, 0) {
				drop[i] = true
			}
			var vals []string
			for i, v := range x {
				if !drop[i] {
					vals = append(vals, strconv.FormatFloat(v, 'x', -1, 64))
				}
			}
			source := "wall"
			switch {
			case strings.HasPrefix(run.Label, "java: "):
				source = "jvm"
			case run.Clock == "model":
				source = "model"
			}
			label := strings.NewReplacer(" ", "_", "\t", "_").Replace(run.Label)
			fmt.Fprintf(zw, "%s/%s/%s/%d\t2\t\t%s\n", source, study, label, run.Fork, strings.Join(vals, " "))
		}
	}
	for _, c := range synthetic() {
		vals := make([]string, len(c.x))
		for i, v := range c.x {
			vals[i] = strconv.FormatFloat(v, 'x', -1, 64)
		}
		pen := ""
		if c.pen > 0 {
			pen = strconv.FormatFloat(c.pen, 'x', -1, 64)
		}
		fmt.Fprintf(zw, "synth/%s\t%d\t%s\t%s\n", c.id, c.minSeg, pen, strings.Join(vals, " "))
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

type synth struct {
	id     string
	minSeg int
	pen    float64 // 0: 15·ln n
	x      []float64
}

// synthetic are the edge cases beside the studies: exact and near-constant
// plateaus in several units, and short noisy step series with a small
// penalty and longer minimum segments, where R's pruning differs from an
// exhaustive search.
func synthetic() []synth {
	var out []synth
	rep := func(v float64, n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = v
		}
		return x
	}
	cat := func(p ...[]float64) []float64 {
		var x []float64
		for _, q := range p {
			x = append(x, q...)
		}
		return x
	}
	for _, v := range []float64{0.1, 1e-6, 3e-6, 1.7e-9, 1, 12345.678} {
		out = append(out, synth{fmt.Sprintf("constant-%g", v), 2, 0, rep(v, 60)})
		out = append(out, synth{fmt.Sprintf("plateaus-%g", v), 2, 0, cat(rep(3*v, 20), rep(v, 80))})
		out = append(out, synth{fmt.Sprintf("plateaus3-%g", v), 2, 0, cat(rep(5*v, 7), rep(2*v, 33), rep(v, 60))})
		j := rep(v, 90)
		r := rand.New(rand.NewPCG(uint64(len(out)), 3))
		for i := range j {
			for range r.IntN(3) {
				j[i] = math.Nextafter(j[i], 2*v)
			}
		}
		out = append(out, synth{fmt.Sprintf("ulp-jitter-%g", v), 2, 0, j})
		k := rep(v, 90)
		for i := 30; i < 90; i += 7 {
			k[i] = v * 1.001
		}
		out = append(out, synth{fmt.Sprintf("sparse-bumps-%g", v), 2, 0, k})
	}
	for _, minSeg := range []int{2, 3, 5} {
		for seed := uint64(0); seed < 20; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			var x []float64
			for _, p := range [][2]float64{{2, 7}, {1, 9}, {1.5, 8}} {
				for range int(p[1]) {
					x = append(x, p[0]*(1+0.1*r.NormFloat64()))
				}
			}
			out = append(out, synth{fmt.Sprintf("steps-m%d-s%d", minSeg, seed), minSeg, 3, x})
		}
	}
	return out
}
