package calibrate

import (
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
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

// FuzzCompileRecording feeds arbitrary -XX:+PrintCompilation output and flight-recording JSON
// to the compile-time run's readers and fit: an error or compiles with a duration of zero to
// an hour and a bounded size, and fits the model accepts; never a panic.
func FuzzCompileRecording(f *testing.F) {
	f.Add("    325  254       3       com.sun.crypto.provider.AESCrypt::implEncryptBlock (953 bytes)\n    207  266 %     4       a.B::c @ 23 (245 bytes)\n",
		`{"recording": {"events": [{"type": "jdk.Compilation", "values": {"compileId": 254, "compiler": "c1", "duration": "PT0.00055S", "inlinedBytes": 0, "succeded": true}}]}}`)
	f.Add("1 2 3 x::y (4 bytes)\n", `{"recording": {"events": [{"type": "jdk.Compilation", "values": {"compileId": 2, "compiler": "c2", "duration": "PT1M2.5S", "inlinedBytes": 9}}]}}`)
	f.Add("", `{"recording": {"events": [{"type": "jdk.Compilation", "values": {"duration": "PT99999999999999999999S"}}]}}`)
	f.Fuzz(func(t *testing.T, stdout, events string) {
		printed := parsePrintedCompiles(stdout)
		for id, p := range printed {
			if p.bytes < 0 || !strings.Contains(p.method, "::") {
				t.Fatalf("compile %d: %+v", id, p)
			}
		}
		rec, err := parseCompileEvents(events)
		if err != nil {
			if !strings.Contains(err.Error(), "flight recording") {
				t.Fatalf("error names no recording: %v", err)
			}
			return
		}
		for _, r := range rec {
			if r.ps < 0 || r.ps > 3600e12 || r.inlined < 0 || r.inlined > 1<<24 {
				t.Fatalf("compile %+v", r)
			}
		}
		cs := joinCompiles(printed, rec)
		// Many copies, so that a fit has the compiles it needs.
		var many []timedCompile
		for range minCompiles {
			many = append(many, cs...)
		}
		fits, _ := fitCompileTimes(many, jdk.R17, "fuzz", map[string]float64{model.WhatCompileC1: 1e6, model.WhatCompileC2: 1e7})
		for what, ct := range fits {
			if ct.Fixed < 0 || ct.PerByte < 0 || (ct.PerByte > 0) != (ct.Source != "") {
				t.Fatalf("%s: %+v", what, ct)
			}
			for f, m := range ct.Methods {
				if m.Value <= 0 || m.Source == "" {
					t.Fatalf("%s %s: %+v", what, f, m)
				}
			}
		}
	})
}
