package cpu

import (
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

func TestImplications(t *testing.T) {
	tests := []struct{ f, implied Feature }{
		{AVX2, AVX}, {AVX, SSE42}, {SSE42, SSE41}, {SSE41, SSSE3}, {SSSE3, SSE3}, {SSE3, SSE2},
		{AVX512F, AVX2}, {AVX512BW, AVX512F}, {AVX512VL, AVX512F}, {AVX512DQ, AVX512F},
		{VAES, AVX512F}, {VAES, AES}, {VPCLMULQDQ, AVX512F}, {VPCLMULQDQ, PCLMULQDQ},
		{ARM_AES, ASIMD}, {PMULL, ARM_AES}, {SHA3, ASIMD},
	}
	for _, tt := range tests {
		t.Run(tt.f.String()+"=>"+tt.implied.String(), func(t *testing.T) {
			if !tt.f.Implies().Has(tt.implied) {
				t.Errorf("%v.Implies() = %v, missing %v", tt.f, tt.f.Implies(), tt.implied)
			}
		})
	}
}

// checkClosed fails if s has a feature without all the features it implies.
func checkClosed(t *testing.T, what string, s Set) {
	t.Helper()
	for _, f := range s.Features() {
		if !s.HasAll(f.Implies()) {
			t.Errorf("%s: has %v but not all of %v (set %v)", what, f, f.Implies(), s)
		}
	}
}

func TestHostAndModelsHoldImplications(t *testing.T) {
	checkClosed(t, "host", Host())
	for _, m := range Models() {
		checkClosed(t, m.Name, m.Features)
		for _, f := range m.Features.Features() {
			if m.Name != "host" && f.Arch() != m.Arch {
				t.Errorf("%s (%v) lists %v feature %v", m.Name, m.Arch, f.Arch(), f)
			}
		}
	}
}

func TestHostMinimum(t *testing.T) {
	switch jdk.HostArch() {
	case jdk.AMD64:
		if !Host().Has(SSE2) {
			t.Errorf("amd64 host without SSE2: %v", Host())
		}
	case jdk.ARM64:
		if !Host().Has(ASIMD) {
			t.Errorf("arm64 host without ASIMD: %v", Host())
		}
	}
}

func TestModelsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Models() {
		t.Run(m.Name, func(t *testing.T) {
			if m.Name == "" || m.Description == "" || m.Source == "" || m.Cores <= 0 {
				t.Errorf("incomplete row: %+v", m)
			}
			if m.Name != "host" && m.Arch == 0 {
				t.Errorf("no arch: %+v", m)
			}
			if seen[m.Name] {
				t.Errorf("duplicate name %q", m.Name)
			}
			seen[m.Name] = true
			if r := m.Runnable(); !Host().HasAll(r) || !m.Features.HasAll(r) {
				t.Errorf("Runnable %v not within host %v and model %v", r, Host(), m.Features)
			}
			got, err := Lookup(m.Name)
			if err != nil || got.Name != m.Name || got.Features != m.Features {
				t.Errorf("Lookup(%q) = %+v, %v", m.Name, got, err)
			}
		})
	}
	for _, want := range []string{"host", "sandybridge-i5", "haswell-e5-2660v3", "skylake-avx2",
		"icelake-server", "neoverse-n1", "apple-m1"} {
		if !seen[want] {
			t.Errorf("model %q missing", want)
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := Lookup("pentium-mmx")
	if err == nil || !strings.Contains(err.Error(), `"pentium-mmx"`) || !strings.Contains(err.Error(), "icelake-server") {
		t.Errorf("Lookup(unknown) error = %v; want the name and the known names", err)
	}
}

func TestSetOps(t *testing.T) {
	s := Of(AES, AVX2, SSE2)
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"Has", s.Has(AVX2), true},
		{"HasNot", s.Has(AVX), false},
		{"HasAll", s.HasAll(Of(AES, SSE2)), true},
		{"HasAllNot", s.HasAll(Of(AES, VAES)), false},
		{"Without", s.Without(AVX2), Of(AES, SSE2)},
		{"Intersect", s.Intersect(Of(AES, PMULL)), Of(AES)},
		{"String", s.String(), "aes,avx2,sse2"},
		{"Empty", Set(0).String(), "none"},
		{"Normalize", Normalize(Of(AVX2, AVX512F, SSE2)), Of(SSE2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	for _, f := range Features() {
		g, err := ParseFeature(f.String())
		if err != nil || g != f {
			t.Errorf("ParseFeature(%q) = %v, %v", f.String(), g, err)
		}
	}
	if _, err := ParseFeature("mmx"); err == nil {
		t.Error("ParseFeature(mmx) succeeded")
	}
}
