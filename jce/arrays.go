package jce

import (
	"slices"
	"sync"
	"unsafe"
	"weak"

	"github.com/jitsim/jitsim/bytecode"

	"github.com/jitsim/jitsim/runtime/heap"
)

// heapHolder is an Invoker with a Java heap (the VM, and the invokers of
// its threads): the provider then keeps its own objects' arrays there.
type heapHolder interface {
	Heap() *heap.Heap
}

// HeapOf is the Java heap behind an Invoker — a VM, a thread's invoker, or
// anything with a Heap method — nil when it has none.
func HeapOf(inv Invoker) *heap.Heap {
	if hh, ok := inv.(heapHolder); ok {
		return hh.Heap()
	}
	return nil
}

// javaArrays are the arrays a Cipher's provider objects own — the session
// key, the GCTR and GHASH objects' fields, the tag's scratch — allocated in
// the VM's Java heap when there is one, so that every call the provider
// makes passes them to compiled code in place, as HotSpot's compiled
// provider code does. Without a heap, or when it is full, they are Go
// memory (copied into each call). The heap frees them once the Cipher and
// the other Ciphers of its slab (cipherSlabs) are unreachable (heap.Owner;
// checked when other owners register or the heap is full): jitsim has no
// collector for the Java heap, and these arrays never leave the Cipher.
//
// The arrays a Cipher of its mode usually owns come from one block of the
// heap, taken unzeroed with the first of them and handed out by bumping an
// offset, each zeroed as it goes — as a JVM thread allocates its objects in
// its TLAB — so that they cost one allocation and one free under the heap's
// lock instead of one each. An array dropped from the block stays there
// until the block goes; one the block has no room for is a heap block of its
// own.
type javaArrays struct {
	h *heap.Heap
	// gcmOwner or coreOwner is the slab of the Cipher (one of them is set): the
	// Cipher is dead once its slab is.
	gcmOwner  weak.Pointer[[slabLen]gcmAlloc]
	coreOwner weak.Pointer[[slabLen]coreAlloc]
	region    int    // bytes of the block (cipherModes' arrays); 0: none
	block     []byte // nil until the first array
	top       int    // block[:top] is handed out

	mu   sync.Mutex // live: the Cipher's thread adds, the heap's sweep releases
	live [][]byte
	// first backs live for the blocks a Cipher usually owns (its bump block and
	// an output scratch), so that they cost no allocation of their own.
	first [4][]byte

	out []byte // outBuf's scratch (its full capacity)
}

// arrayAlign is the alignment of each array in the block: an AES block's
// (the stubs load unaligned vectors; long[] needs 8). The arrays are
// packed, so that a Cipher's set-up touches few cache lines.
const arrayAlign = 16

func newJavaArrays(inv Invoker, region int) *javaArrays {
	a, ok := spareArrays.Get().(*javaArrays)
	if !ok {
		a = new(javaArrays)
		a.live = a.first[:0]
	}
	a.h, a.region = HeapOf(inv), region
	return a
}

// spareArrays holds javaArrays whose Cipher died and whose arrays the heap took back
// (Release): a new Cipher's bookkeeping reuses one instead of allocating it, as a loop
// making a Cipher per operation does on every operation.
var spareArrays sync.Pool

// bytes is new byte[n].
func (a *javaArrays) bytes(n int) []byte {
	if a.h == nil || n <= 0 {
		return make([]byte, n)
	}
	if a.block == nil && a.region > 0 {
		if b, err := a.h.AllocUnzeroed(a.region); err == nil {
			a.block, a.top = b, 0
			a.keep(b)
		} else {
			a.region = 0 // the heap is full: an array at a time from here on
		}
	}
	if n <= len(a.block)-a.top {
		b := a.block[a.top : a.top+n : a.top+n]
		clear(b)
		a.top = min(len(a.block), (a.top+n+arrayAlign-1)&^(arrayAlign-1))
		return b
	}
	if b, err := a.h.Alloc(n); err == nil {
		a.keep(b)
		return b
	}
	return make([]byte, n)
}

// keep records b, a block of the heap, for release.
func (a *javaArrays) keep(b []byte) {
	a.mu.Lock()
	a.live = append(a.live, b)
	a.mu.Unlock()
}

