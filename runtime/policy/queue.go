package policy

import (
	"slices"
	"time"
)

// Reason is why a task was created (CompileTask::CompileReason); only
// tiered-policy tasks can go stale.
type Reason int8

// Compile reasons the model produces.
const (
	// ReasonTiered: the tiered policy asked for it.
	ReasonTiered Reason = iota
	// ReasonMustBeCompiled: -Xcomp's compile on first call.
	ReasonMustBeCompiled
	// ReasonCount: the JDK 8 non-tiered policy's counter overflow.
	ReasonCount
)

// Task is one compile request (CompileTask). Fields are written by the
// policy under its mutex until Next hands the task out; after that they
// are stable and the compiler thread may read them freely.
type Task struct {
	// ID is the compile id, increasing over both compilers; PrintCompilation
	// prints it.
	ID     int
	Method *Method
	// Level may drop from 3 to 2 while the task waits (select_task).
	Level    Level
	BCI      int
	Blocking bool
	Reason   Reason
	// Enqueued is when the task entered its queue.
	Enqueued time.Duration
	// HotCount is the invocation (or, for OSR, back-edge) count at submit.
	HotCount int32

	followUp bool
	done     bool
}

// IsOSR reports whether the task compiles an OSR entry.
func (t *Task) IsOSR() bool { return t.BCI != InvocationEntryBCI }

// Compiler returns the queue (and thread pool) the task belongs to.
func (t *Task) Compiler() Compiler { return compilerFor(t.Level) }

// submit is CompileBroker::compile_method and compile_method_base: skip
// work that is done or queued, else create a task with the next id.
func (p *Policy) submit(m *Method, bci int, level Level, reason Reason, now time.Duration) *Task {
	if bci == InvocationEntryBCI {
		if m.code != nil && m.code.Level == level {
			return nil
		}
		if m.notCompilable(level) {
			return nil
		}
	} else {
		if m.lookupOSR(bci, level, false) != nil || m.notOSRCompilable(level) {
			return nil
		}
	}
	if m.queued != nil {
		return nil
	}
	if m.info.Excluded {
		p.excluded(m, bci, level, now)
		return nil
	}
	i, b := m.Counts()
	hot := i
	if bci != InvocationEntryBCI {
		hot = b
	}
	t := &Task{
		ID: p.nextID, Method: m, Level: level, BCI: bci,
		Blocking: !p.cfg.BackgroundCompilation, Reason: reason,
		Enqueued: now, HotCount: hot,
	}
	p.nextID++
	m.queued = t
	q := compilerFor(level)
	p.queues[q] = append(p.queues[q], t)
	return t
}

// Snapshot returns task t as it is now, read under the policy's lock: a waiting task's
// Level may drop from 3 to 2 while a compiler thread selects (Next).
func (p *Policy) Snapshot(t *Task) Task {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *t
}

// QueueLen returns the number of tasks waiting in a compiler's queue.
func (p *Policy) QueueLen(c Compiler) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queues[c])
}

