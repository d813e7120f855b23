package gcm

import (
	"encoding/binary"
	"fmt"

	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Which variants do the GHASH and GCM stubs have? Each entry's file declares the entry and
// its variants once (ghash.go, aesgcm.go): name, architecture, the CPU features the code uses
// (avo's "Requires" lines on amd64, TestNeedsCoverAsmRequires), HotSpot's selection rules,
// the model clock's cost shape and the recorded JVM run that measured it. The assembly is
// attached to each ID by the generated zcode_amd64.go and zcode_arm64.go (one GOARCH each,
// not under the purego tag). This file holds what the entries share.

// declared holds every entry and variant of the package, in declaration order.
var declared variant.List

// Variants returns every GHASH and GCM variant, of every architecture, whether or not this
// binary has its code, in declaration order: by entry, each entry's generic twin first.
func Variants() []variant.ID { return declared.IDs() }

// Built returns the variants whose code is in this binary, in declaration order.
func Built() []variant.ID { return declared.Built() }

// FillTable writes into htbl[2:HtblLen] what variant id's code keeps there for the H in
// htbl[0:2] — the powers of H that every assembly variant of this binary computes on its
// first call, unless they are there already — so that a caller can compute a table once and
// copy it into fresh ones. It leaves htbl alone for a generic twin (which reads only H) and
// for a variant whose code is not in this binary. It panics, as the stubs do, if htbl is
// shorter than HtblLen.
func FillTable(id variant.ID, htbl []uint64) {
	if len(htbl) < HtblLen {
		panic("stubs/gcm: subkey table shorter than gcm.HtblLen words")
	}
	_, ghash := GHASHCode(id)
	_, gcm := GCMCode(id)
	if id.IsGeneric() || !ghash && !gcm {
		return
	}
	fillPowers(htbl)
}

// probeData is what the calibration probes work on: the key's encryption schedule and its
// GHASH subkey H.
type probeData struct {
	ke []uint32
	h  [2]uint64
}

func newProbeData(key, payload []byte) (*probeData, error) {
	if len(payload) < 16 || len(payload)%16 != 0 {
		return nil, fmt.Errorf("stub probe payload of %d bytes, want a positive multiple of 16", len(payload))
	}
	ke, _, err := aes.ExpandKey(key)
	if err != nil {
		return nil, fmt.Errorf("stub probe key: %w", err)
	}
	var hb [16]byte
	aes.EncryptBlockGeneric(ke, hb[:], hb[:])
	return &probeData{ke: ke, h: [2]uint64{binary.BigEndian.Uint64(hb[:]), binary.BigEndian.Uint64(hb[8:])}}, nil
}

func (d *probeData) newHtbl() []uint64 {
	t := make([]uint64, HtblLen)
	t[0], t[1] = d.h[0], d.h[1]
	return t
}
