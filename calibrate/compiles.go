package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/runtime/model"
)

// The compile-time run: the Cost harness over the primitives (ECB both ways, the JDK's own
// GHASH, CTR) at the JVM's default flags, with -XX:+PrintCompilation (each compile's method
// and bytecode size) and a flight recording of the JVM's jdk.Compilation events (each
// compile's duration, compiler and inlined bytes). Its compiles — the primitives' own methods
// at every level they reach, and the JDK's code around them, some hundreds a run — price each
// compiler by a fixed part per compile and a part per byte, and the model's methods by their
// own (model.CompileTime). A JVM without flight recording, or without the jfr tool beside it,
// keeps -XX:+CITime's speed.

// compileRunName names the run in progress reports and row sources.
const compileRunName = "compile-times"

// compileModes are the primitives the run loops over: what compiles the model's methods.
var compileModes = []string{"ecb-enc", "ecb-dec", model.GHASHMode, "ctr"}

// compileRun is the harness run whose compiles are timed.
func compileRun() jvmRun {
	return jvmRun{name: compileRunName, options: []string{openGHASH, "-XX:+PrintCompilation"}, modes: compileModes}
}

// recordingOptions are the VM options that record the compiles' jdk.Compilation events into
// file: no other event, every compile however short.
func recordingOptions(file string) []string {
	return []string{"-XX:StartFlightRecording=filename=" + file + ",settings=none,+jdk.Compilation#enabled=true,+jdk.Compilation#threshold=0ms"}
}

// minCompiles is how many timed compiles of one compiler a fit needs.
const minCompiles = 20

// jfrTool is the jfr command of the JDK whose java is java.
func jfrTool(java string) (string, error) {
	p, err := exec.LookPath(java)
	if err != nil {
		return "", err
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return "", err
	}
	tool := filepath.Join(filepath.Dir(p), "jfr")
	if _, err := os.Stat(tool); err != nil {
		return "", fmt.Errorf("no jfr tool beside %s", p)
	}
	return tool, nil
}

