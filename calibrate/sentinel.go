package calibrate

import "fmt"

// How disturbed was the machine while a row was timed? On a shared virtual machine the same
// compiled code runs up to 1.6 times slower for seconds to minutes at a time
// (docs/measurements/validate.md §19–20). The harness times a sentinel inside the JVM, right
// beside each row's timed rounds, in the same thread: a loop of table reads, which slows with
// such a stretch while a chain of multiplies does not. A row prints the median of its readings
// as "sentinel=", in ps per read (0: the row printed none).

// disturbedAbove is how much slower than the fastest reading of the same row under the same
// JVM options a row's sentinel must read for the row's round to count as disturbed.
const disturbedAbove = 1.2

// Sentinel holds the sentinel's readings of one calibration or validation, by group: a row
// under one set of JVM options. The loop runs at whatever level those options compile it, and
// even in one JVM the interpreter read it up to 1.25× faster beside one row than beside
// another (a row of calls beside rows of Cipher operations), so only readings of one row
// under one set of options compare.
type Sentinel struct {
	fastest  map[string]float64
	readings int
}

// NewSentinel returns a Sentinel with no readings.
func NewSentinel() *Sentinel { return &Sentinel{fastest: map[string]float64{}} }

// Add records a reading of group; a reading ≤ 0 (none printed) is ignored.
func (s *Sentinel) Add(group string, ps float64) {
	if !(ps > 0) {
		return
	}
	s.readings++
	if f, ok := s.fastest[group]; !ok || ps < f {
		s.fastest[group] = ps
	}
}

// Disturbed says whether a row of group that read ps ran with the machine disturbed: over
// disturbedAbove times the group's fastest reading so far. A row with no reading is not.
func (s *Sentinel) Disturbed(group string, ps float64) bool {
	f, ok := s.fastest[group]
	return ps > 0 && ok && ps > disturbedAbove*f
}

// Summary says how many of n row rounds, of which disturbed were disturbed, the sentinel
// read.
func (s *Sentinel) Summary(n, disturbed int) string {
	if s.readings == 0 {
		return "no machine sentinel readings (the harness printed none)"
	}
	return fmt.Sprintf("machine sentinel (a table-read loop timed inside each JVM, beside each row's timed rounds): "+
		"%d of %d row rounds read over %.1f× the fastest reading of their row; a row's value leaves them out "+
		"when two or more other rounds remain", disturbed, n, disturbedAbove)
}

// marks splits a row's rounds by the sentinel: the values of all of them, and of those it
// did not mark.
func marks(ss []sample, disturbed func(sample) bool) (all, kept []float64) {
	for _, s := range ss {
		all = append(all, s.value)
		if !disturbed(s) {
			kept = append(kept, s.value)
		}
	}
	return all, kept
}

// usable is what a row's value rests on: the rounds the sentinel did not mark when at least
// two remain, else all of them.
func usable(all, kept []float64) []float64 {
	if len(kept) >= 2 {
		return kept
	}
	return all
}
