// Command intrinsics prints the intrinsic names a JVM accepts in -XX:ControlIntrinsic and
// -XX:DisableIntrinsic, one per line, in the VM's own order. record.sh runs it; it is never run
// by go generate or the tests.
//
// Usage: go run ./flags/testdata/jvmflags/intrinsics /path/to/java
//
// The JVM has no option that lists them, so the candidates are read from libjvm.so, where the
// names of the intrinsic IDs lie one after the other as NUL-terminated strings starting with
// "_hashCode", "_getClass"; then the JVM itself is asked: it must accept every candidate in
// -XX:DisableIntrinsic and refuse a name that is not one.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: intrinsics /path/to/java")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "intrinsics:", err)
		os.Exit(1)
	}
}

func run(java string) error {
	out, err := exec.Command(java, "-XshowSettings:properties", "-version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v", java, err)
	}
	home := ""
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), " = "); ok && k == "java.home" {
			home = v
		}
	}
	if home == "" {
		return fmt.Errorf("%s does not report java.home", java)
	}
	lib, err := os.ReadFile(filepath.Join(home, "lib", "server", "libjvm.so"))
	if err != nil {
		return err
	}
	start := bytes.Index(lib, []byte("_hashCode\x00_getClass\x00"))
	if start < 0 {
		return fmt.Errorf("no intrinsic name table in libjvm.so")
	}
	var names []string
	for k := start; ; {
		e := bytes.IndexByte(lib[k:], 0)
		name := string(lib[k : k+e])
		if !strings.HasPrefix(name, "_") {
			break
		}
		names = append(names, name)
		k += e + 1
	}
	accepts := func(list string) (bool, error) {
		out, err := exec.Command(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic="+list, "-version").CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			return false, err
		}
		return err == nil && !strings.Contains(string(out), "Unrecognized intrinsic"), nil
	}
	ok, err := accepts(strings.Join(names, ","))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("the JVM refuses some of the %d names read from libjvm.so", len(names))
	}
	if ok, err := accepts("_jitsim_no_such_intrinsic"); err != nil || ok {
		return fmt.Errorf("the JVM accepts a made-up intrinsic name (%v)", err)
	}
	fmt.Println(strings.Join(names, "\n"))
	return nil
}
