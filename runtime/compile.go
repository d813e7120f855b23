package runtime

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/jitsim/jitsim/runtime/policy"
)

// compilerPool is one compiler's threads (CompileBroker's C1 or C2 pool).
type compilerPool struct {
	kind    policy.Compiler
	threads int
	wake    chan struct{}
}

// startCompilers starts c1 and c2 compiler goroutines. Each takes tasks
// from its queue by the policy's selection rule (policy.Next models
// CompilationPolicy::select_task) until the queue is empty, then sleeps
// until a new task arrives.
func (vm *VM) startCompilers(c1, c2 int) {
	for i, n := range []int{c1, c2} {
		p := &compilerPool{kind: policy.Compiler(i), threads: n, wake: make(chan struct{}, max(n, 1))}
		vm.pools[i] = p
		for t := range n {
			vm.wg.Add(1)
			go vm.compilerLoop(p, t)
		}
	}
}

func (vm *VM) compilerLoop(p *compilerPool, idx int) {
	defer vm.wg.Done()
	th := compilerThread{kind: p.kind, idx: idx}
	for {
		for vm.ctx.Err() == nil {
			t := vm.pol.Next(p.kind, vm.clock.Now())
			if t == nil {
				if vm.pol.QueueLen(p.kind) == 0 {
					break
				}
				continue
			}
			if !vm.guardedCompile(t, th) {
				return
			}
		}
		select {
		case <-vm.ctx.Done():
			return
		case <-p.wake:
		}
	}
}

// InternalError is a broken invariant inside the VM — a panic on a
// compiler thread — carried to the application as an error: every later
// call and Close return it. Its Stack is where the panic happened, for the
// bug report (the command line treats it as a jitsim bug, status 70).
type InternalError struct {
	Msg   string
	Stack []byte
}

func (e *InternalError) Error() string { return e.Msg }

// PanicStack returns the stack of the goroutine that panicked.
func (e *InternalError) PanicStack() []byte { return e.Stack }

// guardedCompile runs compileTask and turns a panic in it (a bug in jitsim
// or in a tier) into the VM's internal error (recoverCompile). It reports
// whether the compiler thread may go on (false after a panic).
func (vm *VM) guardedCompile(t *policy.Task, th compilerThread) bool {
	defer vm.recoverCompile(t, th)
	vm.compileTask(t, th)
	return true
}

// recoverCompile, deferred (directly) around a compile, turns a panic in it into the
// VM's internal error: reported once, with the failing method, and
// returned by every later call and by Close, instead of ending the process
// from a goroutine nobody can recover (or, on the model clock, from inside
// the scheduler).
func (vm *VM) recoverCompile(t *policy.Task, th compilerThread) {
	v := recover()
	if v == nil {
		return
	}
	var err error = &InternalError{
		Msg: fmt.Sprintf("runtime: internal error (a jitsim bug; please report it): the %s compile of %s at level %d (compile id %d) panicked: %v",
			t.Compiler(), t.Method.PrintName(), t.Level, t.ID, v),
		Stack: debug.Stack(),
	}
	if vm.internal.CompareAndSwap(nil, &err) {
		vm.emit(&event{kind: evPanicked, at: vm.clock.Now(), task: t, panic: v, thread: th})
	}
}

