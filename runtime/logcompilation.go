package runtime

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/runtime/policy"
)

// -XX:+LogCompilation, laid out as JDK 17 and Temurin 25 write it (their
// logs of a GCM loop: cmd/jitsim/testdata/logcompilation/): a header
// (<vm_version>, <vm_arguments>), the <tty> part the VM's threads write in
// turn (each switch marked by <writer thread=..>), then one
// <compilation_log> per compiler thread, which HotSpot writes to a file of
// its own and appends at exit, and <hotspot_log_done>. A compile's <task>
// goes to its thread's section with the inlining tree jitsim's compilers
// used, its <nmethod> to the tty.

// mainThreadID is the thread that queues compiles (HotSpot: the Java
// thread whose counters overflowed; jitsim: one id for all of them).
const mainThreadID = 1

// xmlThreadID is a compiler thread's id in the log: C2's from 1001, C1's
// from 2001 (jitsim's threads have no OS ids; the model clock's one thread
// per compiler is index 0).
func xmlThreadID(th compilerThread) int {
	base := 2001
	if th.kind == policy.C2 {
		base = 1001
	}
	return base + max(th.idx, 0)
}

// xmlLog is the state the log's parts need beyond the tty's writer.
type xmlLog struct {
	writer  int // the thread the tty's last line came from
	threads []compilerThread
	section map[compilerThread]*bytes.Buffer
}

// ttyf writes one line to the tty part as thread th, marking a change of
// writer as HotSpot does. Lines of one call are never split.
func (p *printer) ttyf(th int, format string, a ...any) {
	if p.xml == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.xl.writer != th {
		fmt.Fprintf(p.xml, "<writer thread='%d'/>\n", th)
		p.xl.writer = th
	}
	fmt.Fprintf(p.xml, format, a...)
}

// threadf appends to compiler thread th's section.
func (p *printer) threadf(th compilerThread, format string, a ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.xl.section[th]
	if b == nil {
		if p.xl.section == nil {
			p.xl.section = map[compilerThread]*bytes.Buffer{}
		}
		b = &bytes.Buffer{}
		p.xl.section[th] = b
		p.xl.threads = append(p.xl.threads, th)
	}
	fmt.Fprintf(b, format, a...)
}

// xmlText escapes s for an attribute or text.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&apos;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlHeader writes <hotspot_log>, <vm_version>, <vm_arguments> and opens
// the tty. time_ms is the epoch of VM start, the log's only wall-clock
// field; every stamp after it comes from the VM's clock.
func (p *printer) xmlHeader(s *flags.Set, clock Clock) {
	fmt.Fprintf(p.xml, "<?xml version='1.0' encoding='UTF-8'?>\n<hotspot_log version='160 1' process='%d' time_ms='%d'>\n",
		os.Getpid(), time.Now().Add(-clock.Now()).UnixMilli())
	fmt.Fprintf(p.xml, "<vm_version>\n<name>\njitsim\n</name>\n<release>\nJDK %s profile\n</release>\n<info>\njitsim, a model of HotSpot's tiered runtime (JDK %s profile)\n</info>\n</vm_version>\n", p.jdk, p.jdk)
	var args bytes.Buffer
	if err := s.PrintCommandLineFlags(&args); err != nil {
		args.Reset()
	}
	fmt.Fprintf(p.xml, "<vm_arguments>\n<args>\n%s</args>\n<command>\njitsim\n</command>\n</vm_arguments>\n<tty>\n", xmlText(strings.TrimSpace(args.String())+" "))
}

// xmlTail closes the tty and appends the compiler threads' sections.
func (p *printer) xmlTail(now time.Duration) {
	fmt.Fprintf(p.xml, "<destroy_vm stamp='%s'/>\n<tty_done stamp='%s'/>\n</tty>\n", stamp(now), stamp(now))
	threads := slices.Clone(p.xl.threads)
	slices.SortFunc(threads, func(a, b compilerThread) int { return xmlThreadID(a) - xmlThreadID(b) })
	for _, th := range threads {
		id := xmlThreadID(th)
		fmt.Fprintf(p.xml, "<compilation_log thread='%d'>\n<start_compile_thread name='%s CompilerThread%d' thread='%d' process='%d' stamp='0.000'/>\n",
			id, strings.ToUpper(th.kind.String()), max(th.idx, 0), id, os.Getpid())
		p.xml.Write(p.xl.section[th].Bytes()) //nolint:errcheck // bufio keeps the error for Flush
		fmt.Fprintf(p.xml, "</compilation_log>\n")
	}
	fmt.Fprintf(p.xml, "<hotspot_log_done stamp='%s'/>\n</hotspot_log>\n", stamp(now))
}

