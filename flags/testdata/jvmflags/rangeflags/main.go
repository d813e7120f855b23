// Command rangeflags sets each flag of a recorded PrintFlagsRanges table that has a finite
// range, one run per flag, to a value just outside it, and prints what the JVM said: HotSpot
// checks most ranges while it parses the option (the range line, then "Improperly specified
// VM option"), some only after every option is parsed (the range line alone). record.sh runs
// it; it is never run by go generate or the tests.
//
// Usage: go run ./flags/testdata/jvmflags/rangeflags /path/to/java jdk-VERSION.ranges.txt
//
// The output is one block per run: the option, "exit N", then each line the JVM printed to
// stderr before the banner, prefixed by "| ". Runs are made two at a time.
package main

import (
	"bufio"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

var row = regexp.MustCompile(`^ *(\S+) (\S+) +\[ +(\S+) +\.\.\. +(\S+) +\] +\{([^}]*)\} \{([^}]*)\}$`)

// bounds are the integer types' limits.
var bounds = map[string][2]string{
	"int": {"-2147483648", "2147483647"}, "uint": {"0", "4294967295"},
	"intx": {"-9223372036854775808", "9223372036854775807"}, "uintx": {"0", "18446744073709551615"},
	"uint64_t": {"0", "18446744073709551615"}, "size_t": {"0", "18446744073709551615"},
}

// outside returns a value of type typ just outside [lo, hi], or "" when the type has none.
func outside(typ, lo, hi string) string {
	if typ == "double" {
		l, err1 := strconv.ParseFloat(lo, 64)
		h, err2 := strconv.ParseFloat(hi, 64)
		switch {
		case err1 != nil || err2 != nil:
			return ""
		case h < 1e300:
			return strconv.FormatFloat(h+1, 'f', -1, 64)
		case l > -1e300:
			return strconv.FormatFloat(l-1, 'f', -1, 64)
		}
		return ""
	}
	b, ok := bounds[typ]
	if !ok {
		return ""
	}
	l, ok1 := new(big.Int).SetString(lo, 10)
	h, ok2 := new(big.Int).SetString(hi, 10)
	tl, _ := new(big.Int).SetString(b[0], 10)
	th, _ := new(big.Int).SetString(b[1], 10)
	if !ok1 || !ok2 {
		return ""
	}
	if h.Cmp(th) < 0 {
		return new(big.Int).Add(h, big.NewInt(1)).String()
	}
	if l.Cmp(tl) > 0 {
		return new(big.Int).Sub(l, big.NewInt(1)).String()
	}
	return ""
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: rangeflags /path/to/java jdk-VERSION.ranges.txt")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "rangeflags:", err)
		os.Exit(1)
	}
}

func run(java, table string) error {
	f, err := os.Open(table)
	if err != nil {
		return err
	}
	defer f.Close()
	var opts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if v := outside(m[1], m[3], m[4]); v != "" {
			opts = append(opts, "-XX:"+m[2]+"="+v)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "rangeflags")
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
			out[i], errs[i] = runOne(java, dir, opt)
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

func runOne(java, dir, opt string) (string, error) {
	cmd := exec.Command(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions", opt, "-version")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
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
	return fmt.Sprintf("%s\nexit %d\n%s", opt, exit, strings.Join(lines, "")), nil
}
