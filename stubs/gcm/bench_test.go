package gcm

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ctrThenGHASH is what HotSpot's routing does on a CPU without a combined GCM
// stub (hotspot.md §2.3): GaloisCounterMode's Java body calls the CTR stub
// (counterMode_AESCrypt) and then the GHASH stub over the same bytes. It is
// the benchmark baseline, not a stub. The CTR stub increments the full 128-bit
// counter (the JDK's CounterMode), which equals inc32 until the low word wraps
// (2^32 blocks after J0 — beyond any input here).
//
// The CTR stub's partial-block state lives outside the returned func (it is
// always empty between calls: only whole blocks go through), so calls do not
// allocate; the func is not safe for concurrent use.
func ctrThenGHASH(ctr aes.CTRFunc, gh GHASHFunc) GCMFunc {
	var encCtr [16]byte
	var used uint32
	return func(xk []uint32, c *[16]byte, s *[2]uint64, htbl []uint64, dst, src, ct []byte) int {
		n := len(src) / 16 * 16
		enc := encrypting(dst, ct)
		if !enc {
			gh(s, htbl, ct, n/16)
		}
		used = 16
		ctr(xk, c, &encCtr, &used, dst[:n], src[:n])
		if enc {
			gh(s, htbl, ct, n/16)
		}
		return n
	}
}

func findCTR(name string) (aes.CTRVariant, bool) {
	for _, v := range aes.CTRVariants() {
		if v.Name() == name && cpu.Host().HasAll(v.Needs()) {
			return v, true
		}
	}
	return aes.CTRVariant{}, false
}

type sealImpl struct {
	name string
	gcm  GCMFunc
}

// sealImpls lists the runnable GCM stubs and the CTR-then-GHASH baselines.
func sealImpls(withGeneric bool) []sealImpl {
	var is []sealImpl
	for _, v := range runnableGCM() {
		if v.Name() == "generic" && !withGeneric {
			continue
		}
		is = append(is, sealImpl{v.Name(), v.Fn})
	}
	gh := bestGHASH()
	for _, b := range []struct{ name, ctr string }{{"ctr+ghash", "aesni-parallel6"}, {"ctr-vaes+ghash", "vaes-avx512"}} {
		if c, ok := findCTR(b.ctr); ok {
			is = append(is, sealImpl{b.name, ctrThenGHASH(c.Fn, gh.Fn)})
		}
	}
	return is
}

// TestCTRThenGHASH checks the benchmark baselines against crypto/cipher.
func TestCTRThenGHASH(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	key, iv, aad := randBytes(r, 16), randBytes(r, 12), randBytes(r, 13)
	std := stdGCM(t, key, 12)
	for _, im := range sealImpls(false) {
		t.Run(im.name, func(t *testing.T) {
			c := newConstruction(t, key, im.gcm, bestGHASH().Fn)
			for _, n := range boundaryLengths() {
				pt := randBytes(r, n)
				want := std.Seal(nil, iv, pt, aad)
				if got := c.seal(make([]byte, n+16), iv, pt, aad); !bytes.Equal(got, want) {
					t.Fatalf("n=%d: differs at %d", n, firstDiff(got, want))
				}
				if p, ok := c.open(make([]byte, n), iv, want, aad); !ok || !bytes.Equal(p, pt) {
					t.Fatalf("n=%d: open failed", n)
				}
			}
		})
	}
}

var benchSizes = []int{1024, 16384, 65536}

// loopBytes runs f in a b.Loop over size-byte inputs and, besides the wall
// time, reports cpu-MB/s: bytes per second of the benchmark thread's own CPU
// time (the machine these run on is shared; see threadCPU).
func loopBytes(b *testing.B, size int, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(size))
	c0 := threadCPU()
	for b.Loop() {
		f()
	}
	if c := threadCPU() - c0; c0 != 0 && c > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/float64(c)*1e3, "cpu-MB/s")
	}
}

// BenchmarkGCMSeal measures AES-128-GCM Seal (no AAD, 12-byte IV) built from
// each GCM stub, against crypto/cipher (impl=stdlib) and the CTR-then-GHASH
// baselines, all sub-benchmarks in one run so that -count interleaves them.
// The generic twin is included only with JITSIM_LONG=1.
func BenchmarkGCMSeal(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	key, iv := randBytes(r, 16), randBytes(r, 12)
	std := stdGCM(b, key, 12)
	impls := sealImpls(longTests())
	for _, size := range benchSizes {
		pt := randBytes(r, size)
		out := make([]byte, size+16)
		b.Run(fmt.Sprintf("impl=stdlib/size=%d", size), func(b *testing.B) {
			loopBytes(b, size, func() { std.Seal(out[:0], iv, pt, nil) })
		})
		for _, im := range impls {
			b.Run(fmt.Sprintf("impl=%s/size=%d", im.name, size), func(b *testing.B) {
				c := newConstruction(b, key, im.gcm, bestGHASH().Fn)
				loopBytes(b, size, func() { c.seal(out, iv, pt, nil) })
			})
		}
	}
}

// BenchmarkGHASH measures each GHASH stub over size bytes; impl=stdlib is
// crypto/cipher's GCM sealing size bytes of AAD and no plaintext (GMAC: the
// same GHASH work plus two AES blocks).
func BenchmarkGHASH(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	key, iv := randBytes(r, 16), randBytes(r, 12)
	std := stdGCM(b, key, 12)
	htbl := make([]uint64, HtblLen)
	htbl[0], htbl[1] = r.Uint64(), r.Uint64()
	for _, size := range benchSizes {
		data := randBytes(r, size)
		out := make([]byte, 16)
		b.Run(fmt.Sprintf("impl=stdlib/size=%d", size), func(b *testing.B) {
			loopBytes(b, size, func() { std.Seal(out[:0], iv, nil, data) })
		})
		for _, v := range runnableGHASH() {
			if v.Name() == "generic" && !longTests() && size > 1024 {
				continue
			}
			b.Run(fmt.Sprintf("impl=%s/size=%d", v.Name(), size), func(b *testing.B) {
				var s [2]uint64
				loopBytes(b, size, func() { v.Fn(&s, htbl, data, size/16) })
			})
		}
	}
}
