package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/jitsim/jitsim/flags"
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
// variant's own). Java exceptions and bad properties end the run with status 1.
func (scenarioRunner) Run(rc RunContext, nameOrFile string, file bool, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if rc.Clock == scenario.ClockModel {
		fmt.Fprintln(rc.Stderr, "jitsim run:", scenario.ErrModelClock)
		return 1
	}
	var err error
	if file {
		err = runScenarioFile(ctx, rc, nameOrFile, args)
	} else {
		err = runNamedScenario(ctx, rc, nameOrFile, args)
	}
	if err == nil {
		return 0
	}
	var je *jrt.JavaException
	if errors.As(err, &je) {
		fmt.Fprintf(rc.Stderr, "Exception in thread \"main\" %s\n", je.Error())
		return 1
	}
	fmt.Fprintln(rc.Stderr, "jitsim run:", err)
	return 1
}

func runNamedScenario(ctx context.Context, rc RunContext, name string, args []string) error {
	s, ok := scenario.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown scenario %q", name)
	}
	model, ok := rc.CPU.Spec.(cpu.Model)
	if !ok {
		var err error
		if model, err = cpu.Lookup(rc.CPU.Name); err != nil {
			return err
		}
	}
	if rc.CPU.Arch != hostArch() {
		return fmt.Errorf("--cpu=%s: a %s CPU model cannot run on the wall clock of this %s host; use --clock=model",
			model.Name, rc.CPU.Arch, hostArch())
	}
	clock := jrt.WallClock()
	cfg := jrt.NewConfig().WithJDK(rc.Flags.JDK()).WithSettledFlags(rc.Flags).WithCPU(model).
		WithActiveProcessors(model.Cores).WithTiers(tiers.Default()...).WithClock(clock).WithOutput(rc.Stdout)
	env := scenario.Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: rc.Threads, Clock: clock,
		ClockKind: rc.Clock}
	return s.Run(ctx, env, scenario.PropsFrom(rc.Result.Properties), args, rc.Stdout)
}

func runScenarioFile(ctx context.Context, rc RunContext, path string, args []string) error {
	f, err := scenario.LoadFile(path)
	if err != nil {
		return err
	}
	env := scenario.FileEnv{Tiers: tiers.Default(), Stdout: rc.Stdout, Stderr: rc.Stderr, Options: rc.VMArgs,
		Threads: rc.Threads}
	if len(args) > 0 {
		env.Args = args
	}
	return scenario.RunFile(ctx, f, env)
}

func hostArch() flags.Arch {
	if cpu.HostArch() == cpu.ARM64 {
		return flags.ARM64
	}
	return flags.AMD64
}
