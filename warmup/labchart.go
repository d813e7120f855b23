package warmup

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The lab's chart: per scored run, the time per op against iteration with
// the true steady start marked, and below it one row per warm-up setting:
// its warm-up as a thin grey bar, then the 10 iterations it measures,
// green when their mean is within 5 % of the true steady mean (Traini et
// al.'s tolerance) and red when not.

// labTolerance is the deviation under which a measured result counts as
// the steady state's (Traini et al.'s ±5 %).
const labTolerance = 0.05

// ErrNoLabRun is WriteLabChart's error when no run can be scored.
var ErrNoLabRun = errors.New("warmup: lab chart: no model-clock run leaves a tail long enough to score")

// LabFiles are the names of the lab's chart files beside WriteAll's.
var LabFiles = []string{"lab.png", "lab.svg"}

// maxLabPanels bounds the chart's height; later runs are left out.
const maxLabPanels = 8

var (
	labTrueColour = color.NRGBA{R: 0x20, G: 0x20, B: 0x20, A: 0xff}
	labWarmColour = color.NRGBA{R: 0xb0, G: 0xb0, B: 0xb0, A: 0xff}
	labGood       = color.NRGBA{R: 0x1a, G: 0x98, B: 0x50, A: 0xff}
	labBad        = color.NRGBA{R: 0xd7, G: 0x30, B: 0x27, A: 0xff}
	labCurveH     = 2.2 * vg.Inch
	labRowH       = vg.Points(15)
)

type labPanel struct {
	run    Run
	scores []Score
}

// labPanels are the model-clock runs the rules can be scored on.
func labPanels(runs []Run, rules []StopRule) []labPanel {
	var out []labPanel
	for _, r := range runs {
		if r.Clock != "model" {
			continue
		}
		if s, err := ScoreRun(r, rules); err == nil {
			out = append(out, labPanel{r, s})
		}
	}
	return out
}

// labPlots draws one panel's two plots: the curve and the settings.
func labPlots(pn labPanel, rules []StopRule) (curve, settings *plot.Plot, err error) {
	r := pn.run
	n := len(r.Iterations)
	x := r.PerOp()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return nil, nil, fmt.Errorf("warmup: lab chart: run %q fork %d has no positive time per op", r.Label, r.Fork)
	}
	unit, f := timeUnit(lo)
	curve = plot.New()
	curve.Title.Text = fmt.Sprintf("%s, fork %d: true steady state from iteration %d", r.Label, r.Fork, pn.scores[0].TrueIter)
	curve.Title.TextStyle.Font.Size = vg.Points(11)
	curve.Y.Label.Text = "time per op (" + unit + ")"
	curve.X.Tick.Marker = linearTicks{n: 10, integer: true}
	curve.X.Min, curve.X.Max = -0.5, float64(n)-0.5
	if hi/lo > 20 {
		curve.Y.Scale = plot.LogScale{}
		curve.Y.Min, curve.Y.Max = lo*f/1.25, hi*f*1.6
		curve.Y.Tick.Marker = plot.ConstantTicks(logTicks(curve.Y.Min, curve.Y.Max))
	} else {
		curve.Y.Min, curve.Y.Max = 0, hi*f*1.15
		curve.Y.Tick.Marker = linearTicks{n: 5}
	}
	curve.Add(plotter.NewGrid())
	xys := make(plotter.XYs, 0, n)
	for i, v := range x {
		if v > 0 {
			xys = append(xys, plotter.XY{X: float64(i), Y: v * f})
		}
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, nil, fmt.Errorf("warmup: lab chart: %w", err)
	}
	line.LineStyle.Width = vg.Points(1.4)
	line.LineStyle.Color = color.NRGBA{R: 0x21, G: 0x66, B: 0xac, A: 0xff}
	curve.Add(line)
	trueX := float64(pn.scores[0].TrueIter) - 0.5
	if err := addVLine(curve, trueX, curve.Y.Min, curve.Y.Max); err != nil {
		return nil, nil, err
	}

	settings = plot.New()
	settings.X.Label.Text = "iteration (grey: warm-up; then the 10 measured, green within 5 % of the true steady mean, red not; black: true steady start)"
	settings.X.Label.TextStyle.Font.Size = vg.Points(8)
	settings.X.Tick.Marker = linearTicks{n: 10, integer: true}
	settings.X.Min, settings.X.Max = curve.X.Min, curve.X.Max
	settings.Y.Min, settings.Y.Max = -0.6, float64(len(pn.scores))-0.4
	var names []string
	for k, s := range pn.scores {
		y := float64(len(pn.scores) - 1 - k)
		names = append([]string{s.Rule}, names...)
		if s.Warmup > 0 {
			if err := addHBar(settings, -0.5, float64(s.Warmup)-0.5, y, labWarmColour, vg.Points(3)); err != nil {
				return nil, nil, err
			}
		}
		if !s.NeverEnded && !math.IsNaN(s.Deviation) {
			c := labBad
			if s.Deviation <= labTolerance {
				c = labGood
			}
			if err := addHBar(settings, float64(s.Warmup)-0.5, float64(s.Warmup+measureIters)-0.5, y, c, vg.Points(8)); err != nil {
				return nil, nil, err
			}
		}
	}
	settings.NominalY(names...)
	settings.Y.Min, settings.Y.Max = -0.6, float64(len(pn.scores))-0.4
	if err := addVLine(settings, trueX, settings.Y.Min, settings.Y.Max); err != nil {
		return nil, nil, err
	}
	return curve, settings, nil
}

