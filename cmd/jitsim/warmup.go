package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/warmup"
)

const warmupLong = `Run one scenario under several option sets and study its warm-up.

Each --compare 'OPTIONS' is one option set (java's VM options, split at spaces; '' is the
default set); VM options written outside --compare apply to every set. With no --compare the
command line's own VM options are the only set. Forks alternate between the sets (A B A B …),
each on a fresh VM, so that slow drift of a noisy machine hits every set alike.

Every iteration of application thread 0 becomes one row of the series: its start and duration
on the run's clock, bytes, the entry level of each followed method (the intrinsic candidates
the run called and every method that was compiled) at the iteration's end, and the VM's events
during it (compile queued/started/installed, osr, not-entrant, first stub call).

Writes into --out (default warmup-out): series.csv, series.json, summary.json, warmup.png,
warmup.svg, timeline.png, timeline.svg (when each crypto method was compiled, per option set
and imported log) and report.html; prints a summary table with a sparkline per option set.

Options:
  --compare OPTIONS   an option set (repeatable)
  --forks N           forks per option set (default 2); on the model clock a run is
                      deterministic, so each option set runs once (the real JVM of --jvm
                      still runs N forks)
  --out DIR           output directory (default warmup-out)
  --jdk, --cpu        JDK profile and CPU model, as for 'jitsim run'; --jdk=8,17,21,25 runs
                      every option set on each release listed (sets named "JDK 17" or
                      "JDK 17: OPTIONS") and adds a table per release: the intrinsic stubs
                      its run reached, time to steady state, warm-up cost, steady throughput
  --clock wall|model  the clock the runs are timed on (default wall): on the model clock every
                      cost comes from the CPU model's profile and a study is deterministic
                      (forks are then identical); any CPU model runs, also another
                      architecture's
  --profile FILE      with --clock=model, a cost profile file ('jitsim calibrate --out')
                      instead of the CPU model's own
  --title TEXT        the report's title
  --baseline NAME     the option set the ratios divide by (as written in --compare, '' or
                      default for the default set, 'JDK 17' with several releases); default:
                      the first --compare
  --by-time           chart against time on the run's clock instead of iteration
  --changepoints r|scale-free
                      the changepoint cost: r is R changepoint's cpt.meanvar to the bit
                      (warmup_stats's method), scale-free keeps exact plateaus whole; default
                      scale-free for model-clock runs, r for the others (docs/warmup.md)
  --lab               on the model clock, score warm-up settings (JMH's 5 × 10 s, fixed
                      iteration counts, Laaber et al.'s CoV, RCIW and KLD rules) against each
                      run's true steady state, which the VM's events define: after the last
                      install or deoptimisation with no compile waiting in a queue; also
                      writes lab.png and lab.svg
  --traini            also classify each run with Traini et al.'s steady-state rule (CROPS
                      penalty, bootstrap equivalence) and print where it and warmup_stats's
                      disagree
  --scenario-output   show the scenario's own output on stderr
  --jvm JAVA          also run each option set on this real java (the benchmark scenarios:
                      AESGCMBench, AESGCMUpdateAAD, CBCThroughput, ModeLoop, with the
                      three arguments; or a workload file, resolved into a trace that the
                      harness's replayer runs and whose outputs jitsim checks): its curve is
                      the set "java: OPTIONS", its events come from -XX:+PrintCompilation
  --import-printcompilation [NAME=]FILE
                      overlay a -XX:+PrintCompilation log captured elsewhere (JDK 8 or 11+
                      layout; other output in it is skipped and counted) on the compile
                      timeline and the report (repeatable; NAME defaults to FILE's base name)
  --export-krun FILE  also write the runs as a Krun results file (plain JSON): key
                      SCENARIO:jitsim:OPTION-SET (':' in the set written '_'), one process
                      execution per fork, wall-clock seconds per iteration
  --import-krun FILE  run nothing: classify a Krun results file (.json.bz2 as Krun writes
                      it, or plain .json) per benchmark, VM and variant with warmup_stats's
                      method and its 0.001 s tolerance; with --out also write the study's
                      files for it (repeatable, one table per file)

Example:
  jitsim warmup --forks=2 --compare '' --compare '-XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics' \
      --compare -Xint --compare -XX:TieredStopAtLevel=1 -DdataSize=16384 AESGCMBench 0 40 5`

