package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// builtJitsim is the command built once per test binary by buildJitsim; TestMain removes
// its directory.
var builtJitsim struct {
	once      sync.Once
	dir, path string
	err       error
}

// buildJitsim builds the command into a temporary directory, once per test binary.
func buildJitsim(t *testing.T) string {
	t.Helper()
	if goruntime.GOOS == "windows" {
		t.Skip("POSIX signals")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build jitsim with")
	}
	b := &builtJitsim
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "jitsim-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "jitsim")
		if out, err := exec.Command(goTool, "build", "-o", b.path, ".").CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// TestSignalStopsRun starts a real jitsim process on a TestAESMain run far too long to
// finish, sends the signal after the first line of output, and checks the shell's exit
// status for that signal, the message, and that the process stopped within a few seconds
// (one iteration of a 646-byte message is microseconds even in the interpreter; the bound
// leaves room for a loaded machine).
func TestSignalStopsRun(t *testing.T) {
	bin := buildJitsim(t)
	for _, tc := range []struct {
		sig    syscall.Signal
		status int
		name   string
	}{
		{syscall.SIGINT, 130, "SIGINT"},
		{syscall.SIGTERM, 143, "SIGTERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "run", "TestAESMain", "100000000")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stdout)
			first, err := r.ReadString('\n')
			if err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no first line: %v (stderr %s)", err, stderr.String())
			}
			if first != "100000000 iterations\n" {
				t.Errorf("first line %q", first)
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			rest := make(chan string, 1)
			go func() {
				var b bytes.Buffer
				_, _ = b.ReadFrom(r)
				rest <- b.String()
			}()
			done := make(chan error, 1)
			go func() { <-rest; done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running 30 s after %s", tc.name)
			}
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.status {
				t.Fatalf("exit %v, want status %d; stderr:\n%s", err, tc.status, stderr.String())
			}
			if want := "stopped by " + tc.name; !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
			}
			if strings.Contains(stderr.String(), "goroutine ") || strings.Contains(stderr.String(), "panic") {
				t.Errorf("stderr has a Go trace:\n%s", stderr.String())
			}
			if took > 5*time.Second {
				t.Errorf("took %v to stop after %s, want under 5 s", took, tc.name)
			}
			t.Logf("%s: exit %d %v after the signal", tc.name, tc.status, took.Round(time.Millisecond))
		})
	}
}

func TestGuardInternal(t *testing.T) {
	env := func(v string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			if k == "JITSIM_TRACEBACK" && v != "" {
				return v, true
			}
			return "", false
		}
	}
	repro := []string{"jitsim", "run", "--jdk=25", "-Dmode=GCM", "-Dx=a b", "TestAESMain"}
	for _, tc := range []struct {
		name      string
		f         func() int
		traceback string
		status    int
		want      []string
		notWant   []string
	}{
		{"no panic", func() int { return 3 }, "", 3, nil, []string{"internal error"}},
		{"panic", func() int { panic("BUG: level 5") }, "", exitInternal,
			[]string{"jitsim: internal error (a jitsim bug): BUG: level 5 — reproduce with: jitsim run --jdk=25 -Dmode=GCM '-Dx=a b' TestAESMain\n", "JITSIM_TRACEBACK=1"},
			[]string{"goroutine "}},
		{"panic traceback", func() int { panic(errors.New("index out of range")) }, "1", exitInternal,
			[]string{"internal error (a jitsim bug): index out of range", "goroutine "}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got := guardInternal(repro, &stderr, env(tc.traceback), tc.f)
			if got != tc.status {
				t.Errorf("status %d, want %d", got, tc.status)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(stderr.String(), w) {
					t.Errorf("stderr has %q:\n%s", w, stderr.String())
				}
			}
		})
	}
}

func TestShellLine(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{"jitsim", "run", "-XX:+PrintCompilation", "TestAESMain", "10"}, "jitsim run -XX:+PrintCompilation TestAESMain 10"},
		{[]string{"-Dp=it's"}, `'-Dp=it'\''s'`},
		{[]string{""}, "''"},
		{[]string{"@args file"}, "'@args file'"},
	} {
		if got := shellLine(tc.in); got != tc.want {
			t.Errorf("shellLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSizeCap checks the message size cap on the command line: a size past it is an
// error naming the property and the way to raise it, before anything is allocated.
func TestSizeCap(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(file, []byte(`title = "too big"
scenario = "TestAESMain"
args = ["1", "0"]
[properties]
msgSize = "2000000000"
[[compare]]
name = "huge"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  string
		args []string
		exit int
		want string
	}{
		{"msgSize", "", []string{"run", "-DmsgSize=2000000000", "TestAESMain", "1", "0"}, 1,
			"property msgSize=2000000000 exceeds jitsim's message size cap of 16777216 bytes (set JITSIM_MAX_MESSAGE_BYTES to raise it)"},
		{"dataSize", "", []string{"run", "-DdataSize=30000000", "AESGCMBench"}, 1, "property dataSize=30000000 exceeds"},
		{"lowered cap", "1000", []string{"run", "-DmsgSize=1001", "TestAESMain", "1", "0"}, 1, "cap of 1000 bytes"},
		{"bad cap", "lots", []string{"run", "-DmsgSize=16", "TestAESMain", "1", "0"}, 1, `JITSIM_MAX_MESSAGE_BYTES="lots" is not a positive byte count`},
		{"under cap", "", []string{"run", "-DmsgSize=64", "TestAESMain", "1", "0"}, 0, ""},
		{"file", "", []string{"run", file}, 1, `big.toml, variant "huge": property msgSize=2000000000 exceeds`},
		{"file, -D after", "", []string{"run", "-DmsgSize=64", file}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("JITSIM_MAX_MESSAGE_BYTES", tc.env)
			}
			exit, _, errOut := jitsim(tc.args...)
			if exit != tc.exit || !strings.Contains(errOut, tc.want) {
				t.Fatalf("jitsim %s: exit %d, want %d; stderr:\n%s", strings.Join(tc.args, " "), exit, tc.exit, errOut)
			}
		})
	}
}

func TestSignalStatus(t *testing.T) {
	if got := signalStatus(os.Interrupt); got != 130 {
		t.Errorf("SIGINT: %d", got)
	}
	if got := signalStatus(syscall.SIGTERM); got != 143 {
		t.Errorf("SIGTERM: %d", got)
	}
}

// TestScenarioRunnerPanics breaks an invariant of the real scenario runner (a configuration
// that setup.Resolve did not settle, which runVM never hands on) and checks that the panic
// becomes the internal-error message and status 70.
func TestScenarioRunnerPanics(t *testing.T) {
	cpuModel, err := cpu.Lookup("host")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	r := &setup.Run{Request: setup.Request{CPU: cpuModel, Clock: "wall", Options: []string{"-Dmode=GCM"}}}
	rc := runContext{run: r, stdout: &bytes.Buffer{}, stderr: &stderr}
	got := scenarioRunner{}.Run(rc, "TestAESMain", false, []string{"1", "0"})
	if got != exitInternal {
		t.Errorf("status %d, want %d", got, exitInternal)
	}
	want := "jitsim: internal error (a jitsim bug): BUG: setup: a VM configuration of a run whose flags are not settled — reproduce with: jitsim run --cpu=host --clock=wall -Dmode=GCM TestAESMain 1 0\n"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to start with:\n%s", stderr.String(), want)
	}
}
