package runtime

import (
	"time"

	"github.com/jitsim/jitsim/runtime/policy"
	"go.uber.org/zap"
)

// events is the VM's zap event sink (style.md habit 10): Info for tier
// transitions (the PrintTieredEvents analogue), Debug for routing
// decisions (PrintIntrinsics), Warn for downgrades, with the fixed keys
// method, level, intrinsic, impl and flag. The LogCompilation XML writer
// is fed from the same calls.
type events struct{ vm *VM }

func (vm *VM) events() events { return events{vm} }

// taskQueued records a task the policy created.
func (e events) taskQueued(st *methodState, t *policy.Task, now time.Duration) {
	e.vm.out.queued(st, t, now)
	if ce := e.vm.log.Check(zap.DebugLevel, "compile queued"); ce != nil {
		ce.Write(zap.String("method", st.m.String()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
			zap.Int("osr_bci", t.BCI), zap.Bool("blocking", t.Blocking))
	}
}

// taskStarted records a compiler thread taking a task.
func (e events) taskStarted(t *policy.Task, now time.Duration) {
	if ce := e.vm.log.Check(zap.DebugLevel, "compile started"); ce != nil {
		ce.Write(zap.String("method", t.Method.PrintName()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
			zap.Duration("queued", now-t.Enqueued))
	}
}

// installed records new code: a tier transition.
func (e events) installed(st *methodState, t *policy.Task, ci *codeInfo, took time.Duration) {
	e.vm.out.installed(st, t, e.vm.clock.Now()-took, e.vm.clock.Now())
	if ce := e.vm.log.Check(zap.InfoLevel, "tier transition"); ce != nil {
		ce.Write(zap.String("method", st.m.String()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
			zap.Bool("osr", t.IsOSR()), zap.Duration("compile_time", ci.code.CompileTime()))
	}
}

// notEntrant records retired code.
func (e events) notEntrant(st *methodState, ne policy.NotEntrant, _ time.Duration) {
	if ce := e.vm.log.Check(zap.InfoLevel, "made not entrant"); ce != nil {
		ce.Write(zap.String("method", st.m.String()), zap.Int("level", int(ne.Code.Level)), zap.Int("compile_id", ne.Code.ID),
			zap.String("reason", ne.Reason))
	}
}

// boundStub records a C2 call site bound to a stub.
func (e events) boundStub(site Site, st *methodState, d *Decision) {
	if ce := e.vm.log.Check(zap.DebugLevel, "call site bound to stub"); ce != nil {
		ce.Write(zap.String("method", st.m.String()), zap.Int("level", int(site.Level)), zap.String("intrinsic", d.Intrinsic.String()),
			zap.String("impl", implName(*d)), zap.Stringer("caller", site.Caller))
	}
}
