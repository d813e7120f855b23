// Package engine is the machinery the three tiers share: one wazero runtime
// per compiled code, the "jvm" host module through which a method's calls
// to other methods reach the runtime's Router, the generic table-driven
// argument marshaller, instance pools, counter harvesting and OSR transfer.
// tiers/interp, tiers/c1 and tiers/c2 differ only in the engine kind, the
// build they run and whether call sites are bound at link time.
package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/jitsim/jitsim/bytecode"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/heap"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Options configure how a tier compiles.
type Options struct {
	// Compiler selects wazero's optimizing compiler; false is its interpreter.
	Compiler bool
	// BindAtLink resolves every call site once at compile time through the
	// router's jrt.Binder (C2), instead of routing each call (interpreter, C1).
	BindAtLink bool
	// Unrolled compiles the None build's unrolled twin (bytecode.Method.Unrolled): C2's
	// loop unrolling. The builds with counters have none.
	Unrolled bool
	// Cache is a compilation cache, for tests only: a cache hit turns a
	// measured compile into a lookup and would fake the warm-up.
	Cache wazero.CompilationCache
	// MemoryLimitPages bounds each instance's memory (64 KiB pages); 0 = 1024.
	// With a Java heap (CompileRequest.Heap) the instance's own part is
	// heap.Base bytes, whatever this says, and the heap is mapped above it.
	MemoryLimitPages uint32
}

// Code is a method compiled for one level; it implements jrt.Code.
type Code struct {
	// What every Invoke and host call reads comes first, in few cache lines:
	// between two calls the stub's stream through the data cache has evicted
	// them, and each line is a miss.
	hot     atomic.Pointer[instance] // one idle instance, taken without the lock
	shut    atomic.Bool              // Close has begun: no instance is handed out or kept
	charge  bool                     // inlined calls report themselves (INLINE_CHARGE)
	build   bytecode.Build
	level   jrt.Level
	m       *bytecode.Method
	heap    *heap.Heap // mapped at heap.Base in every instance; nil: none
	plan    []slot     // the method's parameters, for layout
	inlined []int      // inline slots switched on in every instance (sorted)
	imports []site     // by import index: what a host call of the import reads
	argPool sync.Pool  // *[]jrt.Arg scratch for host calls

	req         jrt.CompileRequest
	rt          wazero.Runtime
	cm          wazero.CompiledModule
	compileTime time.Duration
	callees     []*bytecode.Method // by import index
	callers     []*bytecode.Method // by import index: the method whose body makes the call
	blocksOn    bool               // every "jvm.blocks" import is bound: BLOCKS_ON in each instance
	unrolled    bool               // the None build's unrolled twin (Options.Unrolled)
	wasm        []byte             // the module compiled: the build, or the inline module
	inl         jrt.Inliner        // the router, which charges them (when charge)
	argLimit    uint32             // copied arguments end below this address

	mu     sync.Mutex
	free   []*instance
	closed bool

	invocations, backedges atomic.Uint64
	branches               [bytecode.NumBranchCounters]atomic.Uint64
	sites                  [bytecode.NumSiteCounters]atomic.Uint64
}

type instance struct {
	mod        api.Module
	mem        api.Memory
	fn, osr    api.Function
	stack      []uint64
	lastInv    uint32
	lastBe     uint32
	regions    []region
	argOffsets []uint32
	heap       bool // the Java heap is mapped at heap.Base (see get)
	// buf is the whole linear memory when it never moves (an instance with the
	// heap mapped: one fixed buffer, see heapMemory), nil otherwise: the
	// control block and the profile are then read and written in it directly
	// instead of through api.Memory's bounds-checked calls.
	buf []byte
}

// site is one import of the code, resolved when the code is linked (as
// HotSpot resolves a call site once): its callee, the callee's parameter
// plan, and the targets bound to it. A host call reads this one record
// instead of four slices indexed by the import.
type site struct {
	callee *bytecode.Method
	plan   []slot
	bound  jrt.Target      // when bound at link time; nil: routed per call
	frame  jrt.FrameTarget // bound's stub reading the caller's stack, when the router has one
	blocks jrt.BlockTarget // batched calls ("jvm.blocks"), when bound
	caller *bytecode.Method
}

// slot is what the per-call paths need of one parameter (bytecode.Param),
// decided once per code; planOf makes a method's.
type slot struct {
	kind  bytecode.Kind
	elem  uint32 // element size of an array kind, 0 for scalars
	shift uint8  // log2(elem)
	long  bool
	out   bool // Out or InOut
}

func planOf(m *bytecode.Method) []slot {
	out := make([]slot, len(m.Params))
	for i, p := range m.Params {
		out[i] = slot{kind: p.Kind, long: p.Kind == bytecode.Long, out: p.Dir != bytecode.In}
		if p.Kind.IsArray() {
			out[i].elem = uint32(p.Kind.ElemSize())
			out[i].shift = uint8(bits.TrailingZeros32(out[i].elem))
			if out[i].elem != 1<<out[i].shift {
				panic(fmt.Sprintf("BUG: %s: element size %d is not a power of two", p.Kind, out[i].elem))
			}
		}
	}
	return out
}

type region struct {
	data []byte
	off  uint32
	out  bool
}

// hostPanic carries an error out of a host function through wazero.
type hostPanic struct{ err error }

func (h *hostPanic) Error() string { return h.err.Error() }
func (h *hostPanic) Unwrap() error { return h.err }

