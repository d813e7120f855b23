package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/runtime/heap"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// VM is one running jitsim virtual machine: the JDK profile's methods
// with their counters and code, HotSpot's tier policy, the compile queues
// and compiler threads, and the one dispatch point (Route/Bind). It is
// safe for concurrent use by any number of application threads.
type VM struct {
	cfg   Config
	jdk   jdk.Release
	set   *flags.Set
	env   routeEnv
	table *MethodTable
	heap  *heap.Heap // nil: arrays are copied into each call (Config.WithHeapSize)
	pol   *policy.Policy
	pcfg  policy.Config
	clock Clock
	sim   *modelClock // nil on the wall clock (modelclock.go)
	// compiling counts the wall clock's compiles between their start and their install
	// (CompilesPending); the model clock's are its inflight runs.
	compiling atomic.Int32
	out       *printer
	sinks     []sink // where emit sends events: out, the zap log, obs (events.go)

	tierFor [LevelFullOptimization + 1]Tier

	methods  []*methodState
	byMethod map[*Method]*methodState
	callees  calleeIndex // byMethod for the dispatch point (route.go)
	byPolicy map[*policy.Method]*methodState
	byName   map[string]*methodState

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	pools  [2]*compilerPool

	waitMu  sync.Mutex
	waiters map[*policy.Task]chan struct{}

	warnings []string

	internal atomic.Pointer[error] // a jitsim bug in a compiler thread (compile.go)

	obs observers // event subscribers (observe.go)

	threads   atomic.Int64
	closeOnce sync.Once
	closeErr  error
}

// methodState is the VM's per-method state: the policy's counters and
// levels (policy.Method), the current entry code, OSR codes, and the
// routing decisions for calls to it per caller level.
type methodState struct {
	m  *Method
	pm *policy.Method
	// inlineCmd is the compile command that decides inlining the method
	// wherever it is called (dontinline or exclude: never; inline: always),
	// nil when none does.
	inlineCmd *flags.CompileCommand
	intr      Intrinsic
	pred      func([]Arg) bool
	// route[level] is the cached decision for calls from code at level
	// (nil: not an intrinsic candidate).
	route [LevelFullOptimization + 1]*Decision
	// cost[level] prices one call of the method's own code at level on
	// the model clock (nil on the wall clock).
	cost *[LevelFullOptimization + 1]linearCost
	pay  model.PayloadRule // how a call's own payload bytes are found (model clock)
	span model.PayloadRule // the bytes a stub replacing the method covers (model clock)
	// loopBCI is the bytecode index of the method's OSR loop in the table's release,
	// when the table knows it (hasLoopBCI): read once, as every call feeds it to the policy.
	loopBCI    int
	hasLoopBCI bool

	entry    atomic.Pointer[codeInfo] // current normal-entry code; nil until first call
	interpMu sync.Mutex

	mu  sync.Mutex
	osr map[*policy.Code]*codeInfo
	all []*codeInfo // every code ever made, closed by VM.Close
}

// codeInfo is one code version of a method with the policy's handle.
type codeInfo struct {
	code   Code
	level  Level
	pc     *policy.Code // nil for the interpreter
	counts bool         // levels 0, 2, 3 count (NotifyMask != -1)
	fed    atomic.Uint64
}

// Thread is an application thread's handle. The VM does not need thread
// identity for correctness (every call is independent); it names the
// caller in events. On the model clock it is also a simulated thread with
// its own virtual time, which its goroutine joins with Enter and leaves
// with Exit (modelclock.go).
type Thread struct {
	ID   int64
	Name string

	vm      *VM
	sim     model.ThreadID
	entered bool
}

// ErrClosed is returned by calls into a closed VM.
var ErrClosed = errors.New("runtime: VM is closed")

