package calibrate

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/jvmharness"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// recording is testdata/jvm17-quick.txt: what `jitsim calibrate --jvm --quick` ran on
// OpenJDK 17.0.15 (one round), as "== OPTIONS" headers each followed by the JVM's stdout.
const recording = "testdata/jvm17-quick.txt"

// recordedCPU is the CPU the recording was made on: its features as stubs/cpu reads them on
// a Zen 5 VM (AES, PCLMULQDQ, AVX…AVX-512, VAES, VPCLMULQDQ).
func recordedCPU(t testing.TB) cpu.Model {
	m, err := cpu.Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(recording + ".features")
	if err != nil {
		t.Fatal(err)
	}
	var fs cpu.Set
	for _, f := range strings.FieldsFunc(string(b), func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		ft, err := cpu.ParseFeature(f)
		if err != nil {
			t.Fatal(err)
		}
		fs = fs.With(ft)
	}
	m.Name, m.Features = "host", fs
	return m
}

// replay serves a recording: the output recorded for exactly these options.
func replay(t testing.TB, file string) func(context.Context, []string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	var key string
	var cur strings.Builder
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if k, ok := strings.CutPrefix(sc.Text(), "== "); ok {
			if key != "" {
				outs[key] = cur.String()
			}
			key = k
			cur.Reset()
			continue
		}
		cur.WriteString(sc.Text() + "\n")
	}
	outs[key] = cur.String()
	return func(_ context.Context, opts []string) (string, error) {
		out, ok := outs[strings.Join(opts, " ")]
		if !ok {
			return "", fmt.Errorf("no recording for %q", strings.Join(opts, " "))
		}
		return out, nil
	}
}

func fixedNow() time.Time { return time.Date(2026, 12, 1, 22, 0, 0, 0, time.UTC) }

