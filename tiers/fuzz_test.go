package tiers_test

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

// FuzzModes runs a mode of the reference methods at level 4 (JDK 25 or 8
// bodies) on fuzzed lengths, offsets and seeds and compares with
// crypto/cipher (tiertest.Check).
func FuzzModes(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint16(64), uint8(0), uint8(0), false, uint64(1), false)
	f.Add(uint8(4), uint8(1), uint16(1000), uint8(3), uint8(9), false, uint64(2), true)
	f.Add(uint8(6), uint8(2), uint16(513), uint8(15), uint8(0), true, uint64(3), false)
	envs := map[jdk.Release]*tiertest.Env{
		jdk.R25: tiertest.NewEnv(f, jdk.R25, 4, tierFor(4)),
		jdk.R8:  tiertest.NewEnv(f, jdk.R8, 4, tierFor(4)),
	}
	f.Fuzz(func(t *testing.T, mode, keySel uint8, n uint16, inOfs, outOfs uint8, inPlace bool, seed uint64, jdk8 bool) {
		e := envs[jdk.R25]
		if jdk8 {
			e = envs[jdk.R8]
		}
		tiertest.Check(t, e, tiertest.Case{
			Mode:    tiertest.Modes[int(mode)%len(tiertest.Modes)],
			KeyLen:  16 + 8*(int(keySel)%3),
			N:       int(n) % 20000,
			InOfs:   int(inOfs) % 64,
			OutOfs:  int(outOfs) % 64,
			InPlace: inPlace,
			Seed:    seed,
		})
	})
}
