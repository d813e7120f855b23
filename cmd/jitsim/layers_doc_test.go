package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The house drawing: docs/layers.md shows every package of the module by layer, lowest first,
// and each direct import as an arrow, generated from `go list` and the layer table above, so
// the picture cannot drift from the code. TestImportDirection makes every arrow point down.

const (
	layersBegin = "<!-- BEGIN GENERATED LAYERS (JITSIM_UPDATE_DOC=1 go test ./cmd/jitsim -run TestLayerDrawing) -->"
	layersEnd   = "<!-- END GENERATED LAYERS -->"
)

// projectImports returns each non-test package of the module (relative path) with the module
// packages it imports directly. Generators and recorders run by hand (package main under
// internal/ or testdata/) are left out: they are tools, not layers.
func projectImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}} {{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(f[0], module), "/")
		if pkg == "" || f[1] == "main" && pkg != "cmd/jitsim" || strings.Contains(pkg, "/internal/tiertest") {
			continue
		}
		var ds []string
		for _, imp := range f[2:] {
			if strings.HasPrefix(imp, module+"/") {
				ds = append(ds, strings.TrimPrefix(imp, module+"/"))
			}
		}
		deps[pkg] = ds
	}
	return deps
}

// layerDrawing renders the packages as a Mermaid flowchart (importers above what they import,
// the leaves at the bottom, a box per rank)
// and as a table a reader without Mermaid can follow. Arrows are the transitive reduction of
// the imports: an import already implied by a longer path is not drawn, but is listed.
func layerDrawing(deps map[string][]string) string {
	pkgs := make([]string, 0, len(deps))
	for p := range deps {
		pkgs = append(pkgs, p)
	}
	rank := func(p string) int { r, _ := rankOf(p); return r }
	sort.Slice(pkgs, func(i, j int) bool {
		if ri, rj := rank(pkgs[i]), rank(pkgs[j]); ri != rj {
			return ri < rj
		}
		return pkgs[i] < pkgs[j]
	})
	reach := func(from, to string, skip string) bool {
		seen := map[string]bool{}
		var walk func(p string) bool
		walk = func(p string) bool {
			if p == to {
				return true
			}
			if seen[p] {
				return false
			}
			seen[p] = true
			for _, d := range deps[p] {
				if p == from && d == skip {
					continue
				}
				if walk(d) {
					return true
				}
			}
			return false
		}
		return walk(from)
	}
	id := func(p string) string { return strings.NewReplacer("/", "_", ".", "_").Replace(p) }
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart TB\n")
	byRank := map[int][]string{}
	var ranks []int
	for _, p := range pkgs {
		r := rank(p)
		if _, ok := byRank[r]; !ok {
			ranks = append(ranks, r)
		}
		byRank[r] = append(byRank[r], p)
	}
	for _, r := range ranks {
		fmt.Fprintf(&b, "  subgraph L%d [\"layer %d\"]\n", r, r)
		for _, p := range byRank[r] {
			fmt.Fprintf(&b, "    %s[\"%s\"]\n", id(p), p)
		}
		b.WriteString("  end\n")
	}
	for _, p := range pkgs {
		for _, d := range deps[p] {
			if !reach(p, d, d) {
				fmt.Fprintf(&b, "  %s --> %s\n", id(p), id(d))
			}
		}
	}
	b.WriteString("```\n\n| layer | package | imports (direct) |\n|---|---|---|\n")
	for _, p := range pkgs {
		ds := slices.Clone(deps[p])
		sort.Strings(ds)
		fmt.Fprintf(&b, "| %d | `%s` | %s |\n", rank(p), p, strings.Join(ds, ", "))
	}
	return b.String()
}

// TestLayerDrawing checks that docs/layers.md carries the current drawing;
// JITSIM_UPDATE_DOC=1 rewrites it.
func TestLayerDrawing(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "layers.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, layersBegin), strings.Index(s, layersEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated layers section", path)
	}
	want := s[:i+len(layersBegin)] + "\n" + layerDrawing(projectImports(t)) + s[j:]
	if os.Getenv("JITSIM_UPDATE_DOC") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != s {
		t.Fatalf("%s is out of date: run JITSIM_UPDATE_DOC=1 go test ./cmd/jitsim -run TestLayerDrawing", path)
	}
}

// TestLayerDrawingPointsDown checks the drawing's own premise on a small graph: every arrow
// it draws goes from a higher layer to a lower one, and an implied import is not drawn.
func TestLayerDrawingPointsDown(t *testing.T) {
	deps := map[string][]string{
		"runtime":    {"flags", "jdk"},
		"flags":      {"jdk"},
		"jdk":        nil,
		"cmd/jitsim": {"runtime", "flags"},
	}
	d := layerDrawing(deps)
	for _, want := range []string{"runtime --> flags", "flags --> jdk", "cmd_jitsim --> runtime"} {
		if !strings.Contains(d, want) {
			t.Errorf("drawing lacks %q:\n%s", want, d)
		}
	}
	for _, not := range []string{"runtime --> jdk", "cmd_jitsim --> flags"} {
		if strings.Contains(d, not) {
			t.Errorf("drawing draws the implied import %q", not)
		}
	}
}
