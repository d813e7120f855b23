package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestIntrinsicTableMatchesJDKClasses checks the intrinsic table against the
// @IntrinsicCandidate methods recorded from the JDKs' own java.base
// (bytecode/testdata/javap: OpenJDK 17.0.15, Temurin 25.0.3): the methods
// the rows replace in a release are exactly the recorded candidates of the
// SunJCE AES classes, with the recorded static flag.
func TestIntrinsicTableMatchesJDKClasses(t *testing.T) {
	const pkg = "com.sun.crypto.provider."
	for _, r := range []jdk.Release{jdk.R17, jdk.R25} {
		b, err := os.ReadFile(filepath.Join("..", "bytecode", "testdata", "javap", "facts-"+r.String()+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		recorded := map[string]bool{} // "Class name desc" -> static
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) >= 5 && f[0] == "method" && slices.Contains(f[5:], "intrinsic") {
				recorded[strings.Join(f[1:4], " ")] = slices.Contains(f[5:], "static")
			}
		}
		if len(recorded) == 0 {
			t.Fatalf("JDK %s: no @IntrinsicCandidate recorded", r)
		}
		table := map[string]bool{}
		for _, id := range Intrinsics() {
			row := id.Row()
			if !row.InJDK(r) {
				continue
			}
			m := row.Method(r)
			k := strings.TrimPrefix(m.Class, pkg) + " " + m.Name + " " + strings.ReplaceAll(m.Descriptor, "com/sun/crypto/provider/", "")
			table[k] = true
			static, ok := recorded[k]
			switch {
			case !ok:
				t.Errorf("JDK %s: %s replaces %s, which is no @IntrinsicCandidate in the class files", r, row.HotSpotName, k)
			case static != m.Static:
				t.Errorf("JDK %s: %s: static %v, the class file's %v", r, k, m.Static, static)
			}
		}
		for k := range recorded {
			if !table[k] {
				t.Errorf("JDK %s: @IntrinsicCandidate %s has no row in the intrinsic table", r, k)
			}
		}
	}
}
