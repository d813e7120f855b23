package main

import (
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
