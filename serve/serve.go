// Package serve is jitsim's teaching playground: a local web page where a java command line
// becomes what `jitsim run` prints for it on the model clock — option errors and warnings,
// the scenario's output, PrintCompilation and PrintInlining, the dispatch tree of every
// intrinsic at every level (`jitsim explain`) and the warm-up curve with its tier lanes —
// with two command lines side by side and a permalink that reproduces the page.
//
// The package owns the HTTP side: requests and their limits, what a request may not touch,
// the queue, permalinks, the tour and the page. What a command line does is the Engine's,
// which the command wires to the very code `jitsim run` and `jitsim explain` run.
package serve

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/warmup"
)

// Engine runs command lines as `jitsim run --clock=model` and explains their dispatch as
// `jitsim explain` does.
type Engine interface {
	// Run runs c until it ends or ctx is done; caps bound its work.
	Run(ctx context.Context, c Command, caps Caps) Output
	// Explain returns the dispatch tree of every intrinsic at every level for c's release,
	// CPU model and VM options, as `jitsim explain` prints each.
	Explain(c Command) ([]Explained, error)
	// Scenarios lists the scenario names a command line may run.
	Scenarios() []string
}

// Caps bound one run's work: the payload bytes its iterations process (iterations × size)
// and the simulated time it may cover; a run over either stops at the next iteration.
type Caps struct {
	MaxBytes     int64
	MaxSimulated time.Duration
}

// Output is what one command line printed and measured.
type Output struct {
	Status int
	// Stdout and Stderr are exactly what `jitsim run` writes to them.
	Stdout, Stderr string
	// Program is the scenario's own output; TTY the VM's diagnostic output (both are in
	// Stdout, interleaved as java interleaves them).
	Program, TTY string
	// Series is the run's per-iteration series with its compile events (nil: no iteration ran).
	Series *warmup.Run
}

// Explained is one intrinsic's dispatch tree: the text `jitsim explain` prints and its
// document (`jitsim explain --json`), whose levels name the deciding flag or CPU feature.
type Explained struct {
	Intrinsic string          `json:"intrinsic"`
	Tree      string          `json:"tree"`
	Doc       json.RawMessage `json:"doc"`
}

// Config is a server's configuration; zero fields take the defaults below.
type Config struct {
	Version string // jitsim's version, pinned by permalinks
	Engine  Engine
	// Concurrent is how many runs execute at once (default 2); Waiting how many more may
	// wait for a slot (default 4), for at most QueueWait (default 10 s); more get 503.
	Concurrent, Waiting int
	QueueWait           time.Duration
	// Timeout bounds one request's runs in wall time (default 60 s).
	Timeout time.Duration
	Caps    Caps // default 256 MiB of payload, 30 simulated seconds
}

// Server is the playground's HTTP handler.
type Server struct {
	cfg   Config
	queue *queue
	mux   *http.ServeMux
}

//go:embed assets
var assets embed.FS

// New returns the playground's handler.
func New(cfg Config) *Server {
	if cfg.Concurrent <= 0 {
		cfg.Concurrent = 2
	}
	if cfg.Waiting < 0 {
		cfg.Waiting = 0
	} else if cfg.Waiting == 0 {
		cfg.Waiting = 4
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = 10 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Caps.MaxBytes <= 0 {
		cfg.Caps.MaxBytes = 256 << 20
	}
	if cfg.Caps.MaxSimulated <= 0 {
		cfg.Caps.MaxSimulated = 30 * time.Second
	}
	s := &Server{cfg: cfg, queue: newQueue(cfg.Concurrent, cfg.Waiting), mux: http.NewServeMux()}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded directory is part of the build
	}
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/version", s.version)
	s.mux.HandleFunc("GET /api/meta", s.meta)
	s.mux.HandleFunc("GET /api/tour", s.tour)
	s.mux.HandleFunc("POST /api/run", s.runPost)
	s.mux.HandleFunc("GET /api/run", s.runGet)
	return s
}

// ServeHTTP implements http.Handler. Every answer forbids framing and loading anything
// from elsewhere: the page works offline and is not embeddable.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) version(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]string{"version": s.cfg.Version})
}

