package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/policy"
)

// modelClock is a VM's model clock (docs/model.md §5): the CPU profile
// that prices every piece of code, and the deterministic scheduler whose
// simulated threads pay for it. A VM without one (the wall clock) never
// touches this file's code on its hot paths beyond one nil check.
type modelClock struct {
	prof  model.Profile
	s     *model.Scheduler
	pools [2]*model.Pool
	// inflight are compiles started (their code built) whose install time
	// has not come: Close releases their code, which no method owns yet.
	inflightMu sync.Mutex
	inflight   map[*taskRun]struct{}
	// call[l] prices a Java call from code at level l.
	call [LevelFullOptimization + 1]linearCost
	// hasGlue says the profile prices the provider glue (ChargeGlue); glue caches its rows
	// by "tier/family".
	hasGlue bool
	glue    sync.Map
	// hasFirstUse says the profile prices a fresh VM's first use (ChargeGlue); firstUsed
	// holds "instance" once the VM's first Cipher was charged it, and each mode ("GCM") once
	// its first doFinal was.
	hasFirstUse bool
	firstUsed   sync.Map
	// streams holds the decisions of stub calls from loops of independent blocks, by
	// streamKey (streamDecision).
	streams sync.Map
	// background holds, per compiler, the profile's background compiles whose time has
	// come and that no compiler thread has taken yet (startBackground). Only the turn's
	// holder touches it: the event that queues one and a compiler thread asking for work.
	background [2][]model.BackgroundCompile
}

// linearCost is Profile.Cost(what, family, n) as a function of n: the
// per-call row, per-byte row and per-16-byte-block row, resolved once so
// that a call is priced by integer arithmetic alone. err is the profile's
// error when it prices nothing for what; it is returned by the first call
// that needs the cost, so a profile missing a row for code a run never
// reaches does not stop the run.
type linearCost struct {
	perCall, perByte, perBlock model.Cost
	err                        error
}

// at prices n payload bytes.
func (l *linearCost) at(n int) (model.Cost, error) {
	if l.err != nil {
		return 0, l.err
	}
	return l.perCall + model.Cost(n)*l.perByte + model.Cost(n/16)*l.perBlock, nil
}

// resolve reads what's rows for family out of p through Profile.Cost at
// 0, 1 and 16 bytes (Cost is affine in n and in ⌊n/16⌋).
func resolve(p model.Profile, what, family string) linearCost {
	c0, err := p.Cost(what, family, 0)
	if err != nil {
		return linearCost{err: fmt.Errorf("runtime: model clock: %w", err)}
	}
	c1, _ := p.Cost(what, family, 1)
	c16, _ := p.Cost(what, family, 16)
	b := c1 - c0
	return linearCost{perCall: c0, perByte: b, perBlock: c16 - c0 - 16*b}
}

// add returns the sum of two affine costs (a stub plus its dispatch).
func (l linearCost) add(o linearCost) linearCost {
	if l.err == nil {
		l.err = o.err
	}
	return linearCost{perCall: l.perCall + o.perCall, perByte: l.perByte + o.perByte, perBlock: l.perBlock + o.perBlock, err: l.err}
}

// newModelClock makes the model clock of a VM: a fresh scheduler (one per
// VM, so two VMs of one process never share virtual time) and the call
// rows per caller level.
func newModelClock(p model.Profile) *modelClock {
	mc := &modelClock{prof: p, s: model.NewScheduler(), inflight: map[*taskRun]struct{}{}, hasGlue: p.Has(model.WhatGlue), hasFirstUse: p.Has(model.WhatFirstUse)}
	for l := range mc.call {
		what, _ := model.TierWhat(l)
		mc.call[l] = resolve(p, model.WhatCall, what)
	}
	return mc
}

// levelUnknown is the caller level of a call from code the VM does not
// model (CallAs: the provider, a scenario).
const levelUnknown Level = -1

