package c1_test

import (
	"fmt"
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/c1"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

func TestConformance(t *testing.T) {
	for _, level := range []jrt.Level{jrt.LevelSimple, jrt.LevelLimitedProfile, jrt.LevelFullProfile} {
		t.Run(fmt.Sprintf("level=%d", level), func(t *testing.T) {
			tiertest.Conformance(t, level, c1.New())
		})
	}
}

// TestConformanceInlined runs the conformance suite at level 1 with every
// call inlined (the inline modules), the build levels 2 and 3 never use.
func TestConformanceInlined(t *testing.T) {
	tiertest.ConformanceInlined(t, jrt.LevelSimple, c1.New())
}