func (d deps) newWarmupCommand(getenv func(string) (string, bool), status *int) *cobra.Command {
	return &cobra.Command{
		Use:                "warmup [--compare 'OPTIONS']… [--forks=N] [--out=DIR] [--jdk=…] [--cpu=…] [VM options…] SCENARIO [args…]",
		Short:              "Compare a scenario's warm-up under several option sets: series, analysis, charts, report",
		Long:               warmupLong,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			*status = d.runWarmup(args, getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
}

var (
	warmupValued = map[string]bool{"compare": true, "forks": true, "out": true, "jdk": true, "cpu": true, "title": true, "jvm": true,
		"import-printcompilation": true, "clock": true, "profile": true, "baseline": true, "import-krun": true, "export-krun": true,
		"changepoints": true}
	warmupSwitches = map[string]bool{"by-time": true, "scenario-output": true, "force-profile": true, "traini": true, "lab": true}
)

// runWarmup is `jitsim warmup`; it returns the exit status.
func (d deps) runWarmup(args []string, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "jitsim warmup: "+format+"\n", a...)
		return code
	}
	o, err := splitOwn(args, warmupValued, warmupSwitches)
	if err != nil {
		return fail(2, "%v", err)
	}
	if o.help {
		fmt.Fprintln(stdout, warmupLong)
		return 0
	}
	if o.has("import-krun") {
		return importKrun(o, args, stdout, stderr)
	}
	forks, err := o.intOpt("forks", 2, 1)
	if err != nil {
		return fail(2, "%v", err)
	}
	aopts := warmup.Options{Cost: o.last("changepoints", ""), Traini: o.has("traini")}
	if err := aopts.Validate(); err != nil {
		return fail(2, "--changepoints: %v", err)
	}
	var rels []jdk.Release
	for _, name := range strings.Split(o.last("jdk", jdk.Default.String()), ",") {
		rel, err := jdk.Parse(strings.TrimSpace(name))
		if err != nil {
			return fail(2, "--jdk: %v", err)
		}
		if slices.Contains(rels, rel) {
			return fail(2, "--jdk: %s is listed twice", rel)
		}
		rels = append(rels, rel)
	}
	byRelease := len(rels) > 1
	if o.scenario == "" {
		return fail(2, "no scenario given; name one from 'jitsim scenarios'")
	}
	scen, err := scenario.Find(o.scenario)
	if err != nil {
		return fail(1, "%v; jitsim runs its own scenarios and workload files, not Java programs", err)
	}
	clock := o.last("clock", setup.ClockWall)
	if clock != setup.ClockWall && clock != setup.ClockModel {
		return fail(2, "--clock=%s: want wall or model", clock)
	}
	profile := o.last("profile", "")
	_, d.forceProfile = o.vals["force-profile"]
	if profile != "" && clock != setup.ClockModel {
		return fail(2, "--profile needs --clock=model")
	}
	compares := o.vals["compare"]
	if len(compares) == 0 {
		compares = []string{""}
	}
	var specs []*vmSpec
	seen := map[string]bool{}
	for _, rel := range rels {
		for _, c := range compares {
			own := strings.Fields(c)
			label := optionLabel(own)
			if byRelease && len(own) == 0 {
				label = "JDK " + rel.String()
			} else if byRelease {
				label = "JDK " + rel.String() + ": " + label
			}
			if seen[label] {
				return fail(2, "--compare %q is given twice", c)
			}
			seen[label] = true
			s, err := d.settleOn(clock, profile, label, rel, o.last("cpu", "host"), append(append([]string{}, o.vm...), own...), getenv, stderr)
			if err != nil {
				return fail(1, "%v", err)
			}
			specs = append(specs, s)
		}
	}
	props := scenario.PropsFrom(specs[0].Result.Properties)
	for _, c := range compares {
		for _, a := range strings.Fields(c) {
			if strings.HasPrefix(a, "-D") {
				return fail(2, "--compare %q: -D properties belong outside --compare (every option set runs the same scenario)", c)
			}
		}
	}
	baseline := ""
	if o.has("baseline") {
		baseline = optionLabel(strings.Fields(o.last("baseline", "")))
		if !seen[baseline] {
			return fail(2, "--baseline %q is not one of the option sets (%s)", o.last("baseline", ""), strings.Join(slices.Sorted(maps.Keys(seen)), ", "))
		}
	}
	sig := notifyStop(context.Background(), stderr)
	defer sig.stop()
	ctx := sig.ctx
	imports, code, err := importLogs(o.vals["import-printcompilation"])
	if err != nil {
		return fail(code, "%v", err)
	}
	var scenOut io.Writer = io.Discard
	if o.has("scenario-output") {
		scenOut = stderr
	}
	java := o.last("jvm", "")
	if java != "" && byRelease {
		return fail(2, "--jvm runs one real JVM: give one --jdk release with it (got %s)", o.last("jdk", ""))
	}
	var resolved *scenario.Resolved
	switch w := scen.Workload(); {
	case java == "":
	case w != nil:
		if len(o.rest) > 0 {
			return fail(2, "--jvm with a workload file runs its phases: give no arguments after %s (got %q)", o.scenario, o.rest)
		}
		dir, err := os.MkdirTemp("", "jitsim-resolved-")
		if err != nil {
			return fail(1, "%v", err)
		}
		defer os.RemoveAll(dir)
		if resolved, err = w.Resolve(dir, props); err != nil {
			return fail(1, "--jvm: %v", err)
		}
	case !slices.Contains(jvmharness.Twins, scen.Name):
		return fail(2, "--jvm: the real JVM runs %s (their Java twin is jitsim's own) and workload files, not %s", strings.Join(jvmharness.Twins, ", "), scen.Name)
	}
	prog := newProgress(stderr, getenv)
	simForks := forks
	if clock == setup.ClockModel {
		// A model-clock run is a deterministic simulation: its forks would be the same run.
		simForks = 1
		fmt.Fprintln(stderr, "jitsim warmup: model clock: each option set runs once (its forks would be identical); --forks counts on the wall clock and for --jvm")
		if aopts.Cost == "" {
			fmt.Fprintln(stderr, "jitsim warmup: model clock: changepoints with the scale-free cost, which keeps exact plateaus whole; --changepoints=r gives R changepoint's answer to the bit (docs/warmup.md)")
		}
	}
	runs, err := warmupForks(ctx, scen, specs, forks, simForks, props, o.rest, scenOut, prog, java, resolved)
	prog.wait()
	stopped := sig.stoppedBy() // then runs are the forks done and the cut one's iterations (signal.go)
	if stopped != nil && len(runs) == 0 {
		stoppedLine(stderr, "warmup", stopped, "no iteration had ended; nothing written")
		return signalStatus(stopped)
	}
	if err != nil && stopped == nil {
		var je *jce.JavaException
		if errors.As(err, &je) {
			return fail(1, "Exception in thread \"main\" %s", je.Error())
		}
		return fail(1, "%v", err)
	}
	dir := o.last("out", "warmup-out")
	relNames := make([]string, len(rels))
	for i, r := range rels {
		relNames[i] = r.String()
	}
	title := o.last("title", fmt.Sprintf("%s warm-up (JDK %s, %s)", scenarioTitle(scen.Name, props, o.rest), strings.Join(relNames, ", "), specs[0].CPU.Name))
	meta := warmup.ReportMeta{Title: title, Command: "jitsim warmup " + shellJoin(args), Imports: imports, Baseline: baseline, Releases: byRelease, Lab: o.has("lab")}
	s, err := warmup.WriteAll(dir, runs, aopts, meta, warmup.PlotOptions{ByTime: o.has("by-time")})
	if err != nil {
		return fail(1, "%v", err)
	}
	if err := warmup.WriteTerminal(stdout, s, runs, 40); err != nil {
		return fail(1, "%v", err)
	}
	if byRelease {
		fmt.Fprintln(stdout)
		if err := warmup.WriteReleases(stdout, warmup.Releases(runs, s)); err != nil {
			return fail(1, "%v", err)
		}
	}
	if aopts.Traini {
		fmt.Fprintln(stdout)
		if err := warmup.WriteClassifierComparison(stdout, s); err != nil {
			return fail(1, "%v", err)
		}
	}
	written := slices.Clone(warmup.Files)
	if o.has("lab") {
		fmt.Fprintln(stdout)
		if err := warmup.WriteLabTable(stdout, runs, warmup.StopRules); err != nil {
			return fail(1, "%v", err)
		}
		switch err := writeLabCharts(dir, runs, title); {
		case errors.Is(err, warmup.ErrNoLabRun):
			fmt.Fprintln(stdout, "no lab chart: no run could be scored")
		case err != nil:
			return fail(1, "%v", err)
		default:
			written = append(written, warmup.LabFiles...)
		}
	}
	for _, l := range imports {
		fmt.Fprintf(stdout, "imported %s (%s): %d compile lines, %d of crypto methods; skipped %d other and %d garbled lines\n",
			l.Name, l.File, len(l.Records), len(l.Crypto()), l.Other, l.Garbled)
	}
	fmt.Fprintf(stdout, "\nwrote %s: %s\n", dir, strings.Join(written, ", "))
	if k := o.last("export-krun", ""); k != "" {
		if err := exportKrun(k, runs, meta.Command); err != nil {
			return fail(1, "%v", err)
		}
		fmt.Fprintf(stdout, "wrote %s: the runs as a Krun results file\n", k)
	}
	if stopped != nil {
		stoppedLine(stderr, "warmup", stopped, fmt.Sprintf("%d runs written to %s (the last may be cut short)", len(runs), dir))
		return signalStatus(stopped)
	}
	return 0
}

