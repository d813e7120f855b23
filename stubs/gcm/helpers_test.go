package gcm

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/internal/varianttest"
	"github.com/jitsim/jitsim/stubs/variant"
)

// longTests reports whether JITSIM_LONG=1 asks for the full matrices.
func longTests() bool { return os.Getenv("JITSIM_LONG") == "1" }

// reduced reports whether to run the reduced matrix: under emulation (the
// arm64 tests run in qemu-aarch64) unless JITSIM_LONG=1.
func reduced() bool { return runtime.GOARCH != "amd64" && !longTests() }

// ran records the variants the tests ran: under JITSIM_REQUIRE_ALL=1 (the CI), a variant the
// host can run but no test ran fails the package, and each one the host cannot run is listed.
var ran varianttest.Ran

func TestMain(m *testing.M) { os.Exit(ran.Main(m, Variants())) }

// runnable skips t unless the host can run variant id.
func runnable(t *testing.T, id variant.ID) {
	t.Helper()
	ran.Need(t, id)
}

func runnableGHASH() []GHASHVariant {
	var vs []GHASHVariant
	for _, v := range GHASHVariants() {
		if ran.Runnable(v.ID) {
			vs = append(vs, v)
		}
	}
	return vs
}

func runnableGCM() []GCMVariant {
	var vs []GCMVariant
	for _, v := range GCMVariants() {
		if ran.Runnable(v.ID) {
			vs = append(vs, v)
		}
	}
	return vs
}

// bestGHASH is the last runnable GHASH variant (the list grows from generic
// to the widest), used for the Go-side parts of a GCM construction.
func bestGHASH() GHASHVariant { vs := runnableGHASH(); return vs[len(vs)-1] }

// construction is AES-GCM (SP 800-38D §7) assembled from stubs the way the
// JDK's GaloisCounterMode drives them: GHASH stub for the AAD, the GCM stub
// for the bulk, the generic twins for what the stub leaves, GHASH stub for
// the length block. Its scratch blocks live in the struct: pointers handed
// to a func value escape, and per-call heap allocations would dominate the
// small-size benchmarks.
type construction struct {
	xk    []uint32
	htbl  []uint64
	gcm   GCMFunc
	ghash GHASHFunc
	block aes.BlockFunc

	s           [2]uint64
	j0, ctr     [16]byte
	b, ks, l, t [16]byte
	js          [2]uint64
}

func newConstruction(t testing.TB, key []byte, g GCMFunc, gh GHASHFunc) *construction {
	t.Helper()
	xk, _, err := aes.ExpandKey(key)
	if err != nil {
		t.Fatal(err)
	}
	c := &construction{xk: xk, htbl: make([]uint64, HtblLen), gcm: g, ghash: gh, block: bestBlock()}
	var h [16]byte
	c.block(xk, h[:], h[:])
	c.htbl[0], c.htbl[1] = be64(h[:8]), be64(h[8:])
	return c
}

// hash absorbs data into s, zero-padding a final partial block (§6.4 on A and C).
func (c *construction) hash(s *[2]uint64, data []byte) {
	n := len(data) / 16
	if n > 0 {
		c.ghash(s, c.htbl, data, n)
	}
	if r := data[16*n:]; len(r) > 0 {
		c.b = [16]byte{}
		copy(c.b[:], r)
		c.ghash(s, c.htbl, c.b[:], 1)
	}
}

// setJ0 derives the pre-counter block J0 from the IV into c.j0 (§7.1 step 2).
func (c *construction) setJ0(iv []byte) {
	c.j0 = [16]byte{}
	if len(iv) == 12 {
		copy(c.j0[:], iv)
		c.j0[15] = 1
		return
	}
	c.js = [2]uint64{}
	c.hash(&c.js, iv)
	c.l = [16]byte{}
	putBE64(c.l[8:], uint64(len(iv))*8)
	c.ghash(&c.js, c.htbl, c.l[:], 1)
	putBE64(c.j0[:8], c.js[0])
	putBE64(c.j0[8:], c.js[1])
}

