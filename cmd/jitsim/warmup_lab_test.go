package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarmupLab: --lab prints a row per run and setting, the dynamic rules
// included, writes lab.png and lab.svg, lists them, and puts the chart in
// the report. 1 KiB GCM with C1 only settles early in 600 iterations.
func TestWarmupLab(t *testing.T) {
	dir := t.TempDir()
	args := []string{"warmup", "--clock=model", "--cpu=icelake-server", "--lab", "--out", dir,
		"--compare", "-XX:TieredStopAtLevel=1", "-DdataSize=1024", "AESGCMBench", "0", "600", "10"}
	var out, errb bytes.Buffer
	if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("jitsim %s: status %d\nstderr: %s", strings.Join(args, " "), st, errb.String())
	}
	for _, rule := range []string{"CoV < 0.01 (Laaber et al.)", "RCIW < 0.03 (Laaber et al.)", "KLD > 0.99 (Laaber et al.)", "JMH default (5 × 10 s)"} {
		if !strings.Contains(out.String(), "-XX:TieredStopAtLevel=1                     0  "+rule) {
			t.Errorf("no row for %s:\n%s", rule, out.String())
		}
	}
	if !strings.Contains(out.String(), "report.html, lab.png, lab.svg") {
		t.Errorf("lab files not listed:\n%s", out.String())
	}
	f, err := os.Open(filepath.Join(dir, "lab.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("lab.png: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "lab.svg")); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("lab.svg: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !bytes.Contains(b, []byte("<h2>Stopping-criteria lab</h2>")) {
		t.Errorf("report.html has no lab section (%v)", err)
	}
}
