package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// The scenario catalog is package scenario's, run on the three real tiers.
func init() { scenarioCatalog = scenarioRunner{} }

type scenarioRunner struct{}

func (scenarioRunner) Names() []string {
	var names []string
	for _, s := range scenario.List() {
		names = append(names, s.Name)
	}
	return names
}

// Run runs a named scenario on one VM built from the command line's settled flags, or
// every variant of a scenario file (the command line's VM options apply after each
// variant's own). Java exceptions and bad properties end the run with status 1; SIGINT or
// SIGTERM stops it after the current iteration with status 130 or 143; a panic is a jitsim
// bug, reported with the command line that reproduces it (status 70).
func (scenarioRunner) Run(rc RunContext, nameOrFile string, file bool, args []string) int {
	return guardInternal(reproLine(rc, nameOrFile, args), rc.Stderr, os.LookupEnv, func() int {
		return runScenario(rc, nameOrFile, file, args)
	})
}

func runScenario(rc RunContext, nameOrFile string, file bool, args []string) int {
	sig := notifyStop(context.Background(), rc.Stderr)
	defer sig.stop()
	ctx := sig.ctx
	var err error
	if file {
		err = runScenarioFile(ctx, rc, nameOrFile, args)
	} else {
		err = runNamedScenario(ctx, rc, nameOrFile, args)
	}
	if s := sig.caught(); s != nil {
		// What was measured has been written as it was measured (stdout is not
		// buffered); the run stopped at the first iteration boundary after the signal.
		fmt.Fprintf(rc.Stderr, "jitsim run: %s: stopped by %s\n", nameOrFile, signalName(s))
		return signalStatus(s)
	}
	if err == nil {
		return 0
	}
	var ie *jrt.InternalError
	if errors.As(err, &ie) {
		// A compiler thread's panic, carried here as the VM's error: a
		// jitsim bug, which the guard reports with the command line (70).
		panic(ie)
	}
	var je *jce.JavaException
	if errors.As(err, &je) {
		fmt.Fprintf(rc.Stderr, "Exception in thread \"main\" %s\n", je.Error())
		return 1
	}
	fmt.Fprintln(rc.Stderr, "jitsim run:", err)
	return 1
}

// sizeProperties are the -D properties of the catalog's scenarios that size a buffer
// each application thread allocates; they are checked against jrt.CheckMessageSize
// before the VM starts, so a typo with too many zeros is an error, not an out-of-memory
// crash.
var sizeProperties = []string{"msgSize", "dataSize", "aadSize", "pageSize"}

// checkSizeProperties checks the size properties that prop returns (a property's value
// and whether it is set).
func checkSizeProperties(prop func(string) (string, bool)) error {
	for _, name := range sizeProperties {
		v, ok := prop(name)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			continue // the scenario reports a malformed value itself
		}
		if err := jrt.CheckMessageSize("property "+name, n); err != nil {
			return err
		}
	}
	return nil
}

// commandLineProperty is a -D property of the command line.
func commandLineProperty(rc RunContext) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if rc.Result == nil {
			return "", false
		}
		return rc.Result.Property(name)
	}
}

func runNamedScenario(ctx context.Context, rc RunContext, name string, args []string) error {
	s, ok := scenario.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown scenario %q", name)
	}
	if err := checkSizeProperties(commandLineProperty(rc)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	model, ok := rc.CPU.Spec.(cpu.Model)
	if !ok {
		var err error
		if model, err = cpu.Lookup(rc.CPU.Name); err != nil {
			return err
		}
	}
	if rc.Clock != scenario.ClockModel && rc.CPU.Arch != hostArch() {
		return fmt.Errorf("--cpu=%s: a %s CPU model cannot run on the wall clock of this %s host; use --clock=model",
			model.Name, rc.CPU.Arch, hostArch())
	}
	clock := jrt.WallClock()
	cfg := jrt.NewConfig().WithJDK(rc.Flags.JDK()).WithSettledFlags(rc.Flags).WithCPU(model).WithMaxHeapSize(rc.Result.MaxHeapSize).
		WithActiveProcessors(model.Cores).WithTiers(tiers.Default()...).WithClock(clock).WithOutput(rc.Stdout)
	if rc.Clock == scenario.ClockModel {
		// Every cost from the CPU model's profile; the
		// bytes are still computed by this host's code, and the flags, stub
		// choices and compiler counts are the modelled CPU's VM's.
		var err error
		if cfg, err = scenario.ModelConfig(cfg, model.Name, rc.ProfileFile); err != nil {
			return err
		}
	}
	env := scenario.Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: rc.Threads, Clock: clock,
		ClockKind: rc.Clock}
	return s.Run(ctx, env, scenario.PropsFrom(rc.Result.Properties), args, rc.Stdout)
}

func runScenarioFile(ctx context.Context, rc RunContext, path string, args []string) error {
	if rc.ProfileFile != "" {
		return fmt.Errorf("--profile=%s: a scenario file prices each of its runs with its own cpu's profile; --profile applies to a scenario name", rc.ProfileFile)
	}
	f, err := scenario.LoadFile(path)
	if err != nil {
		return err
	}
	cl := commandLineProperty(rc)
	for _, r := range f.Runs() {
		// A -D on the command line applies after the variant's own properties.
		err := checkSizeProperties(func(name string) (string, bool) {
			if v, ok := cl(name); ok {
				return v, true
			}
			v, ok := r.Props[name]
			return v, ok
		})
		if err != nil {
			return fmt.Errorf("%s, variant %q: %w", path, r.Variant, err)
		}
	}
	env := scenario.FileEnv{Tiers: tiers.Default(), Stdout: rc.Stdout, Stderr: rc.Stderr, Options: rc.VMArgs,
		Threads: rc.Threads}
	if len(args) > 0 {
		env.Args = args
	}
	return scenario.RunFile(ctx, f, env)
}

func hostArch() jdk.Arch {
	if jdk.HostArch() == jdk.ARM64 {
		return jdk.ARM64
	}
	return jdk.AMD64
}
