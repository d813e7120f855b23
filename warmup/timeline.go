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
	"gonum.org/v1/plot/plotutil"
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

// TimelineChart builds the compile timeline: one row per crypto method that
// any source compiled, time in ms since start on the x axis, and per source
// (the first fork of each option set, then each imported
// -XX:+PrintCompilation log) a band in every row with a mark per event — a
// filled glyph labelled with the level ("%" for OSR) where code at that
// level appeared, a cross where code was made not entrant, a ring where a
// compile was skipped. jitsim's marks are installs on the run's clock; a
// PrintCompilation line is stamped when a compiler thread takes the task
// (CompileBroker::invoke_compiler_on_method), in ms since JVM start.
func TimelineChart(runs []Run, imports []*CompileLog, title string) (*plot.Plot, error) {
	srcs := timelineSources(runs, imports)
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
	row := map[string]int{}
	var ticks []plot.Tick
	for i, m := range methods {
		row[m] = len(methods) - 1 - i // first method on top
		ticks = append(ticks, plot.Tick{Value: float64(row[m]), Label: shortMethod(m)})
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "ms since start (jitsim: VM created; java: loop start; imported: JVM start)"
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
	for si, s := range srcs {
		col := plotutil.Color(si)
		off := (float64(si)+0.5)/n*0.8 - 0.4 // band of the source inside each row
		var comp, gone, skipped plotter.XYs
		var labels []string
		for _, m := range s.Marks {
			xy := plotter.XY{X: float64(m.At) / float64(time.Millisecond), Y: float64(row[m.Method]) + off}
			switch m.Kind {
			case markCompile:
				comp = append(comp, xy)
				l := fmt.Sprint(m.Level)
				if m.Level < 0 {
					l = "-"
				}
				if m.OSR {
					l += "%"
				}
				labels = append(labels, l)
			case markNotEntrant:
				gone = append(gone, xy)
			case markSkipped:
				skipped = append(skipped, xy)
			}
		}
		first := true
		for _, g := range []struct {
			xys   plotter.XYs
			shape draw.GlyphDrawer
		}{{comp, draw.CircleGlyph{}}, {gone, draw.CrossGlyph{}}, {skipped, draw.RingGlyph{}}} {
			if len(g.xys) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(g.xys)
			if err != nil {
				return nil, fmt.Errorf("warmup: timeline: %s: %w", s.Name, err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.2), Shape: g.shape}
			p.Add(sc)
			if first {
				p.Legend.Add(s.Name, sc)
				first = false
			}
		}
		if len(comp) > 0 {
			ls, err := plotter.NewLabels(plotter.XYLabels{XYs: comp, Labels: labels})
			if err != nil {
				return nil, err
			}
			for i := range ls.TextStyle {
				ls.TextStyle[i].Font.Size = vg.Points(6)
				ls.TextStyle[i].Color = color.Gray{Y: 40}
			}
			ls.Offset = vg.Point{X: vg.Points(2.5), Y: vg.Points(1)}
			p.Add(ls)
		}
	}
	p.Legend.Top = true
	p.Legend.Left = false
	return p, nil
}

// timelineHeight grows the chart with its rows.
func timelineHeight(runs []Run, imports []*CompileLog) vg.Length {
	rows := map[string]bool{}
	for _, s := range timelineSources(runs, imports) {
		for _, m := range s.Marks {
			rows[m.Method] = true
		}
	}
	return max(3*vg.Inch, vg.Length(len(rows))*0.3*vg.Inch+1.5*vg.Inch)
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
	wt, err := p.WriterTo(10*vg.Inch, timelineHeight(runs, imports), format)
	if err != nil {
		return fmt.Errorf("warmup: timeline: %w", err)
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return fmt.Errorf("warmup: timeline: %w", err)
	}
	_, err = w.Write(b.Bytes())
	return err
}
