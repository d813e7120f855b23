package main

import (
	"io"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress draws mpb bars for the study commands on a terminal. It is nil —
// and every method a no-op — when stderr is not a terminal (a pipe, a file,
// a test) or CI is set, so that logs and captured output stay clean.
type progress struct{ p *mpb.Progress }

// newProgress returns bars on w when w is a terminal and the environment is
// not CI, else nil.
func newProgress(w io.Writer, getenv func(string) (string, bool)) *progress {
	if ci, ok := getenv("CI"); ok && ci != "" && ci != "false" {
		return nil
	}
	if term, _ := getenv("TERM"); term == "dumb" {
		return nil
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progress{p: mpb.New(mpb.WithOutput(f), mpb.WithWidth(40))}
}

// bar is one progress bar; nil is a valid no-op bar.
type bar struct{ b *mpb.Bar }

// bar adds a bar of total steps named name.
func (p *progress) bar(name string, total int) *bar {
	if p == nil {
		return nil
	}
	return &bar{p.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.CountersNoUnit("%d/%d", decor.WCSyncSpace), decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace)))}
}

// counter adds a bar for a count with no known total: it shows the count
// and the word what ("12 iterations") and is completed by done.
func (p *progress) counter(name, what string) *bar {
	if p == nil {
		return nil
	}
	return &bar{p.p.New(0, mpb.NopStyle(),
		mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(decor.CurrentNoUnit("%d "+what, decor.WCSyncSpace), decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace)))}
}

// inc advances the bar by one step.
func (b *bar) inc() {
	if b != nil {
		b.b.Increment()
	}
}

// done completes the bar wherever it stands (a run that ended early).
func (b *bar) done() {
	if b != nil && !b.b.Completed() {
		b.b.SetTotal(-1, true)
	}
}

// wait waits for the bars to be drawn for the last time.
func (p *progress) wait() {
	if p != nil {
		p.p.Wait()
	}
}
