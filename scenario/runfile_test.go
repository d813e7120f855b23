package scenario

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jitsim/jitsim/tiers"
)

// TestRunFile runs a small scenario file end to end on the real tiers:
// options parsed per variant, fresh VMs, output with the published
// numbers beside it, bytes checked.
func TestRunFile(t *testing.T) {
	text := `title = "small GCM"
source = "test"
scenario = "TestAESMain"
jdk = "17"
args = ["3", "1"]
options = ["-XX:+UnlockDiagnosticVMOptions"]
[properties]
mode = "GCM"
msgSize = 1000
[[compare]]
name = "on"
  [[compare.published]]
  metric = "TestAESEncode runtime"
  value = 4092.488144
  unit = "ms"
[[compare]]
name = "off"
options = ["-XX:-UseGHASHIntrinsics"]
`
	f, err := ParseFile("small.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	var iters atomic.Int64
	err = RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Stderr: &errOut, CheckOutput: true,
		Options: []string{"-DmsgSize=999"},
		Observer: func(string) Observer {
			return ObserverFunc(func(Iteration) { iters.Add(1) })
		}})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{
		"=== on: jitsim run --jdk=17 --cpu=host --clock=wall -XX:+UnlockDiagnosticVMOptions -DmsgSize=999 TestAESMain 3 1\n",
		"=== off: jitsim run --jdk=17 --cpu=host --clock=wall -XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics -DmsgSize=999 TestAESMain 3 1\n",
		"--- published: TestAESEncode runtime = 4092.488144 ms\n",
		"msgSize=999,",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if got := iters.Load(); got != 2*2*(3+1) {
		t.Errorf("observer saw %d iterations, want 16", got)
	}

	t.Run("model clock", func(t *testing.T) {
		g, err := ParseFile("m.toml", []byte(strings.Replace(text, `jdk = "17"`, "jdk = \"17\"\nclock = \"model\"", 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := RunFile(context.Background(), g, FileEnv{Tiers: tiers.Default()}); !errors.Is(err, ErrModelClock) {
			t.Fatalf("err = %v, want ErrModelClock", err)
		}
	})
	t.Run("bad command-line option", func(t *testing.T) {
		var out bytes.Buffer
		err := RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Options: []string{"-XX:+UseFastAES"}})
		if err == nil || !strings.Contains(err.Error(), "Unrecognized VM option 'UseFastAES'") || !strings.Contains(err.Error(), `variant "off"`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestRunExamples runs every example file end to end with tiny counts and
// sizes (arguments replaced, -D options after the file's): every variant's
// options must start a VM and every output must check out. Model-clock
// files must fail with ErrModelClock.
func TestRunExamples(t *testing.T) {
	paths, err := filepath.Glob("../examples/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	args := map[string][]string{"TestAESMain": {"2", "1"}, "ParquetDecrypt": {}}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := LoadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			a, ok := args[f.Scenario]
			if !ok {
				a = []string{"0", "1", "1"}
			}
			var out bytes.Buffer
			err = RunFile(context.Background(), f, FileEnv{Tiers: tiers.Default(), Stdout: &out, Args: a, CheckOutput: true,
				Options: []string{"-DdataSize=512", "-DaadSize=2048", "-DmsgSize=1024"}})
			if f.Clock == ClockModel {
				if !errors.Is(err, ErrModelClock) {
					t.Fatalf("model-clock file: err = %v, want ErrModelClock", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if n := strings.Count(out.String(), "\n=== "); n != len(f.Compare) {
				t.Errorf("%d variants ran, want %d", n, len(f.Compare))
			}
		})
	}
}
