package runtime

import (
	"context"
	"fmt"
	"sync"

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
	// Loop, when set, is a method inlined into the compiled code whose loop makes this
	// site's calls once per block on independent blocks (bytecode.Method.Stream) while
	// Caller, the first method of the inline tree that calls Callee, does not: compiled
	// code binds one site per callee, which then serves both. The model clock prices the
	// site's stub calls by that loop.
	Loop *Method
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

// BlockTarget runs n executions of a call site bound to a stub, one after
// another, exactly as n calls of the site's Target would: each is charged
// on the model clock and computed on its own bytes. args is one
// call's argument list except that each byte array holds the n calls'
// arrays one after another (each a 1/n part); every other argument is the
// same for all n calls, so every call costs what the first does. It lets
// code whose loop only hands successive blocks to the site leave wasm once
// per batch (bytecode's "jvm.blocks" imports) instead of once a block;
// HotSpot's C2 code calls the stub with no such transition at all.
type BlockTarget func(ctx context.Context, args []Arg, n int) error

// BlockBinder is implemented by routers that can bind a call site of C2
// code for batches (BlockTarget): a site whose callee returns nothing and
// goes to a stub with no predicate. ok is false for any other site, whose
// calls then go one by one through Bind's Target.
type BlockBinder interface {
	BindBlocks(site Site) (t BlockTarget, ok bool)
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

// stubBlocks is call n at a time (BlockTarget) on the wall clock: the
// first call through call, so that the stub's first use is noted as it
// would be, and the other n-1 through rest, the decision's batch of the
// same stub (Decision.batch).
func stubBlocks(call stubCall, rest BlockTarget) BlockTarget {
	return func(ctx context.Context, args []Arg, n int) error {
		return firstAndRest(ctx, args, n, func(ctx context.Context, a []Arg) error {
			_, err := call(ctx, a)
			return err
		}, rest)
	}
}

// eachCall is the batch of a stub whose intrinsic row has no AdaptBlocks:
// its n calls one by one.
func eachCall(call stubCall) BlockTarget {
	return func(ctx context.Context, args []Arg, n int) error {
		return EachBlock(args, n, func(a []Arg) error {
			_, err := call(ctx, a)
			return err
		})
	}
}

// blockArgs holds the argument lists EachBlock and firstAndRest make.
var blockArgs = sync.Pool{New: func() any { return new([]Arg) }}

// checkBatch returns the error for a batch of n calls whose args do not
// divide into n calls: a byte array with no n equal parts.
func checkBatch(args []Arg, n int) error {
	for i := range args {
		if args[i].Kind == bytecode.Bytes && len(args[i].Data)%n != 0 {
			return fmt.Errorf("runtime: a batch of %d calls with a byte array of %d bytes (no %d equal parts)", n, len(args[i].Data), n)
		}
	}
	return nil
}

// batchPart sets a to the args of calls from..to-1 of a batch of n (a
// batch of to-from calls): each byte array's parts from..to-1.
func batchPart(a, args []Arg, n, from, to int) {
	for i := range args {
		if d := args[i].Data; args[i].Kind == bytecode.Bytes && d != nil {
			w := len(d) / n
			a[i].Data = d[from*w : to*w : to*w]
		}
	}
}

// EachBlock calls f with the argument list of each of the n calls of a
// BlockTarget's args, in order, and stops at its first error: how a
// BlockBinder's targets take a batch apart.
func EachBlock(args []Arg, n int, f func([]Arg) error) error {
	return withBatch(args, n, func(a []Arg) error {
		for k := range n {
			batchPart(a, args, n, k, k+1)
			if err := f(a); err != nil {
				return err
			}
		}
		return nil
	})
}

// firstAndRest runs a batch of n calls as its first call, through first,
// and then, unless that failed, its other n-1 calls as one batch through
// rest.
func firstAndRest(ctx context.Context, args []Arg, n int, first func(context.Context, []Arg) error, rest BlockTarget) error {
	return withBatch(args, n, func(a []Arg) error {
		batchPart(a, args, n, 0, 1)
		if err := first(ctx, a); err != nil || n == 1 {
			return err
		}
		batchPart(a, args, n, 1, n)
		return rest(ctx, a, n-1)
	})
}

// withBatch checks a batch of n calls and runs f with a pooled copy of its args, for f to
// narrow to the parts of the calls it makes; nothing for n ≤ 0.
func withBatch(args []Arg, n int, f func([]Arg) error) error {
	if n <= 0 {
		return nil
	}
	if err := checkBatch(args, n); err != nil {
		return err
	}
	bp := blockArgs.Get().(*[]Arg)
	a := append((*bp)[:0], args...)
	defer func() {
		clear(a)
		*bp = a[:0]
		blockArgs.Put(bp)
	}()
	return f(a)
}
