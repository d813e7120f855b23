package jce_test

// Tests of the provider layer. They run the reference methods for real:
// every method at one level through tiers/c1 (level 1, compiled, no
// counters), with a router that sends each call a method makes to the
// callee's code at the same level and records it. Go's crypto/aes and
// crypto/cipher are the oracle.
//
// JITSIM_LONG=1 runs more random lengths and split points.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/c1"
)

func long() bool { return os.Getenv("JITSIM_LONG") == "1" }

// testVM is an Invoker and Router that runs every method of one JDK
// profile at level 1, compiling on first use, and records each call as
// "Key" or "Key:n" (n the length argument: inLen, len or blocks).
type testVM struct {
	tab  *bytecode.Table
	tier jrt.Tier

	mu     sync.Mutex
	codes  map[string]jrt.Code
	record bool
	trace  []string
}

var (
	vmsMu sync.Mutex
	vms   = map[jdk.Release]*testVM{}
)

// vmFor returns the shared test VM of release rel.
func vmFor(t testing.TB, rel jdk.Release) *testVM {
	t.Helper()
	vmsMu.Lock()
	defer vmsMu.Unlock()
	if v, ok := vms[rel]; ok {
		return v
	}
	tab, err := bytecode.ForProfile(rel)
	if err != nil {
		t.Fatal(err)
	}
	v := &testVM{tab: tab, tier: c1.New(), codes: map[string]jrt.Code{}}
	vms[rel] = v
	return v
}

func (v *testVM) code(ctx context.Context, m *jrt.Method) (jrt.Code, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if c, ok := v.codes[m.Key]; ok {
		return c, nil
	}
	c, err := v.tier.Compile(ctx, jrt.CompileRequest{Method: m, Level: jrt.LevelSimple, Table: v.tab,
		Router: v, BackedgeNotifyFreqLog: -1})
	if err != nil {
		return nil, err
	}
	v.codes[m.Key] = c
	return c, nil
}

func (v *testVM) note(m *jrt.Method, args []jrt.Arg) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.record {
		return
	}
	s := m.Key
	for i, p := range m.Params {
		if p.Name == "inLen" || p.Name == "len" || p.Name == "blocks" {
			s += ":" + strconv.FormatInt(args[i].Scalar, 10)
			break
		}
	}
	v.trace = append(v.trace, s)
}

// Call implements jce.Invoker.
func (v *testVM) Call(ctx context.Context, m *jrt.Method, args []jrt.Arg) (int64, error) {
	if err := bytecode.CheckArgs(m, args); err != nil {
		return 0, err
	}
	v.note(m, args)
	c, err := v.code(ctx, m)
	if err != nil {
		return 0, err
	}
	return c.Invoke(ctx, args)
}

// Route implements jrt.Router.
func (v *testVM) Route(ctx context.Context, site jrt.Site, args []jrt.Arg) (int64, error) {
	return v.Call(ctx, site.Callee, args)
}

// traced runs f with recording on and returns the calls.
func (v *testVM) traced(f func()) []string {
	v.mu.Lock()
	v.record, v.trace = true, nil
	v.mu.Unlock()
	f()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.record = false
	return v.trace
}

var ctx = context.Background()

