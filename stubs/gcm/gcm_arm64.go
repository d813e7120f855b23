//go:build !purego

package gcm

var (
	archGHASHVariants []GHASHVariant
	archGCMVariants   []GCMVariant
)
