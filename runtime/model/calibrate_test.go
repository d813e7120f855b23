package model

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// fakeTimer advances by a fixed step per probe unit so Calibrate's
// arithmetic can be checked exactly.
func TestCalibrateArithmetic(t *testing.T) {
	var now time.Duration
	step := map[string]time.Duration{"a": 3 * time.Microsecond, "b": 160 * time.Nanosecond}
	probes := []Probe{
		{What: WhatC2, Family: AnyFamily, Unit: PerByte, Units: 1000, Note: "a", Run: func() error { now += step["a"]; return nil }},
		{What: WhatCall, Family: WhatC2, Unit: PerCall, Units: 16, Note: "b", Run: func() error { now += step["b"]; return nil }},
	}
	p, err := Calibrate(CalibrateOptions{Rounds: 3, Round: time.Millisecond, Timer: func() time.Duration { return now }}, probes)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{WhatC2: 3000, WhatCall: 10_000} // 3 µs / 1000 B; 160 ns / 16 calls
	for _, r := range p.Rows {
		if r.Ps != want[r.What] {
			t.Errorf("%s: %d ps, want %d", r.What, r.Ps, want[r.What])
		}
		if !strings.Contains(r.Source, "median of 3 interleaved rounds") {
			t.Errorf("%s: source %q does not say how it was measured", r.What, r.Source)
		}
	}
}

func TestCalibrateErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		probe Probe
		want  string
	}{
		{"run fails", Probe{What: WhatC2, Family: "*", Unit: PerByte, Units: 1, Run: func() error { return boom }}, "boom"},
		{"no units", Probe{What: WhatC2, Family: "*", Unit: PerByte, Run: func() error { return nil }}, "Units > 0"},
		{"bad unit", Probe{What: WhatC2, Family: "*", Unit: "furlong", Units: 1, Run: func() error { return nil }}, "unknown unit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Calibrate(CalibrateOptions{Rounds: 1, Round: time.Microsecond}, []Probe{tc.probe})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want %q", err, tc.want)
			}
		})
	}
}
