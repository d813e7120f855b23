package tiers_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

// TestGCTRBlocks runs JDK 8's GCTR.update at level 4 with its block calls batched
// (src/jvm.h BLOCKS_ON) and one by one, over 100 blocks (a batch of 64 and one of 36)
// across the 32-bit counter wrap, for separate arrays, one array in place and one
// array with the output 8 bytes after the input: the same output and counter,
// crypto/aes's where the arrays are apart, and 100 block calls either way, in 2
// batches or in none. With every call inlined there is no batch.
func TestGCTRBlocks(t *testing.T) {
	const blocks = 100
	key := []byte("0123456789abcdef")
	counter := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff, 0xff, 0xff, 0xf9}
	plain := make([]byte, 16*blocks)
	for i := range plain {
		plain[i] = byte(i * 7)
	}
	want := tiertest.GCTRReference(t, key, counter, plain)
	type result struct{ out, ctr []byte }
	run := func(t *testing.T, batch, inlining bool, layout string) (result, int64, int64) {
		e := tiertest.NewEnv(t, jdk.R8, 4, tierFor(4))
		e.Blocks, e.Inlining = batch, inlining
		ke, _, err := e.ExpandKey(key)
		if err != nil {
			t.Fatal(err)
		}
		in, inOfs, outOfs := append([]byte(nil), plain...), 0, 0
		out := make([]byte, len(in))
		switch layout {
		case "in-place":
			out = in
		case "shifted":
			in = append(plain[:len(plain):len(plain)], make([]byte, 8)...)
			out, outOfs = in, 8
		}
		ctr := append([]byte(nil), counter...)
		e.HostCalls.Store(0)
		if _, err := e.Call("GCTR.update", bytecode.IntsArg(ke), bytecode.BytesArg(ctr), bytecode.BytesArg(make([]byte, 16)), bytecode.IntsArg([]uint32{16}),
			bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(len(plain)), bytecode.BytesArg(out), bytecode.IntArg(outOfs)); err != nil {
			t.Fatal(err)
		}
		return result{out[outOfs : outOfs+len(plain)], ctr}, e.HostCalls.Load(), e.Batches.Load()
	}
	for _, layout := range []string{"apart", "in-place", "shifted"} {
		t.Run(layout, func(t *testing.T) {
			one, calls, _ := run(t, false, false, layout)
			if calls != blocks {
				t.Errorf("one by one: %d block calls, want %d", calls, blocks)
			}
			got, calls, batches := run(t, true, false, layout)
			if !bytes.Equal(got.out, one.out) || !bytes.Equal(got.ctr, one.ctr) {
				t.Errorf("batched: out %x counter %x\none by one: out %x counter %x", got.out, got.ctr, one.out, one.ctr)
			}
			if layout != "shifted" && !bytes.Equal(got.out, want) {
				t.Errorf("batched output differs from crypto/aes's GCTR")
			}
			if calls != blocks || batches != 2 {
				t.Errorf("batched: %d block calls in %d batches, want %d in 2", calls, batches, blocks)
			}
		})
	}
	t.Run("inlined", func(t *testing.T) {
		got, calls, batches := run(t, true, true, "apart")
		if !bytes.Equal(got.out, want) || calls != 0 || batches != 0 {
			t.Errorf("every call inlined: %d host calls, %d batches, output right: %v", calls, batches, bytes.Equal(got.out, want))
		}
	})
}

// TestCounterModeBlocks runs JDK 17's CounterMode.implCrypt at level 4 with its block
// calls batched (src/jvm.h BLOCKS_ON) and one by one: starting with none, some or all
// of the encrypted counter used, lengths that end inside a block, on one and past a
// batch of 64 blocks, a counter whose increment carries through all 16 bytes, for
// separate arrays, one array in place and one array with the output 8 bytes after
// the input. Output, counter, encrypted counter, used and return value agree, and so
// does the number of block calls.
func TestCounterModeBlocks(t *testing.T) {
	key := []byte("0123456789abcdef")
	start := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd}
	type result struct {
		out, ctr, ectr []byte
		used, ret      int64
	}
	envs := map[bool]*tiertest.Env{}
	keys := map[bool][]uint32{}
	for _, batch := range []bool{false, true} {
		e := tiertest.NewEnv(t, jdk.R17, 4, tierFor(4))
		e.Blocks = batch
		ke, _, err := e.ExpandKey(key)
		if err != nil {
			t.Fatal(err)
		}
		envs[batch], keys[batch] = e, ke
	}
	run := func(t *testing.T, batch bool, used, n int, layout string) (result, int64) {
		e := envs[batch]
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = byte(i*7 + 3)
		}
		in, outOfs := plain, 0
		out := make([]byte, n)
		switch layout {
		case "in-place":
			out = in
		case "shifted":
			in = append(plain, make([]byte, 8)...)
			out, outOfs = in, 8
		}
		ctr := append([]byte(nil), start...)
		ectr := make([]byte, 16)
		for i := range ectr {
			ectr[i] = byte(0xa0 + i)
		}
		u := []uint32{uint32(used)}
		e.HostCalls.Store(0)
		ret, err := e.Call("CounterMode.implCrypt", bytecode.IntsArg(keys[batch]), bytecode.BytesArg(ctr), bytecode.BytesArg(ectr), bytecode.IntsArg(u),
			bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
		if err != nil {
			t.Fatal(err)
		}
		return result{out[outOfs : outOfs+n], ctr, ectr, int64(u[0]), ret}, e.HostCalls.Load()
	}
	for _, layout := range []string{"apart", "in-place", "shifted"} {
		for _, c := range []struct{ used, n int }{{16, 0}, {16, 5}, {3, 10}, {3, 13}, {0, 16}, {16, 16 * 64}, {16, 16*64 + 1}, {5, 16*100 + 7}, {0, 1009}} {
			one, oneCalls := run(t, false, c.used, c.n, layout)
			got, calls := run(t, true, c.used, c.n, layout)
			if fmt.Sprint(got) != fmt.Sprint(one) || calls != oneCalls {
				t.Errorf("%s, used %d, %d bytes: batched %x after %d block calls\none by one %x after %d", layout, c.used, c.n, got, calls, one, oneCalls)
			}
		}
	}
	if envs[true].Batches.Load() == 0 {
		t.Error("no batch of block calls")
	}
}
