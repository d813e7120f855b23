package tiers_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

// benchSize is the payload of the per-method benchmarks.
const benchSize = 16 << 10

// benchMethod is one benchmarked method: how to call it through an Env,
// and its two peers.
type benchMethod struct {
	key      string
	size     int
	call     func(e *tiertest.Env, s *benchState) error
	portable func(s *benchState)
	stdlib   func(s *benchState)
}

type benchState struct {
	key          []byte
	ke, kd       []uint32
	iv, in, out  []byte
	h            [2]uint64
	blk          cipher.Block
	gcm          cipher.AEAD
	counter, ect []byte
}

func newBenchState(tb testing.TB, size int) *benchState {
	s := &benchState{key: []byte("0123456789abcdef"), iv: make([]byte, 16), in: make([]byte, size), out: make([]byte, size)}
	for i := range s.in {
		s.in[i] = byte(i)
	}
	var err error
	if s.ke, s.kd, err = stubaes.ExpandKey(s.key); err != nil {
		tb.Fatal(err)
	}
	s.blk, _ = aes.NewCipher(s.key)
	s.gcm, _ = cipher.NewGCM(s.blk)
	var hb [16]byte
	s.blk.Encrypt(hb[:], hb[:])
	s.h = [2]uint64{binary.BigEndian.Uint64(hb[:]), binary.BigEndian.Uint64(hb[8:])}
	s.counter, s.ect = make([]byte, 16), make([]byte, 16)
	return s
}

var benchMethods = []benchMethod{
	{key: "AESCrypt.implEncryptBlock", size: 16,
		call:     func(e *tiertest.Env, s *benchState) error { return e.Block(false, s.ke, s.in, 0, s.out, 0) },
		portable: func(s *benchState) { ptBlock(false, s.ke, s.out, s.in) },
		stdlib:   func(s *benchState) { s.blk.Encrypt(s.out, s.in) }},
	{key: "CipherBlockChaining.implEncrypt", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			_, err := e.Call("CipherBlockChaining.implEncrypt", bytecode.IntsArg(s.ke), bytecode.BytesArg(s.iv), bytecode.BytesArg(s.in), bytecode.IntArg(0),
				bytecode.IntArg(len(s.in)), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		},
		portable: func(s *benchState) { ptCBCEncrypt(s.ke, s.iv, s.in, s.out) },
		stdlib:   func(s *benchState) { cipher.NewCBCEncrypter(s.blk, s.iv).CryptBlocks(s.out, s.in) }},
	{key: "CipherBlockChaining.implDecrypt", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			_, err := e.Call("CipherBlockChaining.implDecrypt", bytecode.IntsArg(s.kd), bytecode.BytesArg(s.iv), bytecode.BytesArg(s.in), bytecode.IntArg(0),
				bytecode.IntArg(len(s.in)), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		},
		portable: func(s *benchState) { ptCBCDecrypt(s.kd, s.iv, s.in, s.out) },
		stdlib:   func(s *benchState) { cipher.NewCBCDecrypter(s.blk, s.iv).CryptBlocks(s.out, s.in) }},
	{key: "ElectronicCodeBook.implECBEncrypt", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			_, err := e.Call("ElectronicCodeBook.implECBEncrypt", bytecode.IntsArg(s.ke), bytecode.BytesArg(s.in), bytecode.IntArg(0),
				bytecode.IntArg(len(s.in)), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		},
		portable: func(s *benchState) { ptECB(false, s.ke, s.in, s.out) },
		stdlib: func(s *benchState) {
			for i := 0; i < len(s.in); i += 16 {
				s.blk.Encrypt(s.out[i:], s.in[i:])
			}
		}},
	{key: "CounterMode.implCrypt", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			_, err := e.Call("CounterMode.implCrypt", bytecode.IntsArg(s.ke), bytecode.BytesArg(s.counter), bytecode.BytesArg(s.ect), bytecode.IntsArg([]uint32{16}),
				bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(len(s.in)), bytecode.BytesArg(s.out), bytecode.IntArg(0))
			return err
		},
		portable: func(s *benchState) { u := 16; ptCTR(s.ke, s.counter, s.ect, &u, s.in, s.out) },
		stdlib:   func(s *benchState) { cipher.NewCTR(s.blk, s.iv).XORKeyStream(s.out, s.in) }},
	{key: "GHASH.processBlocks", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			st := []uint64{0, 0}
			_, err := e.Call("GHASH.processBlocks", bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(len(s.in)/16), bytecode.LongsArg(st), bytecode.LongsArg(s.h[:]))
			return err
		},
		portable: func(s *benchState) { var st [2]uint64; ptGHASH(&st, s.h, s.in) },
		// GHASH alone in the standard library: a GCM seal of AAD only.
		stdlib: func(s *benchState) { s.gcm.Seal(s.out[:0], s.iv[:12], nil, s.in) }},
	{key: "GaloisCounterMode.implGCMCrypt0", size: benchSize,
		call: func(e *tiertest.Env, s *benchState) error {
			st := []uint64{0, 0}
			_, err := e.Call("GaloisCounterMode.implGCMCrypt0", bytecode.BytesArg(s.in), bytecode.IntArg(0), bytecode.IntArg(len(s.in)),
				bytecode.BytesArg(s.out), bytecode.IntArg(0), bytecode.BytesArg(s.out), bytecode.IntArg(0),
				bytecode.IntsArg(s.ke), bytecode.BytesArg(s.counter), bytecode.BytesArg(s.ect), bytecode.IntsArg([]uint32{16}), bytecode.LongsArg(st), bytecode.LongsArg(s.h[:]))
			return err
		},
		portable: func(s *benchState) {
			var st [2]uint64
			ptGCTR(s.ke, s.counter, s.in, s.out)
			ptGHASH(&st, s.h, s.out)
		},
		stdlib: func(s *benchState) { s.gcm.Seal(s.out[:0], s.iv[:12], s.in[:len(s.in)-16], nil) }},
}

