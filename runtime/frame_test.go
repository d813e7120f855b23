package runtime

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/heap"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// frameArg is one parameter of a frame test call: an array (index into the
// call's arrays; -1 a Java null) or an int.
type frameArg struct {
	arr    int
	scalar int64
}

func fa(i int) frameArg        { return frameArg{arr: i} }
func fi(v int) frameArg        { return frameArg{arr: -2, scalar: int64(v)} }
func fnull() frameArg          { return frameArg{arr: -1} }
func (a frameArg) array() bool { return a.arr >= -1 }

// frameCase is one call: its arrays' initial bytes and its parameters, and
// whether the frame target must take it (take) and the call change bytes
// (writes: the stub's output, or the powers of H the subkey table gets).
type frameCase struct {
	name         string
	arrays       [][]byte
	params       []frameArg
	take, writes bool
}

// memArrays copies arrays into a fresh stand-in for a calling instance's
// linear memory, 8-aligned from bytecode.ArgBase as the tiers lay arrays out,
// and returns the memory, the views and their addresses.
func memArrays(arrays [][]byte) (mem []byte, views [][]byte, addrs []uint32) {
	top := uint32(bytecode.ArgBase)
	for _, a := range arrays {
		top = (top + 7) &^ 7
		addrs = append(addrs, top)
		top += uint32(len(a))
	}
	mem = make([]byte, top+64)
	for i, a := range arrays {
		v := mem[addrs[i] : addrs[i]+uint32(len(a)) : addrs[i]+uint32(len(a))]
		copy(v, a)
		views = append(views, v)
	}
	return mem, views, addrs
}

// heapArrays copies arrays into fresh arrays of vm's Java heap.
func heapArrays(t *testing.T, vm *VM, arrays [][]byte) [][]byte {
	t.Helper()
	out := make([][]byte, len(arrays))
	for i, a := range arrays {
		h, err := vm.NewByteArray(len(a))
		if err != nil {
			t.Fatal(err)
		}
		copy(h, a)
		out[i] = h
		t.Cleanup(func() { _ = vm.ReleaseArray(h) })
	}
	return out
}

