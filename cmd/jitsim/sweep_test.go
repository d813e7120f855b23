package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/sweep"
)

// sweepPlan is a 24-cell sweep: 4 JDK profiles × 3 sizes × 2 option sets,
// each cell two GCM decryptions checked against crypto/cipher.
const sweepPlan = `name = "GCM cells"
scenario = "AESGCMBench"
args = ["0", "1", "2"]
props = { op = "decrypt" }
size_property = "dataSize"
sizes = [16, 100, 1024]
jdks = ["8u", "17", "21", "25"]
options = ["", "-XX:TieredStopAtLevel=1"]
`

func runSweepCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if st := run(append([]string{"sweep"}, args...), strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim sweep %s: status %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), st, out.String(), errb.String())
	}
	return out.String()
}

// TestSweepShardsMergeToWhole runs the 24-cell sweep whole and as shards
// 1/2 and 2/2 (in that order, with options after the file) and checks that
// the merge has the whole run's cell set and outcomes: status, operations
// and bytes, every cell verified.
func TestSweepShardsMergeToWhole(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gcm.toml")
	if err := os.WriteFile(file, []byte(sweepPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, s1, s2, merged := filepath.Join(dir, "whole"), filepath.Join(dir, "s1"), filepath.Join(dir, "s2"), filepath.Join(dir, "m")
	runSweepCLI(t, file, "--out", whole)
	runSweepCLI(t, "--shard", "1/2", "--out="+s1, file)
	out := runSweepCLI(t, file, "--shard=2/2", "--out", s2, "--jobs", "1")
	if !strings.Contains(out, "12 of 24 cells (shards 2/2)") {
		t.Errorf("shard 2/2 summary:\n%s", out)
	}
	out = runSweepCLI(t, "merge", s1, s2, "--out", merged)
	if !strings.Contains(out, "24 of 24 cells (shards 1/2, 2/2), 0 failed") {
		t.Errorf("merge summary:\n%s", out)
	}
	w, err := sweep.Read(whole)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sweep.Read(merged)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Cells) != 24 {
		t.Fatalf("whole run: %d cells", len(w.Cells))
	}
	for _, r := range w.Cells {
		want := 2 * int64(r.Size)
		if r.Status != "ok" || !r.Verified || r.Ops != 2 || r.Bytes != want {
			t.Errorf("%s: %+v, want ok, verified, 2 ops, %d bytes", r.ID, r, want)
		}
	}
	if d := sweep.Diff(w, m); len(d) != 0 {
		t.Errorf("merge differs from the whole run:\n%s", strings.Join(d, "\n"))
	}
	if _, err := os.Stat(filepath.Join(merged, sweep.CSVFile)); err != nil {
		t.Error(err)
	}
}

// TestSweepErrors checks refusals and that a cell's own failure is its
// outcome (status error, exit status 1) rather than the sweep's end.
func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.toml", sweepPlan)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "no sweep file"},
		{[]string{good, "--shard", "3/2"}, "--shard"},
		{[]string{"-Xint", good}, "VM options belong in the sweep file"},
		{[]string{write("bad.toml", `scenario = "Nope"`)}, "not a jitsim scenario"},
		{[]string{write("size.toml", "scenario = \"AESGCMBench\"\nsize_property = \"colour\"\nsizes = [1]")}, "size_property"},
		{[]string{write("cpu.toml", "scenario = \"AESGCMBench\"\ncpus = [\"sandybridge\"]")}, "cpus: "},
		{[]string{write("jdk.toml", "scenario = \"AESGCMBench\"\njdks = [\"16\"]")}, "jdks: "},
		{[]string{"merge"}, "no directories"},
		{[]string{"merge", filepath.Join(dir, "absent")}, "sweep.json"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			st := run(append([]string{"sweep"}, tc.args...), strings.NewReader(""), &out, &errb, noEnv)
			if st == 0 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want an error containing %q", st, errb.String(), tc.want)
			}
		})
	}
	flag := write("flag.toml", "scenario = \"AESGCMBench\"\nargs = [\"0\", \"1\", \"1\"]\njdks = [\"8\", \"17\"]\noptions = [\"-XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics\"]")
	var out, errb bytes.Buffer
	st := run([]string{"sweep", flag, "--out", filepath.Join(dir, "flag")}, strings.NewReader(""), &out, &errb, noEnv)
	o, err := sweep.Read(filepath.Join(dir, "flag"))
	if err != nil {
		t.Fatalf("status %d: %v\n%s%s", st, err, out.String(), errb.String())
	}
	statuses := map[string]string{}
	for _, r := range o.Cells {
		statuses[r.JDK] = r.Status
	}
	if st != 1 || statuses["8"] != "error" || statuses["17"] != "ok" {
		t.Errorf("status %d, cells %v: want JDK 8 (no UseGHASHIntrinsics) to fail alone\n%s", st, statuses, out.String())
	}
}

