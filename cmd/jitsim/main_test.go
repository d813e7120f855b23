package main

import (
	"os"
	"testing"
)

// TestMain points the user cache at a fresh directory, so that a profile `jitsim calibrate
// --jvm` left in this machine's cache never prices the tests' --cpu=host model-clock runs.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jitsim-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
