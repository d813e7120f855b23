package validate

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/warmup"
)

// series makes a warm-up whose iteration i takes per[i] per operation, 10 operations each.
func series(per ...time.Duration) []warmup.Iteration {
	var its []warmup.Iteration
	var at time.Duration
	for i, p := range per {
		its = append(its, warmup.Iteration{Index: i, Start: at, Duration: 10 * p, Ops: 10})
		at += 10 * p
	}
	return its
}

// TestLandmarksOf works the landmarks of a hand-made warm-up: 1 ms, then 300 µs, then a
// steady 100 µs with one outlier.
func TestLandmarksOf(t *testing.T) {
	ms, us := time.Millisecond, time.Microsecond
	per := []time.Duration{ms, ms, 300 * us, 300 * us, 150 * us, 100 * us, 100 * us, 400 * us, 100 * us, 100 * us, 100 * us, 100 * us}
	l, err := landmarksOf(series(per...))
	if err != nil {
		t.Fatal(err)
	}
	// half speed: the first iteration at ≤ 200 µs/op is iteration 4, which ends after
	// 10×(1000+1000+300+300+150) µs.
	if l.FirstPerOp != ms || l.SteadyOp != 100*us || l.HalfSpeed != 27500*us {
		t.Errorf("%+v", l)
	}
	// steady: the rolling median of five is 150 µs at iteration 5 and 100 µs from
	// iteration 6 on, which starts after 10×(1000+1000+300+300+150+100) µs = 28.5 ms; the
	// outlier at 7 does not move it.
	if l.Steady != 28500*us {
		t.Errorf("steady at %v", l.Steady)
	}
	if _, err := landmarksOf(series(ms, ms)); err == nil {
		t.Error("two iterations gave landmarks")
	}
}

// TestJVMLandmarksRecorded reads a recorded JDK 17 warm-up run (40 iterations of 50
// operations of 1 KiB): its landmarks and the order in which the crypto methods reached
// levels 3 and 4.
func TestJVMLandmarksRecorded(t *testing.T) {
	out, err := os.ReadFile("testdata/gcmwarmup-jdk17-1k.txt")
	if err != nil {
		t.Fatal(err)
	}
	l, order, run, err := jvmLandmarks(out, 50, 1024)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Iterations) != 40 {
		t.Errorf("%d iterations", len(run.Iterations))
	}
	if l.FirstPerOp <= l.SteadyOp || l.HalfSpeed <= 0 || l.Steady < l.HalfSpeed/2 {
		t.Errorf("%+v", l)
	}
	i3, i4 := slices.Index(order, "AESCrypt::implEncryptBlock@3"), slices.Index(order, "AESCrypt::implEncryptBlock@4")
	if i3 < 0 || i4 < 0 || i4 < i3 {
		t.Errorf("implEncryptBlock's compiles in the order %v", order)
	}
	for _, e := range order {
		if !strings.HasSuffix(e, "@3") && !strings.HasSuffix(e, "@4") {
			t.Errorf("entry %q", e)
		}
	}
}

// TestMajorityOrder: the order pair by pair. Rounds A B C, B A C, A C B: A precedes B in two
// of three, A precedes C in three, B precedes C in two, so the majority is A B C though only
// one round holds it whole; jitsim's B A C orders one pair (A, B) against it; a pair the
// rounds split evenly counts against no order.
func TestMajorityOrder(t *testing.T) {
	rounds := [][]string{{"A", "B", "C"}, {"B", "A", "C"}, {"A", "C", "B", "D"}}
	if o, n := majorityOrder(rounds); !slices.Equal(o, []string{"A", "B", "C"}) || n != 1 {
		t.Errorf("majority %v, %d rounds repeat it; want [A B C], 1", o, n)
	}
	if got := againstMajority([]string{"B", "A", "C", "D"}, rounds); len(got) != 1 || got[0] != (PairVote{"A", "B", 2, 3}) {
		t.Errorf("against %v; want A before B in 2 of 3", got)
	}
	if got := againstMajority([]string{"A", "B", "C"}, rounds); len(got) != 0 {
		t.Errorf("the majority order itself is against %v", got)
	}
	split := [][]string{{"A", "B"}, {"B", "A"}}
	if got := againstMajority([]string{"B", "A"}, split); len(got) != 0 {
		t.Errorf("an even split counts against %v", got)
	}
}

