package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/jitsim/jitsim/stubs/internal/varianttest"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Test matrix knobs. JITSIM_LONG=1 runs the full length range on every
// variant and more random lengths; under arm64 (qemu, ~10 MB/s) the default
// matrix is reduced, as it is with -short.
var (
	long    = os.Getenv("JITSIM_LONG") != ""
	reduced = runtime.GOARCH == "arm64" && !long
)

// ran records the variants the tests ran (JITSIM_REQUIRE_ALL=1 checks it, see TestMain).
var ran varianttest.Ran

// runnable skips t when the host lacks a feature variant id needs, and otherwise records that
// the tests ran it.
func runnable(t *testing.T, id variant.ID) {
	t.Helper()
	ran.Need(t, id)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

type keyPair struct {
	name     string
	key      []byte
	enc, dec []uint32
	std      cipher.Block
}

func testKeys(t testing.TB) []keyPair {
	var ks []keyPair
	for _, n := range []int{16, 24, 32} {
		key := make([]byte, n)
		for i := range key {
			key[i] = byte(i*7 + n)
		}
		enc, dec, err := ExpandKey(key)
		if err != nil {
			t.Fatal(err)
		}
		std, err := stdaes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, keyPair{fmt.Sprintf("AES-%d", n*8), key, enc, dec, std})
	}
	return ks
}

// buf returns a len-n slice at offset align within a fresh buffer, with a
// guard pattern around it, and a check that the guards are intact.
func buf(n, align int, fill byte) ([]byte, func(t *testing.T)) {
	const guard = 64
	b := make([]byte, guard+align+n+guard)
	for i := range b {
		b[i] = fill ^ 0xa5
	}
	s := b[guard+align : guard+align+n : guard+align+n]
	return s, func(t *testing.T) {
		t.Helper()
		for i := range b {
			if (i < guard+align || i >= guard+align+n) && b[i] != fill^0xa5 {
				t.Fatalf("wrote outside the slice at %d (len %d, align %d)", i-guard-align, n, align)
			}
		}
	}
}

func random(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// lengths returns the byte lengths to test for a family: every length (or
// every block multiple) 0..4096, then random lengths up to 1 MiB.
func lengths(r *rand.Rand, blocksOnly bool) []int {
	step := 1
	if blocksOnly {
		step = 16
	}
	max := 4096
	if reduced {
		max = 1024
	}
	var ls []int
	for n := 0; n <= max; n += step {
		ls = append(ls, n)
	}
	if !reduced {
		ls = append(ls, 4096+16, 8192-16, 65536)
	}
	nrand := 4
	if long {
		nrand = 32
	} else if reduced {
		nrand = 0
	}
	for range nrand {
		n := r.IntN(1 << 20)
		if blocksOnly {
			n &^= 15
		}
		ls = append(ls, n)
	}
	return ls
}

// boundaryBlocks are block counts around every variant's loop boundaries
// (4, 6 and 32 blocks per iteration).
var boundaryBlocks = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 31, 32, 33, 35, 36, 63, 64, 65}

func TestMain(m *testing.M) {
	flag.Parse()
	reduced = reduced || testing.Short()
	os.Exit(ran.Main(m, Variants()))
}

func TestFIPS197Block(t *testing.T) {
	vectors := []struct{ key, pt, ct string }{ // FIPS 197 Appendix C.1–C.3
		{"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"},
		{"000102030405060708090a0b0c0d0e0f1011121314151617", "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
		{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
	}
	for _, vec := range vectors {
		enc, dec, _ := ExpandKey(mustHex(vec.key))
		pt, ct := mustHex(vec.pt), mustHex(vec.ct)
		for _, v := range BlockEncryptVariants() {
			t.Run(fmt.Sprintf("enc/%s/%d", v.Name(), len(vec.key)*4), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, 16)
				v.Fn(enc, got, pt)
				if !bytes.Equal(got, ct) {
					t.Errorf("got %x, want %x", got, ct)
				}
			})
		}
		for _, v := range BlockDecryptVariants() {
			t.Run(fmt.Sprintf("dec/%s/%d", v.Name(), len(vec.key)*4), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, 16)
				v.Fn(dec, got, ct)
				if !bytes.Equal(got, pt) {
					t.Errorf("got %x, want %x", got, pt)
				}
			})
		}
	}
}

