package cpu

import (
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestMaskApply checks what each level keeps on an AVX-512 part, and the release rows: 8u
// knows no AVX-512, 17 keeps AVX under UseSSE=3, 25 drops it. The real JVMs' answers for every
// UseSSE/UseAVX pair are checked end to end by runtime's TestStubMaskRecorded.
func TestMaskApply(t *testing.T) {
	ice, err := Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	all := ice.Features
	tests := []struct {
		rel      jdk.Release
		sse, avx int
		want     Set
	}{
		{jdk.R25, 99, 3, all},
		{jdk.R25, 4, 99, all},
		{jdk.R25, 4, 2, x86AVX2},
		{jdk.R25, 4, 1, x86AVX},
		{jdk.R25, 4, 0, x86SSE42.With(AES, PCLMULQDQ)},
		{jdk.R25, 3, 3, Of(SSE2, SSE3, SSSE3, AES, PCLMULQDQ)},
		{jdk.R25, 2, 3, Of(SSE2, AES, PCLMULQDQ)},
		{jdk.R17, 3, 3, all.Without(SSE41, SSE42)},
		{jdk.R21, 3, 2, x86AVX2.Without(SSE41, SSE42)},
		{jdk.R17, 2, 1, x86AVX.Without(SSE3, SSSE3, SSE41, SSE42)},
		{jdk.R8u, 99, 3, x86AVX2},
		{jdk.R8, 4, 1, x86AVX},
		{jdk.R25, 0, 0, Of(AES, PCLMULQDQ)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/sse%d/avx%d", tt.rel, tt.sse, tt.avx), func(t *testing.T) {
			if got := (Mask{Release: tt.rel, UseSSE: tt.sse, UseAVX: tt.avx}).Apply(all); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	arm := Of(ASIMD, ARM_AES, PMULL)
	if got := (Mask{Release: jdk.R25}).Apply(arm); got != arm {
		t.Errorf("arm64 features masked: %v", got)
	}
}

// TestMaskLimits checks the level limits the ergonomics settle UseSSE and UseAVX to.
func TestMaskLimits(t *testing.T) {
	model := func(name string) Set {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return m.Features
	}
	ice, sandy := model("icelake-server"), model("sandybridge-i5")
	tests := []struct {
		rel       jdk.Release
		sse       int
		cpu       Set
		wantAVX   int
		wantGated bool
	}{
		{jdk.R25, 4, ice, 3, false},
		{jdk.R25, 3, ice, 0, true},
		{jdk.R17, 3, ice, 3, false},
		{jdk.R21, 2, ice, 3, false},
		{jdk.R8u, 4, ice, 2, false},
		{jdk.R25, 4, sandy, 1, false},
		{jdk.R25, 4, x86SSE42, 0, false},
	}
	for _, tt := range tests {
		m := Mask{Release: tt.rel, UseSSE: tt.sse}
		if got, gated := m.AVXLimit(tt.cpu), m.AVXNeedsSSE4(); got != tt.wantAVX || gated != tt.wantGated {
			t.Errorf("%s UseSSE=%d on %v: AVX limit %d (needs SSE4: %v), want %d (%v)", tt.rel, tt.sse, tt.cpu, got, gated, tt.wantAVX, tt.wantGated)
		}
	}
	for cpu, want := range map[Set]int{ice: 4, x86SSE42.Without(SSE41, SSE42): 3, Of(SSE2, AES): 2, 0: 0} {
		if got := SSELimit(cpu); got != want {
			t.Errorf("SSELimit(%v) = %d, want %d", cpu, got, want)
		}
	}
	for _, r := range jdk.All() {
		found := false
		for _, row := range maskRows {
			if row.releases.Has(r) {
				if found {
					t.Errorf("JDK %s has two mask rows", r)
				}
				found = true
			}
		}
		if !found {
			t.Errorf("JDK %s has no mask row", r)
		}
	}
}
