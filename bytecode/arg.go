package bytecode

import (
	"fmt"
	"unsafe"
)

// What does a caller hand a reference method? One Arg per wasm-level
// parameter of the method's signature ([Method.Params]): the values that
// cross the ABI. Where the arrays live (a Go slice, the VM's Java heap) is
// the caller's business; an Arg only aliases them.

// Arg is one wasm-level argument of a method call: an array (its bytes in
// the modules' little-endian element layout) or a scalar. An array Arg
// handed to a router by a tier aliases the caller's wasm memory (a view):
// writes to Data are the callee's writes into the caller's array, with no
// copy. Two Args whose Data are the same slice are the same Java array.
//
// Kind and Null sit side by side so that an Arg is five words, not six: a
// call's argument list is built, checked and read once per crossing.
type Arg struct {
	Kind   Kind
	Null   bool
	Data   []byte // arrays; nil with Null set for a Java null
	Scalar int64  // int, boolean, long
}

// BytesArg returns an Arg for a byte[] that aliases b; nil is a Java null.
func BytesArg(b []byte) Arg {
	if b == nil {
		return Arg{Kind: Bytes, Null: true}
	}
	return Arg{Kind: Bytes, Data: b}
}

// IntsArg returns an Arg for an int[] that aliases w. The element layout is
// the host's, which must be little-endian (amd64, arm64).
func IntsArg(w []uint32) Arg {
	if w == nil {
		return Arg{Kind: Ints, Null: true}
	}
	return Arg{Kind: Ints, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 4*len(w))}
}

// LongsArg returns an Arg for a long[] that aliases w (little-endian host).
func LongsArg(w []uint64) Arg {
	if w == nil {
		return Arg{Kind: Longs, Null: true}
	}
	return Arg{Kind: Longs, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))}
}

// IntArg returns an Arg for an int.
func IntArg(v int) Arg { return Arg{Kind: Int, Scalar: int64(int32(v))} }

// BoolArg returns an Arg for a boolean.
func BoolArg(v bool) Arg {
	if v {
		return Arg{Kind: Bool, Scalar: 1}
	}
	return Arg{Kind: Bool}
}

// Uint32s returns the int[] view of an Ints Arg (little-endian host).
func (a Arg) Uint32s() []uint32 {
	if len(a.Data) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(a.Data))), len(a.Data)/4)
}

// Uint64s returns the long[] view of a Longs Arg (little-endian host).
func (a Arg) Uint64s() []uint64 {
	if len(a.Data) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(a.Data))), len(a.Data)/8)
}

// CheckArgs reports an error naming the parameter when args do not match
// m's signature.
func CheckArgs(m *Method, args []Arg) error {
	if len(args) != len(m.Params) {
		return fmt.Errorf("%s: %d arguments, want %d", m, len(args), len(m.Params))
	}
	for i, p := range m.Params {
		if args[i].Kind != p.Kind {
			return fmt.Errorf("%s: argument %d (%s) is %s, want %s", m, i, p.Name, args[i].Kind, p.Kind)
		}
		if p.Kind.IsArray() && len(args[i].Data)%p.Kind.ElemSize() != 0 {
			return fmt.Errorf("%s: argument %d (%s) has %d bytes, not a whole number of %s elements",
				m, i, p.Name, len(args[i].Data), p.Kind)
		}
	}
	return nil
}
