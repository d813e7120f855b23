package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/warmup"
)

// TestWarmupBesideRealJVM runs the study with --jvm on the java on PATH (JDK
// 17 here; skipped without one): each option set gets a "java: …" run whose
// series has the program's iterations and the JVM's compile events for the
// provider's GCM methods.
func TestWarmupBesideRealJVM(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on PATH: --jvm not tried")
	}
	dir := t.TempDir()
	args := []string{"warmup", "--jdk=17", "--forks=1", "--out", dir, "--jvm", java, "--compare", "", "--compare", "-XX:TieredStopAtLevel=1",
		"-DdataSize=16384", "AESGCMBench", "0", "20", "4"}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d\n%s", st, errb.String())
	}
	f, err := os.Open(filepath.Join(dir, "series.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := warmup.ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, r := range runs {
		labels = append(labels, r.Label)
	}
	if !slices.Equal(labels, []string{"default", "java: default", "-XX:TieredStopAtLevel=1", "java: -XX:TieredStopAtLevel=1"}) {
		t.Fatalf("runs %v", labels)
	}
	for _, r := range []warmup.Run{runs[1], runs[3]} {
		if len(r.Iterations) != 20 || r.Iterations[0].Bytes != 4*16384 {
			t.Errorf("%s: %d iterations, %d bytes in the first", r.Label, len(r.Iterations), r.Iterations[0].Bytes)
		}
		maxLevel := 0
		for _, it := range r.Iterations {
			for _, e := range it.Events {
				if e.Kind == warmup.EventInstalled && strings.HasPrefix(e.Method, "com.sun.crypto.provider.") {
					maxLevel = max(maxLevel, e.Level)
				}
			}
		}
		if r.Label == "java: -XX:TieredStopAtLevel=1" && maxLevel != 1 || maxLevel == 0 {
			t.Errorf("%s: highest provider level installed %d", r.Label, maxLevel)
		}
	}
	if !strings.Contains(out.String(), "java: default") {
		t.Errorf("terminal table lacks the java run:\n%s", out.String())
	}
}

// replayWorkload is the workload whose JVM replay scenario/testdata records.
const replayWorkload = "../../scenario/testdata/replay/mixed.toml"

// fakeJava writes a "java" that reports version 17.0.15 and, run on a program, prints the
// recorded replay's stderr with edit applied: what the real JVM printed, without a JVM.
func fakeJava(t *testing.T, edit func(string) string) string {
	t.Helper()
	rec, err := os.ReadFile("../../scenario/testdata/replay/mixed.jdk17.stderr")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "stderr.txt")
	if err := os.WriteFile(out, []byte(edit(string(rec))), 0o644); err != nil {
		t.Fatal(err)
	}
	java := filepath.Join(dir, "java")
	script := "#!/bin/sh\ncase \"$1\" in -XshowSettings*) echo '    java.version = 17.0.15'; exit 0;; esac\ncat '" + out + "' >&2\n"
	if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return java
}

// TestWarmupWorkloadBesideRecordedJVM runs `warmup --jvm` on a workload file with a JVM that
// prints a recorded replay: the java run's series is thread 0's operations with their bytes,
// and a replay whose outputs differ from jitsim's fails the study naming the thread.
func TestWarmupWorkloadBesideRecordedJVM(t *testing.T) {
	dir := t.TempDir()
	args := []string{"warmup", "--clock=model", "--cpu=skylake-avx2", "--jdk=17", "--forks=1", "--out", dir, "--jvm", fakeJava(t, func(s string) string { return s }), replayWorkload}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d\n%s", st, errb.String())
	}
	f, err := os.Open(filepath.Join(dir, "series.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs, err := warmup.ReadJSON(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[1].Label != "java: default" || runs[1].JDK != "17.0.15" {
		t.Fatalf("runs %+v", runs)
	}
	// Thread 0 runs 40 + 20 + 20 + 20 + 10 operations, as jitsim's own run of the file.
	if len(runs[0].Iterations) != 110 || len(runs[1].Iterations) != 110 {
		t.Fatalf("%d jitsim and %d java iterations, want 110 each", len(runs[0].Iterations), len(runs[1].Iterations))
	}
	for i := range runs[0].Iterations {
		if a, b := runs[0].Iterations[i].Bytes, runs[1].Iterations[i].Bytes; a != b {
			t.Fatalf("operation %d: jitsim %d bytes, java %d", i, a, b)
		}
	}

	bad := fakeJava(t, func(s string) string {
		return regexp.MustCompile(`(?m)^(jitsim-check 1 \d+ \d+) \d+$`).ReplaceAllString(s, "$1 1") // thread 1's CRC-32 is not 1
	})
	errb.Reset()
	args[len(args)-2] = bad
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 1 || !strings.Contains(errb.String(), "thread 1's outputs have CRC-32") {
		t.Fatalf("a replay with other bytes: status %d\n%s", st, errb.String())
	}
	errb.Reset()
	if st := run(append(slices.Clone(args), "5"), strings.NewReader(""), &out, &errb, noEnv); st != 2 || !strings.Contains(errb.String(), "give no arguments") {
		t.Fatalf("a workload with arguments: status %d\n%s", st, errb.String())
	}
}

// TestWarmupWorkloadOnJVM runs `warmup --jvm` on a shipped workload with the real JVM named
// by JITSIM_JVM (skipped when unset): the JVM's replay passes jitsim's checks and its curve
// has thread 0's operations.
func TestWarmupWorkloadOnJVM(t *testing.T) {
	java := os.Getenv("JITSIM_JVM")
	if java == "" {
		t.Skip("JITSIM_JVM is not set: no real JVM")
	}
	dir := t.TempDir()
	args := []string{"warmup", "--clock=model", "--cpu=skylake-avx2", "--forks=1", "--out", dir, "--jvm", java, "-DmaxOps=50", "../../examples/workloads/tls-records.toml"}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d\n%s", st, errb.String())
	}
	if !strings.Contains(out.String(), "java: default") {
		t.Fatalf("no java run:\n%s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "series.json"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := warmup.ReadJSON(bytes.NewReader(b), "series.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || len(runs[1].Iterations) != 80 { // 30 burst records capped at 50 → 30, then 50
		t.Fatalf("runs: %d; java iterations %d", len(runs), len(runs[len(runs)-1].Iterations))
	}
}
