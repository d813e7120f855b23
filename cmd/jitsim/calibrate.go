package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/tiers/c1"
	"github.com/jitsim/jitsim/tiers/c2"
	"github.com/jitsim/jitsim/tiers/interp"
)

// jitsim calibrate measures this host's primitives with model.Calibrate and writes a cost
// profile (docs/model.md §4): the tiers' code per payload byte at every level (the reference
// methods run by jitsim's own interpreter, C1 and C2), every stub variant this host can run
// per byte, a call from tier code into another method's code per level, the dispatch from C2
// code into a Go stub target, and the C1 and C2 compilers per bytecode byte. The attribution
// follows the recorded JVM profile's (runtime/model host.go): a block method costs what ECB
// costs per byte, GHASH.processBlocks what it costs over the payload, every other method
// (family "*") the difference CTR − ECB-encrypt per byte.

// calibrateOptions are the command's options.
type calibrateOptions struct {
	out   string
	quick bool
	jdk   string
	// rounds, round and size, when set, override the rounds, the minimum time per probe
	// per round and the payload (tests; no command-line flag).
	rounds int
	round  time.Duration
	size   int
}

func newCalibrateCommand(status *int) *cobra.Command {
	var o calibrateOptions
	cmd := &cobra.Command{
		Use:   "calibrate [--out FILE.json] [--quick] [--jdk=17]",
		Short: "Measure this host's primitives and write a cost profile for the model clock",
		Long: `Measure, on this host, what each primitive of the model clock costs: every tier's code per
payload byte at levels 0-4 (jitsim's interpreter, C1 and C2 running the reference methods), every
stub variant this CPU can run, a call from tier code into another method at each level, C2's
dispatch into a stub, and C1/C2 compiles per bytecode byte. Each number is the median of
interleaved rounds in thread CPU time (the machine may be shared), with its range in the row's
source. The table goes to stdout; --out writes the profile as JSON, which the model loads
(model.LoadProfileFile). --quick takes 3 short rounds instead of 7 of 50 ms.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			*status = runCalibrate(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "write the profile as JSON to this file")
	f.BoolVar(&o.quick, "quick", false, "3 rounds of 10 ms and 4 KiB payloads (a rough profile in a few seconds)")
	f.StringVar(&o.jdk, "jdk", jdk.R17.String(), "JDK profile whose reference methods are run (the recorded JVM profile is JDK 17's)")
	return cmd
}

// runCalibrate is `jitsim calibrate`; it returns the exit status.
func runCalibrate(ctx context.Context, o calibrateOptions, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	prof, err := calibrateHost(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim calibrate:", err)
		return 1
	}
	printProfile(stdout, prof)
	if o.out != "" {
		data, err := prof.MarshalIndent()
		if err == nil {
			err = os.WriteFile(o.out, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "jitsim calibrate: --out:", err)
			return 1
		}
		fmt.Fprintf(stderr, "jitsim calibrate: wrote %s (%d rows)\n", o.out, len(prof.Rows))
	}
	return 0
}

// calibrateHost builds the probes, runs model.Calibrate and derives the rows that are
// differences of two probes.
func calibrateHost(ctx context.Context, o calibrateOptions, progress io.Writer) (model.Profile, error) {
	copts := model.CalibrateOptions{Describe: hostDescription()}
	size := 16 << 10
	if o.quick {
		copts.Rounds, copts.Round, size = 3, 10*time.Millisecond, 4<<10
	}
	if o.rounds > 0 {
		copts.Rounds, copts.Round = o.rounds, o.round
	}
	if o.size > 0 {
		size = o.size
	}
	rel, err := jdk.Parse(o.jdk)
	if err != nil {
		return model.Profile{}, fmt.Errorf("--jdk: %w", err)
	}
	tab, err := bytecode.ForProfile(rel)
	if err != nil {
		return model.Profile{}, err
	}
	cs := newCalibState(size)
	var probes []model.Probe
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	for level := jrt.Level(0); level <= 4; level++ {
		env := newCalibEnv(ctx, tab, level, nil)
		closers = append(closers, env.close)
		ps, err := tierProbes(env, cs, level)
		if err != nil {
			return model.Profile{}, err
		}
		probes = append(probes, ps...)
	}
	noop := func(context.Context, []jrt.Arg) (int64, error) { return 0, nil }
	denv := newCalibEnv(ctx, tab, 4, map[string]jrt.Target{"ElectronicCodeBook.implECBEncrypt": noop})
	closers = append(closers, denv.close)
	dp, err := dispatchProbes(denv, cs)
	if err != nil {
		return model.Profile{}, err
	}
	probes = append(probes, dp...)
	sp, err := model.StubProbes(cs.key, cs.in)
	if err != nil {
		return model.Profile{}, err
	}
	probes = append(probes, sp...)
	probes = append(probes, compileProbes(ctx, tab)...)
	fmt.Fprintf(progress, "jitsim calibrate: timing %d probes in interleaved rounds (thread CPU time)…\n", len(probes))
	raw, err := model.Calibrate(copts, probes)
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

// calibState is the data every probe works on: an AES-128 key, its schedules, payloads.
type calibState struct {
	key, in, out, iv []byte
	ke, kd           []uint32
	h                [2]uint64
}

func newCalibState(size int) *calibState {
	s := &calibState{key: []byte("jitsim calibrate"), in: make([]byte, size), out: make([]byte, size), iv: make([]byte, 16)}
	for i := range s.in {
		s.in[i] = byte(i*7 + 3)
	}
	var err error
	if s.ke, s.kd, err = stubaes.ExpandKey(s.key); err != nil {
		panic("BUG: calibrate: " + err.Error())
	}
	var hb [16]byte
	stubaes.EncryptBlockGeneric(s.ke, hb[:], hb[:])
	s.h = [2]uint64{binary.BigEndian.Uint64(hb[:]), binary.BigEndian.Uint64(hb[8:])}
	return s
}

// tierProbes are the probes of one level's code.
func tierProbes(env *calibEnv, s *calibState, level jrt.Level) ([]model.Probe, error) {
	what, err := model.TierWhat(int(level))
	if err != nil {
		return nil, err
	}
	n := len(s.in)
	at := fmt.Sprintf("jitsim's %s code (level %d, JDK %s bodies)", tierOf(level).Name(), level, env.tab.Profile)
	ecb := func(key string, k []uint32) func() error {
		return func() error {
			_, err := env.call(key, bytecode.IntsArg(k), bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		}
	}
	ghash := func() error {
		st := []uint64{0, 0}
		_, err := env.call("GHASH.processBlocks", bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(n/16), bytecode.LongsArg(st), bytecode.LongsArg(s.h[:]))
		return err
	}
	ctr := func() error {
		counter, ect := make([]byte, 16), make([]byte, 16)
		_, err := env.call("CounterMode.implCrypt", bytecode.IntsArg(s.ke), bytecode.BytesArg(counter), bytecode.BytesArg(ect), bytecode.IntsArg([]uint32{16}),
			bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.out), bytecode.IntArg(0))
		return err
	}
	block := func(key string) func() error {
		return func() error {
			_, err := env.call(key, bytecode.IntsArg(s.ke), bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(16), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		}
	}
	probes := []model.Probe{
		{What: what, Family: "AESCrypt.implEncryptBlock", Unit: model.PerByte, Units: n, Run: ecb("ElectronicCodeBook.implECBEncrypt", s.ke),
			Note: fmt.Sprintf("ElectronicCodeBook.implECBEncrypt over %d B in %s, the block method at the same level", n, at)},
		{What: what, Family: "AESCrypt.implDecryptBlock", Unit: model.PerByte, Units: n, Run: ecb("ElectronicCodeBook.implECBDecrypt", s.kd),
			Note: fmt.Sprintf("ElectronicCodeBook.implECBDecrypt over %d B in %s, the block method at the same level", n, at)},
		{What: what, Family: "GHASH.processBlocks", Unit: model.PerByte, Units: n, Run: ghash,
			Note: fmt.Sprintf("GHASH.processBlocks over %d B in %s", n, at)},
		{What: auxCTR, Family: what, Unit: model.PerByte, Units: n, Run: ctr,
			Note: fmt.Sprintf("CounterMode.implCrypt over %d B in %s", n, at)},
		{What: auxWrapped, Family: what, Unit: model.PerCall, Units: 1, Run: block("ElectronicCodeBook.encrypt"),
			Note: fmt.Sprintf("ElectronicCodeBook.encrypt over one block in %s (checks, then calls implECBEncrypt)", at)},
		{What: auxBare, Family: what, Unit: model.PerCall, Units: 1, Run: block("ElectronicCodeBook.implECBEncrypt"),
			Note: fmt.Sprintf("ElectronicCodeBook.implECBEncrypt over one block called directly in %s", at)},
	}
	// Check the code computes the right bytes before timing it: ECB and CTR against the
	// generic stubs (which the stubs' own tests hold to crypto/cipher and FIPS-197).
	if err := probes[0].Run(); err != nil {
		return nil, fmt.Errorf("level %d ECB: %w", level, err)
	}
	want := make([]byte, n)
	stubaes.ECBEncryptGeneric(s.ke, want, s.in)
	if !bytes.Equal(s.out, want) {
		return nil, fmt.Errorf("level %d: ElectronicCodeBook.implECBEncrypt disagrees with the generic stub", level)
	}
	if err := ctr(); err != nil {
		return nil, fmt.Errorf("level %d CTR: %w", level, err)
	}
	var c0, e0 [16]byte
	used := 16
	stubaes.CTRGeneric(s.ke, &c0, &e0, &used, want, s.in)
	if !bytes.Equal(s.out, want) {
		return nil, fmt.Errorf("level %d: CounterMode.implCrypt disagrees with the generic stub", level)
	}
	return probes, nil
}

// dispatchProbes time C2 code calling a Go target (the way a call site bound to a stub
// leaves compiled code) against the same code returning before its call.
func dispatchProbes(env *calibEnv, s *calibState) ([]model.Probe, error) {
	run := func(n int) func() error {
		return func() error {
			_, err := env.call("ElectronicCodeBook.encrypt", bytecode.IntsArg(s.ke), bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		}
	}
	ps := []model.Probe{
		{What: auxDispatched, Family: "*", Unit: model.PerCall, Units: 1, Run: run(16),
			Note: "ElectronicCodeBook.encrypt in jitsim's C2 code, its call site bound to a Go target that returns at once"},
		{What: auxEarly, Family: "*", Unit: model.PerCall, Units: 1, Run: run(0),
			Note: "ElectronicCodeBook.encrypt in jitsim's C2 code returning before its call (len 0)"},
	}
	for _, p := range ps {
		if err := p.Run(); err != nil {
			return nil, fmt.Errorf("dispatch probe: %w", err)
		}
	}
	return ps, nil
}

// compileProbes time real compiles of every method of the profile by C1 (level 3's
// build) and C2, per Java bytecode byte (Method.Size: the unit CompileCost multiplies, as
// HotSpot's -XX:+CITime counts compile speed), though what they time is the wasm bodies.
func compileProbes(ctx context.Context, tab *bytecode.Table) []model.Probe {
	total := 0
	for _, m := range tab.Methods() {
		total += m.Size
	}
	router := jrt.RouterFunc(func(context.Context, jrt.Site, []jrt.Arg) (int64, error) { return 0, nil })
	compileAll := func(tier jrt.Tier, level jrt.Level) func() error {
		return func() error {
			for _, m := range tab.Methods() {
				c, err := tier.Compile(ctx, jrt.CompileRequest{Method: m, Level: level, Table: tab, Router: router, BackedgeNotifyFreqLog: -1})
				if err != nil {
					return fmt.Errorf("compile %s at level %d: %w", m.Key, level, err)
				}
				if err := c.Close(ctx); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return []model.Probe{
		{What: model.WhatCompileC1, Family: model.AnyFamily, Unit: model.PerBytecodeByte, Units: total, Run: compileAll(c1.New(), 3),
			Note: fmt.Sprintf("jitsim's C1 compiling all %d methods of JDK %s at level 3 (%d bytecode bytes)", len(tab.Methods()), tab.Profile, total)},
		{What: model.WhatCompileC2, Family: model.AnyFamily, Unit: model.PerBytecodeByte, Units: total, Run: compileAll(c2.New(), 4),
			Note: fmt.Sprintf("jitsim's C2 compiling all %d methods of JDK %s (%d bytecode bytes)", len(tab.Methods()), tab.Profile, total)},
	}
}

// deriveRows turns the measured profile into the model's rows: the auxiliary probes become
// the "*" family per tier (CTR − ECB-encrypt), call per tier (wrapped − bare) and dispatch
// (dispatched − early-out); GHASH.processBlock (JDK 8's one-block method) takes
// processBlocks' cost, as in the recorded JVM profile.
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
				r.Family = "GHASH.processBlock"
				r.Source = "as GHASH.processBlocks per byte: " + r.Source
				out.Rows = append(out.Rows, r)
			}
		}
	}
	return out, out.Validate()
}

// printProfile writes the profile as a table.
func printProfile(w io.Writer, p model.Profile) {
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

// hostDescription names this machine for the rows' sources: the CPU model name the OS
// reports (Linux), the architecture and the CPU count.
func hostDescription() string {
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

// tierOf returns the tier that builds code for level.
func tierOf(level jrt.Level) jrt.Tier {
	switch {
	case level == 0:
		return interp.New()
	case level < 4:
		return c1.New()
	default:
		return c2.New()
	}
}

// calibEnv runs a profile's methods at one level, compiling on first use; it routes (and,
// for C2, binds) every call to the callee's code at the same level, or to a Go target
// given for the callee.
type calibEnv struct {
	ctx     context.Context
	tab     *bytecode.Table
	level   jrt.Level
	tier    jrt.Tier
	targets map[string]jrt.Target

	mu    sync.Mutex
	codes map[string]jrt.Code
}

func newCalibEnv(ctx context.Context, tab *bytecode.Table, level jrt.Level, targets map[string]jrt.Target) *calibEnv {
	return &calibEnv{ctx: ctx, tab: tab, level: level, tier: tierOf(level), targets: targets, codes: map[string]jrt.Code{}}
}

func (e *calibEnv) code(key string) (jrt.Code, error) {
	e.mu.Lock()
	c, ok := e.codes[key]
	e.mu.Unlock()
	if ok {
		return c, nil
	}
	m, err := e.tab.Lookup(key)
	if err != nil {
		return nil, err
	}
	// The lock is not held while compiling: a C2 compile binds its call sites.
	c, err = e.tier.Compile(e.ctx, jrt.CompileRequest{Method: m, Level: e.level, Table: e.tab, Router: e, BackedgeNotifyFreqLog: -1})
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if prev, ok := e.codes[key]; ok {
		_ = c.Close(e.ctx)
		return prev, nil
	}
	e.codes[key] = c
	return c, nil
}

// Route implements jrt.Router.
func (e *calibEnv) Route(ctx context.Context, site jrt.Site, args []jrt.Arg) (int64, error) {
	t, err := e.Bind(ctx, site)
	if err != nil {
		return 0, err
	}
	return t(ctx, args)
}

// Bind implements jrt.Binder.
func (e *calibEnv) Bind(_ context.Context, site jrt.Site) (jrt.Target, error) {
	if t, ok := e.targets[site.Callee.Key]; ok {
		return t, nil
	}
	c, err := e.code(site.Callee.Key)
	if err != nil {
		return nil, err
	}
	return c.Invoke, nil
}

func (e *calibEnv) call(key string, args ...jrt.Arg) (int64, error) {
	c, err := e.code(key)
	if err != nil {
		return 0, err
	}
	return c.Invoke(e.ctx, args)
}

func (e *calibEnv) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, c := range e.codes {
		_ = c.Close(e.ctx)
		delete(e.codes, k)
	}
}
