package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// xmlShape is the set of elements of an XML document, each with the set of
// attributes it carries anywhere in it.
type xmlShape map[string]map[string]bool

// readShape parses an XML document with encoding/xml and returns its
// shape; an error names the file and the line of the bad token.
func readShape(name string, r io.Reader) (xmlShape, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	shape := xmlShape{}
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 1 + bytes.Count(data[:dec.InputOffset()], []byte("\n"))
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				line = se.Line
			}
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			as := shape[t.Name.Local]
			if as == nil {
				as = map[string]bool{}
				shape[t.Name.Local] = as
			}
			for _, a := range t.Attr {
				as[a.Name.Local] = true
			}
		case xml.EndElement:
			depth--
		}
	}
	if depth != 0 || len(shape) == 0 {
		line := 1 + bytes.Count(data, []byte("\n"))
		return nil, fmt.Errorf("%s:%d: unexpected end of the document", name, line)
	}
	return shape, nil
}

// logCompilationRequired are the elements a LogCompilation log must have
// for JITWatch: the header, the tty, the compiler threads' sections, the
// compiles with their parse trees, inlining decisions and intrinsics, the
// installed code and the end.
var logCompilationRequired = []string{"hotspot_log", "vm_version", "vm_arguments", "tty", "compilation_log",
	"start_compile_thread", "task_queued", "task", "parse", "bc", "call", "method", "klass", "inline_success",
	"inline_fail", "intrinsic", "predicated_intrinsic", "task_done", "nmethod", "make_not_entrant", "hotspot_log_done"}

// TestLogCompilationShape runs the GCM loop of TestAESMain on the model
// clock with -XX:+LogCompilation on the JDK 17 and 25 profiles and checks
// the log jitsim writes against the one the real JVM wrote for a GCM loop
// (testdata/logcompilation): every element and attribute jitsim writes is
// one the real log has, the required elements are all there, and the
// class names are dotted as 17 and 25 write them.
func TestLogCompilationShape(t *testing.T) {
	t.Parallel() // the model clock: deterministic however the CPUs are shared
	if testing.Short() {
		t.Skip("warms two VMs to level 4")
	}
	for _, c := range []struct{ rel, recorded string }{{"17", "jdk17.0.15_gcm.xml"}, {"25", "temurin25.0.3_gcm.xml"}} {
		t.Run("jdk="+c.rel, func(t *testing.T) {
			path := filepath.Join("testdata", "logcompilation", c.recorded)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			real, err := readShape(path, f)
			if err != nil {
				t.Fatal(err)
			}
			logFile := filepath.Join(t.TempDir(), "jitsim.log")
			var out, errb bytes.Buffer
			args := []string{"run", "--jdk=" + c.rel, "--cpu=icelake-server", "--clock=model",
				"-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "-XX:LogFile=" + logFile,
				"-Dmode=GCM", "-DmsgSize=16384", "TestAESMain", "20000", "100"}
			if st := run(args, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
				t.Fatalf("jitsim %s: status %d\n%s", strings.Join(args, " "), st, errb.String())
			}
			data, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readShape("jitsim.log", bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var extra []string
			for el, as := range got {
				if real[el] == nil {
					extra = append(extra, "<"+el+">")
					continue
				}
				for a := range as {
					if !real[el][a] {
						extra = append(extra, "<"+el+" "+a+">")
					}
				}
			}
			sort.Strings(extra)
			if len(extra) > 0 {
				t.Errorf("jitsim writes what java %s's log does not have: %v", c.rel, extra)
			}
			for _, el := range logCompilationRequired {
				if got[el] == nil {
					t.Errorf("jitsim's log lacks <%s>", el)
				}
			}
			if !bytes.Contains(data, []byte("method='com.sun.crypto.provider.")) || bytes.Contains(data, []byte("method='com/sun/")) {
				t.Errorf("methods are not named with dotted class names")
			}
			if i, j := bytes.Index(data, []byte("</tty>")), bytes.Index(data, []byte("<compilation_log ")); i < 0 || j < i {
				t.Errorf("the compiler threads' sections do not follow the tty")
			}
		})
	}
}

// TestReadShapeErrors checks that a bad document's error names the file and
// the line.
func TestReadShapeErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"<a>\n<b x='1'>\n</a>\n", "bad.xml:3:"},
		{"<a>\n<b/>\n", "bad.xml:3:"},
		{"", "bad.xml:1:"},
		{"<a x='1' x='2'/>", ""},
	} {
		_, err := readShape("bad.xml", strings.NewReader(c.doc))
		if c.want == "" {
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.doc, err, c.want)
		}
	}
}

// FuzzReadShape feeds readShape arbitrary documents: it must not panic,
// and an error must name the file and a line within the input.
func FuzzReadShape(f *testing.F) {
	f.Add([]byte("<hotspot_log version='160 1'><tty><task_queued compile_id='1'/></tty></hotspot_log>"))
	f.Add([]byte("<a>\n<b>\n"))
	f.Add([]byte("<?xml version='1.0'?>\n<a b='&lt;'/>"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		_, err := readShape("f.xml", bytes.NewReader(doc))
		if err == nil {
			return
		}
		var line int
		if _, serr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "f.xml:"), "%d:", &line); serr != nil || !strings.HasPrefix(err.Error(), "f.xml:") {
			t.Fatalf("error %q does not name f.xml:LINE", err)
		}
		if n := 1 + bytes.Count(doc, []byte("\n")); line < 1 || line > n {
			t.Fatalf("error %q names line %d of a %d-line document", err, line, n)
		}
	})
}
