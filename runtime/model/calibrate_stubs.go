package model

import (
	"fmt"

	"github.com/jitsim/jitsim/stubs/cpu"
)

// How is each stub variant timed on this host? StubProbes builds one Probe per variant the
// host can run, from its ID: the prober its entry declares (variant.Prober) looks its code up
// in its stub package and times it over the payload, after checking its output against the
// entry's generic twin.

// StubProbes returns the calibration probe of every stub variant this binary has and this
// host can run, in the stub packages' declaration order: the variant's code over payload
// (whole 16-byte blocks) per byte with the AES key key, each first checked against its
// generic Go twin.
func StubProbes(key, payload []byte) ([]Probe, error) {
	host := cpu.Host()
	var ps []Probe
	for _, id := range stubVariants() {
		if !host.HasAll(id.Needs()) {
			continue
		}
		run, ok, err := id.Probe(key, payload)
		if err != nil {
			return nil, fmt.Errorf("model: stub %s: %w", id, err)
		}
		if !ok {
			continue // not built into this binary
		}
		ps = append(ps, Probe{What: Stub(id.Name()), Family: id.Stub(), Unit: PerByte, Units: len(payload),
			Run:  func() error { run(); return nil },
			Note: fmt.Sprintf("jitsim's stub %s over %d B", id, len(payload))})
	}
	return ps, nil
}
