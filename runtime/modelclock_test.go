package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

// argsFor builds arguments matching m's signature: 64-byte arrays and the
// given value for every int parameter.
func argsFor(m *Method, scalar int) []Arg {
	args := make([]Arg, len(m.Params))
	for i, p := range m.Params {
		switch {
		case p.Kind.IsArray():
			args[i] = Arg{Kind: p.Kind, Data: make([]byte, 64)}
		case p.Kind == bytecode.Int:
			args[i] = bytecode.IntArg(scalar)
		default:
			args[i] = Arg{Kind: p.Kind}
		}
	}
	return args
}

func mustProfile(t *testing.T, name string) model.Profile {
	t.Helper()
	p, err := model.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestModelClockChargesInvoke checks docs/model.md §5 item 3 on fake tiers
// under -Xint: one call costs exactly the profile's interpreter row of the
// method for its payload plus one call, charged to the calling thread, and
// the VM's clock is that thread's time.
func TestModelClockChargesInvoke(t *testing.T) {
	prof := mustProfile(t, "haswell-e5-2660v3")
	tests := []struct {
		key    string
		scalar int
		bytes  int
	}{
		{"AESCrypt.implEncryptBlock", 0, 16},
		{"GHASH.processBlocks", 3, 0}, // JDK 9+: the blocks are blockMult's to price
		{"GHASH.blockMult", 0, 16},
		{"AESCrypt.makeSessionKey", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			vm := newTestVM(t, NewConfig().WithJDK(jdk.R17).WithFlags(parseFlags(t, jdk.R17, "-Xint")).
				WithCPU(hostModel(t)).WithTiers(fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })...).
				WithModel(prof))
			m, err := vm.Method(tt.key)
			if err != nil {
				t.Fatal(err)
			}
			code, err := prof.Cost(model.WhatInterp, m.Key, tt.bytes)
			if err != nil {
				t.Fatal(err)
			}
			call, err := prof.Cost(model.WhatCall, model.WhatInterp, 0)
			if err != nil {
				t.Fatal(err)
			}
			th := vm.NewThread("main")
			th.Enter()
			for range 3 {
				if _, err := vm.CallAs(context.Background(), th, m, argsFor(m, tt.scalar)); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := th.Now(), (3 * (code + call)).Duration(); got != want {
				t.Errorf("thread time after 3 calls = %v, want %v", got, want)
			}
			if got := vm.Now(); got != th.Now() {
				t.Errorf("VM clock %v, thread clock %v: the running thread's time is the VM's", got, th.Now())
			}
			th.Exit()
		})
	}
}

// TestModelClockRefusesUnenteredThread: a call from a thread that has not
// entered the simulation is an error, not a race.
func TestModelClockRefusesUnenteredThread(t *testing.T) {
	vm := newTestVM(t, NewConfig().WithJDK(jdk.R17).WithCPU(hostModel(t)).
		WithTiers(fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })...).
		WithModel(mustProfile(t, "host")))
	m, err := vm.Method("AESCrypt.implEncryptBlock")
	if err != nil {
		t.Fatal(err)
	}
	th := vm.NewThread("main")
	_, err = vm.CallAs(context.Background(), th, m, argsFor(m, 0))
	if err == nil || !strings.Contains(err.Error(), "Enter") {
		t.Fatalf("call without Enter: err = %v, want one saying to Enter", err)
	}
}

// panicTier is a tier whose compiles panic: an injected jitsim bug.
type panicTier struct{ fakeTier }

func (p *panicTier) Compile(context.Context, CompileRequest) (Code, error) {
	panic("injected compiler bug")
}

// runPanickingC1 starts a VM on clock ("wall" or "model") from cfg with -Xbatch,
// TieredStopAtLevel=1 and a C1 whose compiles panic, calls AESCrypt.implEncryptBlock
// until a call fails (at most 100 000 calls), and returns the VM and that call's error.
func runPanickingC1(t *testing.T, clock string, cfg Config) (*VM, error) {
	t.Helper()
	body := func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil }
	ts := fakeTiers(body)
	ts[1] = &panicTier{fakeTier{name: "c1", levels: []Level{LevelSimple, LevelLimitedProfile, LevelFullProfile}, body: body}}
	cfg = cfg.WithJDK(jdk.R17).WithFlags(parseFlags(t, jdk.R17, "-Xbatch", "-XX:TieredStopAtLevel=1")).
		WithCPU(hostModel(t)).WithTiers(ts...)
	if clock == "model" {
		cfg = cfg.WithModel(mustProfile(t, "host"))
	}
	vm, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := vm.Method("AESCrypt.implEncryptBlock")
	if err != nil {
		t.Fatal(err)
	}
	th := vm.NewThread("main")
	th.Enter()
	var callErr error
	for i := 0; i < 100000 && callErr == nil; i++ {
		_, callErr = vm.CallAs(context.Background(), th, m, argsFor(m, 0))
	}
	th.Exit()
	return vm, callErr
}

