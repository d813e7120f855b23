package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jitsim/jitsim/bench"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/sweep"
	"github.com/jitsim/jitsim/tiers"
)

// lockedBuffer is a bytes.Buffer a process writes to while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// flushSweepPlan is a sweep of 60 cells of a few hundred milliseconds each
// (a fresh VM, 400 checked GCM decryptions), far more than the test lets
// finish before its signal.
const flushSweepPlan = `name = "signal flush"
scenario = "AESGCMBench"
args = ["0", "2", "200"]
props = { op = "decrypt" }
size_property = "dataSize"
sizes = [256, 1024, 4096]
jdks = ["8u", "17", "21", "25"]
options = ["", "-XX:TieredStopAtLevel=1", "-Xint", "-XX:-UseAESIntrinsics", "-XX:TieredStopAtLevel=3"]
`

// TestSignalFlushes starts each measuring command (run, bench, warmup,
// sweep) as a real process, sends SIGINT or SIGTERM once it has measured
// something, and checks that it stopped within seconds with the shell's
// status for the signal, without a Go trace, and that what it had measured
// is in its output: run's partial totals line, bench's JSON result file
// holding exactly the measurement iterations it printed, warmup's
// series.csv and summary.json, sweep's sweep.json and sweep.csv with only
// whole, verified cells.
func TestSignalFlushes(t *testing.T) {
	bin := buildJitsim(t)
	for _, tc := range []struct {
		name  string
		args  func(dir string) []string
		ready func(stdout, stderr string) bool // measured something: send the signal
		sig   syscall.Signal
		check func(t *testing.T, dir, stdout, stderr string)
	}{
		{
			name: "run",
			args: func(string) []string {
				return []string{"run", "--threads=2", "-Dmode=GCM", "-DmsgSize=1024", "TestAESMain", "100000000", "0"}
			},
			// No warm-up: both threads are in the timed phase once thread 0
			// says so; half a second later each has done iterations.
			ready: after(func(stdout, _ string) bool { return strings.Contains(stdout, "Finished encryption warm-up") }, 500*time.Millisecond),
			sig:   syscall.SIGINT,
			check: func(t *testing.T, _, stdout, _ string) {
				re := regexp.MustCompile(`(?m)^TestAESEncode runtime was [0-9.E]+ ms \(stopped after ([0-9]+) of 100000000 iterations\)$`)
				if m := re.FindAllStringSubmatch(stdout, -1); len(m) != 2 {
					t.Errorf("want one partial totals line per thread, got %d; stdout tail:\n%s", len(m), tail(stdout))
				} else if m[0][1] == "0" || m[1][1] == "0" {
					t.Errorf("a thread stopped after 0 iterations: %q", m)
				}
			},
		},
		{
			name: "bench",
			args: func(dir string) []string {
				return []string{"bench", "-wi", "1", "-i", "1000", "-w", "100ms", "-r", "100ms", "-f", "2",
					"-rf", "json", "-rff", filepath.Join(dir, "result.json"), "-p", "dataSize=1024", "AESGCMBench"}
			},
			ready: func(stdout, _ string) bool { return strings.Contains(stdout, "\nIteration   3:") },
			sig:   syscall.SIGTERM,
			check: func(t *testing.T, dir, stdout, _ string) {
				printed := len(regexp.MustCompile(`(?m)^Iteration +[0-9]+:`).FindAllString(stdout, -1))
				f, err := os.Open(filepath.Join(dir, "result.json"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				rs, err := bench.ReadJSON(f, f.Name())
				if err != nil {
					t.Fatalf("result file: %v", err)
				}
				if len(rs) != 1 {
					t.Fatalf("%d results, want 1", len(rs))
				}
				n := 0
				for _, fork := range rs[0].Primary.RawData {
					n += len(fork)
				}
				if n < 3 || n != printed {
					t.Errorf("result file holds %d iterations, the console printed %d (want them equal, at least 3)", n, printed)
				}
				if !strings.Contains(stdout, "# Run stopped by SIGTERM.") {
					t.Errorf("stdout lacks the stopped line:\n%s", tail(stdout))
				}
			},
		},
		{
			name: "warmup",
			args: func(dir string) []string {
				return []string{"warmup", "--scenario-output", "--forks=3", "--out", filepath.Join(dir, "w"),
					"-Dmode=GCM", "-DmsgSize=256", "TestAESMain", "100000000", "200"}
			},
			ready: func(_, stderr string) bool { return strings.Contains(stderr, "Finished encryption warm-up") },
			sig:   syscall.SIGINT,
			check: func(t *testing.T, dir, _, _ string) {
				f, err := os.Open(filepath.Join(dir, "w", "series.csv"))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				rows, err := csv.NewReader(f).ReadAll() // also checks every row has the header's width
				if err != nil {
					t.Fatalf("series.csv: %v", err)
				}
				if len(rows) < 201 || rows[0][0] != "label" {
					t.Errorf("series.csv: %d rows, want the header and the 200 warm-up iterations at least", len(rows))
				}
				data, err := os.ReadFile(filepath.Join(dir, "w", "summary.json"))
				if err != nil {
					t.Fatal(err)
				}
				var summary map[string]any
				if err := json.Unmarshal(data, &summary); err != nil {
					t.Errorf("summary.json: %v", err)
				}
			},
		},
		{
			name: "sweep",
			args: func(dir string) []string {
				plan := filepath.Join(dir, "plan.toml")
				if err := os.WriteFile(plan, []byte(flushSweepPlan), 0o644); err != nil {
					t.Fatal(err)
				}
				return []string{"sweep", plan, "--jobs", "2", "--out", filepath.Join(dir, "s")}
			},
			ready: delay(3 * time.Second), // sweep prints nothing until it ends
			sig:   syscall.SIGTERM,
			check: func(t *testing.T, dir, stdout, _ string) {
				out, err := sweep.Read(filepath.Join(dir, "s"))
				if err != nil {
					t.Fatal(err)
				}
				if out.PlanCells != 60 || len(out.Cells) >= 60 {
					t.Errorf("%d of %d cells written; the sweep should have been cut", len(out.Cells), out.PlanCells)
				}
				for _, c := range out.Cells {
					if c.Status != "ok" || !c.Verified || c.Ops != 400 {
						t.Errorf("cell %s: status %s, verified %t, %d ops (want whole cells only)", c.ID, c.Status, c.Verified, c.Ops)
					}
				}
				f, err := os.Open(filepath.Join(dir, "s", sweep.CSVFile))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				rows, err := csv.NewReader(f).ReadAll()
				if err != nil || len(rows) != len(out.Cells)+1 {
					t.Errorf("sweep.csv: %d rows, %v; want %d", len(rows), err, len(out.Cells)+1)
				}
				if !strings.Contains(stdout, "stopped by SIGTERM; run the shard again and merge") {
					t.Errorf("summary does not say why cells are missing:\n%s", tail(stdout))
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, tc.args(dir)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "CI=true") // no progress bars
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			start := time.Now()
			for !tc.ready(stdout.String(), stderr.String()) {
				select {
				case err := <-done:
					t.Fatalf("ended before the signal: %v\nstdout:\n%s\nstderr:\n%s", err, tail(stdout.String()), stderr.String())
				case <-time.After(20 * time.Millisecond):
				}
				if time.Since(start) > 2*time.Minute {
					cmd.Process.Kill()
					<-done
					t.Fatalf("not ready after 2 min\nstdout:\n%s\nstderr:\n%s", tail(stdout.String()), stderr.String())
				}
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running a minute after the signal")
			}
			took := time.Since(sent)
			want := 128 + int(tc.sig)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != want {
				t.Fatalf("exit %v, want status %d; stderr:\n%s", err, want, stderr.String())
			}
			sigName := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[tc.sig]
			if !strings.Contains(stderr.String(), "stopped by "+sigName) {
				t.Errorf("stderr lacks %q:\n%s", "stopped by "+sigName, stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "panic") {
				t.Errorf("stderr has a Go trace:\n%s", stderr.String())
			}
			// Stopping includes writing the files (warmup's plots); the
			// iteration itself ends in milliseconds.
			if took > 20*time.Second {
				t.Errorf("took %v to stop and write after %s", took, sigName)
			}
			t.Logf("%s: status %d, %v after the signal", sigName, want, took.Round(time.Millisecond))
			tc.check(t, dir, stdout.String(), stderr.String())
		})
	}
}

// delay is a ready condition that waits a fixed time after the first call.
func delay(d time.Duration) func(string, string) bool {
	return after(func(string, string) bool { return true }, d)
}

// after is a ready condition that holds d after cond first held.
func after(cond func(stdout, stderr string) bool, d time.Duration) func(string, string) bool {
	var since time.Time
	return func(stdout, stderr string) bool {
		if since.IsZero() && cond(stdout, stderr) {
			since = time.Now()
		}
		return !since.IsZero() && time.Since(since) >= d
	}
}

// tail is the last 2 000 bytes of s, for failure messages.
func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// TestThreadPanicReported injects a panic into one application thread of a
// real four-thread TestAESMain run under the CLI's guard and checks the
// jitsim-bug report: status 70, the thread and value, the command line, no
// Go trace; with JITSIM_TRACEBACK=1 the panicking thread's own stack.
func TestThreadPanicReported(t *testing.T) {
	for _, traceback := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "JITSIM_TRACEBACK=1"}[traceback], func(t *testing.T) {
			getenv := func(k string) (string, bool) {
				if k == "JITSIM_TRACEBACK" && traceback {
					return "1", true
				}
				return "", false
			}
			s, ok := scenario.Lookup("TestAESMain")
			if !ok {
				t.Fatal("no TestAESMain")
			}
			env := scenario.Env{Threads: 4, Observer: scenario.ObserverFunc(func(it scenario.Iteration) {
				if it.Thread == 3 && it.Index == 5 {
					panic("BUG: injected into thread 3")
				}
			})}
			env.NewVM, env.Clock = newTestVM(t)
			repro := []string{"jitsim", "run", "--threads=4", "TestAESMain", "1000000", "10"}
			var stderr bytes.Buffer
			status := guardInternal(repro, &stderr, getenv, func() int {
				err := s.Run(context.Background(), env, nil, []string{"1000000", "10"}, io.Discard)
				t.Errorf("Run returned %v instead of panicking", err)
				return 0
			})
			if status != exitInternal {
				t.Errorf("status %d, want %d", status, exitInternal)
			}
			want := "jitsim: internal error (a jitsim bug): BUG: application thread 3 panicked: BUG: injected into thread 3 — reproduce with: jitsim run --threads=4 TestAESMain 1000000 10\n"
			if !strings.HasPrefix(stderr.String(), want) {
				t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), want)
			}
			if got := strings.Contains(stderr.String(), "TestThreadPanicReported.func"); got != traceback {
				t.Errorf("the thread's stack (with the injecting observer) printed: %t, want %t\n%s", got, traceback, stderr.String())
			}
		})
	}
}

