package calibrate

import (
	"fmt"
	"slices"
	"time"

	"github.com/jitsim/jitsim/runtime/model"
)

// How fast does this CPU run? The instruction-mix formulas price a stub variant in cycles;
// a calibration against a real JVM converts them at the clock it measures: a chain of
// dependent one-cycle integer operations (XOR and ADD, each reading the other's result), so
// that the time per operation is one cycle whatever the CPU's width — the effective clock,
// boost included, which a hypervisor's /proc/cpuinfo does not show.

// chainOps is how many dependent operations one call of chain runs.
const chainOps = 8 * chainIters

const chainIters = 1 << 16

var chainSink uint64

// chain runs chainOps dependent one-cycle operations.
//
//go:noinline
func chain(seed uint64) uint64 {
	x := seed
	for i := uint64(0); i < chainIters; i++ {
		x += x ^ i
		x += x ^ i
		x += x ^ i
		x += x ^ i
	}
	return x
}

// EffectiveMHz measures this CPU's clock with the dependent chain: the median of interleaved
// rounds in thread CPU time (model.Calibrate), and the text that says so.
func EffectiveMHz(rounds int, round time.Duration) (int64, string, error) {
	p, err := model.Calibrate(model.CalibrateOptions{Rounds: rounds, Round: round}, []model.Probe{{
		What: "calibrate:clock", Family: model.AnyFamily, Unit: model.PerCall, Units: chainOps,
		Run:  func() error { chainSink += chain(chainSink | 1); return nil },
		Note: "a chain of dependent XOR/ADD operations, one cycle each"}})
	if err != nil {
		return 0, "", err
	}
	ps := p.Rows[0].Ps
	if ps <= 0 {
		return 0, "", fmt.Errorf("calibrate: the clock chain measured %d ps per cycle", ps)
	}
	mhz := (1_000_000 + ps/2) / ps
	return mhz, fmt.Sprintf("%d MHz effective, measured by jitsim (%s)", mhz, p.Rows[0].Source), nil
}

// How disturbed is the machine? On a shared VM code runs up to 1.6 times slower for seconds or
// minutes at a time (docs/measurements/validate.md §19), and a load-bound loop is hit where the
// clock chain above hardly moves. loads is that loop: eight chains of table reads from a 16 KiB
// table, the access shape of the JDK's Java AES, timed beside the chain before and after every
// JVM run as a sentinel for what the run's rows went through.

const loadsIters = 1 << 14

// loadsOps is how many table reads one call of loads makes.
const loadsOps = 8 * loadsIters

var loadsTable = func() (t [4096]uint32) {
	for i := range t {
		t[i] = uint32(i) * 2654435761 >> 7
	}
	return
}()

var loadsSink uint32

// loads runs loadsOps table reads in eight chains.
//
//go:noinline
func loads(seed uint32) uint32 {
	a, b, c, d, e, f, g, h := seed, seed+1, seed+2, seed+3, seed+4, seed+5, seed+6, seed+7
	for i := 0; i < loadsIters; i++ {
		a += loadsTable[(a^h)&4095]
		b += loadsTable[(b^a)&4095]
		c += loadsTable[(c^b)&4095]
		d += loadsTable[(d^c)&4095]
		e += loadsTable[(e+1)&4095]
		f += loadsTable[(f+3)&4095]
		g += loadsTable[(g+5)&4095]
		h += loadsTable[(h+7)&4095]
	}
	return a + b + c + d + e + f + g + h
}

// loadsPs times the sentinel loop: ps per table read, one round of at least round.
func loadsPs(round time.Duration) (float64, error) {
	p, err := model.Calibrate(model.CalibrateOptions{Rounds: 1, Round: round}, []model.Probe{{
		What: "calibrate:loads", Family: model.AnyFamily, Unit: model.PerCall, Units: loadsOps,
		Run:  func() error { loadsSink += loads(loadsSink); return nil },
		Note: "eight chains of reads from a 16 KiB table"}})
	if err != nil {
		return 0, err
	}
	if p.Rows[0].Ps <= 0 {
		return 0, fmt.Errorf("calibrate: the sentinel loop measured %d ps per read", p.Rows[0].Ps)
	}
	return float64(p.Rows[0].Ps), nil
}

// Sentinel is the load-bound loop's readings through a calibration or validation, one before
// the first JVM run and one after each. Its zero value reads the real loop.
type Sentinel struct {
	ps   []float64
	take func() (float64, error) // one reading; nil: loadsPs over 20 ms
}

// NewSentinel returns a Sentinel whose readings come from take; nil: the real loop.
func NewSentinel(take func() (float64, error)) *Sentinel { return &Sentinel{take: take} }

// Read takes one reading and returns its index.
func (s *Sentinel) Read() (int, error) {
	take := s.take
	if take == nil {
		take = func() (float64, error) { return loadsPs(20 * time.Millisecond) }
	}
	v, err := take()
	if err != nil {
		return 0, err
	}
	s.ps = append(s.ps, v)
	return len(s.ps) - 1, nil
}

// disturbedAbove is how much slower than its fastest reading the sentinel must read, before
// or after a JVM run, for the run to count as disturbed.
const disturbedAbove = 1.2

// Disturbed says whether the run between readings i and i+1 had the machine disturbed: a
// reading beside it over disturbedAbove times the fastest of all.
func (s *Sentinel) Disturbed(i int) bool {
	if i < 0 || i+1 >= len(s.ps) {
		return false
	}
	lo := slices.Min(s.ps)
	return max(s.ps[i], s.ps[i+1]) > disturbedAbove*lo
}

// Summary says what the sentinel read and how many of the runs between its readings were
// disturbed.
func (s *Sentinel) Summary() string {
	if len(s.ps) == 0 {
		return "no sentinel readings"
	}
	runs, disturbed := len(s.ps)-1, 0
	for i := 0; i < runs; i++ {
		if s.Disturbed(i) {
			disturbed++
		}
	}
	return fmt.Sprintf("machine sentinel (a load-bound loop, read before and after each JVM run): fastest %.0f ps per read, "+
		"median %.0f, slowest %.0f; %d of %d JVM runs had a reading over %.1f× the fastest beside them", slices.Min(s.ps),
		Median(s.ps), slices.Max(s.ps), disturbed, runs, disturbedAbove)
}

// clockSamples gathers the effective clock through a JVM's calibration: the chain is timed at
// the start and again before every JVM run, so that one moment's clock does not price every
// formula of the profile. Nothing makes a chain of dependent one-cycle operations faster than
// the clock, while a neighbour on the core or time the hypervisor takes from the vCPU (which
// the guest's thread CPU time still counts) makes it slower, so the fastest sample is the
// clock.
type clockSamples struct {
	mhz []float64
}

// sample times the chain for rounds rounds of round each and keeps the result.
func (c *clockSamples) sample(rounds int, round time.Duration) error {
	mhz, _, err := EffectiveMHz(rounds, round)
	if err != nil {
		return err
	}
	c.mhz = append(c.mhz, float64(mhz))
	return nil
}

// result is the clock and the text that says how it was measured.
func (c *clockSamples) result() (int64, string) {
	lo, hi := slices.Min(c.mhz), slices.Max(c.mhz)
	return int64(hi), fmt.Sprintf("%.0f MHz effective, measured by jitsim on this host: a chain of dependent XOR/ADD "+
		"operations, one cycle each, in thread CPU time; the fastest of %d samples taken at the start and "+
		"before each JVM run (median %.0f, range %.0f–%.0f MHz)", hi, len(c.mhz), Median(c.mhz), lo, hi)
}
