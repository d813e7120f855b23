package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
)

// TestIntrinsicsDoc keeps docs/intrinsics.md equal to the intrinsic table
// and the stub selection table; after changing a row run
// go test ./runtime -run TestIntrinsicsDoc -update.
func TestIntrinsicsDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "intrinsics.md")
	want := IntrinsicsMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./runtime -run TestIntrinsicsDoc -update)", err)
	}
	if string(got) != want {
		t.Error("docs/intrinsics.md is out of date: run go test ./runtime -run TestIntrinsicsDoc -update")
	}
}

// IntrinsicsMarkdown renders the intrinsic table (intrinsics.go) with each
// intrinsic's method and releases (the method table of bytecode) and, per
// stub, the variant selection rules (stubs.Rules) as docs/intrinsics.md.
func IntrinsicsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Crypto intrinsics jitsim models\n\n")
	b.WriteString("Which JDK methods can a call reach a stub instead of, from which caller levels, under which flags,\n")
	b.WriteString("and which stub variant does each release generate on which CPU? Generated from the intrinsic table\n")
	b.WriteString("in `runtime/intrinsics.go`, the method table of package `bytecode` (which method each intrinsic\n")
	b.WriteString("replaces, per release) and the stub selection table of package `stubs`\n")
	b.WriteString("(`go test ./runtime -run TestIntrinsicsDoc -update`). `jitsim explain ID` shows\n")
	b.WriteString("the decision for one JDK, CPU model and flag set; docs/dispatch.md explains the path of a call.\n\n")
	b.WriteString("A call from code at a caller level in the row's levels goes to the stub when the JDK profile has\n")
	b.WriteString("the intrinsic, InlineNatives is on, every gate flag is on, DisableIntrinsic/ControlIntrinsic do\n")
	b.WriteString("not name it, a stub variant is generated for the JDK, CPU and flags, and the predicate holds.\n")
	fmt.Fprintf(&b, "With `-XX:+UnlockExperimentalVMOptions -XX:+%s` the Haley levels apply instead.\n\n", HaleyFlag)
	b.WriteString("| Intrinsic | Go name | Method (JDK 9+ / JDK 8) | JDKs | Gate | Predicate | Stub | Levels | Haley levels |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, id := range Intrinsics() {
		r := id.Row()
		m9, m8 := r.Method(jdk.R17), r.Method(jdk.R8)
		method := shortClass(m9.Class) + "." + m9.Name
		if m8.Name != m9.Name {
			method += " / " + m8.Name
		}
		pred := r.PredicateDoc
		if r.Predicated {
			pred += " (C2 emits a predicate)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | `%s` `%s` | %s | %s | %s | `%s` | %s | %s |\n",
			r.HotSpotName, r.GoName, method, m9.Descriptor, jdkList(r.Releases().Releases()), r.GateDoc, pred, r.Stub, r.Levels, r.HaleyLevels)
	}
	b.WriteString("\n## What each intrinsic does\n\n")
	for _, id := range Intrinsics() {
		r := id.Row()
		fmt.Fprintf(&b, "- `%s`: %s.\n", r.HotSpotName, r.Doc)
	}
	b.WriteString("\n## Stub variants\n\n")
	b.WriteString("For each stub the rules are tried in order and the first that matches wins (the most specific\n")
	b.WriteString("first, as HotSpot's generators test CPU features in if/else chains). \"Until\" is the first profile\n")
	b.WriteString("without the variant. A variant the host cannot run executes as its generic twin.\n")
	seen := map[string]bool{}
	for _, id := range Intrinsics() {
		r := id.Row()
		if seen[r.Stub] {
			continue
		}
		seen[r.Stub] = true
		fmt.Fprintf(&b, "\n### `%s`\n\n", r.Stub)
		b.WriteString("| Arch | Variant | Since | Until | CPU features | Condition | HotSpot generator |\n")
		b.WriteString("|---|---|---|---|---|---|---|\n")
		for _, rule := range stubs.Rules() {
			if rule.ID.Stub() != r.Stub {
				continue
			}
			rs := rule.Releases.Releases()
			since, until := rs[0].String(), "–"
			if last := rs[len(rs)-1]; last != jdk.R25 {
				until = (last + 1).String()
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | `%s` |\n", rule.ID.Arch(), rule.ID.Name(), since, until,
				rule.Requires, strings.ReplaceAll(rule.Condition, "|", "\\|"), rule.Generator)
		}
	}
	return b.String()
}

func shortClass(c string) string { return c[strings.LastIndexByte(c, '.')+1:] }

func jdkList(js []jdk.Release) string {
	var s []string
	for _, j := range js {
		s = append(s, j.String())
	}
	return strings.Join(s, ", ")
}
