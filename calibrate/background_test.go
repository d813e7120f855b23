package calibrate

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/runtime/model"
)

// idleRecording is a background run on OpenJDK 17.0.15 (`--quick`: 20 iterations): its
// stderr, and the <task> and <task_done> lines of its compilation log (counters dropped).
func idleRecording(t testing.TB) (stderr, log string) {
	e, err := os.ReadFile("testdata/idle17-quick.err")
	if err != nil {
		t.Fatal(err)
	}
	l, err := os.ReadFile("testdata/idle17-quick.log")
	if err != nil {
		t.Fatal(err)
	}
	return string(e), string(l)
}

// TestBackgroundOfRecording reads the recording: the anchor is the epoch's uptime (1966 ms)
// less jitsim-ready's 10.47 ms; 40 compiles of code jitsim does not model end after it,
// 5416 bytes with what they inlined (counted by hand from the log), one of them
// (MemberName.getMethodType, 1955–1957 ms) running at the anchor, counted at 0 with its part
// left. Compiles of the methods jitsim models (the method table's) are left out.
func TestBackgroundOfRecording(t *testing.T) {
	for m, want := range map[string]bool{
		"com.sun.crypto.provider.GHASH blockMult ([J[J)V":             true,
		"com.sun.crypto.provider.AESCrypt implEncryptBlock ([BI[BI)V": true,
		"com.sun.crypto.provider.AESCrypt mul4 (I[B)I":                false, // the provider's, not modelled
		"java.lang.String hashCode ()I":                               false,
	} {
		if modelledMethod(m) != want {
			t.Errorf("modelledMethod(%q) = %v", m, !want)
		}
	}
	stderr, log := idleRecording(t)
	anchor, err := idleReady(stderr)
	if err != nil {
		t.Fatal(err)
	}
	if d := anchor - (1.966 - 0.010471441); d > 1e-9 || d < -1e-9 {
		t.Errorf("anchor %.6f s", anchor)
	}
	cs, err := backgroundOf(stderr, log)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 40 {
		t.Fatalf("%d compiles, want 40", len(cs))
	}
	_, _, bytes, _ := backgroundSummary(cs)
	first := cs[0]
	if first.At != 0 {
		t.Errorf("first compile at %v, want 0 (it was running at the anchor)", first.At)
	}
	// getMethodType's own bytes, scaled by (1.957-anchor)/(1.957-1.955), the rest whole.
	full := 5416
	if bytes >= full || bytes < full-200 {
		t.Errorf("%d bytes, want a little under %d (one compile counted in part)", bytes, full)
	}
	for i, c := range cs {
		if i > 0 && c.At < cs[i-1].At {
			t.Fatalf("compile %d at %v before compile %d at %v", i, c.At, i-1, cs[i-1].At)
		}
	}
	b, err := background(context.Background(), 3, "java … JitsimBench Idle 0 20 100", func(context.Context) (string, string, error) { return stderr, log, nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Compiles) != 40 || !strings.Contains(b.Source, "of 3 runs the one of median bytes") {
		t.Errorf("background: %d compiles, source %q", len(b.Compiles), b.Source)
	}
	p := model.Profile{CPU: "host", Release: "17", Provenance: &model.Provenance{JVM: "java", JVMVersion: "17", Date: "2026-12-07T00:00:00Z", Rounds: 1}, Background: b,
		Rows: []model.Row{{What: model.WhatCompileC1, Family: model.AnyFamily, Unit: model.PerBytecodeByte, Ps: 1, Source: "s"}}}
	if err := p.Validate(); err != nil {
		t.Errorf("a profile with the background: %v", err)
	}
	var table strings.Builder
	WriteTable(&table, p)
	if !strings.Contains(table.String(), "background: ") || !strings.Contains(table.String(), " C1 and ") {
		t.Errorf("the table does not sum up the background:\n%s", table.String())
	}
}

// TestBackgroundErrors: a run that fails, prints no anchor, or logs nothing is an error that
// says so, never a stream.
func TestBackgroundErrors(t *testing.T) {
	stderr, log := idleRecording(t)
	for _, c := range []struct {
		stderr, log string
		err         error
		want        string
	}{
		{stderr, log, errors.New("exit status 1"), "exit status 1"},
		{"jitsim-epoch 5\n", log, nil, "no jitsim-epoch or jitsim-ready"},
		{stderr, "<tty>\n</tty>\n", nil, "no finished compile task"},
		{stderr, "<task compile_id='1' method='m' bytes='x' stamp='1'>\n", nil, "bad task"},
		{stderr, "<task compile_id='1' method='m' bytes='1' level='7' stamp='1'>\n", nil, "level \"7\""},
		{stderr, "<task compile_id='1' method='m' bytes='1' stamp='2'>\n<task_done success='1' stamp='1'/>\n", nil, "bad task_done"},
	} {
		_, err := background(context.Background(), 1, "c", func(context.Context) (string, string, error) { return c.stderr, c.log, c.err })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.want, err, c.want)
		}
	}
}
