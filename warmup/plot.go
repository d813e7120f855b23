package warmup

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotOptions shape the warm-up chart.
type PlotOptions struct {
	Title  string
	ByTime bool      // x axis: elapsed time on the run's clock (ms or s) instead of iteration
	Width  vg.Length // 0: 10 in
	Height vg.Length // 0: 5 in for the curves plus the lanes and the legend
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

// chartAxes are the warm-up chart's x and y mappings: iteration or
// elapsed time on x, time per op in a unit that keeps the numbers ≥ 1 on y.
type chartAxes struct {
	byTime           bool
	xUnit, yUnit     string
	xFactor, yFactor float64
}

func newChartAxes(runs []Run, po PlotOptions) chartAxes {
	a := chartAxes{byTime: po.ByTime}
	lo, span := math.Inf(1), 0.0
	for _, r := range runs {
		for _, v := range r.PerOp() {
			if v > 0 {
				lo = min(lo, v)
			}
		}
		last := r.Iterations[len(r.Iterations)-1]
		span = max(span, (last.Start + last.Duration).Seconds())
	}
	if math.IsInf(lo, 1) {
		lo = 1e-6
	}
	a.yUnit, a.yFactor = timeUnit(lo)
	if po.ByTime {
		a.xUnit, a.xFactor = spanUnit(span)
	}
	return a
}

// x is where iteration i of r sits on the x axis.
func (a chartAxes) x(r Run, i int) float64 {
	if a.byTime {
		return r.Iterations[i].Start.Seconds() * a.xFactor
	}
	return float64(r.Iterations[i].Index)
}

// span is the stretch of the x axis iteration i of r covers.
func (a chartAxes) span(r Run, i int) (float64, float64) {
	if a.byTime {
		it := r.Iterations[i]
		return it.Start.Seconds() * a.xFactor, (it.Start + it.Duration).Seconds() * a.xFactor
	}
	x := float64(r.Iterations[i].Index)
	return x - 0.5, x + 0.5
}

// at is where an event of iteration i of r, at time t, sits on the x axis.
func (a chartAxes) at(r Run, i int, t time.Duration) float64 {
	if a.byTime {
		return t.Seconds() * a.xFactor
	}
	return float64(r.Iterations[i].Index)
}

// Chart builds the warm-up chart's curves: time per op against iteration or
// elapsed time, one colour pair per option set (jitsim's curve solid, the
// real JVM's dashed in the lighter shade), extra forks thinner, the steady
// state of each option set's first fork shaded. WriteChart adds the
// numbered changepoint marks above the curves and, below them, the tier
// lanes, the legend and the caption that lists each mark's VM events.
func Chart(runs []Run, s Summary, po PlotOptions) (*plot.Plot, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("warmup: chart: no runs")
	}
	if len(s.Runs) != len(runs) {
		return nil, fmt.Errorf("warmup: chart: summary has %d runs, series %d", len(s.Runs), len(runs))
	}
	ax := newChartAxes(runs, po)
	p := plot.New()
	p.Title.Text = po.Title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Title.Padding = vg.Points(8)
	if po.ByTime {
		p.X.Label.Text = "elapsed time on the run's clock (" + ax.xUnit + ")"
		p.X.Tick.Marker = linearTicks{n: 10}
	} else {
		p.X.Label.Text = "iteration"
		p.X.Tick.Marker = linearTicks{n: 10, integer: true}
	}
	p.Y.Label.Text = "time per op (" + ax.yUnit + ")"
	p.X.Label.Padding = axisLabelGap
	p.Add(plotter.NewGrid())

	lo, hi := math.Inf(1), math.Inf(-1)
	xmax := 0.0
	for _, r := range runs {
		for i, v := range r.PerOp() {
			if v > 0 {
				lo, hi = min(lo, v*ax.yFactor), max(hi, v*ax.yFactor)
			}
			_, x1 := ax.span(r, i)
			xmax = max(xmax, x1)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0.001, 1
	}
	logY := hi/lo > 20
	if logY {
		p.Y.Scale = plot.LogScale{}
		lo, hi = lo/1.25, hi*1.6
		p.Y.Tick.Marker = plot.ConstantTicks(logTicks(lo, hi))
	} else {
		lo, hi = 0, hi*1.15
		p.Y.Tick.Marker = linearTicks{n: 6}
	}
	p.Y.Min, p.Y.Max = lo, hi
	p.X.Min, p.X.Max = 0, xmax
	if !po.ByTime {
		p.X.Min = -0.5
	}

	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = r.Label
	}
	colours := setColours(labels)
	seen := map[string]bool{}
	for ri, r := range runs {
		col := labelColour(colours, r.Label)
		xys := make(plotter.XYs, 0, len(r.Iterations))
		for i, v := range r.PerOp() {
			y := v * ax.yFactor
			if logY && y <= 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: ax.x(r, i), Y: y})
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("warmup: chart: %s: %w", r.Label, err)
		}
		line.LineStyle.Color = col
		line.LineStyle.Width = vg.Points(1.6)
		if isJVM(r.Label) {
			line.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
		}
		first := !seen[r.Label]
		if !first {
			line.LineStyle.Width = vg.Points(0.6)
		}
		seen[r.Label] = true
		a := s.Runs[ri].Analysis
		if first && a.Steady && a.SteadyIter < len(r.Iterations) {
			// The steady state: a band of ±10 % around its mean, from the
			// first steady iteration to the end.
			x0, x1 := ax.x(r, a.SteadyIter), ax.x(r, len(r.Iterations)-1)
			y0, y1 := a.SteadyMean*ax.yFactor*0.9, a.SteadyMean*ax.yFactor*1.1
			if x1 > x0 && y0 > 0 {
				poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
				if err != nil {
					return nil, err
				}
				c := color.NRGBAModel.Convert(col).(color.NRGBA)
				poly.Color = color.NRGBA{R: c.R, G: c.G, B: c.B, A: 40}
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
		}
		p.Add(line)
	}
	return p, nil
}

