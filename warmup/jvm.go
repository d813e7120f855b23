package warmup

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// How does a real JVM's run become a series? The harness program beside a study
// (jvmharness.Bench, run with -XX:+PrintCompilation) prints, besides the JVM's compile
// lines,
//
//	jitsim-epoch UPTIME_MS        the JVM's uptime when its loop starts
//	jitsim-iter I START_NS DUR_NS one line per iteration, on System.nanoTime from the loop's start
//	jitsim-iter I START_NS DUR_NS BYTES
//	                              the same with the iteration's payload bytes (a trace replay's
//	                              operations differ in size)
//	jitsim-cpu I CPU_NS           after iteration I's line: the loop thread's CPU time over it
//	                              (optional; the JVM's ThreadMXBean)
//
// and lines of its own this reader does not use (jitsim-check, jitsim-sink), which it skips.
// ParseJVMOutput turns that output into a Run: iterations from the jitsim-iter lines, events
// from the compile lines of the provider's methods (stamped from the loop's start), and each
// iteration's entry level per method.

// ParseJVMOutput reads the harness program's lines and PrintCompilation's (in any order:
// stdout and stderr joined) into a series of iterations of ops operations of bytesPerOp bytes
// each. Only Iterations and Methods are set; the caller names the run.
func ParseJVMOutput(out []byte, ops, bytesPerOp int64) (Run, error) {
	var run Run
	epoch := time.Duration(-1)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var compiles bytes.Buffer // the other lines: PrintCompilation's, or anything the JVM printed
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "jitsim-epoch":
			ms, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return run, fmt.Errorf("bad line %q", line)
			}
			epoch = time.Duration(ms) * time.Millisecond
		case (len(f) == 4 || len(f) == 5) && f[0] == "jitsim-iter":
			var v [4]int64
			v[3] = ops * bytesPerOp
			for i := range f[1:] {
				n, err := strconv.ParseInt(f[i+1], 10, 64)
				if err != nil || (i == 3 && n < 0) {
					return run, fmt.Errorf("bad line %q", line)
				}
				v[i] = n
			}
			run.Iterations = append(run.Iterations, Iteration{Index: int(v[0]), Start: time.Duration(v[1]), Duration: time.Duration(v[2]), Ops: ops, Bytes: v[3]})
		case len(f) == 3 && f[0] == "jitsim-cpu":
			i, err1 := strconv.Atoi(f[1])
			ns, err2 := strconv.ParseInt(f[2], 10, 64)
			last := len(run.Iterations) - 1
			if err1 != nil || err2 != nil || ns < 0 || last < 0 || run.Iterations[last].Index != i {
				return run, fmt.Errorf("bad line %q (a jitsim-cpu line follows its iteration's jitsim-iter line)", line)
			}
			run.Iterations[last].CPU = time.Duration(ns)
		case len(f) > 0 && (f[0] == "jitsim-check" || f[0] == "jitsim-sink"):
		default:
			compiles.WriteString(line)
			compiles.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return run, fmt.Errorf("reading the JVM's output: %w", err)
	}
	if epoch < 0 || len(run.Iterations) == 0 {
		return run, fmt.Errorf("the program printed no iterations")
	}
	log, err := ReadPrintCompilation(&compiles, "java", "the JVM's -XX:+PrintCompilation output")
	if err != nil {
		return run, err
	}
	var events []Event
	for _, rec := range log.Crypto() {
		// A task line is stamped when the compile starts; its code is
		// installed a compile's duration later, which the log does not say.
		// Without tiered compilation the log has no tier: the server VM's
		// only JIT is then C2, level 4.
		level := rec.Level
		if level < 0 {
			level = 4
		}
		// Stamps are ms since JVM start; the series' clock starts at the
		// loop, whose uptime the program printed.
		e := Event{Kind: EventInstalled, Method: rec.Method, Level: level, At: rec.At - epoch, CompileID: rec.ID, BCI: max(rec.BCI, 0)}
		switch {
		case rec.Kind == CompileNotEntrant || rec.Kind == CompileZombie:
			e.Kind, e.Detail = EventNotEntrant, rec.Message
		case rec.Kind == CompileSkipped:
			continue
		case rec.OSR():
			e.Kind = EventOSR
		}
		events = append(events, e)
	}
	// Entry levels: a method's latest normal-entry install (the
	// interpreter, 0, before its first) at each iteration's end.
	level := map[string]int{}
	sort.SliceStable(events, func(i, j int) bool { return events[i].At < events[j].At })
	k := 0
	for i := range run.Iterations {
		end := run.Iterations[i].Start + run.Iterations[i].Duration
		for ; k < len(events) && events[k].At <= end; k++ {
			if events[k].Kind == EventInstalled {
				level[events[k].Method] = events[k].Level
			}
		}
		lv := map[string]int{}
		for _, e := range events {
			lv[e.Method] = level[e.Method]
		}
		run.Iterations[i].Levels = lv
	}
	run.File(events, nil)
	return run, nil
}

// File finishes a recorded series: it follows the methods in follow and every method with an
// event (r.Methods, sorted), keeps only their levels in each iteration, and files each event,
// in time order, under the first iteration that ends at or after it (an event between two
// iterations goes to the next one; one after the last iteration to the last).
func (r *Run) File(events []Event, follow []string) {
	keep := map[string]bool{}
	for _, m := range follow {
		keep[m] = true
	}
	for _, e := range events {
		keep[e.Method] = true
	}
	r.Methods = nil
	for m := range keep {
		r.Methods = append(r.Methods, m)
	}
	sort.Strings(r.Methods)
	for i := range r.Iterations {
		lv := map[string]int{}
		for m, l := range r.Iterations[i].Levels {
			if keep[m] {
				lv[m] = l
			}
		}
		r.Iterations[i].Levels = lv
	}
	n := len(r.Iterations)
	sort.SliceStable(events, func(i, j int) bool { return events[i].At < events[j].At })
	for _, e := range events {
		if n == 0 {
			break
		}
		// The first iteration that ends at or after the event.
		i := sort.Search(n, func(i int) bool { return r.Iterations[i].Start+r.Iterations[i].Duration >= e.At })
		i = min(i, n-1)
		r.Iterations[i].Events = append(r.Iterations[i].Events, e)
	}
}
