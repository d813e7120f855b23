// Package heap is jitsim's Java heap: one region of memory in which Java
// arrays are allocated, mapped into the wasm memory of every compiled
// method's instance at the same address ([Base]). A Java array the
// application allocates here is handed to compiled code, and from compiled
// code to a native stub, without a copy — as HotSpot's compiled code and its
// stubs work on the arrays in place. Arrays outside the heap (ordinary Go
// slices) are still accepted everywhere; the engine copies those into the
// instance's memory for the call and back.
//
// The region is a memfd on Linux: the host sees it through one mapping
// ([Heap.View], the slices [Heap.Alloc] returns), each instance through its
// own mapping of the same pages ([Heap.Map]); each instance reserves
// address space for all of it, so only 64-bit Linux has a heap. Elsewhere
// [New] reports [ErrUnsupported] and the VM runs without one.
package heap

import (
	"errors"
	"fmt"
	"math/bits"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
	"weak"
)

// Base is the wasm address at which every instance sees the heap: above
// the instance's own memory (stack, statics, profile, control block and
// copied arguments), which the engine keeps below it.
const Base = 64 << 20

// MaxSize is the largest heap: 2 GiB less a 64 KiB page, which a wasm32
// address space holds above Base and an int holds on every platform.
const MaxSize = 2<<30 - 64<<10

// DefaultSize is the heap size when the VM is not told otherwise.
const DefaultSize = 256 << 20

// align is the alignment of every array (a cache line; stubs load whole
// vectors).
const align = 64

// ErrUnsupported reports a platform without the shared mappings the heap
// needs; the VM then copies every array.
var ErrUnsupported = errors.New("heap: shared array memory is not supported on this platform")

// OutOfMemoryError is returned when the heap cannot hold an allocation: the
// JVM's "java.lang.OutOfMemoryError: Java heap space".
type OutOfMemoryError struct {
	Requested int // bytes
	Size      int // the heap's size
}

func (e *OutOfMemoryError) Error() string {
	return fmt.Sprintf("java.lang.OutOfMemoryError: Java heap space (allocating %d bytes in a %d-byte heap)", e.Requested, e.Size)
}

// Heap is the Java heap. Its methods are safe for concurrent use.
type Heap struct {
	r    *region // the platform's shared memory
	mem  []byte  // the host's view of the whole heap
	size int

	mu    sync.Mutex
	top   int           // bump pointer: bytes [0, top) have been handed out at least once
	free  [bins][]int32 // free blocks per size class, as offsets/align
	class []uint8       // per block (offset/align): its size class + 1, 0 when not the start of a live array
	used  int           // bytes in live blocks

	lastGC    atomic.Int64 // Unix ns of the last collection a full heap asked for
	tmu       sync.Mutex   // owners; lock order: tmu, then mu (a sweep frees)
	owners    []Owner
	nextSweep int
	// collected is set when a Go collection has finished since the last
	// sweep (watchCollections): owners that died before it can be found
	// dead now.
	collected atomic.Bool
}

// bins is the number of size classes: class k holds blocks of align<<k bytes.
const bins = 32

// New reserves a heap of size bytes (rounded up to 64 KiB; at most MaxSize).
func New(size int) (*Heap, error) {
	if size <= 0 || size > MaxSize {
		return nil, fmt.Errorf("heap: size %d out of range (1 .. %d bytes)", size, MaxSize)
	}
	size = (size + 0xffff) &^ 0xffff
	r, mem, err := newRegion(size)
	if err != nil {
		return nil, err
	}
	h := &Heap{r: r, mem: mem, size: size, class: make([]uint8, size/align), nextSweep: 64}
	watchCollections(weak.Make(h))
	return h, nil
}

// gcMark is an object no one refers to: a cleanup attached to it runs once
// a Go collection has found it unreachable. It holds a pointer so that it is
// not a tiny allocation, whose cleanup may never run.
type gcMark struct{ _ *byte }

// watchCollections sets the heap's collected flag after each Go collection,
// for as long as the heap is reachable: a new mark is attached each time
// and the last one's cleanup sets the flag. The cleanup only sets the flag;
// the sweep itself runs on a goroutine that allocates or tracks (Track), as
// every other sweep does.
func watchCollections(wh weak.Pointer[Heap]) {
	goruntime.AddCleanup(new(gcMark), func(wh weak.Pointer[Heap]) {
		if h := wh.Value(); h != nil {
			h.collected.Store(true)
			watchCollections(wh)
		}
	}, wh)
}

// Size is the heap's size in bytes.
func (h *Heap) Size() int { return h.size }

// Used is the number of bytes in live arrays (rounded to their blocks).
func (h *Heap) Used() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.used
}

// HighWater is the number of bytes at the heap's start that arrays have
// occupied at some time: the part of the heap whose pages have been touched.
// It grows when no freed block of a size is left to reuse.
func (h *Heap) HighWater() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.top
}

// Close releases the heap. Arrays allocated from it must not be used after.
func (h *Heap) Close() error { return h.r.close() }

// classOf is the size class of an n-byte array.
func classOf(n int) uint8 {
	if n <= align {
		return 0
	}
	return uint8(bits.Len(uint((n - 1) / align)))
}

// Alloc returns a zeroed n-byte array in the heap (Java's new byte[n]).
// Its capacity is n: appending to it leaves the heap. Blocks are powers of
// two from 64 bytes, so an array occupies up to twice its length.
func (h *Heap) Alloc(n int) ([]byte, error) {
	b, err := h.AllocUnzeroed(n)
	clear(b)
	return b, err
}

