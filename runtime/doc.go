// Package runtime is jitsim's VM: the method table, per-method counters,
// HotSpot's tiered compilation policy, the one intrinsic table, the one
// dispatch point and the clocks. Ergonomics is runtime/ergo; the JCE
// provider that calls into the VM is package jce.
//
// The name shadows Go's own runtime package; import it everywhere as jrt:
//
//	import jrt "github.com/jitsim/jitsim/runtime"
package runtime
