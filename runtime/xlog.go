package runtime

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

// Unified logging of the jit tags the VM models: -Xlog:jit+compilation gets the lines
// PrintCompilation prints, without its timestamp column, behind the output's decorations.

// jitCompilationLevel is the level HotSpot logs jit+compilation at: debug on OpenJDK
// 17.0.15, info on Temurin 25.0.3 (both recorded with -Xlog:jit+compilation -version); 21
// follows 17.
func jitCompilationLevel(j jdk.Release) string {
	if j >= jdk.R25 {
		return "info"
	}
	return "debug"
}

// ulOutput is one -Xlog output that logs a modelled tag set.
type ulOutput struct {
	w           io.Writer
	file        *os.File
	decorators  []string // nil: uptime, level, tags
	level, tags int      // the decoration widths so far
}

// jitInliningLevel is the level HotSpot logs jit+inlining at: debug on OpenJDK 17.0.15 and
// Temurin 25.0.3 (recorded on JitsimBench AESGCMBench; nothing is logged at info).
const jitInliningLevel = "debug"

// xlogSink writes the modelled tag sets to the outputs -Xlog configured.
type xlogSink struct {
	mu          sync.Mutex
	compilation []*ulOutput
	inlining    []*ulOutput
	level       string
	rel         jdk.Release
	files       []*os.File
	start       time.Time
}

// newXlogSink opens the outputs of the -Xlog options that log jit+compilation; stdout is the
// VM's output, stderr the process's.
func newXlogSink(stdout io.Writer, s *flags.Set, rel jdk.Release) (*xlogSink, error) {
	x := &xlogSink{level: jitCompilationLevel(rel), rel: rel, start: time.Now()}
	byName := map[string]*ulOutput{}
	for _, c := range s.Logs() {
		compilation := c.Matches([]string{"jit", "compilation"}, x.level)
		inlining := c.Matches([]string{"jit", "inlining"}, jitInliningLevel)
		if !compilation && !inlining {
			continue
		}
		o := byName[c.Output]
		if o == nil {
			o = &ulOutput{}
			switch c.Output {
			case "stdout":
				o.w = stdout
			case "stderr":
				o.w = os.Stderr
			default:
				f, err := os.Create(strings.TrimPrefix(c.Output, "file="))
				if err != nil {
					x.close()
					return nil, fmt.Errorf("runtime: -Xlog output %s: %w", c.Output, err)
				}
				o.w, o.file = f, f
				x.files = append(x.files, f)
			}
			byName[c.Output] = o
		}
		if compilation && !slices.Contains(x.compilation, o) {
			x.compilation = append(x.compilation, o)
		}
		if inlining && !slices.Contains(x.inlining, o) {
			x.inlining = append(x.inlining, o)
		}
		if c.Decorators != nil {
			o.decorators = c.Decorators
		}
	}
	return x, nil
}

// logsCompilation reports whether some output logs jit+compilation.
func (x *xlogSink) logsCompilation() bool { return x != nil && len(x.compilation) > 0 }

// compilationLine logs a PrintCompilation line (timestamp column dropped) at VM time at.
func (x *xlogSink) compilationLine(line string, at time.Duration) {
	if x == nil || len(x.compilation) == 0 {
		return
	}
	_, text, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, o := range x.compilation {
		io.WriteString(o.w, o.decorate(x.level, "jit,compilation", at, x.start)+text+"\n") //nolint:errcheck // log output, as HotSpot ignores write errors
	}
}

// logsInlining reports whether some output logs jit+inlining.
func (x *xlogSink) logsInlining() bool { return x != nil && len(x.inlining) > 0 }

// inliningLines logs the PrintInlining lines of one compile at VM time at. OpenJDK 17.0.15
// decorates each line; Temurin 25.0.3 prints the tree undecorated unless the -Xlog option
// names its decorators (both recorded on JitsimBench AESGCMBench).
func (x *xlogSink) inliningLines(lines []string, at time.Duration) {
	if x == nil || len(x.inlining) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, o := range x.inlining {
		var b strings.Builder
		for _, l := range lines {
			if x.rel < jdk.R25 || o.decorators != nil {
				b.WriteString(o.decorate(jitInliningLevel, "jit,inlining", at, x.start))
			}
			b.WriteString(l + "\n")
		}
		io.WriteString(o.w, b.String()) //nolint:errcheck // log output, as HotSpot ignores write errors
	}
}