// Next removes and returns the task a compiler thread of c should compile
// now, or nil when there is none. It models CompilationPolicy::select_task
// (JDK 17+; the same rule in JDK 8): drop stale tasks (no events for
// TieredCompileTaskTimeout ms, method not old, task not blocking), update
// rates, pick the highest highest_comp_level then the largest weight,
// blocking tasks first, and turn a level-3 task into level 2 when the
// method is already profiled. The JDK 8 non-tiered policy takes tasks in
// FIFO order. Starting a level 2 or 3 compile creates the method's MDO,
// as C1 does.
func (p *Policy) Next(c Compiler, now time.Duration) *Task {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.queues[c]
	if len(q) == 0 {
		return nil
	}
	if p.cfg.legacy() {
		t := q[0]
		p.queues[c] = slices.Delete(q, 0, 1)
		return t
	}
	t := ms(now)
	var maxTask, maxBlocking *Task
	kept := q[:0]
	for _, task := range q {
		m := task.Method
		if !task.Blocking && task.Reason == ReasonTiered && p.isStale(t, p.cfg.TieredCompileTaskTimeout, m) && !p.isOld(m) {
			p.emit(EventRemoveFromQueue, m, task.BCI, task.Level, now)
			m.queued = nil
			task.done = true
			continue
		}
		kept = append(kept, task)
		p.updateRate(t, m)
		if maxTask == nil || compareMethods(m, maxTask.Method) {
			maxTask = task
		}
		if task.Blocking && (maxBlocking == nil || compareMethods(m, maxBlocking.Method)) {
			maxBlocking = task
		}
	}
	clear(q[len(kept):])
	p.queues[c] = kept
	if maxBlocking != nil {
		maxTask = maxBlocking
	}
	if maxTask == nil {
		return nil
	}
	if maxTask.Level == LevelFullProfile && p.cfg.TieredStopAtLevel > 3 && p.isMethodProfiled(maxTask.Method) &&
		(!p.cfg.rel.xcompKeepsLevel3 || p.cfg.Exec != Comp) {
		maxTask.Level = LevelLimitedProfile
		m := maxTask.Method
		complete := false
		if maxTask.IsOSR() {
			complete = m.lookupOSR(maxTask.BCI, LevelLimitedProfile, true) != nil
		} else {
			complete = m.code != nil && m.code.Level == LevelLimitedProfile
		}
		if complete && p.cfg.rel.dropsDoneLevel2 {
			p.emit(EventRemoveFromQueue, m, maxTask.BCI, maxTask.Level, now)
			p.removeTask(maxTask)
			m.queued = nil
			maxTask.done = true
			return nil
		}
		p.emit(EventUpdateInQueue, m, maxTask.BCI, maxTask.Level, now)
	}
	p.removeTask(maxTask)
	if maxTask.Level == LevelLimitedProfile || maxTask.Level == LevelFullProfile {
		// C1's ensure_method_data: unlike the policy's create_mdo it does
		// not skip accessors (reachable under -Xcomp).
		if m := maxTask.Method; m.mdo.Load() == nil {
			m.mdo.Store(&methodData{})
		}
	}
	return maxTask
}

func (p *Policy) removeTask(t *Task) {
	q := compilerFor(t.Level)
	// A downgraded task still sits in the C1 queue: both 2 and 3 are C1.
	if i := slices.Index(p.queues[q], t); i >= 0 {
		p.queues[q] = slices.Delete(p.queues[q], i, i+1)
	}
}

// Install is the outcome of a finished compile.
type Install struct {
	// Code is the new code, now entrant.
	Code *Code
	// NotEntrant lists older code this install retired: the previous
	// normal-entry code (ciEnv::register_method's make_not_used), or
	// lower-level OSR code at the same bci (add_osr_nmethod).
	NotEntrant []NotEntrant
	// Next is a follow-up task: after a blocking OSR compile HotSpot goes
	// on to check the normal entry in the same event. Compile it (it is
	// blocking too) and report it the same way.
	Next *Task
}

// Installed records that t compiled successfully and its code is now in
// use: the method's level (or OSR level at t.BCI) becomes t.Level.
func (p *Policy) Installed(t *Task, now time.Duration) Install {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.done {
		panic("BUG: task reported twice")
	}
	t.done = true
	m := t.Method
	if m.queued == t {
		m.queued = nil
	}
	c := &Code{Method: m, Level: t.Level, BCI: t.BCI, ID: t.ID, entrant: true}
	res := Install{Code: c}
	if t.IsOSR() {
		for _, old := range m.osr {
			if old.entrant && old.BCI == t.BCI && old.Level >= LevelLimitedProfile && old.Level < t.Level {
				old.entrant = false
				res.NotEntrant = append(res.NotEntrant, NotEntrant{old, ReasonOSRInvalidation})
			}
		}
		m.osr = slices.DeleteFunc(m.osr, func(c *Code) bool { return !c.entrant })
		m.osr = append(m.osr, c)
		m.recomputeHighestOSR()
	} else {
		if old := m.code; old != nil && old.entrant {
			old.entrant = false
			res.NotEntrant = append(res.NotEntrant, NotEntrant{old, ReasonNotUsed})
		}
		m.code = c
		m.highest = max(m.highest, t.Level)
	}
	if t.Level == LevelLimitedProfile || t.Level == LevelFullProfile {
		if d := m.mdo.Load(); d != nil && d.wouldProfile == profileUnknown {
			d.wouldProfile = profileYes
			if m.info.NothingToProfile {
				d.wouldProfile = profileNo
			}
		}
	}
	if t.followUp && !p.cfg.interpreterOnly() {
		res.Next = p.callCheck(m, now)
	}
	return res
}