// New starts a VM: it checks the configuration (every problem at once),
// builds the method table of the JDK profile with the intrinsic decisions
// per caller level, the policy and the compiler threads.
func New(cfg Config) (*VM, error) {
	var errs []error
	rel := cfg.JDK()
	model := cfg.model
	if !cfg.modelSet {
		m, err := cpu.Lookup("host")
		if err != nil {
			errs = append(errs, fmt.Errorf("runtime: host CPU model: %w", err))
		}
		model = m
	}
	set := cfg.set
	if set == nil {
		if !model.Arch.Valid() {
			errs = append(errs, fmt.Errorf("runtime: CPU model %s: jitsim models no flags for architecture %v", model.Name, model.Arch))
		}
		set = flags.Defaults(rel, model.Arch)
	} else if set.JDK() != rel {
		errs = append(errs, fmt.Errorf("runtime: flag set is for JDK %s, the VM for JDK %s", set.JDK(), rel))
	}
	vm := &VM{cfg: cfg, jdk: rel, set: set, waiters: map[*policy.Task]chan struct{}{}}
	vm.env = routeEnv{jdk: rel, set: set, model: model}
	for _, t := range cfg.tiers {
		if t == nil {
			errs = append(errs, errors.New("runtime: nil tier"))
			continue
		}
		for _, l := range t.Levels() {
			if l < LevelNone || l > LevelFullOptimization {
				errs = append(errs, fmt.Errorf("runtime: tier %s claims level %d", t.Name(), l))
				continue
			}
			if prev := vm.tierFor[l]; prev != nil {
				errs = append(errs, fmt.Errorf("runtime: tiers %s and %s both claim level %d", prev.Name(), t.Name(), l))
				continue
			}
			vm.tierFor[l] = t
		}
	}
	if vm.tierFor[LevelNone] == nil {
		errs = append(errs, errors.New("runtime: no tier for level 0 (the interpreter): configure tiers with WithTiers"))
	}
	table, err := bytecode.ForProfile(rel)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if !cfg.settled {
		// The VM works on its own copy: ergonomics settles the CPU- and
		// policy-derived values (vm_version, CompilationPolicy::initialize).
		set = set.Clone()
		w, err := ergo.Settle(set, model, cfg.activeProcessors(set))
		if err != nil {
			return nil, err
		}
		vm.warnings = w
		vm.set, vm.env.set = set, set
	}
	pcfg, err := policy.FromFlags(set)
	if err != nil {
		return nil, err
	}
	c1, c2, err := policy.CompilerCounts(cfg.activeProcessors(set), pcfg)
	if err != nil {
		return nil, err
	}
	pol, err := policy.New(pcfg, c1, c2)
	if err != nil {
		return nil, err
	}
	vm.table, vm.pol, vm.pcfg = table, pol, pcfg
	var heapErr error // reported once the sinks are wired
	if cfg.heapSize >= 0 {
		size := cfg.heapSize
		if size == 0 {
			size = heap.DefaultSize
		}
		if size > heap.MaxSize {
			return nil, fmt.Errorf("runtime: Java heap of %d bytes: at most %d (heap.MaxSize)", size, heap.MaxSize)
		}
		// A platform without the mappings, or a limit on address space,
		// leaves the VM without a heap: arrays are copied as Go slices are.
		if h, err := heap.New(size); err != nil {
			heapErr = err
		} else {
			vm.heap = h
		}
	}
	vm.clock = cfg.clock
	if cfg.costs != nil {
		if err := cfg.costs.Validate(); err != nil {
			return nil, fmt.Errorf("runtime: model clock: %w", err)
		}
		vm.sim = newModelClock(*cfg.costs)
		vm.clock = vm.sim.s.Clock()
	}
	if vm.clock == nil {
		vm.clock = WallClock()
	}
	if vm.out, err = newPrinter(cfg.out, set, rel, pol, vm.clock); err != nil {
		return nil, err
	}
	vm.sinks = []sink{vm.out, newLogSink(cfg.logger), &vm.obs}
	if heapErr != nil {
		vm.emit(&event{kind: evNoHeap, at: vm.clock.Now(), err: heapErr})
	}
	if vm.out.tieredEvents {
		// Only the printer shows the policy's trace: ask for it only then.
		pol.SetTrace(func(te policy.TieredEvent) { vm.emit(&event{kind: evTiered, at: te.Time, tiered: &te}) })
	}
	vm.buildMethods()
	pol.SetExcludeHook(func(x policy.Exclusion) {
		if st := vm.byPolicy[x.Method]; st != nil {
			vm.emit(&event{kind: evExcluded, at: x.Time, st: st, level: Level(x.Level)})
		}
	})
	vm.ctx, vm.cancel = context.WithCancel(context.Background())
	if vm.sim != nil {
		vm.sim.s.SetCores(cfg.activeProcessors(set))
		vm.startModelCompilers(c1, c2)
	} else {
		vm.startCompilers(c1, c2)
	}
	vm.emit(&event{kind: evVMStarted, at: vm.clock.Now(), rel: rel, cpu: model.Name, threads: [2]int{c1, c2}})
	return vm, nil
}