// TestCompilerPanicIsInternalError injects a tier whose C1 compiles panic:
// on both clocks the process survives, the VM reports one internal error
// naming the method, and later calls and Close return it.
func TestCompilerPanicIsInternalError(t *testing.T) {
	for _, clock := range []string{"wall", "model"} {
		t.Run(clock, func(t *testing.T) {
			vm, callErr := runPanickingC1(t, clock, NewConfig())
			for _, e := range []struct {
				what string
				err  error
			}{{"call", callErr}, {"Close", vm.Close()}} {
				if e.err == nil || !strings.Contains(e.err.Error(), "internal error") || !strings.Contains(e.err.Error(), "implEncryptBlock") ||
					!strings.Contains(e.err.Error(), "injected compiler bug") {
					t.Errorf("%s: err = %v, want the internal error naming the method and the panic", e.what, e.err)
				}
				var ie *InternalError
				if !errors.As(e.err, &ie) || len(ie.PanicStack()) == 0 {
					t.Errorf("%s: err = %v (%T), want an *InternalError carrying the compiler thread's stack", e.what, e.err, e.err)
				}
			}
		})
	}
}

// TestModelClockBlockingCompile: with -Xbatch on the model clock, the
// call that triggers a compile waits for it in virtual time — its thread
// pays the compile's cost — and the code is installed when it returns.
func TestModelClockBlockingCompile(t *testing.T) {
	prof := mustProfile(t, "haswell-e5-2660v3")
	ts := fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })
	vm := newTestVM(t, NewConfig().WithJDK(jdk.R17).WithFlags(parseFlags(t, jdk.R17, "-Xbatch", "-XX:TieredStopAtLevel=1")).
		WithCPU(hostModel(t)).WithTiers(ts...).WithModel(prof))
	m, err := vm.Method("AESCrypt.implEncryptBlock")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := prof.CompileCost(model.WhatCompileC1, m.Key, m.Size)
	if err != nil {
		t.Fatal(err)
	}
	th := vm.NewThread("main")
	th.Enter()
	defer th.Exit()
	var before time.Duration
	for i := 0; i < 100000; i++ {
		before = th.Now()
		if _, err := vm.CallAs(context.Background(), th, m, argsFor(m, 0)); err != nil {
			t.Fatal(err)
		}
		if l, _, _ := vm.Level(m.Key); l == LevelSimple {
			if step := th.Now() - before; step < cc.Duration() {
				t.Errorf("the call that compiled took %v of virtual time, less than the compile's %v", step, cc.Duration())
			}
			return
		}
	}
	t.Fatal("never compiled at level 1")
}

// TestChargeInlined: an inlined callee's work costs its own row at the
// caller's level, with no call row; on the wall clock nothing.
func TestChargeInlined(t *testing.T) {
	prof := mustProfile(t, "icelake-server")
	body := func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil }
	for _, clock := range []string{"wall", "model"} {
		t.Run(clock, func(t *testing.T) {
			cfg := NewConfig().WithJDK(jdk.R17).WithCPU(hostModel(t)).WithTiers(fakeTiers(body)...)
			if clock == "model" {
				cfg = cfg.WithModel(prof)
			}
			vm := newTestVM(t, cfg)
			caller, err := vm.Method("GHASH.processBlock")
			if err != nil {
				t.Fatal(err)
			}
			callee, err := vm.Method("GHASH.blockMult")
			if err != nil {
				t.Fatal(err)
			}
			th := vm.NewThread("main")
			th.Enter()
			defer th.Exit()
			before := th.Now()
			if err := vm.ChargeInlined(Site{Caller: caller, Level: LevelFullOptimization, Callee: callee}, argsFor(callee, 2)); err != nil {
				t.Fatal(err)
			}
			want := time.Duration(0)
			if clock == "model" {
				c, err := prof.Cost(model.WhatC2, callee.Key, 16)
				if err != nil {
					t.Fatal(err)
				}
				want = c.Duration()
			}
			if got := th.Now() - before; clock == "model" && got != want {
				t.Errorf("charged %v, want %v", got, want)
			}
		})
	}
}

