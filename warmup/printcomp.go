package warmup

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// CompileKind says what a -XX:+PrintCompilation line reports.
type CompileKind string

// The kinds of PrintCompilation lines. HotSpot prints a task when a
// compiler thread takes it (CompileBroker::invoke_compiler_on_method) and
// prints it again, with a message, when its code changes state
// (nmethod::make_not_entrant, the sweeper's zombies up to JDK 19) or when the
// compile fails.
const (
	CompileTask       CompileKind = "compile"     // a compile began (no message, or "(static)" for a native wrapper)
	CompileNotEntrant CompileKind = "not-entrant" // "made not entrant", JDK 21+ adds ": <reason>"
	CompileZombie     CompileKind = "zombie"      // "made zombie" (JDK ≤ 19)
	CompileSkipped    CompileKind = "skipped"     // "COMPILE SKIPPED: <reason>"
)

// CompileRecord is one line of a -XX:+PrintCompilation log, in the layout of
// CompileTask::print_impl (src/hotspot/share/compiler/compileTask.cpp;
// compileBroker.cpp's print_compilation in JDK 8): time stamp in ms since
// VM start, compile id, the attribute characters, the tier, the method,
// "@ bci" for an OSR compile, the bytecode size, and a message.
type CompileRecord struct {
	Line    int           `json:"line"`
	At      time.Duration `json:"at_ns"` // since VM start; the log's resolution is 1 ms
	ID      int           `json:"compile_id"`
	Attrs   string        `json:"attrs,omitempty"` // those of "%sbn!" the line shows: % OSR, s synchronized, ! handlers, b blocking, n native
	Level   int           `json:"level"`           // tier 0–4; -1 without tiered compilation (no column, or "-")
	Method  string        `json:"method"`          // "pkg.Class::name" as HotSpot prints it
	BCI     int           `json:"bci"`             // OSR entry bci; -1 for a normal compile
	Size    int           `json:"size"`            // bytecode bytes; -1 for a native wrapper or when absent
	Kind    CompileKind   `json:"kind"`
	Message string        `json:"message,omitempty"`

	tierColumn bool // the line has a tier column (a level or "-")
}

// OSR reports whether the record is an on-stack-replacement compile.
func (r CompileRecord) OSR() bool { return strings.Contains(r.Attrs, "%") }

// CompileLog is a -XX:+PrintCompilation log read by ParsePrintCompilation:
// its records, and how many lines were skipped. Lines of other output
// (the program's, other -XX:+Print… flags') are expected and only counted;
// Garbled counts lines that begin like a record, with a time stamp and a
// compile id, whose rest does not parse — typically two threads' output
// interleaved on one line.
type CompileLog struct {
	Name    string          `json:"name"`
	File    string          `json:"file"`
	Lines   int             `json:"lines"`
	Records []CompileRecord `json:"records"`
	Other   int             `json:"other_lines"`
	Garbled int             `json:"garbled_lines"`
}

// maxLogLine bounds one line of a PrintCompilation log; HotSpot's lines are
// a few hundred bytes at most (a method name with a MethodHandle signature).
const maxLogLine = 64 << 10

// maxStampMillis keeps At = stamp·1 ms inside a time.Duration.
const maxStampMillis = int64(1<<63-1) / int64(time.Millisecond)

// ParsePrintCompilation reads a -XX:+PrintCompilation log captured from a
// JVM (JDK 8's layout and that of 11+: padded or unpadded stamps, with or
// without a tier column, "made not entrant" with or without a reason,
// "made zombie", "COMPILE SKIPPED: …"), leniently: lines that are not
// records are counted and skipped. name is the log's name in the study and
// file its path, used in errors as "file:line: …". It fails on input that
// is no text log: a NUL byte, a line over 64 KiB, a number too large for
// its field, or no record at all.
func ParsePrintCompilation(r io.Reader, name, file string) (*CompileLog, error) {
	l, err := ReadPrintCompilation(r, name, file)
	if err != nil {
		return nil, err
	}
	if len(l.Records) == 0 {
		return nil, fmt.Errorf("%s:%d: no -XX:+PrintCompilation line in %d line(s) (%d garbled)", file, max(l.Lines, 1), l.Lines, l.Garbled)
	}
	return l, nil
}