// methodInfo is what the policy learns of a method: its bytecode facts and
// what the compile commands say of it (exclude or a CompileOnly list that
// leaves it out; a per-method CompileThresholdScaling).
func (vm *VM) methodInfo(m *Method) policy.MethodInfo {
	info := policy.MethodInfo{
		Holder: m.Class, Name: m.Name, Signature: m.Descriptor, CodeSize: m.Size, HasLoops: m.OSR, NoOSR: !m.OSR,
	}
	if vm.set == nil {
		return info
	}
	_, info.Excluded = vm.set.CompileExcluded(m.Class, m.Name, m.Descriptor)
	if c, ok := vm.set.CompileCommandFor("CompileThresholdScaling", m.Class, m.Name, m.Descriptor); ok {
		info.ThresholdScaling = c.Float()
	}
	return info
}

// inlineCommand returns the compile command that decides whether m is
// inlined: an exclude or dontinline refuses it, an inline forces it (the
// refusals are looked at first; java's help calls the mix undefined).
func (vm *VM) inlineCommand(m *Method) *flags.CompileCommand {
	if vm.set == nil {
		return nil
	}
	for _, opt := range []string{"exclude", "dontinline", "inline"} {
		if c, ok := vm.set.CompileCommandFor(opt, m.Class, m.Name, m.Descriptor); ok && c.Bool() {
			return &c
		}
	}
	return nil
}

// buildMethods creates the per-method state and the cached routing
// decisions (per callee and caller level: the decision does not depend on
// the caller method, so this is the per-site cache with every site of one
// callee sharing it).
func (vm *VM) buildMethods() {
	ms := vm.table.Methods()
	vm.byMethod = make(map[*Method]*methodState, len(ms))
	vm.byPolicy = make(map[*policy.Method]*methodState, len(ms))
	vm.byName = make(map[string]*methodState, 3*len(ms))
	for _, m := range ms {
		st := &methodState{
			m:         m,
			pm:        policy.NewMethod(vm.methodInfo(m)),
			inlineCmd: vm.inlineCommand(m),
			intr:      intrinsicOf(m),
			osr:       map[*policy.Code]*codeInfo{},
		}
		st.loopBCI, st.hasLoopBCI = m.LoopBCI(vm.table.Profile)
		if vm.sim != nil {
			vm.sim.priceJava(st)
		}
		if st.intr != NoIntrinsic {
			st.pred = st.intr.Row().Predicate
			for l := LevelNone; l <= LevelFullOptimization; l++ {
				d := decide(&vm.env, st.intr, m, l)
				if d.call != nil {
					first, fired := vm.firstStubCall(st, l, d)
					d.first, d.call, d.blocks = first, first, stubBlocks(first, d.batch)
					if vm.sim != nil {
						d.call, d.blocks = vm.modelStubCall(st, d, d.Variant.Stub, first, d.batch)
					} else if d.mkFrame != nil {
						d.frame = d.mkFrame(fired)
					}
				}
				st.route[l] = &d
				vm.emit(&event{kind: evRoute, at: vm.clock.Now(), st: st, level: l, d: &d})
				if d.Stub && d.Impl.Name != d.Variant.Name && l == LevelFullOptimization {
					vm.emit(&event{kind: evGenericTwin, at: vm.clock.Now(), st: st, level: l, d: &d})
				}
			}
		}
		vm.methods = append(vm.methods, st)
		vm.byMethod[m] = st
		vm.byPolicy[st.pm] = st
		vm.byName[m.Key] = st
		vm.byName[m.String()] = st
		vm.byName[m.Class+"::"+m.Name] = st
	}
	vm.callees.build(vm.methods)
}

