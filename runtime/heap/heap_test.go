package heap

import (
	"errors"
	goruntime "runtime"
	"testing"
)

func newTestHeap(t *testing.T, size int) *Heap {
	t.Helper()
	h, err := New(size)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func TestAllocFreeReuse(t *testing.T) {
	h := newTestHeap(t, 1<<20)
	a, err := h.Alloc(100)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 100 || cap(a) != 100 {
		t.Fatalf("len %d cap %d, want 100 100", len(a), cap(a))
	}
	for i := range a {
		a[i] = 0xaa
	}
	off, ok := h.Offset(a)
	if !ok || off%align != 0 {
		t.Fatalf("Offset = %d, %v", off, ok)
	}
	if err := h.Free(a); err != nil {
		t.Fatal(err)
	}
	if err := h.Free(a); err == nil {
		t.Fatal("double Free succeeded")
	}
	b, err := h.Alloc(120) // same size class: the block comes back, zeroed
	if err != nil {
		t.Fatal(err)
	}
	if off2, _ := h.Offset(b); off2 != off {
		t.Fatalf("reused block at %d, want %d", off2, off)
	}
	for i, v := range b {
		if v != 0 {
			t.Fatalf("byte %d of a reused array is %#x, want 0", i, v)
		}
	}
	if h.Used() != 128 {
		t.Fatalf("Used = %d, want 128", h.Used())
	}
}

// TestAllocUnzeroedKeepsBytes: AllocUnzeroed hands a freed block back with
// the bytes its last array left (its caller zeroes what it uses), and takes
// the same place and accounting as Alloc.
func TestAllocUnzeroedKeepsBytes(t *testing.T) {
	h := newTestHeap(t, 1<<20)
	a, err := h.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		a[i] = byte(i + 1)
	}
	off, _ := h.Offset(a)
	if err := h.Free(a); err != nil {
		t.Fatal(err)
	}
	b, err := h.AllocUnzeroed(64)
	if err != nil {
		t.Fatal(err)
	}
	if off2, _ := h.Offset(b); off2 != off || len(b) != 64 || cap(b) != 64 {
		t.Fatalf("AllocUnzeroed: offset %d len %d cap %d, want %d 64 64", off2, len(b), cap(b), off)
	}
	if b[0] != 1 || b[63] != 64 {
		t.Fatalf("AllocUnzeroed cleared the block (bytes %d, %d), want the last array's 1, 64", b[0], b[63])
	}
	if h.Used() != 64 {
		t.Fatalf("Used = %d, want 64", h.Used())
	}
}

func TestOffsetRejectsForeignAndStraddling(t *testing.T) {
	h := newTestHeap(t, 1<<20)
	if _, ok := h.Offset(make([]byte, 16)); ok {
		t.Fatal("a Go slice is in the heap")
	}
	if err := h.Free(make([]byte, 16)); err == nil {
		t.Fatal("Free of a Go slice succeeded")
	}
	tail := h.mem[h.size-8:]
	if _, ok := h.Offset(tail); !ok {
		t.Fatal("the heap's last 8 bytes are not in the heap")
	}
	a, _ := h.Alloc(256)
	if err := h.Free(a[64:]); err == nil {
		t.Fatal("Free of an interior slice succeeded")
	}
	var nilHeap *Heap
	if _, ok := nilHeap.Offset(a); ok {
		t.Fatal("a nil heap holds an array")
	}
}

func TestOutOfMemory(t *testing.T) {
	h := newTestHeap(t, 64<<10)
	if _, err := h.Alloc(32 << 10); err != nil {
		t.Fatal(err)
	}
	_, err := h.Alloc(64 << 10)
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) || oom.Requested != 64<<10 {
		t.Fatalf("err = %v, want OutOfMemoryError for 65536 bytes", err)
	}
	if _, err := h.Alloc(-1); err == nil {
		t.Fatal("negative size allocated")
	}
	if _, err := New(0); err == nil {
		t.Fatal("New(0) succeeded")
	}
}

// TestMapSharesPages writes through the host's array and reads it through
// an instance mapping, and the other way round.
func TestMapSharesPages(t *testing.T) {
	h := newTestHeap(t, 1<<20)
	a, _ := h.Alloc(64)
	off, _ := h.Offset(a)
	inst, err := h.Map(Base)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := h.Unmap(inst); err != nil {
			t.Error(err)
		}
	}()
	if len(inst) != Base+h.Size() {
		t.Fatalf("instance buffer %d bytes, want %d", len(inst), Base+h.Size())
	}
	a[5] = 42
	if got := inst[Base+int(off)+5]; got != 42 {
		t.Fatalf("instance sees %d, want 42", got)
	}
	inst[Base+int(off)+6] = 7
	if a[6] != 7 {
		t.Fatalf("host sees %d, want 7", a[6])
	}
	inst[100] = 1 // the private part is the instance's own
	if v, _ := h.View(0, 1); len(v) != 1 {
		t.Fatal("View(0, 1) failed")
	}
	if _, ok := h.View(uint32(h.Size()), 1); ok {
		t.Fatal("View past the end succeeded")
	}
	if _, err := h.Map(100); err == nil {
		t.Fatal("Map with a private part not a multiple of 64 KiB succeeded")
	}
}

type fakeOwner struct {
	h    *Heap
	b    []byte
	dead bool
}

func (o *fakeOwner) Dead() bool { return o.dead }
func (o *fakeOwner) Release() {
	if err := o.h.Free(o.b); err != nil {
		panic(err)
	}
}

