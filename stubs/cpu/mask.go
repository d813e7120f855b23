package cpu

import "github.com/jitsim/jitsim/jdk"

// Which CPU features does HotSpot still see under -XX:UseSSE and -XX:UseAVX?
//
// VM_Version::get_processor_features (src/hotspot/cpu/x86/vm_version_x86.cpp) clears the
// feature bits above the chosen levels before anything reads them, so the flag ergonomics that
// follow (supports_sse4_1() and friends) and the stub generators (supports_avx(),
// supports_avx512_vaes()) all see the masked CPU. [Mask] is that one mask: runtime/ergo reads
// the level limits and the masked features through it, stubs.Select the masked features.

// Mask is the UseSSE and UseAVX levels of one release. The zero levels mask every SSE3+ and
// AVX feature; HotSpot's own defaults (UseSSE=99, UseAVX=3) mask nothing the CPU has. Only x86
// features are masked: an arm64 feature set passes unchanged.
type Mask struct {
	Release        jdk.Release
	UseSSE, UseAVX int
}

// level is one rung of UseSSE or UseAVX: value n keeps the features of every rung up to n.
// key is the feature whose presence makes the rung available (the CPUID bit HotSpot tests).
type level struct {
	n     int
	key   Feature
	keeps Set
}

// sseLevels are UseSSE's rungs, lowest first ("if (UseSSE < 4) clear SSE4_1 and SSE4_2", "< 3"
// SSE3 and SSSE3, "< 2" SSE2; jitsim has no SSE1 bit and every x86-64 CPU has SSE2).
var sseLevels = []level{
	{2, SSE2, Of(SSE2)},
	{3, SSE3, Of(SSE3, SSSE3)},
	{4, SSE41, Of(SSE41, SSE42)},
}

// avxLevels are UseAVX's rungs, lowest first: 3 keeps the AVX-512 bits, including the
// AVX-512 forms of VAES and VPCLMULQDQ (supports_evex gates it), 2 AVX2, 1 AVX.
var avxLevels = []level{
	{1, AVX, Of(AVX)},
	{2, AVX2, Of(AVX2)},
	{3, AVX512F, Of(AVX512F, AVX512BW, AVX512VL, AVX512DQ, VAES, VPCLMULQDQ)},
}

// maskRow is how one family of releases reads the levels; a row per difference.
type maskRow struct {
	releases jdk.Set
	// maxAVX is the highest UseAVX level the release knows: 8u's vm_version_x86.cpp has no
	// AVX-512, so its CPUs never show the AVX-512 bits (hotspot.md §3.3).
	maxAVX int
	// avxNeedsSSE4: UseSSE below 4 turns AVX off ("UseAVX=%d requires UseSSE=4, setting it
	// to UseAVX=0", Temurin 25.0.3). OpenJDK 17.0.15 keeps UseAVX=3 and the AVX stubs under
	// -XX:UseSSE=3 (recorded); 21 follows 17 (not observed here).
	avxNeedsSSE4 bool
}

// maskRows is the one table of per-release mask behaviour.
var maskRows = []maskRow{
	{releases: jdk.Before(jdk.R17), maxAVX: 2},
	{releases: jdk.Range(jdk.R17, jdk.R25), maxAVX: 3},
	{releases: jdk.Since(jdk.R25), maxAVX: 3, avxNeedsSSE4: true},
}

// row returns the release's row; a value that is not a release reads like the newest.
func (m Mask) row() maskRow {
	for _, r := range maskRows {
		if r.releases.Has(m.Release) {
			return r
		}
	}
	return maskRows[len(maskRows)-1]
}

// AVXNeedsSSE4 reports whether the release turns AVX off because UseSSE is below 4; the
// AVX limit is then 0 whatever the CPU has, and HotSpot says why in its own warning.
func (m Mask) AVXNeedsSSE4() bool { return m.row().avxNeedsSSE4 && m.UseSSE < 4 }

// avx is the AVX level the features are masked to.
func (m Mask) avx() int {
	if m.AVXNeedsSSE4() {
		return 0
	}
	return min(m.UseAVX, m.row().maxAVX)
}

// Apply returns s as HotSpot sees it under the mask: the SSE features above UseSSE and the
// AVX features above UseAVX removed (and those the release does not know). AES and PCLMULQDQ
// stay: HotSpot tests UseSSE for them in the flag ergonomics instead.
func (m Mask) Apply(s Set) Set {
	for _, l := range sseLevels {
		if m.UseSSE < l.n {
			s &^= l.keeps
		}
	}
	avx := m.avx()
	for _, l := range avxLevels {
		if avx < l.n {
			s &^= l.keeps
		}
	}
	return s
}

// SSELimit returns the highest UseSSE level CPU s supports: 4 with SSE4.1, 3 with SSE3, 2 with
// SSE2, else 0.
func SSELimit(s Set) int { return limit(sseLevels, s) }

// AVXLimit returns the highest UseAVX level CPU s supports under the mask's release and UseSSE
// (UseAVX itself is not read): 3 with AVX-512F (2 in a release without AVX-512), 2 with AVX2,
// 1 with AVX, and 0 without AVX or when [Mask.AVXNeedsSSE4].
func (m Mask) AVXLimit(s Set) int {
	if m.AVXNeedsSSE4() {
		return 0
	}
	return min(limit(avxLevels, s), m.row().maxAVX)
}

// limit is the highest rung whose key s has, or 0.
func limit(levels []level, s Set) int {
	for i := len(levels) - 1; i >= 0; i-- {
		if s.Has(levels[i].key) {
			return levels[i].n
		}
	}
	return 0
}