func newCipher(t testing.TB, rel jdk.Release, tr string, mode int, key []byte, spec jce.ParamSpec) *jce.Cipher {
	t.Helper()
	c, err := jce.NewCipher(ctx, vmFor(t, rel), rel, tr, mode, key, spec)
	if err != nil {
		t.Fatalf("NewCipher(%s, %s): %v", rel, tr, err)
	}
	return c
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// oracle ciphers

func goBlock(t testing.TB, key []byte) cipher.Block {
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func pkcs5(p []byte) []byte {
	n := 16 - len(p)%16
	return append(slices.Clone(p), bytes.Repeat([]byte{byte(n)}, n)...)
}

func goECB(t testing.TB, key, p []byte) []byte {
	b, out := goBlock(t, key), make([]byte, len(p))
	for i := 0; i < len(p); i += 16 {
		b.Encrypt(out[i:], p[i:])
	}
	return out
}

func goCBC(t testing.TB, key, iv, p []byte) []byte {
	out := make([]byte, len(p))
	cipher.NewCBCEncrypter(goBlock(t, key), iv).CryptBlocks(out, p)
	return out
}

func goCTR(t testing.TB, key, iv, p []byte) []byte {
	out := make([]byte, len(p))
	cipher.NewCTR(goBlock(t, key), iv).XORKeyStream(out, p)
	return out
}

func goGCM(t testing.TB, key, iv []byte, tagLen int) cipher.AEAD {
	var g cipher.AEAD
	var err error
	switch {
	case len(iv) == 12 && tagLen == 16:
		g, err = cipher.NewGCM(goBlock(t, key))
	case len(iv) == 12:
		g, err = cipher.NewGCMWithTagSize(goBlock(t, key), tagLen)
	default:
		g, err = cipher.NewGCMWithNonceSize(goBlock(t, key), len(iv))
	}
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// feed runs a cipher over data in parts split at the given points (update
// for every part, doFinal for the last) and returns the concatenation.
func feed(t testing.TB, c *jce.Cipher, data []byte, splits []int) ([]byte, error) {
	t.Helper()
	var out []byte
	prev := 0
	for _, s := range splits {
		o, err := c.Update(ctx, data[prev:s])
		if err != nil {
			return nil, err
		}
		out = append(out, o...)
		prev = s
	}
	o, err := c.DoFinal(ctx, data[prev:])
	if err != nil {
		return nil, err
	}
	return append(out, o...), nil
}

func randomSplits(r *rand.Rand, n, parts int) []int {
	var s []int
	for range parts {
		s = append(s, r.IntN(n+1))
	}
	slices.Sort(s)
	return s
}

var keySizes = []int{16, 24, 32}

func TestProviderBlockModes(t *testing.T) {
	lengths := []int{0, 1, 15, 16, 17, 31, 32, 33, 100, 1000, 4099}
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(rel.String()))))
			for _, ks := range keySizes {
				key, iv := randBytes(r, ks), randBytes(r, 16)
				for _, n := range lengths {
					p := randBytes(r, n)
					splits := randomSplits(r, n, 3)
					cases := []struct {
						tr   string
						spec jce.ParamSpec
						want []byte
					}{
						{"AES/ECB/PKCS5Padding", nil, goECB(t, key, pkcs5(p))},
						{"AES", nil, goECB(t, key, pkcs5(p))},
						{"AES/CBC/PKCS5Padding", jce.IvParameterSpec{IV: iv}, goCBC(t, key, iv, pkcs5(p))},
						{"AES/CTR/NoPadding", jce.IvParameterSpec{IV: iv}, goCTR(t, key, iv, p)},
					}
					if n%16 == 0 {
						cases = append(cases,
							struct {
								tr   string
								spec jce.ParamSpec
								want []byte
							}{"AES/ECB/NoPadding", nil, goECB(t, key, p)},
							struct {
								tr   string
								spec jce.ParamSpec
								want []byte
							}{"AES/CBC/NoPadding", jce.IvParameterSpec{IV: iv}, goCBC(t, key, iv, p)})
					}
					for _, tc := range cases {
						name := fmt.Sprintf("%s/key=%d/len=%d", tc.tr, ks, n)
						enc := newCipher(t, rel, tc.tr, jce.EncryptMode, key, tc.spec)
						got, err := enc.DoFinal(ctx, p)
						if err != nil || !bytes.Equal(got, tc.want) {
							t.Fatalf("%s: encrypt = %x, %v; want %x", name, short(got), err, short(tc.want))
						}
						// the cipher is reset after doFinal: multi-part gives the same
						got, err = feed(t, enc, p, splits)
						if err != nil || !bytes.Equal(got, tc.want) {
							t.Fatalf("%s: multi-part encrypt at %v = %x, %v; want %x", name, splits, short(got), err, short(tc.want))
						}
						dec := newCipher(t, rel, tc.tr, jce.DecryptMode, key, tc.spec)
						back, err := feed(t, dec, tc.want, randomSplits(r, len(tc.want), 3))
						if err != nil || !bytes.Equal(back, p) {
							t.Fatalf("%s: decrypt = %x, %v; want %x", name, short(back), err, short(p))
						}
					}
				}
			}
		})
	}
}

func short(b []byte) []byte {
	if len(b) > 48 {
		return b[:48]
	}
	return b
}

// specVector is one of the GCM specification's test cases 1-18
// (testdata/provider/gcm_spec_vectors.txt).
type specVector struct {
	Case              int
	K, P, A, IV, C, T []byte
}

func specVectors(t *testing.T) []specVector {
	f, err := os.Open(filepath.Join("testdata", "provider", "gcm_spec_vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []specVector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "case" {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			vs = append(vs, specVector{Case: n})
			continue
		}
		b, err := hex.DecodeString(v)
		if err != nil || len(vs) == 0 {
			t.Fatalf("bad line %q", line)
		}
		cur := &vs[len(vs)-1]
		*map[string]*[]byte{"K": &cur.K, "P": &cur.P, "A": &cur.A, "IV": &cur.IV, "C": &cur.C, "T": &cur.T}[k] = b
	}
	if len(vs) != 18 {
		t.Fatalf("%d spec vectors, want 18", len(vs))
	}
	return vs
}