// ReadPrintCompilation is ParsePrintCompilation for output that may hold
// no compile at all (a JVM run with -Xint): a log without records is no
// error.
func ReadPrintCompilation(r io.Reader, name, file string) (*CompileLog, error) {
	l := &CompileLog{Name: name, File: file}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLogLine(br)
		if len(line) > 0 || err == nil {
			l.Lines++
			if len(line) > maxLogLine {
				return nil, fmt.Errorf("%s:%d: line longer than %d bytes: not a -XX:+PrintCompilation log", file, l.Lines, maxLogLine)
			}
			if bytes.IndexByte(line, 0) >= 0 {
				return nil, fmt.Errorf("%s:%d: NUL byte: binary data, not a -XX:+PrintCompilation log", file, l.Lines)
			}
			rec, st, perr := parseCompileLine(string(line))
			switch {
			case perr != nil:
				return nil, fmt.Errorf("%s:%d: %v", file, l.Lines, perr)
			case st == lineRecord:
				rec.Line = l.Lines
				l.Records = append(l.Records, rec)
			case st == lineGarbled:
				l.Garbled++
			default:
				l.Other++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, l.Lines+1, err)
		}
	}
	l.dropUntiered()
	return l, nil
}

// dropUntiered moves records without a tier column to Garbled when most
// records of the log have one: a log comes from one VM, tiered or not, and
// a tierless line in a tiered log is one whose start was overwritten (its
// compile id read as the stamp, its tier as the id).
func (l *CompileLog) dropUntiered() {
	tiered := 0
	for _, r := range l.Records {
		if r.tierColumn {
			tiered++
		}
	}
	if 2*tiered <= len(l.Records) {
		return
	}
	kept := l.Records[:0]
	for _, r := range l.Records {
		if r.tierColumn {
			kept = append(kept, r)
		} else {
			l.Garbled++
		}
	}
	l.Records = kept
}

// readLogLine returns the next line without its "\n" or "\r\n"; a line
// longer than the limit comes back cut just past the limit, so the caller
// can refuse it without holding it whole.
func readLogLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		line = append(line, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(line) > maxLogLine {
				return line, nil
			}
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, err
	}
}

type lineState int

const (
	lineOther lineState = iota
	lineRecord
	lineGarbled
)

// logToken is one space-separated word of a line and where it starts.
type logToken struct {
	text string
	at   int
}

func logTokens(s string) []logToken {
	var out []logToken
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, logToken{s[i:j], i})
		}
		i = j
	}
	return out
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// attrToken reports whether s is a run of PrintCompilation attribute
// characters, each at most once.
func attrToken(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("%sbn!", rune(s[i])) || strings.IndexByte(s[:i], s[i]) >= 0 {
			return false
		}
	}
	return true
}

// methodName reports whether s reads as HotSpot's short method name,
// "Class::name" with both parts present, or "(method)" for a task whose
// method is gone.
func methodName(s string) bool {
	c, m, ok := strings.Cut(s, "::")
	return ok && c != "" && m != "" && !strings.Contains(m, "::") || s == "(method)"
}

