package policy

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// Policy is HotSpot's compilation policy as deterministic logic: the
// transition functions of compilationPolicy.cpp (JDK 17+),
// advancedThresholdPolicy.cpp (JDK 8 tiered) and the JDK 8 non-tiered
// SimpleCompPolicy, plus the two compile queues of CompileBroker. It owns no
// goroutine and reads no clock: every entry point takes now, the time since
// VM start, from the caller's clock (wall or model).
//
// # Locking
//
// Counting (Invoke, Backedge) is lock-free: it bumps atomic counters and
// returns at once unless the count reached a notification point, as the
// interpreter's inline counter code does. Notifications, queue operations
// (Next, Installed, Failed, Deoptimize) and all non-counter method state
// take one mutex per Policy. A notification happens at most once per 128
// interpreted calls with default flags, so one lock is not a bottleneck;
// a per-method lock would not remove it either, because every decision
// reads the queue lengths. The Trace callback runs with the mutex held and
// must not call back into the Policy.
type Policy struct {
	cfg      Config
	nC1, nC2 int

	// Notification masks per level (index 0, 2, 3) and kind.
	invMask, backMask [5]int32

	mu      sync.Mutex
	trace   func(TieredEvent)
	exclude func(Exclusion)
	queues  [2][]*Task
	nextID  int
	cacheRF float64 // code cache reverse free ratio for C1 code; 0 = not modelled
}

// New returns a policy for a configuration FromFlags built, with c1 and c2 compiler threads
// (see CompilerCounts).
func New(cfg Config, c1, c2 int) (*Policy, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if c1 < 0 || c2 < 0 {
		return nil, fmt.Errorf("%w: compiler thread counts c1=%d c2=%d must not be negative", ErrConfig, c1, c2)
	}
	if !cfg.interpreterOnly() {
		if c1 == 0 && !cfg.c2Only() {
			return nil, fmt.Errorf("%w: this configuration compiles with C1 but has no C1 thread (c1=0)", ErrConfig)
		}
		if c2 == 0 && !cfg.c1Only() {
			return nil, fmt.Errorf("%w: this configuration compiles with C2 but has no C2 thread (c2=0)", ErrConfig)
		}
	}
	p := &Policy{cfg: cfg, nC1: c1, nC2: c2, nextID: 1}
	mask := func(log int64) int32 { return int32(1)<<uint(log) - 1 }
	p.invMask[0], p.backMask[0] = mask(cfg.Tier0InvokeNotifyFreqLog), mask(cfg.Tier0BackedgeNotifyFreqLog)
	p.invMask[2], p.backMask[2] = mask(cfg.Tier2InvokeNotifyFreqLog), mask(cfg.Tier2BackedgeNotifyFreqLog)
	p.invMask[3], p.backMask[3] = mask(cfg.Tier3InvokeNotifyFreqLog), mask(cfg.Tier3BackedgeNotifyFreqLog)
	return p, nil
}

// Config returns the configuration the policy runs with.
func (p *Policy) Config() Config { return p.cfg }

// SetTrace installs the PrintTieredEvents hook (nil to remove). The hook
// is called with the policy's mutex held and must not call the Policy.
func (p *Policy) SetTrace(f func(TieredEvent)) {
	p.mu.Lock()
	p.trace = f
	p.mu.Unlock()
}

// Exclusion is a compile request a compile command refused: the method is
// now not compilable by Level's compiler.
type Exclusion struct {
	Method *Method
	Level  Level
	OSR    bool
	Time   time.Duration
}

// SetExcludeHook installs the hook told of each refused request (nil to
// remove); HotSpot prints "### Excluding compile" then. The hook is called
// with the policy's mutex held and must not call the Policy.
func (p *Policy) SetExcludeHook(f func(Exclusion)) {
	p.mu.Lock()
	p.exclude = f
	p.mu.Unlock()
}