func TestProviderGCMSpec(t *testing.T) {
	vs := specVectors(t)
	for _, rel := range jdk.All() {
		for _, v := range vs {
			t.Run(fmt.Sprintf("jdk=%s/case=%d", rel, v.Case), func(t *testing.T) {
				spec := jce.GCMParameterSpec{TLen: 128, IV: v.IV}
				enc := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, v.K, spec)
				if err := enc.UpdateAAD(v.A); err != nil {
					t.Fatal(err)
				}
				got, err := enc.DoFinal(ctx, v.P)
				want := append(slices.Clone(v.C), v.T...)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("seal = %x, %v; want %x", got, err, want)
				}
				if g := goGCM(t, v.K, v.IV, 16).Seal(nil, v.IV, v.P, v.A); !bytes.Equal(g, want) {
					t.Fatalf("oracle disagrees with the spec: %x", g)
				}
				dec := newCipher(t, rel, "AES/GCM/NoPadding", jce.DecryptMode, v.K, spec)
				if err := dec.UpdateAAD(v.A); err != nil {
					t.Fatal(err)
				}
				back, err := dec.DoFinal(ctx, want)
				if err != nil || !bytes.Equal(back, v.P) {
					t.Fatalf("open = %x, %v; want %x", back, err, v.P)
				}
			})
		}
	}
}

// gcmLengths are the lengths every profile runs: the PARALLEL_LEN (512,
// 7680) and TRIGGERLEN (65536) boundaries and 10 000, plus random lengths
// up to 70 000.
func gcmLengths(r *rand.Rand) []int {
	ls := []int{0, 1, 15, 16, 17, 511, 512, 513, 1024, 7679, 7680, 7681, 10000, 15360, 15361, 65535, 65536, 65537, 70000}
	extra := 4
	if long() {
		extra = 40
	}
	for range extra {
		ls = append(ls, r.IntN(70001))
	}
	return ls
}

func TestProviderGCMLengths(t *testing.T) {
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(2, uint64(len(rel.String()))))
			for i, n := range gcmLengths(r) {
				ks := keySizes[i%3]
				key, p, aad := randBytes(r, ks), randBytes(r, n), randBytes(r, r.IntN(40))
				iv := randBytes(r, []int{12, 12, 8, 16, 60}[i%5])
				tagLen := []int{16, 16, 16, 12, 13, 14, 15}[i%7]
				if len(iv) != 12 {
					tagLen = 16 // crypto/cipher: custom nonce sizes only with 16-byte tags
				}
				spec := jce.GCMParameterSpec{TLen: 8 * tagLen, IV: iv}
				want := goGCM(t, key, iv, tagLen).Seal(nil, iv, p, aad)
				name := fmt.Sprintf("len=%d/key=%d/iv=%d/tag=%d", n, ks, len(iv), tagLen)

				enc := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, key, spec)
				if err := enc.UpdateAAD(aad); err != nil {
					t.Fatal(err)
				}
				got, err := enc.DoFinal(ctx, p)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: seal differs from crypto/cipher (err %v)\n got %x\nwant %x", name, err, short(got), short(want))
				}
				dec := newCipher(t, rel, "AES/GCM/NoPadding", jce.DecryptMode, key, spec)
				if err := dec.UpdateAAD(aad); err != nil {
					t.Fatal(err)
				}
				back, err := dec.DoFinal(ctx, want)
				if err != nil || !bytes.Equal(back, p) {
					t.Fatalf("%s: open: %v", name, err)
				}
			}
		})
	}
}

