package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// jitsim runs the command in-process with an empty environment.
func jitsim(args ...string) (exit int, stdout, stderr string) {
	var o, e bytes.Buffer
	exit = run(args, strings.NewReader(""), &o, &e, func(string) (string, bool) { return "", false })
	return exit, o.String(), e.String()
}

// fakeCPUs are CPU models without features, so that the ergonomics leave the CPU-dependent
// flags at their declared defaults (what the real CPU models settle is TestMatchesRecordedJVMs'
// business).
var fakeCPUs = []cpu.Model{
	{Name: "host", Arch: jdk.AMD64, Description: "host amd64", Cores: 1},
	{Name: "neoverse-n1", Arch: jdk.ARM64, Description: "Arm Neoverse N1", Cores: 1},
}

func lookupFakeCPU(name string) (cpu.Model, error) {
	for _, m := range fakeCPUs {
		if m.Name == name {
			return m, nil
		}
	}
	return cpu.Model{}, fmt.Errorf("unknown CPU model %q (known: host, neoverse-n1)", name)
}

type fakeScenarios struct{ ran *string }

func (fakeScenarios) Names() []string { return []string{"TestAESMain"} }

func (fakeScenarios) Describe(name string) (string, string, bool) {
	if name != "TestAESMain" {
		return "", "", false
	}
	return "the AES test", "TestAESMain: the AES test\n  msgSize=646  message bytes\n", true
}

func (f fakeScenarios) Run(rc runContext, name string, file bool, args []string) int {
	v, _ := rc.run.Result.Property("mode")
	*f.ran = fmt.Sprintf("%s file=%v args=%q mode=%s jdk=%s", name, file, args, v, rc.run.Flags.JDK())
	return 0
}