// TestSweepModelClock runs a sweep with arm64 CPU models on the model
// clock (which runs them on any host), twice: every cell passes, and the
// two runs agree to the nanosecond. Merging one shard twice, or shards of
// runs on different clocks, is refused with the files named.
func TestSweepModelClock(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "arm.toml")
	plan := "name = \"arm64 cells\"\nscenario = \"AESGCMBench\"\nargs = [\"0\", \"1\", \"2\"]\nsize_property = \"dataSize\"\nsizes = [1024]\n" +
		"jdks = [\"17\", \"25\"]\ncpus = [\"neoverse-n1\", \"apple-m1\", \"icelake-server\"]\n"
	if err := os.WriteFile(file, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b, s1, wall := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "s1"), filepath.Join(dir, "wall")
	runSweepCLI(t, "--clock=model", file, "--out", a)
	runSweepCLI(t, file, "--clock", "model", "--out", b, "--jobs", "1")
	oa, err := sweep.Read(a)
	if err != nil {
		t.Fatal(err)
	}
	ob, err := sweep.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if oa.Clock != "model" || len(oa.Cells) != 6 {
		t.Fatalf("clock %q, %d cells", oa.Clock, len(oa.Cells))
	}
	for i, r := range oa.Cells {
		if r.Status != "ok" || !r.Verified || r.DurationNS <= 0 {
			t.Errorf("%s: %+v", r.ID, r)
		}
		if r != ob.Cells[i] {
			t.Errorf("%s: %+v, then %+v", r.ID, r, ob.Cells[i])
		}
	}
	runSweepCLI(t, "--clock=model", "--shard=1/2", file, "--out", s1)
	for _, tc := range []struct {
		dirs []string
		want string
	}{
		{[]string{s1, s1}, filepath.Join(s1, sweep.JSONFile) + " and " + filepath.Join(s1, sweep.JSONFile) + " are both shard 1/2"},
		{[]string{s1, wall}, filepath.Join(wall, sweep.JSONFile) + " ran on the wall clock, " + filepath.Join(s1, sweep.JSONFile) + " on the model clock"},
	} {
		if tc.dirs[1] == wall {
			if err := sweep.Write(wall, sweep.Output{Name: oa.Name, Scenario: oa.Scenario, PlanSHA256: oa.PlanSHA256, PlanCells: 6, Shards: []string{"2/2"}}); err != nil {
				t.Fatal(err)
			}
		}
		var out, errb bytes.Buffer
		st := run(append([]string{"sweep", "merge", "--out", filepath.Join(dir, "m")}, tc.dirs...), strings.NewReader(""), &out, &errb, noEnv)
		if st == 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("merge %v: status %d, stderr %q; want %q", tc.dirs, st, errb.String(), tc.want)
		}
	}
	var out, errb bytes.Buffer
	if st := run([]string{"sweep", "--clock=sundial", file}, strings.NewReader(""), &out, &errb, noEnv); st != 2 || !strings.Contains(errb.String(), "--clock=sundial") {
		t.Errorf("--clock=sundial: status %d, stderr %q", st, errb.String())
	}
}

// TestSweepKeepsWorkloadThreads: a workload file's own threads key holds in a sweep (the
// sweep once ran every scenario on one thread, so a 3-thread workload did a third of its
// operations): 3 threads × 2 operations per cell.
func TestSweepKeepsWorkloadThreads(t *testing.T) {
	dir := t.TempDir()
	wl := "title = \"three threads\"\nthreads = 3\n\n[[phase]]\nname = \"p\"\ntransformation = \"AES/GCM/NoPadding\"\n" +
		"key_size = 128\nmessage_size = 64\naad_size = 16\ncount = 2\n"
	if err := os.WriteFile(filepath.Join(dir, "three.toml"), []byte(wl), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := "name = \"three\"\nscenario = \"three.toml\"\nsize_property = \"msgSize\"\nsizes = [64]\njdks = [\"17\"]\n"
	pf := filepath.Join(dir, "plan.toml")
	if err := os.WriteFile(pf, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	runSweepCLI(t, "--clock=model", "--jobs=1", pf, "--out", filepath.Join(dir, "sweep"))
	o, err := sweep.Read(filepath.Join(dir, "sweep"))
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Cells) != 1 || o.Cells[0].Status != "ok" || o.Cells[0].Ops != 6 {
		t.Errorf("cells %+v, want one ok cell of 6 operations", o.Cells)
	}
}
