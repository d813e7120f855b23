package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
)

// newCPUsCommand is `jitsim cpus`: every CPU model --cpu accepts, its architecture and the
// part it stands for, then its features (stubs/cpu) and where the model clock's costs for it
// come from (runtime/model's profile source; docs/model.md §2). `jitsim calibrate` writes a
// profile of this host for --profile.
func (d deps) newCPUsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "cpus",
		Short: "List the CPU models --cpu accepts, with their features and cost-profile sources",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, m := range d.cpus() {
				if _, err := fmt.Fprintf(w, "%-20s %-6s %s\n", m.Name, m.Arch, m.Description); err != nil {
					return err
				}
				fmt.Fprintf(w, "    features: %s\n", m.Features)
				p, err := model.Lookup(m.Name)
				if err != nil {
					fmt.Fprintf(w, "    costs:    no cost profile (%v); --clock=model needs one\n", err)
					continue
				}
				fmt.Fprintf(w, "    costs:    %d rows at %.1f GHz (docs/model.md §7); Java code: %s; stubs: %s\n", len(p.Rows), p.GHz,
					rowKind(p, func(r model.Row) bool { return r.What == model.WhatC2 }), rowKind(p, func(r model.Row) bool { return strings.HasPrefix(r.What, "stub:") }))
				fmt.Fprintf(w, "    sources:  %s\n", strings.TrimPrefix(p.Source, m.Description+". "))
				if m.Name == "host" {
					fmt.Fprintf(w, "    recorded: %s\n", model.HostRecording)
					for _, rel := range jdk.All() {
						if d.hostProfiles == "" {
							break
						}
						if f := setup.HostProfileFile(d.hostProfiles, m, rel); isFile(f) {
							fmt.Fprintf(w, "    calibrated: --jdk=%s on the model clock uses %s\n", rel, f)
						}
					}
				}
			}
			_, err := fmt.Fprintln(w, "\n'jitsim calibrate --jvm=JAVA' measures your JVM on this host into the profile --cpu=host uses;\n"+
				"'jitsim validate --jvm=JAVA' checks the model against it; 'jitsim calibrate --out FILE.json' measures jitsim's own tiers.")
			return err
		},
	}
}

// rowKind says in a few words where a profile's rows of one kind come from, by the first
// matching row's source (docs/model.md §2).
func rowKind(p model.Profile, match func(model.Row) bool) string {
	for _, r := range p.Rows {
		if !match(r) {
			continue
		}
		switch {
		case strings.HasPrefix(r.Source, "jitsim calibrate"):
			return "measured by jitsim calibrate"
		case strings.Contains(r.Source, "scaled to"):
			return "JDK 17 measured on the recording host, scaled by clock × IPC"
		case strings.HasPrefix(r.Source, "JVM measurement"):
			return "JDK 17/25 measured on the recording host"
		case strings.HasPrefix(r.Source, "instruction mix"):
			return "instruction mix × published latencies and throughputs"
		}
		return "see the row sources"
	}
	return "none"
}

// isFile reports whether name is a regular file.
func isFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}
