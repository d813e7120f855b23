package runtime

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
)

// printer is the sink of the VM's events (events.go) that writes HotSpot's
// diagnostic output: -XX:+PrintCompilation, PrintIntrinsics/PrintInlining,
// PrintTieredEvents to the VM's output (the tty) and -XX:+LogCompilation
// XML to LogFile. Lines are written whole under one mutex, as HotSpot's
// ttyLocker keeps them from interleaving.
type printer struct {
	mu     sync.Mutex
	w      io.Writer
	jdk    jdk.Release
	pol    *policy.Policy // formats the PrintCompilation lines
	tiered bool

	compilation, intrinsics, tieredEvents bool
	quietCommands                         bool // -XX:CompileCommand=quiet
	inlining                              bool // PrintInlining: the whole tree (inline.go)

	ul *xlogSink // -Xlog outputs of the jit tags (xlog.go)

	xml     *bufio.Writer
	xmlFile *os.File
	xl      xmlLog // LogCompilation's per-thread sections (logcompilation.go)
}

func boolFlag(s *flags.Set, name string) bool { return s.Has(name) && s.Bool(name) }

// newPrinter opens the outputs the flags ask for. LogCompilation writes to
// LogFile, or hotspot_pid<pid>.log in the working directory as HotSpot does.
func newPrinter(w io.Writer, s *flags.Set, rel jdk.Release, pol *policy.Policy, clock Clock) (*printer, error) {
	p := &printer{
		w: w, jdk: rel, pol: pol, tiered: boolFlag(s, "TieredCompilation"),
		compilation:  boolFlag(s, "PrintCompilation"),
		intrinsics:   boolFlag(s, "PrintIntrinsics") || boolFlag(s, "PrintInlining"),
		tieredEvents: boolFlag(s, "PrintTieredEvents"),
		inlining:     boolFlag(s, "PrintInlining"),

		quietCommands: s.CompileCommandsQuiet(),
	}
	ul, err := newXlogSink(w, s, rel)
	if err != nil {
		return nil, err
	}
	p.ul = ul
	if boolFlag(s, "LogCompilation") {
		name := ""
		if s.Has("LogFile") {
			name = s.String("LogFile")
		}
		if name == "" {
			name = fmt.Sprintf("hotspot_pid%d.log", os.Getpid())
		}
		f, err := os.Create(name)
		if err != nil {
			return nil, fmt.Errorf("runtime: -XX:LogFile=%s: %w", name, err)
		}
		p.xmlFile, p.xml = f, bufio.NewWriter(f)
		p.xmlHeader(s, clock)
	}
	return p, nil
}

// event writes e's output, if its kind has one.
func (p *printer) event(e *event) {
	if f := eventKinds[e.kind].print; f != nil {
		f(p, e)
	}
}

// line writes one line to the tty.
func (p *printer) line(s string) {
	p.mu.Lock()
	io.WriteString(p.w, s+"\n") //nolint:errcheck // tty output, as HotSpot ignores write errors
	p.mu.Unlock()
}

