//go:build !race

package runtime_test

// raceEnabled says the race detector is on (race_on_test.go).
const raceEnabled = false
