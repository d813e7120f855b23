package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/validate"
)

// validateOptions are `jitsim validate`'s options.
type validateOptions struct {
	java, jdk, profile, out string
	rounds                  int
	sets, ops, sizes        string
	quick, force            bool
}

func (d deps) newValidateCommand(status *int) *cobra.Command {
	var o validateOptions
	cmd := &cobra.Command{
		Use:   "validate --jvm=PATH [--jdk=17] [--profile FILE] [--rounds N] [--sets …] [--ops …] [--sizes …] [--json FILE]",
		Short: "Check the model clock against a real JVM on this machine, side by side",
		Long: `Run composite operations on a real JVM and on jitsim's model clock and compare their
steady-state time per operation: GCM and CBC encryption and decryption at 1, 16 and 64 KiB and
CTR at 1 and 64 KiB, under each flag set (` + strings.Join(validateSetNames(), ", ") + `).
The JVM side is the project's Cost harness, every (flag set, size) one JVM per round, round
after round, in thread CPU time; each cell is the median over the rounds, with its range.
jitsim runs the same loop (scenario ModeLoop) on the model clock, priced by --profile, or by
this host's calibrated profile ('jitsim calibrate --jvm'), or the CPU model's, until its cost
per operation is steady. A cell is within when |jitsim/JVM − 1| ≤ 0.25; a cell whose JVM range
exceeds ±25 % of its median is "JVM too noisy". None of these cells is a primitive 'jitsim
calibrate --jvm' measures.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
	f.BoolVar(&o.quick, "quick", false, "shorter JVM measurements")
	return cmd
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
	m, err := d.lookupCPU("host")
	if err != nil {
		return fail(1, "%v", err)
	}
	tiers := d.tiers()
	res, err := validate.Run(ctx, validate.Options{Java: o.java, JDK: rel, CPU: m, ProfileFile: o.profile, HostProfile: d.hostProfiles,
		Force: o.force, Rounds: o.rounds, Cells: cells, Quick: o.quick, Progress: progressBar(stderr, o.java),
		Model: func(ctx context.Context, c validate.Cell) (validate.ModelResult, error) {
			return validate.ModelPerOp(ctx, validate.ModelOptions{JDK: rel, CPU: m, ProfileFile: o.profile, HostProfiles: d.hostProfiles,
				Force: o.force, Tiers: tiers}, c)
		}})
	if err != nil {
		if ctx.Err() != nil {
			return fail(130, "interrupted")
		}
		return fail(1, "%v", err)
	}
	validate.WriteTable(stdout, res)
	if o.out != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err == nil {
			err = writeAtomic(o.out, append(data, '\n'))
		}
		if err != nil {
			return fail(1, "--json: %v", err)
		}
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
