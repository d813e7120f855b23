package warmup

import (
	"bufio"
	"compress/bzip2"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/jitsim/jitsim/internal/jsonpos"
)

// Krun results files (Krun, github.com/softdevteam/krun, krun/results.py;
// read by warmup_stats) are one JSON object, bzip2-compressed by Krun:
//
//	wallclock_times    {"bench:vm:variant": [[seconds per in-process iteration] per process execution]}
//	core_cycle_counts  {"bench:vm:variant": [[[count per iteration] per core] per process execution]}
//	aperf_counts, mperf_counts: as core_cycle_counts
//	eta_estimates      {"bench:vm:variant": [seconds per process execution]}
//	config             the text of the Krun config file
//	audit              {name: text} about the machine
//	error_flag         true when Krun saw a non-fatal error
//
// ReadKrun reads the keys the classification needs and checks the shape of
// the rest; WriteKrun writes jitsim runs in the same layout.

// KrunKey is one "bench:vm:variant" of a Krun results file.
type KrunKey struct{ Bench, VM, Variant string }

func (k KrunKey) String() string { return k.Bench + ":" + k.VM + ":" + k.Variant }

// KrunSeries is the wall-clock times of one key: per process execution,
// seconds per in-process iteration, and the line each execution starts on.
type KrunSeries struct {
	Key   KrunKey
	Execs [][]float64
	Lines []int
}

// KrunResults is what jitsim reads from a Krun results file.
type KrunResults struct {
	Series    []KrunSeries // in key order
	Config    string
	ErrorFlag bool
	// Empty counts process executions with no iteration (Krun keeps a
	// failed execution's slot empty); they are left out of Series.
	Empty int
}

// ReadKrun reads a Krun results file, bzip2-compressed (as Krun writes
// it) or plain JSON. file names it in errors, "FILE:LINE: …", LINE
// counting lines of the decompressed JSON.
func ReadKrun(r io.Reader, file string) (*KrunResults, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	kind := "Krun results JSON"
	if magic, _ := br.Peek(3); string(magic) == "BZh" {
		src, kind = bzip2.NewReader(br), "Krun results, bzip2"
	}
	in, err := jsonpos.Read(src, file, kind)
	if err != nil {
		return nil, err
	}
	return parseKrun(in)
}

func parseKrun(in *jsonpos.Input) (*KrunResults, error) {
	file := in.File
	if err := in.Delim('{', "not a Krun results file: "); err != nil {
		return nil, err
	}
	k := &KrunResults{}
	seen := map[string]bool{}
	counts := map[string]map[string][]int{} // counter → key → cores per execution
	for in.Dec.More() {
		tok, err := in.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, in.Errorf(in.Dec.InputOffset()-1, "%q appears twice", name)
		}
		seen[name] = true
		switch name {
		case "wallclock_times":
			if k.Series, k.Empty, err = readWallclock(in); err != nil {
				return nil, err
			}
		case "core_cycle_counts", "aperf_counts", "mperf_counts":
			var m map[string][][][]float64
			if err := in.Decode(name+": ", &m); err != nil {
				return nil, err
			}
			counts[name] = map[string][]int{}
			for key, execs := range m {
				for _, cores := range execs {
					counts[name][key] = append(counts[name][key], len(cores))
				}
			}
		case "config":
			if err := in.Decode("config: ", &k.Config); err != nil {
				return nil, err
			}
		case "error_flag":
			if err := in.Decode("error_flag: ", &k.ErrorFlag); err != nil {
				return nil, err
			}
		default: // eta_estimates, audit and what later Krun versions add
			var skip json.RawMessage
			if err := in.Decode(name+": ", &skip); err != nil {
				return nil, err
			}
		}
	}
	if err := in.End("the results object"); err != nil {
		return nil, err
	}
	if !seen["wallclock_times"] {
		return nil, fmt.Errorf("%s: not a Krun results file: no \"wallclock_times\"", file)
	}
	if len(k.Series) == 0 {
		return nil, fmt.Errorf("%s: no benchmark has an iteration in \"wallclock_times\"", file)
	}
	// A counter, where present, has a slot per process execution of its key.
	for name, byKey := range counts {
		for _, s := range k.Series {
			if got, ok := byKey[s.Key.String()]; ok && len(got) < len(s.Execs) {
				return nil, fmt.Errorf("%s: %s[%q] has %d process executions, wallclock_times %d", file, name, s.Key, len(got), len(s.Execs))
			}
		}
	}
	return k, nil
}