// taskAttrs are the attributes <task> and <nmethod> share after compile_id.
func taskAttrs(t *policy.Task) (osr, lvl string) {
	if t.IsOSR() {
		osr = fmt.Sprintf(" compile_kind='osr' osr_bci='%d'", t.BCI)
	}
	if t.Level != policy.LevelFullOptimization {
		lvl = fmt.Sprintf(" level='%d'", t.Level)
	}
	return osr, lvl
}

// xmlFailure logs a failed compile: its <task> with <failure> in the
// compiler thread's section.
func (p *printer) xmlFailure(e *event) {
	if p.xml == nil {
		return
	}
	t, st := e.task, e.st
	osr, lvl := taskAttrs(t)
	i, b := t.Method.Counts()
	p.threadf(e.thread, "<task compile_id='%d'%s method='%s' bytes='%d' count='%d' backedge_count='%d' iicount='%d'%s stamp='%s'>\n"+
		"<failure reason='%s' stamp='%s'/>\n<task_done success='0' count='%d' backedge_count='%d' stamp='%s'/>\n</task>\n",
		t.ID, osr, xmlText(xmlMethod(st.m)), st.m.Size, i, b, i, lvl, stamp(e.at), xmlText(e.err.Error()), stamp(e.at), i, b, stamp(e.at))
}

// installed logs a finished compile: the <task> with its parse tree in
// the compiler thread's section, the <nmethod> in the tty. The sizes are
// the wasm body's (jitsim compiles WebAssembly, not to machine code).
func (p *printer) installed(e *event) {
	if p.xml == nil {
		return
	}
	st, t, start, now := e.st, e.task, e.start, e.at
	osr, lvl := taskAttrs(t)
	compiler := "c1"
	if t.Level.IsC2() {
		compiler = "c2"
	}
	i, b := t.Method.Counts()
	var body strings.Builder
	ids := &xmlIDs{b: &body, ids: map[string]int{}}
	root := ids.method(st.m)
	fmt.Fprintf(&body, "<parse method='%d' uses='%d' stamp='%s'>\n", root, i, stamp(start))
	inlined := inlinedBytes(e.inlining)
	depth := 1
	for _, l := range e.inlining {
		for ; depth > l.depth; depth-- {
			fmt.Fprintf(&body, "<parse_done stamp='%s'/>\n</parse>\n", stamp(now))
		}
		if strings.HasPrefix(l.reason, "(intrinsic, predicate)") {
			continue // 17's first line of a predicated site: one call below
		}
		code := 182 // invokevirtual
		if l.callee.Static {
			code = 184 // invokestatic
		}
		fmt.Fprintf(&body, "<bc code='%d' bci='%d'/>\n", code, l.bci)
		id := ids.method(l.callee)
		fmt.Fprintf(&body, "<call method='%d' count='%d' prof_factor='1.000000' inline='1'/>\n", id, i)
		switch {
		case l.callee.Intrinsic != "" && strings.HasSuffix(l.reason, "(intrinsic)"):
			if l.pred {
				fmt.Fprintf(&body, "<inline_success reason='inline (hot)'/>\n<predicated_intrinsic bci='%d' method='%d'/>\n<predicate_intrinsic id='%s'/>\n",
					l.bci, id, l.callee.Intrinsic)
			}
			fmt.Fprintf(&body, "<intrinsic id='%s'/>\n", l.callee.Intrinsic)
		case l.inline:
			fmt.Fprintf(&body, "<inline_success reason='%s'/>\n<parse method='%d' uses='%d' stamp='%s'>\n", xmlText(l.reason), id, i, stamp(start))
			depth++
		default:
			fmt.Fprintf(&body, "<inline_fail reason='%s'/>\n", xmlText(l.reason))
		}
	}
	for ; depth > 0; depth-- {
		fmt.Fprintf(&body, "<parse_done stamp='%s'/>\n</parse>\n", stamp(now))
	}
	size := st.m.WasmSize
	p.threadf(e.thread, "<task compile_id='%d'%s method='%s' bytes='%d' count='%d' backedge_count='%d' iicount='%d'%s stamp='%s'>\n%s"+
		"<task_done success='1' nmsize='%d' count='%d' backedge_count='%d' inlined_bytes='%d' stamp='%s'/>\n</task>\n",
		t.ID, osr, xmlText(xmlMethod(st.m)), st.m.Size, i, b, i, lvl, stamp(start), body.String(), size, i, b, inlined, stamp(now))
	if t.IsOSR() {
		osr = " compile_kind='osr'" // <nmethod> names no bci
	}
	p.ttyf(xmlThreadID(e.thread), "<nmethod compile_id='%d'%s compiler='%s' level='%d' size='%d' method='%s' bytes='%d' count='%d' iicount='%d' stamp='%s'/>\n",
		t.ID, osr, compiler, t.Level, size, xmlText(xmlMethod(st.m)), st.m.Size, i, i, stamp(now))
}

