package model

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// TestSelectableVariantsComplete: every variant a selection rule can pick (every ID of
// stubs.Rules) has exactly one cost shape, a calibration prober for its entry and — for the
// architecture of the recording host, amd64 — exactly one host measurement; the model prices
// and measures no variant that no rule picks. The features agree by construction: the shapes,
// measurements and probes hold the variant's ID, whose Needs are the one feature set, and
// stubs.TestRulesCoverNeeds checks each rule's condition covers them.
func TestSelectableVariantsComplete(t *testing.T) {
	selectable := map[variant.ID]bool{}
	for _, r := range stubs.Rules() {
		selectable[r.ID] = true
	}
	shapes, measures := map[variant.ID]int{}, map[variant.ID]int{}
	for _, s := range stubShapes {
		shapes[s.id]++
	}
	for _, h := range hostStubMeasures {
		measures[h.id]++
	}
	for id := range selectable {
		if shapes[id] != 1 {
			t.Errorf("%s: %d cost shapes, want 1", id, shapes[id])
		}
		if _, ok := stubProbers[id.Stub()]; !ok {
			t.Errorf("%s: no calibration prober for %s", id, id.Stub())
		}
		if want := map[bool]int{true: 1, false: 0}[id.Arch() == jdk.AMD64]; measures[id] != want {
			t.Errorf("%s: %d host measurements, want %d", id, measures[id], want)
		}
	}
	for id := range shapes {
		if !selectable[id] {
			t.Errorf("cost shape for %s, which no rule selects", id)
		}
	}
	for id := range measures {
		if !selectable[id] {
			t.Errorf("host measurement for %s, which no rule selects", id)
		}
	}
}

// TestStubProbesCoverHost: StubProbes times every variant this binary has and this host can
// run — the selectable ones, the generic twins and the measured alternatives — once each.
func TestStubProbesCoverHost(t *testing.T) {
	ps, err := StubProbes([]byte("jitsim calibrate"), make([]byte, 1<<10))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, p := range ps {
		got[p.Family+"/"+p.What]++
	}
	built := map[variant.ID]bool{}
	for _, id := range append(aes.Built(), gcm.Built()...) {
		built[id] = true
	}
	for _, id := range append(aes.Variants(), gcm.Variants()...) {
		want := 0
		if built[id] && cpu.Host().HasAll(id.Needs()) {
			want = 1
		}
		if n := got[id.Stub()+"/"+Stub(id.Name())]; n != want {
			t.Errorf("%s: %d probes, want %d", id, n, want)
		}
	}
	if _, err := StubProbes([]byte("short"), make([]byte, 1<<10)); err == nil {
		t.Error("a 5-byte key was accepted")
	}
	if _, err := StubProbes([]byte("jitsim calibrate"), make([]byte, 17)); err == nil {
		t.Error("a 17-byte payload was accepted")
	}
}