// sp38a is one key of SP 800-38A Appendix F: the ECB (F.1), CBC (F.2) and
// CTR (F.5) ciphertexts of the common four-block plaintext.
type sp38a struct{ name, key, ecb, cbc, ctr string }

const (
	sp38aPT  = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
	sp38aIV  = "000102030405060708090a0b0c0d0e0f"
	sp38aCtr = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"
)

var sp38aVectors = []sp38a{
	{"AES-128 (F.1.1, F.2.1, F.5.1)", "2b7e151628aed2a6abf7158809cf4f3c",
		"3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
		"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
		"874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
	{"AES-256 (F.1.5, F.2.5, F.5.5)", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
		"f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
		"f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
		"601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
}

func TestSP80038A(t *testing.T) {
	pt := mustHex(sp38aPT)
	check := func(t *testing.T, got []byte, want string) {
		t.Helper()
		if hex.EncodeToString(got) != want {
			t.Errorf("got  %x\nwant %s", got, want)
		}
	}
	for _, vec := range sp38aVectors {
		enc, dec, _ := ExpandKey(mustHex(vec.key))
		for _, v := range ECBEncryptVariants() {
			t.Run(vec.name+"/ECBEncrypt/"+v.Name(), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, len(pt))
				v.Fn(enc, got, pt)
				check(t, got, vec.ecb)
			})
		}
		for _, v := range ECBDecryptVariants() {
			t.Run(vec.name+"/ECBDecrypt/"+v.Name(), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, len(pt))
				v.Fn(dec, got, mustHex(vec.ecb))
				check(t, got, sp38aPT)
			})
		}
		for _, v := range CBCEncryptVariants() {
			t.Run(vec.name+"/CBCEncrypt/"+v.Name(), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, len(pt))
				iv := [16]byte(mustHex(sp38aIV))
				v.Fn(enc, &iv, got, pt)
				check(t, got, vec.cbc)
				check(t, iv[:], vec.cbc[len(vec.cbc)-32:])
			})
		}
		for _, v := range CBCDecryptVariants() {
			t.Run(vec.name+"/CBCDecrypt/"+v.Name(), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, len(pt))
				iv := [16]byte(mustHex(sp38aIV))
				v.Fn(dec, &iv, got, mustHex(vec.cbc))
				check(t, got, sp38aPT)
			})
		}
		for _, v := range CTRVariants() {
			t.Run(vec.name+"/CTR/"+v.Name(), func(t *testing.T) {
				runnable(t, v.ID)
				got := make([]byte, len(pt))
				ctr := [16]byte(mustHex(sp38aCtr))
				var ec [16]byte
				used := uint32(16)
				if n := v.Fn(enc, &ctr, &ec, &used, got, pt); n != len(pt) {
					t.Errorf("returned %d", n)
				}
				check(t, got, vec.ctr)
			})
		}
	}
}

// oracle computes the expected output of one family with crypto/aes and
// crypto/cipher.
type family struct {
	name       string
	blocksOnly bool
	variants   []view
	oracle     func(k keyPair, iv []byte, src []byte) []byte
}

// view is a family-agnostic test view of a variant: run processes src into dst
// with iv (IV or counter) and returns the bytes reported and the updated iv.
type view struct {
	id  variant.ID
	run func(k keyPair, iv []byte, dst, src []byte) (int, []byte)
}

