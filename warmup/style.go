package warmup

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// jvmPrefix starts the label of a real JVM's run beside an option set.
const jvmPrefix = "java: "

// setPair is one option set's colours: jitsim's curve in the dark shade,
// the real JVM's (dashed) in the light one, so the two read as a pair.
type setPair struct{ dark, light color.NRGBA }

// setPairs are distinguishable for the common colour-vision deficiencies
// (hues after Okabe and Ito) and stay apart from the level colours.
var setPairs = []setPair{
	{color.NRGBA{0x00, 0x5a, 0xb5, 0xff}, color.NRGBA{0x56, 0xb4, 0xe9, 0xff}}, // blue
	{color.NRGBA{0xc1, 0x4a, 0x00, 0xff}, color.NRGBA{0xe6, 0x9f, 0x00, 0xff}}, // orange
	{color.NRGBA{0x00, 0x7a, 0x4d, 0xff}, color.NRGBA{0x3c, 0xb4, 0x7a, 0xff}}, // green
	{color.NRGBA{0x8e, 0x2c, 0x7a, 0xff}, color.NRGBA{0xcc, 0x79, 0xa7, 0xff}}, // purple
	{color.NRGBA{0x33, 0x33, 0x33, 0xff}, color.NRGBA{0x99, 0x99, 0x99, 0xff}}, // grey
	{color.NRGBA{0x9a, 0x6a, 0x00, 0xff}, color.NRGBA{0xd9, 0xb4, 0x4a, 0xff}}, // ochre
}

// setKey is the option set a label belongs to: "java: X" pairs with X.
func setKey(label string) string { return strings.TrimPrefix(label, jvmPrefix) }

// isJVM reports whether the label is a real JVM's run.
func isJVM(label string) bool { return strings.HasPrefix(label, jvmPrefix) }

// setColours assigns each option set (java: runs share their set's) an
// index into setPairs, in order of first appearance.
func setColours(labels []string) map[string]int {
	idx := map[string]int{}
	for _, l := range labels {
		if _, ok := idx[setKey(l)]; !ok {
			idx[setKey(l)] = len(idx)
		}
	}
	return idx
}

// labelColour is the line colour of a label.
func labelColour(idx map[string]int, label string) color.Color {
	p := setPairs[idx[setKey(label)]%len(setPairs)]
	if isJVM(label) {
		return p.light
	}
	return p.dark
}

// levelColours fill the tier lanes: grey for the interpreter, light to
// dark blue for C1's levels 1 and 3, orange for level 2 (the detour a full
// C2 queue forces) and dark blue for C2.
var levelColours = []color.NRGBA{
	{0xd9, 0xd9, 0xd9, 0xff}, // 0 interpreter
	{0xc6, 0xdb, 0xef, 0xff}, // 1 C1
	{0xfd, 0xae, 0x6b, 0xff}, // 2 C1 limited profile
	{0x6b, 0xae, 0xd6, 0xff}, // 3 C1 full profile
	{0x08, 0x45, 0x94, 0xff}, // 4 C2
}

// levelNames label the level colours in legends.
var levelNames = []string{"level 0: interpreter", "level 1: C1", "level 2: C1, limited profile", "level 3: C1, full profile", "level 4: C2"}

func levelColour(l int) color.Color {
	if l < 0 || l >= len(levelColours) {
		return color.NRGBA{0xff, 0xff, 0xff, 0xff}
	}
	return levelColours[l]
}

// The marks of events on a lane, shared by the warm-up chart and the
// compile timeline.
var (
	markOSR        = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3.4), Shape: draw.PyramidGlyph{}}
	markGone       = draw.GlyphStyle{Color: color.NRGBA{0xd7, 0x19, 0x1c, 0xff}, Radius: vg.Points(3.4), Shape: thickCross{}}
	markStub       = draw.GlyphStyle{Color: color.NRGBA{0xf0, 0xc0, 0x00, 0xff}, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	markStubRing   = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.RingGlyph{}}
	markSkip       = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.SquareGlyph{}}
	markChangeType = draw.GlyphStyle{Color: color.Gray{Y: 60}, Radius: vg.Points(4), Shape: downTriangle{}}
)