// Compile builds code for req.Method at req.Level: a fresh wazero runtime
// with the "jvm" host module for the method's imports, then CompileModule
// of the level's build, timed.
func Compile(ctx context.Context, req jrt.CompileRequest, opts Options) (*Code, error) {
	m := req.Method
	if m == nil || req.Table == nil || req.Router == nil {
		return nil, errors.New("engine: compile request needs Method, Table and Router")
	}
	build, err := bytecode.BuildForLevel(int(req.Level))
	if err != nil {
		return nil, err
	}
	c := &Code{m: m, level: req.Level, build: build, req: req, heap: req.Heap, plan: planOf(m),
		unrolled: opts.Unrolled && build == bytecode.None}
	c.argPool.New = func() any { s := make([]jrt.Arg, 0, 16); return &s }

	var cfg wazero.RuntimeConfig
	if opts.Compiler {
		cfg = wazero.NewRuntimeConfigCompiler()
	} else {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	limit := opts.MemoryLimitPages
	if limit == 0 {
		limit = 1024
	}
	c.argLimit = limit << 16
	if c.heap != nil {
		limit = uint32((heap.Base + uint64(c.heap.Size())) >> 16)
		c.argLimit = heap.Base
	}
	// No WithCloseOnContextDone: it costs 3-4x on loops in the compiler;
	// the host function checks ctx between calls instead.
	cfg = cfg.WithCloseOnContextDone(false).WithMemoryLimitPages(limit)
	if opts.Cache != nil {
		cfg = cfg.WithCompilationCache(opts.Cache)
	}
	c.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	imports, blocks, err := c.chooseModule()
	if err != nil {
		_ = c.rt.Close(ctx)
		return nil, err
	}
	if err := c.link(ctx, opts, imports, blocks); err != nil {
		_ = c.rt.Close(ctx)
		return nil, err
	}
	if c.inlined != nil {
		if err := c.linkCharge(ctx); err != nil {
			_ = c.rt.Close(ctx)
			return nil, err
		}
	}
	// PrintInlining for the levels that inline (1, 2, 4); level 3's calls
	// all go through the dispatcher (runtime.VM.Inline).
	if inl, ok := req.Router.(jrt.Inliner); ok && req.Level != jrt.LevelNone && req.Level != jrt.LevelFullProfile && len(m.Imports) > 0 {
		inl.PrintInlining(m, req.Level)
	}
	start := time.Now()
	cm, err := c.rt.CompileModule(ctx, c.wasm)
	c.compileTime = time.Since(start)
	if err != nil {
		_ = c.rt.Close(ctx)
		return nil, fmt.Errorf("engine: compiling %s at level %d: %w", m, req.Level, err)
	}
	c.cm = cm
	return c, nil
}

// chooseModule picks the module to compile: the level's build, or, when
// the build has an inline module (None: levels 1 and 4; Limited: level 2)
// and the router inlines at least one call the method's body reaches, the
// inline module with those calls' switches on (src/jvm.h INLINE_ON). It
// returns the module's imports.
func (c *Code) chooseModule() (imports, blocks []string, err error) {
	c.wasm = c.m.Wasm(c.build)
	if c.unrolled {
		c.wasm = c.m.Unrolled()
	}
	if c.build == bytecode.None {
		blocks = c.m.Blocks
	}
	inl, ok := c.req.Router.(jrt.Inliner)
	if !ok || (c.build != bytecode.None && c.build != bytecode.Limited) || c.level == jrt.LevelNone || len(c.m.Imports) == 0 {
		return c.m.Imports, blocks, nil
	}
	ib := c.m.Inline(c.req.Table.Profile, c.build)
	if ib == nil {
		return nil, nil, fmt.Errorf("engine: %s has no inline module for JDK %s", c.m, c.req.Table.Profile)
	}
	callers, err := c.callerOf(ib.Imports)
	if err != nil {
		return nil, nil, err
	}
	var on []int
	for _, key := range ib.Imports {
		callee, err := c.req.Table.Lookup(key)
		if err != nil {
			return nil, nil, err
		}
		if !inl.Inline(jrt.Site{Caller: callers[key], Level: c.level, Callee: callee}).Inline {
			continue
		}
		slot, ok := bytecode.InlineSlot(key)
		if !ok || slot >= bytecode.MaxInlineSlots {
			panic(fmt.Sprintf("BUG: %s has no inline slot", key))
		}
		on = append(on, slot)
	}
	if len(on) == 0 {
		return c.m.Imports, blocks, nil
	}
	slices.Sort(on)
	c.wasm, c.inlined = ib.Wasm, on
	if c.unrolled {
		c.wasm = ib.Unrolled()
	}
	c.charge = inl.ChargesInlined()
	return ib.Imports, ib.Blocks, nil
}

// linkCharge instantiates the "jitsim" host module of an inline module:
// charges(), which the code calls when its list of inlined calls not yet
// charged is full (src/jvm.h INLINE_CHARGES, set up when INLINE_CHARGE is
// set); the list goes to the router's Inliner (reportCharges).
func (c *Code) linkCharge(ctx context.Context) error {
	c.inl = c.req.Router.(jrt.Inliner)
	charges := api.GoModuleFunc(func(ctx context.Context, mod api.Module, _ []uint64) {
		if err := c.reportCharges(ctx, mod.Memory()); err != nil {
			panic(&hostPanic{err})
		}
	})
	_, err := c.rt.NewHostModuleBuilder("jitsim").NewFunctionBuilder().
		WithGoModuleFunction(charges, nil, nil).Export("charges").
		Instantiate(ctx)
	if err != nil {
		return fmt.Errorf("engine: linking %s: %w", c.m, err)
	}
	return nil
}

// reportCharges hands the inlined calls the code noted in mem since the
// last report (src/jvm.h INLINE_CHARGES) to the Inliner, run by run, and
// empties the list. The engine calls it when the code hands the list over,
// before it serves a call from the code and when the code returns, so the
// router sees every inlined call charged before anything the code does
// after it that the router can see.
func (c *Code) reportCharges(ctx context.Context, mem api.Memory) error {
	n, ok := mem.ReadUint32Le(bytecode.InlineChargesLenAddr)
	if !ok || n == 0 {
		return nil
	}
	mem.WriteUint32Le(bytecode.InlineChargesLenAddr, 0)
	if n > bytecode.MaxInlineCharges {
		return fmt.Errorf("%s: %d runs of inlined calls noted, the list holds %d", c.m, n, bytecode.MaxInlineCharges)
	}
	list, ok := mem.Read(bytecode.InlineChargesAddr, n*bytecode.InlineChargeSize)
	if !ok {
		panic("BUG: the list of inlined calls outside memory")
	}
	for i := range int(n) {
		e := list[i*bytecode.InlineChargeSize:]
		slot := int(int32(binary.LittleEndian.Uint32(e)))
		callee, err := c.req.Table.Slot(slot)
		if err != nil {
			if _, ok := bytecode.SlotKey(slot); !ok {
				err = fmt.Errorf("%s: inlined call reports slot %d", c.m, slot)
			}
			return err
		}
		payload, count := int(int32(binary.LittleEndian.Uint32(e[4:]))), int(binary.LittleEndian.Uint32(e[8:]))
		if err := c.inl.ChargeInlinedCall(ctx, callee, c.level, payload, count); err != nil {
			return err
		}
	}
	return nil
}

// callerOf maps each key the inline module reaches to the first method (in
// breadth-first order from the compiled method) whose body calls it.
func (c *Code) callerOf(keys []string) (map[string]*bytecode.Method, error) {
	callers := map[string]*bytecode.Method{}
	work := []*bytecode.Method{c.m}
	for len(work) > 0 {
		m := work[0]
		work = work[1:]
		for _, k := range m.Imports {
			if _, seen := callers[k]; seen {
				continue
			}
			callee, err := c.req.Table.Lookup(k)
			if err != nil {
				return nil, err
			}
			callers[k] = m
			work = append(work, callee)
		}
	}
	for _, k := range keys {
		if callers[k] == nil {
			return nil, fmt.Errorf("engine: the inline module of %s imports %s, which its callees do not call", c.m, k)
		}
	}
	return callers, nil
}

// link instantiates the "jvm" host module: one host function per import,
// all served by hostCall, and the "jvm.blocks" module of the batched calls
// (hostBlocks), and binds call sites when asked.
func (c *Code) link(ctx context.Context, opts Options, imports, blocks []string) error {
	b := c.rt.NewHostModuleBuilder("jvm")
	callers, err := c.callerOf(imports)
	if err != nil {
		return err
	}
	c.imports = make([]site, len(imports)) // never grown: each host function keeps its record's address
	for i, key := range imports {
		callee, err := c.req.Table.Lookup(key)
		if err != nil {
			return err
		}
		c.callees = append(c.callees, callee)
		c.callers = append(c.callers, callers[key])
		c.imports[i] = site{callee: callee, plan: planOf(callee), caller: callers[key]}
		params, results := signature(callee)
		b.NewFunctionBuilder().WithGoModuleFunction(c.hostCall(&c.imports[i]), params, results).Export(key)
	}
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("engine: linking %s: %w", c.m, err)
	}
	batched := make([]int, 0, len(blocks)) // import indexes of blocks
	if len(blocks) > 0 {
		bb := c.rt.NewHostModuleBuilder("jvm.blocks")
		for _, key := range blocks {
			i := slices.Index(imports, key)
			if i < 0 {
				return fmt.Errorf("engine: %s imports jvm.blocks.%s without jvm.%s", c.m, key, key)
			}
			params, results := signature(c.callees[i])
			if results != nil {
				return fmt.Errorf("engine: %s imports jvm.blocks.%s, whose method returns a value", c.m, key)
			}
			bb.NewFunctionBuilder().WithGoModuleFunction(c.hostBlocks(&c.imports[i], len(params)), append(params, api.ValueTypeI32), nil).Export(key)
			batched = append(batched, i)
		}
		if _, err := bb.Instantiate(ctx); err != nil {
			return fmt.Errorf("engine: linking %s: %w", c.m, err)
		}
	}
	if opts.BindAtLink {
		binder, ok := c.req.Router.(jrt.Binder)
		if ok {
			for i, callee := range c.callees {
				t, err := binder.Bind(ctx, jrt.Site{Caller: c.callers[i], Level: c.level, Callee: callee, Loop: c.streamLoop(callee.Key)})
				if err != nil {
					return fmt.Errorf("engine: binding %s -> %s: %w", c.m, callee, err)
				}
				c.imports[i].bound = t
			}
			c.bindFrames()
			c.bindBlocks(batched)
		}
	}
	return nil
}

