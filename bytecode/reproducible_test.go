package bytecode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestModulesReproducible rebuilds every module with clang into a
// temporary directory and compares it with the committed, embedded one
// (the per-method builds and the inline modules).
// It needs clang and lld and takes 1-3 minutes on a loaded 2-vCPU box, so
// it runs with JITSIM_LONG=1 (CI
// installs clang; `sh build.sh && git diff --exit-code -- wasm` is the
// equivalent shell check).
func TestModulesReproducible(t *testing.T) {
	if os.Getenv("JITSIM_LONG") != "1" {
		t.Skip("set JITSIM_LONG=1 (needs clang and lld)")
	}
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang not installed")
	}
	dir := t.TempDir()
	cmd := exec.Command("sh", "build.sh")
	cmd.Env = append(os.Environ(), "OUT="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, out)
	}
	// Every embedded module — the three builds of each method and the
	// inline modules — against the rebuilt one, and nothing extra rebuilt.
	ents, err := wasmFS.ReadDir("wasm")
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rebuilt) != len(ents) {
		t.Errorf("build.sh made %d modules, %d are committed (run go generate ./bytecode)", len(rebuilt), len(ents))
	}
	for _, e := range ents {
		want, err := wasmFS.ReadFile("wasm/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: rebuilt module differs from the committed one (run go generate ./bytecode)", e.Name())
		}
	}
}