// warmupForks runs forks rounds; each round runs every spec once, in order,
// on a fresh VM and a fresh clock (the first simForks rounds only: a
// model-clock run is deterministic), and with java set the real JVM right
// after each (a workload file's replay of resolved, when not nil).
func warmupForks(ctx context.Context, scen scenario.Scenario, specs []*vmSpec, forks, simForks int, props map[string]string,
	args []string, out io.Writer, prog *progress, java string, resolved *scenario.Resolved) ([]warmup.Run, error) {
	var runs []warmup.Run
	n := min(simForks, forks)
	if java != "" {
		n += forks
	}
	total := prog.bar("forks", n*len(specs))
	defer total.done()
	for f := range forks {
		for _, s := range specs {
			if f < simForks {
				if err := simFork(ctx, scen, s, f, props, args, out, prog, &runs); err != nil {
					return runs, err
				}
				total.inc()
			}
			if java == "" {
				continue
			}
			run, err := jvmRun(ctx, java, scen, resolved, s, f, props, args)
			if err != nil && ctx.Err() != nil {
				return runs, err
			} else if err != nil {
				return nil, fmt.Errorf("option set %q, fork %d on %s: %w", s.label, f, java, err)
			}
			runs = append(runs, run)
			total.inc()
		}
	}
	return runs, nil
}