// readWallclock reads wallclock_times token by token, so that a bad value
// is reported at its own line.
func readWallclock(in *jsonpos.Input) ([]KrunSeries, int, error) {
	bad := func(format string, a ...any) error {
		return in.Errorf(in.Dec.InputOffset()-1, "wallclock_times: "+format, a...)
	}
	if err := in.Delim('{', "wallclock_times: "); err != nil {
		return nil, 0, err
	}
	var out []KrunSeries
	empty := 0
	keys := map[string]bool{}
	for in.Dec.More() {
		tok, err := in.Token()
		if err != nil {
			return nil, 0, err
		}
		key := tok.(string) // an object's keys are strings
		parts := strings.Split(key, ":")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
			return nil, 0, bad("key %q is not bench:vm:variant", key)
		}
		if keys[key] {
			return nil, 0, bad("key %q appears twice", key)
		}
		keys[key] = true
		s := KrunSeries{Key: KrunKey{parts[0], parts[1], parts[2]}}
		if err := in.Delim('[', "wallclock_times: "+key+": want a list of process executions: "); err != nil {
			return nil, 0, err
		}
		for e := 0; in.Dec.More(); e++ {
			if err := in.Delim('[', fmt.Sprintf("wallclock_times: %s[%d]: want a list of iteration times: ", key, e)); err != nil {
				return nil, 0, err
			}
			line := in.Line(in.Dec.InputOffset())
			var times []float64
			for i := 0; in.Dec.More(); i++ {
				tok, err := in.Token()
				if err != nil {
					return nil, 0, err
				}
				v, ok := tok.(float64)
				if !ok {
					return nil, 0, bad("%s[%d][%d]: %v is not a time in seconds", key, e, i, tok)
				}
				if v < 0 || math.IsInf(v, 0) || v > 1e6 {
					return nil, 0, bad("%s[%d][%d]: %v s is no iteration time", key, e, i, v)
				}
				times = append(times, v)
			}
			if _, err := in.Token(); err != nil {
				return nil, 0, err
			}
			if len(times) == 0 {
				empty++
				continue
			}
			s.Execs = append(s.Execs, times)
			s.Lines = append(s.Lines, line)
		}
		if _, err := in.Token(); err != nil {
			return nil, 0, err
		}
		if len(s.Execs) > 0 {
			out = append(out, s)
		}
	}
	if _, err := in.Token(); err != nil {
		return nil, 0, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key.String() < out[j].Key.String() })
	return out, empty, nil
}

// Runs turns the series into runs, one per process execution: the label
// is the key, the fork the execution's index, each iteration one op.
func (k *KrunResults) Runs() []Run {
	var runs []Run
	for _, s := range k.Series {
		for e, times := range s.Execs {
			r := Run{Label: s.Key.String(), Fork: e, Scenario: s.Key.Bench, Clock: "wall"}
			var at time.Duration
			for i, t := range times {
				d := time.Duration(math.Round(t * 1e9))
				r.Iterations = append(r.Iterations, Iteration{Index: i, Start: at, Duration: d, Ops: 1})
				at += d
			}
			runs = append(runs, r)
		}
	}
	return runs
}

// KrunOptions are warmup_stats's defaults for Krun's one-second
// iterations: an absolute tolerance of 0.001 s between segments.
var KrunOptions = Options{Delta: 0.001}