func families() []family {
	var fs []family
	var v []view
	for _, x := range CBCEncryptVariants() {
		v = append(v, view{x.ID, func(k keyPair, iv, dst, src []byte) (int, []byte) {
			st := [16]byte(iv)
			n := x.Fn(k.enc, &st, dst, src)
			return n, st[:]
		}})
	}
	fs = append(fs, family{"CBCEncrypt", true, v, func(k keyPair, iv, src []byte) []byte {
		out := make([]byte, len(src))
		cipher.NewCBCEncrypter(k.std, iv).CryptBlocks(out, src)
		return out
	}})
	v = nil
	for _, x := range CBCDecryptVariants() {
		v = append(v, view{x.ID, func(k keyPair, iv, dst, src []byte) (int, []byte) {
			st := [16]byte(iv)
			n := x.Fn(k.dec, &st, dst, src)
			return n, st[:]
		}})
	}
	fs = append(fs, family{"CBCDecrypt", true, v, func(k keyPair, iv, src []byte) []byte {
		out := make([]byte, len(src))
		cipher.NewCBCDecrypter(k.std, iv).CryptBlocks(out, src)
		return out
	}})
	v = nil
	for _, x := range ECBEncryptVariants() {
		v = append(v, view{x.ID, func(k keyPair, iv, dst, src []byte) (int, []byte) {
			return x.Fn(k.enc, dst, src), iv
		}})
	}
	fs = append(fs, family{"ECBEncrypt", true, v, func(k keyPair, iv, src []byte) []byte {
		out := make([]byte, len(src))
		for i := 0; i < len(src); i += 16 {
			k.std.Encrypt(out[i:], src[i:])
		}
		return out
	}})
	v = nil
	for _, x := range ECBDecryptVariants() {
		v = append(v, view{x.ID, func(k keyPair, iv, dst, src []byte) (int, []byte) {
			return x.Fn(k.dec, dst, src), iv
		}})
	}
	fs = append(fs, family{"ECBDecrypt", true, v, func(k keyPair, iv, src []byte) []byte {
		out := make([]byte, len(src))
		for i := 0; i < len(src); i += 16 {
			k.std.Decrypt(out[i:], src[i:])
		}
		return out
	}})
	v = nil
	for _, x := range CTRVariants() {
		v = append(v, view{x.ID, func(k keyPair, iv, dst, src []byte) (int, []byte) {
			ctr := [16]byte(iv)
			var ec [16]byte
			used := uint32(16)
			n := x.Fn(k.enc, &ctr, &ec, &used, dst, src)
			return n, ctr[:]
		}})
	}
	fs = append(fs, family{"CTR", false, v, func(k keyPair, iv, src []byte) []byte {
		out := make([]byte, len(src))
		cipher.NewCTR(k.std, iv).XORKeyStream(out, src)
		return out
	}})
	return fs
}

// expectIV is the chaining value a CBC/CTR stub must leave behind.
func expectIV(fam string, iv, src, out []byte) []byte {
	switch fam {
	case "CBCEncrypt":
		if len(out) >= 16 {
			return out[len(out)-16:]
		}
	case "CBCDecrypt":
		if len(src) >= 16 {
			return src[len(src)-16:]
		}
	case "CTR":
		c := [16]byte(iv)
		addCounter(&c, uint64((len(src)+15)/16))
		return c[:]
	}
	return iv
}

func TestMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := testKeys(t)
	for _, fam := range families() {
		for _, v := range fam.variants {
			t.Run(fam.name+"/"+v.id.Name(), func(t *testing.T) {
				runnable(t, v.id)
				for ki, k := range keys {
					ls := lengths(r, fam.blocksOnly)
					if ki > 0 && !long { // other key sizes: boundaries only
						ls = nil
					}
					for _, b := range boundaryBlocks {
						ls = append(ls, 16*b)
						if !fam.blocksOnly {
							ls = append(ls, 16*b+1, 16*b+15)
						}
					}
					for _, n := range ls {
						checkOne(t, fam, v, k, r, n, 0, 0)
					}
				}
			})
		}
	}
}