// priceJava fills st's per-level costs of its own Java code (docs/model.md
// §1: rows per method key, else the "*" row).
func (mc *modelClock) priceJava(st *methodState) {
	st.pay = model.PayloadRuleOf(st.m)
	st.span = model.RangeRuleOf(st.m)
	st.cost = new([LevelFullOptimization + 1]linearCost)
	for l := range st.cost {
		what, _ := model.TierWhat(l)
		st.cost[l] = resolve(mc.prof, what, st.m.Key)
	}
}

// payload is model.Payload of one call of st's method with args (by its
// rule resolved in priceJava): the n its rows are priced at.
func payload(st *methodState, args []Arg) (int, error) {
	return st.pay.Bytes(st.m, func(i int) int64 {
		if i < len(args) {
			return args[i].Scalar
		}
		return 0
	})
}

// stubPayload is the bytes one call of st's method covers (its rule resolved in
// priceJava): what a stub replacing the method is priced at, including the
// bytes the Java body would have handed to its callees.
func stubPayload(st *methodState, args []Arg) (int, error) {
	return st.span.Bytes(st.m, func(i int) int64 {
		if i < len(args) {
			return args[i].Scalar
		}
		return 0
	})
}

// holder returns the simulated thread that pays for code run now: the
// turn holder, the only thread whose goroutine may be running VM code.
func (mc *modelClock) holder() (model.ThreadID, error) {
	th, ok := mc.s.Holder()
	if !ok {
		return 0, errNotEntered
	}
	return th, nil
}

// chargeJava advances the calling thread by the cost of one call of st's
// code at level from code at caller (levelUnknown: priced as a call from
// the callee's own level). It is charged before the code runs, so that
// policy decisions and compile events during the call see the time the
// call ends (docs/model.md §5).
func (vm *VM) chargeJava(st *methodState, level, caller Level, args []Arg) error {
	mc := vm.sim
	n, err := payload(st, args)
	if err != nil {
		return err
	}
	c, err := st.cost[level].at(n)
	if err != nil {
		return err
	}
	if caller == levelUnknown {
		caller = level
	}
	call, err := mc.call[caller].at(0)
	if err != nil {
		return err
	}
	return mc.charge(c + call)
}

// errNotEntered is why a call on the model clock fails when no simulated
// thread holds the turn.
var errNotEntered = errors.New("runtime: model clock: a call into the VM from a goroutine that is no entered model thread (call Thread.Enter first)")

// charge advances the turn holder (the thread running this code) by c.
func (mc *modelClock) charge(c model.Cost) error {
	if !mc.s.AdvanceHolder(c) {
		return errNotEntered
	}
	return nil
}

// modelStubCall wraps a decision's stub call so that every call charges
// the calling thread the cost of the variant HotSpot would have run
// (Decision.Variant, not Impl: the model simulates the modelled CPU,
// whatever runs the bytes here) plus the dispatch of the call site.
//
// The second function is the same call n at a time (BlockTarget). The
// first call is charged and run alone, so that its charge and the stub's
// first-use event come as they would; the other n-1 calls, whose
// arguments differ from the first's only in their arrays' bytes and so
// cost what it costs, are then paid in one advance of the clock, which
// ends where n-1 single advances would have. Between those advances the
// calls only run a stub on their own bytes, which reads no clock and no
// state another thread or an event writes: the events and threads that
// the single advances would have let run in between run after the batch,
// at the same virtual times, and see the same state. rest runs those n-1
// calls (Decision.batch).
//
// family is the profile family that prices the stub: its StubRoutines entry, or
// model.StreamFamily for a call site in a loop of independent blocks (streamDecision).
func (vm *VM) modelStubCall(st *methodState, d Decision, family string, call stubCall, rest BlockTarget) (stubCall, BlockTarget) {
	mc := vm.sim
	lc := resolve(mc.prof, model.Stub(d.Variant.Name), family).add(resolve(mc.prof, model.WhatDispatch, d.Variant.Stub))
	cost := func(args []Arg) (model.Cost, error) {
		n, err := stubPayload(st, args)
		if err != nil {
			return 0, err
		}
		return lc.at(n)
	}
	one := func(ctx context.Context, args []Arg) (int64, error) {
		c, err := cost(args)
		if err != nil {
			return 0, err
		}
		if err := mc.charge(c); err != nil {
			return 0, err
		}
		return call(ctx, args)
	}
	blocks := func(ctx context.Context, args []Arg, n int) error {
		var c model.Cost
		return firstAndRest(ctx, args, n, func(ctx context.Context, a []Arg) (err error) {
			if c, err = cost(a); err != nil {
				return err
			}
			if err := mc.charge(c); err != nil {
				return err
			}
			_, err = call(ctx, a)
			return err
		}, func(ctx context.Context, a []Arg, m int) error {
			if err := rest(ctx, a, m); err != nil {
				return err
			}
			return mc.charge(model.Cost(m) * c)
		})
	}
	return one, blocks
}