// decorate returns the decorations of one line: each decorator in brackets, the level and
// tags padded to the widest printed before, and a space after the last.
func (o *ulOutput) decorate(level, tags string, at time.Duration, start time.Time) string {
	decs := o.decorators
	if decs == nil {
		decs = []string{"uptime", "level", "tags"}
	}
	if len(decs) == 0 {
		return ""
	}
	o.level, o.tags = max(o.level, len(level)), max(o.tags, len(tags))
	now := start.Add(at)
	var b strings.Builder
	for _, d := range decs {
		switch d {
		case "uptime":
			fmt.Fprintf(&b, "[%.3fs]", at.Seconds())
		case "uptimemillis":
			fmt.Fprintf(&b, "[%dms]", at.Milliseconds())
		case "uptimenanos":
			fmt.Fprintf(&b, "[%dns]", at.Nanoseconds())
		case "time":
			b.WriteString("[" + now.Format("2006-01-02T15:04:05.000-0700") + "]")
		case "utctime":
			b.WriteString("[" + now.UTC().Format("2006-01-02T15:04:05.000-0700") + "]")
		case "timemillis":
			fmt.Fprintf(&b, "[%dms]", now.UnixMilli())
		case "timenanos":
			fmt.Fprintf(&b, "[%dns]", now.UnixNano())
		case "hostname":
			h, _ := os.Hostname()
			b.WriteString("[" + h + "]")
		case "pid":
			fmt.Fprintf(&b, "[%d]", os.Getpid())
		case "tid":
			fmt.Fprintf(&b, "[%d]", mainThreadID)
		case "level":
			fmt.Fprintf(&b, "[%-*s]", o.level, level)
		case "tags":
			fmt.Fprintf(&b, "[%-*s]", o.tags, tags)
		}
	}
	b.WriteString(" ")
	return b.String()
}

// close closes the log files.
func (x *xlogSink) close() error {
	if x == nil {
		return nil
	}
	var err error
	for _, f := range x.files {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	x.files = nil
	return err
}

// LogStartupCompiles writes the JVM's own start-up compiles (PrintCompilation lines, as
// policy.StartupCompiles gives them) to the -Xlog outputs that log jit+compilation, each at
// the time its line shows: what `java -Xlog:jit+compilation… -version` prints.
func LogStartupCompiles(stdout io.Writer, s *flags.Set, rel jdk.Release, lines []string) error {
	x, err := newXlogSink(stdout, s, rel)
	if err != nil {
		return err
	}
	for _, l := range lines {
		ms, _, _ := strings.Cut(strings.TrimLeft(l, " "), " ")
		n, err := strconv.ParseInt(ms, 10, 64)
		if err != nil {
			return fmt.Errorf("runtime: start-up compile line %q has no time", l)
		}
		x.compilationLine(l, time.Duration(n)*time.Millisecond)
	}
	return x.close()
}

// StartupLog writes the unified-logging lines of the VM's start-up — the warnings of option
// parsing (flags.Result.LogWarnings) and the collector's lines (ergo.GCLog) — to the outputs
// that take them: stdout's default configuration (every tag set at warning, unless
// -Xlog:disable came first) and the stdout and stderr outputs of the -Xlog options, each with
// its decorations. Log files get none of them (jitsim writes no GC log).
type StartupLog struct {
	outs  []*startupOutput
	start time.Time
}

// startupOutput is stdout or stderr as unified logging configured it.
type startupOutput struct {
	ulOutput
	name     string
	warnings bool // the default configuration: every tag set at warning
	configs  []flags.LogConfig
}

// NewStartupLog returns the start-up log of a run: stdout with the default configuration
// (none when disabled: -Xlog:disable came first) and stderr with none, until Configure; start
// is when the process started (the uptime decoration counts from it).
func NewStartupLog(stdout, stderr io.Writer, disabled bool, start time.Time) *StartupLog {
	return &StartupLog{start: start, outs: []*startupOutput{
		{ulOutput: ulOutput{w: stdout}, name: "stdout", warnings: !disabled},
		{ulOutput: ulOutput{w: stderr}, name: "stderr"},
	}}
}

// Configure applies the -Xlog options' configurations (flags.Set.Logs): java logs what it
// finds while parsing with the default configuration, and what comes later with these.
func (l *StartupLog) Configure(logs []flags.LogConfig) {
	for _, c := range logs {
		for _, o := range l.outs {
			if c.Output == o.name {
				o.configs = append(o.configs, c)
				if c.Decorators != nil {
					o.decorators = c.Decorators
				}
			}
		}
	}
}

// Write logs one line to every output that takes its tags at its level; a plain line (a
// notice without decorations) goes to stdout.
func (l *StartupLog) Write(line flags.LogLine) {
	if line.Plain {
		io.WriteString(l.outs[0].w, line.Text+"\n") //nolint:errcheck // log output, as HotSpot ignores write errors
		return
	}
	tags := strings.Split(line.Tags, ",")
	for _, o := range l.outs {
		take := o.warnings && levelRank(line.Level) >= levelRank("warning")
		for _, c := range o.configs {
			take = take || c.Matches(tags, line.Level)
		}
		if !take {
			continue
		}
		prefix := o.decorate(line.Level, line.Tags, time.Since(l.start), l.start)
		// A message of several lines: the later ones get a blank decoration as wide.
		blank := ""
		if p := strings.TrimSuffix(prefix, " "); p != "" {
			blank = "[" + strings.Repeat(" ", len(p)-2) + "] "
		}
		var b strings.Builder
		for i, text := range strings.Split(line.Text, "\n") {
			if i > 0 {
				prefix = blank
			}
			b.WriteString(prefix + text + "\n")
		}
		io.WriteString(o.w, b.String()) //nolint:errcheck // log output, as HotSpot ignores write errors
	}
}

// levelRank orders the levels, trace lowest.
func levelRank(level string) int { return slices.Index(flags.LogLevels(), level) }