// parseCompileLine parses one line. The fields are found by words rather
// than by column, so that padded (JDK 8–17) and unpadded (JDK 18+) stamps,
// five-digit compile ids and logs whose runs of spaces were squeezed in
// copying all read alike. An error is returned only for a record whose
// numbers do not fit.
func parseCompileLine(s string) (CompileRecord, lineState, error) {
	rec := CompileRecord{Level: -1, BCI: -1, Size: -1, Kind: CompileTask}
	tok := logTokens(s)
	if len(tok) < 2 || !allDigits(tok[0].text) || !allDigits(tok[1].text) || tok[0].at > 16 {
		return rec, lineOther, nil
	}
	ms, err := strconv.ParseInt(tok[0].text, 10, 64)
	if err != nil || ms > maxStampMillis {
		return rec, lineOther, fmt.Errorf("time stamp %s ms is out of range", tok[0].text)
	}
	id, err := strconv.ParseInt(tok[1].text, 10, 32)
	if err != nil {
		return rec, lineOther, fmt.Errorf("compile id %s is out of range", tok[1].text)
	}
	rec.At, rec.ID = time.Duration(ms)*time.Millisecond, int(id)
	i := 2
	for i < len(tok) && attrToken(tok[i].text) {
		rec.Attrs += tok[i].text
		i++
	}
	if rec.Attrs != "" && !attrToken(rec.Attrs) {
		return rec, lineGarbled, nil
	}
	if i < len(tok) {
		switch t := tok[i].text; {
		case t == "-":
			rec.tierColumn = true
			i++
		case len(t) == 1 && t[0] >= '0' && t[0] <= '4':
			rec.Level, rec.tierColumn = int(t[0]-'0'), true
			i++
		}
	}
	if i >= len(tok) || !methodName(tok[i].text) {
		return rec, lineGarbled, nil
	}
	rec.Method = tok[i].text
	i++
	if i+1 < len(tok) && tok[i].text == "@" && allDigits(tok[i+1].text) {
		bci, err := strconv.ParseInt(tok[i+1].text, 10, 32)
		if err != nil {
			return rec, lineOther, fmt.Errorf("OSR bci %s is out of range", tok[i+1].text)
		}
		rec.BCI = int(bci)
		i += 2
	}
	if rec.OSR() != (rec.BCI >= 0) {
		return rec, lineGarbled, nil // "%" without "@ bci", or the reverse
	}
	switch {
	case i < len(tok) && tok[i].text == "(native)":
		i++
	case i+1 < len(tok) && strings.HasPrefix(tok[i].text, "(") && tok[i+1].text == "bytes)" && allDigits(tok[i].text[1:]):
		n, err := strconv.ParseInt(tok[i].text[1:], 10, 32)
		if err != nil {
			return rec, lineOther, fmt.Errorf("method size %s bytes is out of range", tok[i].text[1:])
		}
		rec.Size = int(n)
		i += 2
	case rec.Method != "(method)":
		// HotSpot always prints the size after a method; without it the
		// line was cut, typically by another thread's output glued on.
		return rec, lineGarbled, nil
	}
	if i < len(tok) {
		rec.Message = strings.TrimSpace(s[tok[i].at:])
	}
	switch m := rec.Message; {
	case strings.HasPrefix(m, "made not entrant"):
		rec.Kind = CompileNotEntrant
	case strings.HasPrefix(m, "made zombie"):
		rec.Kind = CompileZombie
	case strings.HasPrefix(m, "COMPILE SKIPPED"):
		rec.Kind = CompileSkipped
	}
	return rec, lineRecord, nil
}

// CryptoMethod reports whether a method belongs to the JDK's crypto code
// whose warm-up jitsim models: the SunJCE provider (com.sun.crypto.provider)
// and javax.crypto.
func CryptoMethod(m string) bool {
	return strings.HasPrefix(m, "com.sun.crypto.provider.") || strings.HasPrefix(m, "javax.crypto.")
}

// Crypto returns the records of crypto methods (CryptoMethod).
func (l *CompileLog) Crypto() []CompileRecord {
	var out []CompileRecord
	for _, r := range l.Records {
		if CryptoMethod(r.Method) {
			out = append(out, r)
		}
	}
	return out
}

// ImportSummary is what summary.json says about an imported log.
type ImportSummary struct {
	Name          string `json:"name"`
	File          string `json:"file"`
	Lines         int    `json:"lines"`
	Records       int    `json:"records"`
	CryptoRecords int    `json:"crypto_records"`
	Other         int    `json:"other_lines"`
	Garbled       int    `json:"garbled_lines"`
}

// Summary returns the log's counts.
func (l *CompileLog) Summary() ImportSummary {
	return ImportSummary{Name: l.Name, File: l.File, Lines: l.Lines, Records: len(l.Records),
		CryptoRecords: len(l.Crypto()), Other: l.Other, Garbled: l.Garbled}
}