// labelsOf lists the option sets of a summary in order.
func labelsOf(s Summary) []string {
	out := make([]string, len(s.Labels))
	for i, l := range s.Labels {
		out[i] = l.Label
	}
	return out
}

// laneRows is how many rows the strip has: a lane per method, and a
// heading per option set when there are several.
func laneRows(lanes []chartLane) int {
	sets := map[string]bool{}
	for _, l := range lanes {
		sets[l.set] = true
	}
	if len(sets) < 2 {
		return len(lanes)
	}
	return len(lanes) + len(sets)
}

// chartLane is one followed method of one option set's first fork, under
// the curves: its entry level iteration by iteration, and its events.
type chartLane struct {
	set, method string
	colour      color.Color
	spans       []laneSpan
	osr, gone   []float64
	stub        []float64
}

type laneSpan struct {
	x0, x1 float64
	level  int
}

// maxLanes bounds the strip; the compile timeline has every method.
const maxLanes = 16

// chartLanes picks the lanes: per option set (first fork, real JVM runs
// included), the followed methods that were compiled, those that reached
// the highest level first, then the earliest; at most maxLanes in all. It
// returns how many compiled methods were left out.
func chartLanes(runs []Run, ax chartAxes) ([]chartLane, int) {
	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = r.Label
	}
	colours := setColours(labels)
	var firsts []Run
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.Label] {
			seen[r.Label] = true
			firsts = append(firsts, r)
		}
	}
	per := max(2, maxLanes/max(len(firsts), 1))
	var lanes []chartLane
	omitted := 0
	for _, r := range firsts {
		type cand struct {
			m     string
			top   int
			first time.Duration
		}
		byM := map[string]*cand{}
		var cands []*cand
		for _, it := range r.Iterations {
			for _, e := range it.Events {
				if e.Kind != EventInstalled && e.Kind != EventOSR {
					continue
				}
				c := byM[e.Method]
				if c == nil {
					c = &cand{m: e.Method, top: e.Level, first: e.At}
					byM[e.Method] = c
					cands = append(cands, c)
				}
				c.top = max(c.top, e.Level)
			}
		}
		sort.SliceStable(cands, func(i, j int) bool {
			if cands[i].top != cands[j].top {
				return cands[i].top > cands[j].top
			}
			return cands[i].first < cands[j].first
		})
		if len(cands) > per {
			omitted += len(cands) - per
			cands = cands[:per]
		}
		sort.Slice(cands, func(i, j int) bool { return shortMethod(cands[i].m) < shortMethod(cands[j].m) })
		for _, c := range cands {
			l := chartLane{set: r.Label, method: c.m, colour: labelColour(colours, r.Label)}
			for i, it := range r.Iterations {
				lv, ok := it.Levels[c.m]
				if ok {
					x0, x1 := ax.span(r, i)
					if n := len(l.spans); n > 0 && l.spans[n-1].level == lv && l.spans[n-1].x1 >= x0-1e-9 {
						l.spans[n-1].x1 = x1
					} else {
						l.spans = append(l.spans, laneSpan{x0, x1, lv})
					}
				}
				for _, e := range it.Events {
					if e.Method != c.m {
						continue
					}
					x := ax.at(r, i, e.At)
					switch e.Kind {
					case EventOSR:
						l.osr = append(l.osr, x)
					case EventNotEntrant:
						l.gone = append(l.gone, x)
					case EventFirstStub:
						l.stub = append(l.stub, x)
					}
				}
			}
			lanes = append(lanes, l)
		}
	}
	return lanes, omitted
}

