package bytecode

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// javapFacts are the facts of one JDK's com.sun.crypto.provider classes as
// testdata/javap/record.go wrote them from that JDK's java.base: constants,
// methods (size, static, @IntrinsicCandidate), calls and loop headers.
type javapFacts struct {
	consts  map[string]string       // "Class NAME" -> value
	methods map[string]*javapMethod // "Class name desc"
	calls   []javapCall
}

type javapMethod struct {
	size             int
	static, intrinsc bool
	loops            []int // back-branch targets
}

type javapCall struct {
	caller, callee string // "Class name desc"
	bci            int
}

// javapFiles are the recordings, by release (the JVM is named in each
// file's header). facts-21.txt and facts-22.txt are not: they hold those
// releases' published constants only (TestJavapConstants reads them too).
var javapFiles = map[jdk.Release]string{jdk.R17: "facts-17.txt", jdk.R25: "facts-25.txt"}

func readJavapFacts(t *testing.T, r jdk.Release) *javapFacts {
	t.Helper()
	name := filepath.Join("testdata", "javap", "facts-"+r.String()+".txt")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	jf := &javapFacts{consts: map[string]string{}, methods: map[string]*javapMethod{}}
	loops := map[string][]int{} // the lines sort before their methods'
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		fs := strings.Fields(l)
		bad := func() { t.Fatalf("%s:%d: cannot read %q", name, n, l) }
		switch {
		case fs[0] == "const" && len(fs) == 4:
			jf.consts[fs[1]+" "+fs[2]] = fs[3]
		case fs[0] == "method" && len(fs) >= 5 && strings.HasPrefix(fs[4], "size="):
			size, err := strconv.Atoi(strings.TrimPrefix(fs[4], "size="))
			if err != nil {
				bad()
			}
			jf.methods[strings.Join(fs[1:4], " ")] = &javapMethod{size: size,
				static: slices.Contains(fs[5:], "static"), intrinsc: slices.Contains(fs[5:], "intrinsic")}
		case fs[0] == "call" && len(fs) == 9 && strings.HasPrefix(fs[4], "@"):
			bci, err := strconv.Atoi(fs[4][1:])
			if err != nil {
				bad()
			}
			jf.calls = append(jf.calls, javapCall{caller: strings.Join(fs[1:4], " "), callee: strings.Join(fs[6:9], " "), bci: bci})
		case fs[0] == "loop" && len(fs) == 5 && strings.HasPrefix(fs[4], "@"):
			bci, err := strconv.Atoi(fs[4][1:])
			if err != nil {
				bad()
			}
			id := strings.Join(fs[1:4], " ")
			loops[id] = append(loops[id], bci)
		default:
			bad()
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for id, ls := range loops {
		m := jf.methods[id]
		if m == nil {
			t.Fatalf("%s: loop in %s, which has no method line", name, id)
		}
		m.loops = ls
	}
	return jf
}

// javapID is a row's identity as the recordings write it: class without
// the package, name, descriptor without it either.
func javapID(m *Method) string {
	return strings.TrimPrefix(m.Class, provider) + " " + m.Name + " " + strings.ReplaceAll(m.Descriptor, "com/sun/crypto/provider/", "")
}

// javapClassName is "Class name" of an identity.
func javapClassName(id string) string { return id[:strings.LastIndexByte(id, ' ')] }

// reaches reports whether code of caller (an identity, or with anyDesc every
// overload of its class and name) reaches a call of target ("Class name") at
// bytecode index bci within depth calls: the site itself, or a site in a
// wrapper it calls (a virtual call may land on any recorded method of the
// same name and descriptor: SymmetricCipher.encryptBlock is AESCrypt's).
func (jf *javapFacts) reaches(caller string, anyDesc bool, target string, bci, depth int) bool {
	from := func(c string) bool {
		if anyDesc {
			return javapClassName(c) == caller
		}
		return c == caller
	}
	for _, c := range jf.calls {
		if !from(c.caller) {
			continue
		}
		if c.bci == bci && javapClassName(c.callee) == target {
			return true
		}
		if depth == 0 {
			continue
		}
		_, nameDesc, _ := strings.Cut(c.callee, " ")
		for id := range jf.methods {
			if _, nd, _ := strings.Cut(id, " "); nd == nameDesc && (id == c.callee || jf.methods[c.callee] == nil) {
				if jf.reaches(id, false, target, bci, depth-1) {
					return true
				}
			}
		}
	}
	return false
}

// TestJavapFacts checks the method table against the recordings of the
// JDKs' own classes (testdata/javap, JDK 17.0.15 and Temurin 25.0.3): each
// row that is the release's own method (no SizeNote) exists with its size,
// its static flag and its @IntrinsicCandidate mark; every
// @IntrinsicCandidate of the recorded classes is a row's intrinsic; every
// call site's bytecode index is a call of the callee in the caller's code
// or in a wrapper it calls (the folded sites, methods.go); every OSR loop
// header is a back-branch target of the method.
func TestJavapFacts(t *testing.T) {
	for r := range javapFiles {
		t.Run("jdk="+r.String(), func(t *testing.T) {
			jf := readJavapFacts(t, r)
			tab, err := ForProfile(r)
			if err != nil {
				t.Fatal(err)
			}
			byKey := map[string]*Method{}
			marked := map[string]bool{}
			for _, m := range tab.Methods() {
				byKey[m.Key] = m
				if m.SizeNote != "" {
					continue
				}
				id := javapID(m)
				f := jf.methods[id]
				if f == nil {
					t.Errorf("%s: JDK %s has no method %s", m.Key, r, id)
					continue
				}
				if m.Size != f.size {
					t.Errorf("%s: size %d, the class file's %d", m.Key, m.Size, f.size)
				}
				if m.Static != f.static {
					t.Errorf("%s: static %v, the class file's %v", m.Key, m.Static, f.static)
				}
				if (m.Intrinsic != "") != f.intrinsc {
					t.Errorf("%s: intrinsic %q, @IntrinsicCandidate in the class file %v", m.Key, m.Intrinsic, f.intrinsc)
				}
				if m.Intrinsic != "" {
					marked[id] = true
				}
				if l, ok := m.Loop[r]; ok && !slices.Contains(f.loops, l) {
					t.Errorf("%s: loop header @%d, the class file's back-branch targets %v", m.Key, l, f.loops)
				}
			}
			for id, f := range jf.methods {
				if f.intrinsc && !marked[id] {
					t.Errorf("%s is @IntrinsicCandidate in JDK %s and no row of the table marks it", id, r)
				}
			}
			for _, m := range tab.Methods() {
				for callee, bs := range m.Calls {
					bci, ok := bs[r]
					if !ok {
						continue
					}
					c := byKey[callee]
					if c == nil {
						t.Errorf("%s: call of %s, which JDK %s's table lacks", m.Key, callee, r)
						continue
					}
					caller, anyDesc := javapID(m), m.SizeNote != ""
					if anyDesc {
						caller = javapClassName(caller)
					}
					if !jf.reaches(caller, anyDesc, javapClassName(javapID(c)), bci, 3) {
						t.Errorf("%s -> %s @%d: no such call in JDK %s's %s or a method it calls", m.Key, callee, bci, r, caller)
					}
				}
			}
		})
	}
}

// TestJavapConstants checks the reference code's build constants against
// the recorded classes (and JDK 21's published constants): gcm.h's
// SPLIT_LEN and TRIGGERLEN, and the PARALLEL_LEN each release's
// implGCMCrypt0 module is built with (src/modules.txt; JDK 17 has no
// PARALLEL_LEN and no implGCMCrypt0).
func TestJavapConstants(t *testing.T) {
	h, err := os.ReadFile(filepath.Join("src", "gcm.h"))
	if err != nil {
		t.Fatal(err)
	}
	define := func(name string) string {
		m := regexp.MustCompile(`(?m)^#define\s+` + name + `\s+\(?(\d+)(?:\s*<<\s*(\d+))?\)?\s*$`).FindSubmatch(h)
		if m == nil {
			t.Fatalf("gcm.h defines no %s (as N or (N << S))", name)
		}
		n, _ := strconv.Atoi(string(m[1]))
		if len(m[2]) > 0 {
			s, _ := strconv.Atoi(string(m[2]))
			n <<= s
		}
		return strconv.Itoa(n)
	}
	mods, err := os.ReadFile(filepath.Join("src", "modules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []jdk.Release{jdk.R17, jdk.R21, jdk.R22, jdk.R25} {
		jf := readJavapFacts(t, r)
		for _, c := range []struct{ name, ours string }{
			{"TRIGGERLEN", define("TRIGGERLEN")},
			{"SPLIT_LEN", define("SPLIT_LEN")},
		} {
			if got, ok := jf.consts["GaloisCounterMode "+c.name]; ok && got != c.ours {
				t.Errorf("JDK %s: GaloisCounterMode.%s = %s, gcm.h %s", r, c.name, got, c.ours)
			}
		}
		tab, err := ForProfile(r)
		if err != nil {
			t.Fatal(err)
		}
		got, has := jf.consts["GaloisCounterMode PARALLEL_LEN"]
		m, err := tab.Lookup("GaloisCounterMode.implGCMCrypt0")
		if !has {
			if err == nil {
				t.Errorf("JDK %s has no PARALLEL_LEN, the table an implGCMCrypt0 (%s)", r, m.Module)
			}
			continue
		}
		if err != nil {
			t.Fatalf("JDK %s: PARALLEL_LEN %s and no implGCMCrypt0 in the table", r, got)
		}
		flag := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(m.Module) + `\s.*-DPARALLEL_LEN=(\d+)`).FindSubmatch(mods)
		if flag == nil || string(flag[1]) != got {
			t.Errorf("JDK %s: PARALLEL_LEN %s, module %s built with %s", r, got, m.Module, fmt.Sprint(flag))
		}
	}
}