// SetCodeCacheReverseFreeRatio tells the policy how full the profiled code
// heap is (capacity/free). Above 100/(100−IncreaseFirstTierCompileThresholdAt)
// the C1 thresholds grow by exp(ratio − that), as in threshold_scale.
func (p *Policy) SetCodeCacheReverseFreeRatio(r float64) {
	p.mu.Lock()
	p.cacheRF = r
	p.mu.Unlock()
}

// EventKind says where a notification comes from.
type EventKind int8

// The two kinds of counter notifications.
const (
	Invocation EventKind = iota
	BackEdge
)

// NotifyMask returns the mask the VM's counter code tests: code running at
// level notifies the policy when (count & mask) == 0 after incrementing.
// Levels 1 and 4 do not count (mask -1 means "never"). The JDK 8
// non-tiered policy has no masks; use Invoke and Backedge there.
func (p *Policy) NotifyMask(level Level, kind EventKind) int32 {
	if level != LevelNone && level != LevelLimitedProfile && level != LevelFullProfile {
		return -1
	}
	if kind == Invocation {
		return p.invMask[level]
	}
	return p.backMask[level]
}

// Decision is the policy's answer to a notification.
type Decision struct {
	// Task is the compile task this event enqueued, or nil. If
	// Task.Blocking, the calling thread must wait for it (-Xbatch/-Xcomp),
	// then report it with Installed or Failed.
	Task *Task
	// OSR is live OSR code the interpreter or lower-tier loop should jump
	// into at this back-edge, or nil.
	OSR *Code
}

// Invoke counts one invocation of m by code running at level (the level
// of the code that executes the counter increment: 0 for the interpreter)
// and, at a notification point, runs the call event. It is the VM's one
// call per invocation; it is lock-free except at notification points.
//
// Under -Xcomp a method without code is compiled before it runs
// (compile_if_required): the Decision then carries a blocking task with
// Reason ReasonMustBeCompiled and the invocation is not counted yet. After
// the compile, run the invocation in the new code and count it there with
// another Invoke at the new level.
//
// Counters follow HotSpot: the interpreter bumps the MethodCounters until
// an MDO exists and the MDO after; level 2 code bumps the MethodCounters,
// level 3 code the MDO; levels 1 and 4 do not count.
func (p *Policy) Invoke(m *Method, level Level, now time.Duration) Decision {
	if p.cfg.legacy() {
		return p.legacyInvoke(m, level, now)
	}
	if p.cfg.Exec == Comp && level == LevelNone {
		if d, ok := p.compileIfRequired(m, now); ok {
			return d
		}
	}
	var c int32
	switch level {
	case LevelNone:
		if d := m.mdo.Load(); d != nil && p.cfg.ProfileInterpreter {
			c = d.inv.Add(1)
		} else {
			c = m.inv.Add(1)
		}
	case LevelLimitedProfile:
		c = m.inv.Add(1)
	case LevelFullProfile:
		d := m.mdo.Load()
		if d == nil {
			panic("BUG: level 3 code running without an MDO")
		}
		c = d.inv.Add(1)
	default:
		return Decision{}
	}
	if c&p.invMask[level] != 0 {
		return Decision{}
	}
	return p.OnCall(m, level, now)
}

// Backedge counts one taken back-edge at loop header bci in code running
// at level (for OSR code, its own level) and, at a notification point,
// runs the loop event.
func (p *Policy) Backedge(m *Method, level Level, bci int, now time.Duration) Decision {
	if p.cfg.legacy() {
		return p.legacyBackedge(m, level, bci, now)
	}
	var c int32
	switch level {
	case LevelNone:
		if d := m.mdo.Load(); d != nil && p.cfg.ProfileInterpreter {
			c = d.back.Add(1)
		} else {
			c = m.back.Add(1)
		}
	case LevelLimitedProfile:
		c = m.back.Add(1)
	case LevelFullProfile:
		d := m.mdo.Load()
		if d == nil {
			panic("BUG: level 3 code running without an MDO")
		}
		c = d.back.Add(1)
	default:
		return Decision{}
	}
	if c&p.backMask[level] != 0 || !p.cfg.UseOnStackReplacement {
		return Decision{}
	}
	return p.OnBackedge(m, level, bci, now)
}

