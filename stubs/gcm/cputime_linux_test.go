package gcm

import "syscall"

// threadCPU returns the CPU time the calling OS thread has used, in ns
// (getrusage RUSAGE_THREAD), so benchmarks can report a throughput that the
// other processes on a shared machine disturb far less than wall time.
func threadCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_THREAD, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
