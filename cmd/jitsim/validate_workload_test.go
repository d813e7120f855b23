package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jvmharness"
)

// TestValidateWorkloadBadInput: a WORKLOAD that is no workload, options of the built-in cells
// beside one, or a workload option without one are clear errors with status 2, no JVM run.
func TestValidateWorkloadBadInput(t *testing.T) {
	timed := filepath.Join(t.TempDir(), "timed.toml")
	if err := os.WriteFile(timed, []byte("[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\nduration = \"1s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--jvm=java", "TestAESMain"}, "TestAESMain runs no workload file: give a workload file (examples/workloads/*.toml) or one of AESGCMBench"},
		{[]string{"validate", "--jvm=java", filepath.Join(t.TempDir(), "none.toml")}, "none.toml"},
		{[]string{"validate", "--jvm=java", "--ops=gcm-enc", "../../examples/workloads/short-batch.toml"}, "--ops applies to the built-in cells, not to a WORKLOAD"},
		{[]string{"validate", "--jvm=java", "--wall", "AESGCMBench"}, "--wall applies to the built-in cells"},
		{[]string{"validate", "--jvm=java", "--sets=nope", "AESGCMBench"}, `--sets: no flag set "nope"`},
		{[]string{"validate", "--jvm=java", "--max-ops=-1", "AESGCMBench"}, "--max-ops=-1"},
		{[]string{"validate", "--jvm=java", "--max-ops=5"}, "--max-ops applies to a WORKLOAD"},
		{[]string{"validate", "--jvm=java", "a.toml", "b.toml"}, "accepts at most 1 arg"},
		{[]string{"validate", "--jvm=java", timed}, `phase "phase1" runs for 1s; a trace counts operations: give -DmaxOps=N (validate: --max-ops=N)`},
	} {
		var stdout, stderr bytes.Buffer
		st := wired().execute(c.args, nil, &stdout, &stderr, noEnv)
		if st == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: status %d, stderr %q; want an error with %q", c.args, st, stderr.String(), c.want)
		}
	}
}

// TestValidateWorkloadOnJVM runs `validate` on a shipped workload with the real JVM named by
// JITSIM_JVM (skipped when unset): one round, capped at 30 operations; the table, the JSON and
// the page hold the phase.
func TestValidateWorkloadOnJVM(t *testing.T) {
	java := os.Getenv("JITSIM_JVM")
	if java == "" {
		t.Skip("JITSIM_JVM is not set: no real JVM")
	}
	props, err := jvmharness.Properties(context.Background(), java)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"validate", "--jvm=" + java, "--jdk=" + strings.TrimPrefix(props["java.specification.version"], "1."), "--rounds=1",
		"--max-ops=30", "--out", dir, "../../examples/workloads/short-batch.toml"}
	var out, errb bytes.Buffer
	if st := wired().execute(args, nil, &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d\n%s", st, errb.String())
	}
	if !strings.Contains(out.String(), "default   batch  30   time to steady state") {
		t.Errorf("table:\n%s", out.String())
	}
	var rep validateReport
	b, err := os.ReadFile(filepath.Join(dir, "validate.json"))
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil || rep.Workload == nil || len(rep.Workload.Phases) != 1 || len(rep.Workload.Phases[0].JVM) != 1 {
		t.Fatalf("validate.json: %v\n%s", err, b)
	}
	for _, f := range []string{"validate.html", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}
