package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/warmup"
)

// warmupSets are the four option sets of the GCM warm-up study.
var warmupSets = []string{"", "-XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics", "-Xint", "-XX:TieredStopAtLevel=1"}

// importedLog is the recorded JDK 17 PrintCompilation log the GCM study
// overlays, so that the browser check covers the compile timeline with an
// import.
var importedLog = filepath.Join("..", "..", "warmup", "testdata", "printcompilation", "jdk17-gcm16k.log")

// runWarmupGCM runs `jitsim warmup` on AESGCMBench with 16 KiB messages
// on JDK 17 under the four option sets (each with -Xbatch) into a temporary
// directory, overlaying importedLog as "jdk17".
func runWarmupGCM(t *testing.T) (dir, stdout string) {
	t.Helper()
	dir = t.TempDir()
	// -Xbatch (outside --compare: every set) makes each compile block the
	// thread that triggered it, so the levels an iteration sees depend on
	// call counts alone, not on how busy the machine's compiler threads are.
	args := []string{"warmup", "--jdk=17", "--forks=1", "--out", dir, "--import-printcompilation", "jdk17=" + importedLog, "-Xbatch"}
	for _, s := range warmupSets {
		args = append(args, "--compare", s)
	}
	args = append(args, "-DdataSize=16384", "AESGCMBench", "0", "8", "2")
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim %s: status %d\nstderr: %s", strings.Join(args, " "), st, errb.String())
	}
	if errb.Len() != 0 {
		t.Errorf("stderr not empty off a terminal: %q", errb.String())
	}
	return dir, out.String()
}

func noEnv(string) (string, bool) { return "", false }

// TestWarmupGCM checks the outputs of one study: every file, the terminal
// table with a sparkline per option set, and series rows that carry the
// real VM's levels and events — on JDK 17 CounterMode::implCrypt (GCM's
// GCTR) enters at level 0, then 3, then 4, and its C2 code's first call to
// the AES stub shows as a first-stub event; under -Xint nothing compiles.
func TestWarmupGCM(t *testing.T) {
	dir, stdout := runWarmupGCM(t)
	for _, f := range warmup.Files {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", f, err)
		}
	}
	if !strings.Contains(stdout, "imported jdk17 ("+importedLog+"): 100 compile lines, 80 of crypto methods; skipped 41 other and 1 garbled lines") {
		t.Errorf("terminal: no line for the imported log in\n%s", stdout)
	}
	for _, s := range warmupSets {
		label := optionLabel(strings.Fields(s))
		line := ""
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, label+" ") {
				line = l // the summary table's row; the ratio table's comes later
				break
			}
		}
		if line == "" || !strings.ContainsAny(line, "▁▂▃▄▅▆▇█") {
			t.Errorf("terminal: no row with a sparkline for %q in\n%s", label, stdout)
		}
	}
	f, err := os.Open(filepath.Join(dir, "series.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := warmup.ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(warmupSets) {
		t.Fatalf("%d runs, want %d", len(runs), len(warmupSets))
	}
	const ctr = "com.sun.crypto.provider.CounterMode::implCrypt"
	for _, r := range runs {
		t.Run(r.Label, func(t *testing.T) {
			if len(r.Iterations) != 8 || r.JDK != "17" || r.Clock != "wall" {
				t.Errorf("run: %d iterations, JDK %q, clock %q", len(r.Iterations), r.JDK, r.Clock)
			}
			var levels, installs []int // the method's level at each iteration's end; its install events
			var stub, compiled bool
			for _, it := range r.Iterations {
				if it.Bytes != 2*16384 {
					t.Errorf("iteration %d: %d bytes", it.Index, it.Bytes)
				}
				if l, ok := it.Levels[ctr]; ok && (len(levels) == 0 || levels[len(levels)-1] != l) {
					levels = append(levels, l)
				}
				for _, e := range it.Events {
					stub = stub || e.Kind == warmup.EventFirstStub && e.Level == 4
					compiled = compiled || e.Kind == warmup.EventInstalled
					if e.Kind == warmup.EventInstalled && e.Method == ctr {
						installs = append(installs, e.Level)
					}
				}
			}
			switch r.Label {
			case "default":
				// Level 3 may be installed and replaced within one iteration on a fast host:
				// the iterations' levels go 0 → (3) → 4, the installs 3 then 4.
				if !slices.Equal(levels, []int{0, 3, 4}) && !slices.Equal(levels, []int{0, 4}) {
					t.Errorf("levels of %s: %v, want [0 3 4] or [0 4]", ctr, levels)
				}
				if i3, i4 := slices.Index(installs, 3), slices.Index(installs, 4); i3 < 0 || i4 < i3 {
					t.Errorf("installs of %s: levels %v, want level 3 and then level 4", ctr, installs)
				}
				if !stub {
					t.Errorf("no first-stub event from C2 code")
				}
			case "-Xint":
				if compiled || stub || !slices.Equal(levels, []int{0}) {
					t.Errorf("-Xint: compiled=%v stub=%v levels=%v", compiled, stub, levels)
				}
			case "-XX:TieredStopAtLevel=1":
				if stub || slices.Contains(levels, 4) || !slices.Contains(levels, 1) {
					t.Errorf("C1 only: stub=%v levels=%v", stub, levels)
				}
			}
		})
	}
	checkReportInChromium(t, filepath.Join(dir, "report.html"))
}