// TestJVMFromRecording composes a profile from the recorded harness outputs: every level's
// Java rows, the measured stub variants per byte, the others from their formulas; and the
// profile prices only JDK 17 on a CPU with the recording's features.
func TestJVMFromRecording(t *testing.T) {
	m := recordedCPU(t)
	stderr, log := idleRecording(t)
	res, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		RunIdle: func(context.Context) (string, string, error) { return stderr, log, nil },
		Now:     fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Profile
	if p.Background == nil || len(p.Background.Compiles) != 40 {
		t.Errorf("background %+v, want the recording's 40 compiles", p.Background)
	}
	if res.Release != jdk.R17 || p.Release != "17" || p.Provenance == nil || p.Provenance.JVMVersion != "17.0.15+6-Debian-1deb12u1" {
		t.Fatalf("release %v %q, provenance %+v", res.Release, p.Release, p.Provenance)
	}
	for _, what := range []string{model.WhatInterp, model.WhatC1L1, model.WhatC1L2, model.WhatC1L3, model.WhatC2} {
		r, ok := p.Row(what, "AESCrypt.implEncryptBlock", model.PerByte)
		if !ok || r.Ps <= 0 || !strings.Contains(r.Source, "median of 1 interleaved rounds") {
			t.Errorf("%s: %+v", what, r)
		}
	}
	interp, _ := p.Row(model.WhatInterp, "AESCrypt.implEncryptBlock", model.PerByte)
	c2, _ := p.Row(model.WhatC2, "AESCrypt.implEncryptBlock", model.PerByte)
	if interp.Ps < 10*c2.Ps {
		t.Errorf("the interpreter (%d ps/byte) is not far slower than C2 (%d ps/byte)", interp.Ps, c2.Ps)
	}
	ctr, ok := p.Row(model.Stub("vaes-avx512"), "counterMode_AESCrypt", model.PerByte)
	if !ok || !strings.Contains(ctr.Source, "-XX:UseAVX=3") {
		t.Errorf("the AVX-512 CTR stub is not priced by the UseAVX=3 run: %+v", ctr)
	}
	// Per byte between the 16 KiB call and the 16-byte one: the per-call glue, which the
	// model charges by its own row, left out of the per-byte price.
	var whole, small float64
	for _, r := range res.Measured {
		if r.Run == "c2-avx3" && r.Mode == "ctr" {
			whole = r.Median
		}
		if r.Run == "c2-avx3" && r.Mode == "glue-ctr-final" {
			small = r.Median
		}
	}
	if want := (int64(whole+0.5)*16384 - int64(small+0.5)*16) / (16384 - 16); whole == 0 || small == 0 || ctr.Ps != want || ctr.Ps >= int64(whole) ||
		!strings.Contains(ctr.Source, "per byte between the 16384-byte Cipher call") {
		t.Errorf("CTR stub %d ps/byte, want %d (the call %.0f ps/byte, the 16-byte call %.0f): %s", ctr.Ps, want, whole, small, ctr.Source)
	}
	// A block-stub call from CTR's counter loop is priced by the loop measured with the CTR
	// stub off, less the loop's own bytes at C2 and the dispatch.
	var noCTR float64
	for _, r := range res.Measured {
		if r.Run == model.CounterLoopRun && r.Mode == "ctr" {
			noCTR = r.Median
		}
	}
	fam := model.StreamFamily("aescrypt_encryptBlock", model.CounterLoopCaller)
	call, ok := p.Row(model.Stub("aesni"), fam, model.PerBlock)
	loop0, _ := p.Cost(model.WhatC2, model.CounterLoopCaller, 0)
	loop16, _ := p.Cost(model.WhatC2, model.CounterLoopCaller, 16)
	dispatch, _ := p.Cost(model.WhatDispatch, "aescrypt_encryptBlock", 0)
	perByte := (int64(noCTR+0.5)*16384 - int64(small+0.5)*16) / (16384 - 16)
	if want := 16*perByte - int64(loop16-loop0) - int64(dispatch); noCTR == 0 || !ok || call.Ps != want || want <= 0 {
		t.Errorf("the block stub from the counter loop: %+v, want %d ps a block (CTR without its stub %.0f ps/byte)", call, want, noCTR)
	}
	if z, ok := p.Row(model.Stub("aesni"), fam, model.PerCall); !ok || z.Ps != 0 {
		t.Errorf("the block stub from the counter loop, per call: %+v", z)
	}
	cbc, ok := p.Row(model.Stub("aesni"), "cipherBlockChaining_encryptAESCrypt", model.PerBlock)
	if !ok || !strings.Contains(cbc.Source, "not run by the calibration") {
		t.Errorf("CBC encryption is not priced by its formula: %+v", cbc)
	}
	for _, fam := range []string{"c2/GCM.final", "c1-l1/CBC.init"} {
		g, ok := p.Row(model.WhatGlue, fam, model.PerCall)
		if !ok || !strings.Contains(g.Source, "fastest sub-rounds") {
			t.Errorf("glue %s is not priced by the rounds' fastest sub-rounds: %+v", fam, g)
		}
	}
	// An init's glue is the init alone: as (init + encryption) − decryption, C2's GCM init
	// came out at zero, a decryption's doFinal costing more than an encryption's.
	if g, ok := p.Row(model.WhatGlue, "c2/GCM.init", model.PerCall); !ok || g.Ps <= 0 || !strings.Contains(g.Source, "an init of an unchanged key") {
		t.Errorf("C2's GCM init glue: %+v", g)
	}
	// A fresh JVM's first use of each mode, measured in a JVM of its own.
	for _, fam := range []string{"GCM.instance", "GCM.op", "CBC.op", "CTR.instance"} {
		if r, ok := p.Row(model.WhatFirstUse, fam, model.PerCall); !ok || r.Ps <= 0 || !strings.Contains(r.Source, "in a fresh JVM") {
			t.Errorf("first use %s: %+v", fam, r)
		}
	}
	// C2's glue comes from C2 with the intrinsics on (the CPU's own UseAVX), where stubs
	// serve the operation's few bytes, not from the run with the intrinsics off.
	if g, _ := p.Row(model.WhatGlue, "c2/GCM.final", model.PerCall); !strings.Contains(g.Source, "-XX:UseAVX=3") || strings.Contains(g.Source, "UseGHASHIntrinsics") {
		t.Errorf("C2's GCM glue is not from the UseAVX=3 run: %s", g.Source)
	}
	if err := p.Fits(jdk.R17, m); err != nil {
		t.Errorf("the profile does not fit its own release and CPU: %v", err)
	}
	if err := p.Fits(jdk.R25, m); err == nil || !strings.Contains(err.Error(), "JDK 17") {
		t.Errorf("a JDK 17 profile fits JDK 25: %v", err)
	}
	other, _ := cpu.Lookup("skylake-avx2")
	if err := p.Fits(jdk.R17, other); err == nil || !strings.Contains(err.Error(), "features") {
		t.Errorf("a profile fits a CPU with other features: %v", err)
	}
	// It survives its own file format, provenance included.
	data, err := p.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	q, err := model.LoadProfile("p.json", strings.NewReader(string(data)))
	if err != nil || q.Provenance == nil || q.Provenance.Date != "2026-12-01T22:00:00Z" || len(q.Rows) != len(p.Rows) {
		t.Fatalf("round trip: %v, %+v", err, q.Provenance)
	}
}

