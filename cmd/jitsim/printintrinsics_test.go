package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// intrinsicLines returns the PrintIntrinsics lines of com.sun.crypto.provider
// methods in text, without their indentation, in order: "@ bci   Class::name
// (N bytes)   message".
func intrinsicLines(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "@ ") && strings.Contains(l, "com.sun.crypto.provider.") && strings.Contains(l, "(intrinsic") {
			out = append(out, l)
		}
	}
	return out
}

// firstSeen returns ls without repeats, in order of first appearance.
func firstSeen(ls []string) []string {
	var out []string
	for _, l := range ls {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// TestPrintIntrinsicsMatchesJava runs TestAESMain's CBC, CTR and GCM loops
// on the model clock with -XX:+PrintIntrinsics -XX:+PrintCompilation on the
// JDK 17 and 25 profiles, keeps the intrinsic lines of the provider's
// methods as goldens (testdata/printintrinsics/*.golden, -update rewrites
// them), and compares them with what OpenJDK 17.0.15 and Temurin 25.0.3
// printed for the same modes (bytecode/testdata/printintrinsics_*): the
// same lines, call sites (@ bci), sizes and messages, first seen in the
// same order; a 17 predicated site prints its predicate line right before
// its intrinsic line. Indentation is not compared: the model calls
// AESCrypt.implEncryptBlock without the 10-byte encryptBlock wrapper the
// real classes inline first, so its lines sit one level shallower.
func TestPrintIntrinsicsMatchesJava(t *testing.T) {
	t.Parallel() // the model clock: deterministic however the CPUs are shared
	if testing.Short() {
		t.Skip("warms six VMs to level 4")
	}
	for _, mode := range []string{"CBC", "CTR", "GCM"} {
		for _, rel := range []string{"17", "25"} {
			name := strings.ToLower(mode) + "_jdk" + rel
			t.Run(name, func(t *testing.T) {
				var out, errb bytes.Buffer
				args := []string{"run", "--jdk=" + rel, "--cpu=icelake-server", "--clock=model",
					"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics", "-XX:+PrintCompilation",
					"-Dmode=" + mode, "-DmsgSize=16384", "TestAESMain", "20000", "100"}
				if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
					t.Fatalf("jitsim %s: status %d\n%s", strings.Join(args, " "), st, errb.String())
				}
				got := intrinsicLines(out.String())
				golden := filepath.Join("testdata", "printintrinsics", name+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if g := strings.Join(got, "\n") + "\n"; g != string(want) {
					t.Errorf("intrinsic lines differ from %s (-update rewrites it):\n%s", golden, g)
				}
				rec, err := os.ReadFile(filepath.Join("..", "..", "bytecode", "testdata", "printintrinsics_"+name+".txt"))
				if err != nil {
					t.Fatal(err)
				}
				real := intrinsicLines(string(rec))
				// TestAESMain also decrypts; the recorded loop only encrypts.
				var enc []string
				for _, l := range got {
					if !strings.Contains(l, "ecrypt") {
						enc = append(enc, l)
					}
				}
				if g, w := firstSeen(enc), firstSeen(real); !slices.Equal(g, w) {
					t.Errorf("distinct intrinsic lines, first seen:\njitsim:\n%s\njava %s:\n%s", strings.Join(g, "\n"), rel, strings.Join(w, "\n"))
				}
				for _, ls := range [][]string{got, real} {
					for i, l := range ls {
						if strings.HasSuffix(l, "(intrinsic, predicate)") {
							if i+1 == len(ls) || ls[i+1] != strings.TrimSuffix(l, "(intrinsic, predicate)")+"(intrinsic)" {
								t.Errorf("predicate line %q not followed by its intrinsic line", l)
							}
						}
					}
				}
			})
		}
	}
}
