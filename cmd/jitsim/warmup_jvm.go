package main

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/warmup"
)

// jvmRun runs one fork of the real JVM beside a study (--jvm=JAVA): for a benchmark scenario
// its Java twin (jvmharness.Bench), for a workload file the trace replayer on the workload
// resolved into a trace (res, scenario.Resolved), with the option set's VM options,
// -XX:+PrintCompilation and, for a twin, the study's -D properties; its output is read by
// warmup.ParseJVMOutput. Its curve joins the study as the option set "java: <options>".
func jvmRun(ctx context.Context, java string, scen scenario.Scenario, res *scenario.Resolved, s *vmSpec, fork int, props map[string]string, args []string) (warmup.Run, error) {
	var opts []string
	for _, a := range s.Options {
		if !strings.HasPrefix(a, "-D") {
			opts = append(opts, a)
		}
	}
	opts = append(opts, "-XX:+PrintCompilation")
	var run warmup.Run
	if res != nil {
		out, err := jvmharness.Run(ctx, java, jvmharness.TraceReplay, opts, res.Trace, res.Messages)
		if err != nil {
			return warmup.Run{}, err
		}
		if err := res.Verify(out.Stderr); err != nil {
			return warmup.Run{}, fmt.Errorf("%s: %w", java, err)
		}
		if run, err = warmup.ParseJVMOutput(append(out.Stderr, out.Stdout...), 1, 0); err != nil {
			return run, fmt.Errorf("%s: %w", java, err)
		}
	} else {
		if len(args) != 3 {
			return warmup.Run{}, fmt.Errorf("--jvm needs the three arguments warmupIterations iterations opsPerIteration (got %q)", args)
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			opts = append(opts, "-D"+k+"="+props[k])
		}
		out, err := jvmharness.Run(ctx, java, jvmharness.Bench, opts, append([]string{scen.Name}, args...)...)
		if err != nil {
			return warmup.Run{}, err
		}
		ops, err := strconv.ParseInt(args[2], 10, 64)
		if err != nil || ops < 1 {
			return warmup.Run{}, fmt.Errorf("--jvm: opsPerIteration %q is not a count", args[2])
		}
		p, ok := scen.Prop(scen.BytesProp)
		if !ok {
			return warmup.Run{}, fmt.Errorf("--jvm: scenario %s names no property as its bytes per operation", scen.Name)
		}
		size, err := strconv.ParseInt(cmp.Or(props[p.Name], p.Default), 10, 64)
		if err != nil {
			return warmup.Run{}, fmt.Errorf("--jvm: -D%s=%s is not a byte count", p.Name, props[p.Name])
		}
		if run, err = warmup.ParseJVMOutput(append(out.Stderr, out.Stdout...), ops, size); err != nil {
			return run, fmt.Errorf("%s: %w", java, err)
		}
	}
	run.Label, run.Fork, run.Scenario, run.Flags, run.CPU, run.JDK, run.Clock =
		"java: "+s.label, fork, scen.Name, s.Options, "host", jvmharness.Version(ctx, java), "wall"
	return run, nil
}