// TestJVMNeverRunsCompositeOps checks that no calibration run measures GCM or CBC of a
// payload (Cost's gcm-enc, gcm-dec, cbc-enc, cbc-dec rows): those are what validate compares.
func TestJVMNeverRunsCompositeOps(t *testing.T) {
	for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
		for _, r := range Runs(rel, recordedCPU(t)) {
			for _, m := range r.Modes {
				if m == "gcm-enc" || m == "gcm-dec" || strings.HasPrefix(m, "cbc") {
					t.Errorf("JDK %v run %s measures %s", rel, r.Name, m)
				}
			}
		}
	}
}

// TestJVMCombinedGCMStub: where the release has a combined AES-GCM stub (JDK 25 on an
// AVX-512 CPU: vaes-avx512 at UseAVX=3, avx2-interleaved8 at UseAVX=2), the stub runs time
// implGCMCrypt0 directly, with the --add-opens that reaches it; JDK 17, which has neither
// the method nor the stub, never asks for that row.
func TestJVMCombinedGCMStub(t *testing.T) {
	m := recordedCPU(t)
	has := map[string]bool{}
	for _, r := range Runs(jdk.R25, m) {
		if slices.Contains(r.Modes, model.GCMCrypt0Mode) {
			has[r.Name] = true
			if !slices.Contains(r.Options, openGHASH) {
				t.Errorf("JDK 25 run %s times %s without %s", r.Name, model.GCMCrypt0Mode, openGHASH)
			}
		}
	}
	if !has["c2-avx3"] || !has["c2-avx2"] {
		t.Errorf("JDK 25 runs timing %s: %v, want c2-avx3 and c2-avx2", model.GCMCrypt0Mode, has)
	}
	for _, r := range Runs(jdk.R17, m) {
		if slices.Contains(r.Modes, model.GCMCrypt0Mode) {
			t.Errorf("JDK 17 run %s times %s", r.Name, model.GCMCrypt0Mode)
		}
	}
	_, which := stubRuns(jdk.R25, m)
	for id, rms := range which {
		if id.Stub() == "galoisCounterMode_AESCrypt" && (len(rms) == 0 || rms[0].Mode != model.GCMCrypt0Mode) {
			t.Errorf("%s is priced by %v", id.Name(), rms)
		}
	}
}

// TestJVMBadOutput: a JVM that prints garbage, misses a row or fails is a clear error.
func TestJVMBadOutput(t *testing.T) {
	props := "    java.specification.version = 17\n    java.version = 17.0.15\n    java.vm.version = 17.0.15\n"
	for _, c := range []struct{ name, out, want string }{
		{"garbage", "Segmentation fault\n", "printed no ecb-enc row"},
		{"bad value", "row ecb-enc size=16384 cpu-ns/op=x cpu-ns/byte=1 cpu-MB/s=1 min=1 max=1\n", "is not a measurement"},
		{"no key=value", "row ecb-enc 16384\n", "is not key=value"},
		{"fractional size", "row ecb-enc size=16.5 cpu-ns/op=1 cpu-ns/byte=1 cpu-MB/s=1 min=1 max=1\n", "is not a byte count"},
	} {
		run := func(_ context.Context, opts []string) (string, error) {
			if opts[0] == "-XshowSettings:properties" {
				return props, nil
			}
			return c.out, nil
		}
		_, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: recordedCPU(t), Rounds: 1, Run: run})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--jvm=java") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	run := func(_ context.Context, opts []string) (string, error) {
		return "    java.specification.version = 11\n    java.version = 11.0.2\n", nil
	}
	if _, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: recordedCPU(t), Rounds: 1, Run: run}); err == nil ||
		!strings.Contains(err.Error(), "no release jitsim models") {
		t.Errorf("JDK 11: %v", err)
	}
	if _, err := JVM(context.Background(), JVMOptions{Java: filepath.Join(t.TempDir(), "nojava"), CPU: recordedCPU(t), Rounds: 1}); err == nil ||
		!strings.Contains(err.Error(), "nojava") {
		t.Errorf("a missing java: %v", err)
	}
}

