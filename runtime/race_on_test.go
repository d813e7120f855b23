//go:build race

package runtime_test

// raceEnabled says the race detector is on: it allocates on its own and makes sync.Pool
// drop items at random, so allocation counts say nothing then.
const raceEnabled = true
