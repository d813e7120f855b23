package warmup

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// TestLabChart draws the hand-worked lab run (lab_test.go) and checks the
// errors: a PNG as tall as a title and one panel of 8 settings, and an
// error, not an empty chart, when no run can be scored.
func TestLabChart(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLabChart(&b, []Run{labRun()}, StopRules, "t", "png"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	// 28 pt of title, then 2 × 2.2 in (the curve is taller than 8 rows of
	// 15 pt + 36 pt = 156 pt < 158.4 pt) + 12 pt, at the canvas's 96 dpi:
	// (28 + 316.8 + 12) / 72 · 96 = 475.7 px.
	if h := img.Bounds().Dy(); h < 475 || h > 476 {
		t.Errorf("height %d px, want 475–476", h)
	}
	short := labRun()
	short.Iterations = short.Iterations[:50]
	wall := labRun()
	wall.Clock = "wall"
	for _, runs := range [][]Run{nil, {short}, {wall}} {
		if err := WriteLabChart(&b, runs, StopRules, "t", "svg"); err == nil || !strings.Contains(err.Error(), "no model-clock run") {
			t.Errorf("%d runs: %v", len(runs), err)
		}
	}
	if err := WriteLabChart(&b, []Run{labRun()}, StopRules, "t", "gif"); err == nil {
		t.Error("gif accepted")
	}
}

// TestReportLab: the report embeds the lab's chart only when asked and
// some run can be scored.
func TestReportLab(t *testing.T) {
	short := labRun()
	short.Iterations = short.Iterations[:50]
	for _, c := range []struct {
		runs []Run
		lab  bool
		want bool
	}{{[]Run{labRun()}, true, true}, {[]Run{labRun()}, false, false}, {[]Run{short}, true, false}} {
		s, err := Summarize(c.runs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteReport(&b, c.runs, s, ReportMeta{Title: "t", Lab: c.lab}, PlotOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "<h2>Stopping-criteria lab</h2>"); got != c.want {
			t.Errorf("%d iterations, lab %v: section %v, want %v", len(c.runs[0].Iterations), c.lab, got, c.want)
		}
	}
}
