package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar reports the steps of calibrate and validate on w, which
// name their JVM java. On a terminal it redraws one bar; on a file or a
// pipe (a run left in the background, a CI log) it writes one line per
// step, so a long run is never silent. Both carry the time so far and,
// from the second step on, an estimate of the time left at the pace so
// far. Writers that are not files (tests' buffers) get nothing.
func progressBar(w io.Writer, java string) func(done, total int, what string) {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	p := &stepProgress{w: w, java: java, terminal: st.Mode()&os.ModeCharDevice != 0, start: time.Now(), now: time.Now}
	return p.step
}

// stepProgress is the state of progressBar's reporter.
type stepProgress struct {
	w        io.Writer
	java     string
	terminal bool
	start    time.Time
	now      func() time.Time
}

// step reports that done of total steps are finished and what runs next.
func (p *stepProgress) step(done, total int, what string) {
	elapsed := p.now().Sub(p.start)
	timing := "elapsed " + shortDuration(elapsed)
	if done > 0 && done < total {
		left := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
		timing += ", about " + shortDuration(left) + " left"
	}
	if !p.terminal {
		fmt.Fprintf(p.w, "%s: step %d/%d (%s): %s\n", p.java, min(done+1, total), total, timing, what)
		return
	}
	const width = 30
	n := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\r\033[K%s [%s%s] %d/%d %s (%s)", p.java, strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total, what, timing)
	if done == total {
		fmt.Fprintln(p.w)
	}
}

// shortDuration prints d rounded to seconds (1m05s, 42s).
func shortDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}
