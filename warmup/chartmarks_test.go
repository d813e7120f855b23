package warmup

import (
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
)

func TestCompactCauses(t *testing.T) {
	ch := Change{Iteration: 12, Follows: 9, Causes: []Cause{
		{Kind: EventInstalled, Method: "com.sun.crypto.provider.GHASH::processBlocks", Level: 4, QueueDelay: 1500 * time.Microsecond},
		{Kind: EventInstalled, Method: "com.sun.crypto.provider.GCTR::update", Level: 2},
		{Kind: EventOSR, Method: "com.sun.crypto.provider.CounterMode::implCrypt", Level: 3},
		{Kind: EventFirstStub, Method: "com.sun.crypto.provider.AESCrypt::implEncryptBlock", Level: 4},
		{Kind: EventNotEntrant, Method: "com.sun.crypto.provider.GHASH::processBlocks", Level: 3},
		{Kind: EventInstalled, Method: "com.sun.crypto.provider.GHASH::update", Level: 4},
	}}
	got := compactCauses(ch, nil)
	want := "C2 installed: GHASH::processBlocks (queued 1.5ms), GHASH::update; " +
		"C1 level 2 installed (the level-2 detour: C2's queue was long): GCTR::update; " +
		"OSR C1 level 3 installed: CounterMode::implCrypt; first stub call: AESCrypt::implEncryptBlock; " +
		"level 3 made not entrant: GHASH::processBlocks"
	if got != want {
		t.Errorf("compactCauses:\n got %s\nwant %s", got, want)
	}
	end := compactCauses(Change{Iteration: 12, Follows: 10}, map[int]int{10: 4})
	if !strings.Contains(end, "2-iteration segment begun at [4]") {
		t.Errorf("segment end: %s", end)
	}
	if quiet := compactCauses(Change{Iteration: 30, Follows: 12}, nil); !strings.Contains(quiet, "no VM event") {
		t.Errorf("no events: %s", quiet)
	}
}

func TestWrapText(t *testing.T) {
	ts := chartText(captionFnt)
	text := strings.Repeat("GHASH::processBlocks installed at level 4, ", 20)
	w := vg.Points(200)
	lines := wrapText(ts, text, w, 3)
	if len(lines) != 3 || !strings.HasSuffix(lines[2], " …") {
		t.Fatalf("want 3 lines, the last cut with …: %q", lines)
	}
	for _, l := range lines {
		if ts.Width(l) > w {
			t.Errorf("line %q is %v wide, more than %v", l, ts.Width(l), w)
		}
	}
	if got := wrapText(ts, "short", w, 3); len(got) != 1 || got[0] != "short" {
		t.Errorf("short text: %q", got)
	}
}

func TestMarkRowsStackCloseMarks(t *testing.T) {
	marks := []cpMark{{n: 1, x: 2}, {n: 2, x: 2}, {n: 3, x: 10}, {n: 4, x: 10.2}, {n: 5, x: 30}}
	rows, n := markRows(marks, func(v float64) vg.Length { return vg.Points(v * 10) })
	if n != 2 || rows[0] != 0 || rows[1] != 1 || rows[2] != 0 || rows[3] != 1 || rows[4] != 0 {
		t.Errorf("rows %v (%d), want [0 1 0 1 0] (2)", rows, n)
	}
}
