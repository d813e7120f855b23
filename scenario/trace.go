package scenario

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	jrt "github.com/jitsim/jitsim/runtime"
)

// A trace is a CSV file of Cipher operations, one a line, replayed per
// thread in order:
//
//	thread,at_us,op,transformation,key_size,size,aad_size
//	0,0,encrypt,AES/GCM/NoPadding,128,16384,13
//	1,12.5,decrypt,AES/CBC/PKCS5Padding,256,1024,0
//
// thread is 0 to 255; at_us the operation's offset from the start of the
// replay in microseconds, never decreasing within a thread; op encrypt or
// decrypt; sizes in bytes. Lines starting with # and blank lines are
// skipped. The file is streamed, never held whole: it is read once to
// check it and once per replaying thread.

// TraceHeader is the first line of every trace.
const TraceHeader = "thread,at_us,op,transformation,key_size,size,aad_size"

// maxTraceLine bounds one line of a trace.
const maxTraceLine = 4096

// traceOp is one line of a trace.
type traceOp struct {
	line    int
	thread  int
	at      time.Duration
	decrypt bool
	mode    int // index in workloadModes
	keyBits int
	size    int
	aad     int
}

// traceReader reads a trace's lines.
type traceReader struct {
	path  string
	sc    *bufio.Scanner
	line  int
	limit int64 // sizes up to this need no CheckMessageSize
}

// newTraceReader reads the header of the trace in r.
func newTraceReader(path string, r io.Reader) (*traceReader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxTraceLine)
	limit, err := jrt.MaxMessageBytes()
	if err != nil {
		return nil, err
	}
	t := &traceReader{path: path, sc: sc, limit: limit}
	text, ok, err := t.scan()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, &FileError{Path: path, Line: t.line, Msg: "empty trace: want the header " + TraceHeader}
	case text != TraceHeader:
		return nil, &FileError{Path: path, Line: t.line, Msg: fmt.Sprintf("header %q: want %s", text, TraceHeader)}
	}
	return t, nil
}

// scan returns the next line that is neither blank nor a comment.
func (t *traceReader) scan() (string, bool, error) {
	for t.sc.Scan() {
		t.line++
		text := strings.TrimSpace(t.sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		return text, true, nil
	}
	if err := t.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return "", false, &FileError{Path: t.path, Line: t.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxTraceLine)}
		}
		return "", false, fmt.Errorf("%s: %w", t.path, err)
	}
	return "", false, nil
}

// next returns the next operation, or io.EOF.
func (t *traceReader) next() (traceOp, error) {
	text, ok, err := t.scan()
	if err != nil {
		return traceOp{}, err
	}
	if !ok {
		return traceOp{}, io.EOF
	}
	return t.parse(text)
}

