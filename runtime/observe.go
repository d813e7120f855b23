package runtime

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// EventKind is what happened to a method's code, for subscribers of
// [VM.Subscribe]. The kinds follow a compile's life in HotSpot:
// CompileBroker::compile_method_base puts a task on a queue,
// CompileBroker::invoke_compiler_on_method starts it, ciEnv::register_method
// installs the nmethod (an OSR one when the task has an entry bci),
// nmethod::make_not_entrant retires older code; plus the first call that ran
// an intrinsic stub from code at a given level.
type EventKind uint8

// The kinds of VM events.
const (
	EventQueued EventKind = iota + 1
	EventStarted
	EventInstalled
	EventNotEntrant
	EventOSR
	EventFirstStub
)

var eventKindNames = [...]string{EventQueued: "queued", EventStarted: "started", EventInstalled: "installed",
	EventNotEntrant: "not-entrant", EventOSR: "osr", EventFirstStub: "first-stub"}

// String returns the kind's name as series files spell it ("queued",
// "started", "installed", "not-entrant", "osr", "first-stub").
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) && eventKindNames[k] != "" {
		return eventKindNames[k]
	}
	return "unknown"
}

// Event is one thing that happened to one method's code, stamped on the
// VM's clock (the Clock of its Config).
type Event struct {
	Kind EventKind
	// Method is "Class::name" with the class's full name.
	Method string
	// Level is the code's level: the task's level for queued, started,
	// installed and osr, the retired code's level for not-entrant, and the
	// calling code's level for first-stub.
	Level     Level
	At        time.Duration
	CompileID int    // 0 for first-stub
	BCI       int    // OSR entry bci (osr events and their queued/started); -1 otherwise
	Detail    string // not-entrant reason; the stub ("stub/variant") for first-stub
}

// observers holds a VM's event subscribers: the sink of the events they
// see. on is read first so that a VM nobody watches pays one atomic load
// per event.
type observers struct {
	on   atomic.Bool
	mu   sync.Mutex
	next int
	subs map[int]func(Event)
}

// Subscribe calls fn for every event of the VM from now on until the
// returned function is called. fn runs on the thread that caused the event
// (a compiler thread, or the application thread that queued a task or made
// the first stub call), so it must be quick and safe for concurrent use.
// Events of one method arrive in order per thread; a subscriber that needs
// a total order sorts by At.
func (vm *VM) Subscribe(fn func(Event)) (unsubscribe func()) {
	o := &vm.obs
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.subs == nil {
		o.subs = map[int]func(Event){}
	}
	id := o.next
	o.next++
	o.subs[id] = fn
	o.on.Store(true)
	return func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		delete(o.subs, id)
		o.on.Store(len(o.subs) > 0)
	}
}

// event hands subscribers what they see of e (eventKinds' observe column).
func (o *observers) event(e *event) {
	f := eventKinds[e.kind].observe
	if f == nil || !o.on.Load() {
		return
	}
	ev := f(e)
	o.mu.Lock()
	fns := make([]func(Event), 0, len(o.subs))
	for _, fn := range o.subs {
		fns = append(fns, fn)
	}
	o.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

// taskEvent is the subscribers' event of kind for e's compile task.
func taskEvent(kind EventKind, e *event) Event {
	t := e.task
	return Event{Kind: kind, Method: t.Method.PrintName(), Level: Level(t.Level), At: e.at, CompileID: t.ID, BCI: t.BCI}
}

// firstStubCall wraps a decision's stub call so that its first use emits a
// first-stub event (per callee and calling level: the decision is cached per
// level). After that first call the wrapper costs one atomic load. fired is
// set once the first call has been noted.
func (vm *VM) firstStubCall(st *methodState, level Level, d Decision) (call stubCall, fired *atomic.Bool) {
	stub := d.call
	note := vm.ungatedNote(d.Intrinsic)
	fired = new(atomic.Bool)
	return func(ctx context.Context, args []Arg) (int64, error) {
		if !fired.Load() && fired.CompareAndSwap(false, true) {
			vm.emit(&event{kind: evFirstStub, at: vm.clock.Now(), st: st, level: level, d: &d, note: note})
		}
		return stub(ctx, args)
	}, fired
}

// ungatedNote says which intrinsic flags this VM turns off without closing
// intrinsic id's stub — e.g. JDK 25's combined GCM stub under
// -XX:-UseGHASHIntrinsics: that stub's gate is UseAESIntrinsics alone
// (x86), so a run without the GHASH intrinsic gets GHASH at stub speed
// once a C2 caller reaches implGCMCrypt0. Empty when no gate flag of the
// intrinsic table is off, or for a call that is no intrinsic.
func (vm *VM) ungatedNote(id Intrinsic) string {
	if id >= NumIntrinsics {
		return ""
	}
	own := id.Row().Gate
	var off []string
	for i := range intrinsics {
		for _, f := range intrinsics[i].Gate {
			if slices.Contains(own, f) || slices.Contains(off, "-XX:-"+f) {
				continue
			}
			if vm.set.Has(f) && !vm.set.Bool(f) {
				off = append(off, "-XX:-"+f)
			}
		}
	}
	if len(off) == 0 {
		return ""
	}
	return ", which " + strings.Join(off, " and ") + " does not turn off"
}

// Now returns the time on the VM's clock, the clock its events are stamped on.
func (vm *VM) Now() time.Duration { return vm.clock.Now() }

// Levels returns the level of the code each method called so far enters
// with (its current normal-entry code), keyed "Class::name". Methods never
// called are absent. OSR code does not change a method's entry level.
func (vm *VM) Levels() map[string]int {
	out := map[string]int{}
	for _, st := range vm.methods {
		if ci := st.entry.Load(); ci != nil {
			out[st.m.Class+"::"+st.m.Name] = int(ci.level)
		}
	}
	return out
}

// IntrinsicMethods returns the "Class::name" of every method of the JDK
// profile that is an intrinsic candidate, sorted: the methods whose level a
// warm-up study follows.
func (vm *VM) IntrinsicMethods() []string {
	var out []string
	for _, st := range vm.methods {
		if st.intr != NoIntrinsic {
			out = append(out, st.m.Class+"::"+st.m.Name)
		}
	}
	sort.Strings(out)
	return out
}
