package flags

import (
	"errors"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

func parseCommands(t testing.TB, j jdk.Release, args ...string) (*Set, *Result, error) {
	t.Helper()
	return Parse(Options{JDK: j, Arch: jdk.AMD64, Args: args, ReadFile: func(string) ([]byte, error) {
		return nil, errors.New("no files here")
	}})
}

func TestMethodPatternMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, class, method string
		want                   bool
	}{
		{"com/sun/crypto/provider/GHASH.processBlocks", "com.sun.crypto.provider.GHASH", "processBlocks", true},
		{"com.sun.crypto.provider.GHASH::processBlocks", "com/sun/crypto/provider/GHASH", "processBlocks", true},
		{"com/sun/crypto/provider/GHASH.processBlocks", "com.sun.crypto.provider.GHASH", "processBlock", false},
		{"*GHASH.*", "com.sun.crypto.provider.GHASH", "blockMult", true},
		{"*.process*", "com.sun.crypto.provider.GHASH", "processBlocks", true},
		{"*crypto*.*Block*", "com.sun.crypto.provider.AESCrypt", "implEncryptBlock", true},
		{"com/sun/*.impl*", "com.sun.crypto.provider.AESCrypt", "implEncryptBlock", true},
		{"java/*.*", "com.sun.crypto.provider.AESCrypt", "implEncryptBlock", false},
		{"*.*", "a", "b", true},
		{"a.b(I)V", "a", "b", false},
	} {
		p, msg := parseMethodPattern(c.pattern, jdk.R17)
		if msg != "" {
			t.Fatalf("%s: %s", c.pattern, msg)
		}
		if got := p.Matches(c.class, c.method, "(J)V"); got != c.want {
			t.Errorf("%s matches %s::%s = %v, want %v", c.pattern, c.class, c.method, got, c.want)
		}
	}
}

func TestCompileExcluded(t *testing.T) {
	set, _, err := parseCommands(t, jdk.R25, "-XX:CompileCommand=quiet",
		"-XX:CompileCommand=exclude,*GHASH.processBlocks", "-XX:CompileCommand=exclude,*GHASH.blockMult,false",
		"-XX:CompileCommand=dontinline,*AESCrypt.*", "-XX:CompileCommand=inline,*AESCrypt.implEncryptBlock")
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := set.CompileExcluded("com.sun.crypto.provider.GHASH", "processBlocks", ""); !ok || c.Option != "exclude" || c.Source != "-XX:CompileCommand=exclude,*GHASH.processBlocks" {
		t.Errorf("processBlocks: %+v %v", c, ok)
	}
	if _, ok := set.CompileExcluded("com.sun.crypto.provider.GHASH", "blockMult", ""); ok {
		t.Error("exclude=false excluded blockMult")
	}
	// The last command given wins for one option; inline and dontinline are separate options.
	if c, ok := set.CompileCommandFor("inline", "com.sun.crypto.provider.AESCrypt", "implEncryptBlock", ""); !ok || !c.Bool() {
		t.Errorf("inline: %+v %v", c, ok)
	}
	set, _, err = parseCommands(t, jdk.R25, "-XX:CompileCommand=quiet", "-XX:CompileOnly=*GHASH.processBlocks")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.CompileExcluded("com.sun.crypto.provider.GHASH", "processBlocks", ""); ok {
		t.Error("compileonly excluded its own method")
	}
	if c, ok := set.CompileExcluded("com.sun.crypto.provider.AESCrypt", "implEncryptBlock", ""); !ok || c.Option != "compileonly" || c.Bool() {
		t.Errorf("a method compileonly does not name: %+v %v", c, ok)
	}
}

func TestCompileCommandReleases(t *testing.T) {
	// A bad command: JDK 17 reports it and runs on; 25 then fails to start.
	for _, c := range []struct {
		j      jdk.Release
		failed bool
	}{{jdk.R17, false}, {jdk.R25, true}} {
		_, res, err := parseCommands(t, c.j, "-XX:CompileCommand=bogus,a.b")
		var fe *Error
		if (err != nil) != c.failed || err != nil && (!errors.As(err, &fe) || !fe.Launcher) {
			t.Errorf("%v: err = %v", c.j, err)
		}
		if out := strings.Join(res.Oracle, ""); !strings.Contains(out, "Error: Unrecognized option 'bogus'\n") {
			t.Errorf("%v: printed %q", c.j, out)
		}
	}
}