// BenchmarkMethod measures every method at every level (callees at the
// same level, routed through the test router) on JDK 25's bodies, beside
// the portable Go peer and crypto/aes. Level 0 runs at about 1 MB/s: use a
// short -benchtime (e.g. -benchtime=200ms) and -count >= 6; -count
// interleaves the variants.
func BenchmarkMethod(b *testing.B) {
	envs := map[jrt.Level]*tiertest.Env{}
	for _, m := range benchMethods {
		b.Run("method="+m.key, func(b *testing.B) {
			for _, level := range []jrt.Level{0, 1, 2, 3, 4} {
				b.Run(fmt.Sprintf("level=%d/size=%d", level, m.size), func(b *testing.B) {
					e := envs[level]
					if e == nil {
						e = tiertest.NewEnv(b, jdk.R25, level, tierFor(level))
						envs[level] = e
					}
					s := newBenchState(b, m.size)
					if err := m.call(e, s); err != nil { // compile and warm the pool
						b.Fatal(err)
					}
					loopWithCPU(b, m.size, func() error { return m.call(e, s) })
				})
			}
			b.Run(fmt.Sprintf("impl=goportable/size=%d", m.size), func(b *testing.B) {
				s := newBenchState(b, m.size)
				loopWithCPU(b, m.size, func() error { m.portable(s); return nil })
			})
			b.Run(fmt.Sprintf("impl=stdlib/size=%d", m.size), func(b *testing.B) {
				s := newBenchState(b, m.size)
				loopWithCPU(b, m.size, func() error { m.stdlib(s); return nil })
			})
		})
	}
}

// BenchmarkCompile measures one real compile per iteration (fresh wazero
// runtime, no cache) of each method for C1 (level 3's build) and C2, and
// reports the method's bytecode size beside it, so compile time can be
// read as a function of size.
func BenchmarkCompile(b *testing.B) {
	tab, err := bytecode.ForProfile(jdk.R25)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range tab.Methods() {
		for _, level := range []jrt.Level{0, 1, 3, 4} {
			b.Run(fmt.Sprintf("method=%s/level=%d", m.Key, level), func(b *testing.B) {
				tier := tierFor(level)
				req := jrt.CompileRequest{Method: m, Level: level, Table: tab,
					Router: jrt.RouterFunc(func(context.Context, jrt.Site, []jrt.Arg) (int64, error) { return 0, nil })}
				var total time.Duration
				for b.Loop() {
					c, err := tier.Compile(context.Background(), req)
					if err != nil {
						b.Fatal(err)
					}
					total += c.CompileTime()
					_ = c.Close(context.Background())
				}
				b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/1e3, "compile-µs")
				b.ReportMetric(float64(m.Size), "bytecode-bytes")
			})
		}
	}
}