func TestProviderGCMMultipart(t *testing.T) {
	rounds := 6
	if long() {
		rounds = 40
	}
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(len(rel.String()))))
			for i := range rounds {
				n := []int{100, 9000, 20000, r.IntN(70001)}[i%4]
				key, iv, p, aad := randBytes(r, 16), randBytes(r, 12), randBytes(r, n), randBytes(r, r.IntN(70))
				spec := jce.GCMParameterSpec{TLen: 128, IV: iv}
				want := goGCM(t, key, iv, 16).Seal(nil, iv, p, aad)
				splits := randomSplits(r, n, 1+r.IntN(5))
				name := fmt.Sprintf("len=%d/splits=%v", n, splits)

				enc := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, key, spec)
				a := r.IntN(len(aad) + 1) // AAD in two parts
				if err := enc.UpdateAAD(aad[:a]); err != nil {
					t.Fatal(err)
				}
				if err := enc.UpdateAAD(aad[a:]); err != nil {
					t.Fatal(err)
				}
				got, err := feed(t, enc, p, splits)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: multi-part seal differs from one-shot (err %v)", name, err)
				}
				dec := newCipher(t, rel, "AES/GCM/NoPadding", jce.DecryptMode, key, spec)
				if err := dec.UpdateAAD(aad); err != nil {
					t.Fatal(err)
				}
				dsplits := randomSplits(r, len(want), 1+r.IntN(5))
				back, err := feed(t, dec, want, dsplits)
				if err != nil || !bytes.Equal(back, p) {
					t.Fatalf("%s: multi-part open at %v: %v", name, dsplits, err)
				}
				// decryption may be repeated with the same key and IV
				if err := dec.UpdateAAD(aad); err != nil {
					t.Fatal(err)
				}
				back, err = dec.DoFinal(ctx, want)
				if err != nil || !bytes.Equal(back, p) {
					t.Fatalf("%s: second open: %v", name, err)
				}
			}
		})
	}
}

func TestProviderGCMBadTag(t *testing.T) {
	for _, rel := range jdk.All() {
		for _, n := range []int{0, 40, 600, 8000} {
			t.Run(fmt.Sprintf("jdk=%s/len=%d", rel, n), func(t *testing.T) {
				r := rand.New(rand.NewPCG(4, uint64(n)))
				key, iv, p := randBytes(r, 16), randBytes(r, 12), randBytes(r, n)
				spec := jce.GCMParameterSpec{TLen: 128, IV: iv}
				ct := goGCM(t, key, iv, 16).Seal(nil, iv, p, nil)
				ct[len(ct)-1-r.IntN(16)] ^= 1 << r.IntN(8)
				want := map[jdk.Release]string{jdk.R8: "Tag mismatch!", jdk.R8u: "Tag mismatch!", jdk.R17: "Tag mismatch!",
					jdk.R21: "Tag mismatch", jdk.R22: "Tag mismatch", jdk.R25: "Tag mismatch"}[rel]

				dec := newCipher(t, rel, "AES/GCM/NoPadding", jce.DecryptMode, key, spec)
				var got []byte
				var err error
				tr := vmFor(t, rel).traced(func() { got, err = dec.DoFinal(ctx, ct) })
				expectJava(t, err, jce.AEADBadTagException, want)
				if verifyFirst := rel == jdk.R8 || rel == jdk.R8u || rel == jdk.R17; verifyFirst && n > 0 {
					// only the tag's own GCTR (16 bytes) may run: no data is decrypted
					for _, c := range tr {
						if strings.HasPrefix(c, "GCTR.") && !strings.HasSuffix(c, ":16") {
							t.Fatalf("JDK %s decrypted before checking the tag: %v", rel, compress(tr))
						}
					}
				}
				if got != nil {
					t.Fatalf("plaintext released with a bad tag: %x", short(got))
				}
				// into a caller's array, after updates that buffer the ciphertext
				out := bytes.Repeat([]byte{0xa5}, n+8)
				if _, err := dec.Update(ctx, ct[:len(ct)/2]); err != nil {
					t.Fatal(err)
				}
				_, err = dec.DoFinalTo(ctx, ct, len(ct)/2, len(ct)-len(ct)/2, out, 4)
				expectJava(t, err, jce.AEADBadTagException, want)
				for i := 4; i < 4+n; i++ {
					if out[i] != 0xa5 && out[i] != 0 {
						t.Fatalf("output byte %d is %#x after a bad tag (plaintext %#x)", i, out[i], p[i-4])
					}
				}
			})
		}
	}
}

func expectJava(t *testing.T, err error, class, msg string) {
	t.Helper()
	var je *jce.JavaException
	if !errors.As(err, &je) {
		t.Fatalf("got %v, want %s: %s", err, class, msg)
	}
	if je.Class != class || je.Message != msg {
		t.Fatalf("got %s: %q, want %s: %q", je.Class, je.Message, class, msg)
	}
}

