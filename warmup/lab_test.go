package warmup

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// labRun: 200 iterations of one op, 5 ms each for the first 10, then 1 ms;
// a compile queued at iteration 2, started at 3, installed at 9, and code
// made not entrant at 12: the true steady state starts at iteration 13,
// 10·5 + 3·1 = 53 ms into the run, at 1 ms per op.
func labRun() Run {
	r := Run{Label: "set", Clock: "model"}
	var at time.Duration
	for i := range 200 {
		d := time.Millisecond
		if i < 10 {
			d = 5 * time.Millisecond
		}
		it := Iteration{Index: i, Start: at, Duration: d, Ops: 1}
		switch i {
		case 2:
			it.Events = []Event{{Kind: EventQueued, Method: "m", Level: 4, At: at, CompileID: 1}}
		case 3:
			it.Events = []Event{{Kind: EventStarted, Method: "m", Level: 4, At: at, CompileID: 1}}
		case 9:
			it.Events = []Event{{Kind: EventInstalled, Method: "m", Level: 4, At: at, CompileID: 1}}
		case 12:
			it.Events = []Event{{Kind: EventNotEntrant, Method: "n", Level: 3, At: at}}
		}
		r.Iterations = append(r.Iterations, it)
		at += d
	}
	return r
}

func TestTrueSteady(t *testing.T) {
	r := labRun()
	iter, mean, err := TrueSteady(r, 100)
	if err != nil || iter != 13 || math.Abs(mean-1e-3) > 1e-15 {
		t.Errorf("true steady state %d at %v (%v), want 13 at 1 ms", iter, mean, err)
	}
	if _, _, err := TrueSteady(r, 190); err == nil || !strings.Contains(err.Error(), "settles at iteration 13 of 200") {
		t.Errorf("short tail: %v", err)
	}
	// A task still waiting in the queue at the end: no true steady state.
	r.Iterations[150].Events = []Event{{Kind: EventQueued, Method: "m", Level: 4, CompileID: 7}}
	if _, _, err := TrueSteady(r, 10); err == nil {
		t.Error("a compile never started, yet a steady state")
	}
}

// TestScoreRunHandWorked, against the true start 53 ms:
//   - 5 iterations: warm-up ends at 25 ms, 28 ms early, nothing wasted; the
//     next 10 iterations are 5 at 5 ms and 5 at 1 ms, mean 3 ms: 200 % off;
//   - 20 iterations: ends at 50 + 10 = 60 ms, 7 ms late and wasted; 1 ms
//     measured: 0 % off;
//   - JMH's 50 s: never ends in a 240 ms run: 240 − 53 = 187 ms wasted;
//   - the first 10 iterations are all 5 ms, so every dynamic rule sees a
//     flat series: CoV and RCIW are 0 and stop after their history of 5,
//     as early as 5 iterations; KLD compares one constant with itself and
//     stops after its history of 6: at 30 ms, 23 ms early, measuring 4
//     iterations of 5 ms and 6 of 1 ms, mean 2.6 ms: 160 % off.
func TestScoreRunHandWorked(t *testing.T) {
	s, err := ScoreRun(labRun(), StopRules)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Score{}
	for _, x := range s {
		by[x.Rule] = x
	}
	ms := time.Millisecond
	if x := by["5 iterations"]; x.Error != -28*ms || x.Wasted != 0 || math.Abs(x.Deviation-2) > 1e-9 {
		t.Errorf("5 iterations: %+v", x)
	}
	if x := by["20 iterations"]; x.Error != 7*ms || x.Wasted != 7*ms || x.Deviation > 1e-9 {
		t.Errorf("20 iterations: %+v", x)
	}
	if x := by["JMH default (5 × 10 s)"]; !x.NeverEnded || x.Wasted != 187*ms || !math.IsNaN(x.Deviation) {
		t.Errorf("JMH default: %+v", x)
	}
	for _, name := range []string{"CoV < 0.01 (Laaber et al.)", "RCIW < 0.03 (Laaber et al.)"} {
		if x := by[name]; x.Warmup != 5 || x.Error != -28*ms || math.Abs(x.Deviation-2) > 1e-9 {
			t.Errorf("%s: %+v", name, x)
		}
	}
	if x := by["KLD > 0.99 (Laaber et al.)"]; x.Warmup != 6 || x.Error != -23*ms || math.Abs(x.Deviation-1.6) > 1e-9 {
		t.Errorf("KLD: %+v", x)
	}
	var b bytes.Buffer
	if err := WriteLabTable(&b, []Run{labRun()}, StopRules); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "20 iterations") || !strings.Contains(b.String(), "never") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestCoVWarmupHandWorked: values 4 then nine 2s (one op each). The
// cumulative CoV (sample standard deviation over mean) after iterations
// 1…10 is 0, 0.471, 0.433, 0.400, 0.373, 0.350, 0.331, 0.314, 0.300, 0.287.
// After iteration 8 the largest difference to the four before is
// 0.400 − 0.314 = 0.086; after 9 it is 0.373 − 0.300 = 0.073. With threshold
// 0.08 the warm-up ends after iteration 9; with 0.01 it never ends.
func TestCoVWarmupHandWorked(t *testing.T) {
	r := Run{Label: "x"}
	for i, v := range []float64{4, 2, 2, 2, 2, 2, 2, 2, 2, 2} {
		r.Iterations = append(r.Iterations, Iteration{Index: i, Start: time.Duration(i), Duration: time.Duration(v * 1e9), Ops: 1})
	}
	if got := covWarmup(0.08, 5, 5, 50)(r); got != 9 {
		t.Errorf("warm-up %d, want 9", got)
	}
	if got := covWarmup(0.01, 5, 5, 50)(r); got != len(r.Iterations) {
		t.Errorf("threshold 0.01: warm-up %d, want never (%d)", got, len(r.Iterations))
	}
}
