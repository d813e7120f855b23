package calibrate

import (
	"strings"
	"testing"

	"github.com/jitsim/jitsim/runtime/model"
)

// TestCalibrateDerivedRows checks the rows that are differences of two probes, including
// a difference that comes out negative on a noisy machine (taken as free, and said so).
func TestCalibrateDerivedRows(t *testing.T) {
	raw := model.Profile{CPU: "host", Source: "test", Rows: []model.Row{
		{What: model.WhatC2, Family: "AESCrypt.implEncryptBlock", Unit: model.PerByte, Ps: 3000, Source: "ecb"},
		{What: model.WhatC2, Family: "GHASH.processBlocks", Unit: model.PerByte, Ps: 9000, Source: "ghash"},
		{What: auxCTR, Family: model.WhatC2, Unit: model.PerByte, Ps: 3500, Source: "ctr"},
		{What: auxWrapped, Family: model.WhatC2, Unit: model.PerCall, Ps: 900, Source: "wrapped"},
		{What: auxBare, Family: model.WhatC2, Unit: model.PerCall, Ps: 1000, Source: "bare"},
		{What: auxDispatched, Family: "*", Unit: model.PerCall, Ps: 700, Source: "dispatched"},
		{What: auxEarly, Family: "*", Unit: model.PerCall, Ps: 200, Source: "early"},
	}}
	p, err := deriveRows(raw)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		what, family string
		unit         model.Unit
		ps           int64
		src          string
	}{
		{model.WhatC2, model.AnyFamily, model.PerByte, 500, "CTR − ECB-encrypt"},
		{model.WhatCall, model.WhatC2, model.PerCall, 0, "below zero (noise)"},
		{model.WhatDispatch, model.AnyFamily, model.PerCall, 500, "[dispatched] minus [early]"},
		{model.WhatC2, "GHASH.processBlock", model.PerByte, 9000, "as GHASH.processBlocks"},
		{model.WhatC2, "GHASH.blockMult", model.PerByte, 9000, "as GHASH.processBlocks"},
	}
	for _, c := range cases {
		r, ok := p.Row(c.what, c.family, c.unit)
		if !ok || r.Family != c.family || r.Ps != c.ps || !strings.Contains(r.Source, c.src) {
			t.Errorf("%s %s: row %+v (found %v), want %d ps and a source with %q", c.what, c.family, r, ok, c.ps, c.src)
		}
	}
	if len(p.Rows) != 7 {
		t.Errorf("%d rows, want 7: %+v", len(p.Rows), p.Rows)
	}
}
