//go:build !purego

package gcm

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/stubs/cpu"
)

// TestNeedsCoverAsmRequires checks that each amd64 variant's Needs include
// every ISA extension avo lists in the "// Requires:" line of the functions
// behind it (gcm_amd64.s), so a variant never runs instructions its
// declaration does not mention.
func TestNeedsCoverAsmRequires(t *testing.T) {
	text := map[string]string{ // asm function → variant name
		"ghashPCLMUL":   "pclmul-1block",
		"ghashAVX8":     "avx-8block",
		"gcmEncAVX2":    "avx2-interleaved8",
		"gcmDecAVX2":    "avx2-interleaved8",
		"gcmEncVAES":    "vaes-avx512-ymm",
		"gcmDecVAES":    "vaes-avx512-ymm",
		"gcmEncVAES512": "vaes-avx512",
		"gcmDecVAES512": "vaes-avx512",
	}
	isa := map[string]cpu.Feature{
		"SSE2": cpu.SSE2, "SSSE3": cpu.SSSE3, "AES": cpu.AES, "PCLMULQDQ": cpu.PCLMULQDQ, "AVX": cpu.AVX,
		"AVX2": cpu.AVX2, "AVX512F": cpu.AVX512F, "AVX512BW": cpu.AVX512BW, "AVX512VL": cpu.AVX512VL,
		"AVX512DQ": cpu.AVX512DQ, "VAES": cpu.VAES, "VPCLMULQDQ": cpu.VPCLMULQDQ,
	}
	needs := map[string]cpu.Set{}
	for _, v := range GHASHVariants() {
		needs[v.Name()] = v.Needs()
	}
	for _, v := range GCMVariants() {
		needs[v.Name()] = v.Needs()
	}
	f, err := os.Open("gcm_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var req []string
	seen := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if r, ok := strings.CutPrefix(l, "// Requires: "); ok {
			req = strings.Split(r, ", ")
			continue
		}
		name, ok := strings.CutPrefix(l, "TEXT ·")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "(")
		v, ok := text[name]
		if !ok {
			t.Errorf("asm function %s belongs to no variant in this test's table", name)
			continue
		}
		seen++
		var closed cpu.Set
		for _, f := range needs[v].Features() {
			closed = closed.With(f) | f.Implies()
		}
		for _, r := range req {
			f, ok := isa[r]
			if !ok {
				t.Errorf("%s requires %s, which this test cannot map to a cpu.Feature", name, r)
				continue
			}
			if !closed.Has(f) {
				t.Errorf("%s (variant %s) requires %s, missing from Needs %v", name, v, r, needs[v])
			}
		}
		req = nil
	}
	if seen != len(text) {
		t.Errorf("found %d asm functions, want %d", seen, len(text))
	}
}