// Sizes of the chart's parts below the curves.
var (
	laneHeight   = vg.Points(13)
	laneHeader   = vg.Points(22)
	legendRow    = vg.Points(14)
	chartFont    = vg.Points(8.5)
	legendFontSz = vg.Points(9)
)

// chartLegends are the two legend columns: the option sets and how their
// lines read; the lane colours and marks.
func chartLegends(runs []Run, s Summary, lanes []chartLane, omitted int) (sets, key plot.Legend, rows int) {
	nSets, nKey := 0, 0
	labels := make([]string, len(runs))
	forks := map[string]int{}
	jvm := false
	for i, r := range runs {
		labels[i] = r.Label
		forks[r.Label]++
		jvm = jvm || isJVM(r.Label)
	}
	colours := setColours(labels)
	sets, key = plot.NewLegend(), plot.NewLegend()
	for _, l := range []*plot.Legend{&sets, &key} {
		l.TextStyle.Font.Size = legendFontSz
		l.Top, l.Left = true, true
		l.ThumbnailWidth = vg.Points(22)
		l.Padding = vg.Points(2.5)
	}
	multi := false
	done := map[string]bool{}
	for _, l := range labels {
		if done[l] {
			continue
		}
		done[l] = true
		ls := draw.LineStyle{Color: labelColour(colours, l), Width: vg.Points(1.6)}
		if isJVM(l) {
			ls.Dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
		}
		name := l
		if isJVM(l) {
			name = "real JVM, " + l
		}
		if n := forks[l]; n > 1 {
			name += fmt.Sprintf(" (%d forks)", n)
			multi = true
		}
		for _, r := range s.Ratios {
			if r.Label == l && r.SteadyPerOp != nil {
				name += fmt.Sprintf(" — steady time/op %s %s", FormatRatio(r.SteadyPerOp), s.Baseline)
			}
		}
		nSets++
		sets.Add(name, lineThumb(ls))
	}
	if multi {
		nSets++
		sets.Add("thick: first fork; thin: the other forks of that set", lineThumb{Color: color.Gray{Y: 90}, Width: vg.Points(0.6)})
	}
	if jvm {
		nSets++
		sets.Add("dashed, lighter shade: the real JVM beside jitsim", lineThumb{Color: color.Gray{Y: 90}, Width: vg.Points(1.6),
			Dashes: []vg.Length{vg.Points(5), vg.Points(2.5)}})
	}
	nSets++
	sets.Add("shaded: steady state (±10 %) of the first fork", boxThumb{color.NRGBA{0x80, 0x80, 0x80, 60}})
	nSets++
	sets.Add("numbered changepoint of the first fork, in its set's colour (its events: below)", glyphThumb{markChangeType})
	if len(lanes) > 0 {
		used := map[int]bool{}
		for _, l := range lanes {
			for _, sp := range l.spans {
				used[sp.level] = true
			}
		}
		for lv, name := range levelNames {
			if used[lv] {
				nKey++
				key.Add(name, boxThumb{levelColour(lv)})
			}
		}
		nKey++
		key.Add("OSR code installed", glyphThumb{markOSR})
		nKey++
		key.Add("code made not entrant", glyphThumb{markGone})
		nKey++
		key.Add("first call into an intrinsic stub", glyphThumb{markStub, markStubRing})
		if omitted > 0 {
			nKey++
			key.Add(fmt.Sprintf("%d more compiled methods: see the timeline", omitted), boxThumb{color.White})
		}
	}
	return sets, key, max(nSets, nKey)
}

