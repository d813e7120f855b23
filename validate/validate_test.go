package validate

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jitsim/jitsim/calibrate"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// TestCellsAreNotCalibrated fails if a validate cell is one a calibration measures: the same
// operation (transformation and direction) at the same size, whatever the flags.
func TestCellsAreNotCalibrated(t *testing.T) {
	cells, err := Cells(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != len(FlagSets)*14 {
		t.Errorf("%d cells, want %d flag sets × 14", len(cells), len(FlagSets))
	}
	for _, name := range []string{"host", "icelake-server", "skylake-avx2", "neoverse-n1"} {
		m, err := cpu.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
			for _, r := range calibrate.Runs(rel, m) {
				for _, mode := range r.Modes {
					for _, c := range cells {
						if c.Op.Row == mode && c.Size == r.Size {
							t.Errorf("%s: calibration run %s (%s) measures %s at %d B", c, r.Name, strings.Join(r.Options, " "), mode, r.Size)
						}
					}
				}
			}
		}
	}
}

// TestCellsFilter names a bad flag set or operation, and filters.
func TestCellsFilter(t *testing.T) {
	if _, err := Cells([]string{"nope"}, nil, nil); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("bad set: %v", err)
	}
	if _, err := Cells(nil, []string{"ecb-enc"}, nil); err == nil || !strings.Contains(err.Error(), "ecb-enc") {
		t.Errorf("bad op: %v", err)
	}
	if _, err := Cells(nil, []string{"ctr"}, []int{16384}); err == nil {
		t.Error("CTR at 16 KiB, a calibrated size, is a cell")
	}
	cs, err := Cells([]string{"default", "xint"}, []string{"gcm-enc"}, []int{1024})
	if err != nil || len(cs) != 2 || cs[1].String() != "xint gcm-enc 1024" {
		t.Errorf("%v %v", cs, err)
	}
}