// wake tells a compiler's threads that its queue has work (on the model
// clock: the simulated pool, at the current virtual time).
func (vm *VM) wake(c policy.Compiler) {
	if vm.sim != nil {
		vm.sim.pools[c].Wake(vm.sim.s.Current())
		return
	}
	p := vm.pools[c]
	if p == nil {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// taskDone returns the channel closed when t is finished.
func (vm *VM) taskDone(t *policy.Task) chan struct{} {
	vm.waitMu.Lock()
	defer vm.waitMu.Unlock()
	ch, ok := vm.waiters[t]
	if !ok {
		ch = make(chan struct{})
		vm.waiters[t] = ch
	}
	return ch
}

// submit hands a new task to its compiler's threads; a blocking task
// (-Xbatch, -XX:-BackgroundCompilation, -Xcomp) makes the requesting
// thread wait for the compile, as CompileBroker::wait_for_completion does.
func (vm *VM) submit(ctx context.Context, t *policy.Task) error {
	// The task as queued: a copy, since a compiler thread may already be selecting it and
	// lowering its level (3 to 2: the same compiler).
	q := vm.pol.Snapshot(t)
	if st := vm.byPolicy[q.Method]; st != nil {
		vm.emit(&event{kind: evQueued, at: q.Enqueued, st: st, task: &q})
	}
	c := q.Compiler()
	if !q.Blocking {
		vm.wake(c)
		return nil
	}
	if vm.pools[c] == nil || vm.pools[c].threads == 0 {
		return fmt.Errorf("runtime: blocking compile of %s at level %d but no %s compiler threads", q.Method.PrintName(), q.Level, c)
	}
	ch := vm.taskDone(t)
	vm.wake(c)
	defer func() {
		vm.waitMu.Lock()
		delete(vm.waiters, t)
		vm.waitMu.Unlock()
	}()
	if vm.sim != nil {
		return vm.awaitModel(t, ch)
	}
	select {
	case <-ch:
		if p := vm.internal.Load(); p != nil {
			return *p
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-vm.ctx.Done():
		return ErrClosed
	}
}

// finish marks t done for a blocked requester.
func (vm *VM) finish(t *policy.Task) {
	if !t.Blocking {
		return
	}
	ch := vm.taskDone(t)
	vm.waitMu.Lock()
	select {
	case <-ch:
	default:
		close(ch)
	}
	vm.waitMu.Unlock()
}

// errNoOSREntry is why an OSR task of a method without an OSR entry fails.
var errNoOSREntry = errors.New("method has no OSR entry")

// compileTask runs one task on the calling compiler thread: print it, call
// the tier's real Compile, install the code and retire older code
// (ciEnv::register_method, nmethod::make_not_entrant).
func (vm *VM) compileTask(t *policy.Task, th compilerThread) {
	defer vm.finish(t)
	vm.compiling.Add(1)
	defer vm.compiling.Add(-1)
	r := vm.beginTask(t, vm.clock.Now())
	vm.endTask(r, vm.clock.Now(), th)
}

// CompilesPending says whether a compile is waiting in a queue or running: started and its
// code not yet installed (on the model clock, its install time not yet reached). A run whose
// time per operation stays flat is at its steady state only when none is: on the model
// clock a compile that started earlier installs its code later without any event between.
func (vm *VM) CompilesPending() bool {
	if vm.pol.QueueLen(policy.C1) > 0 || vm.pol.QueueLen(policy.C2) > 0 || vm.compiling.Load() > 0 {
		return true
	}
	if vm.sim == nil {
		return false
	}
	vm.sim.inflightMu.Lock()
	defer vm.sim.inflightMu.Unlock()
	return len(vm.sim.inflight) > 0
}

// taskRun is one compile between its start and its install.
type taskRun struct {
	t     *policy.Task
	st    *methodState
	ci    *codeInfo
	start time.Duration
	err   error
	ran   bool // printed and compiled (not refused before starting)
}

// beginTask starts t at time start: print it (PrintCompilation), report it
// started and run the tier's real Compile (CompileBroker::invoke_compiler_on_method).
func (vm *VM) beginTask(t *policy.Task, start time.Duration) *taskRun {
	st := vm.byPolicy[t.Method]
	if st == nil {
		panic("BUG: compile task for a method the VM does not know")
	}
	level := Level(t.Level)
	r := &taskRun{t: t, st: st, start: start,
		ci: &codeInfo{level: level, counts: level == LevelNone || level == LevelLimitedProfile || level == LevelFullProfile}}
	tier := vm.tierFor[level]
	switch {
	case t.IsOSR() && !st.m.OSR:
		r.err = errNoOSREntry
	case tier == nil:
		r.err = fmt.Errorf("no tier compiles level %d", level)
	}
	if r.err == nil {
		r.ran = true
		vm.emit(&event{kind: evStarted, at: start, st: st, task: t})
		r.ci.code, r.err = tier.Compile(vm.ctx, vm.request(st, r.ci))
	}
	return r
}

// endTask finishes a started compile at time now: a failure goes back to
// the policy (and is printed), a success is installed and the code it
// replaces made not entrant.
func (vm *VM) endTask(r *taskRun, now time.Duration, th compilerThread) {
	t, st, ci := r.t, r.st, r.ci
	if r.err != nil {
		if ci.code != nil {
			_ = ci.code.Close(context.Background())
		}
		next := vm.pol.Failed(t, true, now)
		if !errors.Is(r.err, errNoOSREntry) && vm.ctx.Err() == nil {
			vm.emit(&event{kind: evFailed, at: now, st: st, task: t, err: r.err, thread: th})
		}
		if next != nil {
			vm.wake(next.Compiler())
		}
		return
	}
	inst := vm.pol.Installed(t, now)
	ci.pc = inst.Code
	st.mu.Lock()
	st.all = append(st.all, ci)
	if t.IsOSR() {
		st.osr[inst.Code] = ci
	}
	for _, ne := range inst.NotEntrant {
		if ne.Code.IsOSR() {
			delete(st.osr, ne.Code)
		}
	}
	st.mu.Unlock()
	if !t.IsOSR() {
		st.entry.Store(ci)
	}
	ev := &event{kind: evInstalled, at: now, st: st, task: t, ci: ci, start: r.start, thread: th}
	if vm.out.xml != nil { // LogCompilation's <task> holds the inlining tree
		ev.inlining = vm.inlineTree(st.m, Level(t.Level), false)
	}
	vm.emit(ev)
	for _, ne := range inst.NotEntrant {
		vm.emit(&event{kind: evNotEntrant, at: now, st: st, task: t, ne: ne, thread: th})
	}
	if inst.Next != nil {
		vm.wake(inst.Next.Compiler())
	}
}
