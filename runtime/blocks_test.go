package runtime

import (
	"bytes"
	"context"
	"crypto/aes"
	"fmt"
	"slices"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

// TestBlockTargetIsItsCalls checks a batch of AES block calls (BindBlocks) against the same
// calls one by one through Bind's Target, on both clocks: the same bytes, and on the model
// clock the same advance of the calling thread.
func TestBlockTargetIsItsCalls(t *testing.T) {
	key := []byte("0123456789abcdef")
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	const n = 5
	in := make([]byte, 16*n)
	for i := range in {
		in[i] = byte(i * 7)
	}
	want := make([]byte, len(in))
	for i := 0; i < n; i++ {
		blk.Encrypt(want[16*i:], in[16*i:])
	}
	for _, clock := range []string{"wall", "model"} {
		t.Run(clock, func(t *testing.T) {
			vm, one, batch := bindBlockCall(t, clock)
			ctx := context.Background()
			xk := expandKey(t, key)
			th := vm.NewThread("main")
			th.Enter()
			defer th.Exit()

			now := func() int64 { // the thread's time in the model's own unit; Now rounds it
				if vm.sim == nil {
					return 0
				}
				return int64(vm.sim.s.Now(th.sim))
			}
			t0 := now()
			got := make([]byte, len(in))
			if err := batch(ctx, []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.BytesArg(got), bytecode.IntArg(0)}, n); err != nil {
				t.Fatal(err)
			}
			t1 := now()
			single := make([]byte, len(in))
			for i := 0; i < n; i++ {
				if _, err := one(ctx, []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in[16*i : 16*i+16]), bytecode.IntArg(0), bytecode.BytesArg(single[16*i : 16*i+16]), bytecode.IntArg(0)}); err != nil {
					t.Fatal(err)
				}
			}
			t2 := now()
			if !bytes.Equal(got, want) || !bytes.Equal(single, want) {
				t.Errorf("batch %x, single calls %x, want %x", got, single, want)
			}
			if clock == "model" && (t1-t0 != t2-t1 || t1 == t0) {
				t.Errorf("the batch of %d advanced the thread by %d, the %d calls by %d", n, t1-t0, n, t2-t1)
			}
			err = batch(ctx, []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in[:17]), bytecode.IntArg(0), bytecode.BytesArg(got[:17]), bytecode.IntArg(0)}, n)
			if err == nil {
				t.Error("a batch of 5 over 17 bytes: no error")
			}
		})
	}
}

// TestBindBlocksRefuses: only a C2 site of a stub-bound method that returns nothing is
// batched.
func TestBindBlocksRefuses(t *testing.T) {
	vm := newTestVM(t, NewConfig().WithJDK(jdk.R8u).WithCPU(hostModel(t)).
		WithTiers(fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })...))
	for _, c := range []struct {
		caller, callee string
		level          Level
	}{
		{"GCTR.update", "AESCrypt.implEncryptBlock", LevelFullProfile}, // no stub from C1 code
		{"GHASH.update", "GHASH.processBlocks", LevelNone},
		{"GCTR.doFinal", "GCTR.update", LevelFullOptimization}, // Java code, not a stub
	} {
		t.Run(fmt.Sprintf("%s->%s@%d", c.caller, c.callee, c.level), func(t *testing.T) {
			caller, err := vm.Method(c.caller)
			if err != nil {
				t.Fatal(err)
			}
			callee, err := vm.Method(c.callee)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := vm.BindBlocks(Site{Caller: caller, Level: c.level, Callee: callee}); ok {
				t.Error("bound for batches")
			}
		})
	}
}

