package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// How is each stub variant timed on this host? StubProbes builds one Probe per variant the
// host can run, from its ID: the prober of its entry (stubProbers) looks its code up in its
// stub package and times it over the payload, after checking its output against the entry's
// generic twin.

// StubProbes returns the calibration probe of every stub variant this binary has and this
// host can run, in the stub packages' declaration order: the variant's code over payload
// (whole 16-byte blocks) per byte with the AES key key, each first checked against its
// generic Go twin.
func StubProbes(key, payload []byte) ([]Probe, error) {
	d, err := newProbeData(key, payload)
	if err != nil {
		return nil, err
	}
	host := cpu.Host()
	var ps []Probe
	for _, id := range append(aes.Variants(), gcm.Variants()...) {
		if !host.HasAll(id.Needs()) {
			continue
		}
		run, check, ok := d.probe(id)
		if !ok {
			continue // not built into this binary
		}
		if err := check(); err != nil {
			return nil, fmt.Errorf("stub %s: %w", id, err)
		}
		ps = append(ps, Probe{What: Stub(id.Name()), Family: id.Stub(), Unit: PerByte, Units: len(d.in), Run: run,
			Note: fmt.Sprintf("jitsim's stub %s over %d B", id, len(d.in))})
	}
	return ps, nil
}

// probeData is what the stub probes work on: the payload, an output buffer, the key's
// schedules and its GHASH subkey H.
type probeData struct {
	in, out []byte
	ke, kd  []uint32
	h       [2]uint64
}

func newProbeData(key, payload []byte) (*probeData, error) {
	if len(payload) < 16 || len(payload)%16 != 0 {
		return nil, fmt.Errorf("model: stub probe payload of %d bytes, want a positive multiple of 16", len(payload))
	}
	ke, kd, err := aes.ExpandKey(key)
	if err != nil {
		return nil, fmt.Errorf("model: stub probe key: %w", err)
	}
	d := &probeData{in: payload, out: make([]byte, len(payload)), ke: ke, kd: kd}
	var hb [16]byte
	aes.EncryptBlockGeneric(ke, hb[:], hb[:])
	d.h = [2]uint64{binary.BigEndian.Uint64(hb[:]), binary.BigEndian.Uint64(hb[8:])}
	return d, nil
}

// probe returns the timed run of variant id and the check that runs before it, or false
// when id's entry has no prober or this binary lacks its code.
func (d *probeData) probe(id variant.ID) (run, check func() error, ok bool) {
	p, ok := stubProbers[id.Stub()]
	if !ok {
		return nil, nil, false
	}
	twin, ok := stubs.Generic(id.Stub())
	if !ok {
		return nil, nil, false
	}
	return p(d, id, twin.ID)
}

// stubProber builds the probe of variant id of one entry, checked against gen, its twin.
type stubProber func(d *probeData, id, gen variant.ID) (run, check func() error, ok bool)

// stubProbers are the probers, one per StubRoutines entry.
var stubProbers = map[string]stubProber{
	aes.StubEncryptBlock: blockProber(false),
	aes.StubDecryptBlock: blockProber(true),
	aes.StubCBCEncrypt:   cbcProber(false),
	aes.StubCBCDecrypt:   cbcProber(true),
	aes.StubECBEncrypt:   ecbProber(false),
	aes.StubECBDecrypt:   ecbProber(true),
	aes.StubCTR:          ctrProber,
	gcm.StubGHASH:        ghashProber,
	gcm.StubGCM:          gcmProber,
}

func (d *probeData) key(decrypt bool) []uint32 {
	if decrypt {
		return d.kd
	}
	return d.ke
}

func same(a, b []byte) error {
	if !bytes.Equal(a, b) {
		return errors.New("output differs from the generic twin")
	}
	return nil
}