// parse parses the line just read.
func (t *traceReader) parse(text string) (traceOp, error) {
	op := traceOp{line: t.line}
	fail := func(format string, a ...any) (traceOp, error) {
		return traceOp{}, &FileError{Path: t.path, Line: t.line, Msg: fmt.Sprintf(format, a...)}
	}
	f := strings.Split(text, ",")
	if len(f) != 7 {
		return fail("%d fields, want 7 (%s)", len(f), TraceHeader)
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 || n >= maxWorkloadThreads {
		return fail("thread %q: want 0 to %d", f[0], maxWorkloadThreads-1)
	}
	op.thread = n
	us, err := strconv.ParseFloat(f[1], 64)
	if err != nil || math.IsNaN(us) || us < 0 || us > float64(maxWorkloadDuration/time.Microsecond) {
		return fail("at_us %q: want microseconds from 0 to %d", f[1], maxWorkloadDuration/time.Microsecond)
	}
	op.at = time.Duration(us * 1e3)
	switch f[2] {
	case "encrypt":
	case "decrypt":
		op.decrypt = true
	default:
		return fail("op %q: want encrypt or decrypt", f[2])
	}
	op.mode = -1
	for i, m := range workloadModes {
		if strings.EqualFold(m.transformation, f[3]) {
			op.mode = i
		}
	}
	if op.mode < 0 {
		var names []string
		for _, m := range workloadModes {
			names = append(names, m.transformation)
		}
		return fail("transformation %q: want one of %s", f[3], strings.Join(names, ", "))
	}
	m := workloadModes[op.mode]
	if op.keyBits, err = strconv.Atoi(f[4]); err != nil || (op.keyBits != 128 && op.keyBits != 192 && op.keyBits != 256) {
		return fail("key_size %q: want 128, 192 or 256", f[4])
	}
	for _, s := range []struct {
		name string
		text string
		dst  *int
	}{{"size", f[5], &op.size}, {"aad_size", f[6], &op.aad}} {
		v, err := strconv.ParseInt(s.text, 10, 64)
		if err != nil || v < 0 {
			return fail("%s %q: want a byte count", s.name, s.text)
		}
		if v > t.limit {
			if err := jrt.CheckMessageSize(s.name, v); err != nil {
				return fail("%v", err)
			}
		}
		*s.dst = int(v)
	}
	if m.blocks && op.size%16 != 0 {
		return fail("size %d: %s takes whole 16-byte blocks", op.size, m.transformation)
	}
	if op.aad > 0 && m.mode != "GCM" {
		return fail("aad_size %d: %s takes no AAD", op.aad, m.transformation)
	}
	return op, nil
}

// traceShape is a kind of decryption a trace asks for: its inputs are
// encrypted before the replay.
type traceShape struct {
	mode, keyBits, size, aad int
}

// Trace limits: the distinct decryption shapes, and the bytes of their
// prepared messages.
const (
	maxTraceShapes      = 4096
	maxTraceShapeBytes  = 64 << 20
	traceOpenBufferSize = 64 << 10
)

// Trace is a checked trace file: its threads, each thread's largest
// message and AAD, and the decryption shapes it needs.
type Trace struct {
	Path    string
	Ops     int64
	threads int
	maxSize []int // per thread
	maxAAD  []int
	shapes  map[traceShape]int // → index in the order first seen
	order   []traceShape
	open    func() (io.ReadCloser, error)
}

// IsTrace reports whether data starts (after comments) with the trace
// header.
func IsTrace(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(l))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		return s == TraceHeader
	}
	return false
}

// IsTraceFile reports whether the file at path is a trace.
func IsTraceFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, traceOpenBufferSize)
	n, _ := io.ReadFull(f, head)
	return IsTrace(head[:n])
}

// LoadTrace checks the trace file at path, streaming it once.
func LoadTrace(path string) (*Trace, error) {
	return NewTrace(path, func() (io.ReadCloser, error) { return os.Open(path) })
}

// NewTrace checks the trace that open streams (named path in errors).
func NewTrace(path string, open func() (io.ReadCloser, error)) (*Trace, error) {
	rc, err := open()
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	defer rc.Close()
	rd, err := newTraceReader(path, bufio.NewReaderSize(rc, traceOpenBufferSize))
	if err != nil {
		return nil, err
	}
	t := &Trace{Path: path, shapes: map[traceShape]int{}, open: open}
	var last []time.Duration
	var shapeBytes int64
	for {
		op, err := rd.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for op.thread >= t.threads {
			t.threads++
			t.maxSize, t.maxAAD, last = append(t.maxSize, 0), append(t.maxAAD, 0), append(last, 0)
		}
		if op.at < last[op.thread] {
			return nil, &FileError{Path: path, Line: op.line, Msg: fmt.Sprintf("at_us goes back in time for thread %d (%s after %s)", op.thread, op.at, last[op.thread])}
		}
		last[op.thread] = op.at
		t.maxSize[op.thread] = max(t.maxSize[op.thread], op.size)
		t.maxAAD[op.thread] = max(t.maxAAD[op.thread], op.aad)
		if op.decrypt {
			s := traceShape{op.mode, op.keyBits, op.size, op.aad}
			if _, ok := t.shapes[s]; !ok {
				shapeBytes += int64(2*op.size + op.aad + 64)
				if len(t.shapes) >= maxTraceShapes || shapeBytes > maxTraceShapeBytes {
					return nil, &FileError{Path: path, Line: op.line, Msg: fmt.Sprintf("more than %d distinct decryptions (transformation, key, sizes) or %d bytes of them: jitsim prepares one message for each", maxTraceShapes, maxTraceShapeBytes)}
				}
				t.shapes[s] = len(t.order)
				t.order = append(t.order, s)
			}
		}
		t.Ops++
	}
	if t.Ops == 0 {
		return nil, &FileError{Path: path, Line: rd.line, Msg: "the trace has no operations"}
	}
	var per int64
	for i := range t.threads {
		per += int64(3*t.maxSize[i] + t.maxAAD[i] + 128)
	}
	if per > maxPhaseBuffers {
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("its threads would hold %d bytes of arrays, over jitsim's %d-byte bound", per, maxPhaseBuffers)}
	}
	return t, nil
}