func implName(d Decision) string {
	if !d.Stub {
		return "java"
	}
	return d.Impl.Stub + "/" + d.Impl.Name
}

// lookup finds a method by key ("GHASH.processBlocks") or "Class::name".
func (vm *VM) lookup(name string) (*methodState, error) {
	if st, ok := vm.byName[name]; ok {
		return st, nil
	}
	return nil, fmt.Errorf("runtime: JDK %s has no method %q (use Class.method or Class::method)", vm.jdk, name)
}

// Method returns the method named name (key "GHASH.processBlocks" or
// "GHASH::processBlocks").
func (vm *VM) Method(name string) (*Method, error) {
	st, err := vm.lookup(name)
	if err != nil {
		return nil, err
	}
	return st.m, nil
}

// Flags returns the VM's settled flag values (after ergonomics).
func (vm *VM) Flags() *flags.Set { return vm.set }

// Warnings returns the ergonomics warnings New produced, without HotSpot's
// "OpenJDK 64-Bit Server VM warning: " prefix.
func (vm *VM) Warnings() []string { return append([]string(nil), vm.warnings...) }

// Table returns the JDK profile's method table.
func (vm *VM) Table() *MethodTable { return vm.table }

// Policy returns the VM's tier policy (read-only use: levels, counts).
func (vm *VM) Policy() *policy.Policy { return vm.pol }

// Level returns the level of a method's current normal-entry code and
// whether a compile of it is queued or running.
func (vm *VM) Level(name string) (Level, bool, error) {
	st, err := vm.lookup(name)
	if err != nil {
		return 0, false, err
	}
	l, q := vm.pol.Level(st.pm)
	return Level(l), q, nil
}

// NewThread returns a handle for an application thread. On the model
// clock it is also a new simulated thread starting at the VM's current
// virtual time (the creator's), which holds back every thread later in
// virtual time until its goroutine calls Enter.
func (vm *VM) NewThread(name string) *Thread {
	id := vm.threads.Add(1)
	if name == "" {
		name = fmt.Sprintf("Thread-%d", id)
	}
	th := &Thread{ID: id, Name: name, vm: vm}
	if vm.sim != nil {
		th.sim = vm.sim.s.NewThread(name, vm.sim.s.Current())
	}
	return th
}

// CallAs is a call from Java code the VM does not model (the provider, a
// scenario) into method, a *Method or its name ("GHASH.processBlocks",
// "GHASH::processBlocks"), made through the dispatch point as from code at
// the callee's current level: the callee is counted and its current code
// runs, or the stub that replaces it at that level. th names the calling thread and may be nil; on the model clock the
// call is charged to the running (entered) thread, which must be th.
func (vm *VM) CallAs(ctx context.Context, th *Thread, method any, args []Arg) (int64, error) {
	var st *methodState
	var sl *calleeSlot
	switch m := method.(type) {
	case *Method:
		if sl = vm.callees.slot(m); sl != nil { // the dispatch point's index: no map lookup per call
			st = sl.st
		}
		if st == nil {
			return 0, fmt.Errorf("runtime: %v is not a method of JDK %s", m, vm.jdk)
		}
	case string:
		var err error
		if st, err = vm.lookup(m); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("runtime: Call wants a *Method or a method name, not %T", method)
	}
	if vm.sim != nil && th != nil && th.vm == vm {
		if h, ok := vm.sim.s.Holder(); !ok || h != th.sim || !th.entered {
			return 0, fmt.Errorf("runtime: model clock: thread %s calls %s without holding the turn (call Thread.Enter in its goroutine first)", th.Name, st.m)
		}
	}
	// An entry call comes from the provider glue (CipherCore and its
	// callers), Java code jitsim does not run. That glue warms up with the
	// code it calls, so its call site is taken to run at the callee's
	// current level and goes through the one dispatch point like any other:
	// once an intrinsic is allowed at that level, the glue's call is served
	// by the stub, as C2-compiled CipherCore calls JDK 8's
	// CipherBlockChaining.encrypt stub. (The model clock prices the glue the
	// same way: the call row of the callee's level.)
	if ci := st.entry.Load(); ci != nil {
		if sl != nil {
			return vm.routeSlot(ctx, sl, ci.level, args)
		}
		return vm.Route(ctx, Site{Level: ci.level, Callee: st.m}, args)
	}
	return vm.invoke(ctx, st, args)
}

