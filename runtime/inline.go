package runtime

import (
	"context"
	"fmt"
	"strings"
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
	// ChargeInlinedCall is one inlined call of callee, made by code at level,
	// with the payload bytes model.Payload gives for its arguments. It runs
	// before the callee's body; an error aborts the call.
	ChargeInlinedCall(ctx context.Context, callee *Method, level Level, payload int) error
}

// InlineDecision is whether a call site runs its callee inlined, and why,
// in PrintInlining's words.
type InlineDecision struct {
	Inline bool
	// Reason is HotSpot's message for the site: "inline (hot)" (C2),
	// "inline" (C1), "(intrinsic)" where a stub replaces the callee, or why
	// the call stays a call.
	Reason string
}

// Inline reasons.
const (
	InlineHot         = "inline (hot)"                // C2's InlineTree::should_inline, a hot call site
	InlineC1          = "inline"                      // C1's GraphBuilder::try_inline_full
	InlineIntrinsic   = "(intrinsic)"                 // a stub replaces the callee at this site
	InlineInterpreter = "interpreted: not inlined"    // level 0 calls every callee through the dispatcher
	InlineProfiled    = "profiled level: not inlined" // level 3: the callee's counters need its calls (see VM.Inline)
	InlineUnknown     = "callee not in the method table"
)

// Inline implements Inliner: THE inlining decision, made from the one
// dispatch point's cached routing decision for the callee at the caller's
// level. A call from code at level 1, 2 or 4 to a callee that is not
// replaced by a stub there runs inlined, as C1 and C2 inline small
// non-intrinsic callees (c1_GraphBuilder.cpp try_inline,
// opto/bytecodeInfo.cpp InlineTree::ok_to_inline), and the callee's own
// invocation counter does not see those calls (C2 code and C1's levels 1
// and 2 count nothing for inlined methods). jitsim applies no size limit:
// every reference method is one the JDK's own code calls on its hot path
// (see docs/dispatch.md). Level 0 never inlines. Level 3 does not inline in
// jitsim: C1's full-profile code counts every inlined call in the callee's
// invocation counter (c1_Compilation.hpp profile_inlined_calls:
// C1ProfileInlinedCalls at CompLevel_full_profile, a ProfileInvoke per
// inlined call, which may notify the policy) and jitsim's inline modules
// count nothing, so those calls keep going through the dispatcher, which
// counts them and notifies.
func (vm *VM) Inline(site Site) InlineDecision {
	st := vm.callees.get(site.Callee)
	if st == nil {
		return InlineDecision{Reason: InlineUnknown}
	}
	switch site.Level {
	case LevelSimple, LevelLimitedProfile, LevelFullOptimization:
	case LevelFullProfile:
		return InlineDecision{Reason: InlineProfiled}
	default:
		return InlineDecision{Reason: InlineInterpreter}
	}
	if d := st.route[site.Level]; d != nil && d.Stub {
		return InlineDecision{Reason: InlineIntrinsic}
	}
	if site.Level != LevelFullOptimization {
		return InlineDecision{Inline: true, Reason: InlineC1}
	}
	return InlineDecision{Inline: true, Reason: InlineHot}
}

// inlineLine is one line of the PrintInlining tree.
type inlineLine struct {
	depth  int // 1: a call made by the compiled method itself
	bci    int
	callee *Method
	reason string
}

// inlineTree walks the calls of root compiled at level: each call site
// with its decision, and the calls of an inlined callee one level deeper.
// The bci is the call's index among the caller's imports (jitsim's modules
// have no bytecode indices).
func (vm *VM) inlineTree(root *Method, level Level) []inlineLine {
	var out []inlineLine
	var walk func(m *Method, depth int)
	walk = func(m *Method, depth int) {
		for i, k := range m.Imports {
			callee, err := vm.table.Lookup(k)
			if err != nil {
				continue // the table checked every import when it was built
			}
			d := vm.Inline(Site{Caller: m, Level: level, Callee: callee})
			reason := d.Reason
			if d.Reason == InlineIntrinsic {
				if st := vm.callees.get(callee); st != nil && st.intr.Row().Predicated {
					out = append(out, inlineLine{depth, i, callee, "(intrinsic, predicate)"})
				}
			}
			out = append(out, inlineLine{depth, i, callee, reason})
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
	if !vm.out.inlining {
		return
	}
	tree := vm.inlineTree(root, level)
	if len(tree) == 0 {
		return
	}
	var sb strings.Builder
	for i, l := range tree {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(vm.out.inliningLine(l.depth, l.bci, l.callee, l.reason))
	}
	vm.out.line(sb.String()) // one write: a tree never interleaves with another thread's lines
}

// InlineExplain renders the inlining tree of root compiled at level, one
// line per call site, for jitsim explain and tests.
func (vm *VM) InlineExplain(name string, level Level) (string, error) {
	st, err := vm.lookup(name)
	if err != nil {
		return "", err
	}
	if level < LevelNone || level > LevelFullOptimization {
		return "", fmt.Errorf("runtime: level %d is not a compilation level (0..4)", level)
	}
	var sb strings.Builder
	for _, l := range vm.inlineTree(st.m, level) {
		fmt.Fprintf(&sb, "%s@ %d %s (%d bytes) %s\n", strings.Repeat("  ", l.depth-1), l.bci, l.callee, l.callee.Size, l.reason)
	}
	return sb.String(), nil
}

// ChargesInlined implements Inliner: on the model clock, which charges a
// call when it reaches the dispatcher — an inlined call never does — the
// inline modules report each inlined call (callee, payload) before it runs.
func (vm *VM) ChargesInlined() bool { return vm.ModelClock() }

// ChargeInlinedCall implements Inliner: the callee's own cost row at the
// caller's level for payload bytes, and no call row (an inlined call is no
// call); see chargeInlinedCall (modelclock.go).
func (vm *VM) ChargeInlinedCall(_ context.Context, callee *Method, level Level, payload int) error {
	return vm.chargeInlinedCall(callee, level, payload)
}
