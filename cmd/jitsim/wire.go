package main

import (
	"fmt"
	"io"
	"strings"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// deps are what the commands run on, handed to each command when the command tree is built:
// run wires the real packages, a test builds its own.
type deps struct {
	// lookupCPU resolves a --cpu name; cpus lists every model in order (jitsim cpus, the
	// help texts).
	lookupCPU func(name string) (cpu.Model, error)
	cpus      func() []cpu.Model
	// scenarios lists and runs what `jitsim run` names.
	scenarios scenarioCatalog
	// tiers are the execution tiers of every VM and of calibration.
	tiers func() []jrt.Tier
	// modelTiers, when set, are the tiers of model-clock VMs, whose compile times come from
	// the cost profile: they may load compiled modules from a cache (tiers.ForModelClock).
	modelTiers func() []jrt.Tier
	// wallClock makes each VM's wall clock.
	wallClock func() jrt.Clock
	// hostProfiles is the directory of this host's calibrated profiles (setup.HostProfileDir;
	// "": none), which --cpu=host on the model clock uses when it has one for the release.
	hostProfiles string
	// forceProfile is --force-profile: use a JVM-measured profile that does not fit the run.
	forceProfile bool
}

// wired returns the real packages: the CPU models of stubs/cpu, package scenario's catalog,
// the three tiers and the real wall clock.
func wired() deps {
	return deps{lookupCPU: cpu.Lookup, cpus: cpu.Models, scenarios: scenarioRunner{}, tiers: tiers.Default, modelTiers: tiers.ForModelClock,
		wallClock:    jrt.WallClock,
		hostProfiles: setup.HostProfileDir()}
}

// run is main without the process, on the real packages: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) (string, bool)) int {
	return wired().execute(args, stdin, stdout, stderr, getenv)
}

// tiersOn returns the tiers of a VM on clock: modelTiers on the model clock when wired,
// else tiers (the wall clock's compiles are timed and never cached).
func (d deps) tiersOn(clock string) []jrt.Tier {
	if clock == setup.ClockModel && d.modelTiers != nil {
		return d.modelTiers()
	}
	return d.tiers()
}

// cpuNames lists the --cpu names for help texts.
func (d deps) cpuNames() []string {
	var names []string
	for _, m := range d.cpus() {
		names = append(names, m.Name)
	}
	return names
}

// isScenario reports whether name is one of the catalog's scenarios.
func (d deps) isScenario(name string) bool {
	for _, n := range d.scenarios.Names() {
		if n == name {
			return true
		}
	}
	return false
}

// resolveCPU resolves a --cpu name: a model's full name, or a prefix only one model's name
// starts with (in any case), so --cpu=sandy finds the one Sandy Bridge model.
func (d deps) resolveCPU(name string) (cpu.Model, error) {
	m, err := d.lookupCPU(name)
	if err == nil || name == "" {
		return m, err
	}
	var found []cpu.Model
	for _, c := range d.cpus() {
		if strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(name)) {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 1:
		return d.lookupCPU(found[0].Name)
	case 0:
		return m, err
	}
	var names []string
	for _, c := range found {
		names = append(names, c.Name)
	}
	return m, fmt.Errorf("CPU model %q is ambiguous: %s", name, strings.Join(names, ", "))
}
