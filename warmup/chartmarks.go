package warmup

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The warm-up chart numbers the changepoints of each option set's first
// fork: a ▼ with its number in a band above the curves (never over them),
// and under the legend one caption entry per number with the VM events of
// the changepoint's window (Change.Causes) in compact words.

// cpMark is one numbered changepoint on the chart.
type cpMark struct {
	n      int
	run    int     // the index of the run in the series
	change int     // and of the change in its RunSummary.Changes
	label  string  // the option set
	x      float64 // on the curves' x axis
	colour color.Color
	text   string // the caption entry after its number
}

// Limits that keep the band and the caption bounded on a noisy run.
const (
	maxCaptioned   = 30 // caption entries; the rest are summed up in one line
	maxCaptionRows = 3  // lines per caption entry
)

// Sizes of the changepoint band and the caption.
var (
	markRow    = vg.Points(12)
	captionRow = vg.Points(11.5)
	captionFnt = vg.Points(8.5)
)

// chartMarks numbers the changepoints of each option set's first fork, in
// set order and then by iteration, and words each one's events.
func chartMarks(runs []Run, s Summary, ax chartAxes) []cpMark {
	labels := make([]string, len(runs))
	for i, r := range runs {
		labels[i] = r.Label
	}
	colours := setColours(labels)
	multi := len(s.Labels) > 1
	seen := map[string]bool{}
	var out []cpMark
	for ri, r := range runs {
		if seen[r.Label] || ri >= len(s.Runs) {
			continue
		}
		seen[r.Label] = true
		num := map[int]int{} // iteration → mark number, for "begun at [n]"
		for ci, ch := range s.Runs[ri].Changes {
			if ch.Iteration < 0 || ch.Iteration >= len(r.Iterations) {
				continue
			}
			m := cpMark{n: len(out) + 1, run: ri, change: ci, label: r.Label, x: ax.x(r, ch.Iteration), colour: labelColour(colours, r.Label)}
			num[ch.Iteration] = m.n
			head := fmt.Sprintf("iteration %d", ch.Iteration)
			if multi {
				head = r.Label + ", " + head
			}
			if ch.Before > 0 && ch.After > 0 {
				head += ": " + FormatPerOp(ch.Before) + " → " + FormatPerOp(ch.After)
			}
			m.text = head + " — " + compactCauses(ch, num)
			out = append(out, m)
		}
	}
	return out
}

// causeGroup names a kind of event compactly: "C2 installed", "OSR C1
// level 3 installed", "level 3 made not entrant", "first stub call".
func causeGroup(c Cause) string {
	lv := func(l int) string {
		if l == 4 {
			return "C2"
		}
		if l == 0 {
			return "interpreter"
		}
		return fmt.Sprintf("C1 level %d", l)
	}
	switch c.Kind {
	case EventInstalled:
		if c.Level == 2 {
			return "C1 level 2 installed (the level-2 detour: C2's queue was long)"
		}
		return lv(c.Level) + " installed"
	case EventOSR:
		return "OSR " + lv(c.Level) + " installed"
	case EventNotEntrant:
		return fmt.Sprintf("level %d made not entrant", c.Level)
	case EventFirstStub:
		return "first stub call"
	}
	return string(c.Kind)
}

// compactCauses words a changepoint's events, grouped by kind in the
// order of Change.Causes (the most telling first): "C2 installed:
// GHASH::processBlocks (queued 1.2ms); level 3 made not entrant:
// GHASH::processBlocks". num maps earlier changepoints' iterations to
// their marks.
func compactCauses(ch Change, num map[int]int) string {
	if len(ch.Causes) == 0 {
		if ch.Follows >= 0 && ch.Iteration-ch.Follows <= 2 {
			begun := fmt.Sprintf("iteration %d", ch.Follows)
			if n, ok := num[ch.Follows]; ok {
				begun = fmt.Sprintf("[%d]", n)
			}
			return fmt.Sprintf("no event: ends the %d-iteration segment begun at %s (an iteration partly on the new code)",
				ch.Iteration-ch.Follows, begun)
		}
		return "no VM event in its window (noise, GC or the machine)"
	}
	var order []string
	items := map[string][]string{}
	for _, c := range ch.Causes {
		g := causeGroup(c)
		if _, ok := items[g]; !ok {
			order = append(order, g)
		}
		m := shortMethod(c.Method)
		if c.QueueDelay > 0 {
			m += fmt.Sprintf(" (queued %s)", c.QueueDelay.Round(time.Microsecond))
		}
		items[g] = append(items[g], m)
	}
	parts := make([]string, len(order))
	for i, g := range order {
		parts[i] = g + ": " + strings.Join(items[g], ", ")
	}
	return strings.Join(parts, "; ")
}

