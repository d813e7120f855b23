// Package warmup holds the study tools of jitsim that need no VM: the
// per-iteration series a run records, changepoint detection (PELT),
// warmup_stats-style classification of a run into flat / warmup / slowdown /
// no steady state, the importer of HotSpot -XX:+PrintCompilation logs, the
// reader of a real JVM's run beside a study (ParseJVMOutput), and the
// writers for series.csv, summary.json, warmup.png, warmup.svg,
// timeline.png, timeline.svg (the compile timeline), report.html and the
// terminal summary. docs/warmup.md says how to use them.
//
// The package takes plain data: the VM (runtime) fills a [Run] while it runs a
// scenario; nothing here imports runtime.
package warmup

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jitsim/jitsim/internal/jsonpos"
)

// EventKind names what happened to a method's code during an iteration. The
// kinds follow HotSpot's compile life cycle (CompileBroker::compile_method,
// nmethod::make_not_entrant) plus the first call that reached a native stub.
type EventKind string

// The event kinds a Run can carry.
const (
	EventQueued     EventKind = "queued"      // a compile task was put on a queue
	EventStarted    EventKind = "started"     // a compiler thread took the task
	EventInstalled  EventKind = "installed"   // new code installed: a tier transition
	EventNotEntrant EventKind = "not-entrant" // old code made not entrant
	EventOSR        EventKind = "osr"         // an OSR version was installed (bci in BCI)
	EventFirstStub  EventKind = "first-stub"  // the first call that ran an intrinsic stub
)

var eventKinds = map[EventKind]bool{EventQueued: true, EventStarted: true, EventInstalled: true,
	EventNotEntrant: true, EventOSR: true, EventFirstStub: true}

// Event is one thing that happened to one method, stamped on the run's clock.
type Event struct {
	Kind      EventKind     `json:"kind"`
	Method    string        `json:"method"`
	Level     int           `json:"level"`
	At        time.Duration `json:"at_ns"`
	CompileID int           `json:"compile_id,omitempty"`
	BCI       int           `json:"bci,omitempty"`
	Detail    string        `json:"detail,omitempty"` // stub name, not-entrant reason, …
}

// Iteration is one row of a series: one benchmark iteration (or one fixed
// batch of operations) on the run's clock.
type Iteration struct {
	Index    int            `json:"index"`
	Start    time.Duration  `json:"start_ns"`
	Duration time.Duration  `json:"duration_ns"`
	Ops      int64          `json:"ops"`             // operations in the iteration; 0 is read as 1
	Bytes    int64          `json:"bytes,omitempty"` // payload bytes processed
	Levels   map[string]int `json:"levels,omitempty"`
	Events   []Event        `json:"events,omitempty"`
	// CPU is the running thread's CPU time over the iteration where the run reports it (a
	// real JVM's harness program); 0 otherwise.
	CPU time.Duration `json:"cpu_ns,omitempty"`
}

// ops is the operation count with the documented default.
func (it Iteration) ops() int64 {
	if it.Ops <= 0 {
		return 1
	}
	return it.Ops
}

// PerOp is the iteration's time per operation in seconds, the unit the
// analysis works in (warmup_stats works on seconds too).
func (it Iteration) PerOp() float64 {
	return it.Duration.Seconds() / float64(it.ops())
}

// Run is one series: one fork of one option set.
type Run struct {
	Label      string      `json:"label"` // the option set, e.g. "-XX:-UseAESIntrinsics"
	Fork       int         `json:"fork"`
	Scenario   string      `json:"scenario,omitempty"`
	Flags      []string    `json:"flags,omitempty"`
	CPU        string      `json:"cpu,omitempty"`
	JDK        string      `json:"jdk,omitempty"`
	Clock      string      `json:"clock,omitempty"` // "wall" or "model"
	Methods    []string    `json:"methods,omitempty"`
	Iterations []Iteration `json:"iterations"`
}

// PerOp returns the time per operation of every iteration, in seconds.
func (r Run) PerOp() []float64 {
	v := make([]float64, len(r.Iterations))
	for i, it := range r.Iterations {
		v[i] = it.PerOp()
	}
	return v
}

