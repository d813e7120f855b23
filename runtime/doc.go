// Package runtime is jitsim's VM: the method table, per-method counters,
// HotSpot's tiered compilation policy, the one intrinsic table, the one
// dispatch point, ergonomics, the clocks and the provider layer.
//
// The name shadows Go's own runtime package; import it everywhere as jrt:
//
//	import jrt "github.com/jitsim/jitsim/runtime"
package runtime
