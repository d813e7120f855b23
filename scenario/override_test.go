package scenario

import (
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestOverride checks that the command line beats a scenario file's keys, with one note per
// key it replaces (naming the key and its line), and none for keys the file leaves unset or
// the command line repeats.
func TestOverride(t *testing.T) {
	const text = `title = "t"
scenario = "TestAESMain"
jdk = "17"
clock = "model"
cpu = "icelake-server"
threads = 2
args = ["20", "10"]

[properties]
mode = "GCM"
msgSize = 64

[[compare]]
name = "a"

[[compare]]
name = "b"
properties = { msgSize = 32 }
`
	f, err := ParseFile("f.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	notes, err := f.Override(Overrides{JDK: "25", Clock: "model", Threads: 4, Args: []string{"1", "1"},
		Props: map[string]string{"msgSize": "128", "mode": "GCM", "keySize": "256"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`--jdk=25 overrides jdk = "17" (f.toml:3)`,
		`--threads=4 overrides threads = "2" (f.toml:6)`,
		`the arguments ["1" "1"] overrides args = "[20 10]" (f.toml:7)`,
		`-DmsgSize=128 overrides properties.msgSize = "64" (f.toml:11)`,
		`-DmsgSize=128 overrides compare.1.properties.msgSize = "32" (f.toml:18)`,
	}
	if !slices.Equal(notes, want) {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range f.Runs() {
		if r.JDK != jdk.R25 || r.Clock != ClockModel || r.CPU.Name != "icelake-server" {
			t.Errorf("%s runs on %s %s %s", r.Variant, r.JDK, r.Clock, r.CPU.Name)
		}
	}
	if _, err := f.Override(Overrides{Clock: "sundial"}); err == nil || !strings.Contains(err.Error(), "sundial") {
		t.Errorf("bad --clock: %v", err)
	}
}