// chartCaption is a line per option set under the legend: where its first
// fork became steady and which install made it so (the verdict up to its
// first clause about methods still below level 4).
func chartCaption(s Summary) [][2]string {
	var out [][2]string
	for _, l := range s.Labels {
		v, _, _ := strings.Cut(l.Verdict, ";")
		if v == "" {
			continue
		}
		line := l.Label + ": " + v
		if r := []rune(line); len(r) > 130 {
			line = string(r[:129]) + "…"
		}
		out = append(out, [2]string{l.Label, line})
	}
	return out
}

// chartPlan is the chart laid out for a width: its parts and their
// heights, so that the size and the drawing agree.
type chartPlan struct {
	p                *plot.Plot
	lanes            []chartLane
	sets, key        plot.Legend
	verdicts         [][2]string
	marks            []cpMark
	caption          []captionLine
	left             vg.Length // the curves' left margin: room for the lane labels
	bandH            vg.Length // the numbered changepoints above the curves
	lanesH, legendH  vg.Length
	labelStyle       draw.TextStyle
	xmin, xmax       float64
	dataX0, dataX1   vg.Length // the data area's x extent on a canvas at 0
	captionH, headsH vg.Length
}

// curvesHeight is the height of the curves' part with no height given.
const curvesHeight = 5 * vg.Inch

// axisLabelGap separates an x-axis title from its tick labels. gonum lays text out with its
// own font metrics; a browser that falls back to another font draws taller glyphs, and with no
// gap a tick label under the middle of the axis then touches the title.
var axisLabelGap = vg.Points(6)

// planChart lays the chart out for width wd.
func planChart(runs []Run, s Summary, po PlotOptions, wd vg.Length) (*chartPlan, error) {
	p, err := Chart(runs, s, po)
	if err != nil {
		return nil, err
	}
	ax := newChartAxes(runs, po)
	pl := &chartPlan{p: p, xmin: p.X.Min, xmax: p.X.Max}
	var omitted, rows int
	pl.lanes, omitted = chartLanes(runs, ax)
	pl.sets, pl.key, rows = chartLegends(runs, s, pl.lanes, omitted)
	pl.verdicts = chartCaption(s)
	pl.marks = chartMarks(runs, s, ax)
	pl.caption = markCaption(pl.marks, wd-vg.Points(16))
	if len(pl.lanes) > 0 {
		pl.lanesH = laneHeader + vg.Length(laneRows(pl.lanes))*laneHeight + vg.Points(6)
	}
	pl.headsH = vg.Length(len(pl.verdicts)) * legendRow
	if len(pl.caption) > 0 {
		pl.captionH = legendRow + vg.Length(len(pl.caption))*captionRow + vg.Points(6)
	}
	pl.legendH = pl.headsH + pl.captionH + vg.Length(rows)*legendRow + vg.Points(20)

	pl.labelStyle = chartText(chartFont)
	pl.labelStyle.Handler = p.Y.Tick.Label.Handler
	labelW := vg.Length(0)
	for _, l := range pl.lanes {
		labelW = max(labelW, pl.labelStyle.Width(shortMethod(l.method)))
	}
	labelW += vg.Points(14) // the set's colour bar and a gap
	// The data area's x extent depends on the width only.
	probe := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: wd, Y: curvesHeight}}}
	own := p.DataCanvas(probe).Min.X
	pl.left = max(own, labelW) - own
	data := p.DataCanvas(draw.Crop(probe, pl.left, -vg.Points(10), 0, 0))
	pl.dataX0, pl.dataX1 = data.Min.X, data.Max.X
	if len(pl.marks) > 0 {
		pos := func(v float64) vg.Length {
			v = max(pl.xmin, min(pl.xmax, v))
			return pl.dataX0 + vg.Length((v-pl.xmin)/(pl.xmax-pl.xmin))*(pl.dataX1-pl.dataX0)
		}
		_, n := markRows(pl.marks, pos)
		pl.bandH = vg.Length(n)*markRow + vg.Points(4)
		p.Title.Padding += pl.bandH
	}
	return pl, nil
}

