package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfileOption checks that --cpuprofile writes a profile for a command, also among
// run's own options, and that an unwritable path is an error, not a panic.
func TestCPUProfileOption(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		file string
	}{
		{[]string{"version", "--cpuprofile", filepath.Join(dir, "version.prof")}, "version.prof"},
		{[]string{"run", "--cpuprofile", filepath.Join(dir, "run.prof"), "-version"}, "run.prof"},
	} {
		args := c.args
		exit, _, stderr := jitsim(args...)
		if exit != 0 {
			t.Fatalf("jitsim %v: exit %d, stderr %q", args, exit, stderr)
		}
		st, err := os.Stat(filepath.Join(dir, c.file))
		if err != nil || st.Size() == 0 {
			t.Errorf("jitsim %v: no profile written (%v)", args, err)
		}
	}
	exit, _, stderr := jitsim("version", "--cpuprofile", filepath.Join(dir, "missing", "x.prof"))
	if exit == 0 || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("unwritable profile: exit %d, stderr %q; want an error naming --cpuprofile", exit, stderr)
	}
}
