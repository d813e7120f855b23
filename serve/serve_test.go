package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// blockingEngine is an Engine for the server's own tests: a run waits until its context
// ends or release is closed, and counts what it was asked. The model's runs are tested
// through the real engine in cmd/jitsim.
type blockingEngine struct {
	release  chan struct{}
	started  chan struct{} // one value per run that began
	runs     atomic.Int32
	canceled atomic.Int32
}

func newBlockingEngine() *blockingEngine {
	return &blockingEngine{release: make(chan struct{}), started: make(chan struct{}, 100)}
}

func (e *blockingEngine) Scenarios() []string { return []string{"TestAESMain", "AESGCMBench"} }

func (e *blockingEngine) Run(ctx context.Context, c Command, _ Caps) Output {
	e.runs.Add(1)
	e.started <- struct{}{}
	select {
	case <-e.release:
		return Output{Stdout: strings.Join(c.Argv, " ") + "\n"}
	case <-ctx.Done():
		e.canceled.Add(1)
		return Output{Status: 1, Stderr: "stopped: " + context.Cause(ctx).Error() + "\n"}
	}
}

func (e *blockingEngine) Explain(Command) ([]Explained, error) { return nil, nil }

const okBody = `{"release":"17","cpu":"icelake-server","argv":["TestAESMain","10","5"]}`

func post(h http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/run", strings.NewReader(body)))
	return rec
}

func request(argv ...string) string {
	b, _ := json.Marshal(Request{Command: Command{Release: "17", CPU: "icelake-server", Argv: argv}})
	return string(b)
}