// streamDecision returns the decision a C2 call site of st's stub runs by: d, except where
// the site's caller, or the method inlined into it whose loop makes the site's calls
// (Site.Loop), calls st's method once per trip of a loop of independent blocks
// (bytecode.Method.Stream) and the profile prices the stub in that caller's loop
// (model.StreamFamily): then a decision whose calls are charged by those rows. The
// successive calls of such a loop overlap in the core's window (docs/model.md §2.3). One
// decision per (callee, caller), made at the first bind and shared by later binds.
func (vm *VM) streamDecision(st *methodState, site Site, d *Decision) *Decision {
	if vm.sim == nil || site.Caller == nil || !d.Stub || d.call == nil {
		return d
	}

	loop := site.Caller
	if site.Loop != nil {
		loop = site.Loop
	}
	s := loop.Stream
	if s == nil || s.Callee != st.m.Key || site.Level != LevelFullOptimization {
		return d
	}
	fam := model.StreamFamily(d.Variant.Stub, loop.Key)
	if _, ok := vm.sim.prof.Row(model.Stub(d.Variant.Name), fam, model.PerBlock); !ok {
		return d
	}
	key := streamKey{st, loop.Key}
	if sd, ok := vm.sim.streams.Load(key); ok {
		return sd.(*Decision)
	}
	sd := *d
	sd.call, sd.blocks = vm.modelStubCall(st, sd, fam, d.first, d.batch)
	got, _ := vm.sim.streams.LoadOrStore(key, &sd)
	return got.(*Decision)
}

// streamKey names a stub callee in one caller's loop (streamDecision).
type streamKey struct {
	st     *methodState
	caller string
}

// startModelCompilers makes the compiler pools simulated servers of the
// scheduler (docs/model.md §5 item 5): each free compiler thread takes
// its next task from the same policy code as the wall clock's goroutines
// (policy.Next), occupies itself for the profile's CompileCost, really
// compiles when it starts (PrintCompilation prints then) and installs
// the code when the cost has elapsed.
func (vm *VM) startModelCompilers(c1, c2 int) {
	for i, n := range []int{c1, c2} {
		kind := policy.Compiler(i)
		vm.pools[i] = &compilerPool{kind: kind, threads: n}
		th := compilerThread{kind: kind, idx: -1}
		vm.sim.pools[i] = vm.sim.s.NewPool(kind.String(), n, func(at model.Cost) (model.Job, bool) {
			return vm.modelJob(kind, at, th)
		})
	}
}

// startBackground queues the profile's background compiles (model.Background: the real
// JVM's own compiles of code jitsim does not model) on their compiler's pool, each at its
// time after from, when the JCE's first use ended; a compiler the flags leave without
// threads (-Xint, TieredStopAtLevel below 4) gets none of them.
func (mc *modelClock) startBackground(from model.Cost) {
	if mc.prof.Background == nil {
		return
	}
	cs, err := mc.prof.Background.Parse()
	if err != nil {
		return // checked when the profile was loaded
	}
	for _, c := range cs {
		kind := policy.C1
		if c.Compiler == model.WhatCompileC2 {
			kind = policy.C2
		}
		if mc.pools[kind] == nil || mc.pools[kind].Threads() == 0 {
			continue
		}
		mc.s.Post(from+c.At, "background "+kind.String(), func(at model.Cost) {
			mc.background[kind] = append(mc.background[kind], c)
			mc.pools[kind].Wake(at)
		})
	}
}

