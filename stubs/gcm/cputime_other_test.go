//go:build !linux

package gcm

// threadCPU is unavailable here; benchmarks then report wall time only.
func threadCPU() int64 { return 0 }