func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	scenarioFile := filepath.Join(dir, "gcm.scenario")
	if err := os.WriteFile(scenarioFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ran string
	d := wired()
	d.lookupCPU, d.cpus, d.scenarios = lookupFakeCPU, func() []cpu.Model { return fakeCPUs }, fakeScenarios{&ran}
	jitsim := func(args ...string) (exit int, stdout, stderr string) {
		var o, e bytes.Buffer
		exit = d.execute(args, strings.NewReader(""), &o, &e, func(string) (string, bool) { return "", false })
		return exit, o.String(), e.String()
	}

	tests := []struct {
		name       string
		args       []string
		exit       int
		out, err   string // substrings expected on stdout / stderr
		ran        string
		notOnError string // must not appear on stderr
	}{
		{name: "version banner on stderr", args: []string{"run", "-version"}, err: "jitsim version \"" + Version + "\" (JDK 25 profile)"},
		{name: "jdk and cpu in banner", args: []string{"run", "--jdk", "8u", "--cpu=neoverse-n1", "-Xint", "-version"},
			err: "(JDK 8u profile, arm64, interpreted mode)"},
		{name: "x86 flag on an arm64 model", args: []string{"run", "--cpu=neoverse-n1", "-XX:UseAVX=2", "-version"}, exit: 1,
			err: "Unrecognized VM option 'UseAVX=2'\nError: Could not create the Java Virtual Machine.\n"},
		{name: "unknown jdk", args: []string{"run", "--jdk=11", "-version"}, exit: 2, err: `unknown JDK profile "11"`},
		{name: "unknown cpu", args: []string{"run", "--cpu=pentium", "-version"}, exit: 2, err: `unknown CPU model "pentium"`},
		{name: "unknown clock", args: []string{"run", "--clock=sundial", "-version"}, exit: 2, err: `unknown clock "sundial"`},
		{name: "unknown jitsim option", args: []string{"run", "--frobnicate", "-version"}, exit: 1, err: "Unrecognized option: --frobnicate\n"},
		{name: "unknown jitsim option's note", args: []string{"run", "--frobnicate", "-version"}, exit: 1, err: "jitsim: --frobnicate is not one of jitsim's options either"},
		{name: "java program", args: []string{"run", "-jar", "app.jar"}, exit: 1, err: "-jar app.jar is neither a jitsim scenario nor a scenario file; jitsim runs its own scenarios"},
		{name: "java source", args: []string{"run", "-ea", "GcmLoop.java"}, exit: 1, err: `Java program "GcmLoop.java" is neither`},
		{name: "module", args: []string{"run", "-m", "app/app.Main"}, exit: 1, err: "module app/app.Main is neither"},
		{name: "class path is inert", args: []string{"run", "-cp", ".", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "TestAESMain"},
			ran: `TestAESMain file=false args=[] mode= jdk=25`},
		{name: "class path missing", args: []string{"run", "-cp"}, exit: 1, err: "Error: -cp requires class path specification"},
		{name: "scenario case", args: []string{"run", "testaesmain"}, exit: 1, err: "Did you mean 'TestAESMain'?"},
		{name: "class name", args: []string{"run", "com.example.Main"}, exit: 1, err: `"com.example.Main" is neither a jitsim scenario nor a scenario file`},
		{name: "no scenario", args: []string{"run", "-XX:+UseAES"}, exit: 1, err: "no scenario given"},
		{name: "scenario with args", args: []string{"run", "--jdk=17", "-Dmode=GCM", "TestAESMain", "-version", "--jdk=8"},
			ran: `TestAESMain file=false args=["-version" "--jdk=8"] mode=GCM jdk=17`},
		{name: "scenario file", args: []string{"run", scenarioFile, "a"}, ran: scenarioFile + ` file=true args=["a"] mode= jdk=25`},
		{name: "after --", args: []string{"run", "--", "TestAESMain", "-x"}, ran: `TestAESMain file=false args=["-x"] mode= jdk=25`},
		{name: "option error stops the run", args: []string{"run", "-XX:+Bogus", "TestAESMain"}, exit: 1, err: "Unrecognized VM option 'Bogus'"},
		{name: "flags file error names the file", args: []string{"run", "-XX:Flags=" + scenarioFile, "-version"}, exit: 1,
			err: "jitsim: the failing option came from settings file " + scenarioFile + ", line 1"},
		{name: "PrintFlagsFinal on stdout", args: []string{"run", "-XX:+PrintFlagsFinal", "-version"},
			out: "     bool UseAES                                   = false                                     {product} {default}\n"},
		{name: "PrintFlagsInitial exits early", args: []string{"run", "-XX:+PrintFlagsInitial", "-version"},
			out: "[Global flags]\n", notOnError: "jitsim version"},
		{name: "PrintCommandLineFlags", args: []string{"run", "-XX:+PrintCommandLineFlags", "-XX:TieredStopAtLevel=1", "-version"},
			out: "-XX:+PrintCommandLineFlags -XX:-ProfileInterpreter -XX:-THPStackMitigation -XX:TieredStopAtLevel=1"},
		{name: "JDK 8 -version", args: []string{"run", "--jdk=8u", "-cp", "x", "-XX:+PrintCompilation", "-version"}, err: "JDK 8u profile"},
		{name: "JDK 8 lacks modules", args: []string{"run", "--jdk=8", "--add-opens", "x", "-version"}, exit: 1, err: "Unrecognized option: --add-opens"},
		{name: "cpu prefix", args: []string{"run", "--cpu=NEO", "-version"}, err: "Arm Neoverse N1"},
		{name: "cpu unknown", args: []string{"run", "--cpu=pentium", "-version"}, exit: 2, err: `unknown CPU model "pentium"`},
		{name: "scenarios", args: []string{"scenarios"}, out: "TestAESMain  the AES test\n"},
		{name: "scenario properties", args: []string{"scenarios", "TestAESMain"}, out: "msgSize=646  message bytes\n"},
		{name: "scenario unknown", args: []string{"scenarios", "testaesmain"}, exit: 2, err: "did you mean 'TestAESMain'?"},
		{name: "cpus", args: []string{"cpus"}, out: "neoverse-n1          arm64  Arm Neoverse N1\n"},
		{name: "version", args: []string{"version"}, out: "jitsim " + Version},
		{name: "help", args: []string{"help"}, out: "run         Run a scenario"},
		{name: "run --help", args: []string{"run", "--help"}, out: "--jdk string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ran = ""
			exit, out, errOut := jitsim(tc.args...)
			if exit != tc.exit {
				t.Errorf("exit %d, want %d\nstderr: %s", exit, tc.exit, errOut)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("stdout %q lacks %q", out, tc.out)
			}
			if !strings.Contains(errOut, tc.err) {
				t.Errorf("stderr %q lacks %q", errOut, tc.err)
			}
			if tc.notOnError != "" && strings.Contains(errOut, tc.notOnError) {
				t.Errorf("stderr %q has %q", errOut, tc.notOnError)
			}
			if ran != tc.ran {
				t.Errorf("scenario run %q, want %q", ran, tc.ran)
			}
		})
	}
}

func TestSplitRunArgs(t *testing.T) {
	r, err := splitRunArgs([]string{"--jdk", "17", "-XX:+UseAES", "@f", "--cpu=host", "-Dx=1", "Sc", "--jdk=8", "-Xint"})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%q %q %q %q", r.own, r.vm, r.scenario, r.rest)
	want := `["--jdk" "17" "--cpu=host"] ["-XX:+UseAES" "@f" "-Dx=1"] "Sc" ["--jdk=8" "-Xint"]`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
