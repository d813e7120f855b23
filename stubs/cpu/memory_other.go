//go:build !linux

package cpu

// hostMemory is unknown off Linux: the model's PhysicalMemory falls back to DefaultMemory.
func hostMemory() uint64 { return 0 }

// hostTHP is unknown off Linux.
func hostTHP() string { return "" }
