package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/calibrate"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/tiers"
	"github.com/jitsim/jitsim/validate"
)

// jitsim calibrate measures this host's primitives into a cost profile (package calibrate,
// docs/model.md §4) on the command's tiers, with runtime/model's stub probes.

// calibrateOptions are the command's options.
type calibrateOptions struct {
	out   string
	quick bool
	jdk   string
	// jvms are --jvm: measure these real JVMs instead of jitsim's tiers.
	jvms []string
	// rounds is --rounds for --jvm.
	jvmRounds int
	// rounds, round and size, when set, override the rounds, the minimum time per probe
	// per round and the payload (tests; no command-line flag).
	rounds int
	round  time.Duration
	size   int
}

func (d deps) newCalibrateCommand(status *int) *cobra.Command {
	var o calibrateOptions
	cmd := &cobra.Command{
		Use:   "calibrate [--jvm=PATH]... [--rounds=N] [--out FILE.json] [--quick] [--jdk=17]",
		Short: "Measure this host's primitives and write a cost profile for the model clock",
		Long: `Measure, on this host, what each primitive of the model clock costs: every tier's code per
payload byte at levels 0-4 (jitsim's interpreter, C1 and C2 running the reference methods), every
stub variant this CPU can run, a call from tier code into another method at each level, C2's
dispatch into a stub, and C1/C2 compiles per bytecode byte. Each number is the median of
interleaved rounds in thread CPU time (the machine may be shared), with its range in the row's
source. The table goes to stdout; --out writes the profile as JSON, which the model loads
(model.LoadProfileFile). --quick takes 3 short rounds instead of 7 of 50 ms.

With --jvm=PATH (repeatable: one profile per JVM in the file), measure that real JVM on this
CPU instead: the project's Cost harness times, in thread CPU time over 16 KiB, the AES block
methods (ECB encrypt and decrypt), GHASH (the JDK's own GHASH.update, called directly), the
counter loop (CTR), a non-inlined call and the provider glue (16-byte messages) at each
execution level (-Xint; C1 through TieredStopAtLevel=1, 2, 3; C2 with the AES and GHASH
intrinsics off), every stub variant the CPU selects through ECB, CTR and GHASH.update at
each UseAVX level — and the combined GCM stub through the JDK's own
GaloisCounterMode.implGCMCrypt0, called directly, on the releases that have it (21 and later)
— and the compilers' time per compile: each round also runs the harness over ECB, GHASH and
CTR at the JVM's defaults with -XX:+PrintCompilation and a flight recording of its
jdk.Compilation events, and each compiler is priced by a fixed part per compile and a part per
bytecode byte (own and inlined) fitted over its compiles, the methods jitsim runs by their own
compiles (a JVM without flight recording or the jfr tool keeps -XX:+CITime's speed). Every flag
set runs once per round, round after round. Each row takes, over the rounds the machine sentinel
(below) did not mark, the median of those within 25 % of their fastest when two or more lie
there, else the median of them all: a shared machine slows
code down by up to 1.6 times for seconds at a time and never speeds it up, so a fast speed
that two rounds reproduce is the undisturbed one. Its source names the command, the rounds it
rests on and their range. A level's run whose Java rows disagree by more than ±25 % with no
two rounds at the fast end, or whose rounds the machine sentinel marked all but one, gets up
to two more rounds while the JVM's calibration has run less than 4 minutes (not with --quick).
The machine sentinel is a loop of table reads the harness times inside the JVM before a row's
timed rounds and after each; a round whose reading is over 1.2 times the fastest reading
of the same row ran while the machine was slow, and a row's value leaves it out when
two or more other rounds remain. The table counts each row's marked rounds, and a line sums
them up. The profile records the JVM, the CPU, the date and
the load; it prices only that release on a CPU with these features, and is also written to
this host's profile cache, where --cpu=host on the model clock finds it:
` + cacheDirDoc + `
Never GCM or CBC of a payload: those are what 'jitsim validate' checks the model against.
Under 5 minutes per JVM with its 3 rounds on 2 vCPUs; --quick about a minute (1 round, short timings).`,
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
	f.StringArrayVar(&o.jvms, "jvm", nil, "measure this real JVM (its java) instead of jitsim's tiers; repeatable")
	f.IntVar(&o.jvmRounds, "rounds", 0, "with --jvm: interleaved rounds (default 3; --quick 1)")
	return cmd
}

// cacheDirDoc is where the help says calibrated host profiles go.
const cacheDirDoc = "  $XDG_CACHE_HOME/jitsim/profiles (default ~/.cache/jitsim/profiles), one file per CPU feature set and release."

// runCalibrate is `jitsim calibrate`; it returns the exit status.
func (d deps) runCalibrate(ctx context.Context, o calibrateOptions, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(o.jvms) > 0 {
		return d.calibrateJVMs(ctx, o, stdout, stderr)
	}
	if o.jvmRounds != 0 {
		fmt.Fprintln(stderr, "jitsim calibrate: --rounds applies to --jvm")
		return 2
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

// calibrateBudget is how long a JVM's calibration may have run for its unsettled level runs
// to get an extra round (calibrate.JVMOptions.Budget): the rounds themselves take about 3.7
// minutes per JVM on 2 vCPUs, and a round of the five level runs about 50 s, within the
// 5 minutes a JVM's calibration may take.
const calibrateBudget = 4 * time.Minute

// calibrateJVMs is `jitsim calibrate --jvm=…`: each JVM in turn, a profile each; the file
// (--out) and the host cache are written only once every JVM succeeded, through a temporary
// file renamed into place, so an interrupt leaves no half-written profile.
func (d deps) calibrateJVMs(ctx context.Context, o calibrateOptions, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	rounds := o.jvmRounds
	switch {
	case rounds < 0 || rounds > 100:
		fmt.Fprintf(stderr, "jitsim calibrate: --rounds=%d: want 1 to 100\n", rounds)
		return 2
	case rounds == 0 && o.quick:
		rounds = 1
	case rounds == 0:
		rounds = 3
	}
	m, err := d.lookupCPU("host")
	if err != nil {
		fmt.Fprintln(stderr, "jitsim calibrate:", err)
		return 1
	}
	var set model.ProfileSet
	seen := map[jdk.Release]string{}
	for _, java := range o.jvms {
		progress := progressBar(stderr, java)
		extra := 2
		if o.quick {
			extra = 0
		}
		res, err := calibrate.JVM(ctx, calibrate.JVMOptions{Java: java, CPU: m, Rounds: rounds, Quick: o.quick,
			ExtraRounds: extra, Budget: calibrateBudget,
			Command: "jitsim calibrate " + strings.Join(calibrateArgs(o, java, rounds), " "), Progress: progress,
			ModelOp: validate.ModelGlueOp(m, tiers.Default())})
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(stderr, "\njitsim calibrate: interrupted; no profile written")
				return 130
			}
			fmt.Fprintln(stderr, "\njitsim calibrate:", err)
			return 1
		}
		if prev, dup := seen[res.Release]; dup {
			fmt.Fprintf(stderr, "jitsim calibrate: --jvm=%s and --jvm=%s are both JDK %s; a profile file holds one per release\n", prev, java, res.Release)
			return 2
		}
		seen[res.Release] = java
		fmt.Fprintf(stdout, "# %s: JDK %s, %s %s, on %s\n", java, res.Release, res.Profile.Provenance.JVMVendor, res.Profile.Provenance.JVMVersion, res.Profile.Provenance.CPUModel)
		calibrate.WriteMeasured(stdout, res.Measured)
		fmt.Fprintf(stdout, "# %s\n", res.Sentinel)
		fmt.Fprintf(stdout, "# compile times: %s\n", res.Compiles)
		calibrate.WriteTable(stdout, res.Profile)
		set.Profiles = append(set.Profiles, res.Profile)
	}
	var data []byte
	if len(set.Profiles) == 1 {
		data, err = set.Profiles[0].MarshalIndent()
	} else {
		data, err = json.MarshalIndent(set, "", "  ")
		data = append(data, '\n')
	}
	if err != nil {
		fmt.Fprintln(stderr, "jitsim calibrate:", err)
		return 1
	}
	if o.out != "" {
		if err := writeAtomic(o.out, data); err != nil {
			fmt.Fprintln(stderr, "jitsim calibrate: --out:", err)
			return 1
		}
		fmt.Fprintf(stderr, "jitsim calibrate: wrote %s (%d profile(s))\n", o.out, len(set.Profiles))
	}
	if d.hostProfiles != "" {
		for _, p := range set.Profiles {
			rel, _ := jdk.Parse(p.Release)
			file := setup.HostProfileFile(d.hostProfiles, m, rel)
			one, _ := p.MarshalIndent()
			if err := os.MkdirAll(d.hostProfiles, 0o755); err != nil {
				fmt.Fprintln(stderr, "jitsim calibrate: host profile cache:", err)
				return 1
			}
			if err := writeAtomic(file, one); err != nil {
				fmt.Fprintln(stderr, "jitsim calibrate: host profile cache:", err)
				return 1
			}
			fmt.Fprintf(stderr, "jitsim calibrate: --cpu=host --jdk=%s on the model clock now uses %s\n", p.Release, file)
		}
	}
	return 0
}

// calibrateArgs is the command line of one JVM's calibration, for its provenance.
func calibrateArgs(o calibrateOptions, java string, rounds int) []string {
	a := []string{"--jvm=" + java, fmt.Sprintf("--rounds=%d", rounds)}
	if o.quick {
		a = append(a, "--quick")
	}
	return a
}

// writeAtomic writes data to a temporary file beside name and renames it into place.
func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
