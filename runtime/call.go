package runtime

import (
	"context"
	"fmt"

	"github.com/jitsim/jitsim/bytecode"
)

// Arg is one wasm-level argument of a method call: the reference-code
// ABI's value ([bytecode.Arg], made by bytecode.BytesArg, IntArg, ...),
// named here as the runtime names [Method].
type Arg = bytecode.Arg

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
