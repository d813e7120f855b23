package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/validate"
	"github.com/jitsim/jitsim/warmup"
)

// validateOptions are `jitsim validate`'s options.
type validateOptions struct {
	java, jdk, profile, out string
	dir                     string
	rounds                  int
	sets, ops, sizes        string
	quick, force            bool
	args                    []string // the command line, for the page
	// warm-up comparison
	warmupSets             string
	warmupIters, warmupOps int
	warmupSize             int
	steadyOnly, warmupOnly bool
	wall                   bool
	// a workload file instead of the built-in cells
	workload string
	maxOps   int64
	changed  []string // the options given
}

func (d deps) newValidateCommand(status *int) *cobra.Command {
	var o validateOptions
	cmd := &cobra.Command{
		Use:   "validate --jvm=PATH [--jdk=17] [--profile FILE] [--rounds N] [--sets …] [--ops …] [--sizes …] [--json FILE] [WORKLOAD]",
		Short: "Check the model clock against a real JVM on this machine, side by side",
		Long: `Run composite operations on a real JVM and on jitsim's model clock and compare their
steady-state time per operation: GCM and CBC encryption and decryption at 1, 16 and 64 KiB and
CTR at 1 and 64 KiB, under each flag set (` + strings.Join(validateSetNames(), ", ") + `).
The JVM side is the project's Cost harness, every (flag set, size) one JVM per round, round
after round, in thread CPU time. The harness also times a machine sentinel inside the JVM, a
loop of table reads, before each row's timed rounds and after each; a round whose reading is
over 1.2 times the fastest of the same cell ran while the machine was slow, is marked,
and its (flag set, size) runs again, at most --rounds more times, until each cell has --rounds
unmarked rounds. Each cell is the median over its unmarked rounds (over all of them, when too
few are left), with its range, the rounds used and the rounds marked; the JSON has each
round's value and mark. jitsim runs the same loop (scenario ModeLoop) on the model clock, priced by --profile, or by
this host's calibrated profile ('jitsim calibrate --jvm'), or the CPU model's, until its cost
per operation is steady. A cell is within when |jitsim/JVM − 1| ≤ 0.25; a cell whose JVM range
exceeds ±25 % of its median is "JVM too noisy". None of these cells is a primitive 'jitsim
calibrate --jvm' measures.

With a WORKLOAD — a workload file, or a built-in scenario that runs a shipped one
(` + strings.Join(shippedWorkloadNames(), ", ") + `) — validate compares that workload
instead: jitsim resolves it into a trace that the harness's replayer runs on the JVM (its
outputs checked by CRC), and runs it on its model clock and, in the same interleaved rounds
as the JVM, on its wall clock. Per flag set (--sets, default: default) and phase it reports
thread 0's steady time per operation (within ±25 %) and, for phases of ten operations or
more, the warm-up landmarks (first operation, time to half speed, time to steady state;
within ±50 %). --max-ops=N caps every phase at N operations per thread.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, name := range validateFlagNames {
				if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
					o.changed = append(o.changed, name)
					if !slices.Contains([]string{"force-profile", "json", "out"}, name) { // the page's command line
						o.args = append(o.args, "--"+name+"="+f.Value.String())
					}
				}
			}
			if len(args) == 1 {
				o.workload = args[0]
				o.args = append(o.args, args[0])
			}
			*status = d.runValidate(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.java, "jvm", "", "the real JVM's java (required)")
	f.StringVar(&o.jdk, "jdk", jdk.R17.String(), "the JDK release of --jvm")
	f.StringVar(&o.profile, "profile", "", "cost profile file for the model clock")
	f.BoolVar(&o.force, "force-profile", false, "use a --profile measured on another release or CPU anyway")
	f.IntVar(&o.rounds, "rounds", 5, "interleaved JVM rounds per cell")
	f.StringVar(&o.sets, "sets", "", "comma-separated flag sets (default: all)")
	f.StringVar(&o.ops, "ops", "", "comma-separated operations: gcm-enc, gcm-dec, cbc-enc, cbc-dec, ctr (default: all)")
	f.StringVar(&o.sizes, "sizes", "", "comma-separated sizes in bytes (default: each operation's)")
	f.StringVar(&o.out, "json", "", "also write the results as JSON to this file")
	f.StringVar(&o.dir, "out", "", "write the page (validate.html, validate.json) and the warm-up study with both sides' curves (report.html, …) to this directory")
	f.BoolVar(&o.quick, "quick", false, "shorter JVM measurements")
	f.StringVar(&o.warmupSets, "warmup-sets", "default,no-ghash", "flag sets whose warm-up landmarks and compile order are compared")
	f.IntVar(&o.warmupIters, "warmup-iterations", 200, "iterations of the warm-up loop")
	f.IntVar(&o.warmupOps, "warmup-ops", 100, "operations per iteration of the warm-up loop")
	f.IntVar(&o.warmupSize, "warmup-size", 16384, "bytes per operation of the warm-up loop")
	f.BoolVar(&o.steadyOnly, "steady-only", false, "compare only the steady-state cells")
	f.BoolVar(&o.warmupOnly, "warmup-only", false, "compare only the warm-ups")
	f.BoolVar(&o.wall, "wall", false, "also time each steady-state cell on jitsim's wall clock (reported beside the model, not judged)")
	f.Int64Var(&o.maxOps, "max-ops", 0, "with a WORKLOAD: at most this many operations per thread in every phase (needed for a phase that runs for a duration)")
	return cmd
}

// validateFlagNames are validate's options, in the order the page's command line gives them.
var validateFlagNames = []string{"jvm", "jdk", "profile", "force-profile", "rounds", "sets", "ops", "sizes", "json", "out", "quick", "warmup-sets",
	"warmup-iterations", "warmup-ops", "warmup-size", "steady-only", "warmup-only", "wall", "max-ops"}

// shippedWorkloadNames are the built-in scenarios that run a shipped workload file.
func shippedWorkloadNames() []string {
	var ns []string
	for _, s := range scenario.List() {
		if s.WorkloadFile() != nil {
			ns = append(ns, s.Name)
		}
	}
	return ns
}

func validateSetNames() []string {
	var ns []string
	for _, s := range validate.FlagSets {
		ns = append(ns, s.Name)
	}
	return ns
}

// runValidate is `jitsim validate`; it returns the exit status.
func (d deps) runValidate(ctx context.Context, o validateOptions, stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "jitsim validate: "+format+"\n", a...)
		return code
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.java == "" {
		return fail(2, "--jvm=PATH is required: the java to compare with")
	}
	if o.rounds < 1 || o.rounds > 100 {
		return fail(2, "--rounds=%d: want 1 to 100", o.rounds)
	}
	rel, err := jdk.Parse(o.jdk)
	if err != nil {
		return fail(2, "--jdk: %v", err)
	}
	if o.workload != "" {
		return d.validateWorkload(ctx, o, rel, stdout, stderr, fail)
	}
	if o.maxOps != 0 {
		return fail(2, "--max-ops applies to a WORKLOAD, not to the built-in cells")
	}
	var sizes []int
	for _, s := range splitList(o.sizes) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return fail(2, "--sizes: %q is not a size in bytes", s)
		}
		sizes = append(sizes, n)
	}
	cells, err := validate.Cells(splitList(o.sets), splitList(o.ops), sizes)
	if err != nil {
		return fail(2, "%v", err)
	}
	var wsets []validate.FlagSet
	for _, n := range splitList(o.warmupSets) {
		i := slices.IndexFunc(validate.FlagSets, func(f validate.FlagSet) bool { return f.Name == n })
		if i < 0 {
			return fail(2, "--warmup-sets: no flag set %q (flag sets: %s)", n, strings.Join(validateSetNames(), ", "))
		}
		wsets = append(wsets, validate.FlagSets[i])
	}
	if o.warmupIters < 10 || o.warmupIters > 100000 || o.warmupOps < 1 || o.warmupOps > 1000000 || o.warmupSize < 16 || o.warmupSize > 1<<26 {
		return fail(2, "--warmup-iterations (10..100000), --warmup-ops (1..1000000) or --warmup-size (16 B..64 MiB) out of range")
	}
	if o.steadyOnly && o.warmupOnly {
		return fail(2, "--steady-only and --warmup-only exclude each other")
	}
	m, err := d.lookupCPU("host")
	if err != nil {
		return fail(1, "%v", err)
	}
	tiers := d.tiers()
	report := validateReport{}
	if !o.steadyOnly {
		wr, err := validate.Warmup(ctx, validate.WarmupOptions{Java: o.java, JDK: rel, CPU: m, ProfileFile: o.profile, HostProfiles: d.hostProfiles,
			Force: o.force, Tiers: tiers, Rounds: o.rounds, Sets: wsets, DataSize: o.warmupSize, Iterations: o.warmupIters, Ops: o.warmupOps,
			Progress: progressBar(stderr, o.java)})
		if err != nil {
			if ctx.Err() != nil {
				return fail(130, "interrupted")
			}
			return fail(1, "%v", err)
		}
		validate.WriteWarmup(stdout, wr)
		fmt.Fprintln(stdout)
		report.Warmup = wr
	}
	if o.warmupOnly {
		return d.finishValidate(o, rel, report, stdout, fail)
	}
	var wallFunc func(context.Context, validate.Cell) (float64, error)
	if o.wall {
		wallFunc = func(ctx context.Context, c validate.Cell) (float64, error) {
			return validate.WallPerOp(ctx, validate.ModelOptions{JDK: rel, CPU: m, Tiers: tiers}, c)
		}
	}
	res, err := validate.Run(ctx, validate.Options{Java: o.java, JDK: rel, CPU: m, ProfileFile: o.profile, HostProfile: d.hostProfiles,
		Force: o.force, Rounds: o.rounds, Cells: cells, Quick: o.quick, Progress: progressBar(stderr, o.java),
		Model: func(ctx context.Context, c validate.Cell) (validate.ModelResult, error) {
			return validate.ModelPerOp(ctx, validate.ModelOptions{JDK: rel, CPU: m, ProfileFile: o.profile, HostProfiles: d.hostProfiles,
				Force: o.force, Tiers: tiers}, c)
		}, Wall: wallFunc})
	if err != nil {
		if ctx.Err() != nil {
			return fail(130, "interrupted")
		}
		return fail(1, "%v", err)
	}
	validate.WriteTable(stdout, res)
	report.Steady = res
	return d.finishValidate(o, rel, report, stdout, fail)
}

// workloadOnlyFlags are the options a WORKLOAD run takes; the others belong to the built-in
// cells and warm-up loop.
var workloadOnlyFlags = []string{"jvm", "jdk", "profile", "force-profile", "rounds", "sets", "json", "out", "max-ops"}

// validateWorkload is `jitsim validate --jvm=JAVA WORKLOAD`; it returns the exit status.
func (d deps) validateWorkload(ctx context.Context, o validateOptions, rel jdk.Release, stdout, stderr io.Writer, fail func(int, string, ...any) int) int {
	for _, name := range o.changed {
		if !slices.Contains(workloadOnlyFlags, name) {
			return fail(2, "--%s applies to the built-in cells, not to a WORKLOAD (with one: --%s)", name, strings.Join(workloadOnlyFlags, ", --"))
		}
	}
	scen, err := scenario.Find(o.workload)
	if err != nil {
		return fail(2, "%v", err)
	}
	w := scen.WorkloadFile()
	if w == nil {
		return fail(2, "%s runs no workload file: give a workload file (examples/workloads/*.toml) or one of %s", o.workload, strings.Join(shippedWorkloadNames(), ", "))
	}
	if o.maxOps < 0 {
		return fail(2, "--max-ops=%d: want a positive operation count", o.maxOps)
	}
	props := map[string]string{}
	if o.maxOps > 0 {
		props["maxOps"] = strconv.FormatInt(o.maxOps, 10)
	}
	names := splitList(o.sets)
	if len(names) == 0 {
		names = []string{"default"}
	}
	var sets []validate.FlagSet
	for _, n := range names {
		i := slices.IndexFunc(validate.FlagSets, func(f validate.FlagSet) bool { return f.Name == n })
		if i < 0 {
			return fail(2, "--sets: no flag set %q (flag sets: %s)", n, strings.Join(validateSetNames(), ", "))
		}
		sets = append(sets, validate.FlagSets[i])
	}
	m, err := d.lookupCPU("host")
	if err != nil {
		return fail(1, "%v", err)
	}
	rep, err := validate.RunWorkload(ctx, validate.WorkloadOptions{Java: o.java, ModelOptions: validate.ModelOptions{JDK: rel, CPU: m, ProfileFile: o.profile,
		HostProfiles: d.hostProfiles, Force: o.force, Tiers: d.tiers()}, Rounds: o.rounds, Sets: sets, Workload: w, Props: props, Progress: progressBar(stderr, o.java)})
	if err != nil {
		if ctx.Err() != nil {
			return fail(130, "interrupted")
		}
		return fail(1, "%v", err)
	}
	validate.WriteWorkload(stdout, rep)
	return d.finishValidate(o, rel, validateReport{Workload: rep}, stdout, fail)
}

// finishValidate writes --json and --out; it returns the exit status.
func (d deps) finishValidate(o validateOptions, rel jdk.Release, r validateReport, stdout io.Writer, fail func(int, string, ...any) int) int {
	if st := writeValidateJSON(o.out, r, fail); st != 0 {
		return st
	}
	if o.dir == "" {
		return 0
	}
	page := validate.Page{Command: "jitsim validate " + strings.Join(o.args, " "), Steady: r.Steady, Warmup: r.Warmup,
		JVM: o.java + " (JDK " + rel.String() + ")", Profile: o.profile}
	if page.Profile == "" {
		page.Profile = "this host's calibrated profile if there is one, else the built-in host profile"
	}
	var runs []warmup.Run
	for _, w := range r.Warmup {
		runs = append(runs, w.Runs...)
	}
	title := "AESGCMBench warm-up: jitsim (model clock) and the JVM (dashed)"
	if r.Workload != nil {
		page.Workload = r.Workload
		runs = append(runs, r.Workload.Runs...)
		title = r.Workload.Workload + ", thread 0: jitsim (model clock, and \"wall: …\" its wall clock) and the JVM (dashed)"
	}
	if len(runs) > 0 {
		meta := warmup.ReportMeta{Title: title, Command: page.Command}
		if _, err := warmup.WriteAll(o.dir, runs, warmup.Options{}, meta, warmup.PlotOptions{}); err != nil {
			return fail(1, "--out: %v", err)
		}
		page.Report = "report.html"
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return fail(1, "--out: %v", err)
	}
	var b strings.Builder
	if err := validate.WriteHTML(&b, page); err != nil {
		return fail(1, "--out: %v", err)
	}
	if err := writeAtomic(filepath.Join(o.dir, "validate.html"), []byte(b.String())); err != nil {
		return fail(1, "--out: %v", err)
	}
	if st := writeValidateJSON(filepath.Join(o.dir, "validate.json"), r, fail); st != 0 {
		return st
	}
	fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(o.dir, "validate.html"))
	return 0
}

// validateReport is what --json writes.
type validateReport struct {
	Warmup   []validate.WarmupResult  `json:"warmup,omitempty"`
	Steady   []validate.Result        `json:"steady,omitempty"`
	Workload *validate.WorkloadReport `json:"workload,omitempty"`
}

// writeValidateJSON writes the report to file when one is named; it returns the exit status.
func writeValidateJSON(file string, r validateReport, fail func(int, string, ...any) int) int {
	if file == "" {
		return 0
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		err = writeAtomic(file, append(data, '\n'))
	}
	if err != nil {
		return fail(1, "--json: %v", err)
	}
	return 0
}

// splitList splits a comma-separated option value; "" is no items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
