package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestLoadExamples loads every scenario file in examples/ and checks that
// each names a scenario and carries published numbers beside its option
// sets.
func TestLoadExamples(t *testing.T) {
	paths, err := filepath.Glob("../examples/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 6 {
		t.Fatalf("found %d scenario files in examples/, want at least 6 (one per seed)", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if f.Title == "" || f.Source == "" {
				t.Errorf("no title or source")
			}
			published := 0
			for _, r := range f.Runs() {
				published += len(r.Published)
				if r.Scenario.Name != f.Scenario {
					t.Errorf("run %q has scenario %q", r.Variant, r.Scenario.Name)
				}
			}
			if published == 0 {
				t.Errorf("no published numbers")
			}
		})
	}
}

// TestParseFileErrors checks that bad files are errors with file:line.
func TestParseFileErrors(t *testing.T) {
	const good = "scenario = \"TestAESMain\"\njdk = \"17\"\n"
	// ratioGood is good with two variants that publish the same metric (lines 3-14).
	const ratioGood = good + "[[compare]]\nname = \"a\"\n  [[compare.published]]\n  metric = \"TestAESEncode runtime\"\n  value = 2\n  unit = \"ms\"\n[[compare]]\nname = \"b\"\n  [[compare.published]]\n  metric = \"TestAESEncode runtime\"\n  value = 1\n  unit = \"ms\"\n"
	cases := []struct {
		name, text, want string
	}{
		{"syntax", good + "threads = = 2\n", "bad.toml:3: "},
		{"unknown key", good + "colour = \"red\"\n", `bad.toml:3: unknown key "colour"`},
		{"unknown key in compare", good + "[[compare]]\nname = \"a\"\n[[compare]]\nname = \"b\"\nopts = []\n", `bad.toml:7: unknown key "compare.opts"`},
		{"unknown scenario", "scenario = \"TestDESMain\"\n", `bad.toml:1: unknown scenario "TestDESMain"`},
		{"no scenario", "jdk = \"17\"\n", `no scenario named`},
		{"bad jdk", "scenario = \"TestAESMain\"\n\njdk = \"11\"\n", `bad.toml:3: unknown JDK profile "11"`},
		{"bad cpu", good + "cpu = \"pentium\"\n", `bad.toml:3: `},
		{"bad clock", good + "clock = \"sundial\"\n", `bad.toml:3: unknown clock "sundial"`},
		{"wrong type", good + "threads = \"two\"\n", `bad.toml:3: `},
		{"unknown property", good + "[properties]\nmode = \"GCM\"\nmsgsize = 10\n", `bad.toml:5: unknown property "msgsize" of TestAESMain`},
		{"unknown variant property", good + "[[compare]]\nname = \"a\"\nproperties = { colour = 1 }\n", `bad.toml:5: unknown property "colour"`},
		{"bad property value", good + "[properties]\nmode = [1, 2]\n", `bad.toml:4: property mode: want a string`},
		{"duplicate variant", good + "[[compare]]\nname = \"a\"\n[[compare]]\nname = \"a\"\n", `bad.toml:6: two [[compare]] entries are named "a"`},
		{"nameless variant", good + "[[compare]]\noptions = []\n", `bad.toml:3: [[compare]] number 1 has no name`},
		{"bad option", good + "[[compare]]\nname = \"a\"\n[[compare]]\nname = \"b\"\noptions = [\"-XX:+UseFastAES\"]\n", `bad.toml:7: VM options ["-XX:+UseFastAES"] for --jdk=17: Unrecognized VM option 'UseFastAES'`},
		{"locked option", good + "[[compare]]\nname = \"a\"\noptions = [\n  \"-XX:-UseGHASHIntrinsics\",\n]\n", `bad.toml:5: VM options`},
		{"published without unit", good + "[[compare]]\nname = \"a\"\n  [[compare.published]]\n  metric = \"x\"\n  value = 1\n", `bad.toml:5: a published number needs`},
		{"negative threads", good + "threads = -2\n", `bad.toml:3: threads = -2`},
		{"ratio without name", ratioGood + "[[ratio]]\nnum = \"a\"\nden = \"b\"\nmetric = \"TestAESEncode runtime\"\n", `bad.toml:15: [[ratio]] number 1 has no name`},
		{"ratio unknown variant", ratioGood + "[[ratio]]\nname = \"r\"\nnum = \"a\"\nden = \"c\"\nmetric = \"TestAESEncode runtime\"\n", `bad.toml:18: [[ratio]] "r": "c" is not the name of a [[compare]] entry`},
		{"ratio unpublished metric", ratioGood + "[[ratio]]\nname = \"r\"\nnum = \"a\"\nden = \"b\"\nmetric = \"TestAESDecode runtime\"\n", `variant "a" publishes no "TestAESDecode runtime"`},
		{"ratio unmeasurable metric", ratioGood + "[[ratio]]\nname = \"r\"\nnum = \"a\"\nden = \"b\"\nmetric = \"job\"\npublished = 2.0\nunit = \"ms\"\n", `bad.toml:19: [[ratio]] "r": jitsim cannot measure "job" in ms`},
		{"duplicate ratio", ratioGood + "[[ratio]]\nname = \"r\"\nnum = \"a\"\nden = \"b\"\nmetric = \"TestAESEncode runtime\"\n[[ratio]]\nname = \"r\"\nnum = \"b\"\nden = \"a\"\nmetric = \"TestAESEncode runtime\"\n", `bad.toml:21: two [[ratio]] entries are named "r"`},
		{"ratio negative published", ratioGood + "[[ratio]]\nname = \"r\"\nnum = \"a\"\nden = \"b\"\nmetric = \"TestAESEncode runtime\"\npublished = -1.0\n", `bad.toml:20: [[ratio]] "r": published ratio -1 is not a positive number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("bad.toml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Errorf("err %T is not a *FileError", err)
			}
		})
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.toml")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile(missing) = %v", err)
	}
}

// TestRuns checks how a File's layers merge into a Run.
func TestRuns(t *testing.T) {
	text := `scenario = "TestAESMain"
jdk = "8u"
cpu = "haswell-e5-2660v3"
threads = 2
args = ["10", "5"]
options = ["-XX:+PrintCompilation"]
[properties]
mode = "GCM"
msgSize = 10000
checkOutput = true
[[compare]]
name = "off"
options = ["-XX:-UseGHASHIntrinsics", "-DmsgSize=512"]
properties = { mode = "CBC" }
args = ["1"]
threads = 3
[[compare]]
name = "on"
`
	f, err := ParseFile("x.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	runs := f.Runs()
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	off, on := runs[0], runs[1]
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	check("off mode", off.Props["mode"], "CBC")
	check("off msgSize", off.Props["msgSize"], "512")
	check("off checkOutput", off.Props["checkOutput"], "true")
	check("off options", strings.Join(off.Options, " "), "-XX:+PrintCompilation -XX:-UseGHASHIntrinsics -DmsgSize=512")
	check("off args", strings.Join(off.Args, " "), "1")
	check("on mode", on.Props["mode"], "GCM")
	check("on msgSize", on.Props["msgSize"], "10000")
	check("on args", strings.Join(on.Args, " "), "10 5")
	if off.Threads != 3 || on.Threads != 2 || on.JDK != jdk.R8u || on.CPU.Name != "haswell-e5-2660v3" || on.Clock != ClockWall {
		t.Errorf("runs = %+v", runs)
	}
}