// Call is CallAs for a *Method without a thread handle; it satisfies the
// provider's jce.Invoker.
//
// It is CallAs's path for a *Method with no thread to check, taken without
// boxing m into CallAs's any: the provider makes every call of an
// operation through it.
func (vm *VM) Call(ctx context.Context, m *Method, args []Arg) (int64, error) {
	sl := vm.callees.slot(m)
	if sl == nil || sl.st == nil {
		return vm.CallAs(ctx, nil, m, args) // its error
	}
	if ci := sl.st.entry.Load(); ci != nil {
		return vm.routeSlot(ctx, sl, ci.level, args)
	}
	return vm.invoke(ctx, sl.st, args)
}

// current returns the method's normal-entry code, creating its
// interpreter code on first use (the interpreter needs no queue).
func (vm *VM) current(ctx context.Context, st *methodState) (*codeInfo, error) {
	if ci := st.entry.Load(); ci != nil {
		return ci, nil
	}
	st.interpMu.Lock()
	defer st.interpMu.Unlock()
	if ci := st.entry.Load(); ci != nil {
		return ci, nil
	}
	if vm.ctx.Err() != nil {
		return nil, ErrClosed
	}
	ci := &codeInfo{level: LevelNone, counts: true}
	code, err := vm.tierFor[LevelNone].Compile(ctx, vm.request(st, ci))
	if err != nil {
		return nil, fmt.Errorf("runtime: interpreting %s: %w", st.m, err)
	}
	ci.code = code
	st.mu.Lock()
	st.all = append(st.all, ci)
	st.mu.Unlock()
	st.entry.CompareAndSwap(nil, ci)
	return st.entry.Load(), nil
}

// request builds the compile request for st at ci.level.
func (vm *VM) request(st *methodState, ci *codeInfo) CompileRequest {
	log := -1
	if vm.pcfg.UseOnStackReplacement && st.m.OSR {
		switch ci.level {
		case LevelNone:
			log = int(vm.pcfg.Tier0BackedgeNotifyFreqLog)
		case LevelLimitedProfile:
			log = int(vm.pcfg.Tier2BackedgeNotifyFreqLog)
		case LevelFullProfile:
			log = int(vm.pcfg.Tier3BackedgeNotifyFreqLog)
		}
	}
	return CompileRequest{
		Method: st.m, Level: ci.level, Table: vm.table, Router: vm,
		BackedgeNotifyFreqLog: log, OnBackedge: vm.onBackedge(st, ci), Heap: vm.heap,
	}
}

// invoke counts a call to st (at the level of the code that runs it),
// lets the policy react at notification points, and runs the current code.
// The caller's level is not known (CallAs: code the VM does not model).
func (vm *VM) invoke(ctx context.Context, st *methodState, args []Arg) (int64, error) {
	return vm.invokeFrom(ctx, st, args, levelUnknown)
}

// invokeFrom is invoke for a call from code at level caller; on the model
// clock the call is charged (its own code's cost at its level plus a call
// from the caller's tier) before the code runs.
func (vm *VM) invokeFrom(ctx context.Context, st *methodState, args []Arg, caller Level) (int64, error) {
	if p := vm.internal.Load(); p != nil {
		return 0, *p
	}
	ci, err := vm.current(ctx, st)
	if err != nil {
		return 0, err
	}
	if ci.counts {
		d := vm.pol.InvokeAt(st.pm, ci.level, vm.clock.Now)
		if d.Task != nil {
			if err := vm.submit(ctx, d.Task); err != nil {
				return 0, err
			}
			if ci, err = vm.current(ctx, st); err != nil {
				return 0, err
			}
		}
	}
	if vm.sim != nil {
		if err := vm.chargeJava(st, ci.level, caller, args); err != nil {
			return 0, err
		}
	}
	ret, err := ci.code.Invoke(ctx, args)
	if ci.counts {
		if _, ferr := vm.feed(ctx, st, ci, ci.code.Counters(), vm.loopBCI(st, 0)); ferr != nil && err == nil {
			err = ferr
		}
	}
	return ret, err
}