// TestProviderGCMInPlace decrypts in place (one array for input and
// output): the JDK 18+ routing must not use the combined path
// (GCMEngine.inPlaceArray, ct == null).
func TestProviderGCMInPlace(t *testing.T) {
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 0))
			key, iv, p := randBytes(r, 16), randBytes(r, 12), randBytes(r, 9000)
			spec := jce.GCMParameterSpec{TLen: 128, IV: iv}
			buf := goGCM(t, key, iv, 16).Seal(nil, iv, p, nil)
			dec := newCipher(t, rel, "AES/GCM/NoPadding", jce.DecryptMode, key, spec)
			v := vmFor(t, rel)
			var n int
			var err error
			tr := v.traced(func() { n, err = dec.DoFinalTo(ctx, buf, 0, len(buf), buf, 0) })
			if err != nil || !bytes.Equal(buf[:n], p) {
				t.Fatalf("in-place open: n=%d err=%v", n, err)
			}
			if slices.ContainsFunc(tr, func(s string) bool { return strings.HasPrefix(s, "GaloisCounterMode.implGCMCrypt0") }) {
				t.Fatalf("in-place decryption reached implGCMCrypt0: %v", compress(tr))
			}
			// encryption in place with the output ahead of the input
			enc := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, key, spec)
			arr := append(make([]byte, 5), p...)
			arr = append(arr, make([]byte, 16)...)
			n, err = enc.DoFinalTo(ctx, arr, 5, len(p), arr, 0)
			want := goGCM(t, key, iv, 16).Seal(nil, iv, p, nil)
			if err != nil || !bytes.Equal(arr[:n], want) {
				t.Fatalf("overlapping seal: %v", err)
			}
		})
	}
}

// compress run-length encodes a trace: "Key:n ×k".
func compress(tr []string) []string {
	var out []string
	for i := 0; i < len(tr); {
		j := i
		for j < len(tr) && tr[j] == tr[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s ×%d", tr[i], j-i))
		} else {
			out = append(out, tr[i])
		}
		i = j
	}
	return out
}

// TestProviderCallSequence records every method the VM sees for a
// 10 000-byte AES-128/GCM encryption (12-byte IV, no AAD, one doFinal) and
// compares it with what the JDK sources of each release call:
//
//   - init: AESCrypt.init → makeSessionKey; the engine: H = encryptBlock(0).
//   - JDK 8, 8u: GCTR.doFinal → GCTR.update looping encryptBlock per block
//     (625); GHASH.doFinal → GHASH.update → processBlock per block (8 GA)
//     or processBlocks once (8u, JDK-8073108).
//   - 17: GCTR.update → CounterMode.implCrypt once (its Java body:
//     encryptBlock per block); GHASH.update →
//     processBlocks once (its Java body: processBlock per block, each
//     calling blockMult).
//   - 21: implGCMCrypt → implGCMCrypt0 for 7680 bytes (GCTR.update +
//     GHASH.update inside), then GCTR/GHASH doFinal for 2320.
//   - 25: the same with PARALLEL_LEN 512: 9728 bytes combined, 272 rest.
//   - the tag: GHASH.update of the length block, GCTR.doFinal from J0.
func TestProviderCallSequence(t *testing.T) {
	// CounterMode.implCrypt's Java body calls encryptBlock per block.
	ctr := func(n int) []string {
		return append([]string{fmt.Sprintf("CounterMode.implCrypt:%d", n)}, slices.Repeat([]string{"AESCrypt.implEncryptBlock"}, n/16)...)
	}
	gctr17 := func(n int) []string {
		return append([]string{fmt.Sprintf("GCTR.doFinal:%d", n), fmt.Sprintf("GCTR.update:%d", n)}, ctr(n)...)
	}
	ghash := func(n int) []string {
		return []string{fmt.Sprintf("GHASH.doFinal:%d", n), fmt.Sprintf("GHASH.update:%d", n), fmt.Sprintf("GHASH.processBlocks:%d", n/16)}
	}
	// JDK 9+'s processBlocks: processBlock per block, each calling blockMult.
	blocks9 := func(n int) []string { return slices.Repeat([]string{"GHASH.processBlock", "GHASH.blockMult"}, n) }
	ghash9 := func(n int) []string { return append(ghash(n), blocks9(n/16)...) }
	combined := func(n int) []string {
		return slices.Concat([]string{fmt.Sprintf("GaloisCounterMode.implGCMCrypt:%d", n), fmt.Sprintf("GaloisCounterMode.implGCMCrypt0:%d", n),
			fmt.Sprintf("GCTR.update:%d", n)}, ctr(n),
			[]string{fmt.Sprintf("GHASH.update:%d", n), fmt.Sprintf("GHASH.processBlocks:%d", n/16)}, blocks9(n/16))
	}
	tag9 := slices.Concat([]string{"GHASH.update:16", "GHASH.processBlocks:1"}, blocks9(1), []string{"GCTR.doFinal:16", "GCTR.update:16"}, ctr(16))
	tag8 := []string{"GHASH.update:16", "GHASH.processBlocks:1", "GCTR.doFinal:16", "GCTR.update:16", "AESCrypt.implEncryptBlock"}
	tag8ga := []string{"GHASH.update:16", "GHASH.processBlock", "GCTR.doFinal:16", "GCTR.update:16", "AESCrypt.implEncryptBlock"}
	perBlock := func(k string, n int) []string { return slices.Repeat([]string{k}, n) }
	init := []string{"AESCrypt.makeSessionKey", "AESCrypt.implEncryptBlock"}
	last := "GaloisCounterMode.GCMEngine.doLastBlock:10000"
	want := map[jdk.Release][]string{
		jdk.R8: slices.Concat(init, []string{last, "GCTR.doFinal:10000", "GCTR.update:10000"},
			perBlock("AESCrypt.implEncryptBlock", 625), []string{"GHASH.doFinal:10000", "GHASH.update:10000"},
			perBlock("GHASH.processBlock", 625), tag8ga),
		jdk.R8u: slices.Concat(init, []string{last, "GCTR.doFinal:10000", "GCTR.update:10000"},
			perBlock("AESCrypt.implEncryptBlock", 625), ghash(10000), tag8),
		jdk.R17: slices.Concat(init, []string{last}, gctr17(10000), ghash9(10000), tag9),
		jdk.R21: slices.Concat(init, []string{last}, combined(7680), gctr17(2320), ghash9(2320), tag9),
		jdk.R22: slices.Concat(init, []string{last}, combined(7680), gctr17(2320), ghash9(2320), tag9),
		jdk.R25: slices.Concat(init, []string{last}, combined(9728), gctr17(272), ghash9(272), tag9),
	}
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(6, 0))
			key, iv, p := randBytes(r, 16), randBytes(r, 12), randBytes(r, 10000)
			v := vmFor(t, rel)
			var got []byte
			var err error
			tr := v.traced(func() {
				var c *jce.Cipher
				c, err = jce.NewCipher(ctx, v, rel, "AES/GCM/NoPadding", jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: iv})
				if err == nil {
					got, err = c.DoFinal(ctx, p)
				}
			})
			if err != nil || !bytes.Equal(got, goGCM(t, key, iv, 16).Seal(nil, iv, p, nil)) {
				t.Fatalf("seal: %v", err)
			}
			if !slices.Equal(tr, want[rel]) {
				t.Fatalf("call sequence\n got %q\nwant %q", compress(tr), compress(want[rel]))
			}
		})
	}
}

