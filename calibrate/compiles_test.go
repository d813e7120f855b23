package calibrate

import (
	"compress/gzip"
	"context"
	"io"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

// compilesRecording is one compile-time run on OpenJDK 17.0.15 (testdata/compiles17-quick.*):
// the Cost harness's stdout under -XX:+PrintCompilation and its flight recording's
// jdk.Compilation events as `jfr print --json` printed them, both gzipped. Command (quick
// timing): java -Xms256m -Xmx256m -XX:+AlwaysPreTouch
// -XX:StartFlightRecording=filename=FILE,settings=none,+jdk.Compilation#enabled=true,+jdk.Compilation#threshold=0ms
// --add-opens=java.base/com.sun.crypto.provider=ALL-UNNAMED -XX:+PrintCompilation -DwarmMs=150
// -DstepMs=60 -DmeasureMs=100 -DwarmOps=0 -Donly=ecb-enc,ecb-dec,ghash-jdk,ctr Cost
func compilesRecording(t testing.TB) (stdout, events string) {
	read := func(file string) string {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(z)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return read("testdata/compiles17-quick.stdout.gz"), read("testdata/compiles17-quick.events.json.gz")
}

// TestCompileTimesOfRecording: the recording's compiles priced by the fit. The line is checked
// against the data it came from at every size, not only in sum: for the compiles of each size
// range (four times the fit's classes), the line's price at their median size is within a
// factor of 2.5 of their median time (the rule asks for 1.5 on average over its classes).
func TestCompileTimesOfRecording(t *testing.T) {
	stdout, events := compilesRecording(t)
	printed := parsePrintedCompiles(stdout)
	rec, err := parseCompileEvents(events)
	if err != nil {
		t.Fatal(err)
	}
	cs := joinCompiles(printed, rec)
	// The recording starts after the JVM's own start-up compiles, which are printed.
	if len(printed) < 1000 || len(rec) < 300 || len(cs) < len(rec)*9/10 {
		t.Fatalf("%d printed, %d recorded, %d joined: most recorded compiles should be printed", len(printed), len(rec), len(cs))
	}
	// One speed per compiler, as -XX:+CITime measures it: all bytes over all time.
	speed := map[string]float64{}
	sums := map[string][2]float64{}
	for _, c := range cs {
		s := sums[c.compiler]
		sums[c.compiler] = [2]float64{s[0] + float64(c.bytes), s[1] + float64(c.ps)}
	}
	for what, s := range sums {
		speed[what] = s[1] / s[0]
	}
	ct, why := fitCompileTimes(cs, jdk.R17, "the recording", speed)
	c1, ok := ct[model.WhatCompileC1]
	if !ok || c1.Fixed <= 0 || c1.Fixed > 500e6 || c1.PerByte <= 0 {
		t.Fatalf("C1 %+v (%q)", c1, why)
	}
	// The model's methods the run compiled are priced by their own fastest compile.
	for _, f := range []string{"AESCrypt.implEncryptBlock", "GHASH.blockMult", "CounterMode.implCrypt"} {
		if _, ok := c1.Methods[f]; !ok {
			t.Errorf("no C1 row of its own for %s", f)
		}
	}
	for what, fit := range ct {
		for f, m := range fit.Methods {
			if m.Value <= 0 || !strings.Contains(m.Source, f+"'s own") {
				t.Errorf("%s %s: %+v", what, f, m)
			}
		}
	}
	for what, fit := range ct {
		for _, class := range [][2]int{{16, 64}, {64, 256}, {256, 1024}, {1024, 1 << 30}} {
			var bytes, ps []float64
			for _, c := range cs {
				if c.compiler == what && c.bytes >= class[0] && c.bytes < class[1] {
					bytes, ps = append(bytes, float64(c.bytes)), append(ps, float64(c.ps))
				}
			}
			if len(ps) < 5 {
				continue
			}
			price := float64(fit.Fixed) + Median(bytes)*float64(fit.PerByte)
			if r := price / Median(ps); r < 0.4 || r > 2.5 {
				t.Errorf("%s, %d compiles of %d–%d bytes: the line prices their median size at %.2f× their median time", what, len(ps), class[0], class[1], r)
			}
		}
	}
	// AES's 953-byte block method at C1: the line is nearer its own compiles than one speed
	// over all compiles (the recording's sum of bytes over its sum of time) is.
	var bytes, ps float64
	var aes []float64
	for _, c := range cs {
		if c.compiler == model.WhatCompileC1 {
			bytes += float64(c.bytes)
			ps += float64(c.ps)
			if c.method == "com.sun.crypto.provider.AESCrypt::implEncryptBlock" {
				aes = append(aes, float64(c.ps))
			}
		}
	}
	if len(aes) == 0 {
		t.Fatal("the recording holds no C1 compile of AESCrypt::implEncryptBlock")
	}
	own, one, line := Median(aes), 953*ps/bytes, float64(c1.Fixed+953*c1.PerByte)
	if math.Abs(math.Log(line/own)) >= math.Abs(math.Log(one/own)) {
		t.Errorf("AES's block method at C1: its compiles %.2f ms, the line %.2f ms, one speed %.2f ms", own/1e9, line/1e9, one/1e9)
	}
	if s := compileTimesSummary(ct, why); !strings.Contains(s, "c1: ") || !strings.Contains(s, "µs per bytecode byte") {
		t.Errorf("summary %q", s)
	}
}

// TestJVMCompileTimes: a calibration with the compile-time run prices a compiler whose
// compiles lie on a line by it (C1: a fixed part and a part per byte), the other by -XX:+CITime's
// speed, and without the run both by CITime, saying why.
func TestJVMCompileTimes(t *testing.T) {
	m := recordedCPU(t)
	stdout, events := compilesRecording(t)
	calls := 0
	res, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		RunCompiles: func(_ context.Context, opts []string) (string, string, error) {
			calls++
			if !strings.Contains(strings.Join(opts, " "), "-XX:+PrintCompilation") {
				t.Errorf("compile-time run without -XX:+PrintCompilation: %v", opts)
			}
			return stdout, events, nil
		},
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("%d compile-time runs in one round", calls)
	}
	p := res.Profile
	for _, what := range []string{model.WhatCompileC1} {
		fixed, ok1 := p.Row(what, model.AnyFamily, model.PerCall)
		per, ok2 := p.Row(what, model.AnyFamily, model.PerBytecodeByte)
		if !ok1 || !ok2 || fixed.Ps <= 0 || !strings.Contains(fixed.Source, "jdk.Compilation") || !strings.Contains(per.Source, "line through") {
			t.Errorf("%s: fixed %+v, per byte %+v", what, fixed, per)
		}
		own, ok := p.Row(what, "GHASH.blockMult", model.PerBytecodeByte)
		if !ok || own.Family != "GHASH.blockMult" || !strings.Contains(own.Source, "own") {
			t.Errorf("%s: GHASH.blockMult's row %+v", what, own)
		}
		c, err := p.CompileCost(what, "GHASH.blockMult", 245)
		if err != nil || c != model.Cost(fixed.Ps+245*own.Ps) {
			t.Errorf("%s: GHASH.blockMult's 245 bytes cost %v (%v), want %d ps", what, c, err, fixed.Ps+245*own.Ps)
		}
	}
	if r, ok := p.Row(model.WhatCompileC2, model.AnyFamily, model.PerBytecodeByte); !ok || !strings.Contains(r.Source, "CITime") {
		t.Errorf("C2, which the recording's compiles do not fit a line for: %+v", r)
	}
	if !strings.Contains(res.Compiles, "µs per bytecode byte") {
		t.Errorf("summary %q", res.Compiles)
	}
	// Replayed without a compile-time run: CITime, and why.
	res, err = JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := res.Profile.Row(model.WhatCompileC1, model.AnyFamily, model.PerBytecodeByte); !ok || !strings.Contains(r.Source, "CITime") ||
		!strings.Contains(res.Compiles, "CITime") || !strings.Contains(res.Compiles, "replayed") {
		t.Errorf("without the run: %+v; %q", r, res.Compiles)
	}
	// A JVM whose recording cannot be read keeps CITime and says so; the calibration goes on.
	res, err = JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		RunCompiles: func(context.Context, []string) (string, string, error) { return stdout, "{not json", nil },
		Now:         fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil || !strings.Contains(res.Compiles, "flight recording") {
		t.Errorf("an unreadable recording: %v; %q", err, res.Compiles)
	}
}

// TestParseCompileEventsErrors: what the events parser refuses, naming the compile.
func TestParseCompileEventsErrors(t *testing.T) {
	for _, tc := range []struct{ js, want string }{
		{`{"recording": {"events": [{"type": "jdk.Compilation", "values": {"compileId": 7, "compiler": "c1", "duration": "7 ms"}}]}}`, "compile 7"},
		{`{"recording": {"events": [{"type": "jdk.Compilation", "values": {"compileId": 8, "compiler": "c2", "duration": "PT0.1S", "inlinedBytes": -1}}]}}`, "compile 8"},
		{`[1, 2`, "flight recording"},
	} {
		if _, err := parseCompileEvents(tc.js); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.js, err, tc.want)
		}
	}
	cs, err := parseCompileEvents(`{"recording": {"events": [
		{"type": "jdk.Compilation", "values": {"compileId": 1, "compiler": "c1", "duration": "PT0.0002S", "succeded": true}},
		{"type": "jdk.Compilation", "values": {"compileId": 2, "compiler": "c2", "duration": "PT0.0002S", "succeded": false}},
		{"type": "jdk.Compilation", "values": {"compileId": 3, "compiler": "jvmci", "duration": "PT0.0002S"}}]}}`)
	if err != nil || len(cs) != 1 || cs[0].id != 1 || cs[0].ps != 200_000_000 || cs[0].compiler != model.WhatCompileC1 {
		t.Errorf("%+v %v: want compile 1 alone (2 failed, 3 is no C1 or C2)", cs, err)
	}
}

