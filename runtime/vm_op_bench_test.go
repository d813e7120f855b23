package runtime_test

import (
	"bytes"
	"context"
	goaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	goruntime "runtime"
	"sync/atomic"
	"testing"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
)

// opCase is one row of BenchmarkOperation: a transformation and direction.
// Its Java twin is jvmharness/Cost.java's "op-" rows (the same calls per
// operation on a real JVM).
type opCase struct {
	name, trans string
	decrypt     bool
}

var opCases = []opCase{
	{"gcm-enc", "AES/GCM/NoPadding", false},
	{"gcm-dec", "AES/GCM/NoPadding", true},
	{"cbc-enc", "AES/CBC/NoPadding", false},
	{"cbc-dec", "AES/CBC/NoPadding", true},
	{"ctr", "AES/CTR/NoPadding", false},
}

// opAAD is the AAD each GCM operation passes to updateAAD.
const opAAD = 16

// warmOp is one operation's whole path through the provider, at steady
// state: Cipher.getInstance, init (GCM encryption: a fresh IV each time),
// updateAAD (GCM) and doFinal into a caller-owned buffer. Every input is
// made once; the output is checked against crypto/cipher after the timed
// loop.
type warmOp struct {
	vm      *jrt.VM
	rel     jdk.Release
	c       opCase
	key, iv []byte
	aad     []byte
	in, out []byte
	ctr     uint64
}

func (w *warmOp) spec() jce.ParamSpec {
	if w.c.trans == "AES/GCM/NoPadding" {
		return jce.GCMParameterSpec{TLen: 128, IV: w.iv}
	}
	return jce.IvParameterSpec{IV: w.iv}
}

// once runs one operation.
func (w *warmOp) once(ctx context.Context) error {
	c, err := jce.GetInstance(w.vm, w.rel, w.c.trans)
	if err != nil {
		return err
	}
	mode := jce.EncryptMode
	if w.c.decrypt {
		mode = jce.DecryptMode
	} else if w.c.trans == "AES/GCM/NoPadding" {
		w.ctr++
		for i := 0; i < 8; i++ {
			w.iv[i] = byte(w.ctr >> (8 * i))
		}
	}
	if err := c.Init(ctx, mode, w.key, w.spec()); err != nil {
		return err
	}
	if w.c.trans == "AES/GCM/NoPadding" {
		if err := c.UpdateAAD(w.aad); err != nil {
			return err
		}
	}
	_, err = c.DoFinalTo(ctx, w.in, 0, len(w.in), w.out, 0)
	return err
}

// expected is crypto/cipher's output for the current IV.
func (w *warmOp) expected(tb testing.TB, plain []byte) []byte {
	blk, err := goaes.NewCipher(w.key)
	if err != nil {
		tb.Fatal(err)
	}
	switch w.c.name {
	case "gcm-enc", "gcm-dec":
		g, err := cipher.NewGCM(blk)
		if err != nil {
			tb.Fatal(err)
		}
		return g.Seal(nil, w.iv[:12], plain, w.aad)
	case "cbc-enc", "cbc-dec":
		out := make([]byte, len(plain))
		cipher.NewCBCEncrypter(blk, w.iv).CryptBlocks(out, plain)
		return out
	default:
		out := make([]byte, len(plain))
		cipher.NewCTR(blk, w.iv).XORKeyStream(out, plain)
		return out
	}
}

// check compares the last operation's output with crypto/cipher's.
func (w *warmOp) check(tb testing.TB, plain []byte) {
	tb.Helper()
	sealed := w.expected(tb, plain)
	got, want := w.out, sealed
	if w.c.decrypt {
		want = plain
	}
	if !bytes.Equal(got[:len(want)], want) {
		tb.Fatalf("%s: the VM's output differs from crypto/cipher's", w.c.name)
	}
}

// newWarmOp warms one operation to steady state the way newWarmGCMSize
// does (newBatchVM, then 4 × 50 operations with no VM event and no compile
// queued).
func newWarmOp(tb testing.TB, rel jdk.Release, c opCase, size int) (*warmOp, []byte) {
	tb.Helper()
	vm := newBatchVM(tb, rel, nil)
	// The key, AAD, input and output are Java arrays, in the VM's heap, as the
	// JVM peer's are and as TestAESMain's are (scenario.aesTest.newArray): a
	// Go slice would be copied into the called code's memory and back on
	// every call, which no JVM does.
	jarr := func(b []byte) []byte {
		h, err := vm.NewByteArray(len(b))
		if err != nil {
			tb.Fatal(err)
		}
		copy(h, b)
		return h
	}
	w := &warmOp{vm: vm, rel: rel, c: c, key: jarr([]byte("0123456789abcdef")), iv: make([]byte, 16), aad: make([]byte, opAAD)}
	if c.trans == "AES/GCM/NoPadding" {
		w.iv = w.iv[:12]
	}
	plain := make([]byte, size)
	for i := range plain {
		plain[i] = byte(i * 7)
	}
	for i := range w.aad {
		w.aad[i] = byte(i)
	}
	w.aad = jarr(w.aad)
	w.in = plain
	if c.decrypt {
		w.in = w.expected(tb, plain)
	}
	w.in = jarr(w.in)
	w.out = jarr(make([]byte, len(w.in)+16))
	var events atomic.Int64
	unsubscribe := vm.Subscribe(func(jrt.Event) { events.Add(1) })
	defer unsubscribe()
	ctx := context.Background()
	last, quiet := int64(-1), 0
	for i := 0; quiet < 4; i++ {
		if err := w.once(ctx); err != nil {
			tb.Fatal(err)
		}
		if i%50 == 49 {
			if n := events.Load(); n == last && !queued(tb, vm) {
				quiet++
			} else {
				last, quiet = n, 0
			}
		}
		if i > 20000 {
			tb.Fatalf("JDK %s %s: not at steady state after %d operations", rel, c.name, i)
		}
	}
	warmHeap(tb, vm, func() error { return w.once(ctx) })
	w.check(tb, plain)
	return w, plain
}

