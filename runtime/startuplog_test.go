package runtime

import (
	"bytes"
	"regexp"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

// TestStartupLogRoutes checks that a start-up line reaches the outputs whose selections take
// its tags at its level, with each output's decorations: stdout's default configuration
// (warnings) unless -Xlog:disable came first, and the -Xlog options' outputs.
func TestStartupLogRoutes(t *testing.T) {
	uptime := regexp.MustCompile(`\[[0-9]+\.[0-9]{3}s\]`)
	warning := flags.LogLine{Level: "warning", Tags: "gc", Text: "-XX:+PrintGC is deprecated."}
	using := flags.LogLine{Level: "info", Tags: "gc", Text: "Using G1"}
	initLine := flags.LogLine{Level: "info", Tags: "gc,init", Text: "Heap Region Size: 4M"}
	for _, c := range []struct {
		name           string
		args           []string
		stdout, stderr string
	}{
		{"default", nil, "[T][warning][gc] -XX:+PrintGC is deprecated.\n", ""},
		{"gc to stdout", []string{"-Xlog:gc"}, "[T][warning][gc] -XX:+PrintGC is deprecated.\n[T][info   ][gc] Using G1\n", ""},
		{"gc* to stderr, uptime only", []string{"-Xlog:gc*:stderr:uptime"}, "[T][warning][gc] -XX:+PrintGC is deprecated.\n", "[T] Using G1\n[T] Heap Region Size: 4M\n"},
		{"disabled, then gc+init", []string{"-Xlog:disable", "-Xlog:gc+init:stdout:level,tags"}, "[info][gc,init] Heap Region Size: 4M\n", ""},
		{"no decorations", []string{"-Xlog:gc:stdout:none"}, "[T][warning][gc] -XX:+PrintGC is deprecated.\nUsing G1\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, res, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: append(c.args, "-version")})
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			l := NewStartupLog(&stdout, &stderr, res.LogDisabled, time.Now())
			l.Write(warning) // a parse-time line: the default configuration
			l.Configure(res.Logs)
			l.Write(using)
			l.Write(initLine)
			if got := uptime.ReplaceAllString(stdout.String(), "[T]"); got != c.stdout {
				t.Errorf("stdout:\n%q\nwant\n%q", got, c.stdout)
			}
			if got := uptime.ReplaceAllString(stderr.String(), "[T]"); got != c.stderr {
				t.Errorf("stderr:\n%q\nwant\n%q", got, c.stderr)
			}
		})
	}
}

// TestStartupLogMultiline checks a message of several lines: the later lines get a blank
// decoration as wide as the first line's (25's JFR errors end in an empty line so).
func TestStartupLogMultiline(t *testing.T) {
	var stdout bytes.Buffer
	l := NewStartupLog(&stdout, &bytes.Buffer{}, false, time.Now())
	l.Write(flags.LogLine{Level: "error", Tags: "arguments", Text: "Parsing error memory size value: invalid value\n"})
	l.Write(flags.LogLine{Plain: true, Text: "Flight Recorder is disabled."})
	want := regexp.MustCompile(`^\[[0-9]+\.[0-9]{3}s\]\[error\]\[arguments\] Parsing error memory size value: invalid value\n\[ {24}\] \nFlight Recorder is disabled\.\n$`)
	if !want.MatchString(stdout.String()) {
		t.Errorf("got %q", stdout.String())
	}
}