// chromiumFlags keep headless Chromium off the network and from its own
// background traffic; --host-resolver-rules maps every host name to an
// unresolvable one, so a request the page tried would fail and show in the
// net log.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND"}

// checkReportInChromium opens the report in headless Chromium, checks the
// rendered DOM has the chart and the compile timeline with the imported
// log (SVG data URIs that decode) and the tables with every option set and
// the import, and that the net log holds no request other than
// the file itself. Without chromium the check is skipped — except under
// CI=true, where .ci/run installs it and its absence is a failure.
func checkReportInChromium(t *testing.T, report string) {
	t.Helper()
	page, netlog := chromiumDump(t, report)
	if !strings.Contains(page, "</table>") || !strings.Contains(page, "</html>") {
		t.Fatalf("rendered DOM incomplete:\n%.2000s", page)
	}
	imgs := regexp.MustCompile(`<img class="chart"[^>]*src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"`).FindAllStringSubmatch(page, -1)
	if len(imgs) != 2 {
		t.Errorf("%d chart images in the rendered DOM, want 2 (warm-up chart, compile timeline)", len(imgs))
	}
	for i, m := range imgs {
		svg, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("chart %d: data URI is not an SVG (%v)", i, err)
		}
		if i == 1 && !bytes.Contains(svg, []byte("imported: jdk17")) {
			t.Errorf("the compile timeline lacks the imported log")
		}
	}
	if !strings.Contains(page, "<td>jdk17</td>") {
		t.Errorf("no row for the imported log in the rendered DOM")
	}
	for _, s := range warmupSets {
		label := optionLabel(strings.Fields(s))
		var spans []string // the report wraps a label between its options only
		for _, f := range strings.Fields(label) {
			spans = append(spans, `<span class="opt">`+f+`</span>`)
		}
		if !strings.Contains(page, "<td><code>"+strings.Join(spans, " ")+"</code></td>") {
			t.Errorf("no table row for %q in the rendered DOM", label)
		}
	}
	for _, a := range regexp.MustCompile(`\b(?:src|href)="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(a[1], "data:") && !strings.HasPrefix(a[1], "#") {
			t.Errorf("the rendered page refers outside itself: %.80s", a[1])
		}
	}
	for _, u := range pageRequests(t, netlog) {
		t.Errorf("the page made a network request: %s", u)
	}
}

// pageRequests returns the URLs of the requests in a Chromium net log that
// a page started. The browser's own background requests (update checks,
// account probes, which the flags do not all silence) carry no initiator
// ("not an origin"); a request from a page carries the page's origin ("null"
// for a file:// page). The file:// load itself never enters the network stack.
func pageRequests(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("net log: %v", err)
	}
	var nl struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int            `json:"type"`
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &nl); err != nil {
		t.Fatalf("net log %s: %v", path, err)
	}
	start, ok := nl.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatalf("net log has no URL_REQUEST_START_JOB event type")
	}
	var out []string
	for _, e := range nl.Events {
		url, _ := e.Params["url"].(string)
		if e.Type != start || url == "" {
			continue
		}
		if init, _ := e.Params["initiator"].(string); init != "not an origin" {
			out = append(out, fmt.Sprintf("%s (initiator %q)", url, init))
		}
	}
	return out
}

// chromiumDump opens file in headless Chromium and returns the rendered DOM
// and the path of the net log.
func chromiumDump(t *testing.T, file string) (dom, netlog string) {
	t.Helper()
	bin := chromiumPath(t, "the report was not opened in a browser")
	profile := t.TempDir()
	netlog = filepath.Join(t.TempDir(), "netlog.json")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(chromiumFlags), "--user-data-dir="+profile, "--log-net-log="+netlog, "--dump-dom", "file://"+abs)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return string(out), netlog
}

// TestPageRequestsSeesRemoteImage shows the net-log check can fail: a page
// with an image on another host is caught, though the host name resolves
// nowhere.
func TestPageRequestsSeesRemoteImage(t *testing.T) {
	page := filepath.Join(t.TempDir(), "remote.html")
	if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"><table></table></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, netlog := chromiumDump(t, page)
	reqs := pageRequests(t, netlog)
	if !slices.ContainsFunc(reqs, func(u string) bool { return strings.Contains(u, "example.invalid/x.png") }) {
		t.Errorf("page requests %v: the remote image is missing", reqs)
	}
}

// TestWarmupErrors checks refusals name the culprit.
func TestWarmupErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{nil, "no scenario given", 2},
		{[]string{"NoSuchMain"}, "not a jitsim scenario", 1},
		{[]string{"--forks=0", "AESGCMBench"}, "--forks", 2},
		{[]string{"--forks"}, "--forks needs a value", 2},
		{[]string{"--colour=red", "AESGCMBench"}, "unknown option --colour", 2},
		{[]string{"--by-time=yes", "AESGCMBench"}, "takes no value", 2},
		{[]string{"--compare", "-Xint", "--compare", " -Xint", "AESGCMBench"}, "given twice", 2},
		{[]string{"--compare", "-XX:+NoSuchFlag", "AESGCMBench"}, "NoSuchFlag", 1},
		{[]string{"--jvm=java", "TestAESMain"}, "--jvm", 2},
		{[]string{"-jar", "x.jar"}, "not Java programs", 2},
		{[]string{"--jdk=16", "AESGCMBench"}, "--jdk", 2},
		{[]string{"--jdk=17,x", "AESGCMBench"}, "--jdk", 2},
		{[]string{"--jdk=17,25,17", "AESGCMBench"}, "17 is listed twice", 2},
		{[]string{"--jdk=17,25", "--jvm=java", "AESGCMBench"}, "give one --jdk release", 2},
		{[]string{"--compare", "-Xint", "--baseline", "-Xcomp", "AESGCMBench"}, "--baseline \"-Xcomp\" is not one of the option sets (-Xint)", 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			st := run(append([]string{"warmup"}, tc.args...), strings.NewReader(""), &out, &errb, noEnv)
			if st != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want status %d and an error containing %q", st, errb.String(), tc.code, tc.want)
			}
		})
	}
}

// TestProgressOnlyOnTerminal: no bars into a buffer, a regular file, or
// anything under CI.
func TestProgressOnlyOnTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ci := func(k string) (string, bool) { return "true", k == "CI" }
	for name, p := range map[string]*progress{
		"buffer": newProgress(&bytes.Buffer{}, noEnv), "file": newProgress(f, noEnv), "CI": newProgress(os.Stderr, ci),
	} {
		if p != nil {
			t.Errorf("%s: progress bars drawn", name)
		}
	}
	var p *progress // the nil progress and its bars are no-ops
	b := p.bar("x", 3)
	b.inc()
	b.done()
	p.counter("y", "things").inc()
	p.wait()
}

// TestWarmupJDK25GHASHOffPhases checks on the model clock the two phases
// of JDK 25's GCM under -XX:-UseGHASHIntrinsics (measured on Temurin
// 25.0.3, docs/warmup.md): while the caller of implGCMCrypt0 is below C2,
// GCTR.update and GHASH.update run separately — C2 code with the CTR stub,
// but GHASH in Java — so 16 KiB messages are many times slower than the
// default, whose C2 GHASH.update calls the GHASH stub; once C2 code that
// calls implGCMCrypt0 is installed (implGCMCrypt's, or EncryptOp.doFinal's,
// which inlines it and, parsing 4948 bytes, compiles longer), the call takes
// the combined AES-GCM stub, which UseGHASHIntrinsics does not gate, and both
// sets run alike. The report names that install as the change's cause and
// the stub's first call among the run's events.
func TestWarmupJDK25GHASHOffPhases(t *testing.T) {
	t.Parallel() // the model clock: deterministic however the CPUs are shared
	dir := t.TempDir()
	const off = "-XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics"
	args := []string{"warmup", "--clock=model", "--cpu=icelake-server", "--jdk=25", "--forks=1", "--out", dir,
		"--compare", "", "--compare", off, "-DdataSize=16384", "AESGCMBench", "0", "130", "100"}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim %s: status %d\nstderr: %s", strings.Join(args, " "), st, errb.String())
	}
	f, err := os.Open(filepath.Join(dir, "series.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := warmup.ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Label != "default" || runs[1].Label != off {
		t.Fatalf("runs %d, labels %q", len(runs), []string{runs[0].Label})
	}
	def, noGHASH := runs[0], runs[1]
	const (
		ghashUpdate = "com.sun.crypto.provider.GHASH::update"
		gctrUpdate  = "com.sun.crypto.provider.GCTR::update"
		lastBlock   = "com.sun.crypto.provider.GaloisCounterMode$EncryptOp::doFinal"
		gcm0        = "com.sun.crypto.provider.GaloisCounterMode::implGCMCrypt0"
		gcmCrypt    = "com.sun.crypto.provider.GaloisCounterMode::implGCMCrypt"
	)
	// The change: the iteration whose events hold both the C2 install of
	// a caller of implGCMCrypt0 and implGCMCrypt0's first stub call from C2.
	change, via := -1, ""
	for _, it := range noGHASH.Iterations {
		var stub bool
		for _, e := range it.Events {
			if e.Kind == warmup.EventInstalled && (e.Method == lastBlock || e.Method == gcmCrypt) && e.Level == 4 && via == "" {
				via = e.Method
			}
			stub = stub || e.Kind == warmup.EventFirstStub && e.Method == gcm0 && e.Level == 4 &&
				strings.HasPrefix(e.Detail, "galoisCounterMode_AESCrypt/")
		}
		if via != "" && stub {
			change = it.Index
			break
		}
		via = ""
	}
	if change < 0 {
		t.Fatalf("no iteration with the C2 install of %s or %s and %s's first stub call", lastBlock, gcmCrypt, gcm0)
	}
	// The slow phase: both runs have C2 code for GHASH.update and
	// GCTR.update, the no-GHASH run not yet the combined stub.
	var slowDef, slowOff []float64
	for i := range change - 1 {
		d, o := def.Iterations[i], noGHASH.Iterations[i]
		if d.Levels[ghashUpdate] == 4 && d.Levels[gctrUpdate] == 4 && o.Levels[ghashUpdate] == 4 && o.Levels[gctrUpdate] == 4 && d.Index > 0 &&
			def.Iterations[i-1].Levels[gctrUpdate] == 4 && noGHASH.Iterations[i-1].Levels[gctrUpdate] == 4 {
			slowDef, slowOff = append(slowDef, d.PerOp()), append(slowOff, o.PerOp())
		}
	}
	if len(slowDef) < 5 {
		t.Fatalf("%d iterations between the C2 GHASH.update/GCTR.update and the change at %d", len(slowDef), change)
	}
	if r := median(slowOff) / median(slowDef); r < 10 {
		t.Errorf("while Java GHASH runs: %.1f× the default's time per op, want ≥ 10× (Temurin 25: ≈ 30–50×)", r)
	}
	var endDef, endOff []float64
	for i := len(def.Iterations) - 10; i < len(def.Iterations); i++ {
		endDef, endOff = append(endDef, def.Iterations[i].PerOp()), append(endOff, noGHASH.Iterations[i].PerOp())
	}
	if r := median(endOff) / median(endDef); r < 0.8 || r > 1.25 {
		t.Errorf("after C2 code for %s: %.2f× the default's time per op, want ≈ 1×", via, r)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The install lands inside iteration change, which runs partly on each code: the
	// changepoint falls at that iteration or at the next, the first wholly on the new code.
	cause := "C2 code for " + strings.TrimPrefix(via, "com.sun.crypto.provider.") + " was installed"
	stubEvent := fmt.Sprintf("#%d · first-stub · L4 (galoisCounterMode_AESCrypt/", change)
	found, stubFound := false, false
	for _, l := range strings.Split(string(report), "\n") {
		at := strings.Contains(l, fmt.Sprintf("iteration %d: time per op ", change)) || strings.Contains(l, fmt.Sprintf("iteration %d: time per op ", change+1))
		found = found || at && strings.Contains(l, cause)
		stubFound = stubFound || strings.Contains(l, stubEvent) && strings.Contains(l, "which -XX:-UseGHASHIntrinsics does not turn off")
	}
	if !found {
		t.Errorf("report.html: no change at iteration %d or %d naming the C2 install (%s)", change, change+1, cause)
	}
	if !stubFound {
		t.Errorf("report.html: no event of iteration %d naming the combined stub and the flag it ignores", change)
	}
}

// median of v (v is reordered).
func median(v []float64) float64 {
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	} else {
		return (v[n/2-1] + v[n/2]) / 2
	}
}

// TestWarmupAcrossReleases runs one workload on four releases (--jdk=8,17,21,25) on the model
// clock: one option set per release, one table with each release's stubs, landmarks and
// throughput, the same bytes on a second run, and the table in report.html.
func TestWarmupAcrossReleases(t *testing.T) {
	src := mustRead(t, "../../examples/workloads/tls-records.toml")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("tls.toml", src, 0o644); err != nil {
		t.Fatal(err)
	}
	study := func(out string) string {
		args := []string{"warmup", "--clock=model", "--cpu=skylake-avx2", "--jdk=8,17,21,25", "--out", out, "-DmaxOps=60", "tls.toml"}
		var o, e bytes.Buffer
		if st := run(args, strings.NewReader(""), &o, &e, noEnv); st != 0 {
			t.Fatalf("status %d\n%s", st, e.String())
		}
		return strings.ReplaceAll(o.String(), out, "OUT")
	}
	first := study("study-a")
	if second := study("study-b"); first != second {
		t.Fatalf("two model-clock studies differ:\n%s\n---\n%s", first, second)
	}
	_, table, ok := strings.Cut(first, "\noption set  JDK  steady at")
	if !ok {
		t.Fatalf("no release table:\n%s", first)
	}
	rows := map[string]string{}
	for _, l := range strings.Split(table, "\n")[1:5] {
		f := strings.Fields(l)
		if len(f) < 4 || f[0] != "JDK" {
			t.Fatalf("release row %q", l)
		}
		rows[f[1]] = l
	}
	if len(rows) != 4 {
		t.Fatalf("release rows %v", rows)
	}
	for _, rel := range []string{"17", "21", "25"} {
		if !strings.Contains(rows[rel], "aescrypt_encryptBlock/") {
			t.Errorf("JDK %s reached no AES stub: %q", rel, rows[rel])
		}
	}
	report, err := os.ReadFile(filepath.Join("study-a", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(report), "<h2>Releases</h2>")
	section, _, _ = strings.Cut(section, "</table>")
	for _, rel := range []string{"8", "17", "21", "25"} {
		if !strings.Contains(section, "<td>"+rel+"</td>") {
			t.Errorf("report.html's releases table has no JDK %s row:\n%s", rel, section)
		}
	}
}
