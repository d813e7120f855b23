package bytecode

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestModulesReproducible rebuilds every module with clang into a
// temporary directory and compares it with the committed, embedded one.
// It needs clang and lld and takes ~30 s, so it runs with JITSIM_LONG=1 (CI
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
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		for _, b := range []Build{None, Limited, Full} {
			name := m.Module + "." + b.String() + ".wasm"
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, m.Wasm(b)) {
				t.Errorf("%s: rebuilt module differs from the committed one (run go generate ./tiers/bytecode)", name)
			}
		}
	}
}