func addVLine(p *plot.Plot, x, y0, y1 float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return fmt.Errorf("warmup: lab chart: %w", err)
	}
	l.LineStyle.Color = labTrueColour
	l.LineStyle.Width = vg.Points(1.2)
	l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(l)
	return nil
}

func addHBar(p *plot.Plot, x0, x1, y float64, c color.Color, w vg.Length) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return fmt.Errorf("warmup: lab chart: %w", err)
	}
	l.LineStyle.Color = c
	l.LineStyle.Width = w
	p.Add(l)
	return nil
}

// WriteLabChart renders the lab's chart as "png" or "svg" to w: a panel
// per scored model-clock run (at most 8). It is ErrNoLabRun when no run
// can be scored.
func WriteLabChart(w io.Writer, runs []Run, rules []StopRule, title, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("warmup: lab chart format %q: want png or svg", format)
	}
	panels := labPanels(runs, rules)
	if len(panels) == 0 {
		return ErrNoLabRun
	}
	omitted := max(len(panels)-maxLabPanels, 0)
	panels = panels[:len(panels)-omitted]
	settingsH := vg.Length(len(rules))*labRowH + vg.Points(36)
	// plot.Align tiles rows of one height: the curve's and the settings'.
	panelH := 2*max(labCurveH, settingsH) + vg.Points(12)
	titleH := vg.Points(28)
	cw, err := draw.NewFormattedCanvas(10*vg.Inch, titleH+vg.Length(len(panels))*panelH, format)
	if err != nil {
		return fmt.Errorf("warmup: lab chart: %w", err)
	}
	dc := draw.New(cw)
	dc.FillPolygon(color.White, []vg.Point{{X: dc.Min.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Max.Y}, {X: dc.Min.X, Y: dc.Max.Y}})
	head := "Stopping-criteria lab"
	if title != "" {
		head = title + ": stopping-criteria lab"
	}
	if omitted > 0 {
		head += fmt.Sprintf(" (%d more runs in the table)", omitted)
	}
	ts := chartText(vg.Points(12))
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
	dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(6)}, head)
	top := dc.Max.Y - titleH
	for _, pn := range panels {
		curve, settings, err := labPlots(pn, rules)
		if err != nil {
			return err
		}
		// Aligned, the two plots' data areas share their x extent although
		// the settings' names are wider than the curve's y ticks.
		c := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: dc.Min.X, Y: top - panelH}, Max: vg.Point{X: dc.Max.X, Y: top}}}
		cs := plot.Align([][]*plot.Plot{{curve}, {settings}}, draw.Tiles{Rows: 2, Cols: 1, PadX: vg.Points(8), PadY: vg.Points(2), PadTop: vg.Points(4), PadBottom: vg.Points(8), PadLeft: vg.Points(4), PadRight: vg.Points(12)}, c)
		curve.Draw(cs[0][0])
		settings.Draw(cs[1][0])
		top -= panelH
	}
	var b bytes.Buffer
	if _, err := cw.WriteTo(&b); err != nil {
		return fmt.Errorf("warmup: lab chart: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}
