package warmup

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"sort"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// markKind is what a timeline mark shows.
type markKind int

const (
	markCompile    markKind = iota // code at a level: jitsim's install, a PrintCompilation task line
	markNotEntrant                 // code made not entrant (or zombie)
	markSkipped                    // a compile that failed (COMPILE SKIPPED)
)

// timelineMark is one compile event of one crypto method in the timeline.
type timelineMark struct {
	At     time.Duration
	Method string
	Level  int
	OSR    bool
	Kind   markKind
}

// timelineSource is one set of marks: the first fork of an option set, or
// an imported PrintCompilation log.
type timelineSource struct {
	Name  string
	Marks []timelineMark
}

// timelineSources gathers the crypto methods' compile events of the first
// fork of every option set (installs and OSR installs, not-entrant) and of
// every imported log (task lines, not-entrant and zombie lines, skipped
// compiles), in that order.
func timelineSources(runs []Run, imports []*CompileLog) []timelineSource {
	var out []timelineSource
	seen := map[string]bool{}
	for _, r := range runs {
		if seen[r.Label] {
			continue
		}
		seen[r.Label] = true
		src := timelineSource{Name: r.Label}
		for _, it := range r.Iterations {
			for _, e := range it.Events {
				if !CryptoMethod(e.Method) {
					continue
				}
				m := timelineMark{At: e.At, Method: e.Method, Level: e.Level}
				switch e.Kind {
				case EventInstalled:
				case EventOSR:
					m.OSR = true
				case EventNotEntrant:
					m.Kind = markNotEntrant
				default:
					continue
				}
				src.Marks = append(src.Marks, m)
			}
		}
		out = append(out, src)
	}
	for _, l := range imports {
		src := timelineSource{Name: "imported: " + l.Name}
		for _, rec := range l.Crypto() {
			m := timelineMark{At: rec.At, Method: rec.Method, Level: rec.Level, OSR: rec.OSR()}
			switch rec.Kind {
			case CompileNotEntrant, CompileZombie:
				m.Kind = markNotEntrant
			case CompileSkipped:
				m.Kind = markSkipped
			}
			src.Marks = append(src.Marks, m)
		}
		out = append(out, src)
	}
	return out
}

// timelineMethods are the rows of the timeline: every crypto method any
// source compiled, by short name.
func timelineMethods(srcs []timelineSource) []string {
	rows := map[string]bool{}
	for _, s := range srcs {
		for _, m := range s.Marks {
			rows[m.Method] = true
		}
	}
	methods := make([]string, 0, len(rows))
	for m := range rows {
		methods = append(methods, m)
	}
	sort.Slice(methods, func(i, j int) bool {
		a, b := shortMethod(methods[i]), shortMethod(methods[j])
		return a < b || a == b && methods[i] < methods[j]
	})
	return methods
}

// sourceColour is a timeline source's colour: an option set's (java:
// runs in its lighter shade), imported logs after the sets.
func sourceColours(srcs []timelineSource) []color.Color {
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.Name
	}
	idx := setColours(names)
	out := make([]color.Color, len(srcs))
	for i, s := range srcs {
		out[i] = labelColour(idx, s.Name)
	}
	return out
}

