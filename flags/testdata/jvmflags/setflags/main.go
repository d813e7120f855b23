// Command setflags sets each flag of a recorded PrintFlagsFinal table, one run per flag, to the
// value the table shows, and prints what the JVM said about the runs where it said anything
// before its version banner or failed: deprecation warnings, and the flags that need another
// one. record.sh runs it; it is never run by go generate or the tests.
//
// Usage: go run ./flags/testdata/jvmflags/setflags [-ranges] /path/to/java jdk-VERSION.final.txt
// (with -ranges: jdk-VERSION.ranges.txt, see ranges.go)
//
// The output is one block per such run: the option, "exit N", then each line the JVM printed
// to stderr before the banner, prefixed by "| ". Runs are made two at a time.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
)

var row = regexp.MustCompile(`^ *(\S+) (\S+) +=(?: (.*?))? +\{([^}]*)\} \{([^}]*)\}$`)

func main() {
	args := os.Args[1:]
	ranges := len(args) > 0 && args[0] == "-ranges"
	if ranges {
		args = args[1:]
	}
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: setflags [-ranges] /path/to/java jdk-VERSION.(final|ranges).txt")
		os.Exit(2)
	}
	if err := run(args[0], args[1], ranges); err != nil {
		fmt.Fprintln(os.Stderr, "setflags:", err)
		os.Exit(1)
	}
}

func run(java, table string, ranges bool) error {
	f, err := os.Open(table)
	if err != nil {
		return err
	}
	defer f.Close()
	var opts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if ranges {
			if o := rangeOption(sc.Text()); o != "" {
				opts = append(opts, o)
			}
			continue
		}
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		typ, name, val := m[1], m[2], m[3]
		switch {
		case name == "UnlockDiagnosticVMOptions" || name == "UnlockExperimentalVMOptions" || strings.HasPrefix(name, "PrintFlags"):
			continue
		case typ == "bool" && val == "true":
			opts = append(opts, "-XX:+"+name)
		case typ == "bool":
			opts = append(opts, "-XX:-"+name)
		default:
			opts = append(opts, "-XX:"+name+"="+val)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "setflags")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	out := make([]string, len(opts))
	errs := make([]error, len(opts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, opt := range opts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = runOne(java, dir, opt, ranges)
		}()
	}
	wg.Wait()
	for i := range opts {
		if errs[i] != nil {
			return fmt.Errorf("%s: %v", opts[i], errs[i])
		}
		fmt.Print(out[i])
	}
	return nil
}

func runOne(java, dir, opt string, all bool) (string, error) {
	cmd := exec.Command(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions", opt, "-version")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	cmd.Stdout = nil
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	exit := 0
	if ee, ok := err.(*exec.ExitError); ok {
		exit = ee.ExitCode()
	} else if err != nil {
		return "", err
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n") {
		if strings.HasPrefix(l, "openjdk version ") || strings.HasPrefix(l, "java version ") {
			break
		}
		if l != "" {
			lines = append(lines, "| "+l+"\n")
		}
	}
	if !all && exit == 0 && len(lines) == 0 {
		return "", nil
	}
	return fmt.Sprintf("%s\nexit %d\n%s", opt, exit, strings.Join(lines, "")), nil
}