// feed hands the back-edges code counted since the last feed to the
// policy, one Backedge per back-edge (the policy counts them and notifies
// at its mask), and returns the OSR code the policy says to enter.
func (vm *VM) feed(ctx context.Context, st *methodState, ci *codeInfo, c Counters, bci int) (*policy.Code, error) {
	var delta uint64
	for {
		prev := ci.fed.Load()
		if c.Backedges <= prev {
			return nil, nil
		}
		if ci.fed.CompareAndSwap(prev, c.Backedges) {
			delta = c.Backedges - prev
			break
		}
	}
	// The time of the back-edges, read at the first notification point (if
	// any) and kept for the others: a blocking compile there may move the
	// model clock, not the time the loop ran at.
	var now time.Duration
	read := false
	at := func() time.Duration {
		if !read {
			now, read = vm.clock.Now(), true
		}
		return now
	}
	lvl := ci.level
	var osr *policy.Code
	for delta > 0 {
		n, d := vm.pol.Backedges(st.pm, lvl, bci, delta, at)
		delta -= n
		if d.Task != nil {
			if err := vm.submit(ctx, d.Task); err != nil {
				return nil, err
			}
			if d.Task.Blocking && d.Task.IsOSR() {
				if c := vm.pol.OSREntry(st.pm, bci, lvl); c != nil {
					osr = c
				}
			}
		}
		if d.OSR != nil {
			osr = d.OSR
		}
	}
	return osr, nil
}

// loopBCI is the bci the policy knows loop number loop of st's method by:
// its header's Java bytecode index, as HotSpot names an OSR compile's loop
// (bytecode.Method.LoopBCI; every body has one loop, number 0). A body
// without an observed index keeps the loop number.
func (vm *VM) loopBCI(st *methodState, loop int) int {
	if st.hasLoopBCI && loop == 0 {
		return st.loopBCI
	}
	return loop
}

// onBackedge is the handler code calls at its back-edge notification
// points: feed the counts, and continue the loop in OSR code if the
// policy has some for this loop.
func (vm *VM) onBackedge(st *methodState, ci *codeInfo) BackedgeHandler {
	return func(ctx context.Context, code Code, loop int, c Counters) (Code, error) {
		osr, err := vm.feed(ctx, st, ci, c, vm.loopBCI(st, loop))
		if err != nil || osr == nil {
			return nil, err
		}
		st.mu.Lock()
		target := st.osr[osr]
		st.mu.Unlock()
		if target == nil || target == ci {
			return nil, nil
		}
		return target.code, nil
	}
}

// Close stops the compiler threads (waiting for running compiles), then
// releases every code. Calls running at that moment may fail. A jitsim
// bug caught in a compiler thread is returned here too. On the model
// clock, compiles still queued or running in virtual time are dropped, as
// a JVM exits without waiting for its compiler threads.
func (vm *VM) Close() error {
	vm.closeOnce.Do(func() {
		vm.cancel()
		vm.wg.Wait()
		vm.waitMu.Lock()
		for t, ch := range vm.waiters {
			select {
			case <-ch:
			default:
				close(ch)
			}
			delete(vm.waiters, t)
		}
		vm.waitMu.Unlock()
		var errs []error
		for _, st := range vm.methods {
			st.mu.Lock()
			for _, ci := range st.all {
				if err := ci.code.Close(context.Background()); err != nil {
					errs = append(errs, err)
				}
			}
			st.all = nil
			st.mu.Unlock()
		}
		if vm.sim != nil {
			errs = append(errs, vm.sim.closeInflight()...)
		}
		if vm.heap != nil {
			if err := vm.heap.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		if err := vm.out.close(vm.clock.Now()); err != nil {
			errs = append(errs, err)
		}
		if p := vm.internal.Load(); p != nil {
			errs = append(errs, *p)
		}
		vm.closeErr = errors.Join(errs...)
	})
	return vm.closeErr
}