// ints is new int[n], n > 0 (little-endian host, as IntsArg).
func (a *javaArrays) ints(n int) []uint32 { return bytecode.Arg{Data: a.bytes(4 * n)}.Uint32s() }

// longs is new long[n], n > 0 (little-endian host, as LongsArg).
func (a *javaArrays) longs(n int) []uint64 { return bytecode.Arg{Data: a.bytes(8 * n)}.Uint64s() }

// drop frees an array bytes, ints or longs made (its Data as an Arg) once
// nothing refers to it; an array in the block stays until the block goes,
// and Go memory is left to the collector.
func (a *javaArrays) drop(b []byte) {
	if a.h == nil || len(b) == 0 {
		return
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(a.block)))
	if len(a.block) > 0 && p >= lo && p < lo+uintptr(len(a.block)) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, l := range a.live {
		if unsafe.SliceData(l) == unsafe.SliceData(b) {
			_ = a.h.Free(l)
			a.live = slices.Delete(a.live, i, i+1)
			return
		}
	}
}

// outBuf is the Cipher's output scratch of n bytes, grown as needed: the
// allocating Update and DoFinal (Java's doFinal(byte[]), which returns a new
// array) let the reference methods write there — in the heap, so in place
// — and return a copy, one copy of the output instead of the two (into the
// called code's memory and back) a fresh Go slice would cost.
func (a *javaArrays) outBuf(n int) []byte {
	if len(a.out) < n {
		a.drop(a.out)
		a.out = a.bytes(n)
	}
	return a.out[:n]
}

// result is a new Go slice holding out[:n], the allocating calls' return.
func result(out []byte, n int) []byte {
	r := make([]byte, n)
	copy(r, out)
	return r
}

// own ties the arrays to the lifetime of the Cipher's slab (gcmOwner or coreOwner, set).
func (a *javaArrays) own() {
	if a.h != nil {
		a.h.Track(a)
	}
}

// Dead implements heap.Owner: the Cipher's slab, and so the Cipher, is unreachable.
func (a *javaArrays) Dead() bool { return a.gcmOwner.Value() == nil && a.coreOwner.Value() == nil }

// slabLen is the number of Ciphers allocated, and watched by the Go collector,
// together (cipherSlabs).
const slabLen = 8

// cipherSlabs hands out Ciphers (T: gcmAlloc or coreAlloc) slabLen to a Go
// allocation, with one weak pointer to the slab for all of them. A weak pointer
// per Cipher — how the heap learns that a Cipher died, to take its arrays back —
// cost about as much as the Cipher's own allocation, on every operation of a
// loop making a Cipher per operation, as the JDK's tests and benchmarks do; a
// JVM allocates the Cipher's objects from its thread's buffer and reclaims them
// in bulk. The price: a Cipher's arrays go back to the heap once it and the
// slab's other Ciphers (made just before and after it) are all unreachable.
//
// The slab being handed out is held weakly too: Ciphers nobody made yet do not
// keep the ones already made (and their VMs) alive.
type cipherSlabs[T any] struct {
	mu    sync.Mutex
	watch weak.Pointer[[slabLen]T] // the slab being handed out
	next  int                      // its items [next:] are not handed out
}

var (
	gcmSlabs  cipherSlabs[gcmAlloc]
	coreSlabs cipherSlabs[coreAlloc]
)

// take returns a zeroed T not handed out before, and the weak pointer to its slab.
func (s *cipherSlabs[T]) take() (*T, weak.Pointer[[slabLen]T]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	slab := s.watch.Value()
	if slab == nil || s.next == slabLen {
		slab, s.next = new([slabLen]T), 0
		s.watch = weak.Make(slab)
	}
	x := &slab[s.next]
	s.next++
	return x, s.watch
}

// Release implements heap.Owner. The heap calls it once, for an owner found Dead, and
// drops the owner after: nothing refers to a any more, so it goes to spareArrays.
func (a *javaArrays) Release() {
	a.release()
	*a = javaArrays{}
	a.live = a.first[:0]
	spareArrays.Put(a)
}

// release frees every array.
func (a *javaArrays) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, b := range a.live {
		_ = a.h.Free(b)
	}
	a.live = nil
}
