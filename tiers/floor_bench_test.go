package tiers_test

import (
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// floorModule is a hand-assembled module: an import env.h (no params, no
// results), an export "f" whose body calls it, and an export "g" with an
// empty body.
var floorModule = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type section: () -> ()
	0x02, 0x09, 0x01, 0x03, 'e', 'n', 'v', 0x01, 'h', 0x00, 0x00, // import env.h, type 0
	0x03, 0x03, 0x02, 0x00, 0x00, // two functions of type 0
	0x07, 0x09, 0x02, 0x01, 'f', 0x00, 0x01, 0x01, 'g', 0x00, 0x02, // export f = func 1, g = func 2
	0x0a, 0x09, 0x02, 0x04, 0x00, 0x10, 0x00, 0x0b, 0x02, 0x00, 0x0b, // f: call 0; g: nothing
}

// BenchmarkWazeroFloor is what wazero's optimizing compiler alone costs
// for the two crossings every jitsim call is made of, with nothing of
// jitsim's around them: path=entry calls an empty exported function
// (CallWithStack), path=entry+host one whose body calls a no-op Go host
// function. Every call the provider makes into the VM is at least one
// entry, and every stub call from compiled code one host call; against
// runtime's BenchmarkDispatch/path=wasm-caller-heap (the same two
// crossings with jitsim's argument marshalling, routing and instance pool)
// it shows which part of a call is jitsim's and what no glue could remove.
func BenchmarkWazeroFloor(b *testing.B) {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	_, err := r.NewHostModuleBuilder("env").NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {}), nil, nil).
		Export("h").Instantiate(ctx)
	if err != nil {
		b.Fatal(err)
	}
	mod, err := r.Instantiate(ctx, floorModule)
	if err != nil {
		b.Fatal(err)
	}
	stack := make([]uint64, 1)
	for _, tc := range []struct{ name, fn string }{{"path=entry", "g"}, {"path=entry+host", "f"}} {
		fn := mod.ExportedFunction(tc.fn)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if err := fn.CallWithStack(ctx, stack); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