// backgroundJob is the oldest queued background compile of kind as a model.Job, if any.
// A compiler thread takes one only when the policy has no task for it: HotSpot's queue
// selection takes the method whose counters rise fastest first, and the modelled
// methods are the program's hot ones.
func (vm *VM) backgroundJob(kind policy.Compiler) (model.Job, bool) {
	q := vm.sim.background[kind]
	if len(q) == 0 {
		return model.Job{}, false
	}
	c := q[0]
	vm.sim.background[kind] = q[1:]
	cost, err := vm.sim.prof.CompileCost(c.Compiler, model.AnyFamily, c.Bytes)
	if err != nil {
		return model.Job{}, false // the profile prices no compile of this compiler: none is charged
	}
	return model.Job{Name: fmt.Sprintf("background %d bytes", c.Bytes), Cost: cost}, true
}

// compilerWhat is the profile's name of each compiler's compiles.
var compilerWhat = [2]string{model.WhatCompileC1, model.WhatCompileC2}

// modelJob is a simulated compiler thread asking for work at virtual time
// at: the policy's next task as a model.Job.
func (vm *VM) modelJob(kind policy.Compiler, at model.Cost, th compilerThread) (model.Job, bool) {
	for vm.ctx.Err() == nil {
		t := vm.pol.Next(kind, at.Duration())
		if t == nil {
			if vm.pol.QueueLen(kind) == 0 {
				return vm.backgroundJob(kind)
			}
			continue
		}
		st := vm.byPolicy[t.Method]
		if st == nil {
			panic("BUG: compile task for a method the VM does not know")
		}
		// The compiler parses the method and what it inlines: the bytes
		// -XX:+CITime's speed counts (inlinedBytes).
		parsed := st.m.Size + inlinedBytes(vm.inlineTree(st.m, Level(t.Level), false))
		cost, cerr := vm.sim.prof.CompileCost(compilerWhat[kind], st.m.Key, parsed)
		var run *taskRun
		return model.Job{
			Name: fmt.Sprintf("%d %s L%d", t.ID, st.m.Key, t.Level),
			Cost: cost,
			Start: func(at model.Cost) {
				defer vm.recoverCompile(t, th)
				run = vm.beginTask(t, at.Duration())
				if cerr != nil && run.err == nil {
					run.err = fmt.Errorf("runtime: model clock: %w", cerr)
				}
				vm.sim.inflightMu.Lock()
				vm.sim.inflight[run] = struct{}{}
				vm.sim.inflightMu.Unlock()
			},
			Done: func(at model.Cost) {
				defer vm.finish(t)
				defer vm.recoverCompile(t, th)
				if run != nil {
					vm.sim.inflightMu.Lock()
					delete(vm.sim.inflight, run)
					vm.sim.inflightMu.Unlock()
					vm.endTask(run, at.Duration(), th)
				}
			},
		}, true
	}
	return model.Job{}, false
}

// closeInflight releases the code of compiles whose install time never
// came (the run ended first): a JVM exits without waiting for them.
func (mc *modelClock) closeInflight() []error {
	mc.inflightMu.Lock()
	defer mc.inflightMu.Unlock()
	var errs []error
	for r := range mc.inflight {
		if r.ci.code != nil {
			if err := r.ci.code.Close(context.Background()); err != nil {
				errs = append(errs, err)
			}
		}
		delete(mc.inflight, r)
	}
	return errs
}

