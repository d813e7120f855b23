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

// TestReleases reads the stubs a run reached from its first-stub events (the first per
// method and stub, in time order) and its steady throughput from the steady iterations.
func TestReleases(t *testing.T) {
	it := func(i int, bytes int64, ev ...Event) Iteration {
		return Iteration{Index: i, Start: time.Duration(i) * time.Millisecond, Duration: time.Millisecond, Ops: 1, Bytes: bytes, Events: ev}
	}
	stub := func(at int, m, s string) Event {
		return Event{Kind: EventFirstStub, Method: m, Detail: s, Level: 4, At: time.Duration(at) * time.Millisecond}
	}
	r := Run{Label: "JDK 17", JDK: "17"}
	for i := range 40 {
		var ev []Event
		switch i {
		case 5:
			ev = []Event{stub(5, "GHASH::processBlocks", "ghash_processBlocks/avx"), {Kind: EventInstalled, Method: "X::y", Level: 4}}
		case 3:
			ev = []Event{stub(3, "AESCrypt::implEncryptBlock", "aescrypt_encryptBlock/aesni")}
		case 9:
			ev = []Event{stub(9, "AESCrypt::implEncryptBlock", "aescrypt_encryptBlock/aesni")} // not a first
		}
		r.Iterations = append(r.Iterations, it(i, 1000, ev...))
	}
	got := StubsReached(r)
	if len(got) != 2 || got[0].Stub != "aescrypt_encryptBlock/aesni" || got[1].Iter != 5 {
		t.Fatalf("stubs %+v", got)
	}
	s := Summary{Labels: []LabelSummary{{Label: "JDK 17", Steady: true, SteadyStart: 30 * time.Millisecond}},
		Runs: []RunSummary{{Label: "JDK 17", Analysis: Analysis{Steady: true, SteadyIter: 30}}}}
	rows := Releases([]Run{r}, s)
	if len(rows) != 1 || rows[0].JDK != "17" || rows[0].OpsPerSec != 1000 || rows[0].MBPerSec != 1 {
		t.Fatalf("rows %+v", rows)
	}
	var b strings.Builder
	if err := WriteReleases(&b, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "aescrypt_encryptBlock/aesni from L4 at 3ms; ghash_processBlocks/avx from L4 at 5ms") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestParseJVMOutputCPU reads the twin's optional thread CPU time per iteration onto the
// iteration just read; a jitsim-cpu line for another iteration, or a negative time, is a bad
// line.
func TestParseJVMOutputCPU(t *testing.T) {
	out := "jitsim-epoch 50\njitsim-iter 0 0 7000\njitsim-cpu 0 4000\njitsim-iter 1 9000 3000\n"
	r, err := ParseJVMOutput([]byte(out), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Iterations) != 2 || r.Iterations[0].CPU != 4000 || r.Iterations[1].CPU != 0 {
		t.Fatalf("iterations %+v", r.Iterations)
	}
	for _, bad := range []string{"jitsim-cpu 0 4000\njitsim-iter 0 0 7000\n", "jitsim-iter 0 0 7000\njitsim-cpu 1 4000\n",
		"jitsim-iter 0 0 7000\njitsim-cpu 0 -4\n", "jitsim-iter 0 0 7000\njitsim-cpu 0 x\n"} {
		if _, err := ParseJVMOutput([]byte("jitsim-epoch 50\n"+bad), 1, 0); err == nil || !strings.Contains(err.Error(), "bad line") {
			t.Errorf("%q: %v, want a bad line", bad, err)
		}
	}
}
