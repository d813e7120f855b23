package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/runtime/model"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// TestCalibrateRoundTrip runs jitsim calibrate with one tiny round (1 KiB payloads) and
// checks that the profile it writes loads back with model.LoadProfileFile row for row, and
// that it prices everything the model clock charges on this host: code at every level for
// the attributed families, a call per level, dispatch, both compilers, and every stub
// variant this CPU can run.
func TestCalibrateRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "host.json")
	var stdout, stderr bytes.Buffer
	o := calibrateOptions{out: out, jdk: "17", rounds: 1, round: time.Millisecond, size: 1 << 10}
	if st := wired().runCalibrate(context.Background(), o, &stdout, &stderr); st != 0 {
		t.Fatalf("status %d: %s", st, stderr.String())
	}
	got, err := model.LoadProfileFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.CPU != "host" || !strings.HasPrefix(got.Source, "jitsim calibrate on ") {
		t.Errorf("profile cpu %q source %q", got.CPU, got.Source)
	}
	type key struct{ what, family, unit string }
	rows := map[key]model.Row{}
	for _, r := range got.Rows {
		rows[key{r.What, r.Family, string(r.Unit)}] = r
		if strings.HasPrefix(r.What, "calibrate:") {
			t.Errorf("auxiliary probe %s leaked into the profile", r.What)
		}
	}
	want := []key{{model.WhatDispatch, model.AnyFamily, "call"}, {model.WhatCompileC1, model.AnyFamily, "bytecode-byte"},
		{model.WhatCompileC2, model.AnyFamily, "bytecode-byte"}}
	for level := range 5 {
		what, _ := model.TierWhat(level)
		for _, fam := range []string{"AESCrypt.implEncryptBlock", "AESCrypt.implDecryptBlock", "GHASH.processBlocks", "GHASH.processBlock", model.AnyFamily} {
			want = append(want, key{what, fam, "byte"})
		}
		want = append(want, key{model.WhatCall, what, "call"})
	}
	for _, v := range stubaes.CTRVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			want = append(want, key{model.Stub(v.Name()), v.Stub(), "byte"})
		}
	}
	for _, v := range gcm.GCMVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			want = append(want, key{model.Stub(v.Name()), v.Stub(), "byte"})
		}
	}
	for _, k := range want {
		r, ok := rows[k]
		if !ok {
			t.Errorf("no row %v", k)
			continue
		}
		if r.Source == "" {
			t.Errorf("row %v has no source", k)
		}
	}
	// The compile rows are measured directly and must be positive. Dispatch is a
	// difference of two probes a few tens of nanoseconds apart; with this test's single
	// 1-ms round it can come out below zero on a busy machine, which calibrate takes as
	// free and must then say so in the row's source.
	for _, k := range want[1:3] {
		if rows[k].Ps <= 0 {
			t.Errorf("row %v costs %d ps; a real measurement is positive", k, rows[k].Ps)
		}
	}
	if r := rows[want[0]]; r.Ps < 0 || r.Ps == 0 && !strings.Contains(r.Source, "(noise)") {
		t.Errorf("row %v costs %d ps with source %q; want a positive cost, or 0 marked as noise", want[0], r.Ps, r.Source)
	}
	if !strings.Contains(stdout.String(), "compile-c2") || !strings.Contains(stdout.String(), "stub:generic") {
		t.Errorf("table lacks rows:\n%s", stdout.String())
	}
}
