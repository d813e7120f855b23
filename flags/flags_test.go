package flags

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// parse runs Parse with an environment and files given as maps.
func parse(j jdk.Release, a jdk.Arch, args []string, env, files map[string]string) (*Set, *Result, error) {
	return Parse(Options{JDK: j, Arch: a, Args: args,
		Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		ReadFile: func(name string) ([]byte, error) {
			if s, ok := files[name]; ok {
				return []byte(s), nil
			}
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}})
}

// errText returns the Error's HotSpot text, or "" for success.
func errText(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not an *Error", err)
	}
	return fe.Text
}

const (
	diagUnlock = "-XX:+UnlockDiagnosticVMOptions"
	ghashDiag  = "Error: VM option 'UseGHASHIntrinsics' is diagnostic and must be enabled via -XX:+UnlockDiagnosticVMOptions.\n"
	ghashOrder = "Error: The unlock option must precede 'UseGHASHIntrinsics'.\n"
)

// TestProfiles checks the behaviour that differs between profiles and architectures and that
// the recorded JVM runs (cmd/jitsim) cannot show: JDK 8/8u/21 and arm64.
func TestProfiles(t *testing.T) {
	tests := []struct {
		name string
		jdk  jdk.Release
		arch jdk.Arch
		args []string
		want string // HotSpot's text; "" = accepted
	}{
		{"8 intrinsic flags are product", jdk.R8, jdk.AMD64, []string{"-XX:-UseAESIntrinsics"}, ""},
		{"8u GHASH flag is product", jdk.R8u, jdk.AMD64, []string{"-XX:-UseGHASHIntrinsics"}, ""},
		// The suggestion is the best match in jitsim's table (HotSpot 8 searched all its flags).
		{"8 has no GHASH flag", jdk.R8, jdk.AMD64, []string{"-XX:-UseGHASHIntrinsics"},
			"Unrecognized VM option 'UseGHASHIntrinsics'\nDid you mean '(+/-)PrintIntrinsics'?\n"},
		{"8u x86 has no CTR flag", jdk.R8u, jdk.AMD64, []string{"-XX:-UseAESCTRIntrinsics"},
			"Unrecognized VM option 'UseAESCTRIntrinsics'\nDid you mean '(+/-)UseAESIntrinsics'?\n"},
		{"8 Did you mean ends its line", jdk.R8, jdk.AMD64, []string{"-XX:-UseAESIntrinsic"},
			"Unrecognized VM option 'UseAESIntrinsic'\nDid you mean '(+/-)UseAESIntrinsics'?\n"},
		{"17 Did you mean is glued", jdk.R17, jdk.AMD64, []string{"-XX:-UseAESIntrinsic"},
			"Unrecognized VM option 'UseAESIntrinsic'\nDid you mean '(+/-)UseAESIntrinsics'? "},
		{"21 follows 17", jdk.R21, jdk.AMD64, []string{"-XX:-UseAESIntrinsic"},
			"Unrecognized VM option 'UseAESIntrinsic'\nDid you mean '(+/-)UseAESIntrinsics'? "},
		{"25 Did you mean ends its line", jdk.R25, jdk.AMD64, []string{"-XX:-UseAESIntrinsic"},
			"Unrecognized VM option 'UseAESIntrinsic'\nDid you mean '(+/-)UseAESIntrinsics'?\n"},
		{"8 locked diagnostic: one line", jdk.R8, jdk.AMD64, []string{"-XX:+PrintIntrinsics"},
			"Error: VM option 'PrintIntrinsics' is diagnostic and must be enabled via -XX:+UnlockDiagnosticVMOptions.\n"},
		{"17 locked diagnostic", jdk.R17, jdk.AMD64, []string{"-XX:-UseGHASHIntrinsics"}, ghashDiag + ghashOrder},
		{"21 locked diagnostic follows 17", jdk.R21, jdk.AMD64, []string{"-XX:-UseGHASHIntrinsics"}, ghashDiag + ghashOrder},
		{"25 locked diagnostic adds the parse error", jdk.R25, jdk.AMD64, []string{"-XX:-UseGHASHIntrinsics"},
			ghashDiag + ghashOrder + "Improperly specified VM option 'UseGHASHIntrinsics'\n"},
		{"unlock must precede", jdk.R25, jdk.AMD64, []string{"-XX:UseGHASHIntrinsics", diagUnlock},
			ghashDiag + ghashOrder + "Missing +/- setting for VM option 'UseGHASHIntrinsics'\n"},
		{"jitsim's PoC flag is experimental", jdk.R25, jdk.AMD64, []string{"-XX:+UseInterpreterAndC1CryptoIntrinsics"},
			"Error: VM option 'UseInterpreterAndC1CryptoIntrinsics' is experimental and must be enabled via -XX:+UnlockExperimentalVMOptions.\n" +
				"Error: The unlock option must precede 'UseInterpreterAndC1CryptoIntrinsics'.\n" +
				"Improperly specified VM option 'UseInterpreterAndC1CryptoIntrinsics'\n"},
		{"jitsim's PoC flag unlocked", jdk.R8u, jdk.AMD64, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseInterpreterAndC1CryptoIntrinsics"}, ""},
		{"arm64 has no UseAVX", jdk.R25, jdk.ARM64, []string{"-XX:UseAVX=2"}, "Unrecognized VM option 'UseAVX=2'\n"},
		{"arm64 has no UseSSE", jdk.R17, jdk.ARM64, []string{"-XX:UseSSE=2"}, "Unrecognized VM option 'UseSSE=2'\n"},
		{"arm64 has no UseCLMUL", jdk.R25, jdk.ARM64, []string{"-XX:-UseCLMUL"}, "Unrecognized VM option 'UseCLMUL'\n"},
		{"arm64 has the AES flags", jdk.R25, jdk.ARM64, []string{diagUnlock, "-XX:-UseAESCTRIntrinsics", "-XX:-UseAES"}, ""},
		{"8 has no ranges", jdk.R8, jdk.AMD64, []string{"-XX:TieredStopAtLevel=9"}, ""},
		{"8 has no VMOptionsFile", jdk.R8, jdk.AMD64, []string{"-XX:VMOptionsFile=x"}, "Unrecognized VM option 'VMOptionsFile=x'\n"},
		{"8 has no CompilationMode", jdk.R8, jdk.AMD64, []string{"-XX:CompilationMode=quick-only"},
			"Unrecognized VM option 'CompilationMode=quick-only'\n"},
		{"8 intx overflow wraps like 17", jdk.R8, jdk.AMD64, []string{"-XX:CompileThreshold=18446744073709551615"}, ""},
		{"25 int overflow is an error", jdk.R25, jdk.AMD64, []string{"-XX:UseAVX=4294967296"}, "Improperly specified VM option 'UseAVX=4294967296'\n"},
		{"colon-equals resets a list", jdk.R25, jdk.AMD64, []string{diagUnlock, "-XX:DisableIntrinsic=_nope", "-XX:DisableIntrinsic:=_aescrypt_decryptBlock"}, ""},
		// Intrinsic names are checked against the release's recorded list.
		{"17 has no _Continuation_doYield", jdk.R17, jdk.AMD64, []string{diagUnlock, "-XX:DisableIntrinsic=_Continuation_doYield"},
			"Unrecognized intrinsic detected in DisableIntrinsic: _Continuation_doYield\n"},
		{"25 has _Continuation_doYield", jdk.R25, jdk.AMD64, []string{diagUnlock, "-XX:DisableIntrinsic=_Continuation_doYield"}, ""},
		{"21 was not recorded: any name", jdk.R21, jdk.AMD64, []string{diagUnlock, "-XX:DisableIntrinsic=_nope"}, ""},
		{"8 does not check names", jdk.R8, jdk.AMD64, []string{diagUnlock, "-XX:DisableIntrinsic=_nope"}, ""},
		{"Control: warning, then the first unknown name", jdk.R25, jdk.AMD64,
			[]string{diagUnlock, "-XX:ControlIntrinsic=+_aescrypt_encryptBlock,nope,-_x", "-XX:DisableIntrinsic=_y"},
			"Unrecognized intrinsic detected in DisableIntrinsic: _y\n" + VMWarningPrefix + "failed to parse nope. must start with +/-!\n" +
				"Unrecognized intrinsic detected in ControlIntrinsic: nope\n"},
		{"Control: a sign alone names nothing", jdk.R17, jdk.AMD64, []string{diagUnlock, "-XX:ControlIntrinsic=+"},
			"Unrecognized intrinsic detected in ControlIntrinsic: \n"},
		{"Control: empty entries are skipped", jdk.R17, jdk.AMD64, []string{diagUnlock, "-XX:ControlIntrinsic=,+_aescrypt_encryptBlock,,"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parse(tc.jdk, tc.arch, tc.args, nil, nil)
			if got := errText(t, err); got != tc.want {
				t.Errorf("JDK %s %s %q:\n got %q\nwant %q", tc.jdk, tc.arch, tc.args, got, tc.want)
			}
		})
	}
}

// TestValuesAndOrigins checks values, origins and precedence on one set.
func TestValuesAndOrigins(t *testing.T) {
	env := map[string]string{"JAVA_TOOL_OPTIONS": "-XX:Tier3InvocationThreshold=1 -XX:Tier4InvocationThreshold=1",
		"_JAVA_OPTIONS": "-XX:Tier4InvocationThreshold=3"}
	files := map[string]string{"f.flags": "Tier3InvocationThreshold=7\nTier3CompileThreshold=9\n"}
	s, res, err := parse(jdk.R25, jdk.AMD64, []string{"-XX:Flags=f.flags", "-XX:Tier3InvocationThreshold=2", "-Dmode=GCM",
		"-Dx", "-Dmode=CBC", diagUnlock, "-XX:DisableIntrinsic=_aescrypt_encryptBlock,_aescrypt_decryptBlock", "-XX:DisableIntrinsic=_ghash_processBlocks", "-Xcomp", "-version"}, env, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, value, origin string }{
		{"Tier3CompileThreshold", "9", "config file"},
		{"Tier3InvocationThreshold", "2", "command line"},
		{"Tier4InvocationThreshold", "0", "command line"}, // -Xcomp in tiered mode
		{"Tier3MinInvocationThreshold", "100", "default"},
		{"DisableIntrinsic", "_aescrypt_encryptBlock,_aescrypt_decryptBlock\n_ghash_processBlocks", "command line"},
		{"UseInterpreter", "false", "default"},
		{"ReservedCodeCacheSize", "251658240", "ergonomic"}, // before the code cache's reservation (ReserveCodeCache)
	} {
		if got, o := s.Value(c.name), s.OriginString(c.name); got != c.value || o != c.origin {
			t.Errorf("%s = %q {%s}, want %q {%s}", c.name, got, o, c.value, c.origin)
		}
	}
	if v, _ := res.Property("mode"); v != "CBC" {
		t.Errorf("-Dmode = %q, want the last one, CBC", v)
	}
	if v, ok := res.Property("x"); !ok || v != "" {
		t.Errorf("-Dx = %q, %v; want empty, defined", v, ok)
	}
	if !res.Version || res.Mode != Compiled {
		t.Errorf("Version %v Mode %v, want true, compiled mode", res.Version, res.Mode)
	}
	want := []string{"Picked up JAVA_TOOL_OPTIONS: " + env["JAVA_TOOL_OPTIONS"] + "\n", "Picked up _JAVA_OPTIONS: -XX:Tier4InvocationThreshold=3\n"}
	if strings.Join(res.Stderr, "") != strings.Join(want, "") {
		t.Errorf("notices %q, want %q", res.Stderr, want)
	}

	// The ergonomics API.
	if err := s.SetErgo("Tier3InvocationThreshold", "5"); err != nil {
		t.Fatal(err)
	}
	if o := s.OriginString("Tier3InvocationThreshold"); o != "command line, ergonomic" {
		t.Errorf("SetErgo on a user flag: origin %q", o)
	}
	if err := s.SetDefault("UseAES", "true"); err != nil || !s.Bool("UseAES") || s.OriginString("UseAES") != "default" {
		t.Errorf("SetDefault: %v, UseAES=%v {%s}", err, s.Bool("UseAES"), s.OriginString("UseAES"))
	}
	if err := s.SetErgo("NoSuchFlag", "1"); err == nil {
		t.Error("SetErgo accepted an unknown flag")
	}
	if err := s.SetDefault("UseAVX", "lots"); err == nil {
		t.Error("SetDefault accepted a bad value")
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		args  []string
		files map[string]string
		want  string
	}{
		{[]string{"-Xint", "-XX:+TieredCompilation"}, nil, VMWarningPrefix + "TieredCompilation disabled due to -Xint.\n"},
		{[]string{"-Xint", "-XX:+TieredCompilation", "-XX:-PrintWarnings"}, nil, ""},
		{nil, map[string]string{".hotspotrc": "+UseAES"},
			VMWarningPrefix + ".hotspotrc file is present but has been ignored.  Run with -XX:Flags=.hotspotrc to load the file.\n"},
		{[]string{"-XX:-PrintWarnings"}, map[string]string{".hotspotrc": ""}, ""},
		{[]string{"-XX:Flags=.hotspotrc"}, map[string]string{".hotspotrc": "-UseAES"}, ""},
	}
	for _, tc := range tests {
		_, res, err := parse(jdk.R17, jdk.AMD64, tc.args, nil, tc.files)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Stderr, ""); got != tc.want {
			t.Errorf("%q with files %v: got %q, want %q", tc.args, tc.files, got, tc.want)
		}
	}
}

