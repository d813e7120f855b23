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

// TestConformanceInlined runs the conformance suite at levels 1 and 2 with
// every call inlined (the None and Limited inline modules; level 3 does not
// inline).
func TestConformanceInlined(t *testing.T) {
	for _, level := range []jrt.Level{jrt.LevelSimple, jrt.LevelLimitedProfile} {
		t.Run(fmt.Sprintf("level=%d", level), func(t *testing.T) {
			tiertest.ConformanceInlined(t, level, c1.New())
		})
	}
}
