package policy

import (
	"fmt"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// CompileLine is one -XX:+PrintCompilation line: a task starting, or a
// code version changing state (CompileTask::print_impl).
type CompileLine struct {
	// Time is since VM start; the line shows whole milliseconds.
	Time time.Duration
	ID   int
	// OSRBCI is the OSR entry bci, or InvocationEntryBCI.
	OSRBCI int
	// The attribute columns %, s, !, b, n come from OSRBCI and these.
	Synchronized, ExceptionHandlers, Blocking, Native bool
	// Level is printed only when Tiered; -1 prints "-".
	Level  Level
	Tiered bool
	// Name is "Holder::name"; CodeSize is the bytecode size.
	Name     string
	CodeSize int
	// Message follows three spaces ("made not entrant"); empty means none,
	// except for native methods, which always print the three spaces.
	Message string
}

// FormatCompilation renders l as the given release prints it:
//
//	JDK 8, 17:  "%7d " timestamp, then "%4d " id, "%c%c%c%c%c " attributes,
//	            "%d " tier (tiered only), five spaces, " Holder::name"
//	            (print_short_name's leading space), " @ bci" (OSR),
//	            " (N bytes)" or " (native)", then "   message"
//	JDK 21, 25: the same with an unpadded "%d " timestamp
//
// Checked against JDK 17.0.15 and 25.0.3 output (testdata/jvm and the
// shared transcripts); the JDK 8 layout is read from 8u compileTask.cpp and
// the JDK 21 one from 21's compileTask.cpp.
func FormatCompilation(rel jdk.Release, l CompileLine) string {
	var sb strings.Builder
	millis := l.Time.Milliseconds()
	if printRow(rel).paddedTimestamp {
		fmt.Fprintf(&sb, "%7d ", millis)
	} else {
		fmt.Fprintf(&sb, "%d ", millis)
	}
	fmt.Fprintf(&sb, "%4d ", l.ID)
	attr := func(on bool, c byte) byte {
		if on {
			return c
		}
		return ' '
	}
	osr := l.OSRBCI != InvocationEntryBCI
	sb.Write([]byte{attr(osr, '%'), attr(l.Synchronized, 's'), attr(l.ExceptionHandlers, '!'), attr(l.Blocking, 'b'), attr(l.Native, 'n'), ' '})
	if l.Tiered {
		if l.Level < 0 {
			sb.WriteString("- ")
		} else {
			fmt.Fprintf(&sb, "%d ", l.Level)
		}
	}
	sb.WriteString("     ")
	// Method::print_short_name starts with a space.
	sb.WriteString(" ")
	sb.WriteString(l.Name)
	if osr {
		fmt.Fprintf(&sb, " @ %d", l.OSRBCI)
	}
	if l.Native {
		sb.WriteString(" (native)")
	} else {
		fmt.Fprintf(&sb, " (%d bytes)", l.CodeSize)
	}
	if l.Message != "" || l.Native {
		sb.WriteString("   ")
		sb.WriteString(l.Message)
	}
	return sb.String()
}

// tieredOutput reports whether PrintCompilation prints the tier column:
// the TieredCompilation flag's value.
func (p *Policy) tieredOutput() bool { return p.cfg.TieredCompilation }

// TaskLine returns the PrintCompilation line printed when a compiler
// thread starts t.
func (p *Policy) TaskLine(t *Task, now time.Duration) string {
	info := t.Method.info
	return FormatCompilation(p.cfg.JDK, CompileLine{
		Time: now, ID: t.ID, OSRBCI: t.BCI, Synchronized: info.Synchronized,
		ExceptionHandlers: info.ExceptionHandlers, Blocking: t.Blocking, Native: info.Native,
		Level: t.Level, Tiered: p.tieredOutput(), Name: t.Method.PrintName(), CodeSize: info.CodeSize,
	})
}

// NotEntrantLine returns the "made not entrant" line for retired code: the
// code's own compile id and level, no blocking mark, and from JDK 25 on
// the reason after a colon.
func (p *Policy) NotEntrantLine(n NotEntrant, now time.Duration) string {
	c := n.Code
	info := c.Method.info
	msg := "made not entrant"
	if p.cfg.rel.notEntrantReason && n.Reason != "" {
		msg += ": " + n.Reason
	}
	return FormatCompilation(p.cfg.JDK, CompileLine{
		Time: now, ID: c.ID, OSRBCI: c.BCI, Synchronized: info.Synchronized,
		ExceptionHandlers: info.ExceptionHandlers, Native: info.Native,
		Level: c.Level, Tiered: p.tieredOutput(), Name: c.Method.PrintName(), CodeSize: info.CodeSize,
		Message: msg,
	})
}
