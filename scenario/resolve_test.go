package scenario

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
)

// replayTestWorkload touches every setting the replayer carries.
const replayTestWorkload = "testdata/replay/mixed.toml"

// replayRecorded is the stderr of JitsimTraceReplay on OpenJDK 17.0.15 for the resolved
// replayTestWorkload: re-record with JITSIM_JVM=java JITSIM_RECORD=1 go test ./scenario -run
// TestResolvedReplayOnJVM.
const replayRecorded = "testdata/replay/mixed.jdk17.stderr"

func resolveTest(t *testing.T, path string, props map[string]string) *Resolved {
	t.Helper()
	w, err := LoadWorkload(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Resolve(t.TempDir(), props)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestResolveIsTheEngine holds a resolved trace to the engine: per phase and thread, the
// trace lists the operations the engine ran, of the same sizes, in the same order; and the
// trace replays with jitsim.
func TestResolveIsTheEngine(t *testing.T) {
	res := resolveTest(t, replayTestWorkload, nil)
	if res.Ops != 40*2+20*2+20+20*2+10*2 || res.Threads != 2 {
		t.Fatalf("resolved %d operations on up to %d threads", res.Ops, res.Threads)
	}
	w, err := LoadWorkload(replayTestWorkload)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	engine := map[string][]int64{} // phase/thread → sizes
	obs := ObserverFunc(func(it Iteration) {
		mu.Lock()
		defer mu.Unlock()
		k := fmt.Sprintf("%s/%d", it.Phase, it.Thread)
		engine[k] = append(engine[k], it.Bytes)
	})
	runModelObserved(t, w.Scenario(), obs)
	data, err := os.ReadFile(res.Trace)
	if err != nil {
		t.Fatal(err)
	}
	traced := map[string][]int64{}
	phase := ""
	corrupt := 0
	phaseName := regexp.MustCompile(`name=(.*)$`)
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "# jitsim-phase "):
			phase = phaseName.FindStringSubmatch(l)[1]
		case l == "# jitsim-corrupt":
			corrupt++
		case l == "" || strings.HasPrefix(l, "#") || l == TraceHeader:
		default:
			f := strings.Split(l, ",")
			size, _ := strconv.ParseInt(f[5], 10, 64)
			k := phase + "/" + f[0]
			traced[k] = append(traced[k], size)
		}
	}
	if len(traced) != len(engine) {
		t.Fatalf("trace has %d phase threads, the engine ran %d", len(traced), len(engine))
	}
	for k, want := range engine {
		if fmt.Sprint(traced[k]) != fmt.Sprint(want) {
			t.Errorf("%s: trace sizes %v, engine %v", k, traced[k], want)
		}
	}
	// Phases holds thread 0's operations per phase, in the trace's order.
	for _, p := range res.Phases {
		if n := int64(len(engine[p.Name+"/0"])); n != p.Ops {
			t.Errorf("phase %s: Phases says thread 0 runs %d operations, the engine ran %d", p.Name, p.Ops, n)
		}
	}
	if len(res.Phases) != len(w.Phases) {
		t.Errorf("Phases %+v for %d phases", res.Phases, len(w.Phases))
	}
	var rejected int64
	for _, c := range res.Expected() {
		rejected += c.Rejected
	}
	if corrupt == 0 || int64(corrupt) != rejected {
		t.Errorf("%d jitsim-corrupt lines, %d rejections expected", corrupt, rejected)
	}
	tr, err := LoadTrace(res.Trace)
	if err != nil {
		t.Fatalf("the resolved trace does not load: %v", err)
	}
	runModelObserved(t, tr.Scenario(), nil)
}

// runModelObserved runs s on the model clock with outputs checked.
func runModelObserved(t *testing.T, s Scenario, obs Observer) {
	t.Helper()
	out := modelRunObserved(t, "skylake-avx2", jdk.R17, s, obs)
	if !strings.Contains(out, "operations") {
		t.Fatalf("%s printed no statistics:\n%s", s.Name, out)
	}
}

// TestResolvedReplayRecorded holds a real JVM's recorded replay to jitsim's checks, and
// shows that a replay with other bytes, other counts or a missing thread fails them.
func TestResolvedReplayRecorded(t *testing.T) {
	res := resolveTest(t, replayTestWorkload, nil)
	rec, err := os.ReadFile(replayRecorded)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Verify(rec); err != nil {
		t.Fatalf("the recorded replay fails its checks: %v", err)
	}
	lines := strings.Split(string(rec), "\n")
	var check int
	for i, l := range lines {
		if strings.HasPrefix(l, "jitsim-check 1 ") {
			check = i
		}
	}
	f := strings.Fields(lines[check])
	mutate := func(i int, v string) []byte {
		g := append([]string(nil), f...)
		g[i] = v
		m := append([]string(nil), lines...)
		m[check] = strings.Join(g, " ")
		return []byte(strings.Join(m, "\n"))
	}
	crc, _ := strconv.ParseUint(f[4], 10, 32)
	ops, _ := strconv.Atoi(f[2])
	for _, tc := range []struct {
		name string
		out  []byte
		want string
	}{
		{"other bytes", mutate(4, strconv.FormatUint(crc^1, 10)), "thread 1's outputs have CRC-32"},
		{"one operation short", mutate(2, strconv.Itoa(ops-1)), "thread 1 ran"},
		{"a tag accepted", mutate(3, "0"), "thread 1 ran"},
		{"no line", bytes.ReplaceAll(rec, []byte(lines[check]), nil), "thread 1 reported no check line"},
		{"garbled", mutate(4, "x"), "bad line"},
	} {
		err := res.Verify(tc.out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	// Another seed draws other operations: the recorded replay is not theirs.
	if err := resolveTest(t, replayTestWorkload, map[string]string{"seed": "6"}).Verify(rec); err == nil {
		t.Error("the replay of seed 5 passed the checks of seed 6")
	}
}

// TestResolvedReplayOnJVM replays the resolved test workload and the shipped workloads
// (capped) on the real JVM named by JITSIM_JVM and holds each to jitsim's checks; with
// JITSIM_RECORD=1 it re-records replayRecorded.
func TestResolvedReplayOnJVM(t *testing.T) {
	java := os.Getenv("JITSIM_JVM")
	if java == "" {
		t.Skip("JITSIM_JVM is not set: no real JVM replay")
	}
	paths, _ := filepath.Glob("../examples/workloads/*.toml")
	for _, path := range append([]string{replayTestWorkload}, paths...) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			props := map[string]string{"maxOps": "60"}
			if path == replayTestWorkload {
				props = nil
			}
			res := resolveTest(t, path, props)
			out, err := jvmharness.Run(context.Background(), java, jvmharness.TraceReplay, nil, res.Trace, res.Messages)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Verify(out.Stderr); err != nil {
				t.Fatal(err)
			}
			if path == replayTestWorkload && os.Getenv("JITSIM_RECORD") == "1" {
				if err := os.WriteFile(replayRecorded, out.Stderr, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
