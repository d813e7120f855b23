// Command record runs the real JVMs under every combination of -XX:UseSSE and -XX:UseAVX that
// the CPU-feature mask distinguishes and writes what they chose to
// runtime/testdata/stubmask/recorded.json: the PrintFlagsFinal rows of the level and crypto
// flags, the crypto stubs PrintStubCode lists (name and size), and the warnings before the
// version banner. Only this recorder needs java; TestStubMaskRecorded reads the recording.
//
// Usage, from the module root:
//
//	JAVA17=java JAVA25=/path/to/jdk-25/bin/java go run ./runtime/testdata/stubmask/record
//
// Each case runs as `java -XX:+UnlockDiagnosticVMOptions -XX:+PrintStubCode -XX:+PrintFlagsFinal
// ARGS... -version` with an environment of PATH only.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/stubs/cpu"
)

// Case is one recorded command line.
type Case struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
	// Rows are the PrintFlagsFinal lines of the flags in rows, as printed.
	Rows []string `json:"rows"`
	// Stubs are the crypto stubs PrintStubCode listed, in generation order.
	Stubs []Stub `json:"stubs"`
	// Stderr holds the lines printed before the version banner.
	Stderr []string `json:"stderr"`
	Exit   int      `json:"exit"`
}

// Stub is one StubRoutines entry PrintStubCode printed.
type Stub struct {
	Name  string `json:"name"`
	Bytes int    `json:"bytes"`
}

// JVM is the recording of one JVM.
type JVM struct {
	Version string  `json:"version"`
	Cases   []*Case `json:"cases"`
}

// Recording is the file format of recorded.json: JDK profile ("17", "25") → recording, and the
// recording machine (stubs/cpu feature names and the CPU count).
type Recording struct {
	Comment      string          `json:"comment"`
	HostFeatures string          `json:"host_features"`
	HostCPUs     int             `json:"host_cpus"`
	JVMs         map[string]*JVM `json:"jvms"`
}

// rows are the flags whose PrintFlagsFinal lines are kept.
var rows = map[string]bool{
	"UseSSE": true, "UseAVX": true, "UseAES": true, "UseAESIntrinsics": true, "UseAESCTRIntrinsics": true,
	"UseGHASHIntrinsics": true, "UseCLMUL": true,
}

// stubLine matches PrintStubCode's header of a crypto stub.
var stubLine = regexp.MustCompile(`^StubRoutines::((?:aescrypt|cipherBlockChaining|counterMode|ghash_processBlocks|galoisCounterMode|electronicCodeBook)\w*) \[0x[0-9a-f]+, 0x[0-9a-f]+\] \((\d+) bytes\)$`)

// cases are the defaults, each UseSSE and UseAVX level alone, and every pair.
func cases() []*Case {
	cs := []*Case{{Name: "default"}}
	sse, avx := []int{4, 3, 2}, []int{3, 2, 1, 0}
	for _, s := range sse {
		cs = append(cs, &Case{Name: fmt.Sprintf("sse%d", s), Args: []string{fmt.Sprintf("-XX:UseSSE=%d", s)}})
	}
	for _, a := range avx {
		cs = append(cs, &Case{Name: fmt.Sprintf("avx%d", a), Args: []string{fmt.Sprintf("-XX:UseAVX=%d", a)}})
	}
	for _, s := range sse {
		for _, a := range avx {
			cs = append(cs, &Case{Name: fmt.Sprintf("sse%d_avx%d", s, a),
				Args: []string{fmt.Sprintf("-XX:UseSSE=%d", s), fmt.Sprintf("-XX:UseAVX=%d", a)}})
		}
	}
	return cs
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	rec := Recording{
		Comment: "Written by record/main.go from the real JVMs: java -XX:+UnlockDiagnosticVMOptions -XX:+PrintStubCode " +
			"-XX:+PrintFlagsFinal ARGS... -version on the machine host_features describes.",
		HostFeatures: cpu.Host().String(), HostCPUs: goruntime.NumCPU(), JVMs: map[string]*JVM{},
	}
	for _, jdk := range []string{"17", "25"} {
		java := os.Getenv("JAVA" + jdk)
		if java == "" {
			return fmt.Errorf("set JAVA%s to the java binary of JDK %s", jdk, jdk)
		}
		_, stderr, _, err := runJava(java, []string{"-version"})
		if err != nil {
			return err
		}
		jvm := &JVM{Version: stderr}
		for _, c := range cases() {
			args := append([]string{"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintStubCode", "-XX:+PrintFlagsFinal"}, c.Args...)
			stdout, stderr, exit, err := runJava(java, append(args, "-version"))
			if err != nil {
				return fmt.Errorf("JDK %s case %s: %w", jdk, c.Name, err)
			}
			c.Exit = exit
			for _, line := range strings.Split(stdout, "\n") {
				if m := stubLine.FindStringSubmatch(line); m != nil {
					n, _ := strconv.Atoi(m[2])
					c.Stubs = append(c.Stubs, Stub{Name: m[1], Bytes: n})
				} else if f := strings.Fields(line); len(f) >= 2 && rows[f[1]] {
					c.Rows = append(c.Rows, line)
				}
			}
			for _, line := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(line, "openjdk version ") {
					break
				}
				if line != "" {
					c.Stderr = append(c.Stderr, line)
				}
			}
			jvm.Cases = append(jvm.Cases, c)
		}
		rec.JVMs[jdk] = jvm
	}
	out, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join("runtime", "testdata", "stubmask", "recorded.json"), append(out, '\n'), 0o644)
}

func runJava(java string, args []string) (stdout, stderr string, exit int, err error) {
	cmd := exec.Command(java, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}
