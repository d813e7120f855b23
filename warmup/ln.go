package warmup

import "math"

// ln is the natural logarithm correctly rounded to the nearest float64.
//
// R's changepoint package takes its logarithms from the C library, and
// glibc's log (since 2.28) returns the correctly rounded value except in rare
// cases; Go's math.Log is within one ulp but differs from the correctly
// rounded value on about 0.7 % of arguments (docs/measurements/warmup.md).
// PELT compares sums of these logarithms, and on plateaus of equal values the
// segmentations it compares tie up to the last bit, so the last bit decides
// which changepoint is reported. ln evaluates log x to about 70 bits and
// returns the rounded value when that error cannot change the rounding; in
// the rare other case (about 1 in 10⁵) it evaluates it in double-double
// arithmetic (about 104 bits) and rounds once. Both start from a 128-point
// table.
func ln(x float64) float64 {
	if x > 0 && x <= math.MaxFloat64 && x != 1 {
		m, k := math.Frexp(x)
		m, k = 2*m, k-1
		i := int((m - 1) * lnTableSize)
		c := 1 + float64(i)/lnTableSize
		// f = (m−c)/(m+c) to about 105 bits from the exact numerator.
		num, den := m-c, twoSum(m, c)
		fh := num / den.hi
		fl := (math.FMA(-fh, den.hi, num) - fh*den.lo) / den.hi
		// 2·atanh(f) = 2f + 2f³/3 + …: the tail is below 2^-15 of 2f, so
		// in plain double it errs by under 2^-67 of 2f; the double-double
		// sums err by under 2^-100 of their operands (ln c < 1, |k|·ln 2).
		f2 := fh * fh
		tail := 2 * fh * f2 * (1.0/3 + f2*(1.0/5+f2*(1.0/7+f2*(1.0/9+f2*(1.0/11+f2/13)))))
		r := lnTable[i].add(dd{2 * fh, 2 * fl}).add(dd{tail, 0})
		if k != 0 {
			r = ddLn2.mulFloat(float64(k)).add(r)
		}
		h := math.Abs(r.hi)
		halfUlp := min(math.Nextafter(h, math.Inf(1))-h, h-math.Nextafter(h, 0)) / 2
		errBound := 0x1p-66*math.Abs(2*fh) + 0x1p-99*(math.Abs(float64(k))+1)
		if math.Abs(r.lo)+errBound < halfUlp {
			return r.hi
		}
	}
	return lnSlow(x)
}

// lnSlow is ln evaluated in double-double arithmetic throughout.
func lnSlow(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	case x == 1:
		return 0
	}
	m, k := math.Frexp(x) // x = m·2^k, m in [0.5, 1)
	m, k = 2*m, k-1       // m in [1, 2)
	// m = c·(m/c) with c = 1 + i/128 the table point below m: ln m =
	// ln c + 2·atanh(f), f = (m−c)/(m+c), |f| < 1/256, and the series
	// 2·Σ f^(2j+1)/(2j+1) gains 16 bits a term.
	i := int((m - 1) * lnTableSize)
	c := 1 + float64(i)/lnTableSize
	r := atanh2(dd{m - c, 0}.div(twoSum(m, c)), 7) // m−c is exact
	r = lnTable[i].add(r)
	if k != 0 {
		r = ddLn2.mulFloat(float64(k)).add(r)
	}
	return r.hi + r.lo
}

const lnTableSize = 128

// lnTable[i] is ln(1 + i/128) to about 104 bits.
var lnTable = func() [lnTableSize]dd {
	var t [lnTableSize]dd
	for i := range t {
		m := 1 + float64(i)/lnTableSize
		// ln m = 2·atanh((m−1)/(m+1)), |f| ≤ 1/3: 34 terms reach 2^-106.
		t[i] = atanh2(dd{m - 1, 0}.div(twoSum(m, 1)), 34)
	}
	return t
}()

// atanh2 is 2·atanh(f) = 2·Σ f^(2j+1)/(2j+1), j < terms ≤ 34.
func atanh2(f dd, terms int) dd {
	f2 := f.mul(f)
	s := oddRecip[terms-1]
	for j := terms - 2; j >= 0; j-- {
		s = s.mul(f2).add(oddRecip[j])
	}
	return f.mul(s).scale(2)
}

// oddRecip[j] is 1/(2j+1) to about 106 bits.
var oddRecip = func() (t [34]dd) {
	for j := range t {
		t[j] = dd{1, 0}.div(dd{float64(2*j + 1), 0})
	}
	return t
}()

// dd is an unevaluated sum hi + lo with |lo| ≤ half an ulp of hi.
type dd struct{ hi, lo float64 }

// ddLn2 is ln 2 to 106 bits.
var ddLn2 = dd{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56}

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func (a dd) add(b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	s.lo += t.hi
	s = quickTwoSum(s.hi, s.lo)
	s.lo += t.lo
	return quickTwoSum(s.hi, s.lo)
}

func (a dd) mul(b dd) dd {
	p := twoProd(a.hi, b.hi)
	p.lo += a.hi*b.lo + a.lo*b.hi
	return quickTwoSum(p.hi, p.lo)
}

func (a dd) mulFloat(b float64) dd {
	p := twoProd(a.hi, b)
	p.lo += a.lo * b
	return quickTwoSum(p.hi, p.lo)
}

func (a dd) scale(b float64) dd { return dd{a.hi * b, a.lo * b} } // b a power of two

func (a dd) div(b dd) dd {
	q1 := a.hi / b.hi
	r := a.add(b.mulFloat(-q1))
	q2 := r.hi / b.hi
	r = r.add(b.mulFloat(-q2))
	q3 := r.hi / b.hi
	return quickTwoSum(q1, q2).add(dd{q3, 0})
}