// streamLoop returns the method inlined into this code whose loop calls key once per block
// on independent blocks (bytecode.Method.Stream), or nil: the loop whose calls the import's
// one binding serves (jrt.Site.Loop).
func (c *Code) streamLoop(key string) *bytecode.Method {
	for _, slot := range c.inlined {
		k, ok := bytecode.SlotKey(slot)
		if !ok {
			continue
		}
		m, err := c.req.Table.Lookup(k)
		if err == nil && m.Stream != nil && m.Stream.Callee == key && slices.Contains(m.Imports, key) {
			return m
		}
	}
	return nil
}

// bindBlocks binds the batched calls (imports at the indexes batched) for
// BlockTargets; BLOCKS_ON is set in each instance when every one is bound
// and none is inlined, which would run its body instead.
func (c *Code) bindBlocks(batched []int) {
	bb, ok := c.req.Router.(jrt.BlockBinder)
	if !ok || len(batched) == 0 {
		return
	}
	for _, i := range batched {
		if slot, ok := bytecode.InlineSlot(c.callees[i].Key); ok && slices.Contains(c.inlined, slot) {
			return
		}
		t, ok := bb.BindBlocks(jrt.Site{Caller: c.callers[i], Level: c.level, Callee: c.callees[i], Loop: c.streamLoop(c.callees[i].Key)})
		if !ok {
			return
		}
		c.imports[i].blocks = t
	}
	c.blocksOn = true
}

