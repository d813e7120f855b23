package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/jitsim/jitsim/jce"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
)

// scenarioRunner is package scenario's catalog, run on the tiers and clock of the command
// line's resolved configuration.
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
func (scenarioRunner) Run(rc runContext, nameOrFile string, file bool, args []string) int {
	return guardInternal(reproLine(rc, nameOrFile, args), rc.stderr, os.LookupEnv, func() int {
		return runScenario(rc, nameOrFile, file, args)
	})
}

func runScenario(rc runContext, nameOrFile string, file bool, args []string) int {
	sig := notifyStop(context.Background(), rc.stderr)
	defer sig.stop()
	ctx := sig.ctx
	var err error
	switch {
	case file && (scenario.IsWorkloadFile(nameOrFile) || scenario.IsTraceFile(nameOrFile)):
		err = runWorkloadFile(ctx, rc, nameOrFile, args)
	case file:
		err = runScenarioFile(ctx, rc, nameOrFile, args)
	default:
		err = runNamedScenario(ctx, rc, nameOrFile, args)
	}
	if s := sig.caught(); s != nil {
		// What was measured has been written as it was measured (stdout is not
		// buffered); the run stopped at the first iteration boundary after the signal.
		fmt.Fprintf(rc.stderr, "jitsim run: %s: stopped by %s\n", nameOrFile, signalName(s))
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
		fmt.Fprintf(rc.stderr, "Exception in thread \"main\" %s\n", je.Error())
		return 1
	}
	fmt.Fprintln(rc.stderr, "jitsim run:", err)
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
func commandLineProperty(rc runContext) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if rc.run.Result == nil {
			return "", false
		}
		return rc.run.Result.Property(name)
	}
}

func runNamedScenario(ctx context.Context, rc runContext, name string, args []string) error {
	s, ok := scenario.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown scenario %q", name)
	}
	return runScenarioValue(ctx, rc, s, args)
}

// runWorkloadFile runs a workload file or a trace as a scenario on the command line's one
// VM configuration (its release, CPU, clock and VM options), as a scenario name runs.
func runWorkloadFile(ctx context.Context, rc runContext, path string, args []string) error {
	s, err := scenario.Find(path)
	if err != nil {
		return err
	}
	return runScenarioValue(ctx, rc, s, args)
}

// runScenarioValue runs s on one VM built from the command line's settled flags.
func runScenarioValue(ctx context.Context, rc runContext, s scenario.Scenario, args []string) error {
	name := s.Name
	if err := checkSizeProperties(commandLineProperty(rc)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	r := rc.run
	if err := setup.Runnable(r.CPU, r.Clock); err != nil {
		return fmt.Errorf("--cpu=%s: %w; use --clock=model", r.CPU.Name, err)
	}
	if rc.unpriced != nil {
		return rc.unpriced
	}
	clock := r.NewClock()
	cfg := r.Config(clock, rc.stdout)
	env := scenario.Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: r.Threads, Clock: clock, ClockKind: r.Clock}
	return s.Run(ctx, env, scenario.PropsFrom(r.Result.Properties), args, rc.stdout)
}

func runScenarioFile(ctx context.Context, rc runContext, path string, args []string) error {
	r := rc.run
	if r.ProfileFile != "" {
		return fmt.Errorf("--profile=%s: a scenario file prices each of its runs with its own cpu's profile; --profile applies to a scenario name", r.ProfileFile)
	}
	f, err := scenario.LoadFile(path)
	if err != nil {
		return err
	}
	cl := commandLineProperty(rc)
	for _, v := range f.Runs() {
		// A -D on the command line applies after the variant's own properties.
		err := checkSizeProperties(func(name string) (string, bool) {
			if val, ok := cl(name); ok {
				return val, true
			}
			val, ok := v.Props[name]
			return val, ok
		})
		if err != nil {
			return fmt.Errorf("%s, variant %q: %w", path, v.Variant, err)
		}
	}
	env := scenario.FileEnv{Tiers: r.Tiers, NewClock: r.Request.NewClock, Stdout: rc.stdout, Stderr: rc.stderr, Options: r.Options,
		Threads: r.Threads}
	if len(args) > 0 {
		env.Args = args
	}
	return scenario.RunFile(ctx, f, env)
}
