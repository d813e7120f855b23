package flags

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestAArch64Recording holds the arm64 JDK 17 profile to the PrintFlagsInitial table of
// Debian's openjdk-17-jre-headless:arm64 run under qemu-aarch64
// (testdata/jvmflags/aarch64): every hand row jitsim has on arm64 must exist there with the
// same type and kind, and every x86-only row must be absent. The recording is of a later
// patch release than the amd64 one (17.0.21.1, not 17.0.15): that is reported, not failed,
// and the declared defaults, which the two releases and the platforms may set apart, are
// listed rather than compared.
func TestAArch64Recording(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "jvmflags", "aarch64", "jdk-17.*.initial.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("want one aarch64 JDK 17 recording, found %v (%v)", files, err)
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(files[0]), "jdk-"), ".initial.txt")
	if version != "17.0.15" {
		t.Logf("the aarch64 recording is of %s; the amd64 tables are of 17.0.15", version)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^ *(\S+) (\S+) +=(?: (.*?))? +\{([^}]*)\} \{([^}]*)\}$`)
	type rec struct{ typ, kind, def string }
	recorded := map[string]rec{}
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n")[1:] {
		m := row.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("%s: cannot read %q", files[0], l)
		}
		recorded[m[2]] = rec{m[1], m[4], m[3]}
	}
	checked := 0
	for _, f := range table {
		if f.NotModelled || f.Jitsim || !f.inJDK(jdk.R17) {
			continue
		}
		r, ok := recorded[f.Name]
		switch {
		case f.AMD64Only && ok:
			t.Errorf("%s is marked x86-only but arm64 JDK 17 has it", f.Name)
		case f.AMD64Only:
		case !ok:
			// PrintFlagsInitial lists product and manageable flags only.
			if f.Kind.At(jdk.R17) == Product {
				t.Errorf("arm64 JDK 17 has no product flag %s", f.Name)
			}
		default:
			checked++
			if got := f.Type.At(jdk.R17).String(); got != r.typ {
				t.Errorf("%s: type %s, arm64 recording %s", f.Name, got, r.typ)
			}
			if got := strings.Trim(kindText(f, jdk.R17), "{}"); got != r.kind {
				t.Errorf("%s: kind %q, arm64 recording %q", f.Name, got, r.kind)
			}
			if d := f.Default.At(jdk.R17); d != r.def && !(d == "" && r.def == "") {
				t.Logf("%s: declared default %q, arm64 %s prints %q", f.Name, d, version, r.def)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d hand rows found in the arm64 recording", checked)
	}
}