// Meta is GET /api/meta: what the form offers.
type Meta struct {
	Version   string   `json:"version"`
	Releases  []string `json:"releases"`
	Default   string   `json:"default_release"`
	CPUs      []string `json:"cpus"`
	Scenarios []string `json:"scenarios"`
	Limits    Limits   `json:"limits"`
}

// Limits are a request's limits, for the page to show.
type Limits struct {
	MaxArgs      int     `json:"max_args"`
	MaxThreads   int     `json:"max_threads"`
	MaxSize      int     `json:"max_message_bytes"`
	MaxBytes     int64   `json:"max_payload_bytes"`
	MaxSimulated float64 `json:"max_simulated_seconds"`
	Timeout      float64 `json:"timeout_seconds"`
}

func (s *Server) meta(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, Meta{Version: s.cfg.Version, Releases: jdk.Names(), Default: jdk.Default.String(), CPUs: CPUNames(),
		Scenarios: s.cfg.Engine.Scenarios(), Limits: Limits{MaxArgs: MaxArgs, MaxThreads: MaxThreads, MaxSize: MaxSize,
			MaxBytes: s.cfg.Caps.MaxBytes, MaxSimulated: s.cfg.Caps.MaxSimulated.Seconds(), Timeout: s.cfg.Timeout.Seconds()}})
}

func (s *Server) tour(w http.ResponseWriter, _ *http.Request) {
	pages := make([]TourPage, len(Tour))
	for i, p := range Tour {
		p.Request.Version = s.cfg.Version
		p.Permalink = Permalink(p.Request)
		pages[i] = p
	}
	writeJSON(w, 200, pages)
}

func (s *Server) runPost(w http.ResponseWriter, r *http.Request) {
	q, err := DecodeRequest(http.MaxBytesReader(w, r.Body, MaxBody+1))
	if err != nil {
		writeError(w, err)
		return
	}
	s.run(w, r, q)
}

// runGet runs a permalink: the query string is the request.
func (s *Server) runGet(w http.ResponseWriter, r *http.Request) {
	q, err := ParsePermalink(r.URL.RawQuery)
	if err != nil {
		writeError(w, err)
		return
	}
	s.run(w, r, q)
}

// run checks q, waits for a slot, and runs its command lines under the request's context:
// a client that goes away cancels them.
func (s *Server) run(w http.ResponseWriter, r *http.Request, q Request) {
	if err := Check(q, s.cfg.Version, s.cfg.Engine.Scenarios()); err != nil {
		writeError(w, err)
		return
	}
	if q.Version == "" {
		q.Version = s.cfg.Version
	}
	release, err := s.queue.acquire(r.Context(), s.cfg.QueueWait)
	if err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(int(s.cfg.QueueWait.Seconds())))
		writeError(w, &Error{Status: 503, Message: err.Error()})
		return
	}
	defer release()
	ctx, cancel := context.WithTimeoutCause(r.Context(), s.cfg.Timeout, fmt.Errorf("the playground's time limit of %s", s.cfg.Timeout))
	defer cancel()
	res, err := Execute(ctx, s.cfg.Engine, q, s.cfg.Caps)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, 200, res)
}

// queue lets n runs execute at once and up to waiting more wait for a slot.
type queue struct {
	slots   chan struct{}
	waiters chan struct{}
}

func newQueue(n, waiting int) *queue {
	return &queue{slots: make(chan struct{}, n), waiters: make(chan struct{}, n+waiting)}
}

// errBusy is the answer when the queue is full or the wait is over.
var errBusy = errors.New("the playground is busy: every run slot is taken and the queue is full; try again shortly")

// acquire waits at most wait for a slot; it fails at once when the queue is full.
func (q *queue) acquire(ctx context.Context, wait time.Duration) (release func(), err error) {
	select {
	case q.waiters <- struct{}{}:
	default:
		return nil, errBusy
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case q.slots <- struct{}{}:
		return func() { <-q.slots; <-q.waiters }, nil
	case <-t.C:
	case <-ctx.Done():
	}
	<-q.waiters
	return nil, errBusy
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v) //nolint:errcheck // the client went away
}

func writeError(w http.ResponseWriter, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Status: 500, Message: err.Error()}
	}
	writeJSON(w, e.Status, e)
}