// awaitModel blocks the requesting thread of a blocking compile on the
// model clock until done is closed (model.Scheduler.Await: the thread's
// time advances event by event while the compile queues and runs).
func (vm *VM) awaitModel(t *policy.Task, done chan struct{}) error {
	th, err := vm.sim.holder()
	if err != nil {
		return err
	}
	err = vm.sim.s.Await(th, func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	if err != nil {
		return fmt.Errorf("runtime: blocking compile of %s at level %d: %w", t.Method.PrintName(), t.Level, err)
	}
	if p := vm.internal.Load(); p != nil {
		return *p
	}
	return nil
}

// Enter makes th the running model thread: on the model clock its
// goroutine must call Enter once before its first call into the VM and
// Exit after its last (the scheduler runs one thread at a time, in
// virtual-time order). On the wall clock both do nothing.
func (th *Thread) Enter() {
	if th == nil || th.vm == nil || th.vm.sim == nil || th.entered {
		return
	}
	th.entered = true
	th.vm.sim.s.Enter(th.sim)
}

// Exit ends th's part in the simulation (see Enter).
func (th *Thread) Exit() {
	if th == nil || th.vm == nil || th.vm.sim == nil || !th.entered {
		return
	}
	th.entered = false
	th.vm.sim.s.Exit(th.sim)
}

// Park takes an entered thread out of the model's turn order while its
// goroutine waits for another application thread (a start barrier);
// Unpark, called by the thread that releases it, puts it back at the
// releaser's time, and its goroutine then calls Enter. On the wall clock
// both do nothing.
func (th *Thread) Park() {
	if th == nil || th.vm == nil || th.vm.sim == nil || !th.entered {
		return
	}
	th.entered = false
	th.vm.sim.s.Park(th.sim)
}

// Unpark releases parked, a thread of the same VM, at th's current time
// (see Park); th must be the entered, running thread.
func (th *Thread) Unpark(parked *Thread) {
	if th == nil || th.vm == nil || th.vm.sim == nil || parked == nil {
		return
	}
	th.vm.sim.s.Unpark(parked.sim, th.vm.sim.s.Now(th.sim))
}

// Now returns th's time: on the model clock the thread's own virtual
// time (what its work has cost so far), on the wall clock the VM's clock.
func (th *Thread) Now() time.Duration {
	if th.vm == nil {
		return 0
	}
	if th.vm.sim != nil {
		return th.vm.sim.s.Now(th.sim).Duration()
	}
	return th.vm.clock.Now()
}

// ModelClock reports whether the VM runs on the model clock
// (Config.WithModel).
func (vm *VM) ModelClock() bool { return vm.sim != nil }

// ModelProfile returns the CPU cost profile of a model-clock VM.
func (vm *VM) ModelProfile() (model.Profile, bool) {
	if vm.sim == nil {
		return model.Profile{}, false
	}
	return vm.sim.prof, true
}

// chargeInlinedCall is the model clock's side of Inliner.ChargeInlinedCall:
// one inlined call of callee by code at level, with payload bytes
// (model.Payload of its arguments), costs the callee's own row at the
// caller's level and no call row (an inlined call is no call); count such
// calls cost count times that, in one advance of the clock (the calls
// between two reports of the code only compute on its own bytes: see
// modelStubCall). It is the charge ChargeInlined makes, for callers that
// have the payload already. On the wall clock it does nothing.
func (vm *VM) chargeInlinedCall(callee *Method, level Level, payload, count int) error {
	if vm.sim == nil {
		return nil
	}
	st := vm.callees.get(callee)
	if st == nil {
		return fmt.Errorf("runtime: inlined callee %v is not in the JDK %s method table", callee, vm.jdk)
	}
	if level < LevelNone || level > LevelFullOptimization {
		return fmt.Errorf("runtime: inlined call from level %d, not a compilation level (0..4)", level)
	}
	if payload < 0 {
		return fmt.Errorf("runtime: inlined call of %s with payload %d", callee, payload)
	}
	if count < 1 {
		return fmt.Errorf("runtime: %d inlined calls of %s", count, callee)
	}
	c, err := st.cost[level].at(payload)
	if err != nil {
		return err
	}
	return vm.sim.charge(model.Cost(count) * c)
}

// ChargeInlined charges, on the model clock, the work of site.Callee's
// code inlined into its caller's code at site.Level: the callee's own row
// at the caller's level for the payload of args, and no call row (an
// inlined call is no call). Code that runs an inlined callee without
// going through Route calls it once per inlined execution. On the wall
// clock it does nothing and returns nil.
func (vm *VM) ChargeInlined(site Site, args []Arg) error {
	if vm.sim == nil {
		return nil
	}
	st := vm.callees.get(site.Callee)
	if st == nil {
		return vm.notInTable(site)
	}
	if site.Level < LevelNone || site.Level > LevelFullOptimization {
		return fmt.Errorf("runtime: ChargeInlined: level %d is not a compilation level (0..4)", site.Level)
	}
	n, err := payload(st, args)
	if err != nil {
		return err
	}
	return vm.chargeInlinedCall(site.Callee, site.Level, n, 1)
}

// ChargeGlue advances the calling thread, on the model clock, by the cost of the provider
// code jitsim does not run (CipherCore, the mode's init and doFinal set-up): the profile's
// model.WhatGlue row for family ("GCM.final", "CBC.init", …) at the level the method entry
// (its key, e.g. "GHASH.doFinal") runs at now — the glue warms up with the code it calls.
// The VM's first Cipher.getInstance (family "MODE.instance", charged nothing else), or its
// first glue charge when no simulated thread ran that, also pays the model.WhatFirstUse row
// "MODE.instance" (the JCE and its provider loaded), and each mode's first "final" its
// "MODE.op" row (the first init and doFinal: the mode's classes loaded, linked and
// initialised), once per VM each.
// A profile without glue rows (the CPU models' own: recorded before the glue was measured)
// charges nothing; so does the wall clock.
func (vm *VM) ChargeGlue(ctx context.Context, entry, family string) error {
	mc := vm.sim
	if mc == nil {
		return nil
	}
	mode, phase, _ := strings.Cut(family, ".")
	if mc.hasFirstUse || mc.prof.Background != nil {
		if err := mc.firstUse(mode, phase); err != nil {
			return err
		}
	}
	if !mc.hasGlue || phase == "instance" {
		return nil
	}
	level := Level(0)
	if st, ok := vm.byName[entry]; ok {
		if ci := st.entry.Load(); ci != nil {
			level = ci.level
		}
	}
	what, _ := model.TierWhat(int(level))
	key := what + "/" + family
	lc, ok := mc.glue.Load(key)
	if !ok {
		lc, _ = mc.glue.LoadOrStore(key, resolve(mc.prof, model.WhatGlue, key))
	}
	l := lc.(linearCost)
	if l.err != nil {
		return nil // no row for this family at this level: not measured, not charged
	}
	c, err := l.at(0)
	if err != nil {
		return err
	}
	return mc.charge(c)
}

// firstUse charges a fresh VM's first use once each: the JCE's at the first getInstance a
// simulated thread runs (else at the first glue charge), mode's at its first "final".
func (mc *modelClock) firstUse(mode, phase string) error {
	if phase == "instance" {
		if _, ok := mc.s.Holder(); !ok {
			return nil // no simulated thread runs this getInstance: the first glue charge pays it
		}
	}
	if _, done := mc.firstUsed.LoadOrStore("instance", true); !done {
		if err := mc.chargeFirstUse(mode + ".instance"); err != nil {
			return err
		}
		mc.startBackground(mc.s.Current())
	}
	if phase != "final" {
		return nil
	}
	if _, done := mc.firstUsed.LoadOrStore(mode, true); done {
		return nil
	}
	return mc.chargeFirstUse(mode + ".op")
}

// chargeFirstUse charges the profile's model.WhatFirstUse row of family, if it has one.
func (mc *modelClock) chargeFirstUse(family string) error {
	l := resolve(mc.prof, model.WhatFirstUse, family)
	if l.err != nil {
		return nil // not measured, not charged
	}
	c, err := l.at(0)
	if err != nil {
		return err
	}
	return mc.charge(c)
}
