package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// Inliner is implemented by a Router that decides, when code is linked,
// which of its call sites run the callee inlined: inside the caller's own
// compiled code, on the caller's memory, with no host hop and no argument
// copies (the tiers' inline modules, tiers/internal/inlinegen).
// The VM implements it; a Router without it gets no inlining.
type Inliner interface {
	// Inline decides the call site. It is a pure function of the callee's
	// cached routing decision at the caller's level (see VM.Inline).
	Inline(site Site) InlineDecision
	// PrintInlining is told that code for root at level was linked: the VM
	// prints the -XX:+PrintInlining tree if the flag is on.
	PrintInlining(root *Method, level Level)
	// ChargesInlined reports whether inlined calls must report themselves
	// through ChargeInlinedCall (asked once per link): the model clock charges
	// an inlined callee's work as it charges a called one.
	ChargesInlined() bool
	// ChargeInlinedCall is count inlined calls of callee, made by code at
	// level, each with the payload bytes model.Payload gives for its
	// arguments. The code reports them before it makes another call through
	// the router and before it returns, not one by one before each body;
	// an error fails the code's call.
	ChargeInlinedCall(ctx context.Context, callee *Method, level Level, payload, count int) error
}

// InlineDecision is whether a call site runs its callee inlined, and why,
// in PrintInlining's words.
type InlineDecision struct {
	Inline bool
	// Reason is HotSpot's message for the site: "inline (hot)" (C2),
	// "inline" (C1), "(intrinsic)" where a stub replaces the callee, or why
	// the call stays a call (from JDK 22 on, HotSpot's own refusals start
	// with "failed to inline: ").
	Reason string
	// Command is the compile command that decided ("-XX:CompileCommand=…",
	// "-XX:CompileCommandFile=F"), "" when none did.
	Command string
}

// Inline reasons.
const (
	InlineHot         = "inline (hot)"                // C2's InlineTree::ok_to_inline, an accepted call site
	InlineC1          = "inline"                      // C1's GraphBuilder::try_inline_full
	InlineIntrinsic   = "(intrinsic)"                 // a stub replaces the callee at this site
	InlineInterpreter = "interpreted: not inlined"    // level 0 calls every callee through the dispatcher
	InlineProfiled    = "profiled level: not inlined" // level 3: the callee's counters need its calls (see VM.Inline)
	InlineUnknown     = "callee not in the method table"

	// A compile command's decision (C1 and C2 alike, observed on 17.0.15 and 25.0.3).
	InlineDisallowed = "disallowed by CompileCommand"   // dontinline or exclude (JDK 22+: with InlineFailPrefix)
	InlineForced     = "force inline by CompileCommand" // inline: no size limit applies

	// HotSpot's size refusals (without the JDK 22+ prefix, see InlineFailurePrefix).
	InlineTooLarge   = "callee is too large" // C1: Size > C1MaxInlineSize (JDK 8: MaxInlineSize)
	InlineTooBig     = "too big"             // C2, cold site: Size > MaxInlineSize
	InlineHotTooBig  = "hot method too big"  // C2, hot site: Size > FreqInlineSize
	InlineFailPrefix = "failed to inline: "  // JDK 22+ (JDK-8314452): every refusal starts with it
)

// inlineSizeRule is how one compiler bounds the bytecode size (Method.Size)
// of the callees it inlines, as flags: C1's GraphBuilder::try_inline_full
// ("callee is too large" above the scope's max_inline_size, which is never
// below the trivial size), C2's InlineTree::should_inline ("too big" above
// MaxInlineSize at a cold call site; at a hot one FreqInlineSize is the
// bound, and exceeding it is "hot method too big" when it is the larger).
type inlineSizeRule struct {
	// size and trivial name the flags per profile: [0] JDK 8 and 8u, [1]
	// JDK 17+ (JDK 15 split C1's flags from C2's, JDK-8234863); trivial ""
	// means no floor.
	size, trivial [2]string
	// hotSize names the bound at a hot call site ("" : the compiler has none).
	hotSize     string
	msg, hotMsg string
}

