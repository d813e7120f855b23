package main

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/runtime/model"
)

// TestRunScenarios runs the real scenario catalog on the real tiers through the
// command line, with iteration counts small enough for the interpreter.
func TestRunScenarios(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cbc.toml")
	if err := os.WriteFile(file, []byte(`title = "CBC, tiny"
scenario = "TestAESMain"
jdk = "17"
args = ["4", "2"]
[properties]
mode = "CBC"
msgSize = "64"
[[compare]]
name = "stock"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, err := model.Lookup("haswell-e5-2660v3")
	if err != nil {
		t.Fatal(err)
	}
	data, err := prof.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "haswell.json"), filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{\n  \"rows\": 7\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		exit   int
		stdout string
		stderr string
	}{
		{"named", []string{"run", "--jdk=17", "-Dmode=GCM", "-DmsgSize=100", "-DcheckOutput=true", "TestAESMain", "4", "2"}, 0,
			"TestAESDecode runtime was", ""},
		{"jdk8u threads", []string{"run", "--jdk=8u", "--threads=2", "-Dmode=CTR", "-DmsgSize=33", "-DpaddingStr=NoPadding", "-DcheckOutput=true", "TestAESMain", "3", "1"}, 0,
			"Encryption cipher provider: SunJCE version 1.8", ""},
		{"file", []string{"run", "--jdk=17", file}, 0, "TestAESEncode runtime was", ""},
		{"malformed property is the default", []string{"run", "-DmsgSize=ten", "TestAESMain", "2", "1"}, 0, "msgSize=646,", ""},
		{"model clock", []string{"run", "--clock=model", "--cpu=haswell-e5-2660v3", "-DcheckOutput=true", "TestAESMain", "2", "1"}, 0,
			"TestAESDecode runtime was", ""},
		{"model clock, foreign arch", []string{"run", "--clock=model", "--cpu=neoverse-n1", "--jdk=8u", "-Dmode=GCM", "-DmsgSize=1024",
			"-DcheckOutput=true", "TestAESMain", "20", "5"}, 0, "TestAESEncode runtime was", ""},
		{"foreign arch", []string{"run", "--cpu=neoverse-n1", "TestAESMain", "2", "1"}, 1, "", "--clock=model"},
		{"profile file", []string{"run", "--clock=model", "--profile=" + good, "-DcheckOutput=true", "TestAESMain", "2", "1"}, 0,
			"TestAESDecode runtime was", ""},
		{"bad profile file", []string{"run", "--clock=model", "--profile", bad, "TestAESMain", "2", "1"}, 1, "", "bad.json:2"},
		{"profile on the wall clock", []string{"run", "--profile=" + good, "TestAESMain", "2", "1"}, 2, "", "--clock=model"},
		{"profile with a file", []string{"run", "--clock=model", "--profile=" + good, file}, 1, "", "its own cpu's profile"},
		{"bad threads", []string{"run", "--threads=-1", "TestAESMain"}, 2, "", "--threads"},
		{"not a scenario", []string{"run", "com.example.Main"}, 1, "", "not Java programs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exit, out, errOut := jitsim(tc.args...)
			if exit != tc.exit || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
				t.Fatalf("jitsim %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), exit, tc.exit, out, errOut)
			}
		})
	}
}

func TestScenariosListed(t *testing.T) {
	exit, out, _ := jitsim("scenarios")
	for _, want := range []string{"TestAESMain", "AESGCMBench", "AESGCMUpdateAAD", "CBCThroughput", "ParquetDecrypt"} {
		if exit != 0 || !strings.Contains("\n"+out, "\n"+want+" ") {
			t.Errorf("jitsim scenarios (exit %d) does not list %s:\n%s", exit, want, out)
		}
	}
}

// TestModelClockRunDeterministic runs the same model-clock command line twice
// in-process (two fresh VMs each time), with PrintCompilation and two
// application threads, under GOMAXPROCS 1 and 2: stdout must be identical
// byte for byte — compile ids, timestamps, PrintCompilation order and every
// runtime TestAESMain prints.
func TestModelClockRunDeterministic(t *testing.T) {
	args := []string{"run", "--clock=model", "--cpu=haswell-e5-2660v3", "--jdk=8u", "--threads=2", "-XX:+PrintCompilation",
		"-Dmode=GCM", "-DmsgSize=1024", "-DcheckOutput=true", "TestAESMain", "400", "100"}
	var first string
	for _, procs := range []int{2, 1, 2} {
		prev := goruntime.GOMAXPROCS(procs)
		exit, out, errOut := jitsim(args...)
		goruntime.GOMAXPROCS(prev)
		if exit != 0 {
			t.Fatalf("jitsim %s: exit %d\nstderr:\n%s", strings.Join(args, " "), exit, errOut)
		}
		if !strings.Contains(out, "made not entrant") || strings.Count(out, "runtime was") != 4 {
			t.Fatalf("output lacks compiles or the 4 runtime lines:\n%s", out)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Fatalf("GOMAXPROCS=%d: stdout differs from the first run\nfirst:\n%s\nthis:\n%s", procs, first, out)
		}
	}
}

// TestPrintCompilationIDsConsecutive: every compile id HotSpot hands out
// appears in PrintCompilation — a task that fails prints COMPILE SKIPPED
// under its id — so a GCM run's ids are 1..N with no gap. (Methods whose
// loops jitsim cannot enter mid-way are not OSR-compilable from the start
// and never queue an OSR task that would fail silently.)
func TestPrintCompilationIDsConsecutive(t *testing.T) {
	t.Parallel() // the model clock: deterministic however the CPUs are shared
	for _, jdk := range []string{"8u", "17", "25"} {
		t.Run("jdk"+jdk, func(t *testing.T) {
			args := []string{"run", "--clock=model", "--cpu=icelake-server", "--jdk=" + jdk, "-XX:+PrintCompilation",
				"-Dmode=GCM", "-DmsgSize=10000", "TestAESMain", "1500", "500"}
			exit, out, errOut := jitsim(args...)
			if exit != 0 {
				t.Fatalf("jitsim %s: exit %d\n%s", strings.Join(args, " "), exit, errOut)
			}
			seen := map[int]bool{}
			max := 0
			for _, line := range strings.Split(out, "\n") {
				f := strings.Fields(line)
				if len(f) < 3 || !strings.Contains(line, "::") || strings.Contains(line, "made not entrant") {
					continue
				}
				var id int
				if _, err := fmt.Sscanf(f[1], "%d", &id); err != nil {
					t.Fatalf("no compile id in %q", line)
				}
				seen[id] = true
				if id > max {
					max = id
				}
			}
			if max < 5 {
				t.Fatalf("only %d compiles printed:\n%s", max, out)
			}
			for id := 1; id <= max; id++ {
				if !seen[id] {
					t.Errorf("compile id %d of 1..%d never printed", id, max)
				}
			}
		})
	}
}
