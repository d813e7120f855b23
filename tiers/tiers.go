// Package tiers wires jitsim's three real tiers together for the CLI and
// for tests of scenarios and study tools.
package tiers

import (
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/c1"
	"github.com/jitsim/jitsim/tiers/c2"
	"github.com/jitsim/jitsim/tiers/interp"
)

// Default returns the interpreter, C1 and C2 tiers, in level order.
func Default() []jrt.Tier {
	return []jrt.Tier{interp.New(), c1.New(), c2.New()}
}
