// Package interp is jitsim's level 0: the template interpreter's stand-in.
// It runs a method's Full build (invocation, back-edge, branch and
// call-site counters compiled in, as HotSpot's interpreter counts and,
// once an MDO exists, profiles) on wazero's interpreter engine, which
// really interprets the wasm code.
//
// # Why an instance pool
//
// Several application threads may call one method at once. Each call needs
// an instance of its own (a wasm instance is single-threaded: one shadow
// stack, one frame area). Go has no thread identity to hang per-thread
// instances on, so each compiled code keeps a free list of instances and
// instantiates another when all are busy; the pool grows to the peak
// concurrency and stays there. Counters are harvested into the code's
// atomic totals after every call, so the policy sees one count per method.
package interp

import (
	"context"
	"fmt"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/internal/engine"
	"github.com/tetratelabs/wazero"
)

// Tier is level 0.
type Tier struct{ opts engine.Options }

// Option configures the tier.
type Option func(*engine.Options)

// WithCompilationCache shares a wazero compilation cache between compiles;
// for tests only (it turns measured compiles into lookups).
func WithCompilationCache(c wazero.CompilationCache) Option {
	return func(o *engine.Options) { o.Cache = c }
}

// New returns the interpreter tier.
func New(opts ...Option) *Tier {
	t := &Tier{}
	for _, o := range opts {
		o(&t.opts)
	}
	t.opts.Compiler = false
	return t
}

// Name implements jrt.Tier.
func (t *Tier) Name() string { return "interp" }

// Levels implements jrt.Tier.
func (t *Tier) Levels() []jrt.Level { return []jrt.Level{jrt.LevelNone} }

// Compile implements jrt.Tier: it decodes and validates the module for the
// interpreter (wazero's interpreter "compile" is a lowering to its own IR).
func (t *Tier) Compile(ctx context.Context, req jrt.CompileRequest) (jrt.Code, error) {
	if req.Level != jrt.LevelNone {
		return nil, fmt.Errorf("interp: cannot run %v at level %d (only level 0)", req.Method, req.Level)
	}
	return engine.Compile(ctx, req, t.opts)
}
