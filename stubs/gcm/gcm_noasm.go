//go:build (!amd64 && !arm64) || purego

package gcm

// Without assembly only the generic twins exist.
var (
	archGHASHVariants []GHASHVariant
	archGCMVariants   []GCMVariant
)

// fillPowers is the assembly variants' precompute; no variant of this build reaches it.
func fillPowers([]uint64) {
	panic("BUG: stubs/gcm: a subkey table filled for assembly this build lacks")
}
