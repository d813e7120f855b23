// Command record runs every command line of flags/testdata/cases.json through real JVMs and
// writes what they printed to flags/testdata/recorded.json. Only this recorder needs java; the
// tests read the recording.
//
// Usage, from the module root:
//
//	JAVA17=java JAVA25=/path/to/jdk-25/bin/java go run ./flags/testdata/record [-missing]
//
// With -missing it runs only the cases recorded.json lacks and keeps the rest as recorded
// (the start-up compiles PrintCompilation shows vary between runs, so a full re-record
// changes more than the new cases).
//
// Each case runs as `java ARGS... -version` in a scratch directory holding the case files, with
// an environment of PATH plus the case's variables. Standard output is kept only for the
// "[Global flags]" (or "[Global flags ranges]") header and the rows of flags jitsim models
// (PrintFlagsFinal prints ~900; flags/testdata/jvmflags holds the full tables).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/stubs/cpu"
)

type casesFile struct {
	Files map[string]string `json:"files"`
	Cases []struct {
		Name string            `json:"name"`
		Args []string          `json:"args"`
		Env  map[string]string `json:"env,omitempty"`
	} `json:"cases"`
}

// Output is one recorded run.
type Output struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Exit   int    `json:"exit"`
	// HostMemory is the physical memory of the machine this run was recorded on, when it
	// is not the recording's HostMemory (a run added with -missing on a machine whose
	// memory differs, even by a page: the heap's ergonomic sizes follow it).
	HostMemory uint64 `json:"host_memory,omitempty"`
}

// Recording is the file format of recorded.json.
type Recording struct {
	// HostFeatures and HostCPUs describe the recording machine (stubs/cpu names, and the
	// logical CPU count), so a test can model it exactly.
	HostFeatures string `json:"host_features"`
	HostCPUs     int    `json:"host_cpus"`
	// HostMemory is the recording machine's physical memory in bytes (the heap ergonomics
	// size from it).
	HostMemory uint64 `json:"host_memory"`
	// HostVendor, HostFamily and HostExtensions are the recording machine's CPU identity
	// (cpu.Identity: the vendor-keyed ergonomics read it).
	HostVendor     string `json:"host_vendor"`
	HostFamily     int    `json:"host_family"`
	HostExtensions string `json:"host_extensions"`
	// JVMs maps a JDK profile ("17", "25") to what java -version printed and the case outputs.
	JVMs map[string]*JVM `json:"jvms"`
}