// chartFigure draws the whole chart onto dc: the numbered changepoints,
// the curves, the lane strip, the legend and the caption.
func chartFigure(dc draw.Canvas, runs []Run, s Summary, po PlotOptions) error {
	pl, err := planChart(runs, s, po, dc.Max.X-dc.Min.X)
	if err != nil {
		return err
	}
	p, lanes := pl.p, pl.lanes
	ht := dc.Max.Y - dc.Min.Y
	legendC := draw.Crop(dc, 0, 0, 0, pl.legendH-ht)
	lanesC := draw.Crop(dc, 0, 0, pl.legendH, pl.legendH+pl.lanesH-ht)
	mainC := draw.Crop(dc, 0, 0, pl.legendH+pl.lanesH, 0)
	mainC = draw.Crop(mainC, pl.left, -vg.Points(10), 0, 0)
	p.Draw(mainC)
	data := p.DataCanvas(mainC)
	if len(pl.marks) > 0 {
		drawMarks(dc, pl.marks, data.Min.X, data.Max.X, pl.xmin, pl.xmax, data.Max.Y+vg.Points(2))
	}
	if len(lanes) > 0 {
		drawLanes(lanesC, data.Min.X, data.Max.X, p.X.Min, p.X.Max, lanes, pl.labelStyle)
	}
	cs := pl.labelStyle
	cs.Font.Size = legendFontSz
	cs.XAlign, cs.YAlign = draw.XLeft, draw.YCenter
	colours := setColours(labelsOf(s))
	x := legendC.Min.X + vg.Points(8)
	y := legendC.Max.Y - legendRow/2
	for _, line := range pl.verdicts {
		cs.Color = labelColour(colours, line[0])
		dc.FillText(cs, vg.Point{X: x, Y: y}, line[1])
		y -= legendRow
	}
	if len(pl.caption) > 0 {
		head := cs
		head.Color = color.Black
		y -= vg.Points(4)
		dc.FillText(head, vg.Point{X: x, Y: y}, "changepoints of the first fork of each set (the numbers above the curves) and the VM events of their windows")
		y -= legendRow/2 + captionRow/2
		ct := chartText(captionFnt)
		ct.XAlign, ct.YAlign = draw.XLeft, draw.YCenter
		for _, l := range pl.caption {
			ct.Color = l.colour
			if l.num != "" {
				dc.FillText(ct, vg.Point{X: x, Y: y}, l.num)
			}
			dc.FillText(ct, vg.Point{X: x + captionIndent, Y: y}, l.text)
			y -= captionRow
		}
	}
	rest := draw.Crop(legendC, 0, 0, 0, -pl.headsH-pl.captionH-vg.Points(4))
	pl.sets.Draw(draw.Crop(rest, vg.Points(8), -(rest.Max.X-rest.Min.X)*0.48, 0, -vg.Points(4)))
	pl.key.Draw(draw.Crop(rest, (rest.Max.X-rest.Min.X)*0.58, 0, 0, -vg.Points(4)))
	return nil
}