// TestJVMEndToEnd calibrates the real JVM named by JITSIM_JVM (skipped without it; CI leaves
// it unset) with --quick; with JITSIM_RECORD=1 it rewrites the recording.
func TestJVMEndToEnd(t *testing.T) {
	java := os.Getenv("JITSIM_JVM")
	if java == "" {
		t.Skip("JITSIM_JVM is not set")
	}
	m := cpu.Model{Name: "host", Arch: jdk.HostArch(), Features: cpu.Host(), Cores: 2}
	prog, err := jvmharness.Compile(context.Background(), java, jvmharness.Cost)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	var rec strings.Builder
	run := func(ctx context.Context, opts []string) (string, error) {
		var out string
		if opts[0] == "-XshowSettings:properties" {
			props, err := jvmharness.Properties(ctx, java)
			if err != nil {
				return "", err
			}
			for _, k := range []string{"java.specification.version", "java.version", "java.vm.version", "java.vendor"} {
				out += fmt.Sprintf("    %s = %s\n", k, props[k])
			}
		} else {
			o, err := prog.Run(ctx, opts)
			if err != nil {
				return "", err
			}
			out = string(o.Stdout)
		}
		fmt.Fprintf(&rec, "== %s\n%s", strings.Join(opts, " "), out)
		return out, nil
	}
	// The compile-time run on the real JVM, where it has the jfr tool.
	var compiles func(context.Context, []string) (string, string, error)
	tool, toolErr := jfrTool(java)
	if toolErr == nil {
		compiles = func(ctx context.Context, opts []string) (string, string, error) {
			return runCompiles(ctx, prog, tool, opts)
		}
	}
	res, err := JVM(context.Background(), JVMOptions{Java: java, CPU: m, Rounds: 1, Quick: true, Run: run, RunCompiles: compiles})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Profile.Validate(); err != nil {
		t.Fatal(err)
	}
	if toolErr == nil && !strings.Contains(res.Compiles, "methods by their own compiles") {
		t.Errorf("a JVM with flight recording and %s: %q", tool, res.Compiles)
	}
	t.Logf("compile times: %s", res.Compiles)
	if os.Getenv("JITSIM_RECORD") == "1" {
		if err := os.WriteFile(recording, []byte(rec.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(recording+".features", []byte(cpu.Normalize(m.Features).String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJVMGlueLessJitsimsOwn: with ModelOp, a glue row is the JVM's 16-byte operation less
// what jitsim itself takes for it on the profile without glue, under the level's options.
func TestJVMGlueLessJitsimsOwn(t *testing.T) {
	m := recordedCPU(t)
	var calls []string
	modelOp := func(_ context.Context, p model.Profile, rel jdk.Release, options []string, mode string) (int64, error) {
		if _, ok := p.Row(model.WhatGlue, "c2/GCM.final", model.PerCall); ok || rel != jdk.R17 {
			t.Errorf("jitsim's own operation runs on a profile with glue, or on JDK %s", rel)
		}
		calls = append(calls, strings.Join(options, " ")+" "+mode)
		return 1000, nil
	}
	plain, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: replay(t, recording),
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }, ModelOp: modelOp})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-Xint gcm", "-XX:TieredStopAtLevel=1 cbc", "-XX:TieredStopAtLevel=3 ctr", "-XX:UseAVX=3 gcm"} {
		if !slices.Contains(calls, want) {
			t.Errorf("jitsim's own operations %q: no %q", calls, want)
		}
	}
	for _, fam := range []string{"interp/GCM.final", "c1-l2/CBC.final", "c2/CTR.final"} {
		g, ok := res.Profile.Row(model.WhatGlue, fam, model.PerCall)
		if !ok || !strings.Contains(g.Source, "less the 1000 ps jitsim's own 16-byte operation takes") {
			t.Fatalf("%s: %+v", fam, g)
		}
		var op int64
		if _, err := fmt.Sscanf(g.Source, "a doFinal of 16 bytes, %d ps", &op); err != nil {
			t.Fatal(err)
		}
		if g.Ps != max(op-1000, 0) {
			t.Errorf("%s: %d ps, want %d - 1000", fam, g.Ps, op)
		}
		if p, _ := plain.Profile.Row(model.WhatGlue, fam, model.PerCall); strings.Contains(p.Source, "jitsim's own") {
			t.Errorf("%s without ModelOp: %s", fam, p.Source)
		}
	}
}

// TestJVMExtraRoundsStopMidRound: once the budget is spent, no further extra run starts,
// even within a round of them: with the interpreter and C1 level 1 both unsettled and the
// budget spent after the interpreter's extra run, C1's does not start.
func TestJVMExtraRoundsStopMidRound(t *testing.T) {
	m := recordedCPU(t)
	rec := replay(t, recording)
	calls := map[string]int{}
	run := func(ctx context.Context, opts []string) (string, error) {
		out, err := rec(ctx, opts)
		if err != nil {
			return out, err
		}
		name := ""
		switch {
		case slices.Contains(opts, "-Xint"):
			name = "interp"
		case slices.Contains(opts, "-XX:TieredStopAtLevel=1"):
			name = "c1-l1"
		default:
			return out, nil
		}
		calls[name]++
		if calls[name] == 2 { // the second round draws the slow speed: both unsettled
			return scaleRow(t, out, model.GHASHMode, 1.5), nil
		}
		return out, nil
	}
	now := func() time.Time {
		if calls["interp"] >= 3 { // the interpreter's extra run has ended: the budget is spent
			return fixedNow().Add(time.Hour)
		}
		return fixedNow()
	}
	var last string
	_, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 2, Quick: true, Run: run,
		ExtraRounds: 2, Budget: 4 * time.Minute, Now: now, Load: func() string { return "1.00 1.00 1.00" },
		Progress: func(done, total int, what string) {
			if what == "done" {
				last = fmt.Sprintf("%d/%d", done, total)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if calls["interp"] != 3 || calls["c1-l1"] != 2 {
		t.Errorf("runs: interp %d (want 3), c1-l1 %d (want 2)", calls["interp"], calls["c1-l1"])
	}
	if d, tot, ok := strings.Cut(last, "/"); !ok || d != tot {
		t.Errorf("progress ends at %s, not at its total", last)
	}
}

// scaleRow multiplies every time on harness row mode of out by f.
func scaleRow(t *testing.T, out, mode string, f float64) string {
	t.Helper()
	var b strings.Builder
	found := false
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, "row "+mode+" ") {
			b.WriteString(l)
			continue
		}
		found = true
		fields := strings.Fields(l)
		for i, fl := range fields {
			k, v, ok := strings.Cut(fl, "=")
			if !ok || k == "size" {
				continue
			}
			var x float64
			if _, err := fmt.Sscan(v, &x); err == nil {
				fields[i] = fmt.Sprintf("%s=%.4f", k, x*f)
			}
		}
		b.WriteString(strings.Join(fields, " ") + "\n")
	}
	if !found {
		t.Fatalf("no row %s in the recording", mode)
	}
	return b.String()
}

// TestJVMExtraRoundsForUnsettledRuns: a level run whose Java row reads 1.5× slower in one of
// two rounds gets the extra rounds, and their median is the speed most rounds drew; runs
// whose rounds agree get none, and none start once the budget is spent.
func TestJVMExtraRoundsForUnsettledRuns(t *testing.T) {
	m := recordedCPU(t)
	rec := replay(t, recording)
	plain, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 1, Quick: true, Run: rec,
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(plain.Measured, func(x Measured) bool { return x.Run == "c1-l1" && x.Mode == model.GHASHMode })
	if i < 0 {
		t.Fatal("no c1-l1 ghash-jdk measurement")
	}
	base := plain.Measured[i].Median
	for _, tc := range []struct {
		name      string
		elapsed   time.Duration // the clock's advance per reading
		wantCalls int           // c1-l1 runs
	}{
		{"within budget", 0, 3},
		{"budget spent", time.Hour, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := map[string]int{}
			run := func(ctx context.Context, opts []string) (string, error) {
				out, err := rec(ctx, opts)
				if err != nil || !slices.Contains(opts, "-XX:TieredStopAtLevel=1") {
					if err == nil && slices.Contains(opts, "-Xint") {
						calls["interp"]++
					}
					return out, err
				}
				calls["c1-l1"]++
				if calls["c1-l1"] == 2 { // the second round draws the slow speed
					return scaleRow(t, out, model.GHASHMode, 1.5), nil
				}
				return out, nil
			}
			clock := fixedNow()
			now := func() time.Time { clock = clock.Add(tc.elapsed); return clock }
			res, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: 2, Quick: true, Run: run,
				ExtraRounds: 2, Budget: 4 * time.Minute, Now: now, Load: func() string { return "1.00 1.00 1.00" }})
			if err != nil {
				t.Fatal(err)
			}
			if calls["c1-l1"] != tc.wantCalls || calls["interp"] != 2 {
				t.Fatalf("runs: c1-l1 %d (want %d), interp %d (want 2)", calls["c1-l1"], tc.wantCalls, calls["interp"])
			}
			i := slices.IndexFunc(res.Measured, func(x Measured) bool { return x.Run == "c1-l1" && x.Mode == model.GHASHMode })
			if i < 0 {
				t.Fatal("no c1-l1 ghash-jdk measurement")
			}
			got := res.Measured[i]
			if got.Rounds != tc.wantCalls {
				t.Errorf("rounds %d, want %d", got.Rounds, tc.wantCalls)
			}
			// Within the budget the third round reproduces the fast speed: settled on it, no
			// fourth. Without, the two rounds disagree and the median of both is taken.
			if tc.wantCalls == 3 && (got.Value < base*0.999 || got.Value > base*1.001 || got.Used != 2) {
				t.Errorf("value %.0f from %d rounds, want the speed two rounds of three drew, %.0f", got.Value, got.Used, base)
			}
			// A row priced by it says which rounds it rests on.
			said := slices.ContainsFunc(res.Profile.Rows, func(r model.Row) bool {
				return strings.Contains(r.Source, "row "+model.GHASHMode+": median of the 2 of 3 interleaved rounds within 25 % of the fastest")
			})
			if said != (tc.wantCalls == 3) {
				t.Errorf("a row's source names the 2 of 3 rounds: %v, want %v", said, tc.wantCalls == 3)
			}
			if tc.wantCalls == 2 && (got.Value < base*1.249 || got.Value > base*1.251) {
				t.Errorf("value %.0f, want the median of %.0f and 1.5 times it", got.Value, base)
			}
		})
	}
}

