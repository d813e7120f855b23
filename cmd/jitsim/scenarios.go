package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

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

// Describe returns a scenario's summary and its description: what it does, its
// positional arguments, and each -D property with its default and meaning.
func (scenarioRunner) Describe(name string) (summary, detail string, ok bool) {
	s, ok := scenario.Lookup(name)
	if !ok {
		return "", "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\nusage: jitsim run [options] [-Dproperty=value ...] %s %s\n\nproperties (-Dname=value):\n", s.Name, s.Doc, s.Name, s.Args)
	width := 0
	for _, p := range s.Props {
		width = max(width, len(p.Name)+len(p.Default)+1)
	}
	for _, p := range s.Props {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, p.Name+"="+p.Default, p.Doc)
	}
	return s.Doc, b.String(), true
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
	if rc.ctx != nil {
		return scenarioStatus(rc, nameOrFile, runScenarioIn(rc.ctx, rc, nameOrFile, file, args))
	}
	sig := notifyStop(context.Background(), rc.stderr)
	defer sig.stop()
	err := runScenarioIn(sig.ctx, rc, nameOrFile, file, args)
	if s := sig.caught(); s != nil {
		// What was measured has been written as it was measured (stdout is not
		// buffered); the run stopped at the first iteration boundary after the signal.
		fmt.Fprintf(rc.stderr, "jitsim run: %s: stopped by %s\n", nameOrFile, signalName(s))
		return signalStatus(s)
	}
	return scenarioStatus(rc, nameOrFile, err)
}

// runScenarioIn runs a scenario, a scenario file or a workload file until ctx ends.
func runScenarioIn(ctx context.Context, rc runContext, nameOrFile string, file bool, args []string) error {
	switch {
	case file && (scenario.IsWorkloadFile(nameOrFile) || scenario.IsTraceFile(nameOrFile)):
		return runWorkloadFile(ctx, rc, nameOrFile, args)
	case file:
		return runScenarioFile(ctx, rc, nameOrFile, args)
	}
	return runNamedScenario(ctx, rc, nameOrFile, args)
}

// scenarioStatus turns a scenario's error into its message on stderr and the exit status.
// A run stopped by rc.ctx says why (the playground's time and work caps).
func scenarioStatus(rc runContext, nameOrFile string, err error) int {
	if rc.ctx != nil && rc.ctx.Err() != nil {
		fmt.Fprintf(rc.stderr, "jitsim run: %s: stopped: %v\n", nameOrFile, context.Cause(rc.ctx))
		return 1
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
// each application thread allocates (scenario.SizeProperties); they are checked against
// jrt.CheckMessageSize before the VM starts, so a typo with too many zeros is an error, not
// an out-of-memory crash.
var sizeProperties = scenario.SizeProperties

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
	noteUnreadProperties(rc, s)
	r := rc.run
	if err := setup.Runnable(r.CPU, r.Clock); err != nil {
		return fmt.Errorf("--cpu=%s: %w; use --clock=model", r.CPU.Name, err)
	}
	if rc.unpriced != nil {
		return rc.unpriced
	}
	clock := r.NewClock()
	tty := rc.tty
	if tty == nil {
		tty = rc.stdout
	}
	cfg := r.Config(clock, tty)
	env := scenario.Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: r.Threads, Clock: clock, ClockKind: r.Clock,
		Observer: rc.observer}
	if !rc.stats {
		return s.Run(ctx, env, scenario.PropsFrom(r.Result.Properties), args, rc.stdout)
	}
	stats := scenario.NewPhaseStats(time.Now)
	env.Observer = stats
	err := s.Run(ctx, env, scenario.PropsFrom(r.Result.Properties), args, rc.stdout)
	fmt.Fprintf(rc.stderr, "jitsim run --stats: %s on the %s clock\n", name, r.Clock)
	if werr := stats.Write(rc.stderr, r.Clock); err == nil {
		err = werr
	}
	return err
}

// noteUnreadProperties says on stderr which -D properties the scenario never reads (a Java
// program ignores them silently; a typo then runs the default), with the property meant
// when one is close. stdout stays what java prints.
func noteUnreadProperties(rc runContext, s scenario.Scenario) {
	if rc.run.Result == nil {
		return
	}
	seen := map[string]bool{}
	for _, p := range rc.run.Result.Properties {
		if seen[p.Name] {
			continue
		}
		seen[p.Name] = true
		unread, meant := s.UnreadProperty(p.Name)
		if !unread {
			continue
		}
		hint := "; see 'jitsim scenarios " + s.Name + "'"
		if meant != "" {
			hint = fmt.Sprintf("; did you mean -D%s?", meant)
		}
		fmt.Fprintf(rc.stderr, "jitsim: note: %s does not read property %s%s\n", s.Name, p.Name, hint)
	}
}

func runScenarioFile(ctx context.Context, rc runContext, path string, args []string) error {
	r := rc.run
	if rc.stats {
		return errors.New("--stats applies to a scenario name, not a scenario file")
	}
	if r.ProfileFile != "" {
		return fmt.Errorf("--profile=%s: a scenario file prices each of its runs with its own cpu's profile; --profile applies to a scenario name", r.ProfileFile)
	}
	f, err := scenario.LoadFile(path)
	if err != nil {
		return err
	}
	// The command line wins over the file's keys, with a note naming each key it replaces.
	ov := scenario.Overrides{Props: scenario.PropsFrom(r.Result.Properties)}
	if rc.given["jdk"] {
		ov.JDK = r.Request.JDK.String()
	}
	if rc.given["cpu"] {
		ov.CPU = r.CPU.Name
	}
	if rc.given["clock"] {
		ov.Clock = r.Clock
	}
	if rc.given["threads"] {
		ov.Threads = r.Threads
	}
	if len(args) > 0 {
		ov.Args = args
	}
	notes, err := f.Override(ov)
	if err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(rc.stderr, "jitsim: note:", n)
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
