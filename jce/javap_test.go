package jce

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestConstantsMatchJDKClasses checks the provider's constants against the
// static final fields recorded from the JDKs' own classes
// (bytecode/testdata/javap: OpenJDK 17.0.15, Temurin 25.0.3):
// PARALLEL_LEN per profile (none on 17: no implGCMCrypt), TRIGGERLEN and the
// AES block size. JDK 21's and 22's files are not recordings but the published
// sources' constants (its header says so); 8 and 8u have no GaloisCounterMode
// constants jce uses.
func TestConstantsMatchJDKClasses(t *testing.T) {
	for r, file := range map[jdk.Release]string{jdk.R17: "facts-17.txt", jdk.R21: "facts-21.txt", jdk.R22: "facts-22.txt", jdk.R25: "facts-25.txt"} {
		b, err := os.ReadFile(filepath.Join("..", "bytecode", "testdata", "javap", file))
		if err != nil {
			t.Fatal(err)
		}
		consts := map[string]int{}
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) != 4 || f[0] != "const" {
				continue
			}
			if n, err := strconv.Atoi(f[3]); err == nil {
				consts[f[1]+"."+f[2]] = n
			}
		}
		prof, err := profileFor(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := consts["GaloisCounterMode.PARALLEL_LEN"]; got != prof.parallelLen {
			t.Errorf("JDK %s: PARALLEL_LEN %d in the class file (0: none), the profile %d", r, got, prof.parallelLen)
		}
		for name, ours := range map[string]int{"GaloisCounterMode.TRIGGERLEN": gcmTriggerLen, "GHASH.AES_BLOCK_SIZE": aesBlockSize} {
			if got, ok := consts[name]; !ok || got != ours {
				t.Errorf("JDK %s: %s = %d (recorded %v), jce's %d", r, name, got, ok, ours)
			}
		}
	}
}
