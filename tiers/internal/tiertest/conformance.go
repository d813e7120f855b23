package tiertest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
)

// Modes the conformance matrix drives.
var Modes = []string{"CBC-enc", "CBC-dec", "ECB-enc", "ECB-dec", "CTR", "GCM-enc", "GCM-dec"}

func blockMode(mode string) bool { return mode[:3] == "CBC" || mode[:3] == "ECB" }

// Case is one conformance check: a mode over n bytes at the given offsets.
type Case struct {
	Mode          string
	KeyLen, N     int
	InOfs, OutOfs int
	InPlace       bool
	Seed          uint64
}

func (c Case) String() string {
	s := fmt.Sprintf("%s/key=%d/n=%d/in=%d/out=%d", c.Mode, 8*c.KeyLen, c.N, c.InOfs, c.OutOfs)
	if c.InPlace {
		s += "/inplace"
	}
	return s
}

// Check runs c through e and through Go's crypto and compares the bytes
// (and the GCM tag).
func Check(tb testing.TB, e *Env, c Case) {
	tb.Helper()
	if blockMode(c.Mode) {
		c.N &^= 15 // the block modes take whole blocks
	}
	rng := rand.New(rand.NewChaCha8([32]byte{byte(c.Seed), byte(c.Seed >> 8), byte(c.N), byte(c.N >> 8), byte(c.N >> 16)}))
	key := make([]byte, c.KeyLen)
	iv := make([]byte, 16)
	src := make([]byte, c.N)
	aad := make([]byte, rng.IntN(40))
	for _, b := range [][]byte{key, iv, src, aad} {
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
	}
	gcmIV := iv[:12]
	if c.N%3 == 1 {
		gcmIV = iv[:8+c.N%9] // non-96-bit IVs through GHASH (SP 800-38D §7.1)
	}
	decrypt := c.Mode == "CBC-dec" || c.Mode == "ECB-dec" || c.Mode == "GCM-dec"

	// Expected output and, for GCM-dec, the ciphertext to feed in.
	var want, wantTag []byte
	input := src
	switch c.Mode {
	case "CBC-enc", "CBC-dec":
		want = goCBC(tb, decrypt, key, iv, src)
	case "ECB-enc", "ECB-dec":
		want = goECB(tb, decrypt, key, src)
	case "CTR":
		want = goCTR(tb, key, iv, src)
	case "GCM-enc":
		sealed := goGCM(tb, key, gcmIV).Seal(nil, gcmIV, src, aad)
		want, wantTag = sealed[:c.N], sealed[c.N:]
	case "GCM-dec":
		sealed := goGCM(tb, key, gcmIV).Seal(nil, gcmIV, src, aad)
		input, wantTag = sealed[:c.N], sealed[c.N:]
		want = src
	}

	ke, kd, err := e.ExpandKey(key)
	if err != nil {
		tb.Fatalf("%v: makeSessionKey: %v", c, err)
	}
	k := ke
	if decrypt && blockMode(c.Mode) {
		k = kd
	}
	inBuf := make([]byte, c.InOfs+c.N+7)
	for i := range inBuf {
		inBuf[i] = 0xa5
	}
	copy(inBuf[c.InOfs:], input)
	outBuf, outOfs := make([]byte, c.OutOfs+c.N+5), c.OutOfs
	for i := range outBuf {
		outBuf[i] = 0x5a
	}
	if c.InPlace {
		outBuf, outOfs = inBuf, c.InOfs
	}
	guard := append([]byte(nil), outBuf...)

	var n int
	var tag []byte
	switch c.Mode {
	case "CBC-enc", "CBC-dec":
		n, err = e.CBC(decrypt, k, iv, inBuf, c.InOfs, c.N, outBuf, outOfs)
	case "ECB-enc", "ECB-dec":
		n, err = e.ECB(decrypt, k, inBuf, c.InOfs, c.N, outBuf, outOfs)
	case "CTR":
		n, err = e.CTR(k, iv, inBuf, c.InOfs, c.N, outBuf, outOfs)
	case "GCM-enc", "GCM-dec":
		tag, err = e.GCM(decrypt, k, gcmIV, aad, inBuf, c.InOfs, c.N, outBuf, outOfs)
		n = c.N
	}
	if err != nil {
		tb.Fatalf("%v: %v", c, err)
	}
	if n != c.N {
		tb.Errorf("%v: returned %d, want %d", c, n, c.N)
	}
	if got := outBuf[outOfs : outOfs+c.N]; !bytes.Equal(got, want) {
		tb.Fatalf("%v: output differs from crypto/cipher at byte %d\n got %s\nwant %s", c, firstDiff(got, want),
			short(got), short(want))
	}
	if !c.InPlace {
		if !bytes.Equal(outBuf[:outOfs], guard[:outOfs]) || !bytes.Equal(outBuf[outOfs+c.N:], guard[outOfs+c.N:]) {
			tb.Fatalf("%v: bytes outside the output range changed", c)
		}
	}
	if wantTag != nil && !bytes.Equal(tag, wantTag) {
		tb.Fatalf("%v: tag %x, want %x", c, tag, wantTag)
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

func short(b []byte) string {
	if len(b) > 48 {
		return hex.EncodeToString(b[:48]) + "..."
	}
	return hex.EncodeToString(b)
}

// FIPS197 checks key expansion against stubs/aes.ExpandKey (the layout
// contract with the native stubs) and the block functions against
// FIPS 197 Appendix C.
func FIPS197(t *testing.T, e *Env) {
	pt, _ := hex.DecodeString("00112233445566778899aabbccddeeff")
	for _, v := range []struct {
		key, ct string
	}{
		{"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
		{"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
		{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
	} {
		key, _ := hex.DecodeString(v.key)
		t.Run(fmt.Sprintf("AES-%d", 8*len(key)), func(t *testing.T) {
			ke, kd, err := e.ExpandKey(key)
			if err != nil {
				t.Fatal(err)
			}
			we, wd, err := stubaes.ExpandKey(key)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ke) != fmt.Sprint(we) || fmt.Sprint(kd) != fmt.Sprint(wd) {
				t.Fatalf("key schedule differs from stubs/aes.ExpandKey\n got %08x\nwant %08x", ke, we)
			}
			out := make([]byte, 16)
			if err := e.Block(false, ke, pt, 0, out, 0); err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(out) != v.ct {
				t.Fatalf("encrypt: %x, want %s", out, v.ct)
			}
			back := make([]byte, 16)
			if err := e.Block(true, kd, out, 0, back, 0); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, pt) {
				t.Fatalf("decrypt: %x, want %x", back, pt)
			}
		})
	}
}

// GCMSpec runs the GCM specification's test cases 1-18, both directions.
func GCMSpec(t *testing.T, e *Env) {
	for _, v := range SpecVectors(t) {
		t.Run(fmt.Sprintf("case=%d", v.Case), func(t *testing.T) {
			ke, _, err := e.ExpandKey(v.K)
			if err != nil {
				t.Fatal(err)
			}
			p := append([]byte{}, v.P...)
			out := make([]byte, len(p))
			tag, err := e.GCM(false, ke, v.IV, v.A, p, 0, len(p), out, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, v.C) || !bytes.Equal(tag, v.T) {
				t.Fatalf("seal: C=%x T=%x, want C=%x T=%x", out, tag, v.C, v.T)
			}
			c := append([]byte{}, v.C...)
			back := make([]byte, len(c))
			tag, err = e.GCM(true, ke, v.IV, v.A, c, 0, len(c), back, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, v.P) || !bytes.Equal(tag, v.T) {
				t.Fatalf("open: P=%x T=%x, want P=%x T=%x", back, tag, v.P, v.T)
			}
		})
	}
}

// Exceptions checks that bad input raises the JDK's exception, not a panic.
func Exceptions(t *testing.T, e *Env) {
	ke, _, err := e.ExpandKey(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"bad key length", func() error { _, _, err := e.ExpandKey(make([]byte, 20)); return err }, "InvalidKeyException"},
		{"block out of range", func() error { return e.Block(false, ke, buf, 60, buf, 0) }, "ArrayIndexOutOfBoundsException"},
		{"ECB partial block", func() error { _, err := e.ECB(false, ke, buf, 0, 17, buf, 0); return err }, "ProviderException"},
		{"CBC out of range", func() error {
			_, err := e.CBC(false, ke, make([]byte, 16), buf, 32, 48, buf, 0)
			return err
		}, "ArrayIndexOutOfBoundsException"},
		{"CTR out of range", func() error { _, err := e.CTR(ke, make([]byte, 16), buf, 0, 65, buf, 0); return err },
			"ArrayIndexOutOfBoundsException"},
	}
	if _, err := e.Table.Lookup("ElectronicCodeBook.encrypt"); err != nil {
		tests = tests[:2] // JDK 8 has no checking wrapper
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			var ex *jrt.Exception
			if !errors.As(err, &ex) {
				t.Fatalf("got %v, want a %s", err, tt.want)
			}
			if !bytes.Contains([]byte(ex.Class), []byte(tt.want)) {
				t.Fatalf("got %s, want %s", ex.Class, tt.want)
			}
		})
	}
}

