package bytecode

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestJavaSizeColumn checks the JavaSize column against the rows' profiles:
// a positive size for each profile a row has and none for another, a source
// for every profile, and Size = JavaSize[p] in p's table with the wasm body
// size kept apart.
func TestJavaSizeColumn(t *testing.T) {
	for _, p := range jdk.All() {
		if SizeSources[p] == "" {
			t.Errorf("JDK %s: no entry in SizeSources", p)
		}
	}
	for _, r := range Rows() {
		t.Run(r.Module+"/"+r.Profiles.String(), func(t *testing.T) {
			want := r.Profiles.Releases()
			got := slices.Sorted(maps.Keys(r.JavaSize))
			if !slices.Equal(got, want) {
				t.Errorf("JavaSize has profiles %v, the row %v", got, want)
			}
			for p, n := range r.JavaSize {
				if n <= 0 || n > 65535 {
					t.Errorf("JDK %s: size %d is no code_length", p, n)
				}
			}
		})
	}
	for _, p := range jdk.All() {
		tab, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range tab.Methods() {
			if m.Size != m.JavaSize[p] {
				t.Errorf("JDK %s %s: Size %d, JavaSize %d", p, m.Key, m.Size, m.JavaSize[p])
			}
			if m.WasmSize <= 0 {
				t.Errorf("JDK %s %s: wasm size %d", p, m.Key, m.WasmSize)
			}
			if again.Methods()[i] != m {
				t.Errorf("JDK %s %s: two tables of one profile hand out different methods", p, m.Key)
			}
		}
	}
}

// realPrintCompilation are -XX:+PrintCompilation lines of the real JVMs on
// this machine (OpenJDK 17.0.15 and Temurin 25.0.3, an AES/GCM encryption
// loop of 16 KiB messages): the sizes the table must print.
var realPrintCompilation = map[jdk.Release][]string{
	jdk.R17: {
		"    164  257       3       com.sun.crypto.provider.AESCrypt::implEncryptBlock (953 bytes)",
		"    172  274       3       com.sun.crypto.provider.GHASH::processBlock (37 bytes)",
		"    186  282       3       com.sun.crypto.provider.CounterMode::implCrypt (88 bytes)",
		"    240  296       3       com.sun.crypto.provider.GHASH::processBlocks (26 bytes)",
		"    277  321       3       com.sun.crypto.provider.GHASH::update (50 bytes)",
		"    416  245       3       com.sun.crypto.provider.GCTR::doFinal (106 bytes)",
		"    416  246       3       com.sun.crypto.provider.GCTR::update (208 bytes)",
		"    442  261       3       com.sun.crypto.provider.CounterMode::crypt (32 bytes)",
		"    523  290       3       com.sun.crypto.provider.GHASH::doFinal (52 bytes)",
	},
	jdk.R25: {
		"292  191       3       com.sun.crypto.provider.AESCrypt::implEncryptBlock (947 bytes)",
		"305  203       3       com.sun.crypto.provider.GHASH::processBlock (37 bytes)",
		"322  214       3       com.sun.crypto.provider.CounterMode::implCrypt (88 bytes)",
		"379  225       3       com.sun.crypto.provider.GHASH::processBlocks (26 bytes)",
		"403  233       3       com.sun.crypto.provider.GHASH::update (50 bytes)",
		"461  258       3       com.sun.crypto.provider.GCTR::doFinal (106 bytes)",
		"490  282       3       com.sun.crypto.provider.CounterMode::crypt (95 bytes)",
		"491  278       3       com.sun.crypto.provider.GCTR::update (208 bytes)",
		"562  299       3       com.sun.crypto.provider.GaloisCounterMode::implGCMCrypt (143 bytes)",
		"563  300       3       com.sun.crypto.provider.GHASH::doFinal (52 bytes)",
		"596  305       3       com.sun.crypto.provider.GaloisCounterMode::implGCMCrypt0 (136 bytes)",
	},
}

var compileLineRE = regexp.MustCompile(`com\.sun\.crypto\.provider\.(\w+)::(\w+) \((\d+) bytes\)$`)