// TestBlockTargetErrorsAreTheCalls: a batch whose calls have a bad key, a null array or an
// offset out of range fails with the error its first call fails with alone, on both clocks,
// and writes nothing; so does the row's batch adapter alone (AdaptBlocks), which a batch
// uses after its first call.
func TestBlockTargetErrorsAreTheCalls(t *testing.T) {
	xk := expandKey(t, []byte("0123456789abcdef"))
	const n = 3
	for _, clock := range []string{"wall", "model"} {
		vm, one, batch := bindBlockCall(t, clock)
		ctx := context.Background()
		d, err := vm.Explain("AESCrypt.implEncryptBlock", LevelFullOptimization)
		if err != nil {
			t.Fatal(err)
		}
		callee, err := vm.Method("AESCrypt.implEncryptBlock")
		if err != nil {
			t.Fatal(err)
		}
		adapted, ok := AESCryptEncryptBlock.Row().AdaptBlocks(callee, d.Impl.ID)
		if !ok {
			t.Fatalf("AdaptBlocks has no code for %s", d.Impl.ID)
		}
		th := vm.NewThread("main")
		th.Enter()
		for _, c := range []struct {
			name            string
			key             []uint32
			in, out         []byte // one call's arrays; the batch has n of each
			inOfs, outOfs   int
			inNull, outNull bool
		}{
			{name: "short key", key: xk[:40], in: make([]byte, 16), out: make([]byte, 16)},
			{name: "in offset", key: xk, in: make([]byte, 20), out: make([]byte, 16), inOfs: 5},
			{name: "negative out offset", key: xk, in: make([]byte, 16), out: make([]byte, 16), outOfs: -1},
			{name: "short out", key: xk, in: make([]byte, 16), out: make([]byte, 15)},
			{name: "null in", key: xk, out: make([]byte, 16), inNull: true},
		} {
			t.Run(clock+"/"+c.name, func(t *testing.T) {
				arr := func(b []byte, null bool, copies int) Arg {
					if null {
						return Arg{Kind: bytecode.Bytes, Null: true}
					}
					return bytecode.BytesArg(bytes.Repeat(b, copies))
				}
				args := func(copies int) []Arg {
					return []Arg{bytecode.IntsArg(c.key), arr(c.in, c.inNull, copies), bytecode.IntArg(c.inOfs),
						arr(c.out, c.outNull, copies), bytecode.IntArg(c.outOfs)}
				}
				_, want := one(ctx, args(1))
				if want == nil {
					t.Fatal("the single call: no error")
				}
				for name, b := range map[string]BlockTarget{"BindBlocks": batch, "AdaptBlocks": adapted} {
					a := args(n)
					err := b(ctx, a, n)
					if err == nil || err.Error() != want.Error() {
						t.Errorf("%s, batch of %d: err = %v, want %v", name, n, err, want)
					}
					if !c.outNull && slices.ContainsFunc(a[3].Data, func(b byte) bool { return b != 0 }) {
						t.Errorf("%s, batch of %d wrote %x", name, n, a[3].Data)
					}
				}
			})
		}
		th.Exit()
	}
}

// bindBlockCall makes a JDK 8u VM on the clock ("wall" or "model", the host profile) and
// binds C2's GCTR.update → AESCrypt.implEncryptBlock call site, one call at a time and in
// batches.
func bindBlockCall(t *testing.T, clock string) (*VM, Target, BlockTarget) {
	t.Helper()
	cfg := NewConfig().WithJDK(jdk.R8u).WithCPU(hostModel(t)).
		WithTiers(fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })...)
	if clock == "model" {
		cfg = cfg.WithModel(mustProfile(t, "host"))
	}
	vm, _, one, batch := bindBlockSite(t, cfg, "GCTR.update")
	return vm, one, batch
}

// bindBlockSite binds caller's C2 call of AESCrypt.implEncryptBlock on a VM of cfg, one call
// at a time and in batches, and returns the VM, the callee and both targets.
func bindBlockSite(t *testing.T, cfg Config, caller string) (*VM, *Method, Target, BlockTarget) {
	t.Helper()
	vm := newTestVM(t, cfg)
	from, err := vm.Method(caller)
	if err != nil {
		t.Fatal(err)
	}
	callee, err := vm.Method("AESCrypt.implEncryptBlock")
	if err != nil {
		t.Fatal(err)
	}
	site := Site{Caller: from, Level: LevelFullOptimization, Callee: callee}
	one, err := vm.Bind(context.Background(), site)
	if err != nil {
		t.Fatal(err)
	}
	batch, ok := vm.BindBlocks(site)
	if !ok {
		t.Fatalf("BindBlocks refuses the AES block call from %s's C2 code", caller)
	}
	return vm, callee, one, batch
}