// Plan says how much of the matrix a level runs.
type Plan struct {
	Profiles []jdk.Release
	MaxLen   int   // every length 0..MaxLen (block modes: multiples of 16)
	Step     int   // stride through 0..MaxLen
	Random   []int // extra lengths
}

// newestFirst lists the releases of s, newest first.
func newestFirst(s jdk.Set) []jdk.Release {
	rs := s.Releases()
	slices.Reverse(rs)
	return rs
}

// DefaultPlan is the matrix for a level: the compiled levels run every
// length to 1024 and random lengths to 1 MiB; level 0 (≈1 MB/s) a stride
// and up to 64 KiB. JITSIM_LONG=1 runs everything on every profile.
func DefaultPlan(level jrt.Level) Plan {
	rng := rand.New(rand.NewPCG(uint64(level), 7))
	// Every release but 8u (its reference code is 8's or 17's), newest first; level 0 only the
	// two newest unless JITSIM_LONG=1.
	p := Plan{Profiles: newestFirst(jdk.AllReleases &^ jdk.Of(jdk.R8u)), MaxLen: 1024, Step: 1}
	if level == jrt.LevelNone {
		p.Step = 37
		p.Random = []int{7680 + 16*rng.IntN(16) + 5}
		if Long() {
			p.Step = 1
			p.Random = append(p.Random, 16<<10, 64<<10, 1+rng.IntN(64<<10))
			p.Profiles = jdk.All()
		}
		if !Long() {
			p.Profiles = p.Profiles[:2]
		}
		return p
	}
	p.Random = []int{7680*2 + 33, 65536 + 6*16 + 3, 1 + rng.IntN(256<<10)}
	if Long() {
		p.Profiles = jdk.All()
		p.Random = append(p.Random, 1<<20, 1<<20+4097, 1+rng.IntN(1<<20), 1+rng.IntN(1<<20))
	} else {
		p.Step = 7
	}
	return p
}

