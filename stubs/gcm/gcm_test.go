package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/stubs/aes"
)

func stdGCM(t testing.TB, key []byte, ivLen int) cipher.AEAD {
	t.Helper()
	b, err := stdaes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	var g cipher.AEAD
	if ivLen == 12 {
		g, err = cipher.NewGCM(b)
	} else {
		g, err = cipher.NewGCMWithNonceSize(b, ivLen)
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestGCMSpecVectors checks every GCM × GHASH variant pair against test
// cases 1–18 of the GCM specification, sealing and opening.
func TestGCMSpecVectors(t *testing.T) {
	vecs := readSpecVectors(t)
	if len(vecs) != 18 {
		t.Fatalf("read %d spec vectors, want 18", len(vecs))
	}
	for _, g := range GCMVariants() {
		for _, h := range GHASHVariants() {
			t.Run(g.Name()+"/"+h.Name(), func(t *testing.T) {
				runnable(t, g.ID)
				runnable(t, h.ID)
				for _, v := range vecs {
					c := newConstruction(t, v.key, g.Fn, h.Fn)
					got := c.seal(make([]byte, len(v.p)+16), v.iv, v.p, v.a)
					want := append(append([]byte{}, v.c...), v.t...)
					if !bytes.Equal(got, want) {
						t.Errorf("%s: seal = %x, want %x", v.name, got, want)
					}
					if std := stdGCM(t, v.key, len(v.iv)).Seal(nil, v.iv, v.p, v.a); !bytes.Equal(std, want) {
						t.Errorf("%s: crypto/cipher disagrees with the published vector", v.name)
					}
					pt, ok := c.open(make([]byte, len(v.p)), v.iv, want, v.a)
					if !ok || !bytes.Equal(pt, v.p) {
						t.Errorf("%s: open = %x, %v; want %x, true", v.name, pt, ok, v.p)
					}
					want[len(want)-1] ^= 1
					if _, ok := c.open(make([]byte, len(v.p)), v.iv, want, v.a); ok {
						t.Errorf("%s: open accepted a corrupted tag", v.name)
					}
				}
			})
		}
	}
}

// TestGHASHVariants compares every GHASH variant with the generic twin over
// block counts around each aggregation boundary, at every data alignment
// 0–63, with random H and state, sharing one subkey table between variants.
func TestGHASHVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	maxBlocks := 3*maxPowers + 5
	aligns := 64
	if reduced() {
		maxBlocks, aligns = 2*maxPowers+1, 4
	}
	for _, v := range GHASHVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			htbl := make([]uint64, HtblLen)
			for trial := range 4 {
				clear(htbl)
				htbl[0], htbl[1] = r.Uint64(), r.Uint64()
				if trial == 3 {
					htbl[0], htbl[1] = 0, 1 // H with a single low bit: exercises the reductions' carries
				}
				buf := randBytes(r, 16*maxBlocks+64)
				for blocks := 0; blocks <= maxBlocks; blocks++ {
					for a := 0; a < aligns; a += 1 + blocks%3 {
						data := buf[a : a+16*blocks]
						s0 := [2]uint64{r.Uint64(), r.Uint64()}
						want, got := s0, s0
						GHASHGeneric(&want, htbl, data, blocks)
						v.Fn(&got, htbl, data, blocks)
						if got != want {
							t.Fatalf("H=%x blocks=%d align=%d: state %x, generic %x", htbl[:2], blocks, a, got, want)
						}
					}
				}
			}
		})
	}
}

