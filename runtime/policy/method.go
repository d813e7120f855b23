package policy

import "sync/atomic"

// MethodInfo is what the policy needs to know about a method's bytecode.
// The VM fills it from its method table.
type MethodInfo struct {
	// Holder is the class name with dots ("com.sun.crypto.provider.AESCrypt").
	Holder string
	// Name is the method name ("implEncryptBlock").
	Name string
	// Signature is the JVM descriptor ("([BI[BI)V").
	Signature string
	// CodeSize is the bytecode size, printed as "(N bytes)".
	CodeSize int
	// Trivial marks an accessor or constant getter
	// (Method::is_accessor / is_constant_getter), compiled at level 1.
	Trivial bool
	// Native marks a native method (printed "(native)", level 1 or 4).
	Native bool
	// Synchronized and ExceptionHandlers set PrintCompilation's s and !
	// columns.
	Synchronized, ExceptionHandlers bool
	// HasLoops and NumBlocks feed JDK 8's wider "trivial" test
	// (AdvancedThresholdPolicy::is_trivial).
	HasLoops  bool
	NumBlocks int
	// NothingToProfile means C1 found no branch, call or type check worth
	// profiling: MethodData::would_profile() turns false after the first
	// level 2/3 compile and level 3 then goes straight to 4.
	NothingToProfile bool
	// NoOSR marks a method none of whose loops can be entered mid-way
	// (jitsim: its body has no OSR entry): it starts as
	// Method::is_not_osr_compilable at every level, so a back-edge event
	// never queues an OSR task for it — its loops still count toward the
	// normal compile.
	NoOSR bool
	// ThresholdScaling is the per-method
	// -XX:CompileCommand=CompileThresholdScaling,<pattern>,<v> factor; 0
	// means 1.
	ThresholdScaling float64
	// Excluded marks a method a compile command keeps from being compiled
	// (-XX:CompileCommand=exclude, or a -XX:CompileOnly list that does not
	// name it): the first request at a level makes it not compilable there
	// instead of queueing a task (CompileBroker::compilation_is_prohibited).
	Excluded bool
}

// wouldProfile is MethodData::_would_profile.
type wouldProfile int8

const (
	profileUnknown wouldProfile = iota // counts as "would profile"
	profileYes
	profileNo
)

// methodData models the counters of a MethodData (MDO): the invocation
// and back-edge counters the interpreter bumps once the MDO exists, and
// level-3 code bumps always, plus the start values "reprofile" moves.
type methodData struct {
	inv, back atomic.Int32
	// Guarded by Policy.mu.
	inv0, back0  int32
	wouldProfile wouldProfile
}

// Method is the policy's per-method state: HotSpot's Method,
// MethodCounters and MethodData fields that CompilationPolicy reads.
//
// The counters are atomics, bumped lock-free by Invoke and Backedge;
// everything else is guarded by the owning Policy's mutex.
type Method struct {
	info MethodInfo

	inv, back atomic.Int32 // MethodCounters invocation / back-edge counters
	mdo       atomic.Pointer[methodData]

	// Guarded by Policy.mu.
	code               *Code   // installed normal-entry code (Method::code), nil = interpreter
	osr                []*Code // live OSR code
	highest            Level   // Method::highest_comp_level
	highestOSR         Level   // Method::highest_osr_comp_level
	queued             *Task   // the task in a queue or being compiled (queued_for_compilation)
	prevTime           int64   // ms; 0 = never measured
	prevEvents         int32
	rate               float32 // events per ms
	notC1, notC2       bool
	notC1OSR, notC2OSR bool
}

// NewMethod returns the policy state for a method that has never run.
func NewMethod(info MethodInfo) *Method {
	return &Method{info: info, notC1OSR: info.NoOSR, notC2OSR: info.NoOSR}
}

// Info returns the bytecode facts the method was created with.
func (m *Method) Info() MethodInfo { return m.info }

// PrintName returns "Holder::name", as PrintCompilation prints it.
func (m *Method) PrintName() string { return m.info.Holder + "::" + m.info.Name }

// SigName returns "Holder.name(sig)", as PrintTieredEvents prints it
// (Method::name_and_sig_as_C_string).
func (m *Method) SigName() string { return m.info.Holder + "." + m.info.Name + m.info.Signature }

// Counts returns the method's invocation and back-edge counts as HotSpot
// sums them (Method::invocation_count: MethodCounters plus MDO).
func (m *Method) Counts() (i, b int32) {
	i, b = m.inv.Load(), m.back.Load()
	if d := m.mdo.Load(); d != nil {
		i += d.inv.Load()
		b += d.back.Load()
	}
	return i, b
}

// MDOCounts reports the MDO counters and their start values (the
// "mdo=i(i0),b(b0)" field of PrintTieredEvents); ok is false before the
// MDO exists.
func (m *Method) MDOCounts() (i, i0, b, b0 int32, ok bool) {
	d := m.mdo.Load()
	if d == nil {
		return 0, 0, 0, 0, false
	}
	return d.inv.Load(), d.inv0, d.back.Load(), d.back0, true
}

func (m *Method) scale() float64 {
	if m.info.ThresholdScaling == 0 {
		return 1
	}
	return m.info.ThresholdScaling
}

// codeLevel is comp_level(method): the level of the normal-entry code, 0
// when the method runs in the interpreter.
func (m *Method) codeLevel() Level {
	if m.code == nil {
		return LevelNone
	}
	return m.code.Level
}

// lookupOSR is Method::lookup_osr_nmethod_for: the live OSR code at bci
// with exactly level (match) or the highest one at or above level.
func (m *Method) lookupOSR(bci int, level Level, match bool) *Code {
	var best *Code
	for _, c := range m.osr {
		if c.BCI != bci || !c.entrant {
			continue
		}
		if match {
			if c.Level == level {
				return c
			}
			continue
		}
		if c.Level >= level && (best == nil || c.Level > best.Level) {
			best = c
		}
	}
	return best
}

func (m *Method) recomputeHighestOSR() {
	m.highestOSR = LevelNone
	for _, c := range m.osr {
		if c.entrant && c.Level > m.highestOSR {
			m.highestOSR = c.Level
		}
	}
}

// notCompilable is Method::is_not_compilable(level).
func (m *Method) notCompilable(l Level) bool {
	if l.IsC1() {
		return m.notC1
	}
	if l.IsC2() {
		return m.notC2
	}
	return false
}

// notOSRCompilable is Method::is_not_osr_compilable(level).
func (m *Method) notOSRCompilable(l Level) bool {
	if m.notCompilable(l) {
		return true
	}
	if l.IsC1() {
		return m.notC1OSR
	}
	if l.IsC2() {
		return m.notC2OSR
	}
	return false
}

// Code is one installed compiled version (an nmethod) of a method: the
// normal entry (BCI == InvocationEntryBCI) or an OSR entry at a loop
// header.
type Code struct {
	Method *Method
	Level  Level
	BCI    int
	// ID is the compile id of the task that produced the code, printed
	// again on its "made not entrant" line.
	ID      int
	entrant bool
}

// IsOSR reports whether the code is an OSR entry.
func (c *Code) IsOSR() bool { return c.BCI != InvocationEntryBCI }

// NotEntrant is one code version made not entrant, with the reason JDK 25
// prints after "made not entrant: ".
type NotEntrant struct {
	Code   *Code
	Reason string
}

// Reasons HotSpot (JDK 25) prints for "made not entrant".
const (
	ReasonNotUsed         = "not used"
	ReasonOSRInvalidation = "OSR invalidation of lower level"
	ReasonUncommonTrap    = "uncommon trap"
)
