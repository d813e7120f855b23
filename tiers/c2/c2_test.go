package c2_test

import (
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/c2"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

func TestConformance(t *testing.T) {
	tiertest.Conformance(t, jrt.LevelFullOptimization, c2.New())
}

// TestConformanceInlined runs the conformance suite at level 4 with every
// call inlined (the inline modules).
func TestConformanceInlined(t *testing.T) {
	tiertest.ConformanceInlined(t, jrt.LevelFullOptimization, c2.New())
}