// TestFileErrorsNameTheFile checks that errors from files keep HotSpot's text and say which
// file and line the option came from.
func TestFileErrorsNameTheFile(t *testing.T) {
	files := map[string]string{
		"bad.flags": "+UnlockDiagnosticVMOptions\n\n# c\n  UseAVX=x\n",
		"bad.args":  "# an argfile\n-XX:+UseAES\n\n-XX:TieredStopAtLevel=7\n",
		"bad.opts":  "-XX:+UseAES -XX:UseAVX=q",
	}
	tests := []struct {
		args        []string
		text, where string
	}{
		{[]string{"-XX:Flags=bad.flags"}, "Improperly specified VM option 'UseAVX=x'\n", "settings file bad.flags, line 4"},
		{[]string{"@bad.args"}, "intx TieredStopAtLevel=7 is outside the allowed range [ 0 ... 4 ]\nImproperly specified VM option 'TieredStopAtLevel=7'\n",
			"argument file bad.args, line 4"},
		{[]string{"-XX:VMOptionsFile=bad.opts"}, "Improperly specified VM option 'UseAVX=q'\n", "options file bad.opts, line 1"},
		{[]string{"@none.args"}, "Error: could not open `none.args'\n", "argument file none.args: file does not exist"},
		{[]string{"-XX:Flags=none"}, "Could not open settings file none\n", "settings file none: file does not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.args[0], func(t *testing.T) {
			_, _, err := parse(jdk.R25, jdk.AMD64, tc.args, nil, files)
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if fe.Text != tc.text || fe.Where != tc.where {
				t.Errorf("got %q (%s), want %q (%s)", fe.Text, fe.Where, tc.text, tc.where)
			}
			if !strings.Contains(err.Error(), tc.where) {
				t.Errorf("Error() = %q does not name %q", err.Error(), tc.where)
			}
		})
	}
}

