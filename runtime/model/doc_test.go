package model_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

const (
	docBegin = "<!-- BEGIN GENERATED COST TABLE (JITSIM_UPDATE_DOC=1 go test ./runtime/model -run TestDocCostTable) -->"
	docEnd   = "<!-- END GENERATED COST TABLE -->"
)

var updateDoc = os.Getenv("JITSIM_UPDATE_DOC") == "1"

// costTable renders every profile's rows, with their sources, as markdown.
func costTable() string {
	var b strings.Builder
	for _, p := range model.Profiles() {
		fmt.Fprintf(&b, "\n### %s (%.1f GHz)\n\n%s\n\n", p.CPU, p.GHz, p.Source)
		b.WriteString("| what | family | per | cost | source |\n|---|---|---|---|---|\n")
		for _, r := range p.Rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.What, r.Family, r.Unit, model.Cost(r.Ps), strings.ReplaceAll(r.Source, "|", "/"))
		}
		// A release with runs of its own on the recording host: the rows they change.
		for _, rel := range jdk.AllReleases.Releases() {
			q, err := model.LookupRelease(p.CPU, rel)
			if err != nil {
				panic(err)
			}
			var diff []model.Row
			for i, r := range q.Rows {
				if r != p.Rows[i] {
					diff = append(diff, r)
				}
			}
			if len(diff) == 0 {
				continue
			}
			fmt.Fprintf(&b, "\n%s on JDK %s: the rows its own runs price differently\n\n", p.CPU, rel)
			b.WriteString("| what | family | per | cost | source |\n|---|---|---|---|---|\n")
			for _, r := range diff {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.What, r.Family, r.Unit, model.Cost(r.Ps), strings.ReplaceAll(r.Source, "|", "/"))
			}
		}
	}
	return b.String()
}

// TestDocCostTable checks that docs/cost-table.md (model.md §7's table)
// carries the current cost table; JITSIM_UPDATE_DOC=1 rewrites that section.
func TestDocCostTable(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "cost-table.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, docBegin), strings.Index(s, docEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no generated cost table section", path)
	}
	want := s[:i+len(docBegin)] + "\n" + costTable() + "\n" + s[j:]
	if updateDoc {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != s {
		t.Fatalf("%s is out of date: run JITSIM_UPDATE_DOC=1 go test ./runtime/model -run TestDocCostTable", path)
	}
}