// bindFrames binds the imports whose calls a stub can take from the
// calling code's stack (jrt.FrameBinder), for instances that map the Java
// heap: each such call then skips the argument list hostCall builds.
func (c *Code) bindFrames() {
	fb, ok := c.req.Router.(jrt.FrameBinder)
	if !ok || c.heap == nil {
		return
	}
	for i := range c.imports {
		s := &c.imports[i]
		if t, ok := fb.BindFrame(jrt.Site{Caller: s.caller, Level: c.level, Callee: s.callee, Loop: c.streamLoop(s.callee.Key)}); ok {
			s.frame = t
		}
	}
}

// signature is the wasm signature of a method (bytecode ABI).
func signature(m *bytecode.Method) (params, results []api.ValueType) {
	for _, p := range m.Params {
		switch {
		case p.Kind.IsArray():
			params = append(params, api.ValueTypeI32, api.ValueTypeI32)
		case p.Kind == bytecode.Long:
			params = append(params, api.ValueTypeI64)
		default:
			params = append(params, api.ValueTypeI32)
		}
	}
	if m.Result != bytecode.Void {
		results = []api.ValueType{api.ValueTypeI32}
	}
	return params, results
}

// hostCall is the one host function behind every import: it builds views
// of the caller's arrays in the caller's memory (no copy) and hands the
// call to the runtime's router (or the target bound at link time).
func (c *Code) hostCall(s *site) api.GoModuleFunc {
	return func(ctx context.Context, mod api.Module, stack []uint64) {
		if err := ctx.Err(); err != nil {
			panic(&hostPanic{err})
		}
		if c.charge {
			if err := c.reportCharges(ctx, mod.Memory()); err != nil {
				panic(&hostPanic{err})
			}
		}
		callee, plan := s.callee, s.plan
		if s.frame != nil && c.heap != nil {
			mem := mod.Memory()
			// An instance that maps the heap reaches past heap.Base; its memory does not
			// move while the stub runs.
			if all, ok := mem.Read(0, mem.Size()); ok && len(all) > heap.Base {
				if ret, done := s.frame(ctx, stack, all, c.heap); done {
					if callee.Result != bytecode.Void {
						stack[0] = uint64(uint32(int32(ret)))
					}
					return
				}
			}
		}
		ap := c.argPool.Get().(*[]jrt.Arg)
		args := slices.Grow((*ap)[:0], len(plan))[:len(plan)]
		c.decode(mod.Memory(), s, stack, args)
		var ret int64
		var err error
		if s.bound != nil {
			ret, err = s.bound(ctx, args)
		} else {
			ret, err = c.req.Router.Route(ctx, jrt.Site{Caller: s.caller, Level: c.level, Callee: callee}, args)
		}
		clear(args)
		*ap = args[:0]
		c.argPool.Put(ap)
		if err != nil {
			panic(&hostPanic{err})
		}
		if callee.Result != bytecode.Void {
			stack[0] = uint64(uint32(int32(ret)))
		}
	}
}

// hostBlocks is the host function behind the "jvm.blocks" import of the
// callee at import index idx (src/jvm.h BLOCKS_ON): the callee's wasm
// parameters (nparams of them) and n; each byte array holds the n calls'
// arrays one after another, every other argument is the same for all n,
// as the site's BlockTarget takes them.
func (c *Code) hostBlocks(s *site, nparams int) api.GoModuleFunc {
	return func(ctx context.Context, mod api.Module, stack []uint64) {
		if err := ctx.Err(); err != nil {
			panic(&hostPanic{err})
		}
		if c.charge {
			if err := c.reportCharges(ctx, mod.Memory()); err != nil {
				panic(&hostPanic{err})
			}
		}
		callee, plan, t := s.callee, s.plan, s.blocks
		n := int(int32(uint32(stack[nparams])))
		if t == nil || n <= 0 {
			panic(&hostPanic{fmt.Errorf("%s -> %s: %d batched calls of a site not bound for them", c.m, callee, n)})
		}
		ap := c.argPool.Get().(*[]jrt.Arg)
		args := slices.Grow((*ap)[:0], len(plan))[:len(plan)]
		c.decode(mod.Memory(), s, stack, args)
		err := t(ctx, args, n)
		clear(args)
		*ap = args[:0]
		c.argPool.Put(ap)
		if err != nil {
			panic(&hostPanic{err})
		}
	}
}