// TestInlinedBytes: a compile parses, beyond its method, every inlined callee and every
// callee an intrinsic replaces (once per site, whether the release prints a predicated
// intrinsic on one line or two), and not a callee it refused.
func TestInlinedBytes(t *testing.T) {
	callee := func(size int, intrinsic string) *Method {
		return &Method{Size: size, Intrinsic: intrinsic}
	}
	big, small, stub := callee(245, ""), callee(37, ""), callee(953, "_aescrypt_encryptBlock")
	lines := []inlineLine{
		{depth: 1, callee: small, reason: InlineHot, inline: true},
		{depth: 2, callee: big, reason: InlineTooBig},
		{depth: 1, callee: stub, reason: "(intrinsic, predicate)", pred: true}, // JDK 17: two lines
		{depth: 1, callee: stub, reason: "(intrinsic)", pred: true},
		{depth: 1, callee: stub, reason: "inline (hot)   (intrinsic, predicate)   (intrinsic)", pred: true}, // JDK 25: one
		{depth: 1, callee: big, reason: InlineProfiled},
	}
	if got, want := inlinedBytes(lines), 37+953+953; got != want {
		t.Errorf("inlinedBytes = %d, want %d", got, want)
	}
	if got := inlinedBytes(nil); got != 0 {
		t.Errorf("inlinedBytes(nil) = %d, want 0", got)
	}
}

// TestModelClockCompileCostsInlined: a compile occupies its compiler thread for the
// profile's per-byte cost times the bytes it parses — its method's and those of the
// callees its code inlines or replaces by a stub, the bytes -XX:+CITime's speed counts.
// JDK 17's C2 compile of GHASH.update replaces its call of GHASH.processBlocks by the
// GHASH stub.
func TestModelClockCompileCostsInlined(t *testing.T) {
	prof := mustProfile(t, "icelake-server")
	ts := fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })
	vm := newTestVM(t, NewConfig().WithJDK(jdk.R17).WithFlags(parseFlags(t, jdk.R17, "-Xbatch", "-XX:-TieredCompilation")).
		WithCPU(hostModel(t)).WithTiers(ts...).WithModel(prof))
	m, err := vm.Method("GHASH.update")
	if err != nil {
		t.Fatal(err)
	}
	callee, err := vm.Method("GHASH.processBlocks")
	if err != nil {
		t.Fatal(err)
	}
	if d := vm.Inline(Site{Caller: m, Level: LevelFullOptimization, Callee: callee}); d.Reason != InlineIntrinsic {
		t.Fatalf("GHASH.update's call of processBlocks at C2: %+v, want the stub", d)
	}
	var started, installed time.Duration
	unsub := vm.Subscribe(func(e Event) {
		if strings.HasSuffix(e.Method, ".GHASH::update") && e.Level == LevelFullOptimization {
			switch e.Kind {
			case EventStarted:
				started = e.At
			case EventInstalled:
				installed = e.At
			}
		}
	})
	defer unsub()
	th := vm.NewThread("main")
	th.Enter()
	defer th.Exit()
	for i := 0; i < 100000 && installed == 0; i++ {
		if _, err := vm.CallAs(context.Background(), th, m, argsFor(m, 0)); err != nil {
			t.Fatal(err)
		}
	}
	if installed == 0 {
		t.Fatal("GHASH.update never installed at level 4")
	}
	want, err := prof.CompileCost(model.WhatCompileC2, m.Key, m.Size+callee.Size)
	if err != nil {
		t.Fatal(err)
	}
	// Event stamps are nanoseconds of picosecond costs: one of rounding either way.
	if got := installed - started; got < want.Duration()-time.Nanosecond || got > want.Duration()+time.Nanosecond {
		own, _ := prof.CompileCost(model.WhatCompileC2, m.Key, m.Size)
		t.Errorf("C2 compile of %s (%d bytes, stub for %d) took %v, want %v (its own bytes alone: %v)",
			m.Key, m.Size, callee.Size, got, want.Duration(), own.Duration())
	}
}