// inlineSizeRules is THE table of size limits, one row per compiler.
var inlineSizeRules = map[bool]inlineSizeRule{ // by "is C2"
	false: {size: [2]string{"MaxInlineSize", "C1MaxInlineSize"}, trivial: [2]string{"MaxTrivialSize", "C1MaxTrivialSize"},
		msg: InlineTooLarge},
	true: {size: [2]string{"MaxInlineSize", "MaxInlineSize"}, hotSize: "FreqInlineSize",
		msg: InlineTooBig, hotMsg: InlineHotTooBig},
}

// HotSpot's develop constants that decide a hot call site before JDK 18
// (globals.hpp InlineFrequencyRatio, x86 InlineFrequencyCount; JDK 17 makes
// the count a diagnostic flag, read when the profile has it).
const (
	inlineFrequencyRatioOld = 20
	inlineFrequencyCountOld = 100
)

// Inline implements Inliner: THE inlining decision, made from the one
// dispatch point's cached routing decision for the callee at the caller's
// level and HotSpot's size limits. Level 0 never inlines. A callee a stub
// replaces at the caller's level stays a call to the stub ("(intrinsic)";
// HotSpot tries intrinsics before any inlining heuristic). Otherwise the
// callee's Java bytecode size decides, by inlineSizeRules: C1 (levels 1-3)
// refuses callees above C1MaxInlineSize (JDK 8: MaxInlineSize), C2 (level
// 4) callees above MaxInlineSize at a cold call site and above
// FreqInlineSize at a hot one (see hotSite). A callee within the limits
// runs inlined at levels 1, 2 and 4, and the callee's own invocation
// counter does not see those calls (C2 code and C1's levels 1 and 2 count
// nothing for inlined methods). Level 3 does not inline in jitsim: C1's
// full-profile code counts every inlined call in the callee's invocation
// counter (c1_Compilation.hpp profile_inlined_calls: C1ProfileInlinedCalls
// at CompLevel_full_profile, a ProfileInvoke per inlined call, which may
// notify the policy) and jitsim's inline modules count nothing, so those
// calls keep going through the dispatcher, which counts them and notifies.
//
// Not modelled: InlineSmallCode (jitsim has no machine-code size of a
// compiled callee), MaxInlineLevel/C1MaxInlineLevel and C1's shrinking
// limit for nested scopes (NestedInliningSizeRatio) — a decision is per
// callee and caller, not per depth; jitsim's call chains are at most five
// deep.
func (vm *VM) Inline(site Site) InlineDecision {
	st := vm.callees.get(site.Callee)
	if st == nil {
		return InlineDecision{Reason: InlineUnknown}
	}
	if site.Level <= LevelNone || site.Level > LevelFullOptimization {
		return InlineDecision{Reason: InlineInterpreter}
	}
	if d := st.route[site.Level]; d != nil && d.Stub {
		return InlineDecision{Reason: InlineIntrinsic}
	}
	if c := st.inlineCmd; c != nil {
		if c.Option != "inline" {
			if vm.jdk >= jdk.R25 {
				return InlineDecision{Reason: InlineFailPrefix + InlineDisallowed, Command: c.Source}
			}
			return InlineDecision{Reason: InlineDisallowed, Command: c.Source}
		}
		// Level 3 still calls the callee (its counters need the calls, see
		// above); HotSpot's C1 inlines it there, and says so.
		return InlineDecision{Inline: site.Level != LevelFullProfile, Reason: InlineForced, Command: c.Source}
	}
	c2 := site.Level == LevelFullOptimization
	if msg := vm.tooLarge(site, c2); msg != "" {
		return InlineDecision{Reason: msg}
	}
	switch site.Level {
	case LevelFullProfile:
		return InlineDecision{Reason: InlineProfiled}
	case LevelFullOptimization:
		return InlineDecision{Inline: true, Reason: InlineHot}
	}
	return InlineDecision{Inline: true, Reason: InlineC1}
}

