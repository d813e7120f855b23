// Package tiertest holds what the tier packages' tests share: an Env that
// compiles every method at one level and routes calls between them, Go
// drivers that call the reference methods the way the JDK provider does
// (key expansion, CBC, ECB, CTR, GCM), and the conformance matrix that
// checks them byte for byte against crypto/aes + crypto/cipher and the
// published vectors. Set JITSIM_LONG=1 for the full matrix (every length
// 0-1024 on every JDK profile, random lengths up to 1 MiB on the compiled
// levels and 64 KiB at level 0); it needs go test -timeout 0.
package tiertest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
)

// Long reports whether JITSIM_LONG=1 asks for the full test matrix.
func Long() bool { return os.Getenv("JITSIM_LONG") == "1" }

// Env runs every method of one JDK profile at one level (callees too),
// compiling on first use. It is the router of its codes and binds C2 call
// sites to the callee's code.
type Env struct {
	Table *bytecode.Table
	Level jrt.Level
	Tier  jrt.Tier
	// LevelOf, if set, chooses the level per method (default Level); its
	// tier must be in Tiers.
	LevelOf func(key string) jrt.Level
	Tiers   map[jrt.Level]jrt.Tier
	// NotifyLog and OnBackedge go into every compile request.
	NotifyLog  int
	OnBackedge jrt.BackedgeHandler
	// Inlining makes the Env inline every call from code at levels 1, 2 and 4
	// (jrt.Inliner): its codes run their inline modules with every switch on.
	Inlining bool
	// Charge, if set, receives every inlined call's report
	// (jrt.Inliner.ChargeInlinedCall).
	Charge func(callee *jrt.Method, level jrt.Level, payload int) error
	// HostCalls counts the calls that reached the Env as router (Route and
	// bound targets): the calls that were not inlined.
	HostCalls atomic.Int64
	// Blocks makes the Env bind C2 sites of the AES block methods for
	// batches (jrt.BlockBinder), as the VM binds them to the block stub;
	// Batches counts the batches and HostCalls each call of one.
	Blocks  bool
	Batches atomic.Int64

	mu    sync.Mutex
	codes map[string]jrt.Code
}

// NewEnv returns an Env for profile at level, closing its codes at the end
// of the test.
func NewEnv(tb testing.TB, profile jdk.Release, level jrt.Level, tier jrt.Tier) *Env {
	tb.Helper()
	tab, err := bytecode.ForProfile(profile)
	if err != nil {
		tb.Fatal(err)
	}
	e := &Env{Table: tab, Level: level, Tier: tier, NotifyLog: -1, codes: map[string]jrt.Code{}}
	tb.Cleanup(func() { e.Close() })
	return e
}

// Close closes every compiled code.
func (e *Env) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, c := range e.codes {
		_ = c.Close(context.Background())
		delete(e.codes, k)
	}
}

func (e *Env) levelOf(key string) (jrt.Level, jrt.Tier) {
	if e.LevelOf != nil {
		l := e.LevelOf(key)
		return l, e.Tiers[l]
	}
	return e.Level, e.Tier
}

// Code returns the code of method key, compiling it on first use. The lock
// is not held while compiling: a C2 compile binds its call sites, which
// asks for the callees' code.
func (e *Env) Code(key string) (jrt.Code, error) {
	e.mu.Lock()
	c, ok := e.codes[key]
	e.mu.Unlock()
	if ok {
		return c, nil
	}
	m, err := e.Table.Lookup(key)
	if err != nil {
		return nil, err
	}
	level, tier := e.levelOf(key)
	if tier == nil {
		return nil, fmt.Errorf("tiertest: no tier for level %d", level)
	}
	c, err = tier.Compile(context.Background(), jrt.CompileRequest{
		Method: m, Level: level, Table: e.Table, Router: e,
		BackedgeNotifyFreqLog: e.NotifyLog, OnBackedge: e.OnBackedge,
	})
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if prev, ok := e.codes[key]; ok { // another goroutine won
		_ = c.Close(context.Background())
		return prev, nil
	}
	e.codes[key] = c
	return c, nil
}

// Route implements jrt.Router: the callee's code at the Env's level.
func (e *Env) Route(ctx context.Context, site jrt.Site, args []jrt.Arg) (int64, error) {
	e.HostCalls.Add(1)
	c, err := e.Code(site.Callee.Key)
	if err != nil {
		return 0, err
	}
	return c.Invoke(ctx, args)
}

// Bind implements jrt.Binder.
func (e *Env) Bind(ctx context.Context, site jrt.Site) (jrt.Target, error) {
	c, err := e.Code(site.Callee.Key)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, args []jrt.Arg) (int64, error) {
		e.HostCalls.Add(1)
		return c.Invoke(ctx, args)
	}, nil
}

// BindBlocks implements jrt.BlockBinder when Blocks is set: each call of a
// batch runs the callee's code, as Bind's target does.
func (e *Env) BindBlocks(site jrt.Site) (jrt.BlockTarget, bool) {
	if !e.Blocks || site.Level != jrt.LevelFullOptimization || (site.Callee.Key != "AESCrypt.implEncryptBlock" && site.Callee.Key != "AESCrypt.implDecryptBlock") {
		return nil, false
	}
	c, err := e.Code(site.Callee.Key)
	if err != nil {
		return nil, false
	}
	return func(ctx context.Context, args []jrt.Arg, n int) error {
		e.Batches.Add(1)
		return jrt.EachBlock(args, n, func(a []jrt.Arg) error {
			e.HostCalls.Add(1)
			_, err := c.Invoke(ctx, a)
			return err
		})
	}, true
}

// Inline implements jrt.Inliner: every call from levels 1, 2 and 4 when
// Inlining is set (the Env has no stubs), none otherwise.
func (e *Env) Inline(site jrt.Site) jrt.InlineDecision {
	if e.Inlining && site.Level != jrt.LevelNone && site.Level != jrt.LevelFullProfile {
		return jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}
	}
	return jrt.InlineDecision{Reason: "not inlined (tiertest)"}
}

// PrintInlining implements jrt.Inliner; the Env prints nothing.
func (e *Env) PrintInlining(*jrt.Method, jrt.Level) {}

// ChargesInlined implements jrt.Inliner: inlined calls report themselves
// when Charge is set.
func (e *Env) ChargesInlined() bool { return e.Charge != nil }

// ChargeInlinedCall implements jrt.Inliner: Charge once per call.
func (e *Env) ChargeInlinedCall(_ context.Context, callee *jrt.Method, level jrt.Level, payload, count int) error {
	for range count {
		if err := e.Charge(callee, level, payload); err != nil {
			return err
		}
	}
	return nil
}

// Call invokes method key with args.
func (e *Env) Call(key string, args ...jrt.Arg) (int64, error) {
	c, err := e.Code(key)
	if err != nil {
		return 0, err
	}
	return c.Invoke(context.Background(), args)
}