// TestGHASHKnownAnswer checks the generic twin on its own against the GHASH
// values the GCM specification lists for test case 2 (H = 66e94bd4…, one
// ciphertext block, then the length block).
func TestGHASHKnownAnswer(t *testing.T) {
	h := [2]uint64{0x66e94bd4ef8a2c3b, 0x884cfa59ca342b2e}
	htbl := make([]uint64, HtblLen)
	htbl[0], htbl[1] = h[0], h[1]
	data := append(mustHex(t, "0388dace60b6a392f328c2b971b2fe78"), mustHex(t, "00000000000000000000000000000080")...)
	for _, v := range GHASHVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			var s [2]uint64
			v.Fn(&s, htbl, data, 2)
			if s != [2]uint64{0xf38cbb1ad69223dc, 0xc3457ae5b6b0f885} {
				t.Errorf("GHASH = %016x%016x, want f38cbb1ad69223dcc3457ae5b6b0f885", s[0], s[1])
			}
		})
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	var b []byte
	if _, err := fmt.Sscanf(s, "%x", &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// boundaryLengths returns lengths around each multiple of every stub's
// granularity up to 4 chunks of the widest one.
func boundaryLengths() []int {
	seen := map[int]bool{}
	var ls []int
	for _, g := range []int{16, 128, 256, 512} {
		for k := 0; k <= 4; k++ {
			for _, d := range []int{-17, -16, -1, 0, 1, 15, 16} {
				if n := k*g + d; n >= 0 && !seen[n] {
					seen[n] = true
					ls = append(ls, n)
				}
			}
		}
	}
	return ls
}

// TestGCMStubAgainstGeneric calls each GCM stub directly and compares output,
// counter, GHASH state and byte count with the generic twin, encrypting
// (ct = dst) and decrypting (ct = src), for all key sizes, lengths around each
// chunk boundary, src and dst alignments 0–63, and a counter about to wrap.
func TestGCMStubAgainstGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	aligns := 64
	if reduced() {
		aligns = 3
	}
	for _, v := range GCMVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			for _, ks := range []int{16, 24, 32} {
				xk, _, _ := aes.ExpandKey(randBytes(r, ks))
				htbl := make([]uint64, HtblLen)
				htbl[0], htbl[1] = r.Uint64(), r.Uint64()
				for _, n := range boundaryLengths() {
					for a := 0; a < aligns; a += 1 + n%5 {
						for _, enc := range []bool{true, false} {
							checkGCMCall(t, r, v, xk, htbl, n, a, (a*7+3)%64, enc)
						}
					}
				}
			}
		})
	}
}

func checkGCMCall(t *testing.T, r *rand.Rand, v GCMVariant, xk []uint32, htbl []uint64, n, srcAlign, dstAlign int, enc bool) {
	t.Helper()
	src := randBytes(r, n+64)[srcAlign : srcAlign+n]
	dstG := make([]byte, n+64)[dstAlign : dstAlign+n]
	dstW := make([]byte, n)
	var ctr [16]byte
	copy(ctr[:], randBytes(r, 16))
	if r.IntN(2) == 0 {
		ctr[12], ctr[13], ctr[14], ctr[15] = 0xff, 0xff, 0xff, byte(0xff-r.IntN(40)) // inc32 wraps inside the call
	}
	s := [2]uint64{r.Uint64(), r.Uint64()}
	ctrG, sG := ctr, s
	ct := func(d []byte) []byte {
		if enc {
			return d
		}
		return src
	}
	got := v.Fn(xk, &ctrG, &sG, htbl, dstG, src, ct(dstG))
	if got%16 != 0 || got > n || n-got >= 512 {
		t.Fatalf("n=%d: stub returned %d", n, got)
	}
	want := GCMGeneric(xk, &ctr, &s, htbl, dstW[:got], src[:got], ct(dstW)[:got])
	if want != got || ctrG != ctr || sG != s || !bytes.Equal(dstG[:got], dstW[:got]) {
		t.Fatalf("keywords=%d n=%d align=%d/%d enc=%v: stub (%d, ctr %x, state %x) generic (%d, ctr %x, state %x), output equal: %v",
			len(xk), n, srcAlign, dstAlign, enc, got, ctrG, sG, want, ctr, s, bytes.Equal(dstG[:got], dstW[:got]))
	}
	for i := got; i < n; i++ {
		if dstG[i] != 0 {
			t.Fatalf("n=%d: stub wrote byte %d beyond the %d it reported", n, i, got)
		}
	}
}

