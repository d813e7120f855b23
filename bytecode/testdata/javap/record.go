//go:build ignore

// record writes the facts of a JDK's SunJCE AES classes that jitsim's
// tables rely on, read with javap from that JDK's own java.base:
//
//	go run ./bytecode/testdata/javap/record.go -javap JDK/bin/javap -o bytecode/testdata/javap/facts-25.txt
//
// It runs `javap --module java.base -v -p -c -constants` on the seed classes
// (GaloisCounterMode and its nested classes, GCTR, GHASH, CounterMode,
// CipherBlockChaining, ElectronicCodeBook, AESCrypt) and on the classes of
// com.sun.crypto.provider their code calls, and keeps, per class:
//
//	const CLASS NAME VALUE                   a static final field's ConstantValue
//	                                         (seed classes only)
//	method CLASS NAME DESC size=N [static] [intrinsic]
//	call CLASS NAME DESC @BCI OP CALLEE_CLASS CALLEE_NAME CALLEE_DESC
//	loop CLASS NAME DESC @BCI                a back branch's target (a loop header)
//
// size is the Code attribute's code_length (the offset of the last
// instruction plus its length), intrinsic marks a method annotated
// @IntrinsicCandidate (jdk.internal.vm.annotation, JDK 16+;
// @HotSpotIntrinsicCandidate before), and calls are kept when the callee
// is in com.sun.crypto.provider; of a class reached by a call only the
// called methods are kept. Class names drop "com.sun.crypto.provider."
// (descriptors "com/sun/crypto/provider/"). Lines are sorted; the header
// names the JVM.
// Hand-run: the JDKs are not part of the build (bytecode's TestJavapFacts
// reads the files this writes).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

const pkg = "com.sun.crypto.provider."

var seeds = []string{"GaloisCounterMode", "GCTR", "GHASH", "CounterMode", "CipherBlockChaining", "ElectronicCodeBook", "AESCrypt"}

