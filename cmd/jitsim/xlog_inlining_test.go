package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ulInliningLine17 is a -Xlog:jit+inlining line of OpenJDK 17 with the default decorations;
// Temurin 25 prints the same text undecorated (ulInliningLine25).
var (
	ulInliningLine17 = regexp.MustCompile(`^\[[0-9]+\.[0-9]{3}s\]\[debug\]\[jit,inlining\] ([ !]+@ .*)$`)
	ulInliningLine25 = regexp.MustCompile(`^([ !]+@ .*)$`)
)

// TestXlogInliningMatchesJava runs AESGCMBench on the model clock with
// -Xlog:jit+inlining=debug on the JDK 17 and 25 profiles and compares the lines of the
// provider's methods with what OpenJDK 17.0.15 and Temurin 25.0.3 printed for the same
// operation (testdata/xlog-jit, recorded on jvmharness's JitsimBench): the decorations of
// each release, and every line jitsim prints (indentation aside: the model calls
// AESCrypt.implEncryptBlock without the wrapper the real class inlines first) one that java
// printed. java logs more call sites than the model has.
func TestXlogInliningMatchesJava(t *testing.T) {
	if testing.Short() {
		t.Skip("warms two VMs to level 4")
	}
	for rel, form := range map[string]*regexp.Regexp{"17": ulInliningLine17, "25": ulInliningLine25} {
		t.Run("jdk"+rel, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "xlog-jit", "inlining_aesgcmbench_jdk"+rel+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			javaLines := map[string]bool{}
			for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
				if strings.HasPrefix(l, "#") {
					continue
				}
				m := form.FindStringSubmatch(l)
				if m == nil {
					t.Fatalf("recorded java line %q is not in JDK %s's jit+inlining form", l, rel)
				}
				javaLines[strings.TrimLeft(m[1], " !")] = true
			}
			var out, errb bytes.Buffer
			args := []string{"run", "--jdk=" + rel, "--cpu=icelake-server", "--clock=model", "-Xlog:jit+inlining=debug", "AESGCMBench"}
			if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
				t.Fatalf("jitsim %s: status %d\n%s", strings.Join(args, " "), st, errb.String())
			}
			n := 0
			for _, l := range strings.Split(out.String(), "\n") {
				if !strings.Contains(l, "@ ") || !strings.Contains(l, "com.sun.crypto.provider.") {
					continue
				}
				n++
				m := form.FindStringSubmatch(l)
				if m == nil {
					t.Errorf("jitsim line %q is not in JDK %s's jit+inlining form", l, rel)
					continue
				}
				if !javaLines[strings.TrimLeft(m[1], " !")] {
					t.Errorf("jitsim logs %q, which java did not", strings.TrimLeft(m[1], " !"))
				}
			}
			if n == 0 {
				t.Errorf("jitsim logged no jit+inlining line of the provider's methods:\n%s", out.String())
			}
		})
	}
}