// Backedges is n calls of Backedge, for a VM that counts back-edges in its code and hands
// them over in bulk: every Decision a notification point returns goes to each, in order,
// before the next back-edge is counted. The counter moves to each notification point at
// once instead of one by one: between those points nothing reads it, and each notification
// sees the count it would have seen. A count raced past a notification point by another
// thread's back-edges still notifies once.
func (p *Policy) Backedges(m *Method, level Level, bci int, now time.Duration, n uint64, each func(Decision) error) error {
	if p.cfg.legacy() {
		for range n {
			if err := each(p.legacyBackedge(m, level, bci, now)); err != nil {
				return err
			}
		}
		return nil
	}
	if level != LevelNone && level != LevelLimitedProfile && level != LevelFullProfile {
		return nil // levels 1 and 4 do not count
	}
	mask := uint32(p.backMask[level])
	for n > 0 {
		ctr := &m.back
		switch level {
		case LevelNone:
			if d := m.mdo.Load(); d != nil && p.cfg.ProfileInterpreter {
				ctr = &d.back
			}
		case LevelFullProfile:
			d := m.mdo.Load()
			if d == nil {
				panic("BUG: level 3 code running without an MDO")
			}
			ctr = &d.back
		}
		// the back-edges up to the next notification point, or all of them
		step := uint64(mask) + 1 - uint64(uint32(ctr.Load())&mask)
		if step > n || !p.cfg.UseOnStackReplacement {
			step = min(n, 1<<30)
			ctr.Add(int32(step))
			n -= step
			continue
		}
		c := uint32(ctr.Add(int32(step)))
		n -= step
		if c&mask >= uint32(step) {
			continue // another thread's back-edges took the notification
		}
		if err := each(p.OnBackedge(m, level, bci, now)); err != nil {
			return err
		}
	}
	return nil
}

// OnCall is the call notification (CompilationPolicy::event with
// InvocationEntryBci) for a VM that counts by itself with NotifyMask.
func (p *Policy) OnCall(m *Method, level Level, now time.Duration) Decision {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.emit(EventCall, m, InvocationEntryBCI, level, now)
	if p.cfg.interpreterOnly() {
		return Decision{}
	}
	return Decision{Task: p.methodInvocationEvent(m, level, now)}
}