// TestISODuration: the durations `jfr print --json` writes.
func TestISODuration(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ps int64
	}{{"PT0.00016976S", 169_760_000}, {"PT0S", 0}, {"PT1M2.5S", 62_500_000_000_000}, {"PT1H", 3600_000_000_000_000}} {
		if ps, err := isoDuration(tc.s); err != nil || ps != tc.ps {
			t.Errorf("%s: %d %v, want %d", tc.s, ps, err, tc.ps)
		}
	}
	for _, s := range []string{"", "PT", "P1D", "PT-1S", "PT1X", "0.5", "PT2H"} {
		if _, err := isoDuration(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestFitCompileTimesClasses: many small compiles and a few large ones on one line, with a
// slow compile in every class (it waited for a CPU), give the line back; a line through all
// compiles alike would follow the small ones. Compiles at one speed keep it.
func TestFitCompileTimesClasses(t *testing.T) {
	var cs []timedCompile
	add := func(what string, bytes, n int) {
		for i := range n {
			ps := int64(100e6 + 2e6*float64(bytes)) // 0.1 ms + 2 µs per byte
			if i == 0 {
				ps *= 5
			}
			cs = append(cs, timedCompile{compiler: what, method: "m", bytes: bytes, ps: ps})
		}
	}
	add(model.WhatCompileC1, 20, 200)
	add(model.WhatCompileC1, 40, 100)
	add(model.WhatCompileC1, 300, 5)
	add(model.WhatCompileC1, 1000, 5)
	add(model.WhatCompileC1, 5, 50)  // under the classes: left out
	add(model.WhatCompileC2, 100, 3) // too few: no fit
	ct, why := fitCompileTimes(cs, jdk.R17, "test", map[string]float64{model.WhatCompileC1: 5e6, model.WhatCompileC2: 5e6})
	c1, ok := ct[model.WhatCompileC1]
	if !ok || math.Abs(float64(c1.Fixed)-100e6) > 1e6 || math.Abs(float64(c1.PerByte)-2e6) > 1e4 || !strings.Contains(c1.Source, "310 c1 compiles in 4 classes") {
		t.Errorf("C1 %+v, want 100e6 ps + 2e6 ps per byte over 310 compiles in 4 classes", c1)
	}
	// A speed that describes the classes better than the line keeps the compiler off it.
	exact := map[string]float64{model.WhatCompileC1: 0}
	var linear []timedCompile
	for _, b := range []int{20, 40, 300, 1000} {
		for range 5 {
			linear = append(linear, timedCompile{compiler: model.WhatCompileC1, method: "m", bytes: b, ps: int64(3e6 * b)})
		}
	}
	linear = append(linear, timedCompile{compiler: model.WhatCompileC1, method: "m", bytes: 1000, ps: 9e9})
	exact[model.WhatCompileC1] = 3e6
	if fits, why := fitCompileTimes(linear, jdk.R17, "test", exact); len(fits) != 0 || !strings.Contains(why[model.WhatCompileC1], "the speed by 1.00") {
		t.Errorf("compiles at one speed, 3 µs a byte: fitted %+v (%q)", fits, why)
	}
	if c2, ok := ct[model.WhatCompileC2]; ok || !strings.Contains(why[model.WhatCompileC2], "0 of its 3 compiles") {
		t.Errorf("C2 fitted from three compiles: %+v (%q)", c2, why[model.WhatCompileC2])
	}
}
