package interp_test

import (
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
	"github.com/jitsim/jitsim/tiers/interp"
)

func TestConformance(t *testing.T) {
	tiertest.Conformance(t, jrt.LevelNone, interp.New())
}