// OnBackedge is the loop notification (CompilationPolicy::event with a
// loop bci) for a VM that counts by itself with NotifyMask.
func (p *Policy) OnBackedge(m *Method, level Level, bci int, now time.Duration) Decision {
	if bci < 0 {
		panic("BUG: back-edge notification without a loop bci")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.emit(EventLoop, m, bci, level, now)
	if p.cfg.interpreterOnly() {
		return Decision{}
	}
	t := p.methodBackBranchEvent(m, bci, level, now)
	return Decision{Task: t, OSR: p.osrEntry(m, bci, level)}
}

// OSREntry returns the live OSR code the VM should enter at bci from code
// running at level, or nil; use it after a blocking OSR compile finished.
func (p *Policy) OSREntry(m *Method, bci int, level Level) *Code {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.osrEntry(m, bci, level)
}

// osrEntry is the tail of CompilationPolicy::event for loop events (JDK
// 17+) or its JDK 8 form.
func (p *Policy) osrEntry(m *Method, bci int, level Level) *Code {
	if p.cfg.rel.osrAnyHigher {
		if m.highestOSR > level {
			return m.lookupOSR(bci, m.highestOSR, false)
		}
		return nil
	}
	expected := min(LevelFullOptimization, level+1)
	if !p.disableIntermediate() && m.notOSRCompilable(expected) {
		expected = LevelSimple
	}
	if m.highestOSR >= expected {
		if c := m.lookupOSR(bci, expected, false); c != nil && c.Level != level {
			return c
		}
	}
	return nil
}

// --- configuration queries (compilerDefinitions.hpp) -------------------

// disableIntermediate is CompilerConfig::is_c2_or_jvmci_compiler_only inside the tiered
// policy: C2 only, no levels 1 to 3 (the non-tiered JDK 8 policy has its own path).
func (p *Policy) disableIntermediate() bool {
	return !p.cfg.rel.nonTiered && p.cfg.c2Only()
}

func (p *Policy) compilerCount(l Level) int {
	if l.IsC2() {
		return p.nC2
	}
	return p.nC1
}

func (p *Policy) queueSize(l Level) int { return len(p.queues[compilerFor(l)]) }

// highestCompileLevel is CompilationPolicy::highest_compile_level.
func (p *Policy) highestCompileLevel() Level {
	c := &p.cfg
	level := LevelNone
	if !c.interpreterOnly() {
		switch {
		case !c.c1Only() && c.CompilationMode != ModeQuickOnly:
			level = LevelFullOptimization
		case c.c1SimpleOnly():
			level = LevelSimple
		default:
			level = LevelFullProfile
		}
	}
	if c.TieredCompilation {
		level = min(level, Level(c.TieredStopAtLevel))
	}
	// JDK 8 has no CompilationMode, and its non-tiered level is 4 or 0: the caps below do not
	// change its answer.
	switch {
	case c.CompilationMode == ModeQuickOnly:
		if level >= LevelLimitedProfile {
			level = LevelSimple
		}
	case c.CompilationMode == ModeHighOnly || !c.TieredCompilation:
		if level >= LevelSimple && level <= LevelFullProfile {
			level = LevelNone
		}
	case c.CompilationMode == ModeHighOnlyQuickInternal:
		if level == LevelLimitedProfile || level == LevelFullProfile {
			level = LevelSimple
		}
	}
	return level
}

func (p *Policy) limitLevel(l Level) Level { return min(l, p.highestCompileLevel()) }

// initialCompileLevel is CompilationPolicy::initial_compile_level.
func (p *Policy) initialCompileLevel() Level {
	l := LevelFullProfile
	switch {
	case p.cfg.legacy():
		l = LevelFullOptimization
	case p.cfg.CompilationMode == ModeQuickOnly:
		l = LevelSimple
	case p.disableIntermediate():
		l = LevelFullOptimization
	}
	return p.limitLevel(l)
}

// --- predicates (CallPredicate / LoopPredicate) ------------------------

// ge is the threshold comparison: ">=", or the release's strict ">"
// (simpleThresholdPolicy.inline.hpp).
func (p *Policy) ge(v int64, threshold float64) bool {
	if p.cfg.rel.strictThresholds {
		return float64(v) > threshold
	}
	return float64(v) >= threshold
}

// callScaled is CallPredicate::apply_scaled.
func (p *Policy) callScaled(m *Method, cur Level, i, b int64, scale float64) bool {
	scale *= m.scale()
	c := &p.cfg
	switch cur {
	case LevelNone, LevelLimitedProfile:
		return p.ge(i, float64(c.Tier3InvocationThreshold)*scale) ||
			(p.ge(i, float64(c.Tier3MinInvocationThreshold)*scale) && p.ge(i+b, float64(c.Tier3CompileThreshold)*scale))
	case LevelFullProfile:
		return p.ge(i, float64(c.Tier4InvocationThreshold)*scale) ||
			(p.ge(i, float64(c.Tier4MinInvocationThreshold)*scale) && p.ge(i+b, float64(c.Tier4CompileThreshold)*scale))
	}
	return true
}

// loopScaled is LoopPredicate::apply_scaled.
func (p *Policy) loopScaled(m *Method, cur Level, _, b int64, scale float64) bool {
	scale *= m.scale()
	switch cur {
	case LevelNone, LevelLimitedProfile:
		return p.ge(b, float64(p.cfg.Tier3BackEdgeThreshold)*scale)
	case LevelFullProfile:
		return p.ge(b, float64(p.cfg.Tier4BackEdgeThreshold)*scale)
	}
	return true
}

// predicate selects the call or the loop predicate.
type predicate int8

const (
	callPred predicate = iota
	loopPred
)

// apply is Predicate::apply: the predicate with load feedback.
func (p *Policy) apply(pred predicate, m *Method, cur Level, i, b int64) bool {
	var k float64
	switch cur {
	case LevelNone, LevelLimitedProfile:
		k = p.thresholdScale(LevelFullProfile, p.cfg.Tier3LoadFeedback)
	case LevelFullProfile:
		k = p.thresholdScale(LevelFullOptimization, p.cfg.Tier4LoadFeedback)
	default:
		return true
	}
	if pred == callPred {
		return p.callScaled(m, cur, i, b, k)
	}
	return p.loopScaled(m, cur, i, b, k)
}

// ThresholdScale returns the load-feedback factor k for compiles at level
// (PrintTieredEvents' k=): queue/(feedback·threads)+1, times the code
// cache factor for C1 levels. It takes the policy's mutex.
func (p *Policy) ThresholdScale(level Level) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	fb := p.cfg.Tier3LoadFeedback
	if level.IsC2() {
		fb = p.cfg.Tier4LoadFeedback
	}
	return p.thresholdScale(level, fb)
}