// TestProviderGCMUpdateRouting checks GCMEncrypt.doUpdate's routing of an
// 8005-byte update: where the profile has PARALLEL_LEN (21, 22, 25) it goes to
// implGCMCrypt first (whose implGCMCrypt0 takes 7680 bytes, a multiple of
// both 7680 and 512), then EncryptOp.update (GCTR.update + GHASH.update)
// takes the 320 bytes of whole blocks left and 5 bytes stay buffered; JDK
// 8, 8u and 17 send all 8000 whole-block bytes to GCTR.update +
// GHASH.update.
func TestProviderGCMUpdateRouting(t *testing.T) {
	old := []string{"GCTR.update:8000", "GHASH.update:8000"}
	combined := []string{"GaloisCounterMode.implGCMCrypt:8005", "GCTR.update:7680", "GHASH.update:7680", "GCTR.update:320", "GHASH.update:320"}
	want := map[jdk.Release][]string{jdk.R8: old, jdk.R8u: old, jdk.R17: old, jdk.R21: combined, jdk.R22: combined, jdk.R25: combined}
	for _, rel := range jdk.All() {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 0))
			key, iv, p := randBytes(r, 16), randBytes(r, 12), randBytes(r, 8005)
			c := newCipher(t, rel, "AES/GCM/NoPadding", jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: iv})
			var out []byte
			var err error
			tr := vmFor(t, rel).traced(func() { out, err = c.Update(ctx, p) })
			if err != nil || len(out) != 8000 {
				t.Fatalf("update: %d bytes, %v", len(out), err)
			}
			var got []string // implGCMCrypt and the GCTR/GHASH updates with data
			for _, s := range tr {
				if strings.HasPrefix(s, "GaloisCounterMode.implGCMCrypt:") ||
					strings.HasPrefix(s, "GCTR.update:") || strings.HasPrefix(s, "GHASH.update:") {
					got = append(got, s)
				}
			}
			if !slices.Equal(got, want[rel]) {
				t.Fatalf("routing\n got %q\nwant %q", got, want[rel])
			}
			// 1000 more bytes (5 buffered + 1000): 16 from the merged block,
			// then 989; only PARALLEL_LEN 512 (25) reaches implGCMCrypt.
			q := randBytes(r, 1000)
			var out2 []byte
			tr = vmFor(t, rel).traced(func() { out2, err = c.Update(ctx, q) })
			if err != nil || len(out2) != 992 {
				t.Fatalf("second update: %d bytes, %v", len(out2), err)
			}
			combined := slices.ContainsFunc(tr, func(s string) bool { return strings.HasPrefix(s, "GaloisCounterMode.implGCMCrypt:989") })
			if combined != (rel == jdk.R25) {
				t.Fatalf("989-byte update reached implGCMCrypt: %v, want %v (%q)", combined, rel == jdk.R25, compress(tr))
			}
			rest, err := c.DoFinal(ctx, nil)
			all := slices.Concat(out, out2, rest)
			if err != nil || !bytes.Equal(all, goGCM(t, key, iv, 16).Seal(nil, iv, append(p, q...), nil)) {
				t.Fatalf("doFinal after the updates: %v", err)
			}
		})
	}
}