// TestStreamSite: on the model clock, a C2 call of the block stub from a loop of independent
// blocks (bytecode.Method.Stream: JDK 8's GCTR.update) is charged the profile's rows for the
// stub in that loop (model.StreamFamily) where the window holds more than one call (Ice
// Lake), cheaper than the entry's latency-bound rows; a call from the same loop where it
// holds less (Haswell), from CBC encryption, whose blocks form a chain, and from
// GCTR.doFinal (one call, no loop) is charged the entry's rows, and so is every site on a
// profile without stream rows.
func TestStreamSite(t *testing.T) {
	key := []byte("0123456789abcdef")
	xk := expandKey(t, key)
	for _, c := range []struct {
		cpu, caller string
		stream      bool
	}{
		{"icelake-server", "GCTR.update", true},
		{"haswell-e5-2660v3", "GCTR.update", false},
		{"haswell-e5-2660v3", "CipherBlockChaining.implEncrypt", false},
		{"haswell-e5-2660v3", "GCTR.doFinal", false},
		{"host", "GCTR.update", false}, // the host's block stub rows are the JVM's, measured in a loop
	} {
		t.Run(c.cpu+"/"+c.caller, func(t *testing.T) {
			prof, err := model.LookupRelease(c.cpu, jdk.R8u)
			if err != nil {
				t.Fatal(err)
			}
			vm, callee, one, batch := bindBlockSite(t, NewConfig().WithJDK(jdk.R8u).WithCPU(hostModel(t)).WithModel(prof).
				WithTiers(fakeTiers(func(context.Context, *Method, Level, Router, []Arg) (int64, error) { return 0, nil })...), c.caller)
			d := vm.callees.get(callee).route[LevelFullOptimization]
			what, entry := model.Stub(d.Variant.Name), d.Variant.Stub
			family := entry
			if c.stream {
				family = model.StreamFamily(entry, c.caller)
			}
			stub, err := prof.Cost(what, family, 16)
			if err != nil {
				t.Fatal(err)
			}
			dispatch, err := prof.Cost(model.WhatDispatch, entry, 0)
			if err != nil {
				t.Fatal(err)
			}
			latency, err := prof.Cost(what, entry, 16)
			if err != nil {
				t.Fatal(err)
			}
			if c.stream && stub >= latency {
				t.Errorf("in %s's loop the stub costs %v a call, the entry's latency-bound rows %v: no overlap priced", c.caller, stub, latency)
			}
			th := vm.NewThread("main")
			th.Enter()
			defer th.Exit()
			in, out := make([]byte, 48), make([]byte, 48)
			t0 := vm.sim.s.Now(th.sim)
			if _, err := one(context.Background(), []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in[:16]), bytecode.IntArg(0), bytecode.BytesArg(out[:16]), bytecode.IntArg(0)}); err != nil {
				t.Fatal(err)
			}
			t1 := vm.sim.s.Now(th.sim)
			if err := batch(context.Background(), []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.BytesArg(out), bytecode.IntArg(0)}, 3); err != nil {
				t.Fatal(err)
			}
			t2 := vm.sim.s.Now(th.sim)
			if got, want := t1-t0, stub+dispatch; got != want {
				t.Errorf("one call advanced the thread by %v, want %v (%s %s) + %v (dispatch)", got, want, what, family, dispatch)
			}
			if got, want := t2-t1, 3*(stub+dispatch); got != want {
				t.Errorf("a batch of 3 advanced the thread by %v, want %v", got, want)
			}
		})
	}
}
