package runtime_test

import (
	"context"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
	"github.com/jitsim/jitsim/tiers/c2"
)

// BenchmarkDispatch measures what the dispatch point adds to a one-block
// AES stub call (16 bytes):
//
//	path=direct        the stub's Go func called directly
//	path=vm            VM.Route as a call from a level-4 caller: callee
//	                   lookup, cached decision, predicate, argument adapter
//	path=vm-bound      the Target C2's link-time Bind returns for that site
//	path=wasm-caller   a level-4 (C2-compiled) CounterMode.implCrypt over
//	                   one block: wasm code → import → bound stub
//	path=wasm-caller-heap  the same with every array in the Java heap
//	                   (VM.NewByteArray): no copies in or out
//
// Goal: path=vm within 25 ns of path=direct. go test -count N runs each
// path N times back to back, so on a shared, noisy machine interleave the
// paths by running the test binary with -test.count 1 in a loop and compare
// per-round differences and medians:
//
//	go test -c -o rt.test ./runtime
//	for i in 1 2 3 4 5 6 7 8; do ./rt.test -test.run XXX -test.bench 'BenchmarkDispatch' -test.benchmem; done
func BenchmarkDispatch(b *testing.B) {
	enc, ok := aes.BlockCode(aes.EncryptBlockAESNI)
	if !ok || !cpu.Host().HasAll(aes.EncryptBlockAESNI.Needs()) {
		b.Skip("host cannot run the aesni block stub")
	}
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64})
	if err != nil {
		b.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	key := []byte("0123456789abcdef")
	xk, _, err := aes.ExpandKey(key)
	if err != nil {
		b.Fatal(err)
	}
	callee, _ := vm.Method("AESCrypt.implEncryptBlock")
	caller, _ := vm.Method("CounterMode.implCrypt")
	site := jrt.Site{Caller: caller, Level: jrt.LevelFullOptimization, Callee: callee}
	if d, _ := vm.Explain("AESCrypt.implEncryptBlock", jrt.LevelFullOptimization); !d.Stub {
		b.Skipf("no stub on this host: %s", d)
	}
	in, out := make([]byte, 16), make([]byte, 16)
	args := []jrt.Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.BytesArg(out), bytecode.IntArg(0)}
	ctx := context.Background()

	b.Run("path=direct", func(b *testing.B) {
		b.SetBytes(16)
		for b.Loop() {
			enc(xk, out, in)
		}
	})
	b.Run("path=vm", func(b *testing.B) {
		b.SetBytes(16)
		for b.Loop() {
			if _, err := vm.Route(ctx, site, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=vm-bound", func(b *testing.B) {
		target, err := vm.Bind(ctx, site)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(16)
		for b.Loop() {
			if _, err := target(ctx, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, inHeap := range []bool{false, true} {
		name := "path=wasm-caller"
		if inHeap {
			name = "path=wasm-caller-heap"
		}
		b.Run(name, func(b *testing.B) {
			req := jrt.CompileRequest{Method: caller, Level: jrt.LevelFullOptimization,
				Table: vm.Table(), Router: vm, BackedgeNotifyFreqLog: -1}
			alloc := func(n int) []byte { return make([]byte, n) }
			if inHeap {
				if vm.Heap() == nil {
					b.Skip("no Java heap on this platform")
				}
				req.Heap = vm.Heap()
				alloc = func(n int) []byte {
					h, err := vm.NewByteArray(n)
					if err != nil {
						b.Fatal(err)
					}
					return h
				}
			}
			code, err := c2.New().Compile(ctx, req)
			if err != nil {
				b.Fatal(err)
			}
			defer code.Close(ctx)
			key := alloc(4 * len(xk))
			copy(key, bytecode.IntsArg(xk).Data)
			counter, ectr, usedB, cin, cout := alloc(16), alloc(16), alloc(4), alloc(16), alloc(16)
			cargs := []jrt.Arg{{Kind: bytecode.IntsArg(xk).Kind, Data: key}, bytecode.BytesArg(counter), bytecode.BytesArg(ectr),
				{Kind: bytecode.IntsArg(xk).Kind, Data: usedB}, bytecode.BytesArg(cin), bytecode.IntArg(0), bytecode.IntArg(16), bytecode.BytesArg(cout), bytecode.IntArg(0)}
			b.SetBytes(16)
			for b.Loop() {
				usedB[0] = 16
				if _, err := code.Invoke(ctx, cargs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
