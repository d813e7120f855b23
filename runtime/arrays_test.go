package runtime_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/heap"
	"github.com/jitsim/jitsim/tiers"
)

func newHeapVM(t *testing.T, heapSize int, args ...string) *jrt.VM {
	t.Helper()
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...).WithHeapSize(heapSize))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vm.Close() })
	return vm
}

// TestHeapArrayBeyondCopyLimit encrypts 40 MiB held in the Java heap
// through interpreted code that calls the CBC stub (the Haley flag): the
// same message as Go slices is over the code's memory limit
// (TestWasmMemoryLimit), in the heap it needs no room there at all.
func TestHeapArrayBeyondCopyLimit(t *testing.T) {
	vm := newHeapVM(t, 0, "-Xint", "-XX:+UnlockExperimentalVMOptions", "-XX:+"+jrt.HaleyFlag)
	if vm.Heap() == nil {
		t.Skip("no Java heap on this platform")
	}
	ctx := context.Background()
	key, iv := []byte("0123456789abcdef"), make([]byte, 16)
	const n = 40 << 20
	pt, err := vm.NewByteArray(n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pt {
		pt[i] = byte(i * 13)
	}
	ct, err := vm.NewByteArray(n)
	if err != nil {
		t.Fatal(err)
	}
	c, err := jce.NewCipher(ctx, vm, jdk.R25, "AES/CBC/NoPadding", jce.EncryptMode, key, jce.IvParameterSpec{IV: iv})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DoFinalTo(ctx, pt, 0, n, ct, 0); err != nil {
		t.Fatal(err)
	}
	blk, _ := aes.NewCipher(key)
	want := make([]byte, n)
	cipher.NewCBCEncrypter(blk, iv).CryptBlocks(want, pt)
	if !bytes.Equal(ct, want) {
		t.Fatal("40 MiB CBC in the heap differs from crypto/cipher")
	}
	for _, b := range [][]byte{pt, ct} {
		if err := vm.ReleaseArray(b); err != nil {
			t.Fatal(err)
		}
	}
	if u := vm.Heap().Used(); u >= 1<<20 { // the cipher's own arrays stay
		t.Fatalf("heap holds %d bytes after both 40 MiB arrays were released", u)
	}
}

// TestNewByteArrayErrors: Java's exceptions for bad sizes and a full heap,
// errors for releasing what the heap did not make, and a VM without a heap.
func TestNewByteArrayErrors(t *testing.T) {
	vm := newHeapVM(t, 1<<20)
	if vm.Heap() == nil {
		t.Skip("no Java heap on this platform")
	}
	if _, err := vm.NewByteArray(-1); err == nil || err.Error() != "java.lang.NegativeArraySizeException: -1" {
		t.Fatalf("NewByteArray(-1) = %v, want java.lang.NegativeArraySizeException: -1", err)
	}
	_, err := vm.NewByteArray(2 << 20)
	var oom *heap.OutOfMemoryError
	if !errors.As(err, &oom) || !strings.Contains(err.Error(), "Java heap space") {
		t.Fatalf("NewByteArray(2 MiB) in a 1 MiB heap = %v, want OutOfMemoryError", err)
	}
	if err := vm.ReleaseArray(make([]byte, 8)); err == nil {
		t.Fatal("ReleaseArray of a Go slice succeeded")
	}
	ints, err := vm.NewIntArray(60)
	if err != nil || len(ints) != 60 {
		t.Fatalf("NewIntArray(60) = %d ints, %v", len(ints), err)
	}
	longs, err := vm.NewLongArray(82)
	if err != nil || len(longs) != 82 {
		t.Fatalf("NewLongArray(82) = %d longs, %v", len(longs), err)
	}
	if err := vm.ReleaseArray(bytecode.LongsArg(longs).Data); err != nil {
		t.Fatal(err)
	}

	none := newHeapVM(t, -1)
	if none.Heap() != nil {
		t.Fatal("WithHeapSize(-1) made a heap")
	}
	b, err := none.NewByteArray(16)
	if err != nil || len(b) != 16 {
		t.Fatalf("NewByteArray without a heap = %d bytes, %v", len(b), err)
	}
	if err := none.ReleaseArray(b); err != nil {
		t.Fatalf("ReleaseArray without a heap: %v", err)
	}
}

// TestMaxHeapSize: -Xmx (Config.WithMaxHeapSize) sizes the Java heap,
// a size above heap.MaxSize gets heap.MaxSize, and 0 keeps the default.
func TestMaxHeapSize(t *testing.T) {
	for _, tc := range []struct {
		xmx  uint64
		want int
	}{
		{0, heap.DefaultSize},
		{64 << 20, 64 << 20},
		{8 << 30, heap.MaxSize},
	} {
		set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64})
		if err != nil {
			t.Fatal(err)
		}
		vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...).WithMaxHeapSize(tc.xmx))
		if err != nil {
			t.Fatal(err)
		}
		if vm.Heap() == nil {
			vm.Close()
			t.Skip("no Java heap on this platform")
		}
		if got := vm.Heap().Size(); got != tc.want {
			t.Errorf("-Xmx %d: heap of %d bytes, want %d", tc.xmx, got, tc.want)
		}
		vm.Close()
	}
	small := func() *jrt.VM {
		set, _, _ := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64})
		vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...).WithMaxHeapSize(1 << 20))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { vm.Close() })
		return vm
	}()
	var oom *heap.OutOfMemoryError
	if _, err := small.NewByteArray(2 << 20); !errors.As(err, &oom) {
		t.Fatalf("NewByteArray(2 MiB) under -Xmx1m = %v, want OutOfMemoryError", err)
	}
}

// TestNewTypedArraysEmpty: int[0] and long[0] are empty, non-nil arrays.
func TestNewTypedArraysEmpty(t *testing.T) {
	vm := newHeapVM(t, 0)
	i, err := vm.NewIntArray(0)
	if err != nil || i == nil || len(i) != 0 {
		t.Fatalf("NewIntArray(0) = %v (nil %v), %v", i, i == nil, err)
	}
	l, err := vm.NewLongArray(0)
	if err != nil || l == nil || len(l) != 0 {
		t.Fatalf("NewLongArray(0) = %v (nil %v), %v", l, l == nil, err)
	}
	if _, err := vm.NewLongArray(-2); err == nil {
		t.Fatal("NewLongArray(-2) succeeded")
	}
}