// WriteKrunClasses prints one row per key of a Summarize of k.Runs():
// benchmark, VM, variant, process executions, the combined class and
// the classes per execution, and the steady state's median iteration and
// time per iteration.
func WriteKrunClasses(w io.Writer, k *KrunResults, s Summary) error {
	byLabel := map[string]LabelSummary{}
	for _, l := range s.Labels {
		byLabel[l.Label] = l
	}
	rows := [][]string{{"benchmark", "vm", "variant", "pexecs", "class", "per pexec", "steady@iter", "steady time/iteration"}}
	for _, ser := range k.Series {
		l := byLabel[ser.Key.String()]
		per := map[Class]int{}
		for _, c := range l.Classes {
			per[c]++
		}
		var parts []string
		for _, c := range []Class{Flat, Warmup, Slowdown, NoSteadyState} {
			if per[c] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", per[c], c))
			}
		}
		iter, mean := "-", "-"
		if l.Steady {
			iter, mean = fmt.Sprint(l.SteadyIter), FormatPerOp(l.SteadyMean)
		}
		rows = append(rows, []string{ser.Key.Bench, ser.Key.VM, ser.Key.Variant, fmt.Sprint(len(ser.Execs)), string(l.Class),
			strings.Join(parts, ", "), iter, mean})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			if i == len(r)-1 {
				b.WriteString(c)
				continue
			}
			fmt.Fprintf(&b, "%-*s", widths[i], c)
		}
		b.WriteString("\n")
	}
	if k.Empty > 0 {
		fmt.Fprintf(&b, "(%d process executions without iterations left out)\n", k.Empty)
	}
	if k.ErrorFlag {
		b.WriteString("(the file's error_flag is set: Krun saw a non-fatal error during the run)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// KrunExport names what WriteKrun cannot learn from the runs.
type KrunExport struct {
	Command string // the command line that made the runs, into config and audit
}

// krunKey is a run's key: bench the scenario, vm "jitsim" (or "java" for a
// real JVM's run beside a study), variant the option set ("default" for
// the empty set) with each ':' written '_', since Krun splits keys at ':'.
func krunKey(r Run) KrunKey {
	vm, set := "jitsim", r.Label
	if isJVM(r.Label) {
		vm, set = "java", setKey(r.Label)
	}
	if set == "" || set == "default" {
		set = "default"
	}
	bench := r.Scenario
	if bench == "" {
		bench = "unknown"
	}
	clean := func(s string) string { return strings.ReplaceAll(s, ":", "_") }
	return KrunKey{clean(bench), vm, clean(set)}
}

// WriteKrun writes runs as a Krun results file (plain JSON, keys sorted,
// as Krun's json.dumps writes them): each run one process execution of
// its key, each iteration's wall-clock duration in seconds. jitsim has no
// per-core counters, so each execution's core_cycle_counts, aperf_counts
// and mperf_counts have no core (as on a machine without them); its
// eta_estimates entry is the execution's time.
func WriteKrun(w io.Writer, runs []Run, x KrunExport) error {
	type execs = [][]float64
	wall := map[string]execs{}
	cores := map[string][][][]float64{}
	eta := map[string][]float64{}
	labels := map[string]string{}
	audit := map[string]string{"jitsim_command": x.Command}
	for _, r := range runs {
		if err := r.Validate(); err != nil {
			return err
		}
		k := krunKey(r).String()
		if prev, ok := labels[k]; ok && prev != r.Label {
			return fmt.Errorf("warmup: Krun export: option sets %q and %q share the key %q", prev, r.Label, k)
		}
		labels[k] = r.Label
		times := make([]float64, len(r.Iterations))
		total := 0.0
		for i, it := range r.Iterations {
			times[i] = it.Duration.Seconds()
			total += times[i]
		}
		wall[k] = append(wall[k], times)
		cores[k] = append(cores[k], [][]float64{})
		eta[k] = append(eta[k], total)
		if r.CPU != "" {
			audit["cpu_model"] = r.CPU
		}
		if r.Clock != "" {
			audit["clock"] = r.Clock
		}
	}
	var cfg strings.Builder
	cfg.WriteString("# Written by jitsim (not a Krun config): each key is SCENARIO:jitsim:OPTION-SET,\n")
	cfg.WriteString("# ':' in an option set written '_'; each process execution is one fork.\n")
	if x.Command != "" {
		cfg.WriteString("# " + x.Command + "\n")
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&cfg, "# %s = option set %q\n", k, labels[k])
	}
	out := map[string]any{
		"config":            cfg.String(),
		"wallclock_times":   wall,
		"core_cycle_counts": cores,
		"aperf_counts":      cores,
		"mperf_counts":      cores,
		"eta_estimates":     eta,
		"audit":             audit,
		"error_flag":        false,
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out) // maps are written with sorted keys
}