// TimelineChart builds the compile timeline: one row per crypto method that
// any source compiled, time since start on the x axis, and per source (the
// first fork of each option set, then each imported -XX:+PrintCompilation
// log) a band in every row: a line in the source's colour from its first
// to its last event, a disc in the level's colour where code at that level
// appeared (a filled triangle for OSR), a red cross where code was made not
// entrant, a square where a compile was skipped. jitsim's marks are installs
// on the run's clock; a PrintCompilation line is stamped when a compiler
// thread takes the task (CompileBroker::invoke_compiler_on_method), in ms
// since JVM start. No text sits among the marks; WriteTimeline puts the
// legend below the plot.
func TimelineChart(runs []Run, imports []*CompileLog, title string) (*plot.Plot, error) {
	srcs := timelineSources(runs, imports)
	methods := timelineMethods(srcs)
	row := map[string]int{}
	var ticks []plot.Tick
	for i, m := range methods {
		row[m] = len(methods) - 1 - i // first method on top
		ticks = append(ticks, plot.Tick{Value: float64(row[m]), Label: shortMethod(m)})
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = "ms since start (jitsim: VM created; java: loop start; imported: JVM start)"
	p.X.Label.Padding = axisLabelGap
	p.X.Tick.Marker = linearTicks{n: 10}
	p.Add(plotter.NewGrid())
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.5, float64(max(len(methods), 1))-0.5
	if len(methods) == 0 {
		p.Title.Text += " — no compile of a crypto method"
		p.X.Min, p.X.Max = 0, 1
		p.Y.Tick.Marker = plot.ConstantTicks(nil)
		return p, nil
	}
	n := float64(len(srcs))
	cols := sourceColours(srcs)
	for si, s := range srcs {
		col := cols[si]
		off := (float64(si)+0.5)/n*0.8 - 0.4 // band of the source inside each row
		if len(srcs) == 1 {
			off = 0
		}
		first, last := map[string]float64{}, map[string]float64{}
		var gone, skipped plotter.XYs
		byLevel := map[int]plotter.XYs{}
		osrByLevel := map[int]plotter.XYs{}
		for _, m := range s.Marks {
			x := float64(m.At) / float64(time.Millisecond)
			if _, ok := first[m.Method]; !ok {
				first[m.Method] = x
			}
			last[m.Method] = x
			xy := plotter.XY{X: x, Y: float64(row[m.Method]) + off}
			switch {
			case m.Kind == markNotEntrant:
				gone = append(gone, xy)
			case m.Kind == markSkipped:
				skipped = append(skipped, xy)
			case m.OSR:
				osrByLevel[m.Level] = append(osrByLevel[m.Level], xy)
			default:
				byLevel[m.Level] = append(byLevel[m.Level], xy)
			}
		}
		for _, m := range methods {
			x0, ok := first[m]
			if !ok {
				continue
			}
			y := float64(row[m]) + off
			x1 := max(last[m], x0)
			l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
			if err != nil {
				return nil, err
			}
			l.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.4)}
			if isJVM(s.Name) {
				l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			p.Add(l)
		}
		add := func(xys plotter.XYs, gs ...draw.GlyphStyle) error {
			if len(xys) == 0 {
				return nil
			}
			for _, g := range gs {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return fmt.Errorf("warmup: timeline: %s: %w", s.Name, err)
				}
				sc.GlyphStyle = g
				p.Add(sc)
			}
			return nil
		}
		ring := draw.GlyphStyle{Color: col, Radius: vg.Points(3.4), Shape: draw.RingGlyph{}}
		for lv := -1; lv <= 4; lv++ {
			disc := draw.GlyphStyle{Color: levelColour(lv), Radius: vg.Points(3.4), Shape: draw.CircleGlyph{}}
			tri := draw.GlyphStyle{Color: levelColour(lv), Radius: vg.Points(4), Shape: draw.PyramidGlyph{}}
			triEdge := draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: draw.TriangleGlyph{}}
			if err := add(byLevel[lv], disc, ring); err != nil {
				return nil, err
			}
			if err := add(osrByLevel[lv], tri, triEdge); err != nil {
				return nil, err
			}
		}
		if err := add(gone, markGone); err != nil {
			return nil, err
		}
		if err := add(skipped, markSkip); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// timelineLegends are the timeline's legend columns: the sources; the