// xmlIDs numbers the <type>, <klass> and <method> elements of one task,
// writing each the first time it is named, as HotSpot's ciObjects are.
type xmlIDs struct {
	b    *strings.Builder
	ids  map[string]int
	next int
}

func (x *xmlIDs) id(key string, def func(id int)) int {
	if id, ok := x.ids[key]; ok {
		return id
	}
	x.next++
	x.ids[key] = x.next
	def(x.next)
	return x.next
}

// typ returns the id of one descriptor type: a <type> for a primitive, a
// <klass> (dotted) for a class or an array.
func (x *xmlIDs) typ(desc string) int {
	prim := map[byte]string{'B': "byte", 'C': "char", 'D': "double", 'F': "float", 'I': "int", 'J': "long", 'S': "short", 'Z': "boolean", 'V': "void"}
	if name, ok := prim[desc[0]]; ok && len(desc) == 1 {
		return x.id("T"+name, func(id int) { fmt.Fprintf(x.b, "<type id='%d' name='%s'/>\n", id, name) })
	}
	name := desc
	if desc[0] == 'L' {
		name = strings.ReplaceAll(strings.TrimSuffix(desc[1:], ";"), "/", ".")
	}
	return x.klass(name)
}

func (x *xmlIDs) klass(name string) int {
	return x.id("K"+name, func(id int) { fmt.Fprintf(x.b, "<klass id='%d' name='%s' flags='0'/>\n", id, xmlText(name)) })
}

// method returns the id of m's <method>, defining it (and the types it
// names) the first time.
func (x *xmlIDs) method(m *Method) int {
	if id, ok := x.ids["M"+m.Key]; ok {
		return id
	}
	params, ret := splitDescriptor(m.Descriptor)
	r := x.typ(ret)
	var args []string
	for _, p := range params {
		args = append(args, fmt.Sprint(x.typ(p)))
	}
	holder := x.klass(m.Class)
	flags := 0
	if m.Static {
		flags = 8 // ACC_STATIC
	}
	return x.id("M"+m.Key, func(id int) {
		fmt.Fprintf(x.b, "<method id='%d' holder='%d' name='%s' return='%d' arguments='%s' flags='%d' bytes='%d'/>\n",
			id, holder, xmlText(m.Name), r, strings.Join(args, " "), flags, m.Size)
	})
}

// splitDescriptor splits a method descriptor "(...)R" into its parameter
// types and its return type. The descriptors are the table's own.
func splitDescriptor(d string) (params []string, ret string) {
	end := strings.IndexByte(d, ')')
	if !strings.HasPrefix(d, "(") || end < 0 {
		panic(fmt.Sprintf("BUG: method descriptor %q", d))
	}
	s := d[1:end]
	for len(s) > 0 {
		n := 0
		for s[n] == '[' {
			n++
		}
		if s[n] == 'L' {
			n = strings.IndexByte(s, ';')
		}
		params = append(params, s[:n+1])
		s = s[n+1:]
	}
	return params, d[end+1:]
}
