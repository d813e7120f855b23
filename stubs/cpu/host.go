package cpu

import (
	"runtime"

	xcpu "golang.org/x/sys/cpu"
)

// host is read once, at package initialisation, and never written again.
var host = readHost()

// Host returns the features of the machine this process runs on, as
// golang.org/x/sys/cpu detected them at start-up (so GODEBUG=cpu.X=off masks
// apply), normalised so that every implication of the feature table holds.
// The value is immutable.
func Host() Set { return host }

func readHost() Set {
	var s Set
	add := func(ok bool, f Feature) {
		if ok {
			s = s.With(f)
		}
	}
	switch runtime.GOARCH {
	case "amd64":
		x := &xcpu.X86
		add(x.HasSSE2, SSE2)
		add(x.HasSSE3, SSE3)
		add(x.HasSSSE3, SSSE3)
		add(x.HasSSE41, SSE41)
		add(x.HasSSE42, SSE42)
		add(x.HasAVX, AVX)
		add(x.HasAVX2, AVX2)
		add(x.HasAES, AES)
		add(x.HasPCLMULQDQ, PCLMULQDQ)
		// HasAVX512 includes the OS (XCR0) check; the sub-features do not,
		// and GODEBUG=cpu.avx512=off leaves them set.
		add(x.HasAVX512 && x.HasAVX512F, AVX512F)
		add(x.HasAVX512 && x.HasAVX512BW, AVX512BW)
		add(x.HasAVX512 && x.HasAVX512VL, AVX512VL)
		add(x.HasAVX512 && x.HasAVX512DQ, AVX512DQ)
		add(x.HasAVX512 && x.HasAVX512VAES, VAES)
		add(x.HasAVX512 && x.HasAVX512VPCLMULQDQ, VPCLMULQDQ)
	case "arm64":
		a := &xcpu.ARM64
		add(a.HasASIMD, ASIMD)
		add(a.HasAES, ARM_AES)
		add(a.HasPMULL, PMULL)
		add(a.HasSHA3, SHA3)
	}
	return Normalize(s)
}
