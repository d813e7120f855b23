package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// TestSelectableVariantsComplete: every variant a selection rule can pick (every ID of
// stubs.Rules) has a cost shape and — for the architecture of the recording host, amd64 — a
// host measurement the recorded JVM runs hold; the model prices and measures no variant that
// no rule picks. The shape, the measurement and the prober are fields of the variant's one
// declaration (variant.Spec), so they cannot disagree with its features or entry.
func TestSelectableVariantsComplete(t *testing.T) {
	selectable := map[variant.ID]bool{}
	for _, r := range stubs.Rules() {
		selectable[r.ID] = true
	}
	for _, id := range stubVariants() {
		c, h := id.Cost(), id.Host()
		hasShape, hasHost := c.PerBlock != nil, len(h) > 0
		switch {
		case selectable[id] && !hasShape:
			t.Errorf("%s: selectable, no cost shape", id)
		case !selectable[id] && (hasShape || hasHost):
			t.Errorf("%s: a cost shape or host measurement, but no rule selects it", id)
		case selectable[id] && hasHost != (id.Arch() == jdk.AMD64):
			t.Errorf("%s: host measurement %v on %v, want one exactly for amd64", id, h, id.Arch())
		}
		for _, r := range h {
			for _, mode := range []string{r.Mode, r.Minus} {
				if mode != "" && !slices.ContainsFunc(jvmRows, func(j jvmRow) bool { return j.run == r.Run && j.mode == mode }) {
					t.Errorf("%s: host measurement %s/%s is not in the recorded JVM runs", id, r.Run, mode)
				}
			}
		}
		if hasHost {
			if _, ok := id.HostRun(anyRelease); !ok {
				t.Errorf("%s: no host measurement prices the releases without a run of their own", id)
			}
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

// TestHostStubsPerRelease: on the host, the AVX GHASH stub is priced from the run of the
// release's own GCM engine (JDK 18+'s: Temurin 25's run without the combined stub; 17's:
// JDK 17's run), as that run's GCM less its CTR; JDK 25 prices the AES-NI CTR stub from its
// own run too, every other release and Lookup from JDK 17's.
func TestHostStubsPerRelease(t *testing.T) {
	row := func(p Profile, what, family string) Row {
		t.Helper()
		r, ok := p.Row(what, family, PerByte)
		if !ok {
			t.Fatalf("%s: no per-byte row %s %s", p.CPU, what, family)
		}
		return r
	}
	def, err := Lookup("host")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rel jdk.Release
		run string
	}{{jdk.R25, "jdk25_c2_avx2_split"}, {jdk.R22, "jdk25_c2_avx2_split"}, {jdk.R21, "jdk25_c2_avx2_split"},
		{jdk.R17, "jdk17_c2_default"}, {jdk.R8u, "jdk17_c2_default"}} {
		p, err := LookupRelease("host", c.rel)
		if err != nil {
			t.Fatal(err)
		}
		gcmPs, _ := jvm(jvmRows, c.run, "gcm-enc")
		ctrPs, _ := jvm(jvmRows, c.run, "ctr")
		g := row(p, Stub("avx-8block"), "ghash_processBlocks")
		if g.Ps != gcmPs-ctrPs || !strings.Contains(g.Source, c.run+".txt") {
			t.Errorf("JDK %s: GHASH avx-8block %d ps/byte from %q, want %s's gcm-enc − ctr = %d", c.rel, g.Ps, g.Source, c.run, gcmPs-ctrPs)
		}
	}
	p25, _ := LookupRelease("host", jdk.R25)
	if r := row(p25, Stub("aesni-parallel6"), "counterMode_AESCrypt"); !strings.Contains(r.Source, "jdk25_c2_avx2_split.txt") {
		t.Errorf("JDK 25's AES-NI CTR priced from %q, want its own GCM path's run", r.Source)
	}
	if r := row(def, Stub("aesni-parallel6"), "counterMode_AESCrypt"); !strings.Contains(r.Source, "jdk17_c2_avx2.txt") {
		t.Errorf("Lookup's AES-NI CTR priced from %q, want JDK 17's run", r.Source)
	}
	if _, _, err := hostStubMeasure(variant.JVMRun{Run: "jdk25_c2_avx2_split", Mode: "ctr", Minus: "gcm-enc"}); err == nil {
		t.Error("a subtraction below zero gives no error")
	}
}