// ExcludedBy returns the compile command that keeps m from being compiled
// (an exclude, or a CompileOnly list that leaves it out), or "".
func (vm *VM) ExcludedBy(m *Method) string {
	if vm.set == nil || m == nil {
		return ""
	}
	c, ok := vm.set.CompileExcluded(m.Class, m.Name, m.Descriptor)
	if !ok {
		return ""
	}
	if c.Option == "compileonly" {
		return c.Source + " (it does not name the method)"
	}
	return c.Source
}

// tooLarge returns the refusal message when the callee's bytecode size is
// above the limit of the compiler of site's level, else "".
func (vm *VM) tooLarge(site Site, c2 bool) string {
	r := inlineSizeRules[c2]
	gen := 0
	if vm.jdk >= jdk.R17 {
		gen = 1
	}
	size := vm.set.Int(r.size[gen])
	limit, msg := size, r.msg
	if r.trivial[gen] != "" {
		limit = max(limit, vm.set.Int(r.trivial[gen]))
	}
	if r.hotSize != "" && vm.hotSite(site.Caller) {
		limit = vm.set.Int(r.hotSize)
		if limit > size {
			msg = r.hotMsg
		}
	}
	if int64(site.Callee.Size) <= limit {
		return ""
	}
	if vm.jdk >= jdk.R25 {
		return InlineFailPrefix + msg
	}
	return msg
}

// hotSite reports whether C2 takes a call site in caller as hot
// (InlineTree::should_inline): from JDK 18 when the site runs at least
// InlineFrequencyRatio times per invocation of the caller, before that also
// when it ran InlineFrequencyCount times (JDK-8272873 dropped the count).
// jitsim's modules count calls per method, not per site, so the site's
// count is taken to be the caller's invocations plus back-edges: every call
// of a reference method is on its caller's path, once per invocation or once
// per loop iteration. A caller the policy sends to C2 after warming up is
// hot at every site by this rule; one compiled on its first calls (-Xcomp)
// is cold, as in HotSpot. A nil caller (jitsim explain: any caller) is
// taken to be warm.
func (vm *VM) hotSite(caller *Method) bool {
	if caller == nil {
		return true
	}
	st := vm.byMethod[caller]
	if st == nil {
		return true
	}
	i, b := st.pm.Counts()
	inv, site := int64(i), int64(i)+int64(b)
	if vm.set.Has("InlineFrequencyRatio") {
		return inv > 0 && float64(site) >= vm.set.Float("InlineFrequencyRatio")*float64(inv)
	}
	count := int64(inlineFrequencyCountOld)
	if vm.set.Has("InlineFrequencyCount") {
		count = vm.set.Int("InlineFrequencyCount")
	}
	return site >= count || (inv > 0 && site >= inlineFrequencyRatioOld*inv)
}

// inlineLine is one line of the PrintInlining tree.
type inlineLine struct {
	depth  int // 1: a call made by the compiled method itself
	bci    int
	callee *Method
	reason string
	inline bool // the callee's body is inlined (its calls follow, one deeper)
	pred   bool // an intrinsic with a predicate (LogCompilation's <predicated_intrinsic>)
}

// inlinedBytes is the bytecode a compile with inlining tree lines parses
// beyond its method's own: every inlined callee's, and every callee's that
// an intrinsic replaces. HotSpot counts both in a task's inlined_bytes
// (JDK 17's C2 compile of AESCrypt::encryptBlock, 10 bytes, logs
// <intrinsic id='_aescrypt_encryptBlock'> and inlined_bytes='953',
// implEncryptBlock's size), and -XX:+CITime's speed, which prices a
// compile per byte, divides own plus inlined bytes by the compile time.
func inlinedBytes(lines []inlineLine) int {
	n := 0
	for _, l := range lines {
		if l.inline || l.callee.Intrinsic != "" && strings.HasSuffix(l.reason, "(intrinsic)") {
			n += l.callee.Size
		}
	}
	return n
}

