package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
