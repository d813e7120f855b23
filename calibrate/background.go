package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/runtime/model"
)

// The background run: the twin harness's Idle scenario (a GCM cipher's first use, then a
// timed loop of operations that spin and do no crypto) under -XX:+LogCompilation, whose
// compiles after the first Cipher.getInstance are the JVM's own compile work beside a
// workload (model.Background).
const (
	idleIterations      = 75 // of 100 operations of 200 µs: 1.5 s of loop
	idleIterationsQuick = 20
	idleSpinNs          = 200_000
)

// idleArgs are the harness arguments of the background run.
func idleArgs(quick bool) []string {
	n := idleIterations
	if quick {
		n = idleIterationsQuick
	}
	return []string{"Idle", "0", strconv.Itoa(n), "100"}
}

// idleOptions are its VM options; logFile receives the compilation log.
func idleOptions(logFile string) []string {
	return []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "-XX:LogFile=" + logFile,
		"-XX:+PrintCompilation", "-DspinNs=" + strconv.Itoa(idleSpinNs)}
}

// runIdle runs the background run once on the compiled twin: what it printed on stderr and
// its compilation log.
func runIdle(ctx context.Context, prog *jvmharness.Compiled, quick bool) (stderr, log string, err error) {
	dir, err := os.MkdirTemp("", "jitsim-background-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "compilation.log")
	out, err := prog.Run(ctx, idleOptions(file), idleArgs(quick)...)
	if err != nil {
		return "", "", err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", fmt.Errorf("the background run wrote no compilation log: %w", err)
	}
	return string(out.Stderr), string(b), nil
}

// idleCompile is one compile of the log: start and end in seconds of JVM uptime, the
// compiler, and its bytecode bytes (own plus inlined).
type idleCompile struct {
	start, end float64
	compiler   string
	bytes      int
	method     string
}

var xmlAttr = regexp.MustCompile(`(\w+)='([^']*)'`)

func attrs(line string) map[string]string {
	m := map[string]string{}
	for _, a := range xmlAttr.FindAllStringSubmatch(line, -1) {
		m[a[1]] = a[2]
	}
	return m
}

// parseCompileLog reads the <task> and <task_done> elements of a -XX:+LogCompilation log: a
// task with a level of 1 to 3 is C1's, one with none or 4 is C2's. A task the JVM did not
// finish before it exited is left out.
func parseCompileLog(log string) ([]idleCompile, error) {
	var cs []idleCompile
	var cur *idleCompile
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "<task "):
			a := attrs(line)
			start, err1 := strconv.ParseFloat(a["stamp"], 64)
			bytes, err2 := strconv.Atoi(a["bytes"])
			if err1 != nil || err2 != nil || bytes < 0 {
				return nil, fmt.Errorf("compilation log: bad task %q", clip(line))
			}
			compiler := model.WhatCompileC2
			switch a["level"] {
			case "", "4":
			case "1", "2", "3":
				compiler = model.WhatCompileC1
			default:
				return nil, fmt.Errorf("compilation log: task at level %q", a["level"])
			}
			cur = &idleCompile{start: start, compiler: compiler, bytes: bytes, method: a["method"]}
		case strings.HasPrefix(line, "<task_done") && cur != nil:
			a := attrs(line)
			end, err := strconv.ParseFloat(a["stamp"], 64)
			if err != nil || end < cur.start {
				return nil, fmt.Errorf("compilation log: bad task_done %q", clip(line))
			}
			if s := a["inlined_bytes"]; s != "" {
				n, err := strconv.Atoi(s)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("compilation log: bad task_done %q", clip(line))
				}
				cur.bytes += n
			}
			cur.end = end
			cs = append(cs, *cur)
			cur = nil
		}
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("compilation log: no finished compile task")
	}
	return cs, nil
}

