package warmup

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// PlotOptions shape the warm-up chart.
type PlotOptions struct {
	Title  string
	ByTime bool      // x axis: elapsed time on the run's clock (s) instead of iteration
	Width  vg.Length // 0: 10 in
	Height vg.Length // 0: 5.5 in
}

// shortMethod turns "com.sun.crypto.provider.AESCrypt::implEncryptBlock"
// into "AESCrypt::implEncryptBlock".
func shortMethod(m string) string {
	cls, meth, ok := strings.Cut(m, "::")
	if i := strings.LastIndex(cls, "."); i >= 0 {
		cls = cls[i+1:]
	}
	if ok {
		return cls + "::" + meth
	}
	return cls
}

// Chart builds the warm-up chart: time per op (µs) against iteration or
// elapsed time, one colour per option set (extra forks drawn thinner),
// the steady state of each option set's first fork shaded, and every tier
// transition of its hot methods marked by a dashed vertical line labelled
// with the method and the new level.
func Chart(runs []Run, s Summary, po PlotOptions) (*plot.Plot, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("warmup: chart: no runs")
	}
	if len(s.Runs) != len(runs) {
		return nil, fmt.Errorf("warmup: chart: summary has %d runs, series %d", len(s.Runs), len(runs))
	}
	p := plot.New()
	p.Title.Text = po.Title
	if po.ByTime {
		p.X.Label.Text = "elapsed time (s)"
	} else {
		p.X.Label.Text = "iteration"
	}
	p.Y.Label.Text = "time per op (µs)"
	p.Add(plotter.NewGrid())

	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		for _, v := range r.PerOp() {
			if v > 0 {
				lo, hi = min(lo, v*1e6), max(hi, v*1e6)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0.001, 1
	}
	logY := hi/lo > 20
	if logY {
		p.Y.Scale = plot.LogScale{}
		lo, hi = lo/1.25, hi*1.6
		p.Y.Tick.Marker = plot.ConstantTicks(ticks125(lo, hi))
	} else {
		lo, hi = 0, hi*1.15
	}
	p.Y.Min, p.Y.Max = lo, hi

	x := func(r Run, i int) float64 {
		if po.ByTime {
			return r.Iterations[i].Start.Seconds()
		}
		return float64(r.Iterations[i].Index)
	}
	colour := map[string]int{}
	seen := map[string]bool{}
	for ri, r := range runs {
		ci, ok := colour[r.Label]
		if !ok {
			ci = len(colour)
			colour[r.Label] = ci
		}
		col := plotutil.Color(ci)
		xys := make(plotter.XYs, 0, len(r.Iterations))
		for i, v := range r.PerOp() {
			y := v * 1e6
			if logY && y <= 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: x(r, i), Y: y})
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("warmup: chart: %s: %w", r.Label, err)
		}
		line.LineStyle.Color = col
		line.LineStyle.Width = vg.Points(1.2)
		if seen[r.Label] {
			line.LineStyle.Width = vg.Points(0.5)
		}
		first := !seen[r.Label]
		seen[r.Label] = true
		a := s.Runs[ri].Analysis
		if first && a.Steady && a.SteadyIter < len(r.Iterations) {
			// The steady state: a band of ±10 % around its mean, from the
			// first steady iteration to the end.
			x0, x1 := x(r, a.SteadyIter), x(r, len(r.Iterations)-1)
			y0, y1 := a.SteadyMean*1e6*0.9, a.SteadyMean*1e6*1.1
			if x1 > x0 && y0 > 0 {
				poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
				if err != nil {
					return nil, err
				}
				c := color.RGBAModel.Convert(col).(color.RGBA)
				poly.Color = color.NRGBA{R: c.R, G: c.G, B: c.B, A: 48}
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
		}
		p.Add(line)
		if first {
			p.Legend.Add(r.Label, line)
			if err := markTransitions(p, r, x, lo, hi, col); err != nil {
				return nil, err
			}
		}
	}
	p.Legend.Top = true
	return p, nil
}

// markTransitions draws installs (and OSR installs) of r's hot methods.
func markTransitions(p *plot.Plot, r Run, x func(Run, int) float64, lo, hi float64, col color.Color) error {
	hot := map[string]bool{}
	for _, m := range r.Methods {
		hot[m] = true
	}
	var pts plotter.XYs
	var labels []string
	for i, it := range r.Iterations {
		for _, e := range it.Events {
			if e.Kind != EventInstalled && e.Kind != EventOSR {
				continue
			}
			if len(hot) > 0 && !hot[e.Method] {
				continue
			}
			xv := x(r, i)
			l, err := plotter.NewLine(plotter.XYs{{X: xv, Y: lo}, {X: xv, Y: hi}})
			if err != nil {
				return err
			}
			l.LineStyle.Color = col
			l.LineStyle.Width = vg.Points(0.5)
			l.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(l)
			osr := ""
			if e.Kind == EventOSR {
				osr = "%"
			}
			// Labels step down the chart so that close transitions stay legible.
			frac := 0.97 - 0.06*float64(len(pts)%8)
			y := lo + frac*(hi-lo)
			if _, ok := p.Y.Scale.(plot.LogScale); ok {
				y = math.Exp(math.Log(lo) + frac*(math.Log(hi)-math.Log(lo)))
			}
			pts = append(pts, plotter.XY{X: xv, Y: y})
			labels = append(labels, fmt.Sprintf("%s L%d%s", shortMethod(e.Method), e.Level, osr))
		}
	}
	if len(pts) == 0 {
		return nil
	}
	ls, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
	if err != nil {
		return err
	}
	for i := range ls.TextStyle {
		ls.TextStyle[i].Font.Size = vg.Points(7)
		ls.TextStyle[i].Color = col
	}
	ls.Offset = vg.Point{X: vg.Points(2)}
	p.Add(ls)
	return nil
}

// WriteChart renders the chart as "png" or "svg" to w.
func WriteChart(w io.Writer, runs []Run, s Summary, po PlotOptions, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("warmup: chart format %q: want png or svg", format)
	}
	p, err := Chart(runs, s, po)
	if err != nil {
		return err
	}
	wd, ht := po.Width, po.Height
	if wd == 0 {
		wd = 10 * vg.Inch
	}
	if ht == 0 {
		ht = 5.5 * vg.Inch
	}
	wt, err := p.WriterTo(wd, ht, format)
	if err != nil {
		return fmt.Errorf("warmup: chart: %w", err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return fmt.Errorf("warmup: chart: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}

// ticks125 labels a log axis at 1, 2 and 5 times each power of ten in
// [lo, hi], with unlabelled minor ticks at the other integers.
func ticks125(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		p := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
