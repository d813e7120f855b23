package model

import (
	"syscall"
	"time"
)

// rusageThread is RUSAGE_THREAD (linux/include/uapi/linux/resource.h).
const rusageThread = 1

// threadCPUTimer returns the calling OS thread's CPU time (user+system),
// from getrusage(RUSAGE_THREAD); the caller locks its goroutine to the thread.
func threadCPUTimer() (func() time.Duration, string) {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return wallTimer()
	}
	return func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(rusageThread, &ru); err != nil {
			panic("BUG: getrusage(RUSAGE_THREAD) stopped working: " + err.Error())
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}, "thread CPU time, getrusage(RUSAGE_THREAD)"
}
