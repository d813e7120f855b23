package runtime

import (
	"context"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/runtime/heap"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// FrameTarget is a call site of C2 code bound to a stub that reads the call's
// arguments where the calling code left them: stack holds the callee's wasm
// parameters (an array is its address and element count), mem is the calling
// instance's linear memory, and an array at or above heap.Base is the Java
// heap h's, which the calling instance maps. No
// argument list is built and decoded per call, as HotSpot's compiled code
// passes a stub its arguments in registers.
//
// done is false, with nothing done, unless the call is one the target takes
// whole: every array it reads non-null and in memory, every range in
// bounds, and the site's first stub call already made. The tier then makes the
// call through the site's Target on decoded arguments, which runs the same
// stub and reports what the target left alone (an exception, the first-call
// event).
type FrameTarget func(ctx context.Context, stack []uint64, mem []byte, h *heap.Heap) (ret int64, done bool)

// FrameBinder is implemented by routers that can bind a call site of C2 code
// to a FrameTarget: a site whose callee goes to a stub on the wall clock (the
// model clock prices each call from its argument list); the target tests the
// stub's predicate itself.
// ok is false for any other site, whose calls go through Bind's Target alone.
type FrameBinder interface {
	BindFrame(site Site) (t FrameTarget, ok bool)
}

// frameAdapter makes a decision's FrameTarget once the decision's first-call
// flag exists (firstStubCall): the target leaves the call to the Target until
// that flag is set, so that the first call is noted as it always was.
type frameAdapter func(fired *atomic.Bool) FrameTarget

// BindFrame implements FrameBinder.
func (vm *VM) BindFrame(site Site) (FrameTarget, bool) {
	if vm.sim != nil || site.Level < LevelNone || site.Level > LevelFullOptimization {
		return nil, false
	}
	st := vm.callees.get(site.Callee)
	if st == nil {
		return nil, false
	}
	d := st.route[site.Level]
	if d == nil || !d.Stub || d.frame == nil {
		return nil, false
	}
	return d.frame, true
}

// frameWords returns the index of each parameter's first wasm stack word
// (an array takes two: address, element count).
func frameWords(m *Method) []int {
	w := make([]int, len(m.Params))
	j := 0
	for i, p := range m.Params {
		w[i] = j
		j++
		if p.Kind.IsArray() {
			j++
		}
	}
	return w
}

// frameKinds reports whether m's parameters have kinds want, in order.
func frameKinds(m *Method, want ...bytecode.Kind) bool {
	if len(m.Params) != len(want) {
		return false
	}
	for i, p := range m.Params {
		if p.Kind != want[i] {
			return false
		}
	}
	return true
}

// frameArray is the host's view of the array whose words start at w, of
// elements elem bytes each, as the tier's decoding makes it: in the Java heap
// at or above heap.Base, else in the caller's memory mem. ok is false for
// null and for an array that does not fit.
func frameArray(stack []uint64, mem []byte, h *heap.Heap, w int, elem uint64) ([]byte, bool) {
	ptr := uint32(stack[w])
	n := uint64(uint32(stack[w+1])) * elem
	switch {
	case ptr == 0 || n > math.MaxUint32:
		return nil, false
	case ptr >= heap.Base:
		return h.View(ptr-heap.Base, uint32(n))
	case uint64(ptr)+n > uint64(len(mem)):
		return nil, false
	}
	return mem[ptr : uint64(ptr)+n : uint64(ptr)+n], true
}

// frameInt is the int parameter at word w.
func frameInt(stack []uint64, w int) int { return int(int32(uint32(stack[w]))) }

// frameSpan is span for a byte array at word wa with its offset at word wo.
func frameSpan(stack []uint64, mem []byte, h *heap.Heap, wa, wo, n int) ([]byte, bool) {
	d, ok := frameArray(stack, mem, h, wa, 1)
	off := frameInt(stack, wo)
	if ok && uint(off) <= uint(len(d)) && uint(n) <= uint(len(d)-off) {
		return d[off : off+n : off+n], true
	}
	return nil, false
}

// frameGCM is adaptGCM's call read from the frame: the same checks in the
// same order, the same subkey tables (tables, shared with the Target), the same
// stub; anything adaptGCM reports as an exception is left to it.
func frameGCM(m *Method, f gcm.GCMFunc, tables *subkeyTables) frameAdapter {
	if !frameKinds(m, bytecode.Bytes, bytecode.Int, bytecode.Int, bytecode.Bytes, bytecode.Int, bytecode.Bytes, bytecode.Int,
		bytecode.Ints, bytecode.Bytes, bytecode.Bytes, bytecode.Ints, bytecode.Longs, bytecode.Longs) {
		return nil
	}
	w := [13]int(frameWords(m))
	return func(fired *atomic.Bool) FrameTarget {
		return func(_ context.Context, stack []uint64, mem []byte, h *heap.Heap) (int64, bool) {
			if !fired.Load() {
				return 0, false
			}
			n := frameInt(stack, w[2])
			src, ok1 := frameSpan(stack, mem, h, w[0], w[1], n)
			ct, ok2 := frameSpan(stack, mem, h, w[3], w[4], n)
			dst, ok3 := frameSpan(stack, mem, h, w[5], w[6], n)
			kb, ok4 := frameArray(stack, mem, h, w[7], 4)
			cb, ok5 := frameArray(stack, mem, h, w[8], 1)
			sb, ok6 := frameArray(stack, mem, h, w[11], 8)
			hb, ok7 := frameArray(stack, mem, h, w[12], 8)
			if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) {
				return 0, false
			}
			xk := Arg{Kind: bytecode.Ints, Data: kb}.Uint32s()
			if k := len(xk); k != 44 && k != 52 && k != 60 {
				return 0, false
			}
			st := Arg{Kind: bytecode.Longs, Data: sb}.Uint64s()
			if len(cb) < 16 || len(st) < 2 || len(hb) < 16 {
				return 0, false
			}
			htbl, err := tables.get(m, Arg{Kind: bytecode.Longs, Data: hb})
			if err != nil {
				return 0, false
			}
			if n == 0 {
				return 0, true
			}
			if unsafe.SliceData(ct) != unsafe.SliceData(dst) && unsafe.SliceData(ct) != unsafe.SliceData(src) {
				return 0, true
			}
			if partialOverlap(dst, src) {
				return 0, true
			}
			return int64(f(xk, (*[16]byte)(cb[:16]), (*[2]uint64)(st[:2]), htbl, dst, src, ct)), true
		}
	}
}