// thresholdScale is CompilationPolicy::threshold_scale.
func (p *Policy) thresholdScale(level Level, feedback int64) float64 {
	n := p.compilerCount(level)
	if n == 0 || feedback == 0 {
		return 1
	}
	k := float64(p.queueSize(level))/float64(feedback*int64(n)) + 1
	tiered := p.cfg.TieredCompilation && !p.disableIntermediate()
	if p.cfg.rel.cacheScaleByStop {
		tiered = p.cfg.TieredStopAtLevel == 4
	}
	if tiered && level.IsC1() && p.cacheRF > 0 {
		at := 100.0 / (100.0 - increaseFirstTierCompileThresholdAt)
		if p.cacheRF > at {
			k *= math.Exp(p.cacheRF - at)
		}
	}
	return k
}

func counts(m *Method) (int64, int64) {
	i, b := m.Counts()
	return int64(i), int64(b)
}

// isOld is CompilationPolicy::is_old: TieredOldPercentage (1000%) of the
// level-3 thresholds, or the release's fixed counts.
func (p *Policy) isOld(m *Method) bool {
	i, b := counts(m)
	if r := p.cfg.rel; r.oldCalls > 0 {
		return i > r.oldCalls || b > r.oldBackEdges
	}
	k := float64(p.cfg.TieredOldPercentage) / 100
	return p.callScaled(m, LevelNone, i, b, k) || p.loopScaled(m, LevelNone, i, b, k)
}

// isMethodProfiled is CompilationPolicy::is_method_profiled: the MDO
// deltas pass the level-4 call predicate without load feedback.
func (p *Policy) isMethodProfiled(m *Method) bool {
	d := m.mdo.Load()
	if d == nil {
		return false
	}
	return p.callScaled(m, LevelFullProfile, int64(d.inv.Load()-d.inv0), int64(d.back.Load()-d.back0), 1)
}

func (p *Policy) wouldProfile(d *methodData) bool { return d.wouldProfile != profileNo }

