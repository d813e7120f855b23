package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/warmup"
)

// ownOpts is the result of splitting a study command's line (warmup,
// bench, sweep) into jitsim's --options, java's VM options, the scenario and
// its arguments. The study commands disable cobra's flag parsing, because
// cobra cannot parse -XX:… options and bench's JMH options are single-dash.
type ownOpts struct {
	vals     map[string][]string // --name → values in order ("" for a switch)
	vm       []string
	scenario string
	rest     []string
	help     bool
}

// last returns the last value of --name, or def.
func (o ownOpts) last(name, def string) string {
	if v := o.vals[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return def
}

// has reports whether --name was given.
func (o ownOpts) has(name string) bool { _, ok := o.vals[name]; return ok }

// intOpt returns --name as an integer ≥ min, or def.
func (o ownOpts) intOpt(name string, def, min int) (int, error) {
	s := o.last(name, "")
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min {
		return 0, fmt.Errorf("--%s: %q is not an integer ≥ %d", name, s, min)
	}
	return n, nil
}

// splitOwn separates the line. withValue names the --options that take a
// value (as --name=value or --name value); switches lists those that take
// none. Any other --option is an error naming it; "-h"/"--help" sets help.
// java's VM options (-X…, -D…, @file) pass through to vm; the first bare
// word names the scenario and everything after it is the scenario's.
func splitOwn(args []string, withValue, switches map[string]bool) (ownOpts, error) {
	o := ownOpts{vals: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				o.scenario, o.rest = args[i+1], args[i+2:]
			}
			return o, nil
		case a == "-h" || a == "--help":
			o.help = true
		case strings.HasPrefix(a, "--") && !flags.IsLauncherOption(a):
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case withValue[name] && hasVal:
				o.vals[name] = append(o.vals[name], val)
			case withValue[name]:
				if i+1 >= len(args) {
					return o, fmt.Errorf("--%s needs a value", name)
				}
				i++
				o.vals[name] = append(o.vals[name], args[i])
			case switches[name] && !hasVal:
				o.vals[name] = append(o.vals[name], "")
			case switches[name]:
				return o, fmt.Errorf("--%s takes no value", name)
			default:
				return o, fmt.Errorf("unknown option %s", a)
			}
		case flags.ProgramKind(a) != "":
			return o, fmt.Errorf("%s: jitsim runs its own scenarios, not Java programs (see 'jitsim scenarios')", a)
		case flags.TakesArgument(a):
			o.vm = append(o.vm, a)
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				o.vm = append(o.vm, args[i])
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@"):
			o.vm = append(o.vm, a)
		default:
			o.scenario, o.rest = a, args[i+1:]
			return o, nil
		}
	}
	return o, nil
}

// vmSpec is one option set of a study: its label and its configuration, resolved once
// (setup.Resolve) from the JDK profile, the CPU model and the option set's java options.
type vmSpec struct {
	label string // the option set as the user wrote it ("default" when empty)
	*setup.Run
}

// optionLabel names an option set in tables and files.
func optionLabel(opts []string) string {
	if len(opts) == 0 {
		return "default"
	}
	return strings.Join(opts, " ")
}

