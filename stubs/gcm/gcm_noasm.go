//go:build (!amd64 && !arm64) || purego

package gcm

// Without assembly only the generic twins exist.
var (
	archGHASHVariants []GHASHVariant
	archGCMVariants   []GCMVariant
)
