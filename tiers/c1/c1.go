// Package c1 is jitsim's C1: levels 1, 2 and 3. It compiles a method's
// module with wazero's optimizing compiler — a real compile, timed
// (Code.CompileTime) — choosing the build the level runs: level 1 the
// build without counters, level 2 the one with invocation and back-edge
// counters, level 3 the one that also records branch and call-site
// profiles. The profiling is executed by the compiled code, not modelled.
// Calls to other methods are routed on every execution (C1 has no crypto
// intrinsics: hotspot.md §2.2).
package c1

import (
	"context"
	"fmt"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/internal/engine"
	"github.com/tetratelabs/wazero"
)

// Tier is levels 1-3.
type Tier struct{ opts engine.Options }

// Option configures the tier.
type Option func(*engine.Options)

// WithCompilationCache shares a wazero compilation cache between compiles
// (a cache hit turns a 2-7 ms compile into 0.1 ms): for tests and for runs
// whose compile times are not measured (tiers.ForModelClock), never for
// the timed compiles of the wall clock.
func WithCompilationCache(c wazero.CompilationCache) Option {
	return func(o *engine.Options) { o.Cache = c }
}

// New returns the C1 tier.
func New(opts ...Option) *Tier {
	t := &Tier{}
	for _, o := range opts {
		o(&t.opts)
	}
	t.opts.Compiler = true
	return t
}

// Name implements jrt.Tier.
func (t *Tier) Name() string { return "c1" }

// Levels implements jrt.Tier.
func (t *Tier) Levels() []jrt.Level {
	return []jrt.Level{jrt.LevelSimple, jrt.LevelLimitedProfile, jrt.LevelFullProfile}
}

// Compile implements jrt.Tier.
func (t *Tier) Compile(ctx context.Context, req jrt.CompileRequest) (jrt.Code, error) {
	if req.Level < jrt.LevelSimple || req.Level > jrt.LevelFullProfile {
		return nil, fmt.Errorf("c1: cannot compile %v at level %d (levels 1-3)", req.Method, req.Level)
	}
	return engine.Compile(ctx, req, t.opts)
}