// isTrivial is CompilationPolicy::is_trivial (accessors and constant
// getters) plus, where the release says so, small loop-free methods whose
// MDO found nothing to profile (AdvancedThresholdPolicy::is_trivial).
func (p *Policy) isTrivial(m *Method) bool {
	if m.info.Trivial {
		return true
	}
	if !p.cfg.rel.wideTrivial {
		return false
	}
	if m.info.HasLoops || m.info.CodeSize >= 15 {
		return false
	}
	d := m.mdo.Load()
	return d != nil && !p.wouldProfile(d) && (m.info.CodeSize < 5 || m.info.NumBlocks < 4)
}

// shouldCreateMDO is CompilationPolicy::should_create_mdo: start
// profiling in the interpreter when the method is old, or hot at
// Tier0ProfilingStartPercentage of the level-3 thresholds while C2 keeps up.
func (p *Policy) shouldCreateMDO(m *Method, cur Level) bool {
	c := &p.cfg
	if cur != LevelNone || c.CompilationMode == ModeQuickOnly || !c.ProfileInterpreter {
		return false
	}
	i, b := counts(m)
	k := float64(c.Tier0ProfilingStartPercentage) / 100
	if c.rel.mdoDelayTier3 {
		if p.queueSize(LevelFullOptimization) <= int(c.Tier3DelayOn)*p.compilerCount(LevelFullOptimization) {
			return p.callScaled(m, LevelNone, i, b, k) || p.loopScaled(m, LevelNone, i, b, k)
		}
		return false
	}
	if p.isOld(m) {
		return true
	}
	if p.queueSize(LevelFullOptimization) <= int(c.Tier0Delay)*p.compilerCount(LevelFullOptimization) {
		return p.callScaled(m, LevelNone, i, b, k) || p.loopScaled(m, LevelNone, i, b, k)
	}
	return false
}

// createMDO is CompilationPolicy::create_mdo.
func (p *Policy) createMDO(m *Method) {
	if m.info.Native || m.info.Trivial || m.mdo.Load() != nil {
		return
	}
	m.mdo.Store(&methodData{})
}

// --- transitions (CompilationPolicy::common and friends) ----------------

// common is the common transition function for one predicate.
func (p *Policy) common(pred predicate, m *Method, cur Level, disableFeedback bool) Level {
	next := cur
	i, b := counts(m)
	c2q := p.queueSize(LevelFullOptimization)
	n2 := p.compilerCount(LevelFullOptimization)
	if p.isTrivial(m) || m.info.Native {
		next = LevelSimple
		if p.disableIntermediate() {
			next = LevelFullOptimization
		}
	} else {
		switch cur {
		case LevelNone:
			if p.common(pred, m, LevelFullProfile, disableFeedback) == LevelFullOptimization {
				next = LevelFullOptimization
			} else if !p.disableIntermediate() && p.apply(pred, m, cur, i, b) {
				if !disableFeedback && c2q > int(p.cfg.Tier3DelayOn)*n2 {
					next = LevelLimitedProfile
				} else {
					next = LevelFullProfile
				}
			}
		case LevelLimitedProfile:
			next = p.fromLimitedProfile(pred, m, cur, i, b, disableFeedback)
		case LevelFullProfile:
			if d := m.mdo.Load(); d != nil {
				if p.wouldProfile(d) || p.disableIntermediate() {
					if p.apply(pred, m, cur, int64(d.inv.Load()-d.inv0), int64(d.back.Load()-d.back0)) {
						next = LevelFullOptimization
					}
				} else {
					next = LevelFullOptimization
				}
			}
		}
	}
	if next == cur {
		return next
	}
	return p.limitLevel(next)
}

