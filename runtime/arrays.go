package runtime

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/jitsim/jitsim/runtime/heap"
)

// NewByteArray is Java's new byte[n]: a zeroed array in the VM's Java heap
// (Config.WithHeapSize). Passed to a Cipher or to Call, it reaches compiled
// code and native stubs in place, without the copy into the called code's
// memory and back that an ordinary Go slice costs. Without a heap it is
// make([]byte, n). The array stays valid until ReleaseArray or Close.
func (vm *VM) NewByteArray(n int) ([]byte, error) {
	if n < 0 {
		return nil, negativeArraySize(n)
	}
	if vm.heap == nil {
		return make([]byte, n), nil
	}
	return vm.heap.Alloc(n)
}

// NewIntArray is NewByteArray for int[] (little-endian host, as Ints).
func (vm *VM) NewIntArray(n int) ([]uint32, error) {
	b, err := vm.newElems(n, 4)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), n), nil
}

// NewLongArray is NewByteArray for long[] (little-endian host, as Longs).
func (vm *VM) NewLongArray(n int) ([]uint64, error) {
	b, err := vm.newElems(n, 8)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n), nil
}

// newElems is the bytes of a new array of n elements of size bytes each.
func (vm *VM) newElems(n, size int) ([]byte, error) {
	if n < 0 {
		return nil, negativeArraySize(n)
	}
	return vm.NewByteArray(size * n)
}

// negativeArraySize is what Java's new T[n] throws for n < 0, as
// Throwable.toString prints it.
func negativeArraySize(n int) error {
	return fmt.Errorf("java.lang.NegativeArraySizeException: %d", n)
}

// ReleaseArray gives an array from NewByteArray (or its int/long twins,
// through the Data of their Arg) back to the heap; jitsim has no garbage
// collector for the Java heap. Releasing an array the heap did not make is an
// error, except without a heap, where it is a no-op.
func (vm *VM) ReleaseArray(b []byte) error {
	if vm.heap == nil {
		return nil
	}
	if err := vm.heap.Free(b); err != nil {
		return fmt.Errorf("runtime: ReleaseArray: %w", err)
	}
	return nil
}

// Heap is the VM's Java heap, nil when it runs without one.
func (vm *VM) Heap() *heap.Heap { return vm.heap }

// ThreadInvoker makes the provider's calls as one VM thread (VM.CallAs):
// the jce.Invoker of a Cipher used on an application thread. Its Heap lets
// the provider keep the Cipher's arrays in the VM's Java heap.
type ThreadInvoker struct {
	VM     *VM
	Thread *Thread
}

// Call runs m as the thread (jce.Invoker).
func (t ThreadInvoker) Call(ctx context.Context, m *Method, args []Arg) (int64, error) {
	return t.VM.CallAs(ctx, t.Thread, m, args)
}

// Heap is the VM's Java heap (nil without one).
func (t ThreadInvoker) Heap() *heap.Heap { return t.VM.Heap() }

// ChargeGlue prices the provider glue on the model clock as the thread (jce.GlueCharger).
func (t ThreadInvoker) ChargeGlue(ctx context.Context, entry, family string) error {
	return t.VM.ChargeGlue(ctx, entry, family)
}
