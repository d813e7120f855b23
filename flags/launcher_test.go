package flags

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// xListed matches an option line of java's -X listing: four spaces, the option, then
// (optionally) a placeholder such as <size> or <opts>.
var xListed = regexp.MustCompile(`^    (-X[A-Za-z:/]*)(<[^>]*>?)?`)

// TestXHelpListsJavaOptions reads the -X listing java 17 and 25 printed (recorded.json, case
// launcher_xhelp) and checks that jitsim accepts every option java lists there, with a
// value where java shows a placeholder.
func TestXHelpListsJavaOptions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "recorded.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		JVMs map[string]struct {
			Cases map[string]struct{ Stderr string } `json:"cases"`
		} `json:"jvms"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	values := map[string]string{"<size>": "64m", "<opts>": "disable", "<file>": "x.log", "<directories": "x"}
	for _, feature := range []string{"17", "25"} {
		rel, err := jdk.Parse(feature)
		if err != nil {
			t.Fatal(err)
		}
		listing := rec.JVMs[feature].Cases["launcher_xhelp"].Stderr
		n := 0
		for _, l := range strings.Split(listing, "\n") {
			m := xListed.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			opt := m[1]
			if m[2] != "" {
				opt += values[m[2]]
			}
			n++
			_, _, err := Parse(Options{JDK: rel, Arch: jdk.AMD64, Args: []string{opt, "-version"}})
			if err != nil {
				t.Errorf("JDK %s lists %s in -X; jitsim: %v", feature, opt, err)
			}
		}
		if n < 20 {
			t.Errorf("JDK %s: only %d -X options found in the recorded listing", feature, n)
		}
	}
}

// TestLauncherOptionsOneRowEach checks the table: no option has two rows (the first would
// hide the second) in any profile.
func TestLauncherOptionsOneRowEach(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range launcherOptions {
		key := o.name
		if o.prefix {
			key += "…"
		}
		if seen[key] {
			t.Errorf("%s has two rows", key)
		}
		seen[key] = true
	}
}

// TestAgentWithoutEntryPoint: a library that loads but exports no Agent_OnLoad stops JDK 17
// (an empty -agentpath: loads the launcher itself); Temurin 25 crashes there, which is not
// modelled, so it runs. The test binary is an ELF file without the entry point.
func TestAgentWithoutEntryPoint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "libnotanagent.so"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-agentpath:" + exe}, "Could not find Agent_OnLoad function in the agent library: " + exe + "\n"},
		{[]string{"-agentpath:"}, "Could not find Agent_OnLoad function in the agent library: \n"},
		{[]string{"-agentpath:=opts"}, "Could not find Agent_OnLoad function in the agent library: \n"},
		{[]string{"-Djava.library.path=" + dir, "-agentlib:notanagent"}, "Could not find Agent_OnLoad function in the agent library: notanagent\n"},
	} {
		_, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: c.args})
		var fe *Error
		if !errors.As(err, &fe) || !strings.HasSuffix(fe.Text, c.want) {
			t.Errorf("17 %q: got %v, want an error ending %q", c.args, err, c.want)
		}
		if _, _, err := Parse(Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: c.args}); err != nil {
			t.Errorf("25 %q: %v (25 crashes there; not modelled, it runs)", c.args, err)
		}
	}
	if _, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005"}}); err != nil {
		t.Errorf("the JDK's own agent: %v", err)
	}
}