// simFork runs fork f of spec s on jitsim and appends its series to runs; when stopped
// by a signal it keeps the cut run's iterations and returns the context's error.
func simFork(ctx context.Context, scen scenario.Scenario, s *vmSpec, f int, props map[string]string,
	args []string, out io.Writer, prog *progress, runs *[]warmup.Run) error {
	run, err := warmupFork(ctx, scen, s, f, props, args, out, prog)
	if err != nil && ctx.Err() != nil { // stopped: keep the forks done and the cut one's iterations
		if len(run.Iterations) > 0 {
			*runs = append(*runs, run)
		}
		return err
	}
	if err != nil {
		*runs = nil
		return fmt.Errorf("%s, option set %q, fork %d: %w", scen.Name, s.label, f, err)
	}
	*runs = append(*runs, run)
	return nil
}

// warmupFork runs one fork of one option set and returns its series.
func warmupFork(ctx context.Context, scen scenario.Scenario, s *vmSpec, fork int, props map[string]string,
	args []string, out io.Writer, prog *progress) (warmup.Run, error) {
	clock := s.NewClock()
	vm, err := s.NewVM(clock, out)
	if err != nil {
		return warmup.Run{}, err
	}
	defer vm.Close()
	b := prog.counter(fmt.Sprintf("%s #%d", s.label, fork), "iterations")
	defer b.done()
	rec := &seriesRecorder{onIter: b.inc}
	// NewVM gives the Parquet job its writer VM, so that writing the pages
	// does not warm the reader's.
	newVM := func() (*jrt.VM, error) { return s.NewVM(s.NewClock(), io.Discard) }
	env := scenario.Env{VM: vm, NewVM: newVM, Threads: 0, Clock: clock, ClockKind: s.Clock, Observer: rec}
	if err := scen.Run(ctx, env, props, args, out); err != nil {
		if ctx.Err() != nil { // stopped by a signal: the iterations that ended
			return rec.run(s.label, fork, scen.Name, s), err
		}
		return warmup.Run{}, err
	}
	run := rec.run(s.label, fork, scen.Name, s)
	if len(run.Iterations) == 0 {
		return run, errors.New("the scenario reported no iterations")
	}
	return run, nil
}

// scenarioTitle is "NAME -Dk=v … args" for titles.
func scenarioTitle(name string, props map[string]string, args []string) string {
	var b strings.Builder
	b.WriteString(name)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " -D%s=%s", k, props[k])
	}
	for _, a := range args {
		b.WriteString(" " + a)
	}
	return b.String()
}

// shellJoin quotes args that need it for a copy-pasteable command line.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// writeLabCharts writes the lab's chart beside the study's other charts.
func writeLabCharts(dir string, runs []warmup.Run, title string) error {
	for _, name := range warmup.LabFiles {
		var b bytes.Buffer
		if err := warmup.WriteLabChart(&b, runs, warmup.StopRules, title, strings.TrimPrefix(filepath.Ext(name), ".")); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("warmup: writing %s: %w", name, err)
		}
	}
	return nil
}
