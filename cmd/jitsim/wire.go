package main

import (
	"fmt"
	"io"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// The command's seams wired to the real packages: --cpu names come from stubs/cpu, and the
// ergonomics after parsing are the runtime's (policy pass, then vm_version's CPU pass).
func init() {
	cpuCatalog = stubsCPU{}
	ergonomics = runtimeErgonomics
}

type stubsCPU struct{}

func (stubsCPU) Lookup(name string) (CPUModel, error) {
	m, err := cpu.Lookup(name)
	if err != nil {
		return CPUModel{}, err
	}
	arch := jdk.AMD64
	if m.Arch == jdk.ARM64 {
		arch = jdk.ARM64
	}
	return CPUModel{Name: m.Name, Arch: arch, Description: m.Description, Spec: m}, nil
}

func (stubsCPU) Names() []string {
	var names []string
	for _, m := range cpu.Models() {
		names = append(names, m.Name)
	}
	return names
}

// runtimeErgonomics runs jrt.ErgonomicsStderr for the model (its Cores as the active
// processor count) and prints what java would.
func runtimeErgonomics(s *flags.Set, c CPUModel, stderr io.Writer) error {
	m, ok := c.Spec.(cpu.Model)
	if !ok {
		var err error
		if m, err = cpu.Lookup(c.Name); err != nil {
			return err
		}
	}
	lines, err := ergo.SettleStderr(s, m, m.Cores)
	if err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(stderr, l); err != nil {
			return err
		}
	}
	return nil
}