// TestProviderBlockModesByteWise feeds every byte as its own update (the
// CipherCore buffer at every fill level, the last block held back for
// unpadding) and decrypts in place (one array for input and output).
func TestProviderBlockModesByteWise(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 0))
	key, iv, p := randBytes(r, 24), randBytes(r, 16), randBytes(r, 77)
	for _, rel := range []jdk.Release{jdk.R8, jdk.R17, jdk.R25} {
		for _, tc := range []struct {
			tr   string
			spec jce.ParamSpec
			want []byte
		}{
			{"AES/CBC/PKCS5Padding", jce.IvParameterSpec{IV: iv}, goCBC(t, key, iv, pkcs5(p))},
			{"AES/ECB/PKCS5Padding", nil, goECB(t, key, pkcs5(p))},
			{"AES/CTR/NoPadding", jce.IvParameterSpec{IV: iv}, goCTR(t, key, iv, p)},
		} {
			every := func(n int) []int {
				s := make([]int, n)
				for i := range s {
					s[i] = i
				}
				return s
			}
			enc := newCipher(t, rel, tc.tr, jce.EncryptMode, key, tc.spec)
			got, err := feed(t, enc, p, every(len(p)))
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Fatalf("jdk %s %s: byte-wise encrypt: %v", rel, tc.tr, err)
			}
			dec := newCipher(t, rel, tc.tr, jce.DecryptMode, key, tc.spec)
			back, err := feed(t, dec, tc.want, every(len(tc.want)))
			if err != nil || !bytes.Equal(back, p) {
				t.Fatalf("jdk %s %s: byte-wise decrypt: %v", rel, tc.tr, err)
			}
			buf := slices.Clone(tc.want)
			n, err := dec.UpdateTo(ctx, buf, 0, 40, buf, 0)
			if err != nil {
				t.Fatal(err)
			}
			m, err := dec.DoFinalTo(ctx, buf, 40, len(buf)-40, buf, n)
			if err != nil || !bytes.Equal(buf[:n+m], p) {
				t.Fatalf("jdk %s %s: in-place decrypt: %v", rel, tc.tr, err)
			}
		}
	}
}

// glueVM is a testVM that also prices the provider glue: it records each charge as
// "family@entry".
type glueVM struct {
	*testVM
	charges []string
}

// ChargeGlue implements jce.GlueCharger.
func (g *glueVM) ChargeGlue(_ context.Context, entry, family string) error {
	g.charges = append(g.charges, family+"@"+entry)
	return nil
}