// decode reads the arguments of a call through import s from the wasm
// stack into args (len(args) is the callee's parameter count): views of
// the caller's arrays in the caller's memory, no copy.
func (c *Code) decode(mem api.Memory, s *site, stack []uint64, args []jrt.Arg) {
	callee, plan := s.callee, s.plan
	j := 0
	mapped := 0 // 1: the instance maps the heap (only a mapped one reaches Base), -1: not; 0: not asked yet
	for i := range plan {
		p := &plan[i]
		switch {
		case p.elem != 0:
			ptr, n := uint32(stack[j]), uint32(stack[j+1])
			j += 2
			if ptr == 0 {
				args[i] = jrt.Arg{Kind: p.kind, Null: true}
				continue
			}
			var view []byte
			var ok bool
			if ptr >= heap.Base && mapped == 0 {
				mapped = -1
				if c.heap != nil && mem.Size() > heap.Base {
					mapped = 1
				}
			}
			if ptr >= heap.Base && mapped > 0 {
				// the host's view of the heap: callee code and stubs see
				// one address per Java array
				view, ok = c.heap.View(ptr-heap.Base, n*p.elem)
			} else {
				view, ok = mem.Read(ptr, n*p.elem)
			}
			if !ok {
				panic(&hostPanic{fmt.Errorf("%s -> %s: argument %s [%#x, %d elements] outside memory", c.m, callee, callee.Params[i].Name, ptr, n)})
			}
			args[i] = jrt.Arg{Kind: p.kind, Data: view}
		case p.long:
			args[i] = jrt.Arg{Kind: p.kind, Scalar: int64(stack[j])}
			j++
		default:
			args[i] = jrt.Arg{Kind: p.kind, Scalar: int64(int32(uint32(stack[j])))}
			j++
		}
	}
}

// Method implements jrt.Code.
func (c *Code) Method() *bytecode.Method { return c.m }

// Level implements jrt.Code.
func (c *Code) Level() jrt.Level { return c.level }

// Build returns the module build this code runs.
func (c *Code) Build() bytecode.Build { return c.build }

// CompileTime implements jrt.Code: the duration of CompileModule.
func (c *Code) CompileTime() time.Duration { return c.compileTime }

// Counters implements jrt.Code.
func (c *Code) Counters() jrt.Counters {
	return jrt.Counters{Invocations: c.invocations.Load(), Backedges: c.backedges.Load()}
}

// Profile implements jrt.Code.
func (c *Code) Profile() jrt.Profile {
	p := jrt.Profile{Branches: make([][2]uint64, bytecode.NumBranchCounters/2), Sites: make([]uint64, bytecode.NumSiteCounters)}
	for i := range p.Branches {
		p.Branches[i] = [2]uint64{c.branches[2*i].Load(), c.branches[2*i+1].Load()}
	}
	for i := range p.Sites {
		p.Sites[i] = c.sites[i].Load()
	}
	return p
}

// Close implements jrt.Code.
func (c *Code) Close(ctx context.Context) error {
	c.shut.Store(true)
	c.mu.Lock()
	c.closed = true
	c.free = nil
	c.mu.Unlock()
	c.hot.Store(nil)
	return c.rt.Close(ctx)
}

// get takes an idle instance or instantiates a new one. Instances are
// pooled per code: each concurrent caller gets its own (see RATIONALE in
// the package doc of tiers/interp).
func (c *Code) get(ctx context.Context) (*instance, error) {
	if inst := c.hot.Swap(nil); inst != nil && !c.shut.Load() {
		return inst, nil
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, fmt.Errorf("engine: %s level %d: code is closed", c.m, c.level)
	}
	if n := len(c.free); n > 0 {
		inst := c.free[n-1]
		c.free = c.free[:n-1]
		c.mu.Unlock()
		return inst, nil
	}
	c.mu.Unlock()
	ictx := ctx
	var hm *heapMemory
	if c.heap != nil {
		// Without room for the mapping (a limit on address space), the
		// instance runs without the heap: heap arrays are copied into it
		// like Go slices.
		if buf, err := c.heap.Map(heap.Base); err == nil {
			hm = &heapMemory{h: c.heap, buf: buf}
			ictx = experimental.WithMemoryAllocator(ctx, hm)
		}
	}
	mod, err := c.rt.InstantiateModule(ictx, c.cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		if hm != nil && !hm.taken {
			hm.Free()
		}
		return nil, fmt.Errorf("engine: instantiating %s: %w", c.m, err)
	}
	inst := &instance{mod: mod, mem: mod.Memory(), fn: mod.ExportedFunction(c.m.Key), heap: hm != nil}
	if hm != nil {
		// The whole buffer is the memory from the start: the heap at
		// heap.Base is in bounds for the code.
		have := inst.mem.Size() >> 16
		if _, ok := inst.mem.Grow(uint32(len(hm.buf)>>16) - have); !ok {
			_ = mod.Close(ctx)
			return nil, fmt.Errorf("engine: instantiating %s: cannot map the Java heap (%d bytes at %#x)", c.m, c.heap.Size(), heap.Base)
		}
		inst.buf = hm.buf
	}
	if inst.fn == nil {
		panic("BUG: " + c.m.Module + " does not export " + c.m.Key)
	}
	if c.m.OSR {
		inst.osr = mod.ExportedFunction(c.m.OSRExport())
	}
	n := 1
	for _, p := range c.m.Params {
		n += 2
		_ = p
	}
	inst.stack = make([]uint64, n)
	// The method's own static tables, or (inline module) those of the
	// bodies linked into it.
	if clinit := mod.ExportedFunction("clinit"); clinit != nil {
		if _, err := clinit.Call(ctx); err != nil {
			return nil, fmt.Errorf("engine: %s.<clinit>: %w", c.m.Class, err)
		}
	} else if c.m.Clinit {
		panic("BUG: " + c.m.Module + " lost its clinit export")
	}
	for _, slot := range c.inlined {
		c.w32(inst, bytecode.InlineAddr+4*uint32(slot), 1)
	}
	if c.charge {
		c.w32(inst, bytecode.InlineChargeAddr, 1)
	}
	if c.blocksOn {
		c.w32(inst, bytecode.BlocksOnAddr, 1)
	}
	if c.build != bytecode.None && c.req.OnBackedge != nil && c.req.BackedgeNotifyFreqLog >= 0 && c.m.OSR {
		log := min(c.req.BackedgeNotifyFreqLog, 30)
		c.w32(inst, bytecode.ProfAddr+bytecode.ProfBeMask, uint32(1)<<log-1)
		c.w32(inst, bytecode.ProfAddr+bytecode.ProfBeNotify, 1)
	}
	return inst, nil
}