// TestWorkerPanicReported checks workerPanics, the carrier of sweep's cell
// workers: a panic on one of four workers cancels the group, and after the
// workers end it is raised on the waiting goroutine, where the guard
// reports it with status 70.
func TestWorkerPanicReported(t *testing.T) {
	var stderr bytes.Buffer
	status := guardInternal([]string{"jitsim", "sweep", "plan.toml"}, &stderr, noEnv, func() int {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		panics := &workerPanics{cancel: cancel}
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer panics.catch()
				if i == 2 {
					panic("BUG: cell worker 2")
				}
				<-ctx.Done() // the others run until the group is cancelled
			}()
		}
		wg.Wait()
		panics.rethrow()
		return 0
	})
	if status != exitInternal {
		t.Errorf("status %d, want %d", status, exitInternal)
	}
	want := "jitsim: internal error (a jitsim bug): BUG: worker goroutine panicked: BUG: cell worker 2 — reproduce with: jitsim sweep plan.toml\n"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), want)
	}
}

// newTestVM returns a factory of VMs on the real tiers (JDK 25 defaults)
// and their wall clock.
func newTestVM(t *testing.T) (func() (*jrt.VM, error), jrt.Clock) {
	t.Helper()
	clock := jrt.WallClock()
	return func() (*jrt.VM, error) {
		return jrt.New(jrt.NewConfig().WithJDK(jdk.R25).WithTiers(tiers.Default()...).WithClock(clock))
	}, clock
}
