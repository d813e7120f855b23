package cpu

import (
	"os"
	"strings"
	"syscall"
)

// hostMemory returns this machine's physical memory in bytes as the kernel reports it (total
// RAM × the unit of sysinfo(2), what sysconf(_SC_PHYS_PAGES) × the page size gives), 0 when
// it cannot be read.
func hostMemory() uint64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}

// hostTHP returns the kernel's transparent-huge-page mode: the bracketed word of
// /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise", "never"), "" when unknown.
func hostTHP() string {
	data, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	_, rest, ok := strings.Cut(string(data), "[")
	mode, _, ok2 := strings.Cut(rest, "]")
	if !ok || !ok2 {
		return ""
	}
	return mode
}