// TestGlueAtTheEntry: each operation's glue is charged once per phase at the level of a
// method the operation calls exactly once — the glue's own callee, which crosses the tier
// thresholds at the operation counts the JDK's glue methods do — in every release, mode and
// direction, with and without AAD; never at a method called per block (implEncryptBlock)
// or per AAD chunk (GHASH.update), whose C2 code would price the glue as compiled
// thousands of operations too early.
func TestGlueAtTheEntry(t *testing.T) {
	const ops = 3
	for _, rel := range jdk.All() {
		for _, tr := range []string{"AES/GCM/NoPadding", "AES/CBC/NoPadding", "AES/CTR/NoPadding", "AES/ECB/NoPadding"} {
			for _, mode := range []int{jce.EncryptMode, jce.DecryptMode} {
				for _, n := range []int{16, 4096} {
					name := fmt.Sprintf("jdk=%s/%s/mode=%d/n=%d", rel, tr, mode, n)
					t.Run(name, func(t *testing.T) {
						r := rand.New(rand.NewPCG(7, uint64(n)))
						key, iv, p, aad := randBytes(r, 16), randBytes(r, 16), randBytes(r, n), randBytes(r, 100)
						gcm := strings.Contains(tr, "GCM")
						spec := func(i int) jce.ParamSpec {
							if gcm {
								nonce := slices.Clone(iv[:12])
								nonce[0] = byte(i)
								return jce.GCMParameterSpec{TLen: 128, IV: nonce}
							}
							if strings.Contains(tr, "ECB") {
								return nil
							}
							return jce.IvParameterSpec{IV: iv}
						}
						in := func(i int) []byte {
							if !gcm || mode == jce.EncryptMode {
								return p
							}
							a := goGCM(t, key, spec(i).(jce.GCMParameterSpec).IV, 16)
							return a.Seal(nil, spec(i).(jce.GCMParameterSpec).IV, p, aad)
						}
						g := &glueVM{testVM: vmFor(t, rel)}
						calls := g.traced(func() {
							c, err := jce.NewCipher(ctx, g, rel, tr, mode, key, spec(0))
							if err != nil {
								t.Fatal(err)
							}
							for i := range ops {
								if i > 0 {
									if err := c.Init(ctx, mode, key, spec(i)); err != nil {
										t.Fatal(err)
									}
								}
								if gcm {
									if err := c.UpdateAAD(aad); err != nil {
										t.Fatal(err)
									}
								}
								if _, err := c.DoFinal(ctx, in(i)); err != nil {
									t.Fatal(err)
								}
							}
						})
						count := map[string]int{}
						for _, k := range calls {
							count[strings.SplitN(k, ":", 2)[0]]++
						}
						phases := map[string]int{}
						for _, ch := range g.charges {
							family, entry, _ := strings.Cut(ch, "@")
							phases[family]++
							if strings.HasSuffix(family, ".instance") {
								if entry != "" {
									t.Errorf("getInstance charged at the level of %s", entry)
								}
								continue
							}
							if count[entry] != ops {
								t.Errorf("glue %s charged at the level of %s, called %d times in %d operations", family, entry, count[entry], ops)
							}
						}
						mode := strings.Split(tr, "/")[1]
						if phases[mode+".init"] != ops || phases[mode+".final"] != ops || phases[mode+".instance"] != 1 || len(phases) != 3 {
							t.Errorf("glue charges %v, want %d of %s.init and of %s.final, one %s.instance", phases, ops, mode, mode, mode)
						}
					})
				}
			}
		}
	}
}

// TestDoFinalView holds DoFinalView to DoFinal's output, and DoFinal to a new array: the
// view is the Cipher's scratch, which its next operation overwrites; DoFinal's array is
// the caller's.
func TestDoFinalView(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	key, iv, p := randBytes(r, 16), randBytes(r, 16), randBytes(r, 1000)
	gcmCT := goGCM(t, key, iv[:12], 16).Seal(nil, iv[:12], p, nil)
	for _, tc := range []struct {
		tr       string
		mode     int
		spec     jce.ParamSpec
		in, want []byte
	}{
		{"AES/CBC/PKCS5Padding", jce.EncryptMode, jce.IvParameterSpec{IV: iv}, p, goCBC(t, key, iv, pkcs5(p))},
		{"AES/GCM/NoPadding", jce.DecryptMode, jce.GCMParameterSpec{TLen: 128, IV: iv[:12]}, gcmCT, p},
	} {
		c := newCipher(t, jdk.R25, tc.tr, tc.mode, key, tc.spec)
		kept, err := c.DoFinal(ctx, tc.in)
		if err != nil || !bytes.Equal(kept, tc.want) {
			t.Fatalf("%s: DoFinal = %x, %v; want %x", tc.tr, short(kept), err, short(tc.want))
		}
		view, err := c.DoFinalView(ctx, tc.in)
		if err != nil || !bytes.Equal(view, tc.want) {
			t.Fatalf("%s: DoFinalView = %x, %v; want %x", tc.tr, short(view), err, short(tc.want))
		}
		clear(view) // what the Cipher's next operation would do to its scratch
		if !bytes.Equal(kept, tc.want) {
			t.Errorf("%s: DoFinal's array shares the Cipher's scratch: %x", tc.tr, short(kept))
		}
	}
}