// inlineTree walks the calls of root compiled at level: each call site
// with its decision, and the calls of an inlined callee one level deeper.
// The bci is the call's Java bytecode index in the real class
// (bytecode.Method.CallBCI). With warm, every caller counts as warmed up
// (hotSite); otherwise the callers' counts decide, as when code is linked.
func (vm *VM) inlineTree(root *Method, level Level, warm bool) []inlineLine {
	var out []inlineLine
	var walk func(m *Method, depth int)
	walk = func(m *Method, depth int) {
		for _, k := range m.Imports {
			callee, err := vm.table.Lookup(k)
			if err != nil {
				continue // the table checked every import when it was built
			}
			i, _ := m.CallBCI(k, vm.table.Profile) // every import has one (bytecode's tests)
			site := Site{Caller: m, Level: level, Callee: callee}
			if warm {
				site.Caller = nil
			}
			d := vm.Inline(site)
			if d.Reason == InlineIntrinsic {
				st := vm.callees.get(callee)
				pred := st != nil && st.intr.Row().Predicated
				for _, msg := range intrinsicMessages(vm.table.Profile, pred) {
					out = append(out, inlineLine{depth: depth, bci: i, callee: callee, reason: msg, pred: pred})
				}
			} else {
				out = append(out, inlineLine{depth: depth, bci: i, callee: callee, reason: d.Reason, inline: d.Inline && depth < 16})
			}
			if d.Inline && depth < 16 {
				walk(callee, depth+1)
			}
		}
	}
	walk(root, 1)
	return out
}

// PrintInlining implements Inliner: with -XX:+PrintInlining, the tree of
// call sites of root's new code at level, in HotSpot's layout
// (CompileTask::print_inlining_inner):
//
//	<28 + 2·depth spaces>@ <bci>   <pkg.Class>::<method> (<N> bytes)   <reason>
func (vm *VM) PrintInlining(root *Method, level Level) {
	if !vm.out.inlining && !vm.out.ul.logsInlining() {
		return // only the printer shows the tree: walk it only then
	}
	vm.emit(&event{kind: evInlining, at: vm.clock.Now(), inlining: vm.inlineTree(root, level, false)})
}

// InlineExplain renders the inlining tree of root compiled at level, one
// line per call site with the callee's bytecode size, for jitsim explain
// and tests. Every caller is taken to be warmed up (C2's call sites hot).
func (vm *VM) InlineExplain(name string, level Level) (string, error) {
	st, err := vm.lookup(name)
	if err != nil {
		return "", err
	}
	if level < LevelNone || level > LevelFullOptimization {
		return "", fmt.Errorf("runtime: level %d is not a compilation level (0..4)", level)
	}
	var sb strings.Builder
	for _, l := range vm.inlineTree(st.m, level, true) {
		fmt.Fprintf(&sb, "%s@ %d %s (%d bytes) %s\n", strings.Repeat("  ", l.depth-1), l.bci, l.callee, l.callee.Size, l.reason)
	}
	return sb.String(), nil
}

// ChargesInlined implements Inliner: on the model clock, which charges a
// call when it reaches the dispatcher — an inlined call never does — the
// inline modules report each inlined call (callee, payload) before it runs.
func (vm *VM) ChargesInlined() bool { return vm.ModelClock() }

// ChargeInlinedCall implements Inliner: count times the callee's own cost
// row at the caller's level for payload bytes, and no call row (an inlined
// call is no call); see chargeInlinedCall (modelclock.go).
func (vm *VM) ChargeInlinedCall(_ context.Context, callee *Method, level Level, payload, count int) error {
	return vm.chargeInlinedCall(callee, level, payload, count)
}
