package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// newExplainCommand is `jitsim explain`: for one method or intrinsic, what code runs at each
// level 0..4 and where a call from code at that level goes (stub variant or Java), and why. It
// asks the runtime's one dispatch decision (VM.Explain), so what it prints is what Route does.
func (d deps) newExplainCommand(split *runArgs, getenv func(string) (string, bool), status *int) *cobra.Command {
	var jdkName, cpuName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [--jdk=" + strings.Join(jdk.Names(), "|") + "] [--cpu=NAME] [--json] [VM options…] (Class::method | intrinsic ID)",
		Short: "Explain where a call to a method or intrinsic goes at each compilation level",
		Long: `Explain prints, for compilation levels 0..4, what code a method runs at that level
(interpreted module, C1 level-N code, C2 code) and where a call to it from code at that level
goes: the intrinsic's stub variant, or the method's own Java code, with the reason (JDK profile,
caller level, gate flag, DisableIntrinsic/ControlIntrinsic, stub presence for the CPU model,
the runtime predicate). The method's Java bytecode size decides whether a caller's code inlines
it (C1MaxInlineSize at levels 1-3, FreqInlineSize at level 4, for a warmed-up caller).

The name is a HotSpot intrinsic ID (_ghash_processBlocks), jitsim's Go-cased name
(GHASHProcessBlocks), or a method: Class::method or Class.method, with the package or without
it when the short class name is unambiguous. VM options are java's, as for 'jitsim run'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			*status = d.explain(*split, jdkName, cpuName, asJSON, getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&jdkName, "jdk", jdk.Default.String(), "JDK profile: "+profileList())
	f.StringVar(&cpuName, "cpu", "host", "CPU model: "+strings.Join(d.cpuNames(), ", ")+" (see 'jitsim cpus')")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of the tree")
	return cmd
}

// Explanation is `jitsim explain --json`'s document.
type Explanation struct {
	JDK string `json:"jdk"`
	CPU string `json:"cpu"`
	// Method is "Class::name" in the profile, or "" when the profile has no such method.
	Method string `json:"method,omitempty"`
	// Bytes is the method's Java bytecode size in the profile (PrintCompilation's "(N
	// bytes)", what the inlining limits compare); BytesNote says when it is not the measured
	// size of this very method (bytecode SizeSources, Method.SizeNote).
	Bytes     int    `json:"bytes,omitempty"`
	BytesNote string `json:"bytes_note,omitempty"`
	// Intrinsic is the HotSpot ID, or "" when the method is not an intrinsic candidate.
	Intrinsic string `json:"intrinsic,omitempty"`
	GoName    string `json:"go_name,omitempty"`
	Stub      string `json:"stub,omitempty"`
	Gate      string `json:"gate,omitempty"`
	Predicate string `json:"predicate,omitempty"`
	// ExcludedBy names the compile command that keeps the method from being compiled (it
	// stays interpreted), "" when none does.
	ExcludedBy string `json:"excluded_by,omitempty"`
	// Levels has one entry per level 0..4.
	Levels []LevelExplanation `json:"levels"`
}

// LevelExplanation is one level of an Explanation.
type LevelExplanation struct {
	Level int `json:"level"`
	// Code is what the method's own code is at this level.
	Code string `json:"code"`
	// Call is "stub" or "java": where a call from code at this level goes.
	Call string `json:"call"`
	// Variant is the stub variant HotSpot would generate for the CPU model, Impl the one
	// that runs on this host (its generic twin when the host lacks a feature), Needs the
	// variant's CPU features, Why the variant's selection condition.
	Variant string `json:"variant,omitempty"`
	Impl    string `json:"impl,omitempty"`
	Needs   string `json:"needs,omitempty"`
	Why     string `json:"why,omitempty"`
	// Reason is the dispatch decision's reason; Flag the flag that decided, if one did.
	Reason string `json:"reason"`
	Flag   string `json:"flag,omitempty"`
	// Inline is the inlining decision for a Java call from code at this level, in
	// PrintInlining's words ("inline (hot)", "inline", "(intrinsic)", or why it stays a
	// call); Inlined reports whether the callee's code then runs inside the caller's.
	Inline  string `json:"inline,omitempty"`
	Inlined bool   `json:"inlined"`
	// InlineCommand is the compile command that decided Inline, if one did.
	InlineCommand string `json:"inline_command,omitempty"`
}

// levelCode names the code a method runs at each level (tiers/interp, tiers/c1, tiers/c2).
var levelCode = [...]string{
	"interpreted module (level 0, interpreter)",
	"C1 level-1 code (no profiling)",
	"C1 level-2 code (invocation and back-edge counters)",
	"C1 level-3 code (full profile)",
	"C2 code (level 4)",
}

// explain is `jitsim explain` after jitsim's own options are known; it returns the exit status.
func (d deps) explain(a runArgs, jdkName, cpuName string, asJSON bool, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	rel, err := jdk.Parse(jdkName)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim explain: --jdk:", err)
		return 2
	}
	model, err := d.resolveCPU(cpuName)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim explain: --cpu:", err)
		return 2
	}
	if a.scenario == "" {
		fmt.Fprintln(stderr, "jitsim explain: name a method (Class::method) or an intrinsic ID (see 'jitsim explain --help')")
		return 2
	}
	if len(a.rest) > 0 {
		fmt.Fprintf(stderr, "jitsim explain: one name at a time; %q follows %q\n", a.rest[0], a.scenario)
		return 2
	}
	vm, status := d.explainVM(rel, model, a.vm, getenv, stderr)
	if vm == nil {
		return status
	}
	defer vm.Close()
	ex, err := explainName(vm, a.scenario, model.Name)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim explain:", err)
		return 1
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ex); err != nil {
			fmt.Fprintln(stderr, "jitsim explain:", err)
			return 1
		}
		return 0
	}
	if err := writeTree(stdout, ex); err != nil {
		fmt.Fprintln(stderr, "jitsim explain:", err)
		return 1
	}
	return 0
}

// explainVM starts the VM explain asks, as `jitsim run` does: the configuration resolved
// once, HotSpot's warnings printed to stderr, the VM started with the settled values. Nothing
// runs, so the wall clock takes any CPU model. On an error it returns a nil VM and the exit
// status, the error printed.
func (d deps) explainVM(rel jdk.Release, model cpu.Model, options []string, getenv func(string) (string, bool), stderr io.Writer) (*jrt.VM, int) {
	r, err := setup.Resolve(setup.Request{JDK: rel, CPU: model, Options: options, Getenv: getenv, ReadFile: os.ReadFile,
		Tiers: d.tiers(), NewClock: d.wallClock})
	for _, s := range r.Result.Stderr {
		io.WriteString(stderr, s)
	}
	if err != nil {
		var fe *flags.Error
		if r.Flags == nil && errors.As(err, &fe) {
			io.WriteString(stderr, fe.Text)
			return nil, flags.ExitStatus
		}
		fmt.Fprintln(stderr, "jitsim explain:", err)
		return nil, 1
	}
	for _, l := range r.Warnings {
		fmt.Fprintln(stderr, l)
	}
	vm, err := r.NewVM(r.NewClock(), io.Discard)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim explain:", err)
		return nil, 1
	}
	return vm, 0
}

// resolveName turns the command line's name into an argument for VM.Explain: an intrinsic ID
// or Go name as it is, else the Key of the one method it names. The error lists the choices.
func resolveName(vm *jrt.VM, name string) (string, error) {
	if _, ok := jrt.LookupIntrinsic(name); ok {
		return name, nil
	}
	var hits []*jrt.Method
	for _, m := range vm.Table().Methods() {
		short := m.Class[strings.LastIndexByte(m.Class, '.')+1:]
		forms := []string{m.Key, m.Class + "::" + m.Name, m.Class + "." + m.Name, short + "::" + m.Name, short + "." + m.Name}
		if slices.Contains(forms, name) {
			hits = append(hits, m)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0].Key, nil
	case 0:
		return "", fmt.Errorf("%q is neither an intrinsic nor a method of JDK %s; choose one of:\n%s", name, vm.Flags().JDK(), choices(vm))
	}
	var names []string
	for _, m := range hits {
		names = append(names, "  "+m.Class+"::"+m.Name)
	}
	return "", fmt.Errorf("%q is ambiguous in JDK %s; it names:\n%s", name, vm.Flags().JDK(), strings.Join(names, "\n"))
}

// choices lists every name explain accepts for the VM's profile: intrinsic IDs with their Go
// names, then the methods.
func choices(vm *jrt.VM) string {
	var b strings.Builder
	b.WriteString("  intrinsics:\n")
	for _, id := range jrt.Intrinsics() {
		r := id.Row()
		fmt.Fprintf(&b, "    %-40s %s\n", r.HotSpotName, r.GoName)
	}
	b.WriteString("  methods:\n")
	for _, m := range vm.Table().Methods() {
		fmt.Fprintf(&b, "    %s\n", m)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// explainName builds the Explanation of name from the VM's decisions at each level.
func explainName(vm *jrt.VM, name, cpuName string) (Explanation, error) {
	key, err := resolveName(vm, name)
	if err != nil {
		return Explanation{}, err
	}
	ex := Explanation{JDK: vm.Flags().JDK().String(), CPU: cpuName}
	for l := jrt.LevelNone; l <= jrt.LevelFullOptimization; l++ {
		d, err := vm.Explain(key, l)
		if err != nil {
			return Explanation{}, err
		}
		if l == jrt.LevelNone {
			if m, err := vm.Method(d.Method); err == nil {
				ex.Method, ex.Bytes, ex.BytesNote = d.Method, m.Size, m.SizeNote
				if p := vm.Flags().JDK(); !bytecode.SizeMeasured(p) {
					ex.BytesNote = strings.TrimPrefix(ex.BytesNote+"; ", "; ") + "JDK " + p.String() + ": " + bytecode.SizeSources[p]
				}
			}
			if m, err := vm.Method(d.Method); err == nil {
				ex.ExcludedBy = vm.ExcludedBy(m)
			}
			if d.Intrinsic != jrt.NoIntrinsic {
				r := d.Intrinsic.Row()
				ex.Intrinsic, ex.GoName, ex.Stub, ex.Gate, ex.Predicate = r.HotSpotName, r.GoName, r.Stub, r.GateDoc, r.PredicateDoc
			}
		}
		le := LevelExplanation{Level: int(l), Code: levelCode[l], Call: "java", Reason: d.Reason, Flag: d.Flag}
		if ex.Method == "" {
			le.Code = "none (the profile has no such method)"
		}
		if d.Stub {
			le.Call, le.Variant, le.Impl = "stub", d.Variant.Name, d.Impl.Name
			le.Needs, le.Why = d.Variant.Needs.String(), d.Variant.Condition
		}
		if m, err := vm.Method(d.Method); err == nil && !d.Stub {
			id := vm.Inline(jrt.Site{Level: l, Callee: m})
			le.Inline, le.Inlined, le.InlineCommand = id.Reason, id.Inline, id.Command
		}
		ex.Levels = append(ex.Levels, le)
	}
	return ex, nil
}

// writeTree prints an Explanation as a tree, one branch per level.
func writeTree(w io.Writer, ex Explanation) error {
	var b strings.Builder
	head := ex.Method
	if head == "" {
		head = ex.Intrinsic
	}
	title := head
	if ex.Bytes > 0 {
		title += fmt.Sprintf(" (%d bytes)", ex.Bytes)
	}
	fmt.Fprintf(&b, "%s  (JDK %s, CPU %s)\n", title, ex.JDK, ex.CPU)
	if ex.BytesNote != "" {
		fmt.Fprintf(&b, "│ size: %s\n", ex.BytesNote)
	}
	if ex.Intrinsic != "" {
		fmt.Fprintf(&b, "│ intrinsic %s (%s), stub %s\n", ex.Intrinsic, ex.GoName, ex.Stub)
		fmt.Fprintf(&b, "│ gate: %s; predicate: %s\n", ex.Gate, ex.Predicate)
	} else {
		b.WriteString("│ not an intrinsic candidate: every call runs the method's own code\n")
	}
	if ex.ExcludedBy != "" {
		fmt.Fprintf(&b, "│ never compiled, stays interpreted: excluded by %s\n", ex.ExcludedBy)
	}
	for i, le := range ex.Levels {
		branch, cont := "├─", "│ "
		if i == len(ex.Levels)-1 {
			branch, cont = "└─", "  "
		}
		fmt.Fprintf(&b, "%s level %d: %s\n", branch, le.Level, le.Code)
		if le.Call == "stub" {
			fmt.Fprintf(&b, "%s  call from level %d → stub %s/%s", cont, le.Level, ex.Stub, le.Variant)
			if le.Impl != le.Variant {
				fmt.Fprintf(&b, " (this host runs %s)", le.Impl)
			}
			b.WriteString("\n")
			fmt.Fprintf(&b, "%s    why: %s; variant needs %s; selected because %s\n", cont, le.Reason, le.Needs, le.Why)
			continue
		}
		fmt.Fprintf(&b, "%s  call from level %d → Java code of %s", cont, le.Level, head)
		switch {
		case le.Inlined:
			fmt.Fprintf(&b, ", inlined into the caller's code (%s)", le.Inline)
		case le.Inline != "":
			fmt.Fprintf(&b, ", called (%s)", le.Inline)
		}
		if le.InlineCommand != "" {
			fmt.Fprintf(&b, " [%s]", le.InlineCommand)
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "%s    why: %s", cont, le.Reason)
		if le.Flag != "" {
			fmt.Fprintf(&b, " [flag %s]", le.Flag)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
