package runtime

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Decision is why a call from code at Level to a method goes where it goes:
// the selected stub variant, or the callee's own (Java) code and the
// reason. It is a pure function of the intrinsic table, the flags, the CPU
// model, the JDK profile and the caller's level (see Explain).
type Decision struct {
	// Method is the callee ("Class::name"); Intrinsic its intrinsic ID, or
	// NoIntrinsic.
	Method    string
	Intrinsic Intrinsic
	// Level is the caller's level.
	Level Level
	// Stub is true when the call runs a native stub.
	Stub bool
	// Variant is the variant HotSpot would have generated (stubs.Select);
	// Impl is the one that really runs: Variant, or its generic twin when
	// the host lacks features the model has.
	Variant, Impl stubs.Variant
	// Reason says why, in words; Flag names the flag that decided, if one did.
	Reason string
	Flag   string

	call    stubCall
	first   stubCall     // the stub's call before the model clock's charge (firstStubCall)
	mkFrame frameAdapter // the adapter's FrameTarget, before firstStubCall (IntrinsicRow.AdaptFrame)
	frame   FrameTarget  // call read from the caller's stack, on the wall clock (BindFrame)
	batch   BlockTarget  // the adapter's call, n at a time (IntrinsicRow.AdaptBlocks)
	blocks  BlockTarget  // call, n at a time (BindBlocks)
}

// String renders the decision on one line, e.g.
// "AESCrypt::implEncryptBlock from level 4: stub aescrypt_encryptBlock/aesni (intrinsic _aescrypt_encryptBlock)".
func (d Decision) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s from level %d: ", d.Method, d.Level)
	if d.Stub {
		fmt.Fprintf(&sb, "stub %s/%s", d.Variant.Stub, d.Variant.Name)
		if d.Impl.Name != d.Variant.Name {
			fmt.Fprintf(&sb, " (runs %s)", d.Impl.Name)
		}
	} else {
		sb.WriteString("java")
	}
	fmt.Fprintf(&sb, " (%s)", d.Reason)
	return sb.String()
}

// Reasons a Decision gives.
const (
	ReasonIntrinsic      = "intrinsic"
	ReasonNotIntrinsic   = "not an intrinsic candidate"
	ReasonNotInJDK       = "the JDK profile has no such intrinsic"
	ReasonCallerLevel    = "callers at this level do not use intrinsics (C2 only)"
	ReasonInlineNatives  = "-XX:-InlineNatives"
	ReasonFlagOff        = "gate flag off"
	ReasonDisabled       = "disabled by DisableIntrinsic"
	ReasonControlled     = "disabled by ControlIntrinsic"
	ReasonNoStub         = "no stub generated for this JDK, CPU and flags"
	ReasonPredicateFails = "predicate failed"
)

// routeEnv is everything a decision depends on.
type routeEnv struct {
	jdk   jdk.Release
	set   *flags.Set
	model cpu.Model
}

func (e *routeEnv) flagOn(name string) bool { return e.set.Has(name) && e.set.Bool(name) }

// stubConfig is the stubs.Config of the flags: the gate flags and the levels of the settled
// set's CPU-feature mask (the one ergonomics used, ergo.Mask).
func (e *routeEnv) stubConfig() stubs.Config {
	m := ergo.Mask(e.set)
	return stubs.Config{
		JDK: e.jdk, Arch: e.model.Arch,
		UseAES: e.flagOn("UseAES"), UseAESIntrinsics: e.flagOn("UseAESIntrinsics"),
		UseAESCTRIntrinsics: e.flagOn("UseAESCTRIntrinsics"), UseGHASHIntrinsics: e.flagOn("UseGHASHIntrinsics"),
		UseAVX: m.UseAVX, UseSSE: m.UseSSE,
	}
}

// listed reports whether id appears in a DisableIntrinsic-style list
// (entries separated by commas or newlines).
func listed(list, id string) bool {
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		if f == id {
			return true
		}
	}
	return false
}

// controlDisabled reports whether ControlIntrinsic's last entry for id is
// "-id" (ControlIntrinsicIter in compilerOracle/vmIntrinsics.cpp).
func controlDisabled(list, id string) bool {
	off := false
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		switch {
		case f == "-"+id:
			off = true
		case f == "+"+id:
			off = false
		}
	}
	return off
}

