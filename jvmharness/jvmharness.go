// Package jvmharness holds the Java programs jitsim runs on real JVMs, and runs them. Which
// Java programs does the project run on a real java, and how? Each is one source file in this
// directory, embedded, and run with the JDK's source launcher (`java File.java`, JDK 11+), so
// no harness needs a build step or a class path:
//
//   - Cost.java times the JDK's AES modes, GHASH and a call in thread CPU time: the
//     measurements behind the host cost profile (runtime/model/testdata/jvm) and what a
//     calibration or validation against the user's JVM runs;
//   - Hot.java and Congest.java drive HotSpot's tier policy for the recordings the policy's
//     tests replay (runtime/policy/testdata/jvm; Congest.java is written by gen_congest.py);
//   - JitsimBench.java is the twin of the benchmark scenarios (AESGCMBench, AESGCMUpdateAAD,
//     CBCThroughput, ModeLoop), the real-JVM side of `jitsim warmup --jvm` and of validate's
//     warm-up comparison (package warmup reads what it prints);
//   - JitsimTraceLog.java is what an application calls to log its Cipher operations as a
//     trace that `jitsim run TRACE.csv` replays;
//   - JitsimTraceReplay.java replays a trace on the real JVM: the real-JVM side of `jitsim
//     warmup --jvm` for a workload file, which jitsim resolves into a trace (no TOML in Java).
//
// The package is a leaf: it knows java's command line, not what the programs measure.
package jvmharness

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// sources are the programs' Java files.
//
//go:embed *.java
var sources embed.FS

// Program is one harness program, named by its public class; its source is Class.java.
type Program string

// The harness programs.
const (
	// Cost prints one "row" line per steady-state measurement (-Dsize, -DwarmMs, -DmeasureMs).
	Cost Program = "Cost"
	// Hot calls a loop-free method, then runs one long loop (OSR): args calls, iterations.
	Hot Program = "Hot"
	// Congest fills the C2 queue: args rounds, freshFrom, freshCalls.
	Congest Program = "Congest"
	// ModeLoop encrypts one buffer in one AES mode over and over: args CBC|CTR|GCM, size, ops.
	ModeLoop Program = "JitsimModeLoop"
	// Bench is the twin of jitsim's benchmark scenarios (AESGCMBench, AESGCMUpdateAAD,
	// CBCThroughput, ModeLoop): args SCENARIO, warmupIterations, iterations, opsPerIteration;
	// the scenario's -D properties. It prints each iteration's start and duration on stderr.
	Bench Program = "JitsimBench"
	// TraceLog is the class an application calls to log its Cipher operations as a jitsim
	// trace; its main writes a trace of its own demonstration to stdout: args ops.
	TraceLog Program = "JitsimTraceLog"
	// TraceReplay replays a trace per thread in order through javax.crypto: args TRACE
	// [MESSAGES] (scenario.Resolved); -Dpaced=true honours at_us. It prints each operation of
	// thread 0 and a checksum line per thread on stderr.
	TraceReplay Program = "JitsimTraceReplay"
)

// Programs lists every harness program.
func Programs() []Program {
	return []Program{Cost, Hot, Congest, ModeLoop, Bench, TraceLog, TraceReplay}
}

// Twins are the scenarios Bench runs as jitsim runs them.
var Twins = []string{"AESGCMBench", "AESGCMUpdateAAD", "CBCThroughput", "ModeLoop"}

// File is the program's source file name (Class.java).
func (p Program) File() string { return string(p) + ".java" }

// Source returns the program's Java source.
func (p Program) Source() ([]byte, error) {
	b, err := sources.ReadFile(p.File())
	if err != nil {
		return nil, fmt.Errorf("jvmharness: no program %q", string(p))
	}
	return b, nil
}

// heap is the heap every harness JVM runs on unless its own options size it: fixed at
// 256 MiB and touched at start-up. Left to its ergonomics on a machine with gigabytes of
// memory, a JVM whose loop allocates keeps growing its heap for seconds, and the page faults
// of each new region's first touch land on the allocating thread: on JDK 17 at C2 they add
// about 2 µs to a GCM operation in some JVMs and not in others. That cost is the kernel's and
// the collector's, which the model does not have, so the harness keeps it out of what it
// measures.
var heap = []string{"-XX:+AlwaysPreTouch", "-Xms256m", "-Xmx256m"}

// heapSizing are the option prefixes with which a command line sizes or touches the heap
// itself.
var heapSizing = []string{"-Xms", "-Xmx", "-XX:InitialHeapSize=", "-XX:MaxHeapSize=", "-XX:MinHeapSize=",
	"-XX:+AlwaysPreTouch", "-XX:-AlwaysPreTouch", "-XX:MaxRAM", "-XX:InitialRAMPercentage=", "-XX:MinRAMPercentage="}

