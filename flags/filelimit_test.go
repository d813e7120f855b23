package flags

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestOptionsFileLimit names a 100 MB file (sparse: it costs no disk) as each kind of options
// file: jitsim refuses it with an error naming it, and allocates a small fraction of its size.
func TestOptionsFileLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.opts")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, args := range [][]string{{"@" + big}, {"-XX:Flags=" + big}, {"-XX:VMOptionsFile=" + big}, {"-XX:CompileCommandFile=" + big}} {
		var perr error
		n := allocated(func() { _, _, perr = Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: args}) })
		var e *Error
		if !errors.As(perr, &e) || !strings.Contains(e.Text, big) || !strings.Contains(e.Text, "16 MiB") {
			t.Errorf("%v: error %v, want one naming the file and the limit", args, perr)
		}
		if n > 8<<20 {
			t.Errorf("%v: allocated %d bytes for a 100 MB file", args, n)
		}
	}
	// An injected reader is held to the same limit.
	read := func(string) ([]byte, error) { return make([]byte, MaxOptionsFile+1), nil }
	if _, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{"-XX:Flags=x"}, ReadFile: read}); err == nil || !strings.Contains(err.Error(), "x is 16777217 bytes") {
		t.Errorf("injected reader: %v", err)
	}
}

// TestSettingsFileTokens checks the settings file's byte rules against what OpenJDK 17.0.15
// did: a token is cut at a NUL byte ("-UseAES\0junk" sets UseAES off, exit 0), and a token
// that fills HotSpot's 1024-byte buffer ends the file (the option of 1023 bytes is
// unrecognized, the options after it are not read).
func TestSettingsFileTokens(t *testing.T) {
	files := map[string]string{
		"nul.flags":  "-UseAES\x00junk\n",
		"long.flags": "-UseAES\n" + strings.Repeat("A", 5000) + "\n-BogusNeverRead\n",
	}
	read := func(name string) ([]byte, error) { return []byte(files[name]), nil }
	s, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{"-XX:Flags=nul.flags"}, ReadFile: read})
	if err != nil || s.Bool("UseAES") {
		t.Errorf("NUL byte: err %v, UseAES %v; want UseAES off", err, s != nil && s.Bool("UseAES"))
	}
	_, _, err = Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{"-XX:Flags=long.flags"}, ReadFile: read})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Text, "Unrecognized VM option '"+strings.Repeat("A", 1023)+"'\n") || strings.Contains(e.Text, "Bogus") {
		t.Errorf("long token: %v", err)
	}
}

// TestHugeOptionBounded gives a one-million-character -XX option (an @argfile can carry one):
// java names it whole and suggests nothing, and so does jitsim, allocating a few times its size.
func TestHugeOptionBounded(t *testing.T) {
	name := strings.Repeat("A", 1_000_000)
	var err error
	n := allocated(func() { _, _, err = Parse(Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: []string{"-XX:+" + name}}) })
	var e *Error
	if !errors.As(err, &e) || e.Text != "Unrecognized VM option '"+name+"'\n" {
		t.Errorf("error %.200v", err)
	}
	if n > 32<<20 {
		t.Errorf("allocated %d bytes for a 1 MB option", n)
	}
}

// TestManyListValues sets a ccstrlist flag 20,000 times: every value is kept, one a line, as
// java appends them.
func TestManyListValues(t *testing.T) {
	args := make([]string, 20_000)
	for i := range args {
		args[i] = "-XX:OnError=echo " + strings.Repeat("x", i%7)
	}
	s, _, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(s.String("OnError"), "\n") + 1; got != len(args) {
		t.Errorf("OnError holds %d values, want %d", got, len(args))
	}
}