// TestRefusals sends every file-system-touching input and every malformed request: each
// gets a 4xx whose message names the input, and none reaches the engine.
func TestRefusals(t *testing.T) {
	e := newBlockingEngine()
	h := New(Config{Version: "test", Engine: e})
	cases := []struct {
		name, body string
		status     int
		names      string
	}{
		{"argfile", request("@opts.txt", "TestAESMain"), 400, "@argfile"},
		{"Flags file", request("-XX:Flags=.hotspotrc", "TestAESMain"), 400, "-XX:Flags="},
		{"VMOptionsFile", request("-XX:VMOptionsFile=vm.txt", "TestAESMain"), 400, "-XX:VMOptionsFile="},
		{"LogFile", request("-XX:LogFile=x.log", "TestAESMain"), 400, "-XX:LogFile="},
		{"LogCompilation", request("-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "TestAESMain"), 400, "-XX:+LogCompilation"},
		{"Xlog file=", request("-Xlog:jit+compilation=debug:file=jit.log", "TestAESMain"), 400, "-Xlog:…:file="},
		{"Xlog bare file", request("-Xlog:jit+compilation:jit.log", "TestAESMain"), 400, "-Xlog:…:file="},
		{"Xlog stderr", request("-Xlog:jit+compilation=debug:stderr", "TestAESMain"), 400, "-Xlog:…:stderr"},
		{"Xloggc", request("-Xloggc:gc.log", "TestAESMain"), 400, "-Xloggc:"},
		{"CompileCommandFile", request("-XX:CompileCommandFile=cc.txt", "TestAESMain"), 400, "-XX:CompileCommandFile="},
		{"SharedArchiveFile", request("-XX:SharedArchiveFile=a.jsa", "TestAESMain"), 400, "-XX:SharedArchiveFile="},
		{"agentpath", request("-agentpath:/lib/x.so", "TestAESMain"), 400, "-agentpath:"},
		{"javaagent", request("-javaagent:a.jar", "TestAESMain"), 400, "-javaagent:"},
		{"tmpdir", request("-Djava.io.tmpdir=/x", "TestAESMain"), 400, "-Djava.io.tmpdir="},
		{"jar", request("-jar", "app.jar"), 400, "-jar"},
		{"scenario file", request("examples/8073108-ghash-gcm.toml"), 400, "examples/8073108-ghash-gcm.toml"},
		{"workload file", request("short-batch.toml"), 400, "short-batch.toml"},
		{"file argument", request("TestAESMain", "../x.toml"), 400, "../x.toml"},
		{"--out", request("--out=dir", "TestAESMain"), 400, "--out"},
		{"--profile", request("--profile=p.json", "TestAESMain"), 400, "--profile"},
		{"--clock", request("--clock=wall", "TestAESMain"), 400, "--clock"},
		{"--jdk", request("--jdk=8", "TestAESMain"), 400, "--jdk"},
		{"other own option", request("--stats", "TestAESMain"), 400, "--stats"},
		{"threads", request("--threads=64", "TestAESMain"), 400, "--threads"},
		{"-Dthreads", request("-Dthreads=9", "TestAESMain"), 400, "-Dthreads"},
		{"message size", request("-DmsgSize=100000000", "TestAESMain"), 400, "-DmsgSize"},
		{"not a scenario", request("Hello"), 400, `"Hello"`},
		{"empty argv", request(), 400, "argv"},
		{"too many args", request(strings.Fields(strings.Repeat("-Xint ", MaxArgs+1))...), 400, "argv"},
		{"long arg", request("-Dx="+strings.Repeat("y", MaxArgLen), "TestAESMain"), 400, "at most"},
		{"host CPU", `{"release":"17","cpu":"host","argv":["TestAESMain"]}`, 400, `cpu "host"`},
		{"unknown CPU", `{"release":"17","cpu":"pentium","argv":["TestAESMain"]}`, 400, `"pentium"`},
		{"unknown release", `{"release":"11","cpu":"icelake-server","argv":["TestAESMain"]}`, 400, `release "11"`},
		{"compare side", `{"release":"17","cpu":"icelake-server","argv":["TestAESMain"],"compare":{"release":"17","cpu":"icelake-server","argv":["@x"]}}`, 400, "@argfile"},
		{"other version", `{"version":"0.0.1","release":"17","cpu":"icelake-server","argv":["TestAESMain"]}`, 409, "0.0.1"},
		{"bad JSON", `{"release":`, 400, "not a run request"},
		{"not JSON", `release=17`, 400, "invalid JSON"},
		{"empty body", ``, 400, "empty body"},
		{"argv not a list", `{"release":"17","cpu":"icelake-server","argv":"TestAESMain"}`, 400, `"argv"`},
		{"unknown field", `{"release":"17","cpu":"icelake-server","argv":["TestAESMain"],"file":"x"}`, 400, `"file"`},
		{"two values", okBody + okBody, 400, "more than one"},
		{"too large", `{"argv":["` + strings.Repeat("x", MaxBody) + `"]}`, 413, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := post(h, c.body)
			var e Error
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatalf("answer is not a JSON error: %q", rec.Body.String())
			}
			if rec.Code != c.status || !strings.Contains(e.Message, c.names) {
				t.Errorf("status %d, %q; want %d naming %s", rec.Code, e.Message, c.status, c.names)
			}
			if strings.Contains(e.Message, "goroutine") || strings.Contains(e.Message, "main.") {
				t.Errorf("answer looks like a stack trace: %s", e.Message)
			}
		})
	}
	if n := e.runs.Load(); n != 0 {
		t.Errorf("%d refused requests reached the engine", n)
	}
	// The same checks pass an ordinary command line, with the options java takes that read
	// nothing.
	close(e.release)
	for _, body := range []string{okBody, request("-Xlog:jit+compilation=debug:stdout", "-cp", "lib", "--threads=2", "-DmsgSize=4096", "TestAESMain", "10", "5"), request("-version")} {
		if rec := post(h, body); rec.Code != 200 {
			t.Errorf("%s: status %d: %s", body, rec.Code, rec.Body)
		}
	}
}

// TestBusyAndResponsive fills the queue with 20 concurrent clients: runs beyond the two
// slots and the waiting room get 503 at once, the cheap endpoints keep answering quickly
// while the slots are taken, and the waiting runs complete once the slots free.
func TestBusyAndResponsive(t *testing.T) {
	e := newBlockingEngine()
	srv := httptest.NewServer(New(Config{Version: "test", Engine: e, Concurrent: 2, Waiting: 3, QueueWait: 5 * time.Second}))
	defer srv.Close()
	const clients = 20
	codes := make(chan int, clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.URL+"/api/run", "application/json", strings.NewReader(okBody))
			if err != nil {
				codes <- 0
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	<-e.started
	<-e.started // both slots taken
	for i := range 10 {
		start := time.Now()
		resp, err := http.Get(srv.URL + "/api/version")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if d := time.Since(start); resp.StatusCode != 200 || d > 2*time.Second {
			t.Fatalf("/api/version #%d with the queue full: status %d after %v", i, resp.StatusCode, d)
		}
	}
	// The clients beyond 2 running + 3 waiting were refused without waiting.
	busy := 0
	for busy < clients-5 {
		select {
		case c := <-codes:
			if c != 503 {
				t.Fatalf("a client got %d while the queue was full, want 503", c)
			}
			busy++
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d clients were refused", busy)
		}
	}
	close(e.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("a queued client got %d, want 200", c)
		}
	}
	if n := e.runs.Load(); n != 5 {
		t.Errorf("%d runs, want 5", n)
	}
}