// TestSettled: the fast end when two rounds reproduce it, else the median of all.
func TestSettled(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
		used int
	}{
		{[]float64{10, 11, 12}, 11, 3},             // all within 25 %: the median
		{[]float64{15, 10, 11}, 10.5, 2},           // two fast, one disturbed
		{[]float64{10, 15, 16}, 15, 3},             // one fast round alone is not taken
		{[]float64{16, 10, 15, 12.4, 20}, 11.2, 2}, // 12.4 is within 25 % of 10
		{[]float64{7}, 7, 1},
		{[]float64{0, 5, 6}, 5, 3}, // a zero cannot anchor a ratio
	} {
		got, used := Settled(tc.in)
		if got != tc.want || used != tc.used {
			t.Errorf("Settled(%v) = %v from %d, want %v from %d", tc.in, got, used, tc.want, tc.used)
		}
	}
}

// TestJVMPayloadAsPrinted: the per-byte rows' payload (the slope's size) is what the harness
// printed, and rows over two payloads are an error naming both.
func TestJVMPayloadAsPrinted(t *testing.T) {
	rec := replay(t, recording)
	run := func(ctx context.Context, opts []string) (string, error) {
		out, err := rec(ctx, opts)
		if err == nil && slices.Contains(opts, "-Xint") {
			out = strings.Replace(out, "row ecb-dec size=16384 ", "row ecb-dec size=8192 ", 1)
		}
		return out, err
	}
	_, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: recordedCPU(t), Rounds: 1, Quick: true, Run: run,
		Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
	if err == nil || !strings.Contains(err.Error(), "row ecb-dec over 8192 bytes, other rows over 16384") {
		t.Errorf("mixed payloads: %v", err)
	}
}