func stamp(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// xmlMethod is LogCompilation's method attribute: "pkg.Class name (sig)ret",
// the holder dotted as JDK 17 and 25 write it, the descriptor as is.
func xmlMethod(m *Method) string {
	return m.Class + " " + m.Name + " " + m.Descriptor
}

// queued logs <task_queued> when the policy creates a task.
func (p *printer) queued(e *event) {
	if p.xml == nil {
		return
	}
	st, t := e.st, e.task
	var extra string
	if t.IsOSR() {
		extra += fmt.Sprintf(" compile_kind='osr' osr_bci='%d'", t.BCI)
	}
	if t.Level != policy.LevelFullOptimization {
		extra += fmt.Sprintf(" level='%d'", t.Level)
	}
	if t.Blocking {
		extra += " blocking='1'"
	}
	i, b := t.Method.Counts()
	p.ttyf(mainThreadID, "<task_queued compile_id='%d' method='%s' bytes='%d' count='%d' backedge_count='%d' iicount='%d'%s stamp='%s' comment='tiered' hot_count='%d'/>\n",
		t.ID, xmlMethod(st.m), st.m.Size, i, b, i, extra, stamp(e.at), t.HotCount)
}

// task prints the PrintCompilation line of a task a compiler thread starts.
func (p *printer) task(e *event) {
	if p.compilation || p.ul.logsCompilation() {
		line := p.pol.TaskLine(e.task, e.at)
		if p.compilation {
			p.line(line)
		}
		p.ul.compilationLine(line, e.at)
	}
}

// excluded prints what PrintCompilation shows when a compile command
// refuses a compile: "### Excluding compile:" and the method made not
// compilable at the requested level (observed on 17.0.15 and 25.0.3);
// CompileCommand=quiet silences both.
func (p *printer) excluded(e *event) {
	if !p.compilation || p.quietCommands {
		return
	}
	m := e.st.m
	static := ""
	if m.Static {
		static = " static"
	}
	name := m.Class + "::" + m.Name
	p.line(fmt.Sprintf("### Excluding compile:%s %s", static, name))
	p.line(fmt.Sprintf("made not compilable on level %d  %s (%d bytes)   excluded by CompileCommand", e.level, name, m.Size))
}

// notEntrant prints "made not entrant" for retired code.
func (p *printer) notEntrant(e *event) {
	ne, now := e.ne, e.at
	if p.compilation || p.ul.logsCompilation() {
		line := p.pol.NotEntrantLine(ne, now)
		if p.compilation {
			p.line(line)
		}
		p.ul.compilationLine(line, now)
	}
	c := ne.Code
	compiler := "c1"
	if c.Level.IsC2() {
		compiler = "c2"
	}
	var osr string
	if c.IsOSR() {
		osr = " compile_kind='osr'"
	}
	// Temurin 25 names why; 17 does not (their logs: logcompilation.go).
	var reason string
	if p.jdk >= jdk.R25 {
		reason = fmt.Sprintf(" reason='%s'", xmlText(ne.Reason))
	}
	p.ttyf(xmlThreadID(e.thread), "<make_not_entrant thread='%d'%s compile_id='%d'%s compiler='%s' level='%d' stamp='%s'/>\n",
		xmlThreadID(e.thread), reason, c.ID, osr, compiler, c.Level, stamp(now))
}

// skipped prints a failed compile (CompileBroker: "COMPILE SKIPPED: reason").
func (p *printer) skipped(e *event) {
	t, err, now := e.task, e.err, e.at
	if p.compilation {
		info := t.Method.Info()
		p.line(policy.FormatCompilation(p.jdk, policy.CompileLine{
			Time: now, ID: t.ID, OSRBCI: t.BCI, Blocking: t.Blocking, Level: t.Level, Tiered: p.tiered,
			Name: t.Method.PrintName(), CodeSize: info.CodeSize, Message: "COMPILE SKIPPED: " + err.Error(),
		}))
	}
	p.xmlFailure(e)
}

// intrinsicSite prints the PrintIntrinsics/PrintInlining lines C2 prints
// when it binds a call site to a stub (LibraryIntrinsic::generate /
// generate_predicate in library_call.cpp), at inline depth 1:
//
//	<28 + 2·depth spaces>@ <bci>   <Class::method> (<N> bytes)   (intrinsic[, predicate])
//
// The bci is the call site's Java bytecode index in the real class of the
// profile's release (bytecode.Method.CallBCI).
//
// With -XX:+PrintInlining the inlining tree (VM.PrintInlining) prints these
// lines at their depth instead.
func (p *printer) intrinsicSite(e *event) {
	callee := e.st.m
	bci := -1
	if e.site.Caller != nil {
		if b, ok := e.site.Caller.CallBCI(callee.Key, p.jdk); ok {
			bci = b
		}
	}
	if p.intrinsics && !p.inlining {
		for _, msg := range intrinsicMessages(p.jdk, e.st.intr.Row().Predicated) {
			p.line(p.inliningLine(1, bci, callee, msg))
		}
	}
}

// intrinsicMessages are the PrintInlining/PrintIntrinsics messages of one
// call site C2 binds to a stub, one per line. JDK 17 prints a predicated
// intrinsic on two lines, "(intrinsic, predicate)" then "(intrinsic)";
// Temurin 25 prints every message of a call site on one line, after the
// inlining decision: "inline (hot)   (intrinsic, predicate)   (intrinsic)"
// (both recorded: bytecode/testdata/printintrinsics_*). JDK 21 was not
// observed and keeps 17's layout.
func intrinsicMessages(r jdk.Release, predicated bool) []string {
	switch {
	case !predicated:
		return []string{"(intrinsic)"}
	case r >= jdk.R25:
		return []string{"inline (hot)   (intrinsic, predicate)   (intrinsic)"}
	default:
		return []string{"(intrinsic, predicate)", "(intrinsic)"}
	}
}

// inliningTree prints the -XX:+PrintInlining tree of new code in one
// write: a tree never interleaves with another thread's lines.
func (p *printer) inliningTree(e *event) {
	if len(e.inlining) == 0 || !p.inlining && !p.ul.logsInlining() {
		return
	}
	lines := make([]string, len(e.inlining))
	for i, l := range e.inlining {
		lines[i] = p.inliningLine(l.depth, l.bci, l.callee, l.reason)
	}
	if p.inlining {
		p.line(strings.Join(lines, "\n"))
	}
	p.ul.inliningLines(lines, e.at) // -Xlog:jit+inlining: the same lines
}

// tieredEvent prints a -XX:+PrintTieredEvents line.
func (p *printer) tieredEvent(e *event) {
	if p.tieredEvents {
		p.line(policy.FormatTieredEvent(p.jdk, *e.tiered))
	}
}

// inliningLine formats one PrintInlining / PrintIntrinsics line at inline
// depth (1: a call made by the compiled method itself), as
// CompileTask::print_inlining_inner lays it out: the columns of the
// timestamp, compile id and method attributes left blank, two spaces per
// depth, "@ bci", the holder and name, the bytecode size and the message.
func (p *printer) inliningLine(depth, bci int, callee *Method, msg string) string {
	indent := 26
	if p.tiered {
		indent += 2
	}
	indent += 2 * depth
	return strings.Repeat(" ", indent) + fmt.Sprintf("@ %d   %s::%s (%d bytes)   %s", bci, callee.Class, callee.Name, callee.Size, msg)
}

// close ends the XML log at VM time now: the tty part, then each compiler
// thread's section, as HotSpot appends its threads' files at exit.
func (p *printer) close(now time.Duration) error {
	ulErr := p.ul.close()
	if p.xml == nil {
		return ulErr
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.xmlTail(now)
	err := p.xml.Flush()
	if cerr := p.xmlFile.Close(); err == nil {
		err = cerr
	}
	p.xml = nil
	return err
}