// TestGCMAgainstStdlib seals with each GCM variant (plus generic tail) and
// compares with crypto/cipher for every length 0–4096, random lengths up to
// 1 MiB, then opens the result; the reduced matrix (qemu) strides lengths.
func TestGCMAgainstStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	step, randomN := 1, 6
	if reduced() {
		step, randomN = 61, 1
	}
	if longTests() {
		randomN = 40
	}
	key := randBytes(r, 16)
	iv := randBytes(r, 12)
	aad := randBytes(r, 20)
	std := stdGCM(t, key, 12)
	var lengths []int
	for n := 0; n <= 4096; n += step {
		lengths = append(lengths, n)
	}
	for range randomN {
		lengths = append(lengths, r.IntN(1<<20+1))
	}
	pt := randBytes(r, 1<<20)
	for _, v := range GCMVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			c := newConstruction(t, key, v.Fn, bestGHASH().Fn)
			out := make([]byte, 1<<20+16)
			back := make([]byte, 1<<20)
			for _, n := range lengths {
				if v.Name() == "generic" && n > 8192 && reduced() {
					continue
				}
				want := std.Seal(nil, iv, pt[:n], aad)
				got := c.seal(out, iv, pt[:n], aad)
				if !bytes.Equal(got, want) {
					t.Fatalf("n=%d: Seal differs from crypto/cipher (first diff at %d)", n, firstDiff(got, want))
				}
				p, ok := c.open(back, iv, want, aad)
				if !ok || !bytes.Equal(p, pt[:n]) {
					t.Fatalf("n=%d: Open failed (tag ok %v)", n, ok)
				}
			}
		})
	}
}

// TestGCMInPlace seals in place (dst == src == ct) and compares with crypto/cipher.
func TestGCMInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	key, iv := randBytes(r, 32), randBytes(r, 12)
	std := stdGCM(t, key, 12)
	for _, v := range GCMVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			c := newConstruction(t, key, v.Fn, bestGHASH().Fn)
			for _, n := range boundaryLengths() {
				pt := randBytes(r, n)
				want := std.Seal(nil, iv, pt, nil)
				buf := make([]byte, n+16)
				copy(buf, pt)
				got := c.seal(buf, iv, buf[:n], nil)
				if !bytes.Equal(got, want) {
					t.Fatalf("n=%d: in-place Seal differs at %d", n, firstDiff(got, want))
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestMisuse checks that bad arguments panic with a stubs/gcm message.
func TestMisuse(t *testing.T) {
	xk, _, _ := aes.ExpandKey(make([]byte, 16))
	htbl := make([]uint64, HtblLen)
	var ctr [16]byte
	var s [2]uint64
	buf := make([]byte, 1024)
	cases := []struct {
		name string
		f    func(GCMVariant)
	}{
		{"short dst", func(v GCMVariant) { v.Fn(xk, &ctr, &s, htbl, buf[:512], buf, buf[:512]) }},
		{"bad key", func(v GCMVariant) { v.Fn(xk[:40], &ctr, &s, htbl, buf, buf, buf) }},
		{"foreign ct", func(v GCMVariant) { v.Fn(xk, &ctr, &s, htbl, buf, buf, make([]byte, 1024)) }},
		{"short htbl", func(v GCMVariant) { v.Fn(xk, &ctr, &s, htbl[:HtblLen-1], buf, buf, buf) }},
	}
	for _, v := range GCMVariants() {
		for _, c := range cases {
			t.Run(v.Name()+"/"+c.name, func(t *testing.T) {
				runnable(t, v.ID)
				defer func() {
					msg, _ := recover().(string)
					if !strings.HasPrefix(msg, "stubs/gcm: ") {
						t.Errorf("panic %q, want a stubs/gcm: message", msg)
					}
				}()
				c.f(v)
			})
		}
	}
	for _, v := range GHASHVariants() {
		t.Run(v.Name()+"/short data", func(t *testing.T) {
			runnable(t, v.ID)
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "stubs/gcm: ") {
					t.Errorf("panic %q, want a stubs/gcm: message", msg)
				}
			}()
			v.Fn(&s, htbl, buf[:31], 2)
		})
	}
}
