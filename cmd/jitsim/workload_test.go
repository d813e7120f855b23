package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/sweep"
)

// workloadProps shrink a shipped workload to a few small operations (small AADs too), with
// every output checked against Go's crypto.
var workloadProps = []string{"-Dthreads=2", "-DmaxOps=2", "-DmsgSize=64", "-DaadSize=16", "-DcheckOutput=true"}

// TestShippedWorkloads runs each shipped workload file under run, warmup,
// bench and sweep, for every release and both clocks, at small sizes.
func TestShippedWorkloads(t *testing.T) {
	files, err := filepath.Glob("../../examples/workloads/*.toml")
	if err != nil || len(files) < 4 {
		t.Fatalf("shipped workloads: %v, %v", files, err)
	}
	for _, file := range files {
		abs, err := filepath.Abs(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".toml")
		for _, clock := range []string{"wall", "model"} {
			t.Run(name+"/"+clock, func(t *testing.T) {
				dir := t.TempDir()
				for _, rel := range jdk.All() {
					common := []string{"--jdk=" + rel.String(), "--clock=" + clock}
					for _, cmd := range [][]string{
						append(append([]string{"run"}, common...), append(workloadProps, abs)...),
						append(append([]string{"warmup", "--forks=1", "--out", filepath.Join(dir, "w"+rel.String())}, common...), append(workloadProps, abs)...),
						// bench's threads are -t (JMH's), not -Dthreads.
						append(append([]string{"bench", "-t", "2", "-wi", "1", "-i", "1", "-f", "1", "-w", "1ms", "-r", "1ms"}, common...), append(workloadProps[1:], abs)...),
					} {
						var out, errb bytes.Buffer
						if st := run(cmd, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
							t.Fatalf("jitsim %s: status %d\nstdout: %s\nstderr: %s", strings.Join(cmd, " "), st, out.String(), errb.String())
						}
						if cmd[0] == "run" && (!strings.Contains(out.String(), "\nphase ") || !strings.Contains(out.String(), "latency us: p50")) {
							t.Errorf("jitsim %s printed no phase results:\n%s", strings.Join(cmd, " "), out.String())
						}
					}
				}
				// The sweep names the workload beside its plan.
				if err := os.WriteFile(filepath.Join(dir, name+".toml"), mustRead(t, abs), 0o644); err != nil {
					t.Fatal(err)
				}
				plan := fmt.Sprintf("name = %q\nscenario = %q\nsize_property = \"msgSize\"\nsizes = [32, 64]\njdks = [\"8\", \"8u\", \"17\", \"21\", \"25\"]\n"+
					"props = { threads = \"2\", maxOps = \"2\", aadSize = \"16\", checkOutput = \"true\" }\n", name, name+".toml")
				pf := filepath.Join(dir, "plan.toml")
				if err := os.WriteFile(pf, []byte(plan), 0o644); err != nil {
					t.Fatal(err)
				}
				runSweepCLI(t, "--clock="+clock, "--jobs=1", pf, "--out", filepath.Join(dir, "sweep"))
				o, err := sweep.Read(filepath.Join(dir, "sweep"))
				if err != nil {
					t.Fatal(err)
				}
				if len(o.Cells) != 10 {
					t.Fatalf("%d sweep cells, want 10", len(o.Cells))
				}
				for _, c := range o.Cells {
					if c.Status != "ok" || !c.Verified {
						t.Errorf("sweep cell %s: %+v", c.ID, c)
					}
				}
			})
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWorkloadFileErrors: a bad workload file is a FILE:LINE error and a
// non-zero exit under every command, never a panic.
func TestWorkloadFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nkey_sise = 128\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"run", bad}, {"warmup", "--out", dir, bad}, {"bench", bad}} {
		var out, errb bytes.Buffer
		st := run(cmd, strings.NewReader(""), &out, &errb, noEnv)
		if st == 0 || !strings.Contains(errb.String(), bad+`:4: unknown key "key_sise" (did you mean "key_size"?)`) {
			t.Errorf("jitsim %s: status %d, stderr %q", strings.Join(cmd, " "), st, errb.String())
		}
	}
}

// TestTraceLogReplays runs the harness's trace logger on the real JVM and
// replays what it wrote on both clocks, every output checked.
func TestTraceLogReplays(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on PATH")
	}
	out, err := jvmharness.Run(context.Background(), java, jvmharness.TraceLog, nil, "4")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "app.csv")
	if err := os.WriteFile(file, out.Stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, clock := range []string{"wall", "model"} {
		var o, e bytes.Buffer
		if st := run([]string{"run", "--clock=" + clock, "-DcheckOutput=true", file}, strings.NewReader(""), &o, &e, noEnv); st != 0 {
			t.Fatalf("replay on the %s clock: status %d\n%s\n%s\ntrace:\n%s", clock, st, o.String(), e.String(), out.Stdout)
		}
		if !strings.Contains(o.String(), "2 thread(s), 24 operations") {
			t.Errorf("replay on the %s clock:\n%s", clock, o.String())
		}
	}
}