// excluded refuses a compile request for a method a compile command
// excludes: the method becomes not compilable by the level's compiler (OSR
// included), which steers the policy to the other one, and the hook hears
// of it.
func (p *Policy) excluded(m *Method, bci int, level Level, now time.Duration) {
	if level.IsC1() {
		m.notC1 = true
	} else {
		m.notC2 = true
	}
	if p.exclude != nil {
		p.exclude(Exclusion{Method: m, Level: level, OSR: bci != InvocationEntryBCI, Time: now})
	}
}

// Failed records that t did not produce code. If notCompilable, the
// compiler gave up on the method for good (ciEnv::record_method_not_compilable):
// it is marked not compilable by that compiler (for OSR tasks, not
// OSR-compilable), which steers the policy to the other compiler. The
// returned task is a follow-up as in Install.Next.
func (p *Policy) Failed(t *Task, notCompilable bool, now time.Duration) *Task {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.done {
		panic("BUG: task reported twice")
	}
	t.done = true
	m := t.Method
	if m.queued == t {
		m.queued = nil
	}
	if notCompilable {
		switch {
		case t.IsOSR() && t.Level.IsC1():
			m.notC1OSR = true
		case t.IsOSR():
			m.notC2OSR = true
		case t.Level.IsC1():
			m.notC1 = true
		default:
			m.notC2 = true
		}
	}
	if t.followUp && !p.cfg.interpreterOnly() {
		return p.callCheck(m, now)
	}
	return nil
}

// Deoptimize makes code not entrant after an uncommon trap
// (Deoptimization::uncommon_trap with Action_reinterpret): a normal entry
// sends the method back to the interpreter (level 0); OSR code is dropped
// from the method's OSR table. It returns the retired code (none if it was
// already not entrant). HotSpot prints the "made not entrant" line before
// it reprofiles; call Reprofile afterwards when the trap asks for it.
func (p *Policy) Deoptimize(c *Code, now time.Duration) []NotEntrant {
	p.mu.Lock()
	defer p.mu.Unlock()
	m := c.Method
	var out []NotEntrant
	if c.entrant {
		c.entrant = false
		out = append(out, NotEntrant{c, ReasonUncommonTrap})
	}
	if c.IsOSR() {
		m.osr = slices.DeleteFunc(m.osr, func(x *Code) bool { return !x.entrant })
		m.recomputeHighestOSR()
	} else if m.code == c {
		m.code = nil
	}
	return out
}

// Reprofile is CompilationPolicy::reprofile: the MDO start counters move
// to the current counts, so the 3→4 predicate (which reads the deltas)
// starts over.
func (p *Policy) Reprofile(m *Method, now time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.emit(EventReprofile, m, InvocationEntryBCI, LevelNone, now)
	if d := m.mdo.Load(); d != nil {
		d.inv0, d.back0 = d.inv.Load(), d.back.Load()
	}
}

// Level returns the level of m's normal-entry code (0 = interpreter) and
// whether a compile of m is queued or running.
func (p *Policy) Level(m *Method) (level Level, queued bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return m.codeLevel(), m.queued != nil
}

// IsOld reports CompilationPolicy::is_old for m.
func (p *Policy) IsOld(m *Method) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.isOld(m)
}

// --- JDK 8 non-tiered policy (SimpleCompPolicy, server VM) -------------

