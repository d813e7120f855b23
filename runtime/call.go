package runtime

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/jitsim/jitsim/bytecode"
)

// Arg is one wasm-level argument of a method call: an array (its bytes in
// the modules' little-endian element layout) or a scalar. An array Arg
// handed to a Router by a tier aliases the caller's wasm memory (a view):
// writes to Data are the callee's writes into the caller's array, with no
// copy. Two Args whose Data are the same slice are the same Java array.
type Arg struct {
	Kind   bytecode.Kind
	Data   []byte // arrays; nil with Null set for a Java null
	Null   bool
	Scalar int64 // int, boolean, long
}

// Bytes returns an Arg for a byte[] that aliases b.
func Bytes(b []byte) Arg {
	if b == nil {
		return Arg{Kind: bytecode.Bytes, Null: true}
	}
	return Arg{Kind: bytecode.Bytes, Data: b}
}

// Ints returns an Arg for an int[] that aliases w. The element layout is
// the host's, which must be little-endian (amd64, arm64).
func Ints(w []uint32) Arg {
	if w == nil {
		return Arg{Kind: bytecode.Ints, Null: true}
	}
	return Arg{Kind: bytecode.Ints, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 4*len(w))}
}

// Longs returns an Arg for a long[] that aliases w (little-endian host).
func Longs(w []uint64) Arg {
	if w == nil {
		return Arg{Kind: bytecode.Longs, Null: true}
	}
	return Arg{Kind: bytecode.Longs, Data: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))}
}

// Int returns an Arg for an int.
func Int(v int) Arg { return Arg{Kind: bytecode.Int, Scalar: int64(int32(v))} }

// Bool returns an Arg for a boolean.
func Bool(v bool) Arg {
	if v {
		return Arg{Kind: bytecode.Bool, Scalar: 1}
	}
	return Arg{Kind: bytecode.Bool}
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

// Site is a call site inside compiled or interpreted code: the caller
// method, the level its code runs at, and the callee the bytecode names.
type Site struct {
	Caller *Method
	Level  Level
	Callee *Method
}

// Router is the runtime's one dispatch point for calls between methods.
// A tier's host import calls Route for every call a method's code makes to
// another method; the router either runs a stub on the views (no copy) or
// the callee's current code (which copies the views into its own instance
// and back). Route must be safe for concurrent use.
type Router interface {
	Route(ctx context.Context, site Site, args []Arg) (int64, error)
}

// RouterFunc adapts a function to Router.
type RouterFunc func(ctx context.Context, site Site, args []Arg) (int64, error)

// Route calls f.
func (f RouterFunc) Route(ctx context.Context, site Site, args []Arg) (int64, error) {
	return f(ctx, site, args)
}

// Target is a call target bound at link time.
type Target func(ctx context.Context, args []Arg) (int64, error)

// Binder is implemented by routers that bind a call site once, when C2
// code is linked (HotSpot resolves a C2 call site to a stub or the callee's
// entry at compile time). The returned Target is called for every
// execution of the site; it may itself be an indirection the runtime
// re-points later (as HotSpot patches call sites).
type Binder interface {
	Bind(ctx context.Context, site Site) (Target, error)
}

// Exception is a Java exception thrown by a reference method.
type Exception struct {
	Method *Method
	Class  string // e.g. java.lang.ArrayIndexOutOfBoundsException
	Detail int32
}

func (e *Exception) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Method, e.Class, e.Detail)
}
