//go:build !linux

package model

import "time"

// threadCPUTimer falls back to wall time where no per-thread CPU clock is
// available from the standard library.
func threadCPUTimer() (func() time.Duration, string) { return wallTimer() }
