package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
)

// TestTiersOnClock: the model clock's VMs take the cached tiers, the wall clock's timed
// compiles never do.
func TestTiersOnClock(t *testing.T) {
	var wall, model int
	d := deps{tiers: func() []jrt.Tier { wall++; return nil }, modelTiers: func() []jrt.Tier { model++; return nil }}
	d.tiersOn(setup.ClockWall)
	if wall != 1 || model != 0 {
		t.Errorf("wall clock: tiers called %d times, model tiers %d; want 1 and 0", wall, model)
	}
	d.tiersOn(setup.ClockModel)
	if wall != 1 || model != 1 {
		t.Errorf("model clock: tiers called %d times, model tiers %d; want 1 and 1", wall, model)
	}
	d.modelTiers = nil
	d.tiersOn(setup.ClockModel)
	if wall != 2 {
		t.Errorf("model clock without model tiers: tiers called %d times, want 2", wall)
	}
}

// TestRunStats: --stats prints each phase's simulated seconds per wall second after a named
// scenario, leaves stdout as it was, and refuses a scenario file.
func TestRunStats(t *testing.T) {
	args := []string{"--jdk=17", "--cpu=haswell-e5-2660v3", "--clock=model", "-Dmode=GCM", "-DmsgSize=256", "TestAESMain", "20", "10"}
	_, plain, _ := jitsim(append([]string{"run"}, args...)...)
	exit, out, stderr := jitsim(append([]string{"run", "--stats"}, args...)...)
	if exit != 0 {
		t.Fatalf("exit %d: %s", exit, stderr)
	}
	if out != plain {
		t.Errorf("--stats changed stdout:\n%s\nwant:\n%s", out, plain)
	}
	for _, want := range []string{"jitsim run --stats: TestAESMain on the model clock", "model s per wall s",
		"encrypt-warmup  10", "encrypt         20", "decrypt-warmup  10", "decrypt         20"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	file := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(file, []byte("scenario = \"TestAESMain\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if exit, _, stderr := jitsim("run", "--stats", file); exit == 0 || !strings.Contains(stderr, "--stats applies to a scenario name") {
		t.Errorf("--stats with a scenario file: exit %d, stderr %q", exit, stderr)
	}
}
