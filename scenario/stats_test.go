package scenario

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestPhaseStats: each iteration's wall time runs from its thread's previous iteration (the
// first from the start), phases keep their order, and the ratio divides the two clocks.
func TestPhaseStats(t *testing.T) {
	t0 := time.Unix(0, 0)
	wall := t0
	s := NewPhaseStats(func() time.Time { return wall })
	step := func(d time.Duration, it Iteration) {
		wall = wall.Add(d)
		s.Iteration(it)
	}
	step(2*time.Second, Iteration{Phase: "encrypt-warmup", Thread: 0, Duration: 10 * time.Second, Ops: 1, Bytes: 16})
	step(1*time.Second, Iteration{Phase: "encrypt-warmup", Thread: 1, Duration: 3 * time.Second, Ops: 1, Bytes: 16})
	step(1*time.Second, Iteration{Phase: "encrypt", Thread: 0, Duration: 4 * time.Second, Ops: 2, Bytes: 32})
	ps := s.Phases()
	if len(ps) != 2 || ps[0].Phase != "encrypt-warmup" || ps[1].Phase != "encrypt" {
		t.Fatalf("phases %+v", ps)
	}
	// thread 1's first iteration counts from the start (3 s), thread 0's second from its first (2 s).
	if w := ps[0]; w.Wall != 5*time.Second || w.Simulated != 13*time.Second || w.Iterations != 2 || w.Bytes != 32 {
		t.Errorf("encrypt-warmup %+v", w)
	}
	if e := ps[1]; e.Wall != 2*time.Second || e.SimPerWall() != 2 || e.Ops != 2 {
		t.Errorf("encrypt %+v, %g simulated s per wall s", e, e.SimPerWall())
	}
	var b bytes.Buffer
	if err := s.Write(&b, "model"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"model s per wall s", "encrypt-warmup  2", "2.600", "2.000"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if (PhaseStat{}).SimPerWall() != 0 {
		t.Error("no wall time: want ratio 0")
	}
}
