package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/jitsim/jitsim/warmup"
)

// The browser checks look at the charts and the report as a reader does:
// in headless Chromium, driven over the DevTools protocol.

// browserFlags are the launch flags for a shared CI machine: no GPU, no
// sandbox (containers), and none of the browser's own network traffic.
var browserFlags = []chromedp.ExecAllocatorOption{
	chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
	chromedp.Flag("disable-quic", true), chromedp.NoFirstRun,
	chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true), chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"),
}

// reportMaxWidth is the widest a report may be: a laptop's window.
const reportMaxWidth = 1280

// chromiumPath returns the Chromium binary, or skips the test (saying what was not checked)
// when none is installed — except under CI=true, where .ci/run installs it and its absence is
// a failure.
func chromiumPath(t *testing.T, unchecked string) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true: .ci/run must install Debian's chromium")
	}
	t.Skip("chromium not installed: " + unchecked + " (apt-get install chromium)")
	return ""
}

// newBrowser starts headless Chromium with a fresh profile, or skips the
// test when none is installed — except under CI=true, where .ci/run
// installs it and its absence is a failure. extra options come after (and
// override) browserFlags.
func newBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	bin := chromiumPath(t, "the charts and the report were not opened in a browser")
	opts := append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(reportMaxWidth, 900)}, browserFlags...)
	opts = append(opts, extra...)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel3)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx
}

// overlapJS lists the pairs of <text> elements of an SVG document whose
// boxes (getBBox, in user units, mapped through each element's transform)
// overlap by more than half a unit each way.
const overlapJS = `(() => {
  const svg = document.documentElement;
  const boxes = [];
  for (const t of document.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    const b = t.getBBox();
    const m = t.getCTM();
    const p = (x, y) => { const q = svg.createSVGPoint(); q.x = x; q.y = y; return q.matrixTransform(m); };
    const a = p(b.x, b.y), c = p(b.x + b.width, b.y + b.height);
    boxes.push({s: t.textContent, x0: Math.min(a.x, c.x), y0: Math.min(a.y, c.y), x1: Math.max(a.x, c.x), y1: Math.max(a.y, c.y)});
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    if (w > 0.5 && h > 0.5) out.push(JSON.stringify(a.s) + ' overlaps ' + JSON.stringify(b.s));
  }
  return JSON.stringify({texts: boxes.length, overlaps: out});
})()`

// checkSVGText opens an SVG as its own document and fails on any two text
// boxes that overlap; it returns how many texts it measured.
func checkSVGText(t *testing.T, ctx context.Context, path string) int {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](overlapJS))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var r struct {
		Texts    int      `json:"texts"`
		Overlaps []string `json:"overlaps"`
	}
	if err := json.Unmarshal([]byte(res), &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if r.Texts == 0 {
		t.Errorf("%s: no text measured", filepath.Base(path))
	}
	for _, o := range r.Overlaps {
		t.Errorf("%s: %s", filepath.Base(path), o)
	}
	return r.Texts
}

