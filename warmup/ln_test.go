package warmup

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLnCorrectlyRounded: ln returns the double nearest to the natural
// logarithm. The expected values were rounded from 60-digit logarithms;
// on the first three math.Log returns the neighbour (within its one-ulp
// bound), so ln is not math.Log under another name.
func TestLnCorrectlyRounded(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{0x1.25ed10116b3c6p+00, 0x1.1aeebe725feb2p-3},
		{0x1.4656217199eb6p+03, 0x1.293d9ebbfcb16p+1},
		{0x1.5231ffd60347fp-03, -0x1.cd0e0921b0c43p+0},
		{1e-11, -0x1.95414621954fep+4}, // R's log(1e-11), mll_meanvar's floor
		{2 * math.Pi, 0x1.d67f1c864beb4p+0},
		{1, 0},
		{2, math.Ln2},
		{5e-324, -0x1.74385446d71c3p+9},
	} {
		if got := ln(c.x); got != c.want {
			t.Errorf("ln(%x) = %x, want %x", c.x, got, c.want)
		}
	}
	if !math.IsNaN(ln(-1)) || !math.IsInf(ln(0), -1) || !math.IsInf(ln(math.Inf(1)), 1) {
		t.Errorf("ln(-1), ln(0), ln(+Inf) = %v, %v, %v", ln(-1), ln(0), ln(math.Inf(1)))
	}
	// Everywhere within one ulp of math.Log.
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		x := math.Ldexp(1+r.Float64(), r.IntN(2000)-1000)
		got, ref := ln(x), math.Log(x)
		if got != ref && math.Nextafter(got, ref) != ref {
			t.Fatalf("ln(%x) = %x, math.Log %x", x, got, ref)
		}
	}
}

// TestLnFastPathAgrees: the 70-bit path returns only what the double-double
// evaluation returns, on a million arguments across the range and near 1,
// where k·ln 2 and ln c cancel.
func TestLnFastPathAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1_000_000 {
		var x float64
		switch i % 3 {
		case 0:
			x = math.Ldexp(1+r.Float64(), r.IntN(2100)-1070)
		case 1:
			x = 1 + (r.Float64()-0.5)*0x1p-6
		default:
			x = 1 + (r.Float64()-0.5)*0x1p-30
		}
		if got, want := ln(x), lnSlow(x); got != want {
			t.Fatalf("ln(%x) = %x, double-double %x", x, got, want)
		}
	}
}
