package model

import "time"

// wallTimer measures wall time (calibration only; the VM never reads it).
func wallTimer() (func() time.Duration, string) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, "wall time"
}