// TestRunJudges feeds Run a JVM that prints Cost rows with a chosen spread over rounds and a
// model with chosen answers, and checks the verdicts and slowdowns. no-ghash's first round is
// slow and its machine sentinel reads over 1.2× the fastest: that round is marked, replaced
// by an extra round, and left out (kept, the cell would be too noisy).
func TestRunJudges(t *testing.T) {
	cells, err := Cells([]string{"default", "no-ghash", "xint"}, []string{"gcm-enc"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	jvmNs := map[string][]float64{ // per flag set, per round
		"default":  {1000, 1010, 990},
		"no-ghash": {30000, 20500, 19800, 20000},
		"xint":     {500000, 900000, 400000}, // too noisy
	}
	runs := map[string]int{}
	var seen []string
	runJVM := func(_ context.Context, opts []string) (string, error) {
		set := "default"
		switch {
		case strings.Contains(strings.Join(opts, " "), "UseGHASHIntrinsics"):
			set = "no-ghash"
		case opts[0] == "-Xint":
			set = "xint"
		}
		if !strings.Contains(strings.Join(opts, " "), "-Dsize=1024") || !strings.Contains(strings.Join(opts, " "), "-Donly=gcm-enc") {
			t.Errorf("options %v", opts)
		}
		seen = append(seen, set)
		v, sentinel := jvmNs[set][runs[set]], 100.0
		if set == "no-ghash" && runs[set] == 0 {
			sentinel = 150
		}
		if set == "xint" {
			sentinel = 5000 + 100*float64(runs[set]) // its own options: its own fastest
		}
		runs[set]++
		return fmt.Sprintf("row gcm-enc size=1024 cpu-ns/op=%.1f cpu-ns/byte=%.4f cpu-MB/s=1.0 min=%.1f max=%.1f sentinel=%.1f\n", v, v/1024, v, v, sentinel), nil
	}
	model := func(_ context.Context, c Cell) (ModelResult, error) {
		return map[string]ModelResult{
			"default":  {NsPerOp: 1200, Steady: true},  // 1.2: within
			"no-ghash": {NsPerOp: 30000, Steady: true}, // 1.5: outside
			"xint":     {NsPerOp: 500000, Steady: true},
		}[c.Set.Name], nil
	}
	rs, err := Run(context.Background(), Options{Java: "java", JDK: jdk.R17, Rounds: 3, Cells: cells, RunJVM: runJVM, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		want := map[string][]bool{"default": {false, false, false}, "no-ghash": {true, false, false, false}, "xint": {false, false, false}}[r.Set]
		if !slices.Equal(r.JVMRoundDisturbed, want) || len(r.JVMRounds) != len(want) || r.Rounds != len(want) || r.JVMDisturbed != countFunc(want, func(b bool) bool { return b }) {
			t.Errorf("%s: rounds %v disturbed %v (%d), want %v", r.Cell, r.JVMRounds, r.JVMRoundDisturbed, r.JVMDisturbed, want)
		}
		if r.JVMUsed != 3 {
			t.Errorf("%s: %d rounds used, want 3", r.Cell, r.JVMUsed)
		}
	}
	if got := strings.Join(seen, ","); got != "default,no-ghash,xint,default,no-ghash,xint,default,no-ghash,xint,no-ghash" {
		t.Errorf("JVM runs not interleaved, or no extra round for the marked one: %s", got)
	}
	want := map[string]string{"default": Within, "no-ghash": Outside, "xint": TooNoisy}
	for _, r := range rs {
		if r.Verdict != want[r.Set] {
			t.Errorf("%s: verdict %q, want %q (%+v)", r.Cell, r.Verdict, want[r.Set], r)
		}
	}
	if r := rs[1]; r.JVM != 20000 || r.JVMMin != 19800 || r.JVMMax != 20500 || r.JVMSlowdown != 20 || r.ModelSlowdn != 25 {
		t.Errorf("no-ghash: %+v", r)
	}
	var b strings.Builder
	WriteTable(&b, rs)
	if !strings.Contains(b.String(), "3 cells: 1 within ±25 %, 1 outside, 1 JVM too noisy, 0 model not steady") ||
		!regexp.MustCompile(`no-ghash .* 3/4 +1 `).MatchString(b.String()) {
		t.Errorf("table:\n%s", b.String())
	}
	// The page shows the same counts in their own columns.
	var page strings.Builder
	if err := WriteHTML(&page, Page{Command: "jitsim validate", Steady: rs}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<th>rounds used</th><th>disturbed</th>") || strings.Count(page.String(), "<td>3/4</td><td>1</td>") != 1 ||
		strings.Count(page.String(), "<td>3/3</td><td>0</td>") != 2 {
		t.Errorf("page:\n%s", page.String())
	}
	// A JVM that fails, or prints no row, is an error naming it.
	bad := func(context.Context, []string) (string, error) { return "Killed\n", nil }
	if _, err := Run(context.Background(), Options{Java: "java", JDK: jdk.R17, Rounds: 1, Cells: cells, RunJVM: bad, Model: model}); err == nil ||
		!strings.Contains(err.Error(), "--jvm=java") || !strings.Contains(err.Error(), "no gcm-enc row") {
		t.Errorf("a JVM printing garbage: %v", err)
	}
}

// TestModelCellsSideBySide: the model-clock cells run ModelWorkers at a time, after every JVM
// round, and come back in the cells' order; the first failing cell in that order is the
// error.
func TestModelCellsSideBySide(t *testing.T) {
	cells, err := Cells([]string{"default", "no-ghash", "xint", "c1-only"}, []string{"gcm-enc"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	jvmRuns := 0
	runJVM := func(context.Context, []string) (string, error) {
		jvmRuns++
		return "row gcm-enc size=1024 cpu-ns/op=1000.0 cpu-ns/byte=0.9766 cpu-MB/s=1.0 min=1000.0 max=1000.0\n", nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	arrived := make(chan string, len(cells))
	var both sync.WaitGroup
	both.Add(2)
	model := func(_ context.Context, c Cell) (ModelResult, error) {
		if jvmRuns != len(cells) {
			t.Errorf("%s on the model clock before the JVM's rounds ended (%d of %d)", c, jvmRuns, len(cells))
		}
		arrived <- c.Set.Name
		if c.Set.Name == "default" || c.Set.Name == "no-ghash" { // the first two meet: two at once
			both.Done()
			done := make(chan struct{})
			go func() { both.Wait(); close(done) }()
			select {
			case <-done:
			case <-ctx.Done():
				return ModelResult{}, fmt.Errorf("%s waited alone: the cells ran one at a time", c)
			}
		}
		return ModelResult{NsPerOp: float64(1000 * (1 + slices.IndexFunc(cells, func(x Cell) bool { return x.Set.Name == c.Set.Name }))), Steady: true}, nil
	}
	rs, err := Run(ctx, Options{Java: "java", JDK: jdk.R17, Rounds: 1, Cells: cells, RunJVM: runJVM, Model: model, ModelWorkers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Set != cells[i].Set.Name || r.Model != float64(1000*(i+1)) {
			t.Errorf("result %d: %s %.0f, want %s %d", i, r.Set, r.Model, cells[i].Set.Name, 1000*(i+1))
		}
	}
	if len(arrived) != len(cells) {
		t.Errorf("%d cells ran, want %d", len(arrived), len(cells))
	}
	// The first failing cell in the cells' order is the error, whichever ended first.
	failing := func(_ context.Context, c Cell) (ModelResult, error) {
		if c.Set.Name == "no-ghash" || c.Set.Name == "c1-only" {
			return ModelResult{}, fmt.Errorf("broken %s", c.Set.Name)
		}
		return ModelResult{NsPerOp: 1, Steady: true}, nil
	}
	if _, err := Run(context.Background(), Options{Java: "java", JDK: jdk.R17, Rounds: 1, Cells: cells, RunJVM: runJVM, Model: failing, ModelWorkers: 3}); err == nil ||
		!strings.Contains(err.Error(), "broken no-ghash") {
		t.Errorf("failing cells: %v", err)
	}
}

// TestModelPerOpSteady runs two small cells on the model clock: C1 is steady after its
// compiles, -Xint at once; C1 code is far faster than the interpreter.
func TestModelPerOpSteady(t *testing.T) {
	cells, err := Cells([]string{"xint", "c1-only"}, []string{"gcm-enc"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cpu.Lookup("skylake-avx2")
	var got []ModelResult
	for _, c := range cells {
		r, err := ModelPerOp(context.Background(), ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, c)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Steady || r.Ops < int64(c.Set.WarmOps) {
			t.Errorf("%s: %+v", c, r)
		}
		got = append(got, r)
	}
	if cells[0].Set.Name != "c1-only" || cells[1].Set.Name != "xint" {
		t.Fatalf("cells %v", cells)
	}
	if got[1].NsPerOp < 5*got[0].NsPerOp {
		t.Errorf("-Xint %.0f ns/op vs C1 %.0f ns/op", got[1].NsPerOp, got[0].NsPerOp)
	}
	// Side by side (validate's default), each cell answers exactly what it did alone.
	rs, err := Run(context.Background(), Options{Java: "java", JDK: jdk.R17, Rounds: 1, Cells: cells, ModelWorkers: 2,
		Model: func(ctx context.Context, c Cell) (ModelResult, error) {
			return ModelPerOp(ctx, ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, c)
		},
		RunJVM: func(context.Context, []string) (string, error) {
			return "row gcm-enc size=1024 cpu-ns/op=1000.0 cpu-ns/byte=0.9766 cpu-MB/s=1.0 min=1000.0 max=1000.0\n", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rs {
		if r.Model != got[i].NsPerOp || r.ModelOps != got[i].Ops {
			t.Errorf("%s side by side: %.3f ns/op after %d ops, alone %.3f after %d", r.Cell, r.Model, r.ModelOps, got[i].NsPerOp, got[i].Ops)
		}
	}
}

// profileFile writes CPU model name's own profile, with its rows as edit leaves them, to a
// file of the test's: what --profile reads.
func profileFile(t *testing.T, name string, edit func(rows []model.Row) []model.Row) (cpu.Model, string) {
	t.Helper()
	m, err := cpu.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.Lookup(m.Name)
	if err != nil {
		t.Fatal(err)
	}
	p.Rows = edit(slices.Clone(p.Rows))
	data, err := p.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(t.TempDir(), "profile-*.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	return m, f.Name()
}

// glueCosts runs one cell of set, op and 1 KiB on release rel on the model clock, on
// skylake-avx2's own profile written to a file, and on the same with the glue rows added:
// the time per operation of each (ns).
func glueCosts(t *testing.T, rel jdk.Release, set, op string, glue ...model.Row) (plain, glued float64) {
	t.Helper()
	cells, err := Cells([]string{set}, []string{op}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, rows := range [][]model.Row{nil, glue} {
		m, f := profileFile(t, "skylake-avx2", func(r []model.Row) []model.Row { return append(r, rows...) })
		r, err := ModelPerOp(context.Background(), ModelOptions{JDK: rel, CPU: m, ProfileFile: f, Tiers: tiers.Default()}, cells[0])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.NsPerOp)
	}
	return got[0], got[1]
}

// glueRow is a provider-glue row of family at ps per call.
func glueRow(family string, ps int64) model.Row {
	return model.Row{What: model.WhatGlue, Family: family, Unit: model.PerCall, Ps: ps, Source: "test"}
}

// TestGlueCharged: a profile with provider-glue rows charges each operation its init and
// doFinal glue at the level its code runs at (-Xint: the interpreter's), on top of
// everything else; the CPU model's own profile, which has none, charges nothing.
func TestGlueCharged(t *testing.T) {
	m, _ := cpu.Lookup("skylake-avx2")
	cells, err := Cells([]string{"xint"}, []string{"gcm-enc"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	own, err := ModelPerOp(context.Background(), ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, cells[0])
	if err != nil {
		t.Fatal(err)
	}
	plain, glued := glueCosts(t, jdk.R17, "xint", "gcm-enc",
		glueRow("interp/GCM.final", 5_000_000), glueRow("interp/GCM.init", 1_000_000),
		glueRow("c2/GCM.final", 999_000_000)) // never reached under -Xint
	if own.NsPerOp != plain {
		t.Errorf("the CPU model's profile %.1f ns/op, the same written to a file %.1f", own.NsPerOp, plain)
	}
	if d := glued - plain; d < 5999 || d > 6001 {
		t.Errorf("glue added %.1f ns per operation, want 6000 (init 1 µs + doFinal 5 µs)", d)
	}
}

// TestGlueAtTheCalleesLevel: the glue runs at the level of the method it calls. On JDK 25
// at C2, GHASH.doFinal keeps its level-3 code (only EncryptOp.doFinal's C2 code, which
// inlines it, runs it), so glue priced at GHASH.doFinal's own level was charged level-3
// costs for ever; the glue's callee, called from the glue and never inlined, runs C2 code
// at the steady state.
func TestGlueAtTheCalleesLevel(t *testing.T) {
	plain, glued := glueCosts(t, jdk.R25, "default", "gcm-enc",
		glueRow("c2/GCM.final", 5_000_000), glueRow("c2/GCM.init", 1_000_000),
		glueRow("c1-l3/GCM.final", 999_000_000), glueRow("c1-l3/GCM.init", 999_000_000)) // not at the steady state
	if d := glued - plain; d < 5999 || d > 6001 {
		t.Errorf("glue added %.1f ns per operation at the steady state, want 6000 (C2's init 1 µs + doFinal 5 µs)", d)
	}
}

// TestWallPerOp times a cell on jitsim's wall clock: the interpreter's GCM over 1 KiB takes
// real time, far more than C1's.
func TestWallPerOp(t *testing.T) {
	if testing.Short() {
		t.Skip("times real runs")
	}
	m, _ := cpu.Lookup("host")
	cells, err := Cells([]string{"c1-only", "xint"}, []string{"gcm-enc"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, c := range cells {
		ns, err := WallPerOp(context.Background(), ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, c)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ns)
	}
	if !(got[0] > 0) || got[1] < 2*got[0] {
		t.Errorf("wall clock: C1 %.0f ns/op, -Xint %.0f ns/op", got[0], got[1])
	}
}

// TestModelGlueOp: jitsim's own 16-byte operation, as a calibration subtracts it from the
// JVM's to leave the glue, on a profile file: the interpreter's far slower than C2's.
func TestModelGlueOp(t *testing.T) {
	m, _ := cpu.Lookup("skylake-avx2")
	p, err := model.Lookup(m.Name)
	if err != nil {
		t.Fatal(err)
	}
	op := ModelGlueOp(m, tiers.Default())
	xint, err := op(context.Background(), p, jdk.R17, []string{"-Xint"}, "ctr")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := op(context.Background(), p, jdk.R17, nil, "ctr")
	if err != nil {
		t.Fatal(err)
	}
	if c2 <= 0 || xint < 10*c2 {
		t.Errorf("16-byte CTR: -Xint %d ps, C2 %d ps", xint, c2)
	}
	if _, err := op(context.Background(), p, jdk.R17, nil, "ecb"); err == nil {
		t.Error("no error for a mode with no glue operation")
	}
}

// TestModelPerOpWaitsForInstalls: the steady state is never declared while a compile is
// on its way. With C1 compiling 20 times slower than the host profile's (a loaded
// calibration measured 115 000 bytes/s), a 16-byte CTR operation's methods are still
// compiling after C1's 3000 warm-up operations; their code installs later with no event in
// between, and batches of interpreted operations meanwhile take the same time each:
// declared steady then, C1's operation read as the interpreter's.
func TestModelPerOpWaitsForInstalls(t *testing.T) {
	m, f := profileFile(t, "host", func(rows []model.Row) []model.Row {
		for i, r := range rows {
			if r.What == model.WhatCompileC1 {
				rows[i].Ps *= 20
			}
		}
		return rows
	})
	var per []float64
	for _, set := range []FlagSet{{"c1", []string{"-XX:TieredStopAtLevel=1"}, 3000}, {"xint", []string{"-Xint"}, 0}} {
		r, err := ModelPerOp(context.Background(), ModelOptions{JDK: jdk.R17, CPU: m, ProfileFile: f, Tiers: tiers.Default()}, Cell{set, glueOps["ctr"], 16})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Steady {
			t.Fatalf("%s: no steady state in %d operations", set.Name, r.Ops)
		}
		per = append(per, r.NsPerOp)
	}
	if per[0]*5 > per[1] {
		t.Errorf("a 16-byte CTR operation: C1 %.1f ns, the interpreter %.1f ns", per[0], per[1])
	}
}

// TestFirstUseChargedOnce: a profile's first-use rows cost a VM once each — the first
// Cipher's JCE load and GCM's first operation — and nothing after.
func TestFirstUseChargedOnce(t *testing.T) {
	run := func(rows ...model.Row) (batches []time.Duration, end time.Duration) {
		m, f := profileFile(t, "host", func(r []model.Row) []model.Row { return append(r, rows...) })
		r, err := setup.Resolve(setup.Request{JDK: jdk.R17, CPU: m, Clock: setup.ClockModel, ProfileFile: f, Tiers: tiers.Default()})
		if err != nil {
			t.Fatal(err)
		}
		vm, err := r.NewVM(r.NewClock(), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer vm.Close()
		env := scenario.Env{VM: vm, Threads: 1, Clock: vm, ClockKind: setup.ClockModel}
		props := map[string]string{"mode": "GCM", "op": "encrypt", "dataSize": "1024"}
		for range 3 {
			bs, err := scenario.ModeLoop.RunBatch(context.Background(), env, props, 1, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			batches = append(batches, bs[0].Duration)
		}
		return batches, vm.Now()
	}
	plain, plainEnd := run()
	first, firstEnd := run(model.Row{What: model.WhatFirstUse, Family: "GCM.instance", Unit: model.PerCall, Ps: 300e9, Source: "test"},
		model.Row{What: model.WhatFirstUse, Family: "GCM.op", Unit: model.PerCall, Ps: 100e9, Source: "test"})
	if d := firstEnd - plainEnd; d != 400*time.Millisecond {
		t.Errorf("the first use added %v to the run, want 400ms (300ms + 100ms)", d)
	}
	if !slices.Equal(first[1:], plain[1:]) {
		t.Errorf("operations after the first: %v with first-use rows, %v without", first[1:], plain[1:])
	}
}

// TestModelPerOpSmallOpCompiles: a 1 KiB CBC decryption at C2 costs tens of nanoseconds an
// operation, so its C2 compiles, priced by the bytes they parse, outlast its first million
// operations; the cell runs on until they end and is steady.
func TestModelPerOpSmallOpCompiles(t *testing.T) {
	cells, err := Cells([]string{"default"}, []string{"cbc-dec"}, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cpu.Lookup("host")
	r, err := ModelPerOp(context.Background(), ModelOptions{JDK: jdk.R17, CPU: m, Tiers: tiers.Default()}, cells[0])
	if err != nil {
		t.Fatal(err)
	}
	if !r.Steady {
		t.Errorf("%s: not steady after %d operations (%.1f ns/op)", cells[0], r.Ops, r.NsPerOp)
	}
}