// Validate reports the first thing wrong with r, naming the run and iteration.
func (r Run) Validate() error {
	name := fmt.Sprintf("run %q fork %d", r.Label, r.Fork)
	if len(r.Iterations) == 0 {
		return fmt.Errorf("warmup: %s: no iterations", name)
	}
	for i, it := range r.Iterations {
		if it.Duration < 0 {
			return fmt.Errorf("warmup: %s: iteration %d: negative duration %v", name, i, it.Duration)
		}
		if i > 0 && it.Start < r.Iterations[i-1].Start {
			return fmt.Errorf("warmup: %s: iteration %d starts before iteration %d", name, i, i-1)
		}
		for _, e := range it.Events {
			if !eventKinds[e.Kind] {
				return fmt.Errorf("warmup: %s: iteration %d: unknown event kind %q", name, i, e.Kind)
			}
		}
	}
	return nil
}

// WriteJSON writes runs as one indented JSON array.
func WriteJSON(w io.Writer, runs []Run) error {
	if runs == nil {
		runs = []Run{} // no runs is an empty array, which ReadJSON reads back, not null
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(runs)
}

// ReadJSON reads what WriteJSON wrote. file names the input in errors,
// "FILE:LINE: …" at the offending value (a run that fails Validate: at the
// run's first line).
func ReadJSON(r io.Reader, file string) ([]Run, error) {
	in, err := jsonpos.Read(r, file, "series JSON")
	if err != nil {
		return nil, err
	}
	in.Dec.DisallowUnknownFields()
	if err := in.Delim('[', "series JSON: want an array of runs: "); err != nil {
		return nil, err
	}
	var runs []Run
	for i := 1; in.Dec.More(); i++ {
		start := in.Next()
		var run Run
		if err := in.Decode(fmt.Sprintf("series JSON: run %d: ", i), &run); err != nil {
			return nil, err
		}
		if err := run.Validate(); err != nil {
			return nil, in.Errorf(start, "%v", err)
		}
		runs = append(runs, run)
	}
	if err := in.End("the array of runs"); err != nil {
		return nil, err
	}
	return runs, nil
}

// csvFixed are the leading columns of series.csv; one "level:<method>"
// column per hot method and a final "events" column (a JSON array) follow.
var csvFixed = []string{"label", "fork", "index", "start_ns", "duration_ns", "ops", "bytes", "ns_per_op"}

// methodUnion is the sorted union of all methods named in runs.
func methodUnion(runs []Run) []string {
	set := map[string]bool{}
	for _, r := range runs {
		for _, m := range r.Methods {
			set[m] = true
		}
		for _, it := range r.Iterations {
			for m := range it.Levels {
				set[m] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for m := range set {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// WriteCSV writes every iteration of every run as one CSV row. A method's
// level cell is empty when the iteration did not record it.
func WriteCSV(w io.Writer, runs []Run) error {
	methods := methodUnion(runs)
	cw := csv.NewWriter(w)
	head := append([]string{}, csvFixed...)
	for _, m := range methods {
		head = append(head, "level:"+m)
	}
	head = append(head, "events")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range runs {
		for _, it := range r.Iterations {
			row := []string{r.Label, strconv.Itoa(r.Fork), strconv.Itoa(it.Index),
				strconv.FormatInt(int64(it.Start), 10), strconv.FormatInt(int64(it.Duration), 10),
				strconv.FormatInt(it.Ops, 10), strconv.FormatInt(it.Bytes, 10),
				strconv.FormatFloat(it.PerOp()*1e9, 'g', -1, 64)}
			for _, m := range methods {
				if lv, ok := it.Levels[m]; ok {
					row = append(row, strconv.Itoa(lv))
				} else {
					row = append(row, "")
				}
			}
			ev := ""
			if len(it.Events) > 0 {
				b, err := json.Marshal(it.Events)
				if err != nil {
					return err
				}
				ev = string(b)
			}
			row = append(row, ev)
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads series.csv back into runs (label, fork and iterations; the
// per-run metadata lives in the JSON form only). Runs come back in the order
// their first row appears. file names the input in errors, "FILE:LINE: …"
// (a run that fails Validate: at the line of its first row); at most
// jsonpos.MaxBytes are read.
func ReadCSV(r io.Reader, file string) ([]Run, error) {
	lim := &io.LimitedReader{R: r, N: jsonpos.MaxBytes + 1}
	cr := csv.NewReader(lim)
	cr.ReuseRecord = false
	head, err := cr.Read()
	if err != nil {
		return nil, csvError(file, 1, err)
	}
	bad := func(line int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: series CSV: %s", file, line, fmt.Sprintf(format, a...))
	}
	if len(head) < len(csvFixed)+1 {
		return nil, bad(1, "header has %d columns, want at least %d", len(head), len(csvFixed)+1)
	}
	for i, c := range csvFixed {
		if head[i] != c {
			return nil, bad(1, "column %d is %q, want %q", i+1, head[i], c)
		}
	}
	if head[len(head)-1] != "events" {
		return nil, bad(1, "last column is %q, want \"events\"", head[len(head)-1])
	}
	var methods []string
	for _, c := range head[len(csvFixed) : len(head)-1] {
		m, ok := strings.CutPrefix(c, "level:")
		if !ok || m == "" {
			return nil, bad(1, "column %q is not level:<method>", c)
		}
		methods = append(methods, m)
	}
	type key struct {
		label string
		fork  int
	}
	index := map[key]int{}
	var runs []Run
	firstLine := map[int]int{} // run → the line of its first row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			if lim.N <= 0 {
				return nil, fmt.Errorf("%s: more than %d MiB of series CSV: not read", file, jsonpos.MaxBytes>>20)
			}
			break
		}
		if err != nil {
			return nil, csvError(file, 0, err)
		}
		line, _ := cr.FieldPos(0)
		badCol := func(i int, col string, e error) error {
			l, _ := cr.FieldPos(i)
			return bad(l, "column %s: %v", col, e)
		}
		ints := make([]int64, 6)
		for i := 1; i <= 6; i++ {
			v, err := strconv.ParseInt(rec[i], 10, 64)
			if err != nil {
				return nil, badCol(i, csvFixed[i], err)
			}
			ints[i-1] = v
		}
		it := Iteration{Index: int(ints[1]), Start: time.Duration(ints[2]), Duration: time.Duration(ints[3]),
			Ops: ints[4], Bytes: ints[5]}
		for j, m := range methods {
			cell := rec[len(csvFixed)+j]
			if cell == "" {
				continue
			}
			lv, err := strconv.Atoi(cell)
			if err != nil {
				return nil, badCol(len(csvFixed)+j, "level:"+m, err)
			}
			if it.Levels == nil {
				it.Levels = map[string]int{}
			}
			it.Levels[m] = lv
		}
		if ev := rec[len(rec)-1]; ev != "" {
			if err := json.Unmarshal([]byte(ev), &it.Events); err != nil {
				return nil, badCol(len(rec)-1, "events", err)
			}
		}
		k := key{rec[0], int(ints[0])}
		ri, ok := index[k]
		if !ok {
			ri = len(runs)
			index[k] = ri
			firstLine[ri] = line
			runs = append(runs, Run{Label: k.label, Fork: k.fork})
		}
		runs[ri].Iterations = append(runs[ri].Iterations, it)
	}
	for i := range runs {
		ms := map[string]bool{}
		for _, it := range runs[i].Iterations {
			for m := range it.Levels {
				ms[m] = true
			}
		}
		for _, m := range methods {
			if ms[m] {
				runs[i].Methods = append(runs[i].Methods, m)
			}
		}
		if err := runs[i].Validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, firstLine[i], err)
		}
	}
	return runs, nil
}

// csvError names the line of a CSV reader's error (a csv.ParseError
// carries it; otherwise line, or none when 0).
func csvError(file string, line int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: series CSV: %v", file, pe.Line, pe.Err)
	}
	if err == io.EOF {
		return fmt.Errorf("%s:1: series CSV: empty, no header", file)
	}
	if line > 0 {
		return fmt.Errorf("%s:%d: series CSV: %v", file, line, err)
	}
	return fmt.Errorf("%s: series CSV: %v", file, err)
}
