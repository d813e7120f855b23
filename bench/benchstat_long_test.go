package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchstatRunsOnOurLines runs the real benchstat (go.mod's tool
// directive, `go tool benchstat`) on two of our files whose scores differ by
// 2×. It compiles benchstat, so it runs only with JITSIM_LONG=1.
func TestBenchstatRunsOnOurLines(t *testing.T) {
	if os.Getenv("JITSIM_LONG") == "" {
		t.Skip("set JITSIM_LONG=1 to run benchstat itself")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	base := docResult()
	fast := docResult()
	for _, f := range fast.Primary.RawData {
		for i := range f {
			f[i] *= 2 // twice the throughput: half the time per op
		}
	}
	var files []string
	for i, r := range []Result{base, fast} {
		var b bytes.Buffer
		if err := WriteBenchstat(&b, []Result{r}, map[string]string{"goos": "linux"}, map[string]int64{r.Benchmark: 1024}, false); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, []string{"old.txt", "new.txt"}[i])
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	cmd := exec.Command(goBin, "tool", "benchstat", files[0], files[1])
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, out)
	}
	s := string(out)
	for _, want := range []string{"AESGCMBench.encrypt/dataSize=1024/keyLength=128/provider=-1", "sec/op", "-50.00%", "B/s", "+100.00%"} {
		if !strings.Contains(s, want) {
			t.Errorf("benchstat output lacks %q:\n%s", want, s)
		}
	}
}