// TestAlignmentAndInPlace covers input and output offsets 0–63 at block
// counts around the loop boundaries: by default every input offset with a few
// output offsets and vice versa (and every offset in place); with
// JITSIM_LONG=1 the full 64×64 cross product. Under qemu only every 7th offset.
func TestAlignmentAndInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	k := testKeys(t)[2]
	type pair struct{ in, out int }
	var pairs []pair
	var offsets []int
	for a := 0; a < 64; a++ {
		if reduced && a%7 != 0 {
			continue
		}
		offsets = append(offsets, a)
		for _, b := range []int{0, 1, 8, 63} {
			pairs = append(pairs, pair{a, b}, pair{b, a})
		}
		if long {
			for b := range 64 {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	for _, fam := range families() {
		for _, v := range fam.variants {
			t.Run(fam.name+"/"+v.id.Name(), func(t *testing.T) {
				runnable(t, v.id)
				for _, b := range []int{1, 4, 5, 6, 7, 32, 33, 37} {
					n := 16 * b
					if !fam.blocksOnly {
						n += 5
					}
					for _, p := range pairs {
						checkOne(t, fam, v, k, r, n, p.in, p.out)
					}
					for _, a := range offsets {
						checkInPlace(t, fam, v, k, r, n, a)
					}
				}
			})
		}
	}
}

func checkOne(t *testing.T, fam family, v view, k keyPair, r *rand.Rand, n, ai, ao int) {
	t.Helper()
	iv := random(r, 16)
	if fam.name == "CTR" && r.IntN(4) == 0 {
		copy(iv[8:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff - byte(r.IntN(40))}) // near the 64-bit carry
	}
	src, srcOK := buf(n, ai, 1)
	copy(src, random(r, n))
	dst, dstOK := buf(n, ao, 2)
	want := fam.oracle(k, iv, src)
	got, newIV := v.run(k, iv, dst, src)
	if got != n {
		t.Fatalf("%s n=%d: returned %d", k.name, n, got)
	}
	if !bytes.Equal(dst, want) {
		t.Fatalf("%s n=%d align %d/%d: output differs from crypto/cipher at byte %d", k.name, n, ai, ao, firstDiff(dst, want))
	}
	if w := expectIV(fam.name, iv, src, want); !bytes.Equal(newIV, w) {
		t.Fatalf("%s n=%d: chaining value %x, want %x", k.name, n, newIV, w)
	}
	srcOK(t)
	dstOK(t)
}

func checkInPlace(t *testing.T, fam family, v view, k keyPair, r *rand.Rand, n, a int) {
	t.Helper()
	iv := random(r, 16)
	b, ok := buf(n, a, 3)
	copy(b, random(r, n))
	want := fam.oracle(k, iv, b)
	v.run(k, iv, b, b)
	if !bytes.Equal(b, want) {
		t.Fatalf("%s in place n=%d align %d: differs at byte %d", k.name, n, a, firstDiff(b, want))
	}
	ok(t)
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestCTRStreaming splits one stream into random pieces, so the partial-block
// state (encCtr, used) carries across calls as in the JDK's CounterMode.
func TestCTRStreaming(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	k := testKeys(t)[0]
	for _, v := range CTRVariants() {
		t.Run(v.Name(), func(t *testing.T) {
			runnable(t, v.ID)
			for range 50 {
				n := r.IntN(3000)
				src := random(r, n)
				iv := random(r, 16)
				want := make([]byte, n)
				cipher.NewCTR(k.std, iv).XORKeyStream(want, src)
				got := make([]byte, n)
				ctr := [16]byte(iv)
				var ec [16]byte
				used := uint32(16)
				for i := 0; i < n; {
					m := min(n-i, r.IntN(200))
					v.Fn(k.enc, &ctr, &ec, &used, got[i:i+m], src[i:i+m])
					i += m
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("n=%d: differs at %d", n, firstDiff(got, want))
				}
			}
		})
	}
}

// TestBlockMatrix compares every block variant with crypto/aes on random
// blocks for every key size, including in place.
func TestBlockMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range testKeys(t) {
		for _, v := range BlockEncryptVariants() {
			t.Run("enc/"+v.Name()+"/"+k.name, func(t *testing.T) {
				runnable(t, v.ID)
				for range 200 {
					src := random(r, 16)
					want := make([]byte, 16)
					k.std.Encrypt(want, src)
					got := make([]byte, 16)
					v.Fn(k.enc, got, src)
					v.Fn(k.enc, src, src)
					if !bytes.Equal(got, want) || !bytes.Equal(src, want) {
						t.Fatalf("got %x / in place %x, want %x", got, src, want)
					}
				}
			})
		}
		for _, v := range BlockDecryptVariants() {
			t.Run("dec/"+v.Name()+"/"+k.name, func(t *testing.T) {
				runnable(t, v.ID)
				for range 200 {
					src := random(r, 16)
					want := make([]byte, 16)
					k.std.Decrypt(want, src)
					got := make([]byte, 16)
					v.Fn(k.dec, got, src)
					if !bytes.Equal(got, want) {
						t.Fatalf("got %x, want %x", got, want)
					}
				}
			})
		}
	}
}

// TestBlocksMatrix holds every block variant's n-calls entry (BlocksCode) to
// crypto/aes block by block: strided blocks in separate arrays, packed blocks,
// and packed blocks in place.
func TestBlocksMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, k := range testKeys(t) {
		for _, dec := range []bool{false, true} {
			vs, xk, std := BlockEncryptVariants(), k.enc, k.std.Encrypt
			name := "enc/"
			if dec {
				vs, xk, std, name = BlockDecryptVariants(), k.dec, k.std.Decrypt, "dec/"
			}
			for _, v := range vs {
				t.Run(name+v.Name()+"/"+k.name, func(t *testing.T) {
					runnable(t, v.ID)
					fn, ok := BlocksCode(v.ID)
					if !ok {
						t.Fatal("no n-calls entry")
					}
					for _, c := range []struct{ n, ss, ds int }{{1, 16, 16}, {7, 16, 16}, {64, 16, 16}, {5, 48, 32}, {3, 17, 16}} {
						src := random(r, (c.n-1)*c.ss+16)
						want := make([]byte, (c.n-1)*c.ds+16)
						for i := range c.n {
							std(want[i*c.ds:], src[i*c.ss:i*c.ss+16])
						}
						got := make([]byte, len(want))
						fn(xk, got, c.ds, src, c.ss, c.n)
						for i := range c.n {
							if !bytes.Equal(got[i*c.ds:i*c.ds+16], want[i*c.ds:i*c.ds+16]) {
								t.Fatalf("%+v: block %d: got %x, want %x", c, i, got[i*c.ds:i*c.ds+16], want[i*c.ds:i*c.ds+16])
							}
						}
						if c.ss == c.ds {
							fn(xk, src, c.ss, src, c.ss, c.n)
							for i := range c.n {
								if !bytes.Equal(src[i*c.ss:i*c.ss+16], want[i*c.ds:i*c.ds+16]) {
									t.Fatalf("%+v in place: block %d: got %x, want %x", c, i, src[i*c.ss:i*c.ss+16], want[i*c.ds:i*c.ds+16])
								}
							}
						}
					}
				})
			}
		}
	}
}

func TestMisusePanics(t *testing.T) {
	k := testKeys(t)[0]
	tests := []struct {
		name string
		f    func()
	}{
		{"short dst block", func() { BlockEncryptVariants()[0].Fn(k.enc, make([]byte, 15), make([]byte, 16)) }},
		{"bad key", func() { BlockEncryptVariants()[0].Fn(k.enc[:40], make([]byte, 16), make([]byte, 16)) }},
		{"partial CBC", func() { CBCEncryptVariants()[0].Fn(k.enc, new([16]byte), make([]byte, 17), make([]byte, 17)) }},
		{"short dst CTR", func() {
			u := uint32(16)
			CTRVariants()[0].Fn(k.enc, new([16]byte), new([16]byte), &u, make([]byte, 3), make([]byte, 4))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || len(s) < 11 || s[:11] != "stubs/aes: " {
					t.Errorf("panic %v, want a stubs/aes: message", r)
				}
			}()
			tt.f()
		})
	}
}
