// Package calibrate measures this host into a cost profile for the model clock (docs/model.md
// §4). What does each primitive the model clock prices cost here? The tiers' code per payload
// byte at every level (the reference methods run by jitsim's own interpreter, C1 and C2), a
// call from tier code into another method's code per level, the dispatch from C2 code into a
// Go stub target, the C1 and C2 compilers per bytecode byte, and — with the stub probes the
// caller hands in — every stub variant this host can run, per byte. The attribution follows
// the recorded JVM profile's (runtime/model host.go): a block method costs what ECB costs per
// byte, GHASH.processBlocks what it costs over the payload, every other method (family "*")
// the difference CTR − ECB-encrypt per byte.
//
// The probes run the real tiers, so this package sits above runtime; model.Calibrate, which
// times them, and the probe type stay in runtime/model, below it. The Java side of a
// calibration against a real JVM is jvmharness.Cost.
package calibrate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/jitsim/jitsim/bytecode"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
)

// Options say what Host measures and how.
type Options struct {
	// Table holds the reference methods the tiers run (one JDK profile's).
	Table *bytecode.Table
	// Tiers build the code of levels 0..4 (tiers.Default()).
	Tiers []jrt.Tier
	// Workload is the data every probe works on.
	Workload *model.Workload
	// Stubs are the stub variants' probes over Workload, timed with the others.
	Stubs []model.Probe
	// Timing sets the rounds, the time per probe per round and the host's description in the
	// rows' sources (model.Calibrate).
	Timing model.CalibrateOptions
	// Progress, when set, is told how many probes are timed before the timing starts.
	Progress io.Writer
}

// Host builds the probes — the tiers' code at every level, the dispatch, o.Stubs, the
// compilers, in that order — checks that the tiers' code computes the right bytes, times
// every probe with model.Calibrate and derives the rows that are differences of two probes.
func Host(ctx context.Context, o Options) (model.Profile, error) {
	var probes []model.Probe
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	for level := jrt.Level(0); level <= jrt.LevelFullOptimization; level++ {
		env, err := newEnv(ctx, o, level, nil)
		if err != nil {
			return model.Profile{}, err
		}
		closers = append(closers, env.close)
		ps, err := tierProbes(env, o.Workload, level)
		if err != nil {
			return model.Profile{}, err
		}
		probes = append(probes, ps...)
	}
	noop := func(context.Context, []jrt.Arg) (int64, error) { return 0, nil }
	denv, err := newEnv(ctx, o, jrt.LevelFullOptimization, map[string]jrt.Target{"ElectronicCodeBook.implECBEncrypt": noop})
	if err != nil {
		return model.Profile{}, err
	}
	closers = append(closers, denv.close)
	dp, err := dispatchProbes(denv, o.Workload)
	if err != nil {
		return model.Profile{}, err
	}
	probes = append(probes, dp...)
	probes = append(probes, o.Stubs...)
	cp, err := compileProbes(ctx, o)
	if err != nil {
		return model.Profile{}, err
	}
	probes = append(probes, cp...)
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "jitsim calibrate: timing %d probes in interleaved rounds (thread CPU time)…\n", len(probes))
	}
	raw, err := model.Calibrate(o.Timing, probes)
	if err != nil {
		return model.Profile{}, err
	}
	return deriveRows(raw)
}

// Auxiliary probe names: measured, then turned into model rows by deriveRows.
const (
	auxCTR        = "calibrate:ctr"        // CounterMode.implCrypt over the payload, callees at the same level
	auxWrapped    = "calibrate:wrapped"    // ElectronicCodeBook.encrypt over one block, calling implECBEncrypt
	auxBare       = "calibrate:bare"       // ElectronicCodeBook.implECBEncrypt over one block, called directly
	auxDispatched = "calibrate:dispatched" // ElectronicCodeBook.encrypt at level 4 with its call bound to a Go target
	auxEarly      = "calibrate:early-out"  // ElectronicCodeBook.encrypt at level 4 returning before its call (len 0)
)