// chartText is the chart's text style at size, black.
func chartText(size vg.Length) draw.TextStyle {
	ts := plot.New().Y.Tick.Label
	ts.Font.Size = size
	ts.Color = color.Black
	return ts
}

// wrapText breaks text at spaces into lines no wider than width in ts, at
// most rows of them (the last ending in "…" when text was cut).
func wrapText(ts draw.TextStyle, text string, width vg.Length, rows int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur == "" || ts.Width(next) <= width {
			cur = next
			continue
		}
		lines = append(lines, cur)
		cur = w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > rows {
		lines = lines[:rows]
		last := []rune(lines[rows-1])
		for len(last) > 0 && ts.Width(string(last)+" …") > width {
			last = last[:len(last)-1]
		}
		lines[rows-1] = strings.TrimRight(string(last), " ") + " …"
	}
	return lines
}

// captionLine is one line of the changepoint caption: the mark's number
// on its first line, and the text.
type captionLine struct {
	num    string
	text   string
	colour color.Color
}

// markCaption lays the marks' texts out in lines of width (the numbers
// take the left column), at most maxCaptioned entries and one line for
// the rest.
func markCaption(marks []cpMark, width vg.Length) []captionLine {
	ts := chartText(captionFnt)
	var out []captionLine
	for i, m := range marks {
		if i == maxCaptioned {
			out = append(out, captionLine{text: fmt.Sprintf("changepoints %d to %d: see summary.json and report.html", i+1, len(marks)), colour: color.Black})
			break
		}
		for j, l := range wrapText(ts, m.text, width-captionIndent, maxCaptionRows) {
			cl := captionLine{text: l, colour: m.colour}
			if j == 0 {
				cl.num = fmt.Sprintf("[%d]", m.n)
			}
			out = append(out, cl)
		}
	}
	return out
}

// captionIndent is the numbers' column.
var captionIndent = vg.Points(26)

// markRows assigns each mark a row of the band, the lowest in which its
// ▼ and number clear the marks already there; pos maps an x value to the
// canvas. It returns the rows and how many there are.
func markRows(marks []cpMark, pos func(float64) vg.Length) ([]int, int) {
	ts := chartText(captionFnt)
	rows := make([]int, len(marks))
	var ends []vg.Length // right edge of the last mark in each row
	n := 0
	for i, m := range marks {
		x0 := pos(m.x) - markChangeType.Radius
		x1 := pos(m.x) + markChangeType.Radius + vg.Points(1.5) + ts.Width(fmt.Sprint(m.n))
		r := 0
		for r < len(ends) && ends[r]+vg.Points(3) > x0 {
			r++
		}
		if r == len(ends) {
			ends = append(ends, x1)
		} else {
			ends[r] = x1
		}
		rows[i] = r
		n = max(n, r+1)
	}
	return rows, n
}

// drawMarks draws the band of numbered ▼ between x0 and x1 (mapping xmin
// and xmax), its lowest row just above y.
func drawMarks(c draw.Canvas, marks []cpMark, x0, x1 vg.Length, xmin, xmax float64, y vg.Length) {
	pos := func(v float64) vg.Length {
		if xmax <= xmin {
			return x0
		}
		v = max(xmin, min(xmax, v))
		return x0 + vg.Length((v-xmin)/(xmax-xmin))*(x1-x0)
	}
	rows, _ := markRows(marks, pos)
	ts := chartText(captionFnt)
	ts.XAlign, ts.YAlign = draw.XLeft, draw.YCenter
	for i, m := range marks {
		mid := y + vg.Length(rows[i])*markRow + markRow/2
		g := markChangeType
		g.Color = m.colour
		c.DrawGlyph(g, vg.Point{X: pos(m.x), Y: mid})
		ts.Color = m.colour
		c.FillText(ts, vg.Point{X: pos(m.x) + g.Radius + vg.Points(1.5), Y: mid}, fmt.Sprint(m.n))
	}
}
