package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/serve"
)

// playRequest is a small GCM run with every pane filled: PrintCompilation and PrintInlining
// on JDK 17, a warning (an obsolete-free diagnostic flag set twice is silent, so a range
// notice is used), and enough iterations for a curve.
var playRequest = serve.Request{Command: serve.Command{Release: "17", CPU: "icelake-server", Argv: []string{
	"-XX:+PrintCompilation", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "-Dmode=GCM", "-DmsgSize=1024",
	"TestAESMain", "200", "60"}}}

// postRun sends q to the playground and returns the status and body.
func postRun(t *testing.T, h http.Handler, q serve.Request) (int, []byte) {
	t.Helper()
	body, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/run", bytes.NewReader(body)))
	return rec.Code, rec.Body.Bytes()
}

func decodeResult(t *testing.T, body []byte) serve.Result {
	t.Helper()
	var res serve.Result
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return res
}

// cliRun runs the CLI in process and returns its streams and status.
func cliRun(args []string) (stdout, stderr string, status int) {
	var o, e bytes.Buffer
	status = run(args, strings.NewReader(""), &o, &e, emptyEnv)
	return o.String(), e.String(), status
}

// TestPlaygroundMatchesCLI: each pane of a run is what `jitsim run` prints for the same
// command line, byte for byte, and each dispatch tree is `jitsim explain`'s.
func TestPlaygroundMatchesCLI(t *testing.T) {
	h := wired().playground(serve.Config{})
	code, body := postRun(t, h, playRequest)
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	res := decodeResult(t, body)
	r := res.Runs[0]
	stdout, stderr, status := cliRun(serve.CLILine(playRequest.Command)[1:])
	if r.Stdout != stdout || r.Stderr != stderr || r.Status != status {
		t.Errorf("playground differs from the CLI:\nstatus %d vs %d\nstderr %q vs %q\nstdout:\n%s\nCLI:\n%s", r.Status, status, r.Stderr, stderr, r.Stdout, stdout)
	}
	if r.Compilation == "" || r.Inlining == "" || r.Program == "" {
		t.Fatalf("empty pane: compilation %d, inlining %d, program %d bytes", len(r.Compilation), len(r.Inlining), len(r.Program))
	}
	if len(r.Compilation)+len(r.Inlining)+len(r.Program) != len(r.Stdout) {
		t.Errorf("the panes hold %d bytes, stdout %d", len(r.Compilation)+len(r.Inlining)+len(r.Program), len(r.Stdout))
	}
	for _, pane := range []string{r.Compilation, r.Inlining, r.Program} {
		if !subsequence(strings.SplitAfter(pane, "\n"), strings.SplitAfter(stdout, "\n")) {
			t.Errorf("pane is not a subsequence of the CLI's lines:\n%s", pane)
		}
	}
	if len(r.Explain) == 0 {
		t.Fatal("no dispatch trees")
	}
	for _, ex := range r.Explain {
		want, _, st := cliRun([]string{"explain", "--jdk=17", "--cpu=icelake-server", "-XX:+PrintCompilation", "-XX:+UnlockDiagnosticVMOptions",
			"-XX:+PrintInlining", "-Dmode=GCM", "-DmsgSize=1024", ex.Intrinsic})
		if st != 0 || ex.Tree != want {
			t.Errorf("%s: tree differs from jitsim explain (status %d):\n%s\nCLI:\n%s", ex.Intrinsic, st, ex.Tree, want)
		}
	}
	if !strings.HasPrefix(res.CurveSVG, "<?xml") && !strings.HasPrefix(res.CurveSVG, "<svg") {
		t.Errorf("no SVG curve (note %q): %.80s", res.CurveNote, res.CurveSVG)
	}
	if !strings.Contains(res.CurveSVG, "implEncryptBlock") {
		t.Error("the curve has no tier lane naming AESCrypt::implEncryptBlock")
	}
}

// subsequence reports whether every line of part appears in all, in order.
func subsequence(part, all []string) bool {
	i := 0
	for _, l := range part {
		if l == "" {
			continue
		}
		for i < len(all) && all[i] != l {
			i++
		}
		if i == len(all) {
			return false
		}
		i++
	}
	return true
}

// TestPlaygroundReproducible: a request's permalink decodes to the request, and run again
// through it gives the same bytes — and an A/B request has its ratio.
func TestPlaygroundReproducible(t *testing.T) {
	h := wired().playground(serve.Config{})
	// JDK-8073108's comparison: on 8u, GCM's GHASH is the intrinsic's or Java's.
	q := serve.Request{Command: serve.Command{Release: "8u", CPU: "haswell-e5-2660v3", Argv: []string{"-Dmode=GCM", "-DmsgSize=512", "TestAESMain", "1000", "300"}}}
	q.Compare = &serve.Command{Release: "8u", CPU: "haswell-e5-2660v3", Argv: append([]string{"-XX:-UseGHASHIntrinsics"}, q.Argv...)}
	_, first := postRun(t, h, q)
	res := decodeResult(t, first)
	back, err := serve.ParsePermalink(res.Permalink)
	if err != nil {
		t.Fatal(err)
	}
	q.Version = Version
	if !equalJSON(t, back, q) {
		t.Fatalf("permalink %q decodes to %+v, not the request", res.Permalink, back)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/run?"+res.Permalink, nil))
	// The permalink is the same request again: the same bytes.
	if got, _ := io.ReadAll(rec.Body); !bytes.Equal(got, first) {
		t.Fatalf("the permalink's answer differs from the request's")
	}
	if res.Ratio == nil || res.Ratio.Value <= 1 {
		t.Fatalf("GHASH off / on: ratio %+v, want > 1", res.Ratio)
	}
	t.Logf("GHASH off/on ratio %s (%s)", res.Ratio.Format, res.Ratio.Basis)
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// TestPlaygroundConcurrent runs the same small request on the playground's two slots at once:
// each answer is whole and equal to the other (no run's output reaches another's panes).
// CI runs it under the race detector.
func TestPlaygroundConcurrent(t *testing.T) {
	h := wired().playground(serve.Config{})
	q := serve.Request{Command: serve.Command{Release: "17", CPU: "icelake-server", Argv: []string{"-XX:+PrintCompilation", "-Dmode=GCM", "-DmsgSize=256", "TestAESMain", "60", "20"}}}
	bodies := make([][]byte, 2)
	done := make(chan int)
	for i := range bodies {
		go func() {
			code, body := postRun(t, h, q)
			if code != 200 {
				t.Errorf("status %d: %s", code, body)
			}
			bodies[i] = body
			done <- i
		}()
	}
	<-done
	<-done
	if !bytes.Equal(bodies[0], bodies[1]) {
		t.Fatal("two concurrent runs of one request answered differently")
	}
	if r := decodeResult(t, bodies[0]).Runs[0]; r.Status != 0 || r.Compilation == "" {
		t.Fatalf("status %d, compilation pane %q", r.Status, r.Compilation)
	}
}
