package calibrate

import (
	"testing"
	"time"
)

// BenchmarkEffectiveMHz reports this CPU's effective clock as the dependent chain measures
// it in thread CPU time (EffectiveMHz), one measurement per benchmark run: with -count N the
// spread over N runs is the clock's spread on this machine. The host profile's clock
// (runtime/model/uarch.go) was recorded with it (docs/measurements/model-costs.md, "The host clock").
func BenchmarkEffectiveMHz(b *testing.B) {
	var mhz int64
	for b.Loop() {
		var err error
		if mhz, _, err = EffectiveMHz(5, 20*time.Millisecond); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(mhz), "MHz")
}