func (c *Code) put(inst *instance) {
	if !c.shut.Load() && c.hot.CompareAndSwap(nil, inst) {
		if c.shut.Load() { // Close ran meanwhile: do not keep it
			c.hot.CompareAndSwap(inst, nil)
		}
		return
	}
	c.mu.Lock()
	if !c.closed {
		c.free = append(c.free, inst)
	}
	c.mu.Unlock()
}

func (c *Code) discard(ctx context.Context, inst *instance) { _ = inst.mod.Close(ctx) }

func (c *Code) w32(inst *instance, addr, v uint32) {
	if b := inst.buf; int(addr) <= len(b)-4 {
		binary.LittleEndian.PutUint32(b[addr:], v)
		return
	}
	c.w32Mem(inst, addr, v)
}

// w32Mem is w32 through api.Memory (an instance without a fixed buffer).
func (c *Code) w32Mem(inst *instance, addr, v uint32) {
	if !inst.mem.WriteUint32Le(addr, v) {
		panic(fmt.Sprintf("BUG: %s: write at %#x outside memory", c.m, addr))
	}
}

func (c *Code) r32(inst *instance, addr uint32) uint32 {
	if b := inst.buf; int(addr) <= len(b)-4 {
		return binary.LittleEndian.Uint32(b[addr:])
	}
	return c.r32Mem(inst, addr)
}

// r32Mem is r32 through api.Memory (an instance without a fixed buffer).
func (c *Code) r32Mem(inst *instance, addr uint32) uint32 {
	v, ok := inst.mem.ReadUint32Le(addr)
	if !ok {
		panic(fmt.Sprintf("BUG: %s: read at %#x outside memory", c.m, addr))
	}
	return v
}

// ensure grows the instance memory to hold size bytes.
func ensure(inst *instance, size uint32) error {
	have := inst.mem.Size()
	if size <= have {
		return nil
	}
	pages := (size - have + 0xffff) >> 16
	if _, ok := inst.mem.Grow(pages); !ok {
		return fmt.Errorf("engine: cannot grow memory to %d bytes (arguments too large for the memory limit)", size)
	}
	return nil
}

func dataPtr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// layout places the arrays of args from ArgBase (aligned to 8), one region
// per distinct Java array: Args with the same Data are the same array.
// Every array is copied in whole (an out-array keeps the bytes the method
// does not write); Out and InOut arrays are copied back. An array in the
// Java heap of an instance that maps it is used in place. Invoke tries
// layoutInPlace first, for calls whose arrays are all in the heap.
func (c *Code) layout(inst *instance, args []jrt.Arg) (top uint32, err error) {
	inst.regions = inst.regions[:0]
	inst.argOffsets = inst.argOffsets[:0]
	top = bytecode.ArgBase
	for i := range args {
		a, p := &args[i], &c.plan[i]
		if p.elem == 0 || a.Null {
			inst.argOffsets = append(inst.argOffsets, 0)
			continue
		}
		if inst.heap {
			if off, ok := c.heap.Offset(a.Data); ok {
				inst.argOffsets = append(inst.argOffsets, heap.Base+off) // in place
				continue
			}
		}
		found := -1
		for r := range inst.regions {
			rg := &inst.regions[r]
			if dataPtr(rg.data) == dataPtr(a.Data) && len(rg.data) == len(a.Data) {
				found = r
				break
			}
			lo, hi := dataPtr(rg.data), dataPtr(rg.data)+uintptr(len(rg.data))
			alo, ahi := dataPtr(a.Data), dataPtr(a.Data)+uintptr(len(a.Data))
			if len(a.Data) > 0 && len(rg.data) > 0 && alo < hi && lo < ahi {
				return 0, fmt.Errorf("%s: argument %d (%s) partly overlaps another array argument", c.m, i, c.m.Params[i].Name)
			}
		}
		if found >= 0 {
			inst.regions[found].out = inst.regions[found].out || p.out
			inst.argOffsets = append(inst.argOffsets, inst.regions[found].off)
			continue
		}
		top = (top + 7) &^ 7
		inst.regions = append(inst.regions, region{data: a.Data, off: top, out: p.out})
		inst.argOffsets = append(inst.argOffsets, top)
		top += uint32(len(a.Data))
	}
	if top > c.argLimit {
		return 0, fmt.Errorf("engine: %s: array arguments need %d bytes of the code's memory, over its memory limit of %d bytes (arrays in the Java heap need none)", c.m, top, c.argLimit)
	}
	if len(inst.regions) > 0 {
		if err := ensure(inst, top); err != nil {
			return 0, err
		}
		for _, rg := range inst.regions {
			if !inst.mem.Write(rg.off, rg.data) {
				panic("BUG: argument region outside memory after grow")
			}
		}
	}
	j := 0
	for i := range args {
		a, p := &args[i], &c.plan[i]
		switch {
		case p.elem != 0:
			inst.stack[j] = uint64(inst.argOffsets[i])
			inst.stack[j+1] = uint64(uint32(len(a.Data)) / p.elem)
			if a.Null {
				inst.stack[j+1] = 0
			}
			j += 2
		case p.long:
			inst.stack[j] = uint64(a.Scalar)
			j++
		default:
			inst.stack[j] = uint64(uint32(int32(a.Scalar)))
			j++
		}
	}
	return top, nil
}

