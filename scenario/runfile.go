package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
)

// FileEnv is what RunFile needs besides the file: the tiers to run on
// (tiers.Default() in the CLI), where output goes, and optional additions.
// Each variant's configuration is resolved once, by setup.Resolve.
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
	// NewClock, when set, makes each VM's wall clock (jrt.WallClock when nil).
	NewClock func() jrt.Clock
	// Observer, when set, returns the observer for one variant's run.
	Observer func(variant string) Observer
	// CheckOutput forces checkOutput=true.
	CheckOutput bool
	// Results, when set, receives what RunFile measured: jitsim's value of
	// every published metric and the headline ratios ([[ratio]]).
	Results func(Results)
}

// resolve resolves the run's configuration once (setup.Resolve): its VM
// options plus extra ones after them, for its release, CPU model and clock,
// on tiers. It returns the configuration and the -D properties (the run's,
// then the options'). On an error the Run still holds what java printed
// before it stopped; a bad option is a *flags.Error.
func (r Run) resolve(tiers []jrt.Tier, newClock func() jrt.Clock, threads int, extra ...string) (*setup.Run, map[string]string, error) {
	sr, err := setup.Resolve(setup.Request{JDK: r.JDK, CPU: r.CPU, Options: slices.Concat(r.Options, extra), Clock: r.Clock,
		Threads: threads, Tiers: tiers, NewClock: newClock})
	if err != nil {
		return sr, nil, err
	}
	props := map[string]string{}
	for k, v := range r.Props {
		props[k] = v
	}
	for _, p := range sr.Result.Properties {
		props[p.Name] = p.Value
	}
	return sr, props, nil
}

// RunFile runs every variant of f in file order, each on fresh VMs of its
// options, printing a header before each and the published numbers after
// it, and returns the errors of all failed variants. On the model clock
// (clock = "model") each variant's VMs price everything with the file's
// CPU model's cost profile (setup.Resolve), so the output is the same on
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
	threads := env.Threads
	if threads == 0 {
		threads = r.Threads
	}
	sr, props, err := r.resolve(env.Tiers, env.NewClock, threads, env.Options...)
	// What java prints before the program starts: the parse's notices, then the ergonomics'.
	if sr.Result != nil {
		for _, l := range sr.Result.Stderr {
			io.WriteString(stderr, l)
		}
	}
	for _, l := range sr.Warnings {
		io.WriteString(stderr, l+"\n")
	}
	if err != nil {
		return err
	}
	if err := setup.Runnable(r.CPU, sr.Clock); err != nil {
		return fmt.Errorf("cpu = %q: %w; use clock = %q", r.CPU.Name, err, ClockModel)
	}
	clock := sr.NewClock()
	cfg := sr.Config(clock, stdout)
	e := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: sr.Threads, Clock: clock, ClockKind: sr.Clock,
		CheckOutput: env.CheckOutput}
	if env.Observer != nil {
		e.Observer = env.Observer(r.Variant)
	}
	return r.Scenario.Run(ctx, e, props, r.Args, stdout)
}