// AllocUnzeroed is Alloc without the zeroing: its bytes are what the last
// array in its place left. It is for a caller that hands the block out in
// parts and zeroes each part as it does (the provider's per-Cipher block),
// touching only the bytes it uses.
func (h *Heap) AllocUnzeroed(n int) ([]byte, error) {
	b, err := h.alloc(n)
	if err == nil {
		return b, nil
	}
	var oom *OutOfMemoryError
	if errors.As(err, &oom) {
		// As a JVM collects before it throws: owners found dead by a
		// full collection give their arrays back. At most one collection
		// per gcEvery: callers that fall back to Go memory on a full heap
		// (the provider, the scenarios) must not collect on every call.
		if last := h.lastGC.Load(); time.Since(time.Unix(0, last)) >= gcEvery {
			h.lastGC.Store(time.Now().UnixNano())
			goruntime.GC()
		}
		h.sweep()
		b, err = h.alloc(n)
	}
	return b, err
}

// gcEvery is the least time between the collections a full heap asks for.
const gcEvery = time.Second

func (h *Heap) alloc(n int) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("heap: negative array size %d", n)
	}
	if n == 0 {
		// An empty array has no bytes to pass in place: it takes no block.
		return []byte{}, nil
	}
	k := classOf(n)
	bs := align << k
	if bs > h.size {
		return nil, &OutOfMemoryError{Requested: n, Size: h.size}
	}
	h.mu.Lock()
	var off int
	if f := h.free[k]; len(f) > 0 {
		off = int(f[len(f)-1]) * align
		h.free[k] = f[:len(f)-1]
	} else {
		if h.top+bs > h.size {
			h.mu.Unlock()
			return nil, &OutOfMemoryError{Requested: n, Size: h.size}
		}
		off = h.top
		h.top += bs
	}
	h.class[off/align] = k + 1
	h.used += bs
	h.mu.Unlock()
	return h.mem[off : off+n : off+n], nil
}

// Free returns an array Alloc made to the heap. Freeing anything else, or
// twice, is an error; an empty array (which takes no block) frees as a no-op.
func (h *Heap) Free(b []byte) error {
	if cap(b) == 0 {
		return nil
	}
	off, ok := h.Offset(b)
	if !ok {
		return errors.New("heap: Free of an array not in the heap")
	}
	if off%align != 0 {
		return fmt.Errorf("heap: Free at offset %d, not the start of an array", off)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	k := h.class[off/align]
	if k == 0 {
		return fmt.Errorf("heap: Free at offset %d: not allocated (freed twice?)", off)
	}
	h.class[off/align] = 0
	k--
	h.free[k] = append(h.free[k], int32(off/align))
	h.used -= align << k
	return nil
}

// Offset reports where b starts in the heap, and whether b lies in it
// (wholly: a slice running past the end is not a heap array). A
// zero-length slice is in the heap only if it points into it.
func (h *Heap) Offset(b []byte) (uint32, bool) {
	if h == nil || cap(b) == 0 {
		return 0, false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(h.mem)))
	if p < lo || p-lo >= uintptr(h.size) || uintptr(len(b)) > uintptr(h.size)-(p-lo) {
		return 0, false
	}
	return uint32(p - lo), true
}

// View is the host's slice of n bytes at heap offset off.
func (h *Heap) View(off, n uint32) ([]byte, bool) {
	if uint64(off)+uint64(n) > uint64(h.size) {
		return nil, false
	}
	return h.mem[off : off+n : off+n], true
}

// Map returns a buffer of private+Size() bytes: private bytes of fresh
// zeroed memory followed by the heap's pages, for one wasm instance's
// linear memory (private must be Base). Release it with Unmap.
func (h *Heap) Map(private int) ([]byte, error) {
	if private <= 0 || private%(64<<10) != 0 {
		return nil, fmt.Errorf("heap: private part %d is not a positive multiple of 64 KiB", private)
	}
	return h.r.mapAt(private)
}

// Unmap releases a buffer Map returned.
func (h *Heap) Unmap(b []byte) error { return unmap(b) }

// Owner is a set of arrays whose lifetime is that of a Go object (a
// Cipher's provider objects): Dead reports that the object is gone, Release
// frees the arrays.
type Owner interface {
	Dead() bool
	Release()
}

// Track registers o: once Dead, its arrays are released by a later Track
// (the first after a Go collection, or when the owners have doubled) or by
// an allocation that finds the heap full — on the allocating goroutine, so
// reclaiming never runs behind the application's back (the one cleanup,
// watchCollections', only notes that a collection happened).
func (h *Heap) Track(o Owner) {
	h.tmu.Lock()
	h.owners = append(h.owners, o)
	// A sweep after each collection gives the dead owners' arrays back
	// while their blocks are the ones the next allocations can reuse:
	// waiting for the count alone (up to twice the owners live at the last
	// sweep) holds a collection's garbage until the next count, and the
	// arrays allocated meanwhile take blocks the heap has never touched.
	sweep := len(h.owners) >= h.nextSweep || h.collected.Load()
	h.tmu.Unlock()
	if sweep {
		h.sweep()
	}
}

// sweep releases the dead owners and sets the next sweep at twice the
// live ones (at least 64 owners apart), so tracking stays linear in time.
func (h *Heap) sweep() {
	h.tmu.Lock()
	defer h.tmu.Unlock()
	h.collected.Store(false)
	live := h.owners[:0]
	for _, o := range h.owners {
		if o.Dead() {
			o.Release()
			continue
		}
		live = append(live, o)
	}
	clear(h.owners[len(live):])
	h.owners = live
	h.nextSweep = max(64, 2*len(live))
}
