package flags

import (
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
