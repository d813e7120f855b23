package scenario

import (
	"fmt"
	"io"
	"sync"
	"text/tabwriter"
	"time"
)

// PhaseStat is what a run did in one phase (Iteration.Phase) and how long it took on the
// run's clock and on the host's wall clock.
type PhaseStat struct {
	Phase      string
	Iterations int
	Ops, Bytes int64
	// Simulated is the sum of the iterations' durations on the run's clock.
	Simulated time.Duration
	// Wall is the host's wall time of the same iterations: for each, the time since its
	// thread's previous iteration ended (the first: since the stats began), so set-up
	// between iterations is counted with the iteration after it.
	Wall time.Duration
}

// SimPerWall is simulated seconds per wall second (0 when no wall time was measured).
func (p PhaseStat) SimPerWall() float64 {
	if p.Wall <= 0 {
		return 0
	}
	return p.Simulated.Seconds() / p.Wall.Seconds()
}

// PhaseStats is an Observer that measures how fast a run's clock advances against the
// host's wall clock, phase by phase (`jitsim run --stats`): on the model clock it says how
// many simulated seconds one second of the host buys. Safe for concurrent use.
type PhaseStats struct {
	now   func() time.Time
	mu    sync.Mutex
	start time.Time
	last  map[int]time.Time
	order []string
	by    map[string]*PhaseStat
}

// NewPhaseStats starts the stats at now() (time.Now when nil).
func NewPhaseStats(now func() time.Time) *PhaseStats {
	if now == nil {
		now = time.Now
	}
	return &PhaseStats{now: now, start: now(), last: map[int]time.Time{}, by: map[string]*PhaseStat{}}
}

// Iteration implements Observer.
func (s *PhaseStats) Iteration(it Iteration) {
	t := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, ok := s.last[it.Thread]
	if !ok {
		prev = s.start
	}
	s.last[it.Thread] = t
	p := s.by[it.Phase]
	if p == nil {
		p = &PhaseStat{Phase: it.Phase}
		s.by[it.Phase] = p
		s.order = append(s.order, it.Phase)
	}
	p.Iterations++
	p.Ops += it.Ops
	p.Bytes += it.Bytes
	p.Simulated += it.Duration
	p.Wall += t.Sub(prev)
}

// Phases returns each phase's stats in the order the phases began.
func (s *PhaseStats) Phases() []PhaseStat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PhaseStat, 0, len(s.order))
	for _, ph := range s.order {
		out = append(out, *s.by[ph])
	}
	return out
}

// Write prints the table of `jitsim run --stats`: per phase, iterations, operations, time on
// the run's clock and on the wall clock, their ratio and the wall time per operation.
func (s *PhaseStats) Write(w io.Writer, clock string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "phase\titerations\tops\t%s s\twall s\t%s s per wall s\twall µs/op\n", clock, clock)
	for _, p := range s.Phases() {
		perOp := 0.0
		if p.Ops > 0 {
			perOp = float64(p.Wall.Microseconds()) / float64(p.Ops)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.4f\t%.4f\t%.3f\t%.2f\n", p.Phase, p.Iterations, p.Ops, p.Simulated.Seconds(), p.Wall.Seconds(), p.SimPerWall(), perOp)
	}
	return tw.Flush()
}