// frameCTR is adaptCTR's call read from the frame (see frameGCM).
func frameCTR(m *Method, f aes.CTRFunc) frameAdapter {
	if !frameKinds(m, bytecode.Ints, bytecode.Bytes, bytecode.Bytes, bytecode.Ints,
		bytecode.Bytes, bytecode.Int, bytecode.Int, bytecode.Bytes, bytecode.Int) {
		return nil
	}
	w := [9]int(frameWords(m))
	return func(fired *atomic.Bool) FrameTarget {
		return func(_ context.Context, stack []uint64, mem []byte, h *heap.Heap) (int64, bool) {
			if !fired.Load() {
				return 0, false
			}
			kb, ok1 := frameArray(stack, mem, h, w[0], 4)
			cb, ok2 := frameArray(stack, mem, h, w[1], 1)
			eb, ok3 := frameArray(stack, mem, h, w[2], 1)
			ub, ok4 := frameArray(stack, mem, h, w[3], 4)
			n := frameInt(stack, w[6])
			src, ok5 := frameSpan(stack, mem, h, w[4], w[5], n)
			dst, ok6 := frameSpan(stack, mem, h, w[7], w[8], n)
			if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || len(cb) < 16 || len(eb) < 16 {
				return 0, false
			}
			xk := Arg{Kind: bytecode.Ints, Data: kb}.Uint32s()
			if k := len(xk); k != 44 && k != 52 && k != 60 {
				return 0, false
			}
			used := Arg{Kind: bytecode.Ints, Data: ub}.Uint32s()
			if len(used) < 1 || used[0] > 16 {
				return 0, false
			}
			return int64(f(xk, (*[16]byte)(cb[:16]), (*[16]byte)(eb[:16]), &used[0], dst, unaliased(dst, src))), true
		}
	}
}