// Options returns the VM options a harness JVM runs with: the fixed, pre-touched heap, then
// vmOptions — or vmOptions alone when one of them sizes or touches the heap itself. Run and
// Compiled.Run apply it; a caller that records a command line records Options' result.
func Options(vmOptions []string) []string {
	for _, o := range vmOptions {
		for _, p := range heapSizing {
			if strings.HasPrefix(o, p) {
				return append([]string{}, vmOptions...)
			}
		}
	}
	return append(append([]string{}, heap...), vmOptions...)
}

// Output is what a program printed.
type Output struct {
	Stdout, Stderr []byte
}

// Run runs p on the real JVM java (a path or a name on PATH): it writes the program's source
// into a new temporary directory and runs
//
//	java Options(VMOPTIONS)… DIR/Class.java ARGS…
//
// in the current directory, returning what the program printed. A JVM that exits with an
// error is an error holding the command line and its standard error. Cancelling ctx kills
// the JVM.
func Run(ctx context.Context, java string, p Program, vmOptions []string, args ...string) (Output, error) {
	src, err := p.Source()
	if err != nil {
		return Output{}, err
	}
	dir, err := os.MkdirTemp("", "jitsim-jvm-")
	if err != nil {
		return Output{}, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, p.File())
	if err := os.WriteFile(file, src, 0o644); err != nil {
		return Output{}, err
	}
	cmdArgs := append(append(Options(vmOptions), file), args...)
	cmd := exec.CommandContext(ctx, java, cmdArgs...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Output{Stdout: out, Stderr: stderr.Bytes()}, fmt.Errorf("%s %s: %v\n%s", java, strings.Join(cmdArgs, " "), err, stderr.String())
	}
	return Output{Stdout: out, Stderr: stderr.Bytes()}, nil
}

// Version returns the "17.0.15"-style java.version the JVM reports, or "" when it reports
// none.
func Version(ctx context.Context, java string) string {
	props, err := Properties(ctx, java)
	if err != nil {
		return ""
	}
	return props["java.version"]
}

// Properties returns the system properties java prints with -XshowSettings:properties
// (java.version, java.vendor, java.vm.version, java.specification.version, …): single-line
// values only. A java that fails to start, or prints no java.version, is an error naming it.
func Properties(ctx context.Context, java string) (map[string]string, error) {
	out, err := exec.CommandContext(ctx, java, "-XshowSettings:properties", "-version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s -XshowSettings:properties -version: %v\n%s", java, err, clip(out))
	}
	props := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), " = "); ok && !strings.ContainsAny(k, " \t") {
			if _, dup := props[k]; !dup {
				props[k] = v
			}
		}
	}
	if props["java.version"] == "" {
		return nil, fmt.Errorf("%s: not a Java runtime: -XshowSettings:properties -version printed no java.version\n%s", java, clip(out))
	}
	return props, nil
}

// clip keeps the first lines of a program's output for an error message.
func clip(out []byte) string {
	const max = 2000
	if len(out) > max {
		return string(out[:max]) + "…"
	}
	return string(out)
}

// Compiled is a harness program compiled to class files for one JVM, so that runs of it do
// not recompile the source: what measurements of the JIT compilers need, since the source
// launcher's javac would run, and be compiled, in the measured JVM (-XX:+CITime would count
// it).
type Compiled struct {
	java string
	p    Program
	dir  string
}

// Compile compiles p with the JVM's own compiler module (java -m jdk.compiler/…, present in
// every JDK, as the source launcher also needs) into a new temporary directory; Close removes
// it.
func Compile(ctx context.Context, java string, p Program) (*Compiled, error) {
	src, err := p.Source()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "jitsim-jvm-")
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, p.File())
	if err := os.WriteFile(file, src, 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	out, err := exec.CommandContext(ctx, java, "-m", "jdk.compiler/com.sun.tools.javac.Main", "-nowarn", "-d", dir, file).CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: compiling %s with its jdk.compiler module: %v\n%s", java, p.File(), err, clip(out))
	}
	return &Compiled{java: java, p: p, dir: dir}, nil
}

// Run runs the compiled program: java Options(VMOPTIONS)… -cp DIR Class ARGS…, with Run's
// errors.
func (c *Compiled) Run(ctx context.Context, vmOptions []string, args ...string) (Output, error) {
	cmdArgs := append(append(Options(vmOptions), "-cp", c.dir, string(c.p)), args...)
	cmd := exec.CommandContext(ctx, c.java, cmdArgs...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Output{Stdout: out, Stderr: stderr.Bytes()}, fmt.Errorf("%s %s: %v\n%s", c.java, strings.Join(cmdArgs, " "), err, clip(stderr.Bytes()))
	}
	return Output{Stdout: out, Stderr: stderr.Bytes()}, nil
}

// Close removes the class files.
func (c *Compiled) Close() error { return os.RemoveAll(c.dir) }