// TestFrameTargetsAgreeWithArgs checks each stub call C2 code can make from
// its wasm stack (BindFrame) against the same call through Bind's Target on
// an argument list, each on its own copy of the same Java heap arrays: a call
// the frame target takes must leave the same bytes and return the same value
// as the Target, and a call it leaves (the Target's exceptions among them)
// must find every array as it was. Each case runs with its arrays in the
// Java heap and again in the calling instance's own memory (Go slices copied
// in). Before the site's first stub call the frame target takes nothing, so
// that the first call is noted as before.
func TestFrameTargetsAgreeWithArgs(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	ke, _, err := stubaes.ExpandKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyBytes := bytecode.IntsArg(ke).Data
	msg := make([]byte, 3000)
	for i := range msg {
		msg[i] = byte(i*29 + 7)
	}
	block := func(seed byte) []byte {
		b := make([]byte, 16)
		for i := range b {
			b[i] = seed + byte(i)
		}
		return b
	}
	ints := func(v ...uint32) []byte { return bytecode.IntsArg(v).Data }
	longs := func(v ...uint64) []byte { return bytecode.LongsArg(v).Data }
	htbl := make([]uint64, gcm.HtblLen)
	htbl[0], htbl[1] = 0x66e94bd4ef8a2c3b, 0x884cfa59ca342b2e

	gcmCases := func(n int) []frameCase {
		arrays := func() [][]byte {
			return [][]byte{append([]byte(nil), msg...), make([]byte, len(msg)), keyBytes, block(1), block(2), ints(16), longs(3, 4), longs(htbl...)}
		}
		// implGCMCrypt0(in, inOfs, inLen, ct, ctOfs, out, outOfs, K, counter, encryptedCounter, used, state, subkeyHtbl)
		p := func(in, inOfs, n, ct, ctOfs, out, outOfs int) []frameArg {
			return []frameArg{fa(in), fi(inOfs), fi(n), fa(ct), fi(ctOfs), fa(out), fi(outOfs), fa(2), fa(3), fa(4), fa(5), fa(6), fa(7)}
		}
		cs := []frameCase{
			{"decrypt", arrays(), p(0, 16, n, 0, 16, 1, 0), true, true},
			{"encrypt", arrays(), p(0, 0, n, 1, 32, 1, 32), true, true},
			{"in place", arrays(), p(0, 16, n, 0, 16, 0, 16), true, true},
			{"ct elsewhere", arrays(), p(0, 0, n, 1, 0, 1, 16), true, true},
			{"partial overlap", arrays(), p(0, 0, n, 0, 0, 0, 16), true, true},
			{"no bytes", arrays(), p(0, 0, 0, 0, 0, 1, 0), true, true},
			{"in out of range", arrays(), p(0, len(msg)-n+1, n, 0, len(msg)-n+1, 1, 0), false, false},
			{"negative length", arrays(), p(0, 0, -16, 0, 0, 1, 0), false, false},
		}
		bad := frameCase{"short key", arrays(), p(0, 0, n, 0, 0, 1, 0), false, false}
		bad.arrays[2] = keyBytes[:40*4]
		cs = append(cs, bad)
		short := frameCase{"short subkey table", arrays(), p(0, 0, n, 0, 0, 1, 0), true, true}
		short.arrays[7] = longs(htbl[0], htbl[1])
		cs = append(cs, short)
		null := frameCase{"null state", arrays(), p(0, 0, n, 0, 0, 1, 0), false, false}
		null.params[11] = fnull()
		return append(cs, null)
	}
	ctrCases := func(n int) []frameCase {
		arrays := func() [][]byte {
			return [][]byte{keyBytes, block(9), block(5), ints(3), append([]byte(nil), msg...), make([]byte, len(msg))}
		}
		// CounterMode.implCrypt(K, counter, encryptedCounter, used, in, inOfs, len, out, outOfs)
		p := func(in, inOfs, n, out, outOfs int) []frameArg {
			return []frameArg{fa(0), fa(1), fa(2), fa(3), fa(in), fi(inOfs), fi(n), fa(out), fi(outOfs)}
		}
		cs := []frameCase{
			{"crypt", arrays(), p(4, 5, n, 5, 1), true, true},
			{"in place", arrays(), p(4, 3, n, 4, 3), true, true},
			{"partial overlap", arrays(), p(4, 0, n, 4, 7), true, true},
			{"out of range", arrays(), p(4, 0, n, 5, len(msg)-n+1), false, false},
		}
		used := frameCase{"used 17", arrays(), p(4, 0, n, 5, 0), false, false}
		used.arrays[3] = ints(17)
		null := frameCase{"null counter", arrays(), p(4, 0, n, 5, 0), false, false}
		null.params[1] = fnull()
		return append(cs, used, null)
	}
	ghashCases := func(blocks int) []frameCase {
		arrays := func() [][]byte {
			return [][]byte{append([]byte(nil), msg...), longs(5, 6), longs(htbl...)}
		}
		// GHASH.processBlocks(data, inOfs, blocks, state, subkeyHtbl)
		p := func(ofs, blocks int) []frameArg { return []frameArg{fa(0), fi(ofs), fi(blocks), fa(1), fa(2)} }
		cs := []frameCase{
			{"blocks", arrays(), p(32, blocks), true, true},
			{"negative blocks", arrays(), p(0, -1), false, false},
			{"out of range", arrays(), p(len(msg)-16*blocks+1, blocks), false, false},
		}
		short := frameCase{"short subkey table", arrays(), p(0, blocks), true, true}
		short.arrays[2] = longs(htbl[0], htbl[1])
		return append(cs, short)
	}

	cbcCases := func(n int, decrypt bool) []frameCase {
		arrays := func() [][]byte {
			return [][]byte{keyBytes, block(11), append([]byte(nil), msg...), make([]byte, len(msg))}
		}
		// CipherBlockChaining.implEncrypt/implDecrypt(K, r, in, inOfs, len, out, outOfs)
		p := func(in, inOfs, n, out, outOfs int) []frameArg {
			return []frameArg{fa(0), fa(1), fa(in), fi(inOfs), fi(n), fa(out), fi(outOfs)}
		}
		return []frameCase{
			{"crypt", arrays(), p(2, 16, n, 3, 32), true, true},
			// the decryption's predicate sends a call in place to the Java code
			{"in place", arrays(), p(2, 16, n, 2, 16), !decrypt, true},
			{"not whole blocks", arrays(), p(2, 0, n+1, 3, 0), false, false},
			{"out of range", arrays(), p(2, 0, n, 3, len(msg)-n+16), false, false},
		}
	}
	for _, j := range []jdk.Release{jdk.R17, jdk.R25} {
		t.Run("jdk="+j.String(), func(t *testing.T) {
			var java javaRuns
			vm := newTestVM(t, NewConfig().WithFlags(parseFlags(t, j)).WithTiers(fakeTiers(java.body)...))
			ctx := context.Background()
			for _, tt := range []struct {
				key   string
				cases []frameCase
			}{
				{"GaloisCounterMode.implGCMCrypt0", gcmCases(1536)},
				{"CounterMode.implCrypt", ctrCases(1000)},
				{"GHASH.processBlocks", ghashCases(100)},
				{"CipherBlockChaining.implEncrypt", cbcCases(1024, false)},
				{"CipherBlockChaining.implDecrypt", cbcCases(1024, true)},
			} {
				t.Run(tt.key, func(t *testing.T) {
					m, err := vm.Method(tt.key)
					if err != nil {
						t.Skipf("%s: %v", tt.key, err)
					}
					site := Site{Caller: m, Level: LevelFullOptimization, Callee: m}
					ft, ok := vm.BindFrame(site)
					if !ok {
						if d, _ := vm.Explain(tt.key, LevelFullOptimization); d.Stub {
							t.Fatalf("%s goes to stub %s but has no frame target", tt.key, d.Impl.Name)
						}
						t.Skipf("%s: no stub here", tt.key)
					}
					target, err := vm.Bind(ctx, site)
					if err != nil {
						t.Fatal(err)
					}
					first := true
					for _, c := range tt.cases {
						for _, where := range []string{"heap", "memory"} {
							t.Run(c.name+"/"+where, func(t *testing.T) {
								var mem []byte
								var argArrays, frameArrays [][]byte
								var addrs []uint32
								if where == "heap" {
									argArrays, frameArrays = heapArrays(t, vm, c.arrays), heapArrays(t, vm, c.arrays)
									for _, a := range frameArrays {
										off, ok := vm.heap.Offset(a)
										if !ok {
											t.Fatal("test array outside the heap")
										}
										addrs = append(addrs, heap.Base+off)
									}
								} else {
									_, argArrays, _ = memArrays(c.arrays)
									mem, frameArrays, addrs = memArrays(c.arrays)
								}
								args, stack := make([]Arg, len(c.params)), []uint64(nil)
								for i, p := range c.params {
									kind := m.Params[i].Kind
									switch {
									case p.arr == -1:
										args[i] = Arg{Kind: kind, Null: true}
										stack = append(stack, 0, 0)
									case p.array():
										args[i] = Arg{Kind: kind, Data: argArrays[p.arr]}
										stack = append(stack, uint64(addrs[p.arr]), uint64(len(frameArrays[p.arr])/kind.ElemSize()))
									default:
										args[i] = Arg{Kind: kind, Scalar: p.scalar}
										stack = append(stack, uint64(uint32(int32(p.scalar))))
									}
								}
								if first { // nothing taken before the site's first stub call
									first = false
									if _, done := ft(ctx, stack, mem, vm.heap); done {
										t.Fatal("the frame target took the site's first call")
									}
								}
								ret, err := target(ctx, args)
								fret, done := ft(ctx, stack, mem, vm.heap)
								if done != c.take {
									t.Fatalf("frame target took the call: %v, want %v (the Target said %v)", done, c.take, err)
								}
								changed := false
								for i := range c.arrays {
									changed = changed || !bytes.Equal(argArrays[i], c.arrays[i])
								}
								if changed != c.writes {
									t.Fatalf("the Target changed the arrays: %v, want %v", changed, c.writes)
								}
								if !done {
									for i := range c.arrays {
										if !bytes.Equal(frameArrays[i], c.arrays[i]) {
											t.Fatalf("the frame target left the call (the Target said %v) but changed array %d", err, i)
										}
									}
									return
								}
								if err != nil {
									t.Fatalf("the frame target took a call the Target refuses: %v", err)
								}
								if fret != ret {
									t.Errorf("frame target returned %d, Target %d", fret, ret)
								}
								for i := range c.arrays {
									if !bytes.Equal(frameArrays[i], argArrays[i]) {
										t.Errorf("array %d differs: %s", i, firstDiff(frameArrays[i], argArrays[i]))
									}
								}
							})
						}
					}
				})
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("byte %d: %#x vs %#x", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d vs %d", len(a), len(b))
}
