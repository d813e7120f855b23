package validate

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
	"github.com/jitsim/jitsim/warmup"
)

// recordedWorkload loads the test workload and JDK 17's recorded replay of it.
func recordedWorkload(t *testing.T) (*scenario.Workload, []byte) {
	t.Helper()
	w, err := scenario.LoadWorkload("testdata/two-phases.toml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile("testdata/two-phases-jdk17.txt")
	if err != nil {
		t.Fatal(err)
	}
	return w, out
}

// TestRunWorkloadRecorded compares the test workload with JDK 17's recorded replay of it
// (two rounds of the same recording) on jitsim's model and wall clocks: the JVM's numbers are
// the recording's, each phase gets its rows, the runs are labelled for the report, and the
// replayer gets the resolved trace with -XX:+PrintCompilation.
func TestRunWorkloadRecorded(t *testing.T) {
	w, out := recordedWorkload(t)
	m, err := cpu.Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	runJVM := func(_ context.Context, opts []string, trace, messages string) ([]byte, error) {
		calls++
		if !slices.Contains(opts, "-XX:+PrintCompilation") || !slices.Contains(opts, "-XX:TieredStopAtLevel=1") {
			t.Errorf("JVM options %v", opts)
		}
		data, err := os.ReadFile(trace)
		if err != nil || !strings.Contains(string(data), "name=records") || !strings.Contains(string(data), "name=burst") {
			t.Errorf("trace %s: %v\n%s", trace, err, data)
		}
		if _, err := os.Stat(messages); err != nil {
			t.Error(err)
		}
		return out, nil
	}
	c1 := FlagSets[slices.IndexFunc(FlagSets, func(f FlagSet) bool { return f.Name == "c1-only" })]
	rep, err := RunWorkload(context.Background(), WorkloadOptions{Java: "java", ModelOptions: ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, Rounds: 2,
		Sets: []FlagSet{c1}, Workload: w, RunJVM: runJVM})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("%d JVM runs, want 2", calls)
	}
	if len(rep.Phases) != 2 {
		t.Fatalf("%d phases: %+v", len(rep.Phases), rep.Phases)
	}
	rec, burst := rep.Phases[0], rep.Phases[1]
	if rec.Phase != "records" || rec.Ops != 12 || !rec.Warmup || burst.Phase != "burst" || burst.Ops != 6 || burst.Warmup {
		t.Errorf("phases %+v, %+v", rec, burst)
	}
	// The recording's thread 0: the first CBC record took 4485584 ns, the last fifth of the
	// twelve (44244 and 42771 ns) gives the steady time; the burst's first operation took
	// 1999103 ns and its last (of six) 269775 ns.
	if l := rec.JVM[1]; l.FirstPerOp != 4485584 || l.SteadyOp != (44244+42771)/2 || l.HalfSpeed <= 0 {
		t.Errorf("records on the JVM: %+v", l)
	}
	if l := burst.JVM[0]; l.FirstPerOp != 1999103 || l.SteadyOp != 269775 {
		t.Errorf("burst on the JVM: %+v", l)
	}
	for _, p := range rep.Phases {
		if len(p.JVM) != 2 || len(p.Wall) != 2 || p.Model.SteadyOp <= 0 || p.Wall[0].SteadyOp <= 0 {
			t.Errorf("%s: %+v", p.Phase, p)
		}
		if n := len(p.rows()); n != len(p.Verdicts) || (p.Warmup && n != 4) || (!p.Warmup && n != 2) {
			t.Errorf("%s: %d rows, verdicts %q", p.Phase, n, p.Verdicts)
		}
		if !strings.Contains(p.ModelCommand, "--jdk=17 --cpu=icelake-server -XX:TieredStopAtLevel=1 testdata/two-phases.toml") ||
			!strings.Contains(p.JVMCommand, "JitsimTraceReplay two-phases.trace.csv two-phases.msgs") {
			t.Errorf("commands %q, %q", p.ModelCommand, p.JVMCommand)
		}
	}
	var labels []string
	for _, r := range rep.Runs {
		labels = append(labels, r.Label+"/"+r.Clock)
		if len(r.Iterations) != 18 {
			t.Errorf("%s: %d iterations, want thread 0's 18", r.Label, len(r.Iterations))
		}
	}
	if got := strings.Join(labels, ","); got != "java: c1-only/wall,wall: c1-only/wall,java: c1-only/wall,wall: c1-only/wall,c1-only/model" {
		t.Errorf("runs %s", got)
	}
	var b strings.Builder
	WriteWorkload(&b, rep)
	for _, want := range []string{"c1-only   records  12   steady time per op", "c1-only   burst    6    first iteration, per op", "6 comparisons:"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "burst    6    time to half speed") {
		t.Errorf("landmarks for a six-operation phase:\n%s", b.String())
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, Page{Command: "jitsim validate", Workload: rep, Report: "report.html"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<h2>Workload testdata/two-phases.toml</h2>") || !strings.Contains(page.String(), "<td>4.486ms–4.486ms</td>") {
		t.Errorf("page:\n%s", page.String())
	}
}

// TestRunWorkloadBadReplay: a replay whose bytes differ from jitsim's, or that ran other
// operations, is an error naming the JVM, the workload and the round.
func TestRunWorkloadBadReplay(t *testing.T) {
	w, out := recordedWorkload(t)
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"crc", "jitsim-check 1 6 0 2711693898", "jitsim-check 1 6 0 2711693899", "CRC-32"},
		{"ops", "jitsim-iter 17 436072526 269775 2048\n", "", "thread 0 reported 17 operations"},
		{"garbled", "jitsim-iter 3 387849553 4107393 1024", "jitsim-iter 3 x 4107393 1024", "bad line"},
	} {
		bad := bytes.Replace(out, []byte(c.old), []byte(c.new), 1)
		if bytes.Equal(bad, out) {
			t.Fatalf("%s: the recording has no %q", c.name, c.old)
		}
		runJVM := func(context.Context, []string, string, string) ([]byte, error) { return bad, nil }
		_, err := RunWorkload(context.Background(), WorkloadOptions{Java: "java", ModelOptions: ModelOptions{JDK: jdk.R17}, Rounds: 1, Sets: FlagSets[:1], Workload: w, RunJVM: runJVM})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--jvm=java: testdata/two-phases.toml, default round 1") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestPhaseLandmarks splits a series into phases by thread 0's operations: a phase of ten
// gets every landmark, one of three only its first and steady times, an empty one none.
func TestPhaseLandmarks(t *testing.T) {
	us := time.Microsecond
	its := series(900*us, 500*us, 300*us, 100*us, 100*us, 100*us, 100*us, 100*us, 100*us, 100*us, 40*us, 20*us, 30*us)
	for i := range its {
		its[i].Ops, its[i].Duration = 1, its[i].Duration/10 // one operation each, of the time given
	}
	phases := []scenario.ResolvedPhase{{Name: "warm", Ops: 10}, {Name: "none", Ops: 0}, {Name: "tail", Ops: 3}}
	ls, err := phaseLandmarks(its, phases)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 3 || ls[0].FirstPerOp != 900*us || ls[0].SteadyOp != 100*us || ls[0].Steady <= 0 || ls[1].FirstPerOp != 0 || ls[1].SteadyOp != 0 ||
		ls[2].FirstPerOp != 40*us || ls[2].SteadyOp != 30*us || ls[2].HalfSpeed != 0 {
		t.Errorf("%+v", ls)
	}
	if _, err := phaseLandmarks(its[:12], phases); err == nil || !strings.Contains(err.Error(), "reported 12 operations") {
		t.Errorf("a short series: %v", err)
	}
	var none []warmup.Iteration
	if _, err := phaseLandmarks(none, phases[:2]); err == nil {
		t.Error("no operations for a ten-operation phase")
	}
}