// frameGHASH is adaptGHASH's call read from the frame (see frameGCM).
func frameGHASH(m *Method, f gcm.GHASHFunc, tables *subkeyTables) frameAdapter {
	if !frameKinds(m, bytecode.Bytes, bytecode.Int, bytecode.Int, bytecode.Longs, bytecode.Longs) {
		return nil
	}
	w := [5]int(frameWords(m))
	return func(fired *atomic.Bool) FrameTarget {
		return func(_ context.Context, stack []uint64, mem []byte, h *heap.Heap) (int64, bool) {
			if !fired.Load() {
				return 0, false
			}
			blocks := frameInt(stack, w[2])
			if blocks < 0 {
				return 0, false
			}
			data, ok1 := frameSpan(stack, mem, h, w[0], w[1], 16*blocks)
			sb, ok2 := frameArray(stack, mem, h, w[3], 8)
			hb, ok3 := frameArray(stack, mem, h, w[4], 8)
			if !(ok1 && ok2 && ok3) || len(sb) < 16 || len(hb) < 16 {
				return 0, false
			}
			st := Arg{Kind: bytecode.Longs, Data: sb}.Uint64s()
			htbl, err := tables.get(m, Arg{Kind: bytecode.Longs, Data: hb})
			if err != nil {
				return 0, false
			}
			f((*[2]uint64)(st[:2]), htbl, data, blocks)
			return 0, true
		}
	}
}

// frameCBC is adaptCBC's call read from the frame (see frameGCM); distinct
// leaves a call whose in and out are the same array to the Target, which
// sends it to the Java code (CBC decryption's predicate).
func frameCBC(m *Method, f aes.CBCFunc, distinct bool) frameAdapter {
	if !frameKinds(m, bytecode.Ints, bytecode.Bytes, bytecode.Bytes, bytecode.Int, bytecode.Int, bytecode.Bytes, bytecode.Int) {
		return nil
	}
	w := [7]int(frameWords(m))
	return func(fired *atomic.Bool) FrameTarget {
		return func(_ context.Context, stack []uint64, mem []byte, h *heap.Heap) (int64, bool) {
			if !fired.Load() {
				return 0, false
			}
			kb, ok1 := frameArray(stack, mem, h, w[0], 4)
			rb, ok2 := frameArray(stack, mem, h, w[1], 1)
			in, ok3 := frameArray(stack, mem, h, w[2], 1)
			out, ok4 := frameArray(stack, mem, h, w[5], 1)
			if !(ok1 && ok2 && ok3 && ok4) || len(rb) < 16 {
				return 0, false
			}
			if distinct && len(in) > 0 && len(out) > 0 && unsafe.SliceData(in) == unsafe.SliceData(out) {
				return 0, false
			}
			xk := Arg{Kind: bytecode.Ints, Data: kb}.Uint32s()
			if k := len(xk); k != 44 && k != 52 && k != 60 {
				return 0, false
			}
			n := frameInt(stack, w[4])
			if n%aes.BlockSize != 0 {
				return 0, false
			}
			src, ok5 := frameSpan(stack, mem, h, w[2], w[3], n)
			dst, ok6 := frameSpan(stack, mem, h, w[5], w[6], n)
			if !ok5 || !ok6 {
				return 0, false
			}
			return int64(f(xk, (*[16]byte)(rb[:16]), dst, unaliased(dst, src))), true
		}
	}
}
