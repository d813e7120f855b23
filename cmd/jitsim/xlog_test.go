package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ulCompilation matches a -Xlog:jit+compilation line with the default decorations.
var ulCompilation = regexp.MustCompile(`^\[([0-9]+)\.([0-9]{3})s\]\[(debug|info) *\]\[jit,compilation\] (.*)$`)

// TestXlogJitCompilation runs TestAESMain on the model clock with -XX:+PrintCompilation and
// -Xlog:jit+compilation (to stdout with the default decorations, and to a file with
// uptimemillis), on the 17 and 25 profiles: every PrintCompilation line must come with one
// log line that says the same without the timestamp column, at the same time, at the level
// the release logs compiles at (debug on 17.0.15, info on 25.0.3), and the file must hold
// the same lines.
func TestXlogJitCompilation(t *testing.T) {
	for _, rel := range []string{"17", "25"} {
		t.Run(rel, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "jit.log")
			var out, errb bytes.Buffer
			args := []string{"run", "--jdk=" + rel, "--cpu=icelake-server", "--clock=model", "-XX:+PrintCompilation",
				"-Xlog:jit+compilation=debug", "-Xlog:jit*=trace:file=" + file + ":uptimemillis,level,tags", "-Dmode=GCM", "TestAESMain", "300", "100"}
			if exit := run(args, strings.NewReader(""), &out, &errb, func(string) (string, bool) { return "", false }); exit != 0 {
				t.Fatalf("exit %d: %s", exit, errb.String())
			}
			level := map[string]string{"17": "debug", "25": "info"}[rel]
			var printed, logged []string
			for _, l := range strings.Split(out.String(), "\n") {
				if m := ulCompilation.FindStringSubmatch(l); m != nil {
					if m[3] != level {
						t.Errorf("logged at %s, want %s: %q", m[3], level, l)
					}
					logged = append(logged, l)
				} else if compileLine.MatchString(l + "\n") {
					printed = append(printed, l)
				}
			}
			if len(printed) == 0 || len(printed) != len(logged) {
				t.Fatalf("%d PrintCompilation lines, %d jit+compilation lines", len(printed), len(logged))
			}
			for i, p := range printed {
				ms, text, _ := strings.Cut(strings.TrimLeft(p, " "), " ")
				m := ulCompilation.FindStringSubmatch(logged[i])
				if m[4] != text {
					t.Errorf("line %d: logged %q, PrintCompilation %q", i, m[4], text)
				}
				sec, _ := strconv.Atoi(m[1])
				frac, _ := strconv.Atoi(m[2])
				pm, _ := strconv.Atoi(ms)
				if d := sec*1000 + frac - pm; d < 0 || d > 1 {
					t.Errorf("line %d: logged at %s.%ss, printed at %dms", i, m[1], m[2], pm)
				}
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			// jit* also logs jit+inlining's lines; the compile lines must be those of stdout.
			var lines []string
			for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
				if strings.Contains(l, "[jit,compilation") {
					lines = append(lines, l)
				}
			}
			if len(lines) != len(logged) {
				t.Fatalf("file has %d lines, stdout %d", len(lines), len(logged))
			}
			for i, l := range lines {
				_, want, _ := strings.Cut(logged[i], "] ")
				if !strings.HasSuffix(l, "[jit,compilation] "+ulCompilation.FindStringSubmatch(logged[i])[4]) || !strings.HasSuffix(l, want) || !strings.HasPrefix(l, "[") || !strings.Contains(l, "ms][") {
					t.Errorf("file line %d: %q", i, l)
				}
			}
		})
	}
}
