package warmup

import (
	"slices"
	"strings"
	"testing"
	"time"
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
	r, err := ParseJVMOutput([]byte(out), 2, 1024)
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
	if _, err := ParseJVMOutput([]byte("hello\n"), 1, 1); err == nil {
		t.Errorf("output without iterations accepted")
	}
}

// TestParseJVMOutputBytesPerLine reads the trace replayer's lines: each iteration carries its
// own bytes (a replay's operations differ in size), and its check lines are skipped; a
// negative byte count is a bad line.
func TestParseJVMOutputBytesPerLine(t *testing.T) {
	out := "jitsim-epoch 50\njitsim-iter 0 0 7000 225\njitsim-iter 1 9000 3000 0\njitsim-check 0 2 0 123456\n"
	r, err := ParseJVMOutput([]byte(out), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Iterations) != 2 || r.Iterations[0].Bytes != 225 || r.Iterations[1].Bytes != 0 || r.Iterations[1].Ops != 1 {
		t.Fatalf("iterations %+v", r.Iterations)
	}
	if _, err := ParseJVMOutput([]byte("jitsim-epoch 50\njitsim-iter 0 0 7000 -1\n"), 1, 0); err == nil || !strings.Contains(err.Error(), "bad line") {
		t.Fatalf("negative bytes: %v", err)
	}
}