// runCompiles runs the compile-time run once on the compiled Cost program: its stdout and the
// recording's jdk.Compilation events as `jfr print --json` prints them.
func runCompiles(ctx context.Context, prog *jvmharness.Compiled, tool string, opts []string) (stdout, events string, err error) {
	dir, err := os.MkdirTemp("", "jitsim-compiles-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "compiles.jfr")
	out, err := prog.Run(ctx, append(recordingOptions(file), opts...))
	if err != nil {
		return "", "", err
	}
	js, err := exec.CommandContext(ctx, tool, "print", "--json", "--events", "jdk.Compilation", file).Output()
	if err != nil {
		return "", "", fmt.Errorf("%s print --json: %w", tool, err)
	}
	return string(out.Stdout), string(js), nil
}

// printedCompile is one compile as -XX:+PrintCompilation printed its start.
type printedCompile struct {
	method string // "com.sun.crypto.provider.GHASH::blockMult"
	bytes  int
}

// printCompilationLine is a compile's start: "  TIME ID FLAGS LEVEL METHOD [@ BCI] (N bytes)"
// and nothing after it (a "made not entrant" line repeats an id).
var printCompilationLine = regexp.MustCompile(`^\s*\d+\s+(\d+)\s+[%sbn!]*\s*\d?\s+(\S+::\S+)(?: @ \d+)?\s+\((\d+) bytes\)\s*$`)

// maxMethodBytes bounds a printed method size: the class file format allows 65535 bytes of
// code per method.
const maxMethodBytes = 65535

// parsePrintedCompiles reads the compiles' starts of a -XX:+PrintCompilation output, by id.
func parsePrintedCompiles(out string) map[int]printedCompile {
	cs := map[int]printedCompile{}
	for _, l := range strings.Split(out, "\n") {
		m := printCompilationLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		id, err1 := strconv.Atoi(m[1])
		n, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || n > maxMethodBytes {
			continue
		}
		if _, dup := cs[id]; !dup {
			cs[id] = printedCompile{method: m[2], bytes: n}
		}
	}
	return cs
}

// recordedCompile is one jdk.Compilation event.
type recordedCompile struct {
	id       int
	compiler string // model.WhatCompileC1 or model.WhatCompileC2
	inlined  int
	ps       int64
}

// parseCompileEvents reads `jfr print --json --events jdk.Compilation`: the successful C1 and
// C2 compiles with their duration.
func parseCompileEvents(js string) ([]recordedCompile, error) {
	var doc struct {
		Recording struct {
			Events []struct {
				Type   string `json:"type"`
				Values struct {
					CompileID    int    `json:"compileId"`
					Compiler     string `json:"compiler"`
					InlinedBytes int64  `json:"inlinedBytes"`
					Duration     string `json:"duration"`
					Succeded     *bool  `json:"succeded"`
					Succeeded    *bool  `json:"succeeded"`
				} `json:"values"`
			} `json:"events"`
		} `json:"recording"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		return nil, fmt.Errorf("flight recording: %w", err)
	}
	var cs []recordedCompile
	for _, e := range doc.Recording.Events {
		v := e.Values
		if e.Type != "jdk.Compilation" || (v.Succeded != nil && !*v.Succeded) || (v.Succeeded != nil && !*v.Succeeded) {
			continue
		}
		what := ""
		switch v.Compiler {
		case "c1":
			what = model.WhatCompileC1
		case "c2":
			what = model.WhatCompileC2
		default:
			continue
		}
		ps, err := isoDuration(v.Duration)
		if err != nil {
			return nil, fmt.Errorf("flight recording: compile %d: %w", v.CompileID, err)
		}
		if v.InlinedBytes < 0 || v.InlinedBytes > 1<<24 {
			return nil, fmt.Errorf("flight recording: compile %d: %d inlined bytes", v.CompileID, v.InlinedBytes)
		}
		cs = append(cs, recordedCompile{id: v.CompileID, compiler: what, inlined: int(v.InlinedBytes), ps: ps})
	}
	return cs, nil
}

// isoDuration reads an ISO-8601 duration of hours, minutes and seconds ("PT0.00017S",
// "PT1M2.5S") in picoseconds.
func isoDuration(s string) (int64, error) {
	rest, ok := strings.CutPrefix(s, "PT")
	if !ok || rest == "" {
		return 0, fmt.Errorf("duration %q: not PT…S", s)
	}
	var sec float64
	for _, u := range []struct {
		unit string
		sec  float64
	}{{"H", 3600}, {"M", 60}, {"S", 1}} {
		i := strings.Index(rest, u.unit)
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) {
			return 0, fmt.Errorf("duration %q: bad number %q", s, rest[:i])
		}
		sec += v * u.sec
		rest = rest[i+1:]
	}
	if rest != "" || sec > 3600 {
		return 0, fmt.Errorf("duration %q: not hours, minutes and seconds under an hour", s)
	}
	return int64(math.Round(sec * 1e12)), nil
}

// timedCompile is a compile with its size and time: what the fit reads.
type timedCompile struct {
	compiler string
	method   string
	bytes    int // own and inlined
	ps       int64
}

// joinCompiles pairs the recorded compiles with their printed starts.
func joinCompiles(printed map[int]printedCompile, recorded []recordedCompile) []timedCompile {
	var cs []timedCompile
	for _, r := range recorded {
		p, ok := printed[r.id]
		if !ok || p.bytes+r.inlined <= 0 {
			continue
		}
		cs = append(cs, timedCompile{compiler: r.compiler, method: p.method, bytes: p.bytes + r.inlined, ps: r.ps})
	}
	return cs
}

// families maps the JVM's name of each method the model runs on rel
// ("com.sun.crypto.provider.AESCrypt::implEncryptBlock") to its family (method key).
func families(rel jdk.Release) map[string]string {
	fs := map[string]string{}
	for _, m := range bytecode.Rows() {
		if m.Profiles.Has(rel) {
			fs[m.Class+"::"+m.Name] = m.Key
		}
	}
	return fs
}

// fitCompileTimes prices each compiler by its compiles in cs: by a line (compileLine) where
// one describes them, and each method of the model that rel runs by its own compiles
// (ownCompiles). why says, for a compiler without a line, why it keeps speed[compiler] (ps
// per byte: -XX:+CITime's one speed over the same JVM's compiles). source names the command
// and rounds.
func fitCompileTimes(cs []timedCompile, rel jdk.Release, source string, speed map[string]float64) (fits map[string]model.CompileTime, why map[string]string) {
	fits, why = map[string]model.CompileTime{}, map[string]string{}
	fams := families(rel)
	for _, what := range []string{model.WhatCompileC1, model.WhatCompileC2} {
		ct, reason := compileLine(cs, what, source, speed[what])
		if reason != "" {
			why[what] = reason
		}
		ct.Methods = ownCompiles(cs, what, fams, ct.Fixed, source)
		if ct.PerByte > 0 || len(ct.Methods) > 0 {
			fits[what] = ct
		}
	}
	return fits, why
}

// compileLine is compiler what's line through the median size and median time of each size
// class of its compiles (bytecode bytes in [16, 32), [32, 64), … with at least minClass
// compiles each), every class weighing the same, or, with PerByte 0, the reason there is
// none. The JVM compiles many more small methods than large ones, and a line through all
// compiles alike follows the small ones (least absolute deviations priced one run's
// 150–800-byte C2 compiles at a third of their time); medians keep the compiles that waited
// for a CPU on a shared machine from pulling it. Compiles under 16 bytes (accessors,
// wrappers) are left out: the model compiles none that small once its inlined callees are
// counted.
//
// The line is taken only where it describes the classes well — off their medians by less
// than a factor of maxMisfit on average (the geometric mean of price / median time, or its
// inverse) — and better than speed does. C1's compiles lie close to a line (1.1–1.3 on this
// project's recordings); C2's time follows the code's shape more than its size, and a line is
// off by about 1.9.
func compileLine(cs []timedCompile, what, source string, speed float64) (model.CompileTime, string) {
	var xs, ys []float64
	n, total := 0, 0
	for _, c := range cs {
		if c.compiler == what {
			total++
		}
	}
	for lo := minClassBytes; lo < 1<<24; lo *= 2 {
		var bytes, ps []float64
		for _, c := range cs {
			if c.compiler == what && c.bytes >= lo && c.bytes < 2*lo {
				bytes, ps = append(bytes, float64(c.bytes)), append(ps, float64(c.ps))
			}
		}
		if len(ps) >= minClass {
			xs, ys = append(xs, Median(bytes)), append(ys, Median(ps))
			n += len(ps)
		}
	}
	if n < minCompiles || len(xs) < 2 {
		return model.CompileTime{}, fmt.Sprintf("%d of its %d compiles in size classes of %d or more, %d classes", n, total, minClass, len(xs))
	}
	a, b := lineFit(xs, ys)
	if !(b > 0 && b < 1e12 && a < 1e12) {
		return model.CompileTime{}, "no increasing line through its size classes"
	}
	a = max(a, 0)
	lineErr := misfit(xs, ys, func(x float64) float64 { return a + b*x })
	speedErr := misfit(xs, ys, func(x float64) float64 { return x * speed })
	lineOff, speedOff := math.Exp(lineErr/float64(len(xs))), math.Exp(speedErr/float64(len(xs)))
	if !(lineErr < speedErr) || lineOff > maxMisfit {
		return model.CompileTime{}, fmt.Sprintf("a line is off its size classes by a factor of %.2f on average, the speed by %.2f", lineOff, speedOff)
	}
	return model.CompileTime{Fixed: int64(math.Round(a)), PerByte: int64(math.Round(b)),
		Source: fmt.Sprintf("line through the median size and time of each size class of %d %s compiles in %d classes (jdk.Compilation events' durations against bytecode bytes, own and inlined): %.3f ms + %.2f µs per byte, off the classes' medians by a factor of %.2f on average where -XX:+CITime's speed is off by %.2f; %s",
			n, strings.TrimPrefix(what, "compile-"), len(xs), a/1e9, b/1e6, lineOff, speedOff, source)}, ""
}

// ownCompiles prices each of the model's methods (fams) that compiler what compiled in cs by
// its own compiles: the fastest per byte after the fixed part. A method compiles once or a
// few times a round, and each of its durations is its compile plus whatever the machine made
// the compiler thread wait, which only ever adds.
func ownCompiles(cs []timedCompile, what string, fams map[string]string, fixed int64, source string) map[string]model.Measure {
	perByte := map[string][]float64{}
	for _, c := range cs {
		if f, ok := fams[c.method]; ok && c.compiler == what {
			perByte[f] = append(perByte[f], max(float64(c.ps-fixed), 0)/float64(c.bytes))
		}
	}
	var own map[string]model.Measure
	for f, v := range perByte {
		ps := int64(math.Round(slices.Min(v)))
		if ps <= 0 {
			continue
		}
		if own == nil {
			own = map[string]model.Measure{}
		}
		own[f] = model.Measure{Value: ps, Source: fmt.Sprintf("%s's own %d %s compiles: the fastest per bytecode byte, own and inlined, after the fixed part (%.3f ms): %.2f µs; %s",
			f, len(v), strings.TrimPrefix(what, "compile-"), float64(fixed)/1e9, float64(ps)/1e6, source)}
	}
	return own
}

// misfit is how far price is from the points: the sum of |log(price(x) / y)|, +Inf where a
// price is not positive.
func misfit(xs, ys []float64, price func(float64) float64) float64 {
	sum := 0.0
	for i := range xs {
		p := price(xs[i])
		if !(p > 0) || !(ys[i] > 0) {
			return math.Inf(1)
		}
		sum += math.Abs(math.Log(p / ys[i]))
	}
	return sum
}

// maxMisfit is how far off its classes, on average, a line may be and still price a compiler.
const maxMisfit = 1.5

// The size classes of the fit.
const (
	minClassBytes = 16
	minClass      = 5
)

// lineFit is the least-squares line y = a + b·x through the points.
func lineFit(xs, ys []float64) (a, b float64) {
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(len(xs))
		my += ys[i] / float64(len(ys))
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return my, 0
	}
	b = sxy / sxx
	return my - b*mx, b
}

// errNoRecording says the JVM cannot time its compiles one by one.
var errNoRecording = errors.New("no flight recording")

// compileTimesSummary is one line on what priced the compilers, and why a compiler kept its
// CITime speed.
func compileTimesSummary(ct map[string]model.CompileTime, why map[string]string) string {
	var parts []string
	for _, what := range []string{model.WhatCompileC1, model.WhatCompileC2} {
		t, ok := ct[what]
		if !ok {
			parts = append(parts, strings.TrimPrefix(what, "compile-")+": -XX:+CITime speed ("+why[what]+")")
			continue
		}
		line := fmt.Sprintf("%.3f ms + %.2f µs per bytecode byte", float64(t.Fixed)/1e9, float64(t.PerByte)/1e6)
		if t.PerByte == 0 {
			line = "-XX:+CITime speed (" + why[what] + ")"
		}
		parts = append(parts, fmt.Sprintf("%s: %s, %d methods by their own compiles", strings.TrimPrefix(what, "compile-"), line, len(t.Methods)))
	}
	return strings.Join(parts, "; ")
}
