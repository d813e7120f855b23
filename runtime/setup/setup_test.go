package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

func cpuModel(t *testing.T, name string) cpu.Model {
	t.Helper()
	m, err := cpu.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResolve resolves a command line on a CPU model without AVX-512: the flags are settled
// (UseAVX lowered ergonomically, with HotSpot's warning for the explicit request), the
// properties and -Xmx are the command line's, and the model clock carries the CPU model's
// profile.
func TestResolve(t *testing.T) {
	r, err := Resolve(Request{JDK: jdk.R17, CPU: cpuModel(t, "sandybridge-i5"), Clock: ClockModel, Threads: 3,
		Options: []string{"-XX:UseAVX=3", "-Dmode=GCM", "-Xmx64m"}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Settled || r.Flags.Int("UseAVX") != 1 {
		t.Errorf("settled %v, UseAVX %d", r.Settled, r.Flags.Int("UseAVX"))
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "UseAVX=3 is not supported") {
		t.Errorf("warnings %q", r.Warnings)
	}
	if v, _ := r.Result.Property("mode"); v != "GCM" || r.Result.MaxHeapSize != 64<<20 || r.Threads != 3 {
		t.Errorf("mode %q, -Xmx %d, threads %d", v, r.Result.MaxHeapSize, r.Threads)
	}
	if r.Profile == nil || r.Profile.CPU != "sandybridge-i5" {
		t.Fatalf("profile %+v", r.Profile)
	}
	if cfg := r.Config(r.NewClock(), nil); cfg.JDK() != jdk.R17 {
		t.Errorf("config for JDK %s", cfg.JDK())
	}
	w, err := Resolve(Request{JDK: jdk.R25, CPU: cpuModel(t, "host")})
	if err != nil {
		t.Fatal(err)
	}
	if w.Clock != ClockWall || w.Profile != nil {
		t.Errorf("default clock %q, profile %v", w.Clock, w.Profile)
	}
}

// TestResolveStops checks that each failing step leaves what the steps before it resolved.
func TestResolveStops(t *testing.T) {
	host := cpuModel(t, "host")
	r, err := Resolve(Request{JDK: jdk.R25, CPU: host, Options: []string{"-XX:+Bogus"}})
	var fe *flags.Error
	if !errors.As(err, &fe) || r.Flags != nil || r.Result == nil || r.Settled {
		t.Errorf("bad option: %v, flags %v, settled %v", err, r.Flags, r.Settled)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{\n  \"rows\": 7\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = Resolve(Request{JDK: jdk.R25, CPU: host, Clock: ClockModel, ProfileFile: bad, Options: []string{"-version"}})
	if err == nil || !strings.Contains(err.Error(), bad+":2") || !r.Settled || r.Profile != nil || !r.Result.Version {
		t.Errorf("bad profile: %v, settled %v, profile %v", err, r.Settled, r.Profile)
	}
	if _, err := Resolve(Request{JDK: jdk.R25, CPU: host, Clock: "sundial"}); err == nil {
		t.Error("an unknown clock resolved")
	}
	if _, err := Resolve(Request{JDK: jdk.R25, CPU: host, ProfileFile: bad}); err == nil {
		t.Error("a profile on the wall clock resolved")
	}
	defer func() {
		if recover() == nil {
			t.Error("Config of an unsettled run did not panic")
		}
	}()
	r.Config(nil, nil)
}

// TestRunnable: the wall clock runs only the host's architecture, the model clock any.
func TestRunnable(t *testing.T) {
	foreign := cpuModel(t, "neoverse-n1")
	if jdk.HostArch() == jdk.ARM64 {
		foreign = cpuModel(t, "skylake-avx2")
	}
	var he *HostError
	if err := Runnable(foreign, ClockWall); !errors.As(err, &he) || !strings.Contains(err.Error(), "cannot run on the wall clock") {
		t.Errorf("foreign model on the wall clock: %v", err)
	}
	if err := Runnable(foreign, ClockModel); err != nil {
		t.Errorf("foreign model on the model clock: %v", err)
	}
	if err := Runnable(cpuModel(t, "host"), ""); err != nil {
		t.Errorf("host: %v", err)
	}
}

// TestCostProfileRelease: the built-in host profile a run gets is the one of its release, so
// a JDK 25 run prices the GHASH stub from JDK 25's own GCM path and a JDK 17 run from JDK 17's.
func TestCostProfileRelease(t *testing.T) {
	m := cpuModel(t, "host")
	for rel, want := range map[jdk.Release]string{jdk.R25: "jdk25_c2_avx2_split", jdk.R17: "jdk17_c2_default"} {
		p, err := CostProfile(m, rel, "", false)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := p.Row("stub:avx-8block", "ghash_processBlocks", "byte")
		if !ok || !strings.Contains(r.Source, want) {
			t.Errorf("JDK %s: GHASH row %v (found %v), want one from run %s", rel, r, ok, want)
		}
	}
}
