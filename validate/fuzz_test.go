package validate

import (
	"os"
	"testing"

	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/warmup"
)

// FuzzPhaseLandmarks feeds arbitrary replayer output through what RunWorkload reads of it:
// the JVM's series, split into the test workload's phases. Bad output is an error, never a
// panic.
func FuzzPhaseLandmarks(f *testing.F) {
	if rec, err := os.ReadFile("testdata/two-phases-jdk17.txt"); err == nil {
		f.Add(rec)
	}
	f.Add([]byte("jitsim-epoch 5\njitsim-iter 0 1 2 3\njitsim-iter 1 -5 0 0\n"))
	phases := []scenario.ResolvedPhase{{Name: "records", Ops: 12}, {Name: "none", Ops: 0}, {Name: "burst", Ops: 6}}
	f.Fuzz(func(t *testing.T, out []byte) {
		run, err := warmup.ParseJVMOutput(out, 1, 0)
		if err != nil {
			return
		}
		ls, err := phaseLandmarks(run.Iterations, phases)
		if err == nil && len(ls) != len(phases) {
			t.Fatalf("%d phases' landmarks for %d phases", len(ls), len(phases))
		}
	})
}