// heapBatch is the number of operations between two looks at the Java heap's
// high-water mark in warmHeap; heapBatches bounds the looks.
const heapBatch, heapBatches = 1000, 100

// warmHeap runs op until the Java heap's high-water mark (heap.HighWater) has
// not moved for three batches of heapBatch operations: the heap at steady state
// as well as the code. A Cipher per operation takes its arrays from the heap,
// which gets them back only once the Go collector has found the Cipher dead,
// so the touched part of the heap grows over the first thousands of
// operations, and each page it grows by is first touched once in the host's
// mapping and once in the mapping of every instance that reads it — a page
// fault each, several microseconds on a virtual machine with shadow page
// tables, which the JVM peer's seconds of warm-up have long paid for its heap.
func warmHeap(tb testing.TB, vm *jrt.VM, op func() error) {
	tb.Helper()
	h := vm.Heap()
	if h == nil {
		return
	}
	last, still := -1, 0
	for n := 0; still < 3; n++ {
		if n == heapBatches {
			tb.Logf("the Java heap's high-water mark still moves after %d operations (%d bytes)", n*heapBatch, last)
			return
		}
		for range heapBatch {
			if err := op(); err != nil {
				tb.Fatal(err)
			}
		}
		if hw := h.HighWater(); hw == last {
			still++
		} else {
			last, still = hw, 0
		}
	}
}

// queued reports whether any method of vm has a compile queued or running.
func queued(tb testing.TB, vm *jrt.VM) bool {
	for _, m := range vm.Table().Methods() {
		_, q, err := vm.Level(m.Key)
		if err != nil {
			tb.Fatal(err)
		}
		if q {
			return true
		}
	}
	return false
}

// BenchmarkOperation times one whole Cipher operation per iteration —
// getInstance, init, updateAAD (GCM, 16 bytes), doFinal — with every method
// at its steady-state level (C2 and its stubs), per JDK 17 and 25,
// transformation and size, with allocations and the benchmark goroutine's
// thread CPU time per operation (cpu-ns/op) reported. Its peer is
// Cost.java's op- rows on a real JVM (docs/measurements/speed.md has the
// commands and a side-by-side run).
func BenchmarkOperation(b *testing.B) {
	for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
		for _, c := range opCases {
			for _, size := range []int{1024, 16384} {
				b.Run(fmt.Sprintf("jdk=%s/op=%s/size=%d", rel, c.name, size), func(b *testing.B) {
					w, plain := newWarmOp(b, rel, c, size)
					ctx := context.Background()
					b.SetBytes(int64(size))
					b.ReportAllocs()
					goruntime.LockOSThread()
					defer goruntime.UnlockOSThread()
					cpu0, cpuOK := threadCPU()
					b.ResetTimer()
					for b.Loop() {
						if err := w.once(ctx); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					if cpu1, ok := threadCPU(); ok && cpuOK {
						// The JVM side reports thread CPU time too: on a shared machine wall
						// time counts other processes' turns on the CPU.
						b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
					}
					w.check(b, plain)
				})
			}
		}
	}
}

// TestOperationAllocs holds a whole Cipher operation at steady state to three Go
// allocations: the Cipher's share of its slab and of the weak pointer the Java
// heap watches the slab by (a slab of jce's slabLen Ciphers), and its array
// bookkeeping — which a long run takes from the records of Ciphers the heap
// found dead (BenchmarkOperation reports a quarter per operation, shown as 0),
// but a short burst between two collections allocates anew.
func TestOperationAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("warms a VM per transformation")
	}
	if raceEnabled {
		t.Skip("the race detector allocates and drops pooled items: counts are meaningless")
	}
	for _, c := range opCases {
		w, _ := newWarmOp(t, jdk.R25, c, 1024)
		ctx := context.Background()
		n := testing.AllocsPerRun(2000, func() {
			if err := w.once(ctx); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.2f", c.name, n)
		if n > 3 {
			t.Errorf("%s: %.1f Go allocations per operation, want at most 3", c.name, n)
		}
	}
}