// thickCross is an × drawn heavy enough to see on a coloured lane.
type thickCross struct{}

func (thickCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: vg.Points(1.6)}
	r := sty.Radius * 0.75
	c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
	c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
}

// downTriangle is a filled ▼, pointing at the iteration it marks.
type downTriangle struct{}

func (downTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	c.FillPolygon(sty.Color, []vg.Point{{X: pt.X - r, Y: pt.Y + r*0.6}, {X: pt.X + r, Y: pt.Y + r*0.6}, {X: pt.X, Y: pt.Y - r}})
}

// glyphThumb draws one or more glyphs as a legend entry.
type glyphThumb []draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) {
	p := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	for _, s := range g {
		c.DrawGlyph(s, p)
	}
}

// boxThumb is a filled box as a legend entry.
type boxThumb struct{ c color.Color }

func (b boxThumb) Thumbnail(c *draw.Canvas) {
	h := (c.Max.Y - c.Min.Y) * 0.7
	mid := (c.Min.Y + c.Max.Y) / 2
	c.FillPolygon(b.c, []vg.Point{{X: c.Min.X, Y: mid - h/2}, {X: c.Max.X, Y: mid - h/2}, {X: c.Max.X, Y: mid + h/2}, {X: c.Min.X, Y: mid + h/2}})
}

// lineThumb is a line as a legend entry.
type lineThumb draw.LineStyle

func (l lineThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(draw.LineStyle(l), c.Min.X, y, c.Max.X, y)
}

// niceStep is the 1, 2 or 5 × 10^k step that cuts span into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// linearTicks labels [lo, hi] at a nice step (at least 1 when integer),
// with as many decimals as the step needs and none more.
type linearTicks struct {
	n       int
	integer bool
}

func (lt linearTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep(hi-lo, max(lt.n, 2))
	if lt.integer {
		step = max(step, 1)
	}
	dec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		label := strconv.FormatFloat(v, 'f', dec, 64)
		if label == "-0" {
			label = "0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
		for m := 1; m < 5; m++ { // unlabelled minor ticks
			if w := v + float64(m)*step/5; w <= hi && (!lt.integer || step/5 >= 1 && w == math.Trunc(w)) {
				ts = append(ts, plot.Tick{Value: w})
			}
		}
	}
	return ts
}

// humanNumber prints a tick value without exponent: 0.5, 20, 5000, 20k, 3M.
func humanNumber(v float64) string {
	switch {
	case v >= 1e7:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case v >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// logTicks labels a log axis at 1, 2 and 5 times each power of ten in
// [lo, hi] (only at the powers of ten when the axis spans more than three
// decades, so labels never crowd), with unlabelled minor ticks at the
// other integers.
func logTicks(lo, hi float64) []plot.Tick {
	only1 := math.Log10(hi/lo) > 3
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		p := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || !only1 && (m == 2 || m == 5) {
				t.Label = humanNumber(float64(m) * p)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// timeUnit picks the unit in which the smallest of values (seconds) is at
// least 1: its name and the factor from seconds.
func timeUnit(smallest float64) (string, float64) {
	switch {
	case smallest >= 1:
		return "s", 1
	case smallest >= 1e-3:
		return "ms", 1e3
	case smallest >= 1e-6:
		return "µs", 1e6
	}
	return "ns", 1e9
}

// spanUnit picks the unit for an axis from 0 to span seconds: the one in
// which the span is at least 1 (ms below one second, s above).
func spanUnit(span float64) (string, float64) {
	switch {
	case span >= 2:
		return "s", 1
	case span >= 2e-3:
		return "ms", 1e3
	}
	return "µs", 1e6
}