// deriveRows turns the measured profile into the model's rows: the auxiliary probes become
// the "*" family per tier (CTR − ECB-encrypt), call per tier (wrapped − bare) and dispatch
// (dispatched − early-out); GHASH.processBlock (JDK 8's one-block method) and JDK 9+'s
// blockMult take processBlocks' cost.
func deriveRows(raw model.Profile) (model.Profile, error) {
	get := func(what, family string, u model.Unit) (model.Row, bool) { return raw.Row(what, family, u) }
	out := raw
	out.Rows = nil
	diff := func(a, b model.Row) (int64, string) {
		d := a.Ps - b.Ps
		src := fmt.Sprintf("difference of two measurements: [%s] minus [%s]", a.Source, b.Source)
		if d < 0 {
			return 0, "0: the difference measured below zero (noise), taken as free: " + src
		}
		return d, src
	}
	for _, r := range raw.Rows {
		switch {
		case r.What == auxCTR:
			ecb, ok := get(r.Family, "AESCrypt.implEncryptBlock", model.PerByte)
			if !ok {
				return model.Profile{}, errors.New("BUG: calibrate: no ECB row for " + r.Family)
			}
			ps, src := diff(r, ecb)
			out.Rows = append(out.Rows, model.Row{What: r.Family, Family: model.AnyFamily, Unit: model.PerByte, Ps: ps,
				Source: "CTR − ECB-encrypt per byte (the counter and XOR work around the block method): " + src})
		case r.What == auxWrapped:
			bare, _ := get(auxBare, r.Family, model.PerCall)
			ps, src := diff(r, bare)
			out.Rows = append(out.Rows, model.Row{What: model.WhatCall, Family: r.Family, Unit: model.PerCall, Ps: ps,
				Source: "a call from this level's code into another method at the same level, with the caller's checks: " + src})
		case r.What == auxDispatched:
			early, _ := get(auxEarly, r.Family, model.PerCall)
			ps, src := diff(r, early)
			out.Rows = append(out.Rows, model.Row{What: model.WhatDispatch, Family: model.AnyFamily, Unit: model.PerCall, Ps: ps,
				Source: "a C2 call site bound to a Go target: " + src})
		case strings.HasPrefix(r.What, "calibrate:"):
			// consumed above
		default:
			out.Rows = append(out.Rows, r)
			if r.Family == "GHASH.processBlocks" && !strings.HasPrefix(r.What, "stub:") {
				for _, f := range []string{"GHASH.processBlock", "GHASH.blockMult"} {
					c := r
					c.Family = f
					c.Source = "as GHASH.processBlocks per byte: " + r.Source
					out.Rows = append(out.Rows, c)
				}
			}
		}
	}
	return out, out.Validate()
}

// WriteTable writes a calibrated profile as a table: tiers in level order, calls, dispatch,
// stubs, compiles.
func WriteTable(w io.Writer, p model.Profile) {
	fmt.Fprintf(w, "# %s\n# CPU %s, %d rows\n", p.Source, p.CPU, len(p.Rows))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "what\tfamily\tper\tcost\tns/KiB")
	rows := append([]model.Row(nil), p.Rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rowOrder(rows[i]) < rowOrder(rows[j]) })
	for _, r := range rows {
		perKiB := ""
		if r.Unit == model.PerByte {
			perKiB = fmt.Sprintf("%.1f", float64(r.Ps)*1024/1000)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.What, r.Family, r.Unit, model.Cost(r.Ps), perKiB)
	}
	tw.Flush()
	if p.Background != nil {
		if cs, err := p.Background.Parse(); err == nil {
			c1, c2, bytes, last := backgroundSummary(cs)
			fmt.Fprintf(w, "background: %d C1 and %d C2 compiles of the JVM's own code, %d bytecode bytes, over %s after the JCE's first use\n",
				c1, c2, bytes, last)
		}
	}
}

// rowOrder groups the table: tiers in level order, calls, dispatch, stubs, compiles.
func rowOrder(r model.Row) int {
	for i, w := range []string{model.WhatInterp, model.WhatC1L1, model.WhatC1L2, model.WhatC1L3, model.WhatC2} {
		if r.What == w || r.What == model.WhatCall && r.Family == w {
			return i
		}
	}
	switch {
	case r.What == model.WhatDispatch:
		return 5
	case strings.HasPrefix(r.What, "stub:"):
		return 6
	}
	return 7
}

// HostDescription names this machine for the rows' sources: the CPU model name the OS
// reports (Linux), the architecture and the CPU count.
func HostDescription() string {
	name := ""
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				name = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if name == "" {
		name = "unknown CPU"
	}
	return fmt.Sprintf("%s, %d CPUs", name, goruntime.NumCPU())
}
