package calibrate

import (
	"strings"
	"testing"
)

// FuzzParseCost feeds arbitrary output to the harness output reader: rows it accepts have a
// positive, finite time; anything else is an error naming the line, never a panic.
func FuzzParseCost(f *testing.F) {
	f.Add("row ecb-enc size=16384 cpu-ns/op=2715.0 cpu-ns/byte=0.1657 cpu-MB/s=6034.6 min=2700.1 max=2800.2\n")
	f.Add("row call cpu-ns/call=2.035 min=2.0 max=2.1\n  Tier4 {speed: 19449.3 bytes/s; standard: 1.2 s, 100 bytes}\n")
	f.Add("row gmac size=0 cpu-ns/byte=1\nrow\nrow x y\n")
	f.Fuzz(func(t *testing.T, s string) {
		rows, speeds, err := parseCost(s)
		if err != nil {
			if !strings.Contains(err.Error(), "harness output line ") {
				t.Fatalf("error names no line: %v", err)
			}
			return
		}
		for k, r := range rows {
			if !(r.value > 0) || r.value > 1e18 {
				t.Fatalf("row %s: value %v", k, r.value)
			}
		}
		for k, v := range speeds {
			if !(v > 0) {
				t.Fatalf("speed %s: %v", k, v)
			}
		}
	})
}

// TestParseCostRejectsNaN: NaN and infinite values are not measurements.
func TestParseCostRejectsNaN(t *testing.T) {
	for _, v := range []string{"NaN", "Inf", "-1", "1e300"} {
		if _, _, err := parseCost("row call cpu-ns/call=" + v + " min=1 max=1\n"); err == nil {
			t.Errorf("%s accepted", v)
		}
	}
}