func main() {
	javap := flag.String("javap", "javap", "the javap of the JDK to record")
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Parse()
	if err := run(*javap, *out); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run(javap, out string) error {
	java := strings.TrimSuffix(javap, "javap") + "java"
	ver, err := exec.Command(java, "-version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -version: %v", java, err)
	}
	// Seeds and their nested classes are expanded (the classes they call
	// are recorded too); a class reached by a call is recorded only.
	expand := map[string]bool{}
	var todo []string
	for _, s := range seeds {
		todo = append(todo, pkg+s)
		expand[pkg+s] = true
	}
	done := map[string]bool{}
	var lines, leaves []string
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		if done[c] {
			continue
		}
		done[c] = true
		text, err := exec.Command(javap, "--module", "java.base", "-v", "-p", "-c", "-constants", c).Output()
		if err != nil {
			return fmt.Errorf("javap %s: %v", c, err)
		}
		ls, nested, called, err := parse(text)
		if err != nil {
			return err
		}
		if !expand[c] {
			leaves = append(leaves, ls...)
			continue
		}
		lines = append(lines, ls...)
		for _, n := range nested {
			expand[n] = true
			todo = append(todo, n)
		}
		todo = append(todo, called...)
	}
	// Of a class reached by a call, the methods called.
	called := map[string]bool{}
	for _, l := range lines {
		if f := strings.Fields(l); f[0] == "call" {
			called[strings.Join(f[6:9], " ")] = true
		}
	}
	for _, l := range leaves {
		if f := strings.Fields(l); f[0] == "method" && called[strings.Join(f[1:4], " ")] {
			lines = append(lines, l)
		}
	}
	for i, l := range lines { // one package: class names without it
		lines[i] = strings.ReplaceAll(strings.ReplaceAll(l, pkg, ""), "com/sun/crypto/provider/", "")
	}
	slices.Sort(lines)
	var b bytes.Buffer
	fmt.Fprintln(&b, "# Facts of com.sun.crypto.provider, recorded with javap -v -p -c -constants from java.base of:")
	for _, l := range strings.Split(strings.TrimSpace(string(ver)), "\n") {
		fmt.Fprintln(&b, "#   "+l)
	}
	fmt.Fprintln(&b, "# by bytecode/testdata/javap/record.go (hand-run). Classes are in com.sun.crypto.provider (also")
	fmt.Fprintln(&b, "# in descriptors). Lines: const CLASS NAME VALUE;")
	fmt.Fprintln(&b, "# method CLASS NAME DESC size=N [static] [intrinsic]; call CLASS NAME DESC @BCI OP CALLEE_CLASS NAME DESC;")
	fmt.Fprintln(&b, "# loop CLASS NAME DESC @BCI (a back branch's target).")
	for _, l := range lines {
		fmt.Fprintln(&b, l)
	}
	if out == "" {
		_, err = os.Stdout.Write(b.Bytes())
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

var (
	thisClassRE = regexp.MustCompile(`^\s*this_class: #\d+\s+// (\S+)$`)
	innerRE     = regexp.MustCompile(`// (?:\w+=)?class (\S+) of class (\S+)$`)
	insnRE      = regexp.MustCompile(`^\s+(\d+): (\w+)(.*)$`)
	invokeRE    = regexp.MustCompile(`// (?:Interface)?Method (?:("?[\w/$\[;]+"?)\.)?("?[\w<>$]+"?):(\S+)$`)
	constRE     = regexp.MustCompile(`^\s+ConstantValue: \w+ (.+)$`)
)

// lastLen is the length of the instructions a method's code may end with.
var lastLen = map[string]int{"return": 1, "ireturn": 1, "lreturn": 1, "freturn": 1, "dreturn": 1, "areturn": 1, "athrow": 1, "goto": 3, "goto_w": 5}

// parse reads one class's javap -v output into fact lines, the provider
// classes nested in it and those its code calls.
func parse(text []byte) (lines, nested, called []string, err error) {
	var (
		class            string
		member, desc     string // the current field or method header and its descriptor
		isMethod, static bool
		inCode, inSwitch bool
		last, lastOfs    string
		method           = -1 // index of the current method's line in lines
	)
	// endCode sets the method line's size from its last instruction.
	endCode := func() error {
		if inCode {
			n, ok := lastLen[last]
			if !ok {
				return fmt.Errorf("%s %s: code ends with %q", class, member, last)
			}
			o, _ := strconv.Atoi(lastOfs)
			lines[method] = strings.Replace(lines[method], "size=?", "size="+strconv.Itoa(o+n), 1)
		}
		last, inCode, inSwitch = "", false, false
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if m := thisClassRE.FindStringSubmatch(l); m != nil {
			if err := endCode(); err != nil {
				return nil, nil, nil, err
			}
			method = -1
			class = strings.ReplaceAll(m[1], "/", ".")
			continue
		}
		if m := innerRE.FindStringSubmatch(l); m != nil {
			in, out := strings.ReplaceAll(m[1], "/", "."), strings.ReplaceAll(m[2], "/", ".")
			if out == class && strings.HasPrefix(in, pkg) {
				nested = append(nested, in)
			}
			continue
		}
		// A member header: two spaces of indent, ends with ';'.
		if strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   ") && strings.HasSuffix(l, ";") {
			if err := endCode(); err != nil {
				return nil, nil, nil, err
			}
			method = -1
			member, desc = strings.TrimSuffix(strings.TrimSpace(l), ";"), ""
			isMethod = strings.Contains(member, "(") || member == "static {}"
			static = false
			continue
		}
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "descriptor: ") && !inCode:
			desc = strings.TrimPrefix(t, "descriptor: ")
			continue
		case strings.HasPrefix(t, "flags: ") && !inCode && member != "":
			static = strings.Contains(t, "ACC_STATIC")
			continue
		case t == "Code:" && isMethod:
			lines = append(lines, fmt.Sprintf("method %s %s %s size=?%s", class, methodName(member, class), desc, map[bool]string{true: " static"}[static]))
			method, inCode = len(lines)-1, true
			continue
		case t == "jdk.internal.vm.annotation.IntrinsicCandidate" || t == "jdk.internal.HotSpotIntrinsicCandidate":
			if method >= 0 {
				lines[method] += " intrinsic"
			}
			continue
		}
		if !isMethod {
			if m := constRE.FindStringSubmatch(l); m != nil && static {
				f := strings.Fields(strings.SplitN(member, " = ", 2)[0])
				lines = append(lines, fmt.Sprintf("const %s %s %s", class, f[len(f)-1], m[1]))
			}
			continue
		}
		if !inCode {
			continue
		}
		if inSwitch {
			if t == "}" {
				inSwitch = false
			}
			continue
		}
		m := insnRE.FindStringSubmatch(l)
		if m == nil && strings.HasPrefix(t, "stack=") {
			continue
		}
		if m == nil {
			// The instructions end; the method's annotations follow.
			if err := endCode(); err != nil {
				return nil, nil, nil, err
			}
			continue
		}
		last, lastOfs = m[2], m[1]
		if m[2] == "tableswitch" || m[2] == "lookupswitch" {
			inSwitch = true
		}
		if strings.HasPrefix(m[2], "if") || strings.HasPrefix(m[2], "goto") {
			to, err := strconv.Atoi(strings.TrimSpace(m[3]))
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s %s: cannot read %q", class, member, t)
			}
			if ofs, _ := strconv.Atoi(m[1]); to <= ofs {
				l := fmt.Sprintf("loop %s %s %s @%d", class, methodName(member, class), desc, to)
				if !slices.Contains(lines, l) {
					lines = append(lines, l)
				}
			}
		}
		if strings.HasPrefix(m[2], "invoke") {
			im := invokeRE.FindStringSubmatch(m[3])
			if im == nil {
				return nil, nil, nil, fmt.Errorf("%s %s: cannot read %q", class, member, t)
			}
			callee := strings.ReplaceAll(strings.Trim(im[1], `"`), "/", ".")
			if callee == "" {
				callee = class
			}
			if strings.HasPrefix(callee, pkg) {
				name := strings.Trim(im[2], `"`)
				lines = append(lines, fmt.Sprintf("call %s %s %s @%s %s %s %s %s", class, methodName(member, class), desc, m[1], m[2], callee, name, im[3]))
				called = append(called, callee)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, nil, err
	}
	err = endCode()
	return lines, nested, called, err
}

// methodName is a method header's name: "<init>" for a constructor,
// "<clinit>" for the static initializer.
func methodName(header, class string) string {
	if header == "static {}" {
		return "<clinit>"
	}
	h := header[:strings.IndexByte(header, '(')]
	f := strings.Fields(h)
	name := f[len(f)-1]
	if name == class {
		return "<init>"
	}
	return name
}