// JVM is the recording for one JVM.
type JVM struct {
	Version string             `json:"version"`
	Cases   map[string]*Output `json:"cases"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	missing := flag.Bool("missing", false, "record only the cases recorded.json lacks")
	flag.Parse()
	dir := filepath.Join("flags", "testdata")
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		return err
	}
	var cf casesFile
	if err := json.Unmarshal(data, &cf); err != nil {
		return fmt.Errorf("cases.json: %w", err)
	}
	names := map[string]bool{}
	for _, f := range flags.Table() {
		names[f.Name] = !f.NotModelled
	}
	host, err := cpu.Lookup("host")
	if err != nil {
		return err
	}
	rec := Recording{JVMs: map[string]*JVM{}, HostFeatures: cpu.Host().String(), HostCPUs: runtime.NumCPU(), HostMemory: host.Memory,
		HostVendor: host.ID.Vendor.String(), HostFamily: host.ID.Family, HostExtensions: host.ID.Ext.String()}
	var old Recording
	if *missing {
		data, err := os.ReadFile(filepath.Join(dir, "recorded.json"))
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &old); err != nil {
			return fmt.Errorf("recorded.json: %w", err)
		}
		rec.HostFeatures, rec.HostCPUs, rec.HostMemory = old.HostFeatures, old.HostCPUs, old.HostMemory
		rec.HostVendor, rec.HostFamily, rec.HostExtensions = old.HostVendor, old.HostFamily, old.HostExtensions
		// New cases keep the rows the recording already keeps, so that every case keeps
		// the same flags whichever run recorded it (the modelled flags when the recording
		// was first made).
		names = map[string]bool{}
		for _, jvm := range old.JVMs {
			for _, c := range jvm.Cases {
				for _, line := range strings.Split(c.Stdout, "\n") {
					if f := strings.Fields(line); isTableRow(f) {
						names[f[1]] = true
					}
				}
			}
		}
	}
	for _, jdk := range []string{"17", "25"} {
		java := os.Getenv("JAVA" + jdk)
		if java == "" {
			return fmt.Errorf("set JAVA%s to the java binary of JDK %s", jdk, jdk)
		}
		scratch, err := os.MkdirTemp("", "jitsim-record")
		if err != nil {
			return err
		}
		defer os.RemoveAll(scratch)
		for name, text := range cf.Files {
			if err := os.WriteFile(filepath.Join(scratch, name), []byte(text), 0o644); err != nil {
				return err
			}
		}
		home, err := javaHome(java)
		if err != nil {
			return err
		}
		jvm := &JVM{Cases: map[string]*Output{}}
		v, err := runJava(java, scratch, nil, []string{"-version"})
		if err != nil {
			return err
		}
		jvm.Version = v.Stderr
		for _, c := range cf.Cases {
			if o := old.JVMs[jdk]; o != nil && o.Cases[c.Name] != nil {
				jvm.Cases[c.Name] = o.Cases[c.Name]
				continue
			}
			out, err := runJava(java, scratch, c.Env, append(append([]string{}, c.Args...), "-version"))
			if err != nil {
				return fmt.Errorf("case %s: %w", c.Name, err)
			}
			if host.Memory != rec.HostMemory {
				out.HostMemory = host.Memory
			}
			out.Stdout = keepModelledRows(out.Stdout, names)
			// What java says of its working directory (JFR's recording path) names the
			// scratch directory, not a path of the recording machine.
			out.Stdout = strings.ReplaceAll(out.Stdout, scratch, "$SCRATCH")
			out.Stderr = strings.ReplaceAll(out.Stderr, scratch, "$SCRATCH")
			// Nor is the JDK's own directory (the management agent's default password
			// file): jitsim names it <java.home>.
			out.Stdout = strings.ReplaceAll(out.Stdout, home+"/", "<java.home>/")
			out.Stderr = strings.ReplaceAll(out.Stderr, home+"/", "<java.home>/")
			jvm.Cases[c.Name] = out
		}
		rec.JVMs[jdk] = jvm
	}
	// java's texts hold < > &, kept as they are (json.Marshal would write \u003c).
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(rec); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "recorded.json"), out.Bytes(), 0o644)
}

// javaHome returns the directory of the JDK whose java binary java names (found on PATH when
// it has no slash), its links resolved: the parent of its bin directory.
func javaHome(java string) (string, error) {
	path, err := exec.LookPath(java)
	if err != nil {
		return "", err
	}
	if path, err = filepath.EvalSymlinks(path); err != nil {
		return "", err
	}
	if path, err = filepath.Abs(path); err != nil {
		return "", err
	}
	return filepath.Dir(filepath.Dir(path)), nil
}

func runJava(java, dir string, env map[string]string, args []string) (*Output, error) {
	cmd := exec.Command(java, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
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
	return &Output{Stdout: stdout.String(), Stderr: stderr.String(), Exit: exit}, nil
}

// keepModelledRows keeps the PrintFlagsFinal/PrintFlagsRanges headers, the rows (with their
// continuation lines) of flags in names, and every line that is not a table row:
// PrintVMOptions' lines, the compiler oracle's (CompileCommand echoes, errors, help),
// initialization errors, PrintCompilation's lines of the JVM's own start-up compiles (their
// times vary from run to run; the test compares them without). PrintTieredEvents' lines
// are dropped: which counters they show changes from run to run.
func keepModelledRows(stdout string, names map[string]bool) string {
	var b strings.Builder
	keep := false
	for _, line := range strings.SplitAfter(stdout, "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "[Global flags"):
			keep = true
		case len(f) >= 2 && f[1] == "+=":
			// continuation line of a multi-line string: follows its row
		case isTableRow(f):
			keep = names[f[1]]
		case tieredEventLine.MatchString(line):
			keep = false
		default:
			keep = true
		}
		if keep {
			b.WriteString(line)
		}
	}
	return b.String()
}

// tieredEventLine matches a PrintTieredEvents line ("0.264329: [call level=0 …").
var tieredEventLine = regexp.MustCompile(`^[0-9]+\.[0-9]+: \[`)

// isTableRow reports whether a line's fields are a PrintFlagsFinal row ("type name = value
// {origin}", := when set) or a PrintFlagsRanges row ("type name [ min ... max ]").
func isTableRow(f []string) bool {
	return len(f) >= 3 && (f[2] == "=" || f[2] == ":=" || f[2] == "[")
}