// fromLimitedProfile is the level-2 case: back to 3 once C2 is below
// Tier3DelayOff per thread, or to 4 when already profiled (the release's
// row says when it tests "profiled" and whether a method without MDO may
// leave level 2).
func (p *Policy) fromLimitedProfile(pred predicate, m *Method, cur Level, i, b int64, disableFeedback bool) Level {
	c2q := p.queueSize(LevelFullOptimization)
	n2 := p.compilerCount(LevelFullOptimization)
	rel := p.cfg.rel
	if rel.level2ProfiledFirst && p.isMethodProfiled(m) {
		return LevelFullOptimization
	}
	next := cur
	back := func() bool {
		return disableFeedback || (c2q <= int(p.cfg.Tier3DelayOff)*n2 && p.apply(pred, m, cur, i, b))
	}
	if d := m.mdo.Load(); d != nil {
		if p.wouldProfile(d) {
			if back() {
				next = LevelFullProfile
			}
		} else {
			next = LevelFullOptimization
		}
	} else if !rel.level2WaitsForMDO && back() {
		next = LevelFullProfile
	}
	if rel.level2ProfiledLast && next == LevelFullProfile && p.isMethodProfiled(m) {
		next = LevelFullOptimization
	}
	return next
}

// callEvent is CompilationPolicy::call_event.
func (p *Policy) callEvent(m *Method, cur Level) Level {
	osrLevel := min(m.highestOSR, p.common(loopPred, m, cur, true))
	disable := false
	if p.cfg.rel.oldIgnoresLoad {
		disable = p.isOld(m)
	}
	next := p.common(callPred, m, cur, disable)
	if osrLevel == LevelFullOptimization && cur == LevelFullProfile {
		d := m.mdo.Load()
		if d == nil {
			panic("BUG: level 3 method without an MDO")
		}
		if d.inv.Load() >= 1 {
			next = LevelFullOptimization
		}
	} else {
		next = max(osrLevel, next)
	}
	return next
}

// loopEvent is CompilationPolicy::loop_event.
func (p *Policy) loopEvent(m *Method, cur Level) Level {
	next := p.common(loopPred, m, cur, true)
	if cur == LevelNone {
		if osr := min(m.highestOSR, next); osr > LevelNone {
			return osr
		}
	}
	return next
}

// methodInvocationEvent is CompilationPolicy::method_invocation_event.
func (p *Policy) methodInvocationEvent(m *Method, level Level, now time.Duration) *Task {
	if p.shouldCreateMDO(m, level) {
		p.createMDO(m)
	}
	if m.queued != nil {
		return nil
	}
	if next := p.callEvent(m, level); next != level {
		return p.compile(m, InvocationEntryBCI, next, now)
	}
	return nil
}

// methodBackBranchEvent is CompilationPolicy::method_back_branch_event
// for an event from the method's own code (no inlinee).
func (p *Policy) methodBackBranchEvent(m *Method, bci int, level Level, now time.Duration) *Task {
	if p.shouldCreateMDO(m, level) {
		p.createMDO(m)
	}
	nextOSR := p.loopEvent(m, level)
	if m.queued == nil && nextOSR != level {
		if t := p.compile(m, bci, nextOSR, now); t != nil {
			if t.Blocking {
				// HotSpot compiles it on the spot and then goes on to
				// the call check below; do that when it is reported.
				t.followUp = true
			}
			return t
		}
	}
	return p.callCheck(m, now)
}

// callCheck is the "use the loop event to check calls" tail of
// method_back_branch_event.
func (p *Policy) callCheck(m *Method, now time.Duration) *Task {
	cur := m.codeLevel()
	if next := p.callEvent(m, cur); next != cur && m.queued == nil {
		return p.compile(m, InvocationEntryBCI, next, now)
	}
	return nil
}

// canBeCompiled is CompilationPolicy::can_be_compiled.
func (p *Policy) canBeCompiled(m *Method, l Level) bool {
	if m.info.CodeSize > hugeMethodLimit {
		return false
	}
	return !m.notCompilable(l)
}

// canBeOSRCompiled is CompilationPolicy::can_be_osr_compiled.
func (p *Policy) canBeOSRCompiled(m *Method, l Level) bool {
	return !m.notOSRCompilable(l) && p.canBeCompiled(m, l)
}