// TestPortablePeer checks the benchmarks' Go peer against crypto/cipher,
// so that the peer measures a correct implementation.
func TestPortablePeer(t *testing.T) {
	s := newBenchState(t, 4096)
	want := make([]byte, len(s.in))
	cipher.NewCBCEncrypter(s.blk, s.iv).CryptBlocks(want, s.in)
	ptCBCEncrypt(s.ke, append([]byte(nil), s.iv...), s.in, s.out)
	if !bytes.Equal(s.out, want) {
		t.Fatal("portable CBC encrypt differs")
	}
	back := make([]byte, len(s.in))
	ptCBCDecrypt(s.kd, append([]byte(nil), s.iv...), want, back)
	if !bytes.Equal(back, s.in) {
		t.Fatal("portable CBC decrypt differs")
	}
	cipher.NewCTR(s.blk, s.iv).XORKeyStream(want, s.in)
	u := 16
	ptCTR(s.ke, append([]byte(nil), s.iv...), make([]byte, 16), &u, s.in, s.out)
	if !bytes.Equal(s.out, want) {
		t.Fatal("portable CTR differs")
	}
	// GCM = GCTR from inc32(J0) + GHASH over the ciphertext and lengths.
	sealed := s.gcm.Seal(nil, s.iv[:12], s.in, nil)
	j0 := append(append([]byte(nil), s.iv[:12]...), 0, 0, 0, 1)
	ctr := append([]byte(nil), j0...)
	ctr[15] = 2
	ptGCTR(s.ke, ctr, s.in, s.out)
	if !bytes.Equal(s.out, sealed[:len(s.in)]) {
		t.Fatal("portable GCTR differs")
	}
	var st [2]uint64
	ptGHASH(&st, s.h, s.out)
	lb := make([]byte, 16)
	binary.BigEndian.PutUint64(lb[8:], uint64(len(s.in))*8)
	ptGHASH(&st, s.h, lb)
	tag := make([]byte, 16)
	s.blk.Encrypt(tag, j0)
	for i := range 8 {
		tag[i] ^= byte(st[0] >> (56 - 8*i))
		tag[8+i] ^= byte(st[1] >> (56 - 8*i))
	}
	if !bytes.Equal(tag, sealed[len(s.in):]) {
		t.Fatal("portable GHASH differs")
	}
}

// BenchmarkProfilingOverhead isolates what levels 2 and 3 execute on top of
// level 1: the caller (CounterMode.implCrypt's byte loop, or
// GHASH.processBlocks' block loop) runs at the level under test while its
// callees run at level 4 in every variant, so only the caller's build
// differs: none (level 1), counters (2), counters + branch and call-site
// profile (3).
func BenchmarkProfilingOverhead(b *testing.B) {
	for _, m := range benchMethods {
		if m.key != "CounterMode.implCrypt" && m.key != "GHASH.processBlocks" {
			continue
		}
		for _, level := range []jrt.Level{1, 2, 3, 4} {
			b.Run(fmt.Sprintf("method=%s/level=%d/size=%d", m.key, level, m.size), func(b *testing.B) {
				e := tiertest.NewEnv(b, jdk.R25, 4, tierFor(4))
				e.Tiers = map[jrt.Level]jrt.Tier{level: tierFor(level), 4: tierFor(4)}
				e.LevelOf = func(key string) jrt.Level {
					if key == m.key {
						return level
					}
					return 4
				}
				s := newBenchState(b, m.size)
				if err := m.call(e, s); err != nil {
					b.Fatal(err)
				}
				loopWithCPU(b, m.size, func() error { return m.call(e, s) })
			})
		}
	}
}

// cpuClock reports the process's user+system CPU time: on this shared,
// oversubscribed machine wall time per op swings 2x with other tenants'
// load, while CPU time per op measures the work itself. Benchmarks report
// both (cpu-MB/s beside MB/s).
func cpuClock() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopWithCPU runs f b.N times (b.Loop) and reports CPU-time throughput.
func loopWithCPU(b *testing.B, size int, f func() error) {
	b.SetBytes(int64(size))
	start := cpuClock()
	n := 0
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	cpu := cpuClock() - start
	if cpu > 0 && n > 0 {
		b.ReportMetric(float64(size)*float64(n)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}