// level colours and mark shapes.
func timelineLegends(srcs []timelineSource) (sources, key plot.Legend, rows int) {
	sources, key = plot.NewLegend(), plot.NewLegend()
	for _, l := range []*plot.Legend{&sources, &key} {
		l.TextStyle.Font.Size = legendFontSz
		l.Top, l.Left = true, true
		l.ThumbnailWidth = vg.Points(22)
		l.Padding = vg.Points(2.5)
	}
	cols := sourceColours(srcs)
	levels := map[int]bool{}
	var osr, gone, skipped bool
	for i, s := range srcs {
		ls := draw.LineStyle{Color: cols[i], Width: vg.Points(1.4)}
		if isJVM(s.Name) {
			ls.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		sources.Add(s.Name, lineThumb(ls), glyphThumb{{Color: cols[i], Radius: vg.Points(3.4), Shape: draw.RingGlyph{}}})
		for _, m := range s.Marks {
			switch {
			case m.Kind == markNotEntrant:
				gone = true
			case m.Kind == markSkipped:
				skipped = true
			default:
				levels[m.Level] = true
				osr = osr || m.OSR
			}
		}
	}
	nKey := 0
	for lv, name := range levelNames {
		if levels[lv] {
			key.Add("code at "+name, boxThumb{levelColour(lv)})
			nKey++
		}
	}
	if levels[-1] {
		key.Add("code at an unknown level (PrintCompilation's '-')", glyphThumb{{Color: color.Black, Radius: vg.Points(3.4), Shape: draw.RingGlyph{}}})
		nKey++
	}
	if osr {
		key.Add("triangle: OSR code", glyphThumb{{Color: color.Gray{Y: 120}, Radius: vg.Points(4), Shape: draw.PyramidGlyph{}}})
		nKey++
	}
	if gone {
		key.Add("code made not entrant", glyphThumb{markGone})
		nKey++
	}
	if skipped {
		key.Add("compile skipped", glyphThumb{markSkip})
		nKey++
	}
	return sources, key, max(len(srcs), nKey)
}

// timelineHeight grows the chart with its rows and its legend.
func timelineHeight(runs []Run, imports []*CompileLog) vg.Length {
	srcs := timelineSources(runs, imports)
	_, _, legend := timelineLegends(srcs)
	rows := len(timelineMethods(srcs))
	per := max(vg.Points(16), vg.Length(len(srcs))*vg.Points(7))
	return max(3*vg.Inch, vg.Length(rows)*per+1.3*vg.Inch) + vg.Length(legend)*legendRow + vg.Points(16)
}

// WriteTimeline renders the compile timeline as "png" or "svg" to w.
func WriteTimeline(w io.Writer, runs []Run, imports []*CompileLog, title, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("warmup: timeline format %q: want png or svg", format)
	}
	p, err := TimelineChart(runs, imports, title)
	if err != nil {
		return err
	}
	cw, err := draw.NewFormattedCanvas(10*vg.Inch, timelineHeight(runs, imports), format)
	if err != nil {
		return fmt.Errorf("warmup: timeline: %w", err)
	}
	dc := draw.New(cw)
	dc.FillPolygon(color.White, []vg.Point{{X: dc.Min.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Max.Y}, {X: dc.Min.X, Y: dc.Max.Y}})
	sources, key, rows := timelineLegends(timelineSources(runs, imports))
	legendH := vg.Length(rows)*legendRow + vg.Points(16)
	h := dc.Max.Y - dc.Min.Y
	legendC := draw.Crop(dc, 0, 0, 0, legendH-h)
	mainC := draw.Crop(dc, 0, -vg.Points(10), legendH, 0)
	p.Draw(mainC)
	sources.Draw(draw.Crop(legendC, vg.Points(8), -(legendC.Max.X-legendC.Min.X)*0.48, 0, -vg.Points(4)))
	key.Draw(draw.Crop(legendC, (legendC.Max.X-legendC.Min.X)*0.55, 0, 0, -vg.Points(4)))
	var b bytes.Buffer
	if _, err := cw.WriteTo(&b); err != nil {
		return fmt.Errorf("warmup: timeline: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}
