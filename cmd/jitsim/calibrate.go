package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/calibrate"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

// jitsim calibrate measures this host's primitives into a cost profile (package calibrate,
// docs/model.md §4) on the command's tiers, with runtime/model's stub probes.

// calibrateOptions are the command's options.
type calibrateOptions struct {
	out   string
	quick bool
	jdk   string
	// rounds, round and size, when set, override the rounds, the minimum time per probe
	// per round and the payload (tests; no command-line flag).
	rounds int
	round  time.Duration
	size   int
}

func (d deps) newCalibrateCommand(status *int) *cobra.Command {
	var o calibrateOptions
	cmd := &cobra.Command{
		Use:   "calibrate [--out FILE.json] [--quick] [--jdk=17]",
		Short: "Measure this host's primitives and write a cost profile for the model clock",
		Long: `Measure, on this host, what each primitive of the model clock costs: every tier's code per
payload byte at levels 0-4 (jitsim's interpreter, C1 and C2 running the reference methods), every
stub variant this CPU can run, a call from tier code into another method at each level, C2's
dispatch into a stub, and C1/C2 compiles per bytecode byte. Each number is the median of
interleaved rounds in thread CPU time (the machine may be shared), with its range in the row's
source. The table goes to stdout; --out writes the profile as JSON, which the model loads
(model.LoadProfileFile). --quick takes 3 short rounds instead of 7 of 50 ms.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			*status = d.runCalibrate(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "write the profile as JSON to this file")
	f.BoolVar(&o.quick, "quick", false, "3 rounds of 10 ms and 4 KiB payloads (a rough profile in a few seconds)")
	f.StringVar(&o.jdk, "jdk", jdk.R17.String(), "JDK profile whose reference methods are run (the recorded JVM profile is JDK 17's)")
	return cmd
}

// runCalibrate is `jitsim calibrate`; it returns the exit status.
func (d deps) runCalibrate(ctx context.Context, o calibrateOptions, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	prof, err := d.calibrateHost(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim calibrate:", err)
		return 1
	}
	calibrate.WriteTable(stdout, prof)
	if o.out != "" {
		data, err := prof.MarshalIndent()
		if err == nil {
			err = os.WriteFile(o.out, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "jitsim calibrate: --out:", err)
			return 1
		}
		fmt.Fprintf(stderr, "jitsim calibrate: wrote %s (%d rows)\n", o.out, len(prof.Rows))
	}
	return 0
}

// calibrateHost turns the options into calibrate.Host's: the rounds and payload size
// (--quick: 3 rounds of 10 ms over 4 KiB; else 7 of 50 ms over 16 KiB), the JDK profile's
// reference methods, the tiers, and the stub probes.
func (d deps) calibrateHost(ctx context.Context, o calibrateOptions, progress io.Writer) (model.Profile, error) {
	copts := model.CalibrateOptions{Describe: calibrate.HostDescription()}
	size := 16 << 10
	if o.quick {
		copts.Rounds, copts.Round, size = 3, 10*time.Millisecond, 4<<10
	}
	if o.rounds > 0 {
		copts.Rounds, copts.Round = o.rounds, o.round
	}
	if o.size > 0 {
		size = o.size
	}
	rel, err := jdk.Parse(o.jdk)
	if err != nil {
		return model.Profile{}, fmt.Errorf("--jdk: %w", err)
	}
	tab, err := bytecode.ForProfile(rel)
	if err != nil {
		return model.Profile{}, err
	}
	w := model.NewWorkload(size)
	sp, err := model.StubProbes(w.Key, w.In)
	if err != nil {
		return model.Profile{}, err
	}
	return calibrate.Host(ctx, calibrate.Options{Table: tab, Tiers: d.tiers(), Workload: w, Stubs: sp, Timing: copts, Progress: progress})
}
