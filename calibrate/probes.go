package calibrate

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/jitsim/jitsim/bytecode"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
)

// tierProbes are the probes of one level's code.
func tierProbes(env *env, s *model.Workload, level jrt.Level) ([]model.Probe, error) {
	what, err := model.TierWhat(int(level))
	if err != nil {
		return nil, err
	}
	n := len(s.In)
	at := fmt.Sprintf("jitsim's %s code (level %d, JDK %s bodies)", env.tier.Name(), level, env.tab.Profile)
	ecb := func(key string, k []uint32) func() error {
		return func() error {
			_, err := env.call(key, bytecode.IntsArg(k), bytecode.BytesArg(s.In), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.Out), bytecode.IntArg(0))
			return err
		}
	}
	ghash := func() error {
		st := []uint64{0, 0}
		_, err := env.call("GHASH.processBlocks", bytecode.BytesArg(s.In), bytecode.IntArg(0), bytecode.IntArg(n/16), bytecode.LongsArg(st), bytecode.LongsArg(s.H[:]))
		return err
	}
	ctr := func() error {
		counter, ect := make([]byte, 16), make([]byte, 16)
		_, err := env.call("CounterMode.implCrypt", bytecode.IntsArg(s.KE), bytecode.BytesArg(counter), bytecode.BytesArg(ect), bytecode.IntsArg([]uint32{16}),
			bytecode.BytesArg(s.In), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.Out), bytecode.IntArg(0))
		return err
	}
	block := func(key string) func() error {
		return func() error {
			_, err := env.call(key, bytecode.IntsArg(s.KE), bytecode.BytesArg(s.In), bytecode.IntArg(0), bytecode.IntArg(16), bytecode.BytesArg(s.Out), bytecode.IntArg(0))
			return err
		}
	}
	probes := []model.Probe{
		{What: what, Family: "AESCrypt.implEncryptBlock", Unit: model.PerByte, Units: n, Run: ecb("ElectronicCodeBook.implECBEncrypt", s.KE),
			Note: fmt.Sprintf("ElectronicCodeBook.implECBEncrypt over %d B in %s, the block method at the same level", n, at)},
		{What: what, Family: "AESCrypt.implDecryptBlock", Unit: model.PerByte, Units: n, Run: ecb("ElectronicCodeBook.implECBDecrypt", s.KD),
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
	stubaes.ECBEncryptGeneric(s.KE, want, s.In)
	if !bytes.Equal(s.Out, want) {
		return nil, fmt.Errorf("level %d: ElectronicCodeBook.implECBEncrypt disagrees with the generic stub", level)
	}
	if err := ctr(); err != nil {
		return nil, fmt.Errorf("level %d CTR: %w", level, err)
	}
	var c0, e0 [16]byte
	used := uint32(16)
	stubaes.CTRGeneric(s.KE, &c0, &e0, &used, want, s.In)
	if !bytes.Equal(s.Out, want) {
		return nil, fmt.Errorf("level %d: CounterMode.implCrypt disagrees with the generic stub", level)
	}
	return probes, nil
}

// dispatchProbes time C2 code calling a Go target (the way a call site bound to a stub
// leaves compiled code) against the same code returning before its call.
func dispatchProbes(env *env, s *model.Workload) ([]model.Probe, error) {
	run := func(n int) func() error {
		return func() error {
			_, err := env.call("ElectronicCodeBook.encrypt", bytecode.IntsArg(s.KE), bytecode.BytesArg(s.In), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(s.Out), bytecode.IntArg(0))
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
func compileProbes(ctx context.Context, o Options) ([]model.Probe, error) {
	tab := o.Table
	c1, err := tierFor(o.Tiers, jrt.LevelFullProfile)
	if err != nil {
		return nil, err
	}
	c2, err := tierFor(o.Tiers, jrt.LevelFullOptimization)
	if err != nil {
		return nil, err
	}
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
		{What: model.WhatCompileC1, Family: model.AnyFamily, Unit: model.PerBytecodeByte, Units: total, Run: compileAll(c1, jrt.LevelFullProfile),
			Note: fmt.Sprintf("jitsim's C1 compiling all %d methods of JDK %s at level 3 (%d bytecode bytes)", len(tab.Methods()), tab.Profile, total)},
		{What: model.WhatCompileC2, Family: model.AnyFamily, Unit: model.PerBytecodeByte, Units: total, Run: compileAll(c2, jrt.LevelFullOptimization),
			Note: fmt.Sprintf("jitsim's C2 compiling all %d methods of JDK %s (%d bytecode bytes)", len(tab.Methods()), tab.Profile, total)},
	}, nil
}

// tierFor returns the tier of tiers that builds code for level.
func tierFor(tiers []jrt.Tier, level jrt.Level) (jrt.Tier, error) {
	for _, t := range tiers {
		if slices.Contains(t.Levels(), level) {
			return t, nil
		}
	}
	return nil, fmt.Errorf("calibrate: no tier builds code for level %d", level)
}

// env runs a profile's methods at one level, compiling on first use; it routes (and, for
// C2, binds) every call to the callee's code at the same level, or to a Go target given for
// the callee.
type env struct {
	ctx     context.Context
	tab     *bytecode.Table
	level   jrt.Level
	tier    jrt.Tier
	targets map[string]jrt.Target

	mu    sync.Mutex
	codes map[string]jrt.Code
}

func newEnv(ctx context.Context, o Options, level jrt.Level, targets map[string]jrt.Target) (*env, error) {
	t, err := tierFor(o.Tiers, level)
	if err != nil {
		return nil, err
	}
	return &env{ctx: ctx, tab: o.Table, level: level, tier: t, targets: targets, codes: map[string]jrt.Code{}}, nil
}

func (e *env) code(key string) (jrt.Code, error) {
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
func (e *env) Route(ctx context.Context, site jrt.Site, args []jrt.Arg) (int64, error) {
	t, err := e.Bind(ctx, site)
	if err != nil {
		return 0, err
	}
	return t(ctx, args)
}

// Bind implements jrt.Binder.
func (e *env) Bind(_ context.Context, site jrt.Site) (jrt.Target, error) {
	if t, ok := e.targets[site.Callee.Key]; ok {
		return t, nil
	}
	c, err := e.code(site.Callee.Key)
	if err != nil {
		return nil, err
	}
	return c.Invoke, nil
}

func (e *env) call(key string, args ...jrt.Arg) (int64, error) {
	c, err := e.code(key)
	if err != nil {
		return 0, err
	}
	return c.Invoke(e.ctx, args)
}

func (e *env) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, c := range e.codes {
		_ = c.Close(e.ctx)
		delete(e.codes, k)
	}
}
