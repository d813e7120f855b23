package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/jitsim/jitsim/serve"
)

// browserCommand is what the browser test types: JDK 17 on an Ice Lake server with every
// pane filled.
var browserCommand = serve.Command{Release: "17", CPU: "icelake-server", Argv: []string{"-XX:+PrintCompilation",
	"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "-XX:UseAVX=4", "-Dmode=GCM", "-DmsgSize=1024", "TestAESMain", "400", "100"}}

// panesJS reads, once the page's run is over, the status line, the panes of command line A
// and the tour's cells as the page shows them; before that it is false.
const panesJS = `(() => {
  const status = document.getElementById('status').textContent;
  const r = document.getElementById('run-a');
  if (status === '' || status === 'running on the model clock…' || r === null) return false;
  const q = (s) => r.querySelector(s).textContent;
  const t = (id) => document.getElementById(id).textContent;
  return JSON.stringify({status: status, stdout: q('.stdout pre'), stderr: q('pre.stderr'), program: q('pre.program'),
    compilation: q('pre.compilation'), inlining: q('pre.inlining'), trees: [...r.querySelectorAll('pre.tree')].map((p) => p.textContent),
    summaries: [...r.querySelectorAll('.explain summary')].map((s) => s.textContent),
    tour: document.getElementById('tour').hidden ? [] : [t('tour-published'), t('tour-jitsim')]});
})()`

// unlabelledJS lists the form controls no label names.
const unlabelledJS = `JSON.stringify([...document.querySelectorAll('input, select')].filter((e) => e.labels.length === 0).map((e) => e.id))`

type browserPanes struct {
	Status, Stdout, Stderr, Program, Compilation, Inlining string
	Trees, Summaries, Tour                                 []string
}

// TestPlaygroundInBrowser drives the page in headless Chromium: it types a command line and
// submits it with Enter, checks every pane against `jitsim run` and `jitsim explain` for the
// same command, follows the permalink, and takes a screenshot at 1280×800
// (JITSIM_PLAYGROUND_PNG=FILE keeps it, for docs/playground.png).
func TestPlaygroundInBrowser(t *testing.T) {
	// The page talks to the test's server on 127.0.0.1 and to nothing else.
	ctx := newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"))
	srv := httptest.NewServer(wired().playground(serve.Config{}))
	defer srv.Close()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitReady(`#cpu-a option[value="icelake-server"]`)); err != nil {
		t.Fatal(err)
	}
	unlabelled, err := chromedp.Run(ctx, chromedp.Evaluate[string](unlabelledJS))
	if err != nil || unlabelled != "[]" {
		t.Fatalf("form controls without a label: %s %v", unlabelled, err)
	}
	// Keyboard only: Tab from the release to the CPU model to the command line, choose by
	// typing, replace the line and press Enter.
	typed := strings.Join(browserCommand.Argv, " ")
	err = chromedp.Do(ctx, chromedp.Focus("#jdk-a"), chromedp.KeyEvent("1"), chromedp.KeyEvent("7"),
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent("icelake"), chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace),
		chromedp.KeyEvent(typed), chromedp.KeyEvent(kb.Enter))
	if err != nil {
		t.Fatal(err)
	}
	first := waitPanes(t, ctx)
	stdout, stderr, status := cliRun(serve.CLILine(browserCommand)[1:])
	if status != 0 || first.Stdout != stdout || first.Stderr != stderr {
		t.Fatalf("the page's stdout/stderr differ from jitsim run's (status %d):\n%q\n%q\nCLI:\n%q\n%q", status, first.Stdout, first.Stderr, stdout, stderr)
	}
	if !strings.Contains(first.Stderr, "UseAVX=4 is not supported") {
		t.Errorf("the warnings pane lacks the UseAVX warning: %q", first.Stderr)
	}
	lines := strings.SplitAfter(stdout, "\n")
	for name, pane := range map[string]string{"compilation": first.Compilation, "inlining": first.Inlining, "program": first.Program} {
		if pane == "" || !subsequence(strings.SplitAfter(pane, "\n"), lines) {
			t.Errorf("pane %s is empty or not jitsim run's lines:\n%s", name, pane)
		}
	}
	if len(first.Compilation)+len(first.Inlining)+len(first.Program) != len(stdout) {
		t.Errorf("the panes do not add up to stdout")
	}
	if len(first.Trees) == 0 {
		t.Fatal("no dispatch trees on the page")
	}
	vm := browserCommand.Argv[:len(browserCommand.Argv)-3]
	for i, tree := range first.Trees {
		id := strings.Fields(first.Summaries[i])[0]
		want, _, _ := cliRun(append(append([]string{"explain", "--jdk=17", "--cpu=icelake-server"}, vm...), id))
		if tree != want {
			t.Errorf("%s: the page's tree differs from jitsim explain:\n%s\nCLI:\n%s", id, tree, want)
		}
	}
	// The permalink, opened afresh, shows the same panes.
	link, err := chromedp.Run(ctx, chromedp.AttributeValue("#permalink", "href"))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+link.Value)); err != nil {
		t.Fatal(err)
	}
	again := waitPanes(t, ctx)
	if !equalJSON(t, again, first) {
		t.Fatal("the permalink shows other panes")
	}
	// A tour page runs its A/B request and puts jitsim's ratio beside the published one.
	var poc serve.TourPage
	for _, p := range serve.Tour {
		if p.ID == "poc" {
			poc = p
		}
	}
	poc.Request.Version = Version
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?"+serve.Permalink(poc.Request)+"#tour/poc")); err != nil {
		t.Fatal(err)
	}
	cells := waitPanes(t, ctx).Tour
	if len(cells) != 2 || !strings.HasPrefix(cells[0], "1.07×") || !strings.Contains(cells[1], "×") {
		t.Fatalf("tour page: %q", cells)
	}
	t.Logf("tour %s: published %s; jitsim %s", poc.ID, cells[0], cells[1])
	if p := os.Getenv("JITSIM_PLAYGROUND_TOUR_PNG"); p != "" {
		shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+link.Value)); err != nil {
		t.Fatal(err)
	}
	waitPanes(t, ctx)
	png := t.TempDir() + "/playground.png"
	if p := os.Getenv("JITSIM_PLAYGROUND_PNG"); p != "" {
		png = p
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(png, shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitPanes waits until the page's run is done and returns its panes.
func waitPanes(t *testing.T, ctx context.Context) browserPanes {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	raw, err := chromedp.Run(wctx, chromedp.Poll[string](panesJS))
	for i := 0; i < 3 && err != nil && strings.Contains(err.Error(), "Cannot find context"); i++ {
		// The new document replaced the one the poll began in (Navigate can return on the
		// old page's load event): poll the new one.
		raw, err = chromedp.Run(wctx, chromedp.Poll[string](panesJS))
	}
	if err != nil {
		t.Fatal(err)
	}
	var p browserPanes
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != "done" {
		t.Fatalf("status %q; stderr pane:\n%s", p.Status, p.Stderr)
	}
	return p
}
