// Package c2 is jitsim's C2: level 4. It compiles a method's module without
// counters, its loops unrolled as C2 unrolls them (bytecode.Method.Unrolled),
// with wazero's optimizing compiler (timed), and binds each of the
// code's call sites once, at link time, through the router's jrt.Binder
// when it has one: that is where the runtime puts a native stub in place of
// an intrinsic candidate callee, as C2's LibraryCallKit does at a call site
// inside the method it compiles (hotspot.md §2.2). A router without Binder
// is asked on every call.
package c2

import (
	"context"
	"fmt"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/internal/engine"
	"github.com/tetratelabs/wazero"
)

// Tier is level 4.
type Tier struct{ opts engine.Options }

// Option configures the tier.
type Option func(*engine.Options)

// WithCompilationCache shares a wazero compilation cache between compiles:
// for tests and for runs whose compile times are not measured
// (tiers.ForModelClock), never for the timed compiles of the wall clock.
func WithCompilationCache(c wazero.CompilationCache) Option {
	return func(o *engine.Options) { o.Cache = c }
}

// New returns the C2 tier.
func New(opts ...Option) *Tier {
	t := &Tier{}
	for _, o := range opts {
		o(&t.opts)
	}
	t.opts.Compiler = true
	t.opts.BindAtLink = true
	t.opts.Unrolled = true
	return t
}

// Name implements jrt.Tier.
func (t *Tier) Name() string { return "c2" }

// Levels implements jrt.Tier.
func (t *Tier) Levels() []jrt.Level { return []jrt.Level{jrt.LevelFullOptimization} }

// Compile implements jrt.Tier.
func (t *Tier) Compile(ctx context.Context, req jrt.CompileRequest) (jrt.Code, error) {
	if req.Level != jrt.LevelFullOptimization {
		return nil, fmt.Errorf("c2: cannot compile %v at level %d (only level 4)", req.Method, req.Level)
	}
	return engine.Compile(ctx, req, t.opts)
}