// decide is THE routing decision for a call to an intrinsic candidate
// from code at level: the order follows HotSpot — the profile's intrinsic
// list, the caller's compiler (C2 only, C1's is_intrinsic_supported has no
// crypto), vmIntrinsics::disabled_by_jvm_flags (InlineNatives, the gate
// flags, DisableIntrinsic, ControlIntrinsic), then stub presence
// (StubRoutines entry generated for this JDK, CPU and flags).
func decide(env *routeEnv, id Intrinsic, m *Method, level Level) Decision {
	r := id.Row()
	d := Decision{Intrinsic: id, Level: level, Method: r.Method(env.jdk).String()}
	if m != nil {
		d.Method = m.String()
	}
	levels := r.Levels
	if env.flagOn(HaleyFlag) {
		levels = r.HaleyLevels
	}
	switch {
	case !r.InJDK(env.jdk):
		d.Reason = ReasonNotInJDK
		return d
	case !levels.Has(level):
		d.Reason, d.Flag = ReasonCallerLevel, HaleyFlag
		return d
	case env.set.Has("InlineNatives") && !env.set.Bool("InlineNatives"):
		d.Reason, d.Flag = ReasonInlineNatives, "InlineNatives"
		return d
	}
	for _, g := range r.Gate {
		if !env.flagOn(g) {
			d.Reason, d.Flag = ReasonFlagOff+" -XX:-"+g, g
			return d
		}
	}
	if env.set.Has("DisableIntrinsic") && listed(env.set.String("DisableIntrinsic"), r.HotSpotName) {
		d.Reason, d.Flag = ReasonDisabled, "DisableIntrinsic"
		return d
	}
	if env.set.Has("ControlIntrinsic") && controlDisabled(env.set.String("ControlIntrinsic"), r.HotSpotName) {
		d.Reason, d.Flag = ReasonControlled, "ControlIntrinsic"
		return d
	}
	v, ok := stubs.Select(r.Stub, env.stubConfig(), env.model.Features)
	if !ok {
		d.Reason = ReasonNoStub
		return d
	}
	d.Variant = v
	d.Impl = stubs.Runnable(v, env.model.Runnable())
	if !env.model.Runnable().HasAll(d.Impl.ID.Needs()) {
		// crypto's checkGenericIsExpected: never hand out code the CPU cannot run.
		panic(fmt.Sprintf("BUG: route chose %s/%s needing %v on a CPU that runs %v", d.Impl.Stub, d.Impl.Name, d.Impl.ID.Needs(), env.model.Runnable()))
	}
	if m != nil {
		var call stubCall
		var ok bool
		if r.AdaptFrame != nil {
			call, d.mkFrame, ok = r.AdaptFrame(m, d.Impl.ID)
		} else {
			call, ok = r.Adapt(m, d.Impl.ID)
		}
		if !ok {
			panic(fmt.Sprintf("BUG: %s: the row's adapter has no code for stub variant %s", r.HotSpotName, d.Impl.ID))
		}
		d.call, d.batch = call, eachCall(call)
		if r.AdaptBlocks != nil {
			if d.batch, ok = r.AdaptBlocks(m, d.Impl.ID); !ok {
				panic(fmt.Sprintf("BUG: %s: the row's batch adapter has no code for stub variant %s", r.HotSpotName, d.Impl.ID))
			}
		}
	}
	d.Stub, d.Reason = true, ReasonIntrinsic
	return d
}

// Explain returns the decision for a call to name from code at level.
// name is an intrinsic ("_ghash_processBlocks", "GHASHProcessBlocks"), a
// method key ("GHASH.processBlocks") or "Class::name" with or without the
// package. It is a pure function of the table, flags, CPU model and JDK.
func (vm *VM) Explain(name string, level Level) (Decision, error) {
	if level < LevelNone || level > LevelFullOptimization {
		return Decision{}, fmt.Errorf("runtime: level %d is not a compilation level (0..4)", level)
	}
	if id, ok := LookupIntrinsic(name); ok {
		var m *Method
		for _, st := range vm.methods {
			if st.intr == id {
				m = st.m
			}
		}
		return decide(&vm.env, id, m, level), nil
	}
	st, err := vm.lookup(name)
	if err != nil {
		return Decision{}, err
	}
	if st.intr == NoIntrinsic {
		return Decision{Method: st.m.String(), Intrinsic: NoIntrinsic, Level: level, Reason: ReasonNotIntrinsic}, nil
	}
	return decide(&vm.env, st.intr, st.m, level), nil
}

// Route implements Router: THE dispatch point for a call from code at
// site.Level to site.Callee. A stub call runs on the argument views with
// no copy; otherwise the callee is counted, the policy notified at its
// notification points, and its current code runs.
func (vm *VM) Route(ctx context.Context, site Site, args []Arg) (int64, error) {
	s := vm.callees.slot(site.Callee)
	if s == nil {
		return 0, vm.notInTable(site)
	}
	return vm.routeSlot(ctx, s, site.Level, args)
}

// routeSlot is Route once the callee's slot is found.
func (vm *VM) routeSlot(ctx context.Context, s *calleeSlot, level Level, args []Arg) (int64, error) {
	// uint(level) < 5 is the 0..4 range check in one compare.
	if l := uint(level); l < uint(len(s.calls)) {
		if call := s.calls[l]; call != nil && (s.pred == nil || s.pred(args)) {
			return call(ctx, args)
		}
	}
	return vm.invokeFrom(ctx, s.st, args, level)
}

