package main

import (
	"os"
	"testing"
)

// TestMain points the user cache at a fresh directory, so that a profile `jitsim calibrate
// --jvm` left in this machine's cache never prices the tests' --cpu=host model-clock runs.
//
// With JITSIM_TEST_AS_MAIN=1 in its environment the test binary is jitsim itself (main with
// its command line): BenchmarkStartup runs it so, to time whole processes.
func TestMain(m *testing.M) {
	if os.Getenv("JITSIM_TEST_AS_MAIN") == "1" {
		main()
	}
	dir, err := os.MkdirTemp("", "jitsim-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	if builtJitsim.dir != "" {
		os.RemoveAll(builtJitsim.dir)
	}
	os.Exit(code)
}
