package interp_test

import (
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/interp"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

func TestConformance(t *testing.T) {
	tiertest.Conformance(t, jrt.LevelNone, interp.New())
}