// crypt runs GCTR + GHASH over src into dst (ct = dst when enc, else src):
// the stub first, then the generic twin for whole blocks, then a partial block.
func (c *construction) crypt(dst, src []byte, enc bool) {
	ct := func(d, s []byte) []byte {
		if enc {
			return d
		}
		return s
	}
	n := c.gcm(c.xk, &c.ctr, &c.s, c.htbl, dst, src, ct(dst, src))
	if n%16 != 0 || n > len(src) {
		panic("stub returned a bad byte count")
	}
	if n < len(src) {
		n += GCMGeneric(c.xk, &c.ctr, &c.s, c.htbl, dst[n:], src[n:], ct(dst[n:], src[n:]))
	}
	if n < len(src) {
		c.block(c.xk, c.ks[:], c.ctr[:])
		c.b = [16]byte{}
		if !enc {
			copy(c.b[:], src[n:])
		}
		for i := n; i < len(src); i++ {
			dst[i] = src[i] ^ c.ks[i-n]
		}
		if enc {
			copy(c.b[:], dst[n:])
		}
		c.ghash(&c.s, c.htbl, c.b[:], 1)
	}
}

// tag finishes GHASH with the length block and returns E(K, J0) ⊕ S.
func (c *construction) tag(aadLen, ctLen int) []byte {
	putBE64(c.l[:8], uint64(aadLen)*8)
	putBE64(c.l[8:], uint64(ctLen)*8)
	c.ghash(&c.s, c.htbl, c.l[:], 1)
	putBE64(c.t[:8], c.s[0])
	putBE64(c.t[8:], c.s[1])
	c.block(c.xk, c.ks[:], c.j0[:])
	for i := range c.t {
		c.t[i] ^= c.ks[i]
	}
	return c.t[:]
}

// start sets J0, hashes the AAD and sets the counter to inc32(J0).
func (c *construction) start(iv, aad []byte) {
	c.setJ0(iv)
	c.s = [2]uint64{}
	c.hash(&c.s, aad)
	c.ctr = c.j0
	inc32(&c.ctr)
}

// seal writes ciphertext and tag to out[:len(pt)+16]; out may start at pt.
func (c *construction) seal(out, iv, pt, aad []byte) []byte {
	c.start(iv, aad)
	c.crypt(out[:len(pt)], pt, true)
	copy(out[len(pt):], c.tag(len(aad), len(pt)))
	return out[:len(pt)+16]
}

// open decrypts ct||tag into out and reports whether the tag matched.
func (c *construction) open(out, iv, sealed, aad []byte) ([]byte, bool) {
	ct, want := sealed[:len(sealed)-16], sealed[len(sealed)-16:]
	c.start(iv, aad)
	c.crypt(out[:len(ct)], ct, false)
	return out[:len(ct)], bytes.Equal(c.tag(len(aad), len(ct)), want)
}

type specVector struct {
	name                string
	key, p, a, iv, c, t []byte
}

func readSpecVectors(t *testing.T) []specVector {
	t.Helper()
	f, err := os.Open("testdata/gcm_spec_vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []specVector
	var cur *specVector
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("gcm_spec_vectors.txt:%d: no '='", line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "case" {
			vs = append(vs, specVector{name: "case" + v})
			cur = &vs[len(vs)-1]
			continue
		}
		b, err := hex.DecodeString(v)
		if err != nil || cur == nil {
			t.Fatalf("gcm_spec_vectors.txt:%d: %v", line, err)
		}
		switch k {
		case "K":
			cur.key = b
		case "P":
			cur.p = b
		case "A":
			cur.a = b
		case "IV":
			cur.iv = b
		case "C":
			cur.c = b
		case "T":
			cur.t = b
		default:
			t.Fatalf("gcm_spec_vectors.txt:%d: unknown field %q", line, k)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// bestBlock is the last runnable single-block AES stub (for H and E(K, J0)).
func bestBlock() aes.BlockFunc {
	f := aes.BlockEncryptVariants()[0].Fn
	for _, v := range aes.BlockEncryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			f = v.Fn
		}
	}
	return f
}
