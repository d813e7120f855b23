package calibrate

import (
	"strings"
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

// TestClockSamplesFastest: a calibration's clock is its fastest sample, so slow moments do
// not price the profile, and its source gives the count, the median and the range.
func TestClockSamplesFastest(t *testing.T) {
	c := clockSamples{mhz: []float64{3534, 3106, 3546, 3559, 2976}}
	mhz, src := c.result()
	if mhz != 3559 {
		t.Errorf("clock of %v = %d, want the fastest, 3559", c.mhz, mhz)
	}
	for _, want := range []string{"3559 MHz effective", "fastest of 5 samples", "median 3534", "range 2976–3559 MHz"} {
		if !strings.Contains(src, want) {
			t.Errorf("source %q does not say %q", src, want)
		}
	}
	if err := c.sample(1, time.Millisecond); err != nil || len(c.mhz) != 6 || c.mhz[5] < 100 {
		t.Errorf("sample: err %v, samples %v: want a sixth sample of a real clock", err, c.mhz)
	}
}
