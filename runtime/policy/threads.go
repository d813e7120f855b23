package policy

import (
	"fmt"
	"math/bits"
)

// CompilerCounts returns the number of C1 and C2 compiler threads HotSpot
// starts for the given active processor count, modelling
// CompilationPolicy::initialize (JDK 17+) and
// AdvancedThresholdPolicy::initialize / NonTieredCompPolicy::initialize
// (JDK 8):
//
//	log_cpu = floor(log2(cpus)), loglog_cpu = floor(log2(max(log_cpu, 1)))
//	count   = the release's tiered count (release.tieredThreads), or
//	          max(log_cpu − 1, 1) for JDK 8's non-tiered policy (C2 only)
//	c1 = max(count/3, 1), c2 = max(count − c1, 1); a C1-only or C2-only
//	configuration gives every thread to its one compiler.
//
// A non-zero cfg.CICompilerCount replaces the ergonomic count. The
// code-cache cap on the count (ReservedCodeCacheSize / buffer size) never
// binds at the default 240 MB and is not modelled. Interpreter-only
// configurations get (0, 0).
func CompilerCounts(activeProcessors int, cfg Config) (c1, c2 int, err error) {
	if err := cfg.check(); err != nil {
		return 0, 0, err
	}
	if activeProcessors < 1 {
		return 0, 0, fmt.Errorf("%w: active processor count %d must be at least 1", ErrConfig, activeProcessors)
	}
	if cfg.interpreterOnly() {
		return 0, 0, nil
	}
	logCPU := bits.Len(uint(activeProcessors)) - 1
	logLogCPU := bits.Len(uint(max(logCPU, 1))) - 1
	single := cfg.c1Only() || cfg.c2Only()
	count := int(cfg.CICompilerCount)
	if count == 0 {
		if cfg.legacy() {
			count = max(logCPU-1, 1)
		} else {
			count = cfg.rel.tieredThreads(logCPU, logLogCPU, single)
		}
	}
	switch {
	case cfg.c1Only():
		return count, 0, nil
	case cfg.c2Only():
		return 0, count, nil
	}
	c1 = max(count/3, 1)
	c2 = max(count-c1, 1)
	return c1, c2, nil
}