// compile is CompilationPolicy::compile: redirect compiles a compiler
// refuses, then submit.
func (p *Policy) compile(m *Method, bci int, level Level, now time.Duration) *Task {
	if level == LevelNone {
		// HotSpot would drop compiled code to profile in the interpreter;
		// only reachable in high-only modes, where there is no such code.
		return nil
	}
	if !p.disableIntermediate() {
		if bci == InvocationEntryBCI && !p.canBeCompiled(m, level) {
			if level == LevelFullOptimization && p.canBeCompiled(m, LevelSimple) {
				return p.compile(m, bci, LevelSimple, now)
			}
			return nil
		}
		if bci != InvocationEntryBCI && !p.canBeOSRCompiled(m, level) {
			if level == LevelFullOptimization && p.canBeOSRCompiled(m, LevelSimple) {
				return p.compile(m, bci, LevelSimple, now)
			}
			return nil
		}
	}
	if bci != InvocationEntryBCI && m.notOSRCompilable(level) {
		return nil
	}
	if m.queued != nil {
		return nil
	}
	p.emit(EventCompile, m, bci, level, now)
	p.updateRate(ms(now), m)
	return p.submit(m, bci, level, ReasonTiered, now)
}

// compileIfRequired is CompilationPolicy::compile_if_required for -Xcomp:
// a method without code is compiled on its first call, blocking.
func (p *Policy) compileIfRequired(m *Method, now time.Duration) (Decision, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m.code != nil || m.queued != nil || p.cfg.interpreterOnly() {
		return Decision{}, false
	}
	level := p.initialCompileLevel()
	if level == LevelNone || !p.canBeCompiled(m, level) {
		return Decision{}, false
	}
	if p.cfg.rel.forceCompileEvent {
		p.emit(EventForceCompile, m, InvocationEntryBCI, level, now)
	} else {
		p.emit(EventCompile, m, InvocationEntryBCI, level, now)
	}
	t := p.submit(m, InvocationEntryBCI, level, ReasonMustBeCompiled, now)
	return Decision{Task: t}, t != nil
}

func ms(d time.Duration) int64 { return d.Milliseconds() }

// updateRate is CompilationPolicy::update_rate: events per millisecond,
// measured at least TieredRateUpdateMinTime apart and zeroed after
// TieredRateUpdateMaxTime without events. There are no safepoints in the
// model, so "time since the last safepoint" is the time since VM start.
func (p *Policy) updateRate(t int64, m *Method) {
	if p.isOld(m) {
		m.rate = 0
		return
	}
	deltaT := t - m.prevTime
	i, b := m.Counts()
	events := i + b
	deltaE := events - m.prevEvents
	if t >= p.cfg.TieredRateUpdateMinTime {
		if deltaT >= p.cfg.TieredRateUpdateMinTime && deltaE > 0 {
			m.prevTime = t
			m.prevEvents = events
			m.rate = float32(deltaE) / float32(deltaT)
		} else if deltaT > p.cfg.TieredRateUpdateMaxTime && deltaE == 0 {
			m.rate = 0
		}
	}
}

// isStale is CompilationPolicy::is_stale: no events for timeout ms.
func (p *Policy) isStale(t, timeout int64, m *Method) bool {
	deltaT := t - m.prevTime
	if deltaT > timeout && t > timeout {
		i, b := m.Counts()
		return i+b-m.prevEvents == 0
	}
	return false
}

// weight is CompilationPolicy::weight: (rate+1)(i+1)(b+1).
func weight(m *Method) float64 {
	i, b := m.Counts()
	return float64(m.rate+1) * float64(i+1) * float64(b+1)
}

// compareMethods is CompilationPolicy::compare_methods: should x be
// compiled before y? Recompiles after deopt (higher highest level) first,
// then the larger weight.
func compareMethods(x, y *Method) bool {
	if x.highest > y.highest {
		return true
	}
	return x.highest == y.highest && weight(x) > weight(y)
}