// TestTrackReclaims fills the heap with owned arrays, lets their owners
// die, and allocates: the full heap sweeps the dead owners and the
// allocation succeeds; live owners are kept.
func TestTrackReclaims(t *testing.T) {
	h := newTestHeap(t, 64<<10)
	var owners []*fakeOwner
	for {
		b, err := h.Alloc(1024)
		if err != nil {
			break
		}
		o := &fakeOwner{h: h, b: b}
		owners = append(owners, o)
		h.Track(o)
	}
	if len(owners) != 64 {
		t.Fatalf("%d KiB arrays fit in a 64 KiB heap, want 64", len(owners))
	}
	for _, o := range owners[:32] {
		o.dead = true
	}
	if _, err := h.Alloc(1024); err != nil {
		t.Fatalf("allocation in a heap with 32 dead owners: %v", err)
	}
	if got := h.Used(); got != 33*1024 {
		t.Fatalf("Used = %d, want %d (32 live owners and the new array)", got, 33*1024)
	}
}

// TestTrackSweepsAfterCollection: owners that died are given back at the
// first Track after a Go collection, long before the owner count alone
// would sweep (64 owners for a new heap).
func TestTrackSweepsAfterCollection(t *testing.T) {
	h := newTestHeap(t, 64<<10)
	var owners []*fakeOwner
	for range 8 {
		b, err := h.Alloc(1024)
		if err != nil {
			t.Fatal(err)
		}
		o := &fakeOwner{h: h, b: b}
		owners = append(owners, o)
		h.Track(o)
	}
	for _, o := range owners[:4] {
		o.dead = true
	}
	// The collection's cleanup sets the flag on the cleanup goroutine.
	for i := 0; !h.collected.Load(); i++ {
		if i == 100 {
			t.Fatal("no collection seen after 100 runtime.GC calls")
		}
		goruntime.GC()
		goruntime.Gosched()
	}
	h.Track(&fakeOwner{h: h})
	if got := h.Used(); got != 4*1024 {
		t.Fatalf("Used = %d after a collection and a Track, want %d (4 live owners)", got, 4*1024)
	}
	if h.collected.Load() {
		t.Fatal("the sweep left the collection flag set")
	}
}

// FuzzHeapOps runs a sequence of allocations and frees the input encodes
// (two bytes an operation: free the k-th live array, or allocate up to
// 64 KiB) on a 1 MiB heap, and checks after each: live arrays never
// overlap, a new array is zeroed, a freed array's bytes do not belong to
// another live array, and Used is the sum of the live blocks.
func FuzzHeapOps(f *testing.F) {
	f.Add([]byte{0, 10, 0, 200, 1, 0, 0, 10})
	f.Add([]byte{0, 255, 0, 255, 0, 255, 1, 1, 0, 254, 1, 0})
	f.Add(bytes64k())
	f.Fuzz(func(t *testing.T, ops []byte) {
		h := newTestHeap(t, 1<<20)
		var live [][]byte
		for i := 0; i+1 < len(ops); i += 2 {
			if ops[i]&1 == 1 && len(live) > 0 {
				k := int(ops[i+1]) % len(live)
				if err := h.Free(live[k]); err != nil {
					t.Fatalf("op %d: Free of a live array: %v", i/2, err)
				}
				live = append(live[:k], live[k+1:]...)
			} else {
				n := int(ops[i+1]) * int(ops[i]>>1) // up to 255*127 bytes
				b, err := h.Alloc(n)
				if err != nil {
					var oom *OutOfMemoryError
					if !errors.As(err, &oom) {
						t.Fatalf("op %d: Alloc(%d): %v", i/2, n, err)
					}
					continue
				}
				for j, v := range b {
					if v != 0 {
						t.Fatalf("op %d: byte %d of a new %d-byte array is %#x", i/2, j, n, v)
					}
				}
				for j := range b {
					b[j] = byte(len(live) + 1)
				}
				live = append(live, b)
			}
			used := 0
			for k, b := range live {
				off, ok := h.Offset(b)
				if !ok && len(b) > 0 {
					t.Fatalf("op %d: live array %d not in the heap", i/2, k)
				}
				if len(b) > 0 { // an empty array takes no block
					used += align << classOf(len(b))
				}
				for m := k + 1; m < len(live); m++ {
					o2, _ := h.Offset(live[m])
					if len(b) > 0 && len(live[m]) > 0 && off < o2+uint32(len(live[m])) && o2 < off+uint32(len(b)) {
						t.Fatalf("op %d: live arrays %d [%d,+%d) and %d [%d,+%d) overlap", i/2, k, off, len(b), m, o2, len(live[m]))
					}
				}
			}
			if h.Used() != used {
				t.Fatalf("op %d: Used = %d, the live blocks hold %d", i/2, h.Used(), used)
			}
		}
	})
}

func bytes64k() []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = byte(i*37 + 3)
	}
	return b
}

// TestHighWater: the high-water mark grows with blocks taken past it and not
// with a freed block reused.
func TestHighWater(t *testing.T) {
	h := newTestHeap(t, 1<<20)
	if h.HighWater() != 0 {
		t.Fatalf("HighWater of a new heap = %d, want 0", h.HighWater())
	}
	a, err := h.Alloc(100) // a 128-byte block
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Alloc(64); err != nil {
		t.Fatal(err)
	}
	if got := h.HighWater(); got != 192 {
		t.Fatalf("HighWater = %d, want 192", got)
	}
	if err := h.Free(a); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Alloc(128); err != nil {
		t.Fatal(err)
	}
	if got := h.HighWater(); got != 192 {
		t.Fatalf("HighWater after reusing a freed block = %d, want 192", got)
	}
}
