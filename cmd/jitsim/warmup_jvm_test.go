package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/warmup"
)

// TestParseJVMOutput reads a made-up transcript in java's formats: the
// program's lines and -XX:+PrintCompilation lines (a plain install, an OSR
// install with its bci, a made-not-entrant line, Temurin 25's unpadded
// "made not entrant: <reason>" line, a JDK method outside the provider,
// which is ignored).
func TestParseJVMOutput(t *testing.T) {
	const m = "com.sun.crypto.provider.GHASH::processBlocks"
	out := strings.Join([]string{
		"    29    1       3       java.lang.Object::<init> (1 bytes)",
		"jitsim-epoch 100",
		"jitsim-iter 0 0 5000000",
		"    103   40       3       " + m + " (89 bytes)",
		"jitsim-iter 1 5000000 5000000",
		"    111   41 %     4       " + m + " @ 12 (89 bytes)",
		"    111   42       4       " + m + " (89 bytes)",
		"    111   40       3       " + m + " (89 bytes)   made not entrant",
		"112 41 %     4       " + m + " @ 12 (89 bytes)   made not entrant: OSR invalidation of lower level",
		"jitsim-iter 2 10000000 1000000",
		"jitsim-sink 3",
	}, "\n") + "\n"
	r, err := parseJVMOutput([]byte(out), 2, 1024)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Iterations) != 3 || r.Iterations[1].Start != 5*time.Millisecond || r.Iterations[2].Bytes != 2048 || r.Iterations[2].Ops != 2 {
		t.Fatalf("iterations %+v", r.Iterations)
	}
	var levels []int
	var kinds [][]string
	for _, it := range r.Iterations {
		levels = append(levels, it.Levels[m])
		var k []string
		for _, e := range it.Events {
			k = append(k, string(e.Kind)+"@"+string(rune('0'+e.Level)))
		}
		kinds = append(kinds, k)
	}
	if !slices.Equal(levels, []int{3, 3, 4}) {
		t.Errorf("levels %v, want [3 3 4]", levels)
	}
	want := [][]string{{"installed@3"}, nil, {"osr@4", "installed@4", "not-entrant@3", "not-entrant@4"}}
	for i := range want {
		if !slices.Equal(kinds[i], want[i]) {
			t.Errorf("iteration %d events %v, want %v", i, kinds[i], want[i])
		}
	}
	if osr := r.Iterations[2].Events[0]; osr.BCI != 12 || osr.CompileID != 41 || osr.At != 11*time.Millisecond {
		t.Errorf("OSR event %+v", osr)
	}
	if _, err := parseJVMOutput([]byte("hello\n"), 1, 1); err == nil {
		t.Errorf("output without iterations accepted")
	}
}

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
	runs, err := warmup.ReadJSON(f)
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