// TestJavaSizeMatchesHotSpot looks every method of the real lines up in the
// profile's table by class and name and compares the sizes.
func TestJavaSizeMatchesHotSpot(t *testing.T) {
	for p, lines := range realPrintCompilation {
		tab, err := ForProfile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			sm := compileLineRE.FindStringSubmatch(l)
			if sm == nil {
				t.Fatalf("cannot parse %q", l)
			}
			want, _ := strconv.Atoi(sm[3])
			t.Run(p.String()+"/"+sm[1]+"::"+sm[2], func(t *testing.T) {
				var found bool
				for _, m := range tab.Methods() {
					if m.Class == provider+sm[1] && m.Name == sm[2] {
						found = true
						if m.Size != want {
							t.Errorf("%s: size %d, HotSpot prints %d", m.Key, m.Size, want)
						}
					}
				}
				if !found {
					t.Errorf("the table has no %s::%s", sm[1], sm[2])
				}
			})
		}
	}
}

// TestJavaSizeAgainstJDK measures the JavaSize column again on real JDKs:
// testdata/codesize/CodeSize.java reads code_length from the class files of
// the JDK's own java.base. It runs with JITSIM_LONG=1 and the JVMs named by
// JAVA17, JAVA21 and JAVA25 (paths to their java commands; else `java` on
// the PATH, for the release it reports). A row with a SizeNote (no method of
// that identity in the release) is not compared. Sizes follow the exact
// build: another update release may differ.
func TestJavaSizeAgainstJDK(t *testing.T) {
	if os.Getenv("JITSIM_LONG") != "1" {
		t.Skip("set JITSIM_LONG=1 (runs java)")
	}
	jvms := map[jdk.Release]string{}
	for _, p := range []jdk.Release{jdk.R17, jdk.R21, jdk.R25} {
		if j := os.Getenv("JAVA" + p.String()); j != "" {
			jvms[p] = j
		}
	}
	if len(jvms) == 0 {
		if j, err := exec.LookPath("java"); err == nil {
			if p, ok := javaRelease(t, j); ok {
				jvms[p] = j
			}
		}
	}
	if len(jvms) == 0 {
		t.Skip("no JDK 17, 21 or 25: set JAVA17/JAVA21/JAVA25")
	}
	src, err := filepath.Abs(filepath.Join("testdata", "codesize", "CodeSize.java"))
	if err != nil {
		t.Fatal(err)
	}
	for p, java := range jvms {
		t.Run("jdk="+p.String(), func(t *testing.T) {
			if got, _ := javaRelease(t, java); got != p {
				t.Fatalf("%s reports JDK %s", java, got)
			}
			tab, err := ForProfile(p)
			if err != nil {
				t.Fatal(err)
			}
			var classes []string
			for _, m := range tab.Methods() {
				if !slices.Contains(classes, m.Class) {
					classes = append(classes, m.Class)
				}
			}
			cmd := exec.Command(java, append([]string{src}, classes...)...)
			cmd.Dir = t.TempDir()
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s CodeSize.java: %v", java, err)
			}
			measured := map[string]int{} // "Class name (params" -> code_length
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.Fields(l)
				if len(f) != 4 {
					t.Fatalf("CodeSize.java printed %q", l)
				}
				n, err := strconv.Atoi(f[3])
				if err != nil {
					t.Fatalf("CodeSize.java printed %q", l)
				}
				measured[f[0]+" "+f[1]+" "+params(f[2])] = n
			}
			for _, m := range tab.Methods() {
				if m.SizeNote != "" {
					continue
				}
				n, ok := measured[m.Class+" "+m.Name+" "+params(m.Descriptor)]
				if !ok {
					t.Errorf("%s: JDK %s has no %s.%s%s", m.Key, p, m.Class, m.Name, params(m.Descriptor))
					continue
				}
				if n != m.Size {
					t.Errorf("%s: JavaSize %d, the JDK's class file %d", m.Key, m.Size, n)
				}
			}
		})
	}
}

// params is a method descriptor without its return type: "([BII)".
func params(desc string) string { return desc[:strings.IndexByte(desc, ')')+1] }

// javaRelease returns the feature release of a java command (R17, R25),
// or false for one jitsim does not model by its feature number.
func javaRelease(t *testing.T, java string) (jdk.Release, bool) {
	t.Helper()
	out, err := exec.Command(java, "-version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s -version: %v", java, err)
	}
	m := regexp.MustCompile(`version "(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("%s -version printed %q", java, out)
	}
	r, err := jdk.Parse(string(m[1]))
	return r, err == nil
}
