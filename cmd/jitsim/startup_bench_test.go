package main

import (
	"os"
	"os/exec"
	"testing"
)

// BenchmarkStartup times whole jitsim processes, exec to exit, for the commands whose
// start-up a user waits on: 'run -version' (options checked, ergonomics applied, banner) and
// 'explain'. The process is this test binary run as jitsim (TestMain), which links every
// package jitsim does and the tests' own besides, so it is an upper bound on the jitsim
// binary's start-up.
func BenchmarkStartup(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Skip("no path to the test binary:", err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run-version", []string{"run", "-version"}},
		{"explain", []string{"explain", "--jdk=8u", "GHASHProcessBlocks"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(exe, c.args...)
				cmd.Env = append(os.Environ(), "JITSIM_TEST_AS_MAIN=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("jitsim %v: %v\n%s", c.args, err, out)
				}
			}
		})
	}
}