// Matrix runs the modes over the plan's lengths, offsets 0-15 at a few
// lengths, and in-place operation.
func Matrix(t *testing.T, e *Env, plan Plan) {
	keyLens := []int{16, 24, 32}
	for _, mode := range Modes {
		t.Run(mode, func(t *testing.T) {
			i := 0
			for n := 0; n <= plan.MaxLen; n += plan.Step {
				nn := n
				if blockMode(mode) {
					nn = n &^ 15
				}
				Check(t, e, Case{Mode: mode, KeyLen: keyLens[i%3], N: nn, Seed: uint64(i)})
				i++
			}
			for _, n := range plan.Random {
				if blockMode(mode) {
					n &^= 15
				}
				Check(t, e, Case{Mode: mode, KeyLen: keyLens[i%3], N: n, Seed: uint64(i)})
				Check(t, e, Case{Mode: mode, KeyLen: keyLens[i%3], N: n, InOfs: 3, InPlace: true, Seed: uint64(i)})
				i++
			}
			lens := []int{0, 1, 17, 100}
			if blockMode(mode) {
				lens = []int{0, 16, 48}
			}
			for _, n := range lens {
				for off := range 16 {
					Check(t, e, Case{Mode: mode, KeyLen: keyLens[off%3], N: n, InOfs: off, OutOfs: 15 - off, Seed: uint64(off)})
				}
				Check(t, e, Case{Mode: mode, KeyLen: 16, N: n, InOfs: 5, InPlace: true, Seed: 99})
				Check(t, e, Case{Mode: mode, KeyLen: 32, N: n + 1024, InPlace: true, Seed: 98})
			}
		})
	}
}