// drawLanes draws the lane strip in c between x0 and x1 on the canvas,
// which map to xmin and xmax on the curves' axis.
func drawLanes(c draw.Canvas, x0, x1 vg.Length, xmin, xmax float64, lanes []chartLane, ts draw.TextStyle) {
	at := func(v float64) vg.Length {
		v = math.Max(xmin, math.Min(xmax, v))
		return x0 + vg.Length((v-xmin)/(xmax-xmin))*(x1-x0)
	}
	head := ts
	head.Font.Size = vg.Points(9)
	head.XAlign, head.YAlign = draw.XLeft, draw.YTop
	top := c.Max.Y - vg.Points(4)
	c.FillText(head, vg.Point{X: x0, Y: top}, "entry level of each compiled method (first fork of each set)")
	ts.XAlign, ts.YAlign = draw.XRight, draw.YCenter
	y := top - laneHeader + vg.Points(2)
	headings := laneRows(lanes) > len(lanes)
	group := ts
	group.XAlign, group.YAlign = draw.XLeft, draw.YCenter
	group.Font.Size = vg.Points(9)
	for i, l := range lanes {
		if headings && (i == 0 || lanes[i-1].set != l.set) {
			group.Color = l.colour
			c.FillText(group, vg.Point{X: x0, Y: y - laneHeight/2}, "option set "+l.set)
			y -= laneHeight
		}
		mid := y - laneHeight/2
		h := laneHeight * 0.72
		rect := func(a, b vg.Length, col color.Color) {
			c.FillPolygon(col, []vg.Point{{X: a, Y: mid - h/2}, {X: b, Y: mid - h/2}, {X: b, Y: mid + h/2}, {X: a, Y: mid + h/2}})
		}
		rect(x0-vg.Points(10), x0-vg.Points(6), l.colour)
		c.FillText(ts, vg.Point{X: x0 - vg.Points(12), Y: mid}, shortMethod(l.method))
		c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 200}, Width: vg.Points(0.5)}, x0, mid, x1, mid)
		for _, sp := range l.spans {
			rect(at(sp.x0), at(sp.x1), levelColour(sp.level))
		}
		for _, x := range l.gone {
			c.DrawGlyph(markGone, vg.Point{X: at(x), Y: mid})
		}
		for _, x := range l.osr {
			c.DrawGlyph(markOSR, vg.Point{X: at(x), Y: mid})
		}
		for _, x := range l.stub {
			c.DrawGlyph(markStub, vg.Point{X: at(x), Y: mid})
			c.DrawGlyph(markStubRing, vg.Point{X: at(x), Y: mid})
		}
		y -= laneHeight
	}
}

// chartSize is the chart's width and height: po's, or 10 in wide and tall
// enough for the curves (5 in), the changepoint band, the lanes, the
// legend and the caption.
func chartSize(runs []Run, s Summary, po PlotOptions) (vg.Length, vg.Length, error) {
	wd, ht := po.Width, po.Height
	if wd == 0 {
		wd = 10 * vg.Inch
	}
	if ht == 0 {
		pl, err := planChart(runs, s, po, wd)
		if err != nil {
			return 0, 0, err
		}
		ht = curvesHeight + pl.bandH + pl.lanesH + pl.legendH
	}
	return wd, ht, nil
}

// WriteChart renders the chart as "png" or "svg" to w.
func WriteChart(w io.Writer, runs []Run, s Summary, po PlotOptions, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("warmup: chart format %q: want png or svg", format)
	}
	if len(runs) == 0 || len(s.Runs) != len(runs) {
		_, err := Chart(runs, s, po)
		return err
	}
	wd, ht, err := chartSize(runs, s, po)
	if err != nil {
		return err
	}
	cw, err := draw.NewFormattedCanvas(wd, ht, format)
	if err != nil {
		return fmt.Errorf("warmup: chart: %w", err)
	}
	dc := draw.New(cw)
	dc.FillPolygon(color.White, []vg.Point{{X: dc.Min.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Max.Y}, {X: dc.Min.X, Y: dc.Max.Y}})
	if err := chartFigure(dc, runs, s, po); err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := cw.WriteTo(&b); err != nil {
		return fmt.Errorf("warmup: chart: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}