// settleOn resolves the option set's configuration on the given clock
// (setup.ClockWall or ClockModel, with an optional cost profile file for the
// model): only the model clock runs a CPU model of another architecture
// than the host's. The ergonomics' warnings go to stderr, once per spec. A
// HotSpot option error is returned with HotSpot's text.
func (d deps) settleOn(clock, profile, label string, rel jdk.Release, cpuName string, args []string, getenv func(string) (string, bool), stderr io.Writer) (*vmSpec, error) {
	m, err := d.resolveCPU(cpuName)
	if err != nil {
		return nil, fmt.Errorf("--cpu: %w", err)
	}
	if err := setup.Runnable(m, clock); err != nil {
		return nil, fmt.Errorf("--cpu=%s: %w (run, warmup and bench take --clock=model)", m.Name, err)
	}
	r, err := setup.Resolve(setup.Request{JDK: rel, CPU: m, Options: args, Getenv: getenv, ReadFile: os.ReadFile, Clock: clock,
		ProfileFile: profile, ForceProfile: d.forceProfile, HostProfiles: d.hostProfiles, Tiers: d.tiersOn(clock), NewClock: d.wallClock})
	for _, l := range r.Warnings {
		fmt.Fprintln(stderr, l)
	}
	if r.CachedProfile != "" {
		fmt.Fprintf(stderr, "jitsim: the model clock uses this host's calibrated profile %s ('jitsim calibrate --jvm')\n", r.CachedProfile)
	}
	var fe *flags.Error
	switch {
	case err == nil:
		return &vmSpec{label: label, Run: r}, nil
	case r.Flags == nil && errors.As(err, &fe):
		return nil, fmt.Errorf("options %q: %s", label, strings.TrimSpace(fe.Text))
	case !r.Settled:
		return nil, fmt.Errorf("options %q: %w", label, err)
	}
	return nil, err // the cost profile, as FILE:LINE for a bad file
}

// seriesRecorder is the scenario Observer of one fork: it turns application
// thread 0's iterations into series rows, stamps each with the entry level
// of the followed methods at the iteration's end (vm.Levels), and files the
// VM's events under the iteration during which they happened (an event
// between two iterations goes to the next one; one after the last
// iteration to the last).
type seriesRecorder struct {
	mu     sync.Mutex
	vm     *jrt.VM
	unsub  func()
	events []jrt.Event
	its    []warmup.Iteration
	onIter func() // progress, optional
}

// VMStarted implements scenario.VMObserver.
func (r *seriesRecorder) VMStarted(vm *jrt.VM) {
	r.vm = vm
	r.unsub = vm.Subscribe(func(e jrt.Event) {
		r.mu.Lock()
		r.events = append(r.events, e)
		r.mu.Unlock()
	})
}

// Iteration implements scenario.Observer.
func (r *seriesRecorder) Iteration(it scenario.Iteration) {
	if it.Thread != 0 {
		return
	}
	var levels map[string]int
	if r.vm != nil {
		levels = r.vm.Levels()
	}
	r.mu.Lock()
	r.its = append(r.its, warmup.Iteration{Index: len(r.its), Start: it.Start, Duration: it.Duration, Ops: it.Ops,
		Bytes: it.Bytes, Levels: levels})
	r.mu.Unlock()
	if r.onIter != nil {
		r.onIter()
	}
}

// run returns the fork's series (warmup.Run.File). The followed methods are
// the intrinsic candidates the run called plus every method with a compile
// event; only their levels and events are kept.
func (r *seriesRecorder) run(label string, fork int, scen string, s *vmSpec) warmup.Run {
	if r.unsub != nil {
		r.unsub()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	follow := map[string]bool{} // the intrinsic candidates the run called; File adds those with events
	if r.vm != nil && len(r.its) > 0 {
		last := r.its[len(r.its)-1].Levels
		for _, m := range r.vm.IntrinsicMethods() {
			if _, called := last[m]; called {
				follow[m] = true
			}
		}
	}
	run := warmup.Run{Label: label, Fork: fork, Scenario: scen, Flags: s.Options, CPU: s.CPU.Name, JDK: s.JDK.String(),
		Clock: s.Clock, Iterations: r.its}
	events := make([]warmup.Event, len(r.events))
	for i, e := range r.events {
		events[i] = warmup.Event{Kind: warmup.EventKind(e.Kind.String()), Method: e.Method, Level: int(e.Level), At: e.At,
			CompileID: e.CompileID, Detail: e.Detail, BCI: max(e.BCI, 0)}
	}
	run.File(events, slices.Sorted(maps.Keys(follow)))
	return run
}
