package runtime_test

import (
	"syscall"
	"time"
)

// threadCPU is the calling OS thread's CPU time (getrusage RUSAGE_THREAD = 1), ok false
// when the kernel refuses it; the caller locks its goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