// layoutInPlace is layout when every array of args is null or in the Java
// heap, which inst maps, and args match the code's plan (argsOK's test,
// made in the same pass): the stack is filled in one pass and nothing is
// copied. It reports false, having changed nothing the general layout
// reads, when an array lies outside the heap or an argument does not
// match; the caller then checks and lays out args the general way.
func (c *Code) layoutInPlace(inst *instance, args []jrt.Arg) bool {
	if len(args) != len(c.plan) {
		return false
	}
	stack, plan := inst.stack, c.plan[:len(args)]
	h := c.heap
	j := 0
	for i := range plan {
		a, p := &args[i], &plan[i]
		if a.Kind != p.kind {
			return false
		}
		switch {
		case p.elem != 0:
			if a.Null {
				stack[j], stack[j+1] = 0, 0
			} else {
				off, ok := h.Offset(a.Data)
				if !ok || uint32(len(a.Data))&(p.elem-1) != 0 {
					return false // the general layout fills the whole stack again
				}
				stack[j] = uint64(heap.Base + off)
				stack[j+1] = uint64(uint32(len(a.Data)) >> p.shift)
			}
			j += 2
		case p.long:
			stack[j] = uint64(a.Scalar)
			j++
		default:
			stack[j] = uint64(uint32(int32(a.Scalar)))
			j++
		}
	}
	return true
}

// argsOK is bytecode.CheckArgs's test on the code's plan: the count, each
// argument's kind, and arrays of whole elements (element sizes are powers of
// two). When it fails, CheckArgs says why.
func (c *Code) argsOK(args []jrt.Arg) bool {
	if len(args) != len(c.plan) {
		return false
	}
	for i := range args {
		a, p := &args[i], &c.plan[i]
		if a.Kind != p.kind || (p.elem != 0 && uint32(len(a.Data))&(p.elem-1) != 0) {
			return false
		}
	}
	return true
}

// Invoke implements jrt.Code.
func (c *Code) Invoke(ctx context.Context, args []jrt.Arg) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	inst, err := c.get(ctx)
	if err != nil {
		return 0, err
	}
	top := uint32(bytecode.ArgBase)
	inPlace := inst.heap && c.layoutInPlace(inst, args) // checks args as argsOK does
	if !inPlace {
		if !c.argsOK(args) {
			if err := bytecode.CheckArgs(c.m, args); err != nil {
				c.put(inst)
				return 0, err
			}
		}
		if top, err = c.layout(inst, args); err != nil {
			c.put(inst)
			return 0, err
		}
	}
	ret, err := c.run(ctx, inst, inst.fn, top)
	if err != nil {
		c.discard(ctx, inst)
		return 0, err
	}
	if thrown := c.r32(inst, bytecode.CtlAddr+bytecode.CtlThrown); thrown != 0 {
		detail := c.r32(inst, bytecode.CtlAddr+bytecode.CtlDetail)
		thrower := c.thrower(inst)
		c.put(inst)
		return 0, &jrt.Exception{Method: thrower, Class: bytecode.ExceptionName(thrown), Detail: int32(detail)}
	}
	if inPlace { // nothing was copied in: nothing to copy back
		c.put(inst)
		return ret, nil
	}
	for _, rg := range inst.regions {
		if rg.out && len(rg.data) > 0 {
			v, ok := inst.mem.Read(rg.off, uint32(len(rg.data)))
			if !ok {
				panic("BUG: argument region outside memory")
			}
			copy(rg.data, v)
		}
	}
	clear(inst.regions) // drop references to the caller's arrays
	c.put(inst)
	return ret, nil
}

// thrower is the method that threw: an inlined callee the shim recorded,
// or the compiled method itself.
func (c *Code) thrower(inst *instance) *bytecode.Method {
	if c.inlined == nil {
		return c.m
	}
	s := c.r32(inst, bytecode.InlineThrowerAddr)
	if s == 0 {
		return c.m
	}
	key, ok := bytecode.SlotKey(int(s) - 1)
	if !ok {
		panic(fmt.Sprintf("BUG: %s: inline thrower slot %d", c.m, s-1))
	}
	m, err := c.req.Table.Lookup(key)
	if err != nil {
		panic(fmt.Sprintf("BUG: %s: inlined thrower %s: %v", c.m, key, err))
	}
	return m
}