// withSentinel gives every row of a harness output the machine sentinel reading ps.
func withSentinel(out string, ps float64) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "row ") {
			lines[i] = fmt.Sprintf("%s sentinel=%.1f", l, ps)
		}
	}
	return strings.Join(lines, "\n")
}

// callFaster makes the call row's sentinel reading 0.75 of what withSentinel gave it.
func callFaster(out string) string {
	return regexp.MustCompile(`(?m)^(row call .* sentinel=)([0-9.]+)$`).ReplaceAllStringFunc(out, func(l string) string {
		i := strings.LastIndex(l, "=")
		v, _ := strconv.ParseFloat(l[i+1:], 64)
		return fmt.Sprintf("%s%.1f", l[:i+1], 0.75*v)
	})
}

// TestJVMSentinel: a run whose rows read the sentinel over 1.2× the fastest reading of its
// options counts as disturbed in each of its rows, and a row's value leaves that round out
// (GHASH reads b, 1.2b in the marked round, 1.1b: the value is 1.05b, where the median of all
// three would be 1.1b); a slow reading of other options does not count; the summary says how
// many row rounds were disturbed. A row left with one round the sentinel did not mark gets an
// extra round (two rounds within 25 % would get none).
func TestJVMSentinel(t *testing.T) {
	m := recordedCPU(t)
	rec := replay(t, recording)
	for _, tc := range []struct {
		name         string
		rounds       int
		extra        int
		wantCalls    int // c1-l1 runs
		wantUsed     int
		wantDisturbd int
	}{
		{"three rounds", 3, 0, 3, 2, 1},
		{"two rounds, one marked", 2, 2, 3, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			run := func(ctx context.Context, opts []string) (string, error) {
				out, err := rec(ctx, opts)
				if err != nil {
					return out, err
				}
				switch {
				case slices.Contains(opts, "-XX:TieredStopAtLevel=1"):
					calls++
					switch calls {
					case 2:
						return callFaster(withSentinel(scaleRow(t, out, model.GHASHMode, 1.2), 150)), nil
					case 3:
						return callFaster(withSentinel(scaleRow(t, out, model.GHASHMode, 1.1), 100)), nil
					}
					// The call row reads the loop faster than the others in every round, as the
					// interpreter did: only readings of one row compare.
					return callFaster(withSentinel(out, 100)), nil
				case slices.Contains(opts, "-Xint"):
					return withSentinel(out, 5000), nil // another level: its own fastest
				}
				return withSentinel(out, 90), nil
			}
			res, err := JVM(context.Background(), JVMOptions{Java: "java", CPU: m, Rounds: tc.rounds, Quick: true, Run: run,
				ExtraRounds: tc.extra, Budget: time.Hour, Now: fixedNow, Load: func() string { return "1.00 1.00 1.00" }})
			if err != nil {
				t.Fatal(err)
			}
			if calls != tc.wantCalls {
				t.Errorf("c1-l1 runs: %d, want %d", calls, tc.wantCalls)
			}
			for _, x := range res.Measured {
				if strings.HasPrefix(x.Mode, "Tier") {
					continue
				}
				want := 0
				if x.Run == "c1-l1" {
					want = tc.wantDisturbd
				}
				if x.Disturbed != want {
					t.Errorf("%s %s: disturbed %d, want %d", x.Run, x.Mode, x.Disturbed, want)
				}
				if x.Run == "c1-l1" && x.Mode == model.GHASHMode {
					if r := x.Value / x.Min; x.Used != tc.wantUsed || math.Abs(r-1.05) > 0.005 || !(x.Max > 1.15*x.Min) {
						t.Errorf("ghash at c1-l1: value %v from %d rounds (min %v, max %v): the marked round counted", x.Value, x.Used, x.Min, x.Max)
					}
				}
			}
			if !strings.Contains(res.Sentinel, " of ") || !strings.Contains(res.Sentinel, "over 1.2× the fastest") {
				t.Errorf("summary: %s", res.Sentinel)
			}
		})
	}
}

// TestSentinelGroups: readings compare only within their group, a missing reading is never
// disturbed, and the summary counts what it is given.
func TestSentinelGroups(t *testing.T) {
	s := NewSentinel()
	if !strings.Contains(s.Summary(0, 0), "no machine sentinel readings") {
		t.Errorf("empty summary: %s", s.Summary(0, 0))
	}
	s.Add("a", 100)
	s.Add("b", 1000)
	s.Add("a", 0)
	for _, tc := range []struct {
		group string
		ps    float64
		want  bool
	}{
		{"a", 119, false}, {"a", 121, true}, {"b", 1100, false}, {"b", 1300, true}, {"a", 0, false}, {"c", 500, false},
	} {
		if got := s.Disturbed(tc.group, tc.ps); got != tc.want {
			t.Errorf("Disturbed(%s, %v) = %v, want %v", tc.group, tc.ps, got, tc.want)
		}
	}
	if got := s.Summary(10, 3); !strings.Contains(got, "3 of 10 row rounds") {
		t.Errorf("summary: %s", got)
	}
}
