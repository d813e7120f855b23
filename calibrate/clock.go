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
