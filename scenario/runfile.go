package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/ergo"
)

// FileEnv is what RunFile needs besides the file: the tiers to run on
// (tiers.Default() in the CLI), where output goes, and optional additions.
type FileEnv struct {
	Tiers  []jrt.Tier
	Stdout io.Writer // the scenario's output and PrintCompilation & co.
	Stderr io.Writer // option notices and VM warnings
	// Options are VM options from the command line, applied after each
	// variant's (so they win), -D properties included.
	Options []string
	// Args, when non-nil, replace every variant's positional arguments
	// (`jitsim run FILE args…`).
	Args []string
	// Threads, when > 0, is --threads: it wins over the file's threads.
	Threads int
	// Observer, when set, returns the observer for one variant's run.
	Observer func(variant string) Observer
	// CheckOutput forces checkOutput=true.
	CheckOutput bool
	// Results, when set, receives what RunFile measured: jitsim's value of
	// every published metric and the headline ratios ([[ratio]]).
	Results func(Results)
}

// Config parses the run's VM options (plus extra ones after them) for its
// profile and CPU model, settles them with the runtime's ergonomics, and
// returns the VM configuration together with the -D properties (the run's
// merged with the extra options') and the lines java would print to
// stderr before the program starts. A bad option is a *flags.Error.
func (r Run) Config(tiers []jrt.Tier, clock jrt.Clock, out io.Writer, extra ...string) (jrt.Config, map[string]string, []string, error) {
	set, res, err := flags.Parse(flags.Options{JDK: r.JDK, Arch: r.CPU.Arch, Args: slices.Concat(r.Options, extra)})
	var stderr []string
	if res != nil {
		stderr = append(stderr, res.Stderr...)
	}
	if err != nil {
		return jrt.Config{}, nil, stderr, err
	}
	lines, err := ergo.SettleStderr(set, r.CPU, r.CPU.Cores)
	if err != nil {
		return jrt.Config{}, nil, stderr, err
	}
	for _, l := range lines {
		stderr = append(stderr, l+"\n")
	}
	props := map[string]string{}
	for k, v := range r.Props {
		props[k] = v
	}
	for _, p := range res.Properties {
		props[p.Name] = p.Value
	}
	cfg := jrt.NewConfig().WithJDK(r.JDK).WithSettledFlags(set).WithCPU(r.CPU).WithActiveProcessors(r.CPU.Cores).WithMaxHeapSize(res.MaxHeapSize).
		WithTiers(tiers...).WithClock(clock).WithOutput(out)
	return cfg, props, stderr, nil
}

// RunFile runs every variant of f in file order, each on fresh VMs of its
// options, printing a header before each and the published numbers after
// it, and returns the errors of all failed variants. On the model clock
// (clock = "model") each variant's VMs price everything with the file's
// CPU model's cost profile (ModelConfig), so the output is the same on
// every run and every machine.
func RunFile(ctx context.Context, f *File, env FileEnv) error {
	stdout, stderr := env.Stdout, env.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	fmt.Fprintf(stdout, "# %s\n# %s\n", f.Title, f.Path)
	if f.Source != "" {
		fmt.Fprintf(stdout, "# published numbers: %s\n", f.Source)
	}
	var errs []error
	rec := newRecorder(f)
	for _, r := range f.Runs() {
		if env.Args != nil {
			r.Args = env.Args
		}
		line := slices.Concat([]string{"jitsim", "run", "--jdk=" + r.JDK.String(), "--cpu=" + r.CPU.Name, "--clock=" + r.Clock},
			r.Options, env.Options, []string{r.Scenario.Name}, r.Args)
		fmt.Fprintf(stdout, "\n=== %s: %s\n", r.Variant, strings.Join(line, " "))
		venv := env
		venv.Observer = func(variant string) Observer {
			var inner Observer
			if env.Observer != nil {
				inner = env.Observer(variant)
			}
			return rec.observer(variant, inner)
		}
		if err := runVariant(ctx, r, venv, stdout, stderr); err != nil {
			fmt.Fprintf(stdout, "--- %s failed: %v\n", r.Variant, err)
			errs = append(errs, fmt.Errorf("%s, variant %q: %w", f.Path, r.Variant, err))
			continue
		}
		for _, p := range r.Published {
			pm := ""
			if p.Error != 0 {
				pm = fmt.Sprintf(" ± %g", p.Error)
			}
			fmt.Fprintf(stdout, "--- published: %s = %g%s %s\n", p.Metric, p.Value, pm, p.Unit)
		}
		printMeasured(stdout, rec, r)
	}
	res := rec.results(f)
	printRatios(stdout, f, res)
	if env.Results != nil {
		env.Results(res)
	}
	return errors.Join(errs...)
}

// runVariant runs one Run.
func runVariant(ctx context.Context, r Run, env FileEnv, stdout, stderr io.Writer) error {
	clock := jrt.WallClock()
	cfg, props, notes, err := r.Config(env.Tiers, clock, stdout, env.Options...)
	for _, l := range notes {
		io.WriteString(stderr, l)
	}
	if err != nil {
		return err
	}
	if r.Clock == ClockModel {
		if cfg, err = ModelConfig(cfg, r.CPU.Name, ""); err != nil {
			return err
		}
	} else if r.CPU.Arch != jdk.HostArch() {
		return fmt.Errorf("cpu = %q: a %s CPU model cannot run on the wall clock of this %s host; use clock = %q",
			r.CPU.Name, r.CPU.Arch, jdk.HostArch(), ClockModel)
	}
	threads := env.Threads
	if threads == 0 {
		threads = r.Threads
	}
	e := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: threads, Clock: clock, ClockKind: r.Clock,
		CheckOutput: env.CheckOutput}
	if env.Observer != nil {
		e.Observer = env.Observer(r.Variant)
	}
	return r.Scenario.Run(ctx, e, props, r.Args, stdout)
}