// legacyLimits returns InvocationCounter::reinitialize's limits: compile at
// CompileThreshold invocations+back-edges, profile from
// InterpreterProfilePercentage of it, OSR at
// CompileThreshold·(OnStackReplacePercentage−InterpreterProfilePercentage)/100
// MDO-taken back-edges (or ·OnStackReplacePercentage/100 of the sum without
// interpreter profiling).
func (p *Policy) legacyLimits() (invoke, profile, backward int64) {
	c := &p.cfg
	invoke = c.CompileThreshold
	profile = c.CompileThreshold * c.InterpreterProfilePercentage / 100
	if c.ProfileInterpreter {
		backward = c.CompileThreshold * (c.OnStackReplacePercentage - c.InterpreterProfilePercentage) / 100
	} else {
		backward = c.CompileThreshold * c.OnStackReplacePercentage / 100
	}
	return
}

// legacyInvoke models the JDK 8 interpreter's non-tiered counter check:
// every interpreted call compares invocations+back-edges with the limits.
func (p *Policy) legacyInvoke(m *Method, level Level, now time.Duration) Decision {
	if level != LevelNone {
		return Decision{}
	}
	if p.cfg.Exec == Comp {
		if d, ok := p.compileIfRequired(m, now); ok {
			return d
		}
	}
	i := int64(m.inv.Add(1))
	b := int64(m.back.Load())
	invoke, profile, _ := p.legacyLimits()
	if p.cfg.ProfileInterpreter && i+b >= profile && m.mdo.Load() == nil {
		p.mu.Lock()
		p.createMDO(m)
		p.mu.Unlock()
	}
	if i+b < invoke {
		return Decision{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// reset_counter_for_invocation_event: carry set, counts cut to
	// CompileThreshold/2 so the next overflow is far away.
	half := int32(p.cfg.CompileThreshold / 2)
	m.inv.Store(min(m.inv.Load(), half))
	m.back.Store(min(m.back.Load(), half))
	if p.cfg.interpreterOnly() || m.code != nil || !p.canBeCompiled(m, LevelFullOptimization) {
		return Decision{}
	}
	return Decision{Task: p.submit(m, InvocationEntryBCI, LevelFullOptimization, ReasonCount, now)}
}

// legacyBackedge models the JDK 8 non-tiered back-branch check
// (TemplateTable::branch): with interpreter profiling, the MDO's taken
// count is compared with the backward-branch limit once every 1024
// back-edges; without it, the counter sum is.
func (p *Policy) legacyBackedge(m *Method, level Level, bci int, now time.Duration) Decision {
	if level != LevelNone {
		return Decision{}
	}
	var taken int64 = -1
	if d := m.mdo.Load(); d != nil && p.cfg.ProfileInterpreter {
		taken = int64(d.back.Add(1))
	}
	b := int64(m.back.Add(1))
	i := int64(m.inv.Load())
	_, profile, backward := p.legacyLimits()
	fire := false
	if p.cfg.ProfileInterpreter {
		if i+b < profile {
			return Decision{}
		}
		if taken < 0 {
			p.mu.Lock()
			p.createMDO(m)
			p.mu.Unlock()
			return Decision{}
		}
		fire = p.cfg.UseOnStackReplacement && taken >= backward && taken&1023 == 0
	} else {
		fire = p.cfg.UseOnStackReplacement && i+b >= backward
	}
	if !fire {
		return Decision{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// reset_counter_for_back_branch_event: pump the invocation counter so
	// the next call compiles the whole method.
	m.inv.Store(int32(p.cfg.CompileThreshold))
	m.back.Store(int32(p.cfg.CompileThreshold / 2))
	var t *Task
	if !p.cfg.interpreterOnly() && p.canBeOSRCompiled(m, LevelFullOptimization) {
		t = p.submit(m, bci, LevelFullOptimization, ReasonCount, now)
	}
	return Decision{Task: t, OSR: m.lookupOSR(bci, LevelFullOptimization, false)}
}