// ConformanceInlined is Conformance with every call inlined (levels 1 and
// 4: the inline modules), plus the check that an exception thrown inside
// an inlined callee names the same method, class and detail as when the
// call goes through the host.
func ConformanceInlined(t *testing.T, level jrt.Level, tier jrt.Tier) {
	plan := DefaultPlan(level)
	for _, p := range plan.Profiles {
		t.Run("jdk="+p.String(), func(t *testing.T) {
			t.Parallel()
			e := NewEnv(t, p, level, tier)
			e.Inlining = true
			t.Run("FIPS197", func(t *testing.T) { FIPS197(t, e) })
			t.Run("GCMSpec", func(t *testing.T) { GCMSpec(t, e) })
			t.Run("Exceptions", func(t *testing.T) { Exceptions(t, e) })
			t.Run("ThrowerNamed", func(t *testing.T) { InlinedThrower(t, NewEnv(t, p, level, tier), e) })
			t.Run("Matrix", func(t *testing.T) { Matrix(t, e, plan) })
		})
	}
}

// InlinedThrower calls methods whose callees throw (a bad key length reaches
// the AES block method; a bad counter reaches CounterMode.implCrypt) in
// plain and inlining and compares the exceptions.
func InlinedThrower(t *testing.T, plain, inl *Env) {
	buf := make([]byte, 64)
	badKey := make([]uint32, 10)
	calls := []struct {
		key  string
		args []jrt.Arg
	}{
		{"ElectronicCodeBook.implECBEncrypt", []jrt.Arg{bytecode.IntsArg(badKey), bytecode.BytesArg(buf), bytecode.IntArg(0), bytecode.IntArg(32), bytecode.BytesArg(buf), bytecode.IntArg(0)}},
		{"CipherBlockChaining.implDecrypt", []jrt.Arg{bytecode.IntsArg(badKey), bytecode.BytesArg(make([]byte, 16)), bytecode.BytesArg(buf), bytecode.IntArg(0), bytecode.IntArg(32), bytecode.BytesArg(make([]byte, 64)), bytecode.IntArg(0)}},
		{"GCTR.update", []jrt.Arg{bytecode.IntsArg(badKey), bytecode.BytesArg(make([]byte, 16)), bytecode.BytesArg(make([]byte, 16)), bytecode.IntsArg([]uint32{16}),
			bytecode.BytesArg(buf), bytecode.IntArg(0), bytecode.IntArg(32), bytecode.BytesArg(make([]byte, 64)), bytecode.IntArg(0)}},
		{"CounterMode.crypt", []jrt.Arg{bytecode.IntsArg(badKey), bytecode.BytesArg(make([]byte, 12)), bytecode.BytesArg(make([]byte, 16)), bytecode.IntsArg([]uint32{16}),
			bytecode.BytesArg(buf), bytecode.IntArg(0), bytecode.IntArg(32), bytecode.BytesArg(make([]byte, 64)), bytecode.IntArg(0)}},
	}
	for _, c := range calls {
		if _, err := plain.Table.Lookup(c.key); err != nil {
			continue
		}
		t.Run(c.key, func(t *testing.T) {
			_, perr := plain.Call(c.key, c.args...)
			_, ierr := inl.Call(c.key, c.args...)
			var pe, ie *jrt.Exception
			if !errors.As(perr, &pe) || !errors.As(ierr, &ie) {
				t.Fatalf("want exceptions, got %v (host calls) and %v (inlined)", perr, ierr)
			}
			if pe.Method != ie.Method || pe.Class != ie.Class || pe.Detail != ie.Detail {
				t.Fatalf("inlined call threw %s %s (%d), host calls %s %s (%d)", ie.Method, ie.Class, ie.Detail, pe.Method, pe.Class, pe.Detail)
			}
		})
	}
}

// Conformance runs FIPS 197, the GCM spec vectors, the exception checks and
// the mode matrix for every profile of the level's plan, profiles in
// parallel. With JITSIM_LONG=1 the matrix takes tens of minutes on a loaded
// 2-vCPU machine: run it with -timeout 0.
func Conformance(t *testing.T, level jrt.Level, tier jrt.Tier) {
	plan := DefaultPlan(level)
	for _, p := range plan.Profiles {
		t.Run("jdk="+p.String(), func(t *testing.T) {
			t.Parallel()
			e := NewEnv(t, p, level, tier)
			t.Run("FIPS197", func(t *testing.T) { FIPS197(t, e) })
			t.Run("GCMSpec", func(t *testing.T) { GCMSpec(t, e) })
			t.Run("Exceptions", func(t *testing.T) { Exceptions(t, e) })
			t.Run("Matrix", func(t *testing.T) { Matrix(t, e, plan) })
		})
	}
}
