// Command record runs every command line of runtime/ergo/testdata/ergo/cases.json through the real
// JVMs and writes what they printed to runtime/ergo/testdata/ergo/recorded.json. Only this recorder
// needs java; runtime's ergonomics tests read the recording.
//
// Usage, from the module root:
//
//	JAVA17=java JAVA25=/path/to/jdk-25/bin/java go run ./runtime/ergo/testdata/ergo/record
//
// Each case runs as `java -XX:+UnlockDiagnosticVMOptions ARGS... -XX:+PrintFlagsFinal -version`
// with an environment of PATH only. Standard output keeps the "[Global flags]" header and the
// rows of flags in jitsim's flag table plus SegmentedCodeCache (which jitsim does not model
// yet; kept to document what HotSpot prints).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jitsim/jitsim/flags"
)

type casesFile struct {
	Cases []struct {
		Name string   `json:"name"`
		Args []string `json:"args"`
	} `json:"cases"`
}

// Output is one recorded run.
type Output struct {
	Args   []string `json:"args"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	Exit   int      `json:"exit"`
}

// JVM is the recording for one JVM.
type JVM struct {
	Version string             `json:"version"`
	Cases   map[string]*Output `json:"cases"`
}

// Recording is the file format of recorded.json: JDK profile ("17", "25") → recording.
type Recording struct {
	JVMs map[string]*JVM `json:"jvms"`
}

// Prefix and Suffix surround every case's arguments.
var (
	Prefix = []string{"-XX:+UnlockDiagnosticVMOptions"}
	Suffix = []string{"-XX:+PrintFlagsFinal", "-version"}
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := filepath.Join("runtime", "ergo", "testdata", "ergo")
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		return err
	}
	var cf casesFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return fmt.Errorf("cases.json: %w", err)
	}
	names := map[string]bool{"SegmentedCodeCache": true}
	for _, f := range flags.Table() {
		names[f.Name] = true
	}
	rec := Recording{JVMs: map[string]*JVM{}}
	for _, jdk := range []string{"17", "25"} {
		java := os.Getenv("JAVA" + jdk)
		if java == "" {
			return fmt.Errorf("set JAVA%s to the java binary of JDK %s", jdk, jdk)
		}
		jvm := &JVM{Cases: map[string]*Output{}}
		v, err := runJava(java, []string{"-version"})
		if err != nil {
			return err
		}
		jvm.Version = v.Stderr
		for _, c := range cf.Cases {
			args := append(append(append([]string{}, Prefix...), c.Args...), Suffix...)
			out, err := runJava(java, args)
			if err != nil {
				return fmt.Errorf("case %s: %w", c.Name, err)
			}
			out.Stdout = keepRows(out.Stdout, names)
			jvm.Cases[c.Name] = out
		}
		rec.JVMs[jdk] = jvm
	}
	out, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "recorded.json"), append(out, '\n'), 0o644)
}

func runJava(java string, args []string) (*Output, error) {
	cmd := exec.Command(java, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	exit := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		exit = ee.ExitCode()
	} else if err != nil {
		return nil, err
	}
	return &Output{Args: args, Stdout: stdout.String(), Stderr: stderr.String(), Exit: exit}, nil
}

// keepRows keeps the PrintFlagsFinal header and the rows of flags in names.
func keepRows(stdout string, names map[string]bool) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(stdout, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "[Global flags]"):
			b.WriteString(line)
		case len(f) >= 2 && names[f[1]]:
			b.WriteString(line)
		}
	}
	return b.String()
}
