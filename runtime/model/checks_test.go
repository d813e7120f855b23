package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	checksBegin = "<!-- BEGIN CHECKS -->"
	checksEnd   = "<!-- END CHECKS -->"
)

// checksText renders the consistency checks of docs/model.md §6: the
// stub formulas at the host's instruction facts against the host's JVM
// measurements, and the per-method attribution (GCM ≈ CTR + GHASH.update) per tier.
func checksText() string {
	var b strings.Builder
	host, _ := lookupUarch("host")
	fmt.Fprintf(&b, "Stub formulas (§2.3) evaluated with the host's instruction facts at its clock while the JVM rows were recorded, %d MHz (§2.2), against the JVM's measurement of the same variant on the host (§2.1). ", host.mhz)
	b.WriteString("The formulas were not adjusted after this comparison.\n\n")
	b.WriteString("| stub | variant | JVM run, mode | formula ns/byte | JVM ns/byte | JVM / formula |\n|---|---|---|---|---|---|\n")
	for _, id := range stubVariants() {
		for _, h := range id.Host() {
			f := float64(cyclesToPs(id.Cost().PerBlock(host.insn()), host.mhz)) / 16 / 1000
			m, _, _ := hostStubMeasure(h)
			what := h.Run + ", " + h.Mode
			if h.Minus != "" {
				what += " − " + h.Minus
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %.3f | %.3f | %.2f |\n", id.Stub(), id.Name(), what, f, float64(m)/1000, float64(m)/1000/f)
		}
	}
	b.WriteString("\nAttribution check (§2.1): per tier, the measured GCM encryption against the sum of its parts CTR + GHASH.update (the row Java GHASH is priced by), ")
	b.WriteString("and against CTR + GMAC (the row it was priced by before), in ns/byte.\n\n")
	b.WriteString("| tier | GCM | CTR + GHASH.update | GCM / (CTR + GHASH.update) | CTR + GMAC | GCM / (CTR + GMAC) |\n|---|---|---|---|---|---|\n")
	for level, run := range tierRuns {
		what, _ := TierWhat(level)
		g, _ := jvm(jvmRows, run, "gcm-enc")
		c, _ := jvm(jvmRows, run, "ctr")
		h, _ := jvm(jvmRows, run, GHASHMode)
		m, _ := jvm(jvmRows, run, "gmac")
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", what, float64(g)/1000, float64(c+h)/1000, float64(g)/float64(c+h),
			float64(c+m)/1000, float64(g)/float64(c+m))
	}
	return b.String()
}

// TestDocChecks keeps docs/model.md §6 current (JITSIM_UPDATE_DOC=1 rewrites it).
func TestDocChecks(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "model.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, checksBegin), strings.Index(s, checksEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no checks section", path)
	}
	want := s[:i+len(checksBegin)] + "\n" + checksText() + s[j:]
	if os.Getenv("JITSIM_UPDATE_DOC") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != s {
		t.Fatalf("%s §6 is out of date: run JITSIM_UPDATE_DOC=1 go test ./runtime/model -run TestDoc", path)
	}
}