// TestKendallTau: hand-worked ranks. a = A B C D against b = B A C D: of the six pairs only
// (A, B) is reversed, so tau = (5 − 1)/6. Entries only one side holds are left out.
func TestKendallTau(t *testing.T) {
	for _, tc := range []struct {
		a, b  []string
		tau   float64
		pairs int
	}{
		{[]string{"A", "B", "C", "D"}, []string{"A", "B", "C", "D"}, 1, 6},
		{[]string{"A", "B", "C", "D"}, []string{"D", "C", "B", "A"}, -1, 6},
		{[]string{"A", "B", "C", "D"}, []string{"B", "A", "C", "D"}, 4.0 / 6, 6},
		{[]string{"A", "X", "B", "C"}, []string{"C", "B", "Y", "A"}, -1, 3},
		{[]string{"A"}, []string{"A", "B"}, 0, 0},
		{nil, nil, 0, 0},
	} {
		if tau, n := kendallTau(tc.a, tc.b); math.Abs(tau-tc.tau) > 1e-12 || n != tc.pairs {
			t.Errorf("kendallTau(%v, %v) = %v over %d pairs, want %v over %d", tc.a, tc.b, tau, n, tc.tau, tc.pairs)
		}
	}
}

// TestOrderAgreement: jitsim's order against three JVM rounds that disagree among
// themselves. Rounds r1 = ABC, r2 = BAC, r3 = ACB; jitsim = ABC: tau 1, 1/3, 1/3 → median
// 1/3; the rounds pairwise: (r1,r2) 1/3, (r1,r3) 1/3, (r2,r3) −1/3 → median 1/3. jitsim is
// then as close to the JVM as the JVM is to itself.
func TestOrderAgreement(t *testing.T) {
	r := [][]string{{"A", "B", "C"}, {"B", "A", "C"}, {"A", "C", "B"}}
	a := orderAgreement([]string{"A", "B", "C"}, r)
	third := 1.0 / 3
	if math.Abs(a.Model-third) > 1e-12 || a.ModelMax != 1 || math.Abs(a.JVM-third) > 1e-12 || math.Abs(a.JVMMin+third) > 1e-12 || a.Pairs != 3 {
		t.Errorf("%+v", a)
	}
	if s := a.String(); !strings.Contains(s, "jitsim vs the JVM's rounds 0.33 (0.33–1.00)") || !strings.Contains(s, "as close to the JVM as its own rounds") {
		t.Errorf("%s", s)
	}
	if s := orderAgreement([]string{"B", "A"}, [][]string{{"A", "B"}, {"A", "B"}}).String(); !strings.Contains(s, "less close") {
		t.Errorf("%s", s)
	}
	if s := orderAgreement(nil, r).String(); !strings.Contains(s, "not measured") {
		t.Errorf("%s", s)
	}
}

// TestFirstCPULine: with the JVM's thread CPU time of its first iteration, the landmarks
// carry it per operation and the comparison prints it beside jitsim's first iteration, with
// no verdict; without it, nothing.
func TestFirstCPULine(t *testing.T) {
	us := time.Microsecond
	its := series(600*us, 300*us, 200*us, 100*us, 100*us, 100*us, 100*us, 100*us, 100*us, 100*us)
	var jvm []Landmarks
	for _, cpu := range []time.Duration{4000 * us, 5000 * us, 4400 * us} {
		its[0].CPU = cpu
		l, err := landmarksOf(its)
		if err != nil {
			t.Fatal(err)
		}
		jvm = append(jvm, l)
	}
	if jvm[0].FirstCPUPerOp != 400*us {
		t.Fatalf("first iteration's CPU per op %v, want 400µs (4 ms over 10 operations)", jvm[0].FirstCPUPerOp)
	}
	r := WarmupResult{Set: "default", JVM: jvm, Model: Landmarks{FirstPerOp: 330 * us}}
	want := "default: the JVM's first iteration on its loop thread's CPU clock: 440µs per op (400µs–500µs, 3 rounds); jitsim/that 0.75"
	if got := firstCPULine(r); !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start %q", got, want)
	}
	for i := range r.JVM {
		r.JVM[i].FirstCPUPerOp = 0
	}
	if got := firstCPULine(r); got != "" {
		t.Errorf("without CPU times: %q", got)
	}
}