// idleReady reads the background run's stderr: the JVM uptime, in seconds, when the first
// Cipher.getInstance returned (the epoch's uptime less jitsim-ready's span).
func idleReady(stderr string) (float64, error) {
	epoch, ready := -1.0, -1.0
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		v, err := strconv.ParseInt(f[1], 10, 64)
		switch {
		case f[0] == "jitsim-epoch" && err == nil && v >= 0:
			epoch = float64(v) / 1e3
		case f[0] == "jitsim-ready" && err == nil && v >= 0:
			ready = float64(v) / 1e9
		}
	}
	if epoch < 0 || ready < 0 {
		return 0, fmt.Errorf("the background run printed no jitsim-epoch or jitsim-ready line:\n%s", clip(stderr))
	}
	return max(epoch-ready, 0), nil
}

// modelled holds the methods jitsim models itself, as the log names them ("CLASS NAME"):
// the method table's rows, of every release.
var modelled = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range bytecode.Rows() {
		m[r.Class+" "+r.Name] = true
	}
	return m
}()

// modelledMethod says whether a logged method ("CLASS NAME DESCRIPTOR") is one jitsim
// models itself.
func modelledMethod(method string) bool {
	f := strings.Fields(method)
	return len(f) >= 2 && modelled[f[0]+" "+f[1]]
}

// backgroundOf turns one background run into the profile's compiles: each compile of code
// jitsim does not model, at its start after the anchor (the first Cipher.getInstance's
// return); one still running then counts with the part of its bytes left, at the anchor.
func backgroundOf(stderr, log string) ([]model.BackgroundCompile, error) {
	anchor, err := idleReady(stderr)
	if err != nil {
		return nil, err
	}
	cs, err := parseCompileLog(log)
	if err != nil {
		return nil, err
	}
	var out []model.BackgroundCompile
	for _, c := range cs {
		if modelledMethod(c.method) || c.end < anchor {
			continue
		}
		bytes, at := c.bytes, c.start-anchor
		if at < 0 {
			if c.end > c.start {
				bytes = int(float64(bytes)*(c.end-anchor)/(c.end-c.start) + 0.5)
			}
			at = 0
		}
		out = append(out, model.BackgroundCompile{At: model.Cost(int64(at*1e6+0.5) * 1_000_000), Compiler: c.compiler, Bytes: bytes})
	}
	slices.SortStableFunc(out, func(a, b model.BackgroundCompile) int { return int(a.At - b.At) })
	return out, nil
}

// backgroundSummary is one run's compiles in numbers.
func backgroundSummary(cs []model.BackgroundCompile) (c1, c2, bytes int, last model.Cost) {
	for _, c := range cs {
		if c.Compiler == model.WhatCompileC1 {
			c1++
		} else {
			c2++
		}
		bytes += c.Bytes
		last = max(last, c.At)
	}
	return
}

// background measures the JVM's background compiles: rounds background runs, the one with the
// median bytes kept. run runs one (tests replay recordings).
func background(ctx context.Context, rounds int, command string, run func(ctx context.Context) (stderr, log string, err error)) (*model.Background, error) {
	var runs [][]model.BackgroundCompile
	for i := 0; i < rounds; i++ {
		stderr, log, err := run(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return nil, fmt.Errorf("background run: %w", err)
		}
		cs, err := backgroundOf(stderr, log)
		if err != nil {
			return nil, fmt.Errorf("background run: %w", err)
		}
		runs = append(runs, cs)
	}
	total := func(cs []model.BackgroundCompile) int { _, _, b, _ := backgroundSummary(cs); return b }
	slices.SortStableFunc(runs, func(a, b []model.BackgroundCompile) int { return total(a) - total(b) })
	kept := runs[len(runs)/2]
	c1, c2, bytes, last := backgroundSummary(kept)
	b := &model.Background{Source: fmt.Sprintf("`%s`: %d C1 and %d C2 compiles of code jitsim does not model, %d bytecode bytes (own and inlined), "+
		"started up to %.0f ms after the first Cipher.getInstance returned; of %d runs the one of median bytes (%d–%d)",
		command, c1, c2, bytes, last.Duration().Seconds()*1e3, len(runs), total(runs[0]), total(runs[len(runs)-1]))}
	for _, c := range kept {
		b.Compiles = append(b.Compiles, model.FormatBackgroundCompile(c))
	}
	if _, err := b.Parse(); err != nil {
		return nil, fmt.Errorf("BUG: calibrate: %w", err)
	}
	return b, nil
}