//go:noinline
func (vm *VM) notInTable(site Site) error {
	return fmt.Errorf("runtime: %s calls %v, which is not in the JDK %s method table", site.Caller, site.Callee, vm.jdk)
}

// calleeIndex maps a callee *Method to its state by open addressing on the
// pointer (Fibonacci hashing, linear probing): the per-call lookup of
// Route, a few nanoseconds where a Go map of pointer keys costs tens
// (BenchmarkDispatch). It is filled once by buildMethods and read-only
// afterwards, so concurrent readers need no lock.
type calleeIndex struct {
	shift uint // 64 - log2(len(slots))
	slots []calleeSlot
}

// calleeSlot is one entry of the index: the method, its state, and copies
// of what Route reads per call (the stub call of each caller level's cached
// decision, nil where the call goes to Java, and the predicate), so the hot
// path touches one slot instead of following st and the Decision.
type calleeSlot struct {
	m     *Method
	st    *methodState
	pred  func([]Arg) bool
	calls [LevelFullOptimization + 1]stubCall
}

func calleeHash(m *Method, shift uint) uint64 {
	return uint64(uintptr(unsafe.Pointer(m))) * 0x9e3779b97f4a7c15 >> shift
}

// build indexes the states by their methods; the table is at most half full.
func (ix *calleeIndex) build(sts []*methodState) {
	size := 8
	for size < 2*len(sts) {
		size *= 2
	}
	ix.shift = uint(64 - bits.TrailingZeros(uint(size)))
	ix.slots = make([]calleeSlot, size)
	mask := uint64(size - 1)
	for _, st := range sts {
		i := calleeHash(st.m, ix.shift)
		for ix.slots[i].m != nil {
			if ix.slots[i].m == st.m {
				panic(fmt.Sprintf("BUG: method %s indexed twice", st.m))
			}
			i = (i + 1) & mask
		}
		ix.slots[i] = calleeSlot{m: st.m, st: st, pred: st.pred}
		for l, d := range st.route {
			if d != nil && d.Stub {
				ix.slots[i].calls[l] = d.call
			}
		}
	}
}

// slot returns m's slot, or nil when m is not in the VM's table.
func (ix *calleeIndex) slot(m *Method) *calleeSlot {
	if len(ix.slots) == 0 || m == nil {
		return nil
	}
	mask := uint64(len(ix.slots) - 1)
	for i := calleeHash(m, ix.shift); ; i = (i + 1) & mask {
		s := &ix.slots[i&mask]
		if s.m == m {
			return s
		}
		if s.m == nil {
			return nil
		}
	}
}

// get returns m's state, or nil when m is not in the VM's table.
func (ix *calleeIndex) get(m *Method) *methodState {
	if s := ix.slot(m); s != nil {
		return s.st
	}
	return nil
}

// Bind implements Binder: C2 binds each call site of the code it links
// once. An intrinsic site is bound to the stub (behind its predicate, as
// C2's predicated intrinsics fall back to the Java call); any other site
// to an indirection that always runs the callee's current code. Binding
// prints the -XX:+PrintIntrinsics / PrintInlining lines C2 prints.
func (vm *VM) Bind(ctx context.Context, site Site) (Target, error) {
	st := vm.callees.get(site.Callee)
	if st == nil {
		return nil, vm.notInTable(site)
	}
	var d *Decision
	if site.Level >= LevelNone && site.Level <= LevelFullOptimization {
		d = st.route[site.Level]
	}
	if d == nil || !d.Stub {
		return func(ctx context.Context, args []Arg) (int64, error) { return vm.invokeFrom(ctx, st, args, site.Level) }, nil
	}
	vm.emit(&event{kind: evBound, at: vm.clock.Now(), st: st, site: site, d: d})
	call := vm.streamDecision(st, site, d).call
	if pred := st.pred; pred != nil {
		return func(ctx context.Context, args []Arg) (int64, error) {
			if pred(args) {
				return call(ctx, args)
			}
			return vm.invokeFrom(ctx, st, args, site.Level)
		}, nil
	}
	return call, nil
}

// BindBlocks implements BlockBinder: a site of C2 code whose callee returns
// nothing and is bound to a stub with no predicate gets the decision's
// batched call, which charges and computes each call as Bind's Target does.
func (vm *VM) BindBlocks(site Site) (BlockTarget, bool) {
	st := vm.callees.get(site.Callee)
	if st == nil || st.pred != nil || site.Callee.Result != bytecode.Void || site.Level != LevelFullOptimization {
		return nil, false
	}
	d := st.route[site.Level]
	if d == nil || !d.Stub || d.blocks == nil {
		return nil, false
	}
	return vm.streamDecision(st, site, d).blocks, true
}