// run calls fn (the entry or the OSR entry) with the prepared stack and
// handles back-edge notifications: continue in place, or transfer the
// frame and arguments [CtlAddr, top) to other code and back.
func (c *Code) run(ctx context.Context, inst *instance, fn api.Function, top uint32) (int64, error) {
	c.w32(inst, bytecode.CtlAddr+bytecode.CtlThrown, 0)
	if c.inlined != nil {
		c.w32(inst, bytecode.InlineThrowerAddr, 0)
	}
	err := fn.CallWithStack(ctx, inst.stack)
	for {
		if c.charge {
			// the inlined calls since the code's last call through the router
			if cerr := c.reportCharges(ctx, inst.mem); cerr != nil {
				return 0, cerr
			}
		}
		if err != nil {
			var hp *hostPanic
			if errors.As(err, &hp) {
				return 0, hp.err
			}
			return 0, fmt.Errorf("%s at level %d: %w", c.m, c.level, err)
		}
		if c.build == bytecode.None {
			break
		}
		c.harvest(inst)
		if c.r32(inst, bytecode.ProfAddr+bytecode.ProfStatus) != bytecode.StatusBackedge {
			break
		}
		c.w32(inst, bytecode.ProfAddr+bytecode.ProfStatus, 0)
		loop := int(c.r32(inst, bytecode.ProfAddr+bytecode.ProfOSRLoop))
		target, herr := c.req.OnBackedge(ctx, c, loop, c.Counters())
		if herr != nil {
			return 0, herr
		}
		if target == nil || target == jrt.Code(c) {
			err = inst.osr.CallWithStack(ctx, inst.stack)
			continue
		}
		if target.Method() != c.m {
			return 0, fmt.Errorf("engine: OSR of %s into code of %s", c.m, target.Method())
		}
		view, ok := inst.mem.Read(bytecode.CtlAddr, top-bytecode.CtlAddr)
		if !ok {
			panic("BUG: frame outside memory")
		}
		st := &jrt.OSRState{Method: c.m, Loop: loop, Memory: append([]byte(nil), view...)}
		ret, rerr := target.ResumeOSR(ctx, st)
		if rerr != nil {
			return 0, rerr
		}
		copy(view, st.Memory)
		return ret, nil
	}
	if c.m.Result == bytecode.Void {
		return 0, nil
	}
	return int64(int32(uint32(inst.stack[0]))), nil
}

// ResumeOSR implements jrt.Code: copy the saved frame and arrays into an
// instance of this code, continue at the OSR entry, copy them back.
func (c *Code) ResumeOSR(ctx context.Context, st *jrt.OSRState) (int64, error) {
	if st.Method != c.m {
		return 0, fmt.Errorf("engine: OSR state of %s resumed in code of %s", st.Method, c.m)
	}
	if !c.m.OSR {
		return 0, fmt.Errorf("engine: %s has no OSR entry", c.m)
	}
	inst, err := c.get(ctx)
	if err != nil {
		return 0, err
	}
	top := bytecode.CtlAddr + uint32(len(st.Memory))
	if err := ensure(inst, top); err != nil {
		c.put(inst)
		return 0, err
	}
	inst.mem.Write(bytecode.CtlAddr, st.Memory)
	thrownBefore := binary.LittleEndian.Uint32(st.Memory[bytecode.CtlThrown:])
	if thrownBefore != 0 {
		panic("BUG: OSR state carries a pending exception")
	}
	ret, err := c.run(ctx, inst, inst.osr, top)
	if err != nil {
		c.discard(ctx, inst)
		return 0, err
	}
	view, _ := inst.mem.Read(bytecode.CtlAddr, uint32(len(st.Memory)))
	copy(st.Memory, view)
	c.put(inst)
	return ret, nil
}

// harvest moves the instance's counter deltas into the code's counters.
// The in-memory invocation and back-edge counters keep running (the
// notification mask tests them); branch and call-site counters are zeroed.
func (c *Code) harvest(inst *instance) {
	inv := c.r32(inst, bytecode.ProfAddr+bytecode.ProfInvocations)
	be := c.r32(inst, bytecode.ProfAddr+bytecode.ProfBackedges)
	c.invocations.Add(uint64(inv - inst.lastInv))
	c.backedges.Add(uint64(be - inst.lastBe))
	inst.lastInv, inst.lastBe = inv, be
	if c.build != bytecode.Full {
		return
	}
	view, ok := inst.mem.Read(bytecode.ProfAddr+bytecode.ProfBranch, 4*(bytecode.NumBranchCounters+bytecode.NumSiteCounters))
	if !ok {
		panic("BUG: profile area outside memory")
	}
	// A method uses a few of the 96 counters: two at a time, and only the
	// pairs that counted are added and zeroed.
	for i := 0; i+8 <= len(view); i += 8 {
		w := binary.LittleEndian.Uint64(view[i:])
		if w == 0 {
			continue
		}
		c.addProfile(i/4, uint32(w))
		c.addProfile(i/4+1, uint32(w>>32))
		binary.LittleEndian.PutUint64(view[i:], 0)
	}
}

// addProfile adds v to profile counter k (branch counters, then call sites).
func (c *Code) addProfile(k int, v uint32) {
	switch {
	case v == 0:
	case k < bytecode.NumBranchCounters:
		c.branches[k].Add(uint64(v))
	default:
		c.sites[k-bytecode.NumBranchCounters].Add(uint64(v))
	}
}

// heapMemory is an instance's linear memory with the Java heap mapped at
// heap.Base (wazero's experimental.LinearMemory): a fixed buffer of
// heap.Base private bytes and the heap, never moved.
type heapMemory struct {
	h     *heap.Heap
	buf   []byte
	taken bool // wazero owns it: it frees it when the module closes
}

// Allocate implements experimental.MemoryAllocator: the buffer mapped for
// the one instance being created.
func (m *heapMemory) Allocate(_, max uint64) experimental.LinearMemory {
	if max < uint64(len(m.buf)) {
		panic(fmt.Sprintf("BUG: instance memory limit %d below the heap's end %d", max, len(m.buf)))
	}
	m.taken = true
	return m
}

// Reallocate implements experimental.LinearMemory.
func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

// Free implements experimental.LinearMemory.
func (m *heapMemory) Free() {
	if m.buf != nil {
		_ = m.h.Unmap(m.buf)
		m.buf = nil
	}
}
