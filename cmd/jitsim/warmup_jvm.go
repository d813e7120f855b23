package main

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/warmup"
)

// jvmRun runs one fork of the real JVM beside a study (--jvm=JAVA, a benchmark scenario):
// the scenario's Java twin (jvmharness.Bench) on java, with the option set's VM options,
// -XX:+PrintCompilation and the study's -D properties, its output read by
// warmup.ParseJVMOutput. Its curve joins the study as the option set "java: <options>".
func jvmRun(ctx context.Context, java, scen string, s *vmSpec, fork int, props map[string]string, args []string) (warmup.Run, error) {
	if len(args) != 3 {
		return warmup.Run{}, fmt.Errorf("--jvm needs the three arguments warmupIterations iterations opsPerIteration (got %q)", args)
	}
	var opts []string
	for _, a := range s.Options {
		if !strings.HasPrefix(a, "-D") {
			opts = append(opts, a)
		}
	}
	opts = append(opts, "-XX:+PrintCompilation")
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		opts = append(opts, "-D"+k+"="+props[k])
	}
	out, err := jvmharness.Run(ctx, java, jvmharness.Bench, opts, append([]string{scen}, args...)...)
	if err != nil {
		return warmup.Run{}, err
	}
	ops, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil || ops < 1 {
		return warmup.Run{}, fmt.Errorf("--jvm: opsPerIteration %q is not a count", args[2])
	}
	sizeProp, sizeDefault := "dataSize", "1024"
	switch scen {
	case "AESGCMUpdateAAD":
		sizeProp, sizeDefault = "aadSize", "1048576"
	case "CBCThroughput":
		sizeProp, sizeDefault = "msgSize", "10240"
	case "ModeLoop":
		sizeDefault = "16384"
	}
	size, err := strconv.ParseInt(cmp.Or(props[sizeProp], sizeDefault), 10, 64)
	if err != nil {
		return warmup.Run{}, fmt.Errorf("--jvm: -D%s=%s is not a byte count", sizeProp, props[sizeProp])
	}
	run, err := warmup.ParseJVMOutput(append(out.Stderr, out.Stdout...), ops, size)
	if err != nil {
		return run, fmt.Errorf("%s: %w", java, err)
	}
	run.Label, run.Fork, run.Scenario, run.Flags, run.CPU, run.JDK, run.Clock =
		"java: "+s.label, fork, scen, s.Options, "host", jvmharness.Version(ctx, java), "wall"
	return run, nil
}
