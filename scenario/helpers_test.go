package scenario

import (
	"bytes"
	"context"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// testEnv returns an Env on a real VM (tiers.Default()) of profile jdk with
// checkOutput forced, and a factory for more VMs of the same kind.
func testEnv(t *testing.T, rel jdk.Release) Env {
	t.Helper()
	clock := jrt.WallClock()
	newVM := func() (*jrt.VM, error) {
		return jrt.New(jrt.NewConfig().WithJDK(rel).WithTiers(tiers.Default()...).WithClock(clock))
	}
	vm, err := newVM()
	if err != nil {
		t.Fatalf("jrt.New(--jdk=%s): %v", rel, err)
	}
	t.Cleanup(func() { vm.Close() })
	return Env{VM: vm, NewVM: newVM, Clock: clock, CheckOutput: true}
}

// runScenario runs the named scenario and returns its output.
func runScenario(t *testing.T, env Env, name string, props map[string]string, args ...string) (string, error) {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) failed", name)
	}
	var out bytes.Buffer
	err := s.Run(context.Background(), env, props, args, &out)
	return out.String(), err
}