func TestCompileCommandHugeInput(t *testing.T) {
	long := "exclude," + strings.Repeat("a", 1<<20) + ".b"
	_, res, _ := parseCommands(t, jdk.R17, "-XX:CompileCommand="+long, "-XX:CompileOnly="+long[8:])
	out := strings.Join(res.Oracle, "")
	if len(out) > 4096 {
		t.Errorf("a 1 MiB command printed %d bytes", len(out))
	}
	if !strings.Contains(out, "Command longer than") {
		t.Errorf("no error for a 1 MiB command: %q", out[:min(len(out), 200)])
	}
}

// FuzzCompileCommand feeds arbitrary CompileCommand, CompileOnly and command-file text to the
// oracle: it must never panic, fail only with an *Error, print at most a bounded amount per
// input byte, and every command it keeps must echo a pattern that parses back to itself.
func FuzzCompileCommand(f *testing.F) {
	for _, seed := range []string{
		"exclude,com/sun/crypto/provider/GHASH.processBlocks",
		"dontinline,*.foo\ninline,a::b\nquiet\nlog,c.d",
		"CompileThresholdScaling,a.b,0.5\noption,a.b,bool,PrintInlining,true",
		"compileonly,java.lang.String::length(I)V\nexclude,a*b.c\nexclude,a/b::c",
		"ControlIntrinsic,a.b,+_aescrypt\nMaxNodeLimit,a.b,x\n,a.b\nexclude,*\nhelp",
		"exclude java/*.* \t(I)V\nRepeatCompilation,*.*,-1",
	} {
		f.Add(byte(3), seed, "a.b,c::d,,Foo,.m,*.m", "exclude a.b\n# c\n\nbogus\n")
	}
	f.Fuzz(func(t *testing.T, profile byte, commands, only, file string) {
		j := jdk.All()[int(profile)%len(jdk.All())]
		var args []string
		for i, l := range strings.Split(commands, "\n") {
			if i == 64 {
				break
			}
			args = append(args, "-XX:CompileCommand="+l)
		}
		args = append(args, "-XX:CompileOnly="+only, "-XX:CompileCommandFile=f")
		if profile&0x80 != 0 {
			args = append(args, "-XX:+UnlockDiagnosticVMOptions")
		}
		set, res, err := Parse(Options{JDK: j, Arch: jdk.AMD64, Args: args, ReadFile: func(string) ([]byte, error) { return []byte(file), nil }})
		var fe *Error
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("error %T: %v", err, err)
		}
		out := len(strings.Join(res.Oracle, ""))
		// Each command prints at most its echo or an error with its line and the usage (under
		// 512 bytes beside the line's own text), a JDK 17 CompileOnly entry one echo per comma;
		// help prints its text.
		lines := len(args) + strings.Count(file+only, "\n") + 1
		if limit := 512*lines + 64*(len(commands)+len(only)+len(file)) + 4096*strings.Count(commands+file, "help"); out > limit {
			t.Fatalf("printed %d bytes for %d bytes of input", out, len(commands)+len(only)+len(file))
		}
		if err != nil || set == nil {
			return
		}
		for _, c := range set.CompileCommands() {
			s := c.Pattern.String()
			if !strings.HasPrefix(c.Source, "-XX:CompileCommand") {
				continue // JDK 17's CompileOnly reads its entries its own way
			}
			p, msg := parseMethodPattern(s, j)
			if msg != "" || p != c.Pattern {
				t.Fatalf("pattern %q (from %q) parses back as %+v, %q", s, c.Source, p, msg)
			}
			_ = c.Pattern.Matches("com.sun.crypto.provider.GHASH", "processBlocks", "([BII[J[J)V")
		}
	})
}
