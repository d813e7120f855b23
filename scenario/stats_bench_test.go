package scenario

import (
	"context"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// BenchmarkModelClockSpeed keeps `jitsim run --clock=model --stats`: TestAESMain GCM on
// 10 000-byte messages on Haswell's profile, 5 000 warm-up runs per direction (every crypto
// method at level 4 with its stubs after them), then b.N timed runs per direction. It reports
// the timed phases' simulated seconds per wall second and wall ns per simulated operation
// (ns/op also carries the warm-up, amortised over b.N). JDK 8u calls the AES block stub once
// per 16 bytes from GCTR; JDK 17 hands whole messages to its stubs.
func BenchmarkModelClockSpeed(b *testing.B) {
	const cpuName = "haswell-e5-2660v3"
	for _, rel := range []jdk.Release{jdk.R8u, jdk.R17} {
		b.Run("jdk="+rel.String(), func(b *testing.B) {
			m, err := cpu.Lookup(cpuName)
			if err != nil {
				b.Fatal(err)
			}
			set, _, err := flags.Parse(flags.Options{JDK: rel, Arch: m.Arch})
			if err != nil {
				b.Fatal(err)
			}
			cfg := jrt.NewConfig().WithJDK(rel).WithFlags(set).WithCPU(m).WithActiveProcessors(m.Cores).
				WithTiers(tiers.Default()...).WithOutput(io.Discard)
			if cfg, err = ModelConfig(cfg, cpuName, ""); err != nil {
				b.Fatal(err)
			}
			s, _ := Lookup("TestAESMain")
			stats := NewPhaseStats(time.Now)
			env := Env{NewVM: func() (*jrt.VM, error) { return jrt.New(cfg) }, Threads: 1, ClockKind: ClockModel, Observer: stats}
			props := map[string]string{"mode": "GCM", "msgSize": "10000"}
			b.ResetTimer()
			if err := s.Run(context.Background(), env, props, []string{strconv.Itoa(b.N), "5000"}, io.Discard); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			var sim, wall time.Duration
			var ops int64
			for _, p := range stats.Phases() {
				if p.Phase == "encrypt" || p.Phase == "decrypt" {
					sim, wall, ops = sim+p.Simulated, wall+p.Wall, ops+p.Ops
				}
			}
			if wall <= 0 || ops == 0 {
				b.Fatalf("no timed phase: %+v", stats.Phases())
			}
			b.ReportMetric(sim.Seconds()/wall.Seconds(), "sim-s/wall-s")
			b.ReportMetric(float64(wall.Nanoseconds())/float64(ops), "wall-ns/sim-op")
		})
	}
}