// blockProber times a block stub once per 16-byte block of the payload.
func blockProber(decrypt bool) stubProber {
	return func(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
		fn, ok := aes.BlockCode(id)
		g, gok := aes.BlockCode(gen)
		if !ok || !gok {
			return nil, nil, false
		}
		k, n := d.key(decrypt), len(d.in)
		run := func() error {
			for i := 0; i < n; i += 16 {
				fn(k, d.out[i:i+16], d.in[i:i+16])
			}
			return nil
		}
		check := func() error {
			want := make([]byte, 16)
			g(k, want, d.in[:16])
			fn(k, d.out[:16], d.in[:16])
			return same(d.out[:16], want)
		}
		return run, check, true
	}
}

func cbcProber(decrypt bool) stubProber {
	return func(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
		fn, ok := aes.CBCCode(id)
		g, gok := aes.CBCCode(gen)
		if !ok || !gok {
			return nil, nil, false
		}
		k := d.key(decrypt)
		run := func() error { var iv [16]byte; fn(k, &iv, d.out, d.in); return nil }
		check := func() error {
			want := make([]byte, len(d.in))
			var a, b [16]byte
			g(k, &a, want, d.in)
			fn(k, &b, d.out, d.in)
			return same(d.out, want)
		}
		return run, check, true
	}
}

func ecbProber(decrypt bool) stubProber {
	return func(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
		fn, ok := aes.ECBCode(id)
		g, gok := aes.ECBCode(gen)
		if !ok || !gok {
			return nil, nil, false
		}
		k := d.key(decrypt)
		run := func() error { fn(k, d.out, d.in); return nil }
		check := func() error {
			want := make([]byte, len(d.in))
			g(k, want, d.in)
			fn(k, d.out, d.in)
			return same(d.out, want)
		}
		return run, check, true
	}
}

func ctrProber(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
	fn, ok := aes.CTRCode(id)
	g, gok := aes.CTRCode(gen)
	if !ok || !gok {
		return nil, nil, false
	}
	run := func() error { var c, e [16]byte; u := 16; fn(d.ke, &c, &e, &u, d.out, d.in); return nil }
	check := func() error {
		want := make([]byte, len(d.in))
		var c, e [16]byte
		u := 16
		g(d.ke, &c, &e, &u, want, d.in)
		return errors.Join(run(), same(d.out, want))
	}
	return run, check, true
}

func (d *probeData) newHtbl() []uint64 {
	t := make([]uint64, gcm.HtblLen)
	t[0], t[1] = d.h[0], d.h[1]
	return t
}

func ghashProber(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
	fn, ok := gcm.GHASHCode(id)
	g, gok := gcm.GHASHCode(gen)
	if !ok || !gok {
		return nil, nil, false
	}
	n, htbl := len(d.in), d.newHtbl()
	run := func() error { var st [2]uint64; fn(&st, htbl, d.in, n/16); return nil }
	check := func() error {
		var a, b [2]uint64
		g(&a, d.newHtbl(), d.in, n/16)
		fn(&b, htbl, d.in, n/16)
		if a != b {
			return errors.New("GHASH state differs from the generic twin")
		}
		return nil
	}
	return run, check, true
}

func gcmProber(d *probeData, id, gen variant.ID) (func() error, func() error, bool) {
	fn, ok := gcm.GCMCode(id)
	g, gok := gcm.GCMCode(gen)
	if !ok || !gok {
		return nil, nil, false
	}
	htbl := d.newHtbl()
	run := func() error {
		var c [16]byte
		var st [2]uint64
		fn(d.ke, &c, &st, htbl, d.out, d.in, d.out)
		return nil
	}
	check := func() error {
		want := make([]byte, len(d.in))
		var c1, c2 [16]byte
		var a, b [2]uint64
		m := g(d.ke, &c1, &a, d.newHtbl(), want, d.in, want)
		k := fn(d.ke, &c2, &b, htbl, d.out, d.in, d.out)
		// A variant processes a prefix (its granularity); compare what both did.
		k = min(k, m)
		if k == 0 {
			return errors.New("processed no bytes")
		}
		return same(d.out[:k], want[:k])
	}
	return run, check, true
}
