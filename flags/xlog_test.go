package flags

import (
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestXlogSelections checks what a parsed -Xlog option logs: exact tag sets, wildcards,
// levels, a later selection turning a tag set off, and -Xlog:disable dropping what came before.
func TestXlogSelections(t *testing.T) {
	parse := func(args ...string) *Result {
		t.Helper()
		_, res, err := Parse(Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: append(args, "-version")})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return res
	}
	jc := []string{"jit", "compilation"}
	for _, tc := range []struct {
		opt   string
		tags  []string
		level string
		want  bool
	}{
		{"-Xlog:jit+compilation=debug", jc, "debug", true},
		{"-Xlog:jit+compilation=debug", jc, "trace", false},
		{"-Xlog:jit+compilation", jc, "info", true},
		{"-Xlog:jit+compilation", jc, "debug", false},
		{"-Xlog:compilation+jit=debug", jc, "debug", true},
		{"-Xlog:jit=debug", jc, "debug", false},
		{"-Xlog:jit*=debug", jc, "debug", true},
		{"-Xlog:jit*=debug,jit+compilation=off", jc, "info", false},
		{"-Xlog:all=trace", jc, "trace", true},
		{"-Xlog", jc, "info", true},
		{"-Xlog:gc*", jc, "error", false},
	} {
		res := parse(tc.opt)
		if len(res.Logs) != 1 {
			t.Fatalf("%s: %d outputs", tc.opt, len(res.Logs))
		}
		if got := res.Logs[0].Matches(tc.tags, tc.level); got != tc.want {
			t.Errorf("%s logs %v at %s: %v, want %v", tc.opt, tc.tags, tc.level, got, tc.want)
		}
	}
	res := parse("-Xlog:jit+compilation=debug:stderr:uptime,tid", "-Xlog:disable", "-Xlog:jit+inlining=debug:file=x.log")
	if len(res.Logs) != 1 || res.Logs[0].Output != "file=x.log" || !res.LogDisabled {
		t.Errorf("after -Xlog:disable: %+v", res.Logs)
	}
	res = parse("-Xlog:jit+compilation=debug:stderr:uptime,tid")
	if c := res.Logs[0]; c.Output != "stderr" || len(c.Decorators) != 2 || c.Decorators[1] != "tid" {
		t.Errorf("outputs and decorators: %+v", c)
	}
}

// TestNoTagSetMatches: a selection of valid tags warns only when no recorded tag set takes it
// (java 17 and 25 print the warning; the suggestions' choice and order are approximate).
func TestNoTagSetMatches(t *testing.T) {
	for _, tt := range []struct {
		j    jdk.Release
		sel  string
		warn string
	}{
		{jdk.R17, "gc+jit", "No tag set matches selection: gc+jit. Did you mean any of the following? gc* "},
		{jdk.R25, "jit+deoptimization=debug", "No tag set matches selection: jit+deoptimization. Did you mean any of the following? deoptimization "},
		{jdk.R25, "gc+jit*", "No tag set matches selection: gc+jit*."},
		{jdk.R17, "gc+heap+exit", ""},
		{jdk.R25, "gc+exit", ""},
		{jdk.R25, "heap+gc+exit", ""},
		{jdk.R25, "gc+heap*", ""},
		{jdk.R25, "jit+compilation=debug", ""},
		{jdk.R25, "all=info", ""},
	} {
		_, res, err := Parse(Options{JDK: tt.j, Arch: jdk.AMD64, Args: []string{"-Xlog:" + tt.sel, "-version"}})
		if err != nil {
			t.Fatalf("%s -Xlog:%s: %v", tt.j, tt.sel, err)
		}
		got := ""
		for _, l := range res.LogWarnings {
			if strings.HasPrefix(l.Text, "No tag set") {
				got = l.Text
			}
		}
		if tt.warn == "" && got != "" || !strings.HasPrefix(got, tt.warn) {
			t.Errorf("%s -Xlog:%s: warning %q, want one starting %q", tt.j, tt.sel, got, tt.warn)
		}
	}
}
