package model_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/cpu"
)

var wantProfiles = []string{"host", "sandybridge-i5", "haswell-e5-2660v3", "skylake-avx2", "icelake-server", "neoverse-n1", "apple-m1"}

func TestProfilesComplete(t *testing.T) {
	for _, name := range wantProfiles {
		t.Run(name, func(t *testing.T) {
			p, err := model.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			if p.GHz <= 0 || p.Source == "" {
				t.Errorf("clock %v GHz, source %q", p.GHz, p.Source)
			}
			// Java code at every tier, calls, dispatch and both compilers.
			for lvl := range 5 {
				w, _ := model.TierWhat(lvl)
				for _, fam := range []string{"AESCrypt.implEncryptBlock", "GHASH.processBlocks", "CounterMode.implCrypt"} {
					if _, err := p.Cost(w, fam, 16); err != nil {
						t.Error(err)
					}
				}
				if _, err := p.Cost(model.WhatCall, w, 0); err != nil {
					t.Error(err)
				}
			}
			if _, err := p.Cost(model.WhatDispatch, "counterMode_AESCrypt", 0); err != nil {
				t.Error(err)
			}
			for _, c := range []string{model.WhatCompileC1, model.WhatCompileC2} {
				if c, err := p.CompileCost(c, "GHASH.processBlocks", 300); err != nil || c <= 0 {
					t.Errorf("%s: %v, %v", c, c, err)
				}
			}
			// Every stub variant HotSpot can generate on this CPU (any JDK,
			// any flags) has a cost.
			m, _ := cpu.Lookup(name)
			for _, r := range stubs.Rules() {
				if r.ID.Arch() != m.Arch || !m.Features.HasAll(r.Requires) {
					continue
				}
				if _, err := p.Cost(model.Stub(r.ID.Name()), r.ID.Stub(), 4096); err != nil {
					t.Errorf("variant %s: %v", r.ID, err)
				}
			}
		})
	}
}

func TestProfilesDeterministic(t *testing.T) {
	render := func() []byte {
		var b bytes.Buffer
		for _, p := range model.Profiles() {
			j, err := p.MarshalIndent()
			if err != nil {
				t.Fatal(err)
			}
			b.Write(j)
		}
		return b.Bytes()
	}
	a, b := render(), render()
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the profiles differ")
	}
	var names []string
	for _, p := range model.Profiles() {
		names = append(names, p.CPU)
	}
	if got, want := strings.Join(names, ","), strings.Join(wantProfiles, ","); got != want {
		t.Errorf("Profiles() = %s, want %s", got, want)
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := model.Lookup("pentium-4")
	if err == nil || !strings.Contains(err.Error(), "unknown CPU model") {
		t.Fatalf("error = %v", err)
	}
}

// TestStreamRows: the block stub called from a loop of independent blocks is priced by its
// own rows (model.StreamFamily) where the core's window holds more than one call of that
// loop — on Ice Lake 8u's GCTR loop (31 operations, 224 in its nested 16-byte xor, + 46
// against 352 entries), not on Haswell (192 entries) or Neoverse N1 (128), nor CounterMode's
// byte loop (256 + 46) on Haswell — never above the entry's latency-bound rows, and
// never on the host, whose block stub rows are the JVM's.
func TestStreamRows(t *testing.T) {
	for _, c := range []struct {
		cpu    string
		rel    jdk.Release
		caller string
		want   bool
	}{
		{"haswell-e5-2660v3", jdk.R8u, "GCTR.update", false},
		{"icelake-server", jdk.R8u, "GCTR.update", true},
		{"haswell-e5-2660v3", jdk.R17, "CounterMode.implCrypt", false},
		{"haswell-e5-2660v3", jdk.R8u, "CipherBlockChaining.implEncrypt", false},
		{"neoverse-n1", jdk.R8u, "GCTR.update", false},
		{"icelake-server", jdk.R17, "CounterMode.implCrypt", true},
		{"apple-m1", jdk.R25, "CounterMode.implCrypt", true},
		{"host", jdk.R8u, "GCTR.update", false},
		{"host", jdk.R17, "CounterMode.implCrypt", false},
	} {
		p, err := model.LookupRelease(c.cpu, c.rel)
		if err != nil {
			t.Fatal(err)
		}
		var entry model.Row
		for _, r := range p.Rows {
			if r.Family == "aescrypt_encryptBlock" && r.Unit == model.PerBlock && strings.HasPrefix(r.What, "stub:") {
				entry = r
			}
		}
		fam := model.StreamFamily("aescrypt_encryptBlock", c.caller)
		r, ok := p.Row(entry.What, fam, model.PerBlock)
		if ok != c.want {
			t.Errorf("%s %v: a row for %s: %v, want %v", c.cpu, c.rel, fam, ok, c.want)
			continue
		}
		if !ok {
			continue
		}
		call, _ := p.Row(entry.What, "aescrypt_encryptBlock", model.PerCall)
		if r.Ps <= 0 || r.Ps > entry.Ps+call.Ps {
			t.Errorf("%s %v: %s costs %d ps a call, the entry's latency-bound rows %d + %d", c.cpu, c.rel, fam, r.Ps, entry.Ps, call.Ps)
		}
	}
}