// TestCancelAndTimeout: a client that goes away cancels its run, and a run over the time
// limit is stopped with the limit as its cause.
func TestCancelAndTimeout(t *testing.T) {
	e := newBlockingEngine()
	h := New(Config{Version: "test", Engine: e, Timeout: 50 * time.Millisecond})
	rec := post(h, okBody)
	var res Result
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	if !strings.Contains(res.Runs[0].Stderr, "time limit of 50ms") {
		t.Errorf("a run over the limit says %q", res.Runs[0].Stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("POST", "/api/run", strings.NewReader(okBody)).WithContext(ctx)
	done := make(chan struct{})
	go func() {
		h := New(Config{Version: "test", Engine: e})
		h.ServeHTTP(httptest.NewRecorder(), req)
		close(done)
	}()
	<-e.started
	<-e.started
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the run went on after its client went away")
	}
	if n := e.canceled.Load(); n != 2 {
		t.Errorf("%d runs canceled, want 2", n)
	}
}

// TestPermalinkRoundTrip: a permalink holds the request whole, arguments with any
// characters in order, and the A/B side.
func TestPermalinkRoundTrip(t *testing.T) {
	q := Request{Version: "v1", Command: Command{Release: "8u", CPU: "haswell-e5-2660v3", Argv: []string{"-Dx=a b&c=d#e", "TestAESMain", "10"}},
		Compare: &Command{Release: "25", CPU: "neoverse-n1", Argv: []string{"-XX:-UseGHASHIntrinsics", "TestAESMain"}}}
	got, err := ParsePermalink("?" + Permalink(q))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(q)
	b, _ := json.Marshal(got)
	if !bytes.Equal(a, b) {
		t.Fatalf("round trip:\n%s\n%s", a, b)
	}
	if _, err := ParsePermalink("jdk=17&evil=1"); err == nil || !strings.Contains(err.Error(), "evil") {
		t.Errorf("unknown parameter: %v", err)
	}
}

// FuzzDecodeRequest: any body decodes to a request or an *Error, never a panic; a request
// that passes Check survives its permalink unchanged.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(okBody)
	f.Add(`{"release":"8u","cpu":"neoverse-n1","argv":["-XX:-UseGHASHIntrinsics","TestAESMain"],"compare":{"release":"8u","cpu":"neoverse-n1","argv":["TestAESMain"]}}`)
	f.Add(`{"release":"17","cpu":"icelake-server","argv":["-Xlog:jit:file=x","@a","-cp"]}`)
	f.Add(`{"argv":[1]}`)
	f.Fuzz(func(t *testing.T, body string) {
		q, err := DecodeRequest(strings.NewReader(body))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		if err := Check(q, "", []string{"TestAESMain"}); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		back, err := ParsePermalink(Permalink(q))
		if err != nil {
			t.Fatalf("permalink of a valid request: %v", err)
		}
		if Permalink(back) != Permalink(q) {
			t.Fatalf("permalink changed the request: %q vs %q", Permalink(back), Permalink(q))
		}
	})
}

// FuzzParsePermalink: any query string is a request or an *Error, never a panic, and a
// request read from a permalink is written back to one that reads the same.
func FuzzParsePermalink(f *testing.F) {
	f.Add("v=0.1.0-dev&jdk=17&cpu=icelake-server&a=-XX%3A%2BPrintCompilation&a=TestAESMain")
	f.Add("?bjdk=8u&ba=x&ba=&a=%ZZ")
	f.Add("jdk=17;cpu=x")
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParsePermalink(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			return
		}
		back, err := ParsePermalink(Permalink(q))
		if err != nil || Permalink(back) != Permalink(q) {
			t.Fatalf("permalink %q does not read back: %v", Permalink(q), err)
		}
	})
}