// checkReportWidth opens report.html in a 1280 px window and fails when
// the page is wider than the window; it returns the page's scroll width.
func checkReportWidth(t *testing.T, ctx context.Context, path string) int {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(reportMaxWidth, 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if w > reportMaxWidth {
		t.Errorf("%s is %d px wide, more than %d: the reader scrolls sideways", path, w, reportMaxWidth)
	}
	return w
}

func fileURL(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + abs
}

// screenshot writes a PNG of path (an SVG or the report) as the browser
// shows it at 1280 px, the whole page.
func screenshot(t *testing.T, ctx context.Context, path, out string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(reportMaxWidth, 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("screenshot of %s: %v", path, err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", path, err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// screenshotTop writes a PNG of the top of path's page, 1280 × 600 px: a report's heading
// and first table.
func screenshotTop(t *testing.T, ctx context.Context, path, out string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(reportMaxWidth, 600), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("screenshot of %s: %v", path, err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot of %s: %v", path, err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// browserStudy runs `jitsim warmup` on the model clock (deterministic and
// fast) with the given extra arguments into a temporary directory.
// The output directory is relative to a temporary working directory, so
// that the command line the report shows names no machine's paths.
func browserStudy(t *testing.T, extra ...string) string {
	t.Helper()
	t.Chdir(t.TempDir())
	dir, err := filepath.Abs("study")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"warmup", "--clock=model", "--cpu=icelake-server", "--jdk=17", "--forks=1", "--out", "study"}, extra...)
	args = append(args, "-DdataSize=16384", "AESGCMBench", "0", "40", "5")
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim %s: status %d\n%s", strings.Join(args, " "), st, errb.String())
	}
	return dir
}

// releasesStudy writes a study of a shipped workload (capped) on four releases, as
// `jitsim warmup --jdk=8,17,21,25` does: one set per release on one chart, and the report's
// releases table.
func releasesStudy(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "workloads", "tls-records.toml"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("tls-records.toml", src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"warmup", "--clock=model", "--cpu=skylake-avx2", "--jdk=8,17,21,25", "--out", "study", "-DmaxOps=100", "tls-records.toml"}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim %s: status %d\n%s", strings.Join(args, " "), st, errb.String())
	}
	dir, err := filepath.Abs("study")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// recordedJVM is a real JDK 17's run of the same loop (AESGCMBench 0 60 5,
// 16 KiB, -XX:+PrintCompilation), recorded once by `jitsim warmup --jvm`
// so that the overlay check needs no java.
var recordedJVM, _ = filepath.Abs(filepath.Join("testdata", "jvm-jdk17-gcm16k.json"))

// jvmOverlay writes a study of the default set on the model clock with the
// recorded real JVM's run beside it, as `warmup --jvm` would.
func jvmOverlay(t *testing.T) string {
	t.Helper()
	dir := browserStudy(t, "--compare", "")
	read := func(p string) []warmup.Run {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		runs, err := warmup.ReadJSON(f, f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	runs := append(read(filepath.Join(dir, "series.json")), read(recordedJVM)...)
	meta := warmup.ReportMeta{Title: "AESGCMBench -DdataSize=16384 0 40 5 warm-up beside a real JDK 17",
		Command: "jitsim warmup --clock=model --cpu=icelake-server --jdk=17 --forks=1 --jvm=java -DdataSize=16384 AESGCMBench 0 40 5"}
	if _, err := warmup.WriteAll(dir, runs, warmup.Options{}, meta, warmup.PlotOptions{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWarmupChartsInBrowser renders the five views a reader meets — one
// option set, two compared sets with their ratio, a real JVM overlay, one
// workload on four releases, and a compile timeline with many methods —
// and checks in Chromium that no
// two texts of any SVG overlap and that every report fits 1280 px.
// JITSIM_UPDATE_DOC=1 also writes the screenshots docs/warmup.md shows.
func TestWarmupChartsInBrowser(t *testing.T) {
	ctx := newBrowser(t)
	update := os.Getenv("JITSIM_UPDATE_DOC") == "1"
	docs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	imported, err := filepath.Abs(importedLog)
	if err != nil {
		t.Fatal(err)
	}
	views := []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"one-set", func(t *testing.T) string { return browserStudy(t, "--compare", "") }},
		{"compare", func(t *testing.T) string {
			return browserStudy(t, "--compare", "", "--compare", "-XX:TieredStopAtLevel=1")
		}},
		{"jvm-overlay", jvmOverlay},
		{"releases", releasesStudy},
		{"timeline", func(t *testing.T) string {
			return browserStudy(t, "--compare", "", "--compare", "-XX:TieredStopAtLevel=1", "--import-printcompilation", "jdk17="+imported)
		}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			dir := v.dir(t)
			n := 0
			for _, f := range []string{"warmup.svg", "timeline.svg"} {
				n += checkSVGText(t, ctx, filepath.Join(dir, f))
			}
			checkChangeCaptions(t, ctx, dir)
			w := checkReportWidth(t, ctx, filepath.Join(dir, "report.html"))
			t.Logf("%s: %d texts without overlap; report %d px wide", v.name, n, w)
			if update {
				shot := filepath.Join(dir, "warmup.svg")
				if v.name == "timeline" {
					shot = filepath.Join(dir, "timeline.svg")
				}
				screenshot(t, ctx, shot, filepath.Join(docs, "warmup-"+v.name+".png"))
				if v.name == "releases" {
					screenshotTop(t, ctx, filepath.Join(dir, "report.html"), filepath.Join(docs, "warmup-releases-report.png"))
				}
				if v.name == "compare" {
					screenshot(t, ctx, filepath.Join(dir, "report.html"), filepath.Join(docs, "warmup-report.png"))
				}
			}
		})
	}
}

// captionJS counts, in the open chart, the changepoint numbers above the
// curves ("7") and the caption entries under the legend ("[7]").
const captionJS = `(() => {
  const marks = {}, entries = {};
  for (const t of document.querySelectorAll('text')) {
    const s = t.textContent.trim();
    let m = s.match(/^\[(\d+)\]$/);
    if (m) { entries[m[1]] = (entries[m[1]] || 0) + 1; continue; }
    m = s.match(/^(\d+)$/);
    if (m) marks[m[1]] = (marks[m[1]] || 0) + 1;
  }
  return JSON.stringify({marks, entries});
})()`

// checkChangeCaptions opens dir's warmup.svg and checks that every
// changepoint of each option set's first fork (summary.json) has its
// number once in the caption, with a caption line that names its
// iteration, and its number as a mark (or an axis tick that reads the
// same).
func checkChangeCaptions(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := warmup.ReadSummaryJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var want []int // the iterations, in mark order
	seen := map[string]bool{}
	for _, r := range s.Runs {
		if seen[r.Label] {
			continue
		}
		seen[r.Label] = true
		for _, c := range r.Changes {
			want = append(want, c.Iteration)
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s: no changepoint to caption", dir)
	}
	svg := filepath.Join(dir, "warmup.svg")
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(t, svg))); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](captionJS))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Marks, Entries map[string]int }
	if err := json.Unmarshal([]byte(res), &got); err != nil {
		t.Fatal(err)
	}
	texts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('text'), t => t.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(texts, "\n")
	for i, it := range want {
		n := strconv.Itoa(i + 1)
		if got.Entries[n] != 1 {
			t.Errorf("warmup.svg: caption entry [%s] appears %d times, want once", n, got.Entries[n])
		}
		if got.Marks[n] < 1 {
			t.Errorf("warmup.svg: no mark %s above the curves", n)
		}
		if !strings.Contains(all, fmt.Sprintf("iteration %d", it)) {
			t.Errorf("warmup.svg: no caption names iteration %d (changepoint %s)", it, n)
		}
	}
	if !strings.Contains(all, "installed: GHASH::processBlocks") {
		t.Errorf("warmup.svg: the caption names no install of GHASH::processBlocks")
	}
}

// TestOverlapCheckFails shows the overlap check can fail: two texts at the
// same place.
func TestOverlapCheckFails(t *testing.T) {
	ctx := newBrowser(t)
	path := filepath.Join(t.TempDir(), "bad.svg")
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><text x="10" y="50">overlapping</text><text x="14" y="52">text</text></svg>`
	if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string](overlapJS))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res, `\"overlapping\" overlaps \"text\"`) {
		t.Errorf("overlap not found: %s", res)
	}
}