func TestTokenizers(t *testing.T) {
	settings := splitSettingsFile("+A\n  # comment -B\n\"C=1 2\" D='x y'\n#\nE")
	want := []fileToken{{"+A", 1}, {"\"C=1", 3}, {"2 D='x y'", 3}, {"E", 5}}
	if len(settings) != len(want) {
		t.Fatalf("settings tokens %+v, want %+v", settings, want)
	}
	for i := range want {
		if settings[i] != want[i] {
			t.Errorf("settings token %d = %+v, want %+v", i, settings[i], want[i])
		}
	}
	args := splitArgFile("# c\n-Da=\"x y\" 'q\\tz' \"long \\\n   line\"\n-XX:+X # comment\n-XX:+Y#gone -XX:+Z\n\"#\"")
	wantArgs := []fileToken{{"-Da=x y", 2}, {"q\tz", 2}, {"long line", 2}, {"-XX:+X", 4}, {"#", 6}}
	if len(args) != len(wantArgs) {
		t.Fatalf("argfile tokens %+v, want %+v", args, wantArgs)
	}
	for i := range wantArgs {
		if args[i] != wantArgs[i] {
			t.Errorf("argfile token %d = %+v, want %+v", i, args[i], wantArgs[i])
		}
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"UseAVX", "UseAVZ", 8.0 / 12},
		{"UseAES", "UseAES", 10.0 / 12},
		{"", "x", 0},
		{"TieredStopAtLevel", "\"TieredStopAtLevel", 32.0 / 35},
	}
	for _, tc := range tests {
		if got := similarity(tc.a, tc.b); got != tc.want {
			t.Errorf("similarity(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestTableFacts pins the per-profile facts of hotspot.md §3.1 and §2.6.
func TestTableFacts(t *testing.T) {
	kind := func(name string, j jdk.Release) Kind { return Lookup(name).Kind.At(j) }
	for _, name := range []string{"UseAESIntrinsics", "UseGHASHIntrinsics"} {
		if kind(name, jdk.R8u) != Product || kind(name, jdk.R17) != Diagnostic || kind(name, jdk.R25) != Diagnostic {
			t.Errorf("%s: want product in 8u, diagnostic from 17", name)
		}
	}
	exists := func(name string, j jdk.Release, a jdk.Arch) bool { return Lookup(name).Exists(j, a) }
	for _, c := range []struct {
		name string
		jdk  jdk.Release
		arch jdk.Arch
		want bool
	}{
		{"UseAESCTRIntrinsics", jdk.R8u, jdk.AMD64, false},
		{"UseAESCTRIntrinsics", jdk.R17, jdk.AMD64, true},
		{"UseGHASHIntrinsics", jdk.R8, jdk.AMD64, false},
		{"UseGHASHIntrinsics", jdk.R8u, jdk.ARM64, true},
		{"UseAVX", jdk.R25, jdk.ARM64, false},
		{"UseCLMUL", jdk.R8, jdk.AMD64, true},
		{"Tier0ProfileDelayFactor", jdk.R21, jdk.AMD64, false},
	} {
		if got := exists(c.name, c.jdk, c.arch); got != c.want {
			t.Errorf("%s exists in JDK %s on %s: %v, want %v", c.name, c.jdk, c.arch, got, c.want)
		}
	}
	for _, j := range jdk.All() {
		for _, a := range []jdk.Arch{jdk.AMD64, jdk.ARM64} {
			NewSet(j, a) // panics on a default that does not parse as the row's type
		}
	}
	for i, f := range table {
		if f.Doc == "" && !f.NotModelled {
			t.Errorf("%s has no doc", f.Name)
		}
		if i > 0 && table[i-1].Name >= f.Name {
			t.Errorf("table not sorted at %s", f.Name)
		}
	}
	if r := Lookup("UseAVX").RangeAt(jdk.R17); r == nil || r.Max != 99 {
		t.Errorf("UseAVX range in 17: %+v, want 0..99", r)
	}
	if r := Lookup("UseAVX").RangeAt(jdk.R25); r == nil || r.Max != 3 {
		t.Errorf("UseAVX range in 25: %+v, want 0..3", r)
	}
}

// TestPrintLayouts checks PrintFlagsFinal rows against the samples of hotspot.md §4.4 (JDK 8
// and JDK 11+ layouts; the JDK 17/25 rows are also compared with recorded JVM output in
// cmd/jitsim).
func TestPrintLayouts(t *testing.T) {
	s8, _, err := parse(jdk.R8u, jdk.AMD64, []string{"-XX:-TieredCompilation"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s8.SetDefault("UseAESIntrinsics", "true"))
	must(t, s8.SetErgo("CICompilerCount", "12"))
	must(t, s8.SetDefault("UseAVX", "2"))
	s17, _, err := parse(jdk.R17, jdk.AMD64, []string{"-XX:Tier3InvocationThreshold=100", diagUnlock}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	must(t, s17.SetDefault("UseAES", "true"))
	must(t, s17.SetDefault("UseAESIntrinsics", "true"))
	must(t, s17.SetDefault("UseAVX", "2"))
	must(t, s17.SetErgo("CICompilerCount", "12"))
	tests := []struct {
		set  *Set
		want []string
	}{
		{s8, []string{
			"     bool UseAESIntrinsics                          = true                                {product}\n",
			"     intx CICompilerCount                          := 12                                  {product}\n",
			"     intx UseAVX                                    = 2                                   {ARCH product}\n",
			"     bool TieredCompilation                        := false                               {pd product}\n",
		}},
		{s17, []string{
			"     bool UseAES                                   = true                                      {product} {default}\n",
			"     bool UseAESIntrinsics                         = true                                   {diagnostic} {default}\n",
			"     intx UseAVX                                   = 2                                    {ARCH product} {default}\n",
			"     intx CICompilerCount                          = 12                                        {product} {ergonomic}\n",
			"     intx Tier3InvocationThreshold                 = 100                                       {product} {command line}\n",
		}},
	}
	for _, tc := range tests {
		var b strings.Builder
		if err := tc.set.PrintFlagsFinal(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.HasPrefix(out, "[Global flags]\n") {
			t.Errorf("JDK %s: no header", tc.set.JDK())
		}
		for _, row := range tc.want {
			if !strings.Contains(out, row) {
				t.Errorf("JDK %s: missing row\n%q\nin\n%s", tc.set.JDK(), row, out)
			}
		}
	}
	// Diagnostic rows appear only when unlocked.
	s, _, _ := parse(jdk.R25, jdk.AMD64, nil, nil, nil)
	var b strings.Builder
	must(t, s.PrintFlagsFinal(&b))
	if strings.Contains(b.String(), "UseGHASHIntrinsics") || !strings.Contains(b.String(), " UseAES ") {
		t.Error("locked diagnostic flag printed, or product flag missing")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
