package tiers_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

func tierFor(level jrt.Level) jrt.Tier {
	for _, t := range tiers.Default() {
		for _, l := range t.Levels() {
			if l == level {
				return t
			}
		}
	}
	panic(fmt.Sprintf("BUG: no tier for level %d", level))
}

// TestBackedgeCounts checks that the counting builds count every taken
// back-branch (= loop trip count) and every invocation, and that levels 1
// and 4 count nothing.
func TestBackedgeCounts(t *testing.T) {
	for _, level := range []jrt.Level{0, 1, 2, 3, 4} {
		t.Run(fmt.Sprintf("level=%d", level), func(t *testing.T) {
			e := tiertest.NewEnv(t, jdk.R25, level, tierFor(level))
			counts := func(key string) jrt.Counters {
				c, err := e.Code(key)
				if err != nil {
					t.Fatal(err)
				}
				return c.Counters()
			}
			ke, _, err := e.ExpandKey(make([]byte, 16))
			if err != nil {
				t.Fatal(err)
			}
			counting := level == 0 || level == 2 || level == 3
			want := func(key string, inv, be uint64) {
				t.Helper()
				got := counts(key)
				if !counting {
					inv, be = 0, 0
				}
				if got.Invocations != inv || got.Backedges != be {
					t.Errorf("%s: %d invocations, %d back-edges; want %d, %d", key, got.Invocations, got.Backedges, inv, be)
				}
			}
			// CounterMode.implCrypt: one back-edge per byte; a zero counter
			// never carries within 255 blocks, so the increment loop adds none.
			const n = 1000
			buf := make([]byte, n)
			if _, err := e.CTR(ke, make([]byte, 16), buf, 0, n, buf, 0); err != nil {
				t.Fatal(err)
			}
			blocks := uint64((n + 15) / 16)
			want("CounterMode.implCrypt", 1, n)
			want("CounterMode.crypt", 1, 0)
			// AESCrypt.implEncryptBlock: 4 round-pair trips per AES-128 block.
			want("AESCrypt.implEncryptBlock", blocks, 4*blocks)
			// ECB with AES-256: 6 trips per block.
			ke256, _, err := e.ExpandKey(make([]byte, 32))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.ECB(false, ke256, buf, 0, 960, buf, 0); err != nil {
				t.Fatal(err)
			}
			want("ElectronicCodeBook.implECBEncrypt", 1, 60)
			want("ElectronicCodeBook.encrypt", 1, 0)
			want("AESCrypt.implEncryptBlock", blocks+60, 4*blocks+6*60)
		})
	}
}

// TestProfileRecorded checks that level 3 (and the interpreter) record the
// branch and call-site profile and levels 1, 2 and 4 do not.
func TestProfileRecorded(t *testing.T) {
	for _, level := range []jrt.Level{0, 1, 2, 3, 4} {
		t.Run(fmt.Sprintf("level=%d", level), func(t *testing.T) {
			e := tiertest.NewEnv(t, jdk.R25, level, tierFor(level))
			ke, _, err := e.ExpandKey(make([]byte, 16))
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 100)
			if _, err := e.CTR(ke, make([]byte, 16), buf, 0, 100, buf, 0); err != nil {
				t.Fatal(err)
			}
			c, _ := e.Code("CounterMode.implCrypt")
			p := c.Profile()
			// branch 0 is "used >= blockSize": taken 7 times, not taken 93
			got := [2]uint64{p.Branches[0][0], p.Branches[0][1]}
			want := [2]uint64{7, 93}
			if level != 0 && level != 3 {
				want = [2]uint64{}
			}
			if got != want || (level == 0 || level == 3) != (p.Sites[0] == 7) {
				t.Errorf("branch 0 %v, site 0 %d; want %v and %v", got, p.Sites[0], want, level == 0 || level == 3)
			}
		})
	}
}

// TestOSR interrupts loops at back-edge notification points (every 2^k
// back-edges) and continues them through the OSR entry of another level's
// build; the bytes must equal an uninterrupted run (checked against
// crypto/cipher by tiertest.Check). With inlining, the target levels 1, 2
// and 4 resume in their inline modules and level 2 is interrupted in its
// own (Limited) inline module.
func TestOSR(t *testing.T) {
	pairs := []struct{ from, to jrt.Level }{{0, 4}, {0, 3}, {3, 4}, {2, 1}, {0, 0}, {3, 3}}
	for _, profile := range []jdk.Release{jdk.R8, jdk.R25} {
		for _, pr := range pairs {
			for _, inlining := range []bool{false, true} {
				t.Run(fmt.Sprintf("jdk=%s/%d->%d/inlining=%v", profile, pr.from, pr.to, inlining), func(t *testing.T) {
					target := tiertest.NewEnv(t, profile, pr.to, tierFor(pr.to))
					e := tiertest.NewEnv(t, profile, pr.from, tierFor(pr.from))
					target.Inlining, e.Inlining = inlining, inlining
					var notes, moved atomic.Int64
					seen := sync.Map{}
					e.NotifyLog = 3
					e.OnBackedge = func(ctx context.Context, code jrt.Code, loop int, c jrt.Counters) (jrt.Code, error) {
						notes.Add(1)
						seen.Store(code.Method().Key, true)
						if pr.from == pr.to {
							return nil, nil // continue in place through the OSR entry
						}
						moved.Add(1)
						return target.Code(code.Method().Key)
					}
					for i, mode := range tiertest.Modes {
						tiertest.Check(t, e, tiertest.Case{Mode: mode, KeyLen: 16 + 8*(i%3), N: 333 + 16*i, InOfs: i, OutOfs: 1, Seed: uint64(i)})
						tiertest.Check(t, e, tiertest.Case{Mode: mode, KeyLen: 16, N: 1000, InOfs: 2, InPlace: true, Seed: 9})
					}
					// On JDK 9+ every loop the modes reach sits in a callee of the
					// method they call, so at level 2 with inlining no loop counts.
					if notes.Load() == 0 && !(inlining && pr.from == 2 && profile != jdk.R8) {
						t.Fatal("no back-edge notification happened")
					}
					var keys []string
					seen.Range(func(k, _ any) bool { keys = append(keys, k.(string)); return true })
					t.Logf("%d notifications, %d moved; methods: %v", notes.Load(), moved.Load(), keys)
					// every OSR-capable method the modes reach must have been
					// interrupted (an inlined loop counts nothing: not at level 2
					// with inlining)
					for _, m := range e.Table.Methods() {
						if _, ok := seen.Load(m.Key); m.OSR && !ok && reached(m.Key, profile) && !(inlining && pr.from == 2) {
							t.Errorf("%s was never interrupted", m.Key)
						}
					}
				})
			}
		}
	}
}

// reached says whether the conformance modes call method key in profile.
func reached(key string, profile jdk.Release) bool {
	switch key {
	case "GHASH.processBlocks":
		return profile != jdk.R8
	case "GCTR.update":
		// JDK 9+ loops here only when the 32-bit counter rolls over
		// (TestGCTRRollover); otherwise it hands over to implCrypt.
		return profile == jdk.R8 || profile == jdk.R8u
	}
	return true
}

// TestNotificationFrequency checks that a loop notifies every 2^k back-edges.
func TestNotificationFrequency(t *testing.T) {
	e := tiertest.NewEnv(t, jdk.R25, 0, tierFor(0))
	var notes []uint64
	e.NotifyLog = 5
	e.OnBackedge = func(ctx context.Context, code jrt.Code, loop int, c jrt.Counters) (jrt.Code, error) {
		if code.Method().Key == "CounterMode.implCrypt" {
			notes = append(notes, c.Backedges)
		}
		return nil, nil
	}
	ke, _, err := e.ExpandKey(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 200)
	if _, err := e.CTR(ke, make([]byte, 16), buf, 0, 200, buf, 0); err != nil {
		t.Fatal(err)
	}
	want := []uint64{32, 64, 96, 128, 160, 192}
	if fmt.Sprint(notes) != fmt.Sprint(want) {
		t.Fatalf("notified at back-edge counts %v, want %v", notes, want)
	}
}

// TestConcurrent calls the same methods from 8 goroutines at once (run it
// with -race).
func TestConcurrent(t *testing.T) {
	levels := []jrt.Level{3, 4}
	if tiertest.Long() {
		levels = append(levels, 0, 1, 2)
	}
	for _, level := range levels {
		t.Run(fmt.Sprintf("level=%d", level), func(t *testing.T) {
			e := tiertest.NewEnv(t, jdk.R25, level, tierFor(level))
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i, mode := range tiertest.Modes {
						n := 100 + 600*g + 16*i
						if level == 0 {
							n /= 8
						}
						tiertest.Check(t, e, tiertest.Case{Mode: mode, KeyLen: 16 + 8*(g%3), N: n, InOfs: g, OutOfs: i, Seed: uint64(g*10 + i)})
					}
				}()
			}
			wg.Wait()
		})
	}
}

// TestGCTRRollover drives GCTR.update across a 32-bit counter wrap, where
// the JDK 9+ body loops itself with increment32 instead of calling
// CounterMode.implCrypt, and checks it against AES (crypto/aes) in GCM's
// counter mode (SP 800-38D §6.5), with OSR moves on the way.
func TestGCTRRollover(t *testing.T) {
	for _, profile := range []jdk.Release{jdk.R8, jdk.R25} {
		for _, level := range []jrt.Level{0, 3, 4} {
			t.Run(fmt.Sprintf("jdk=%s/level=%d", profile, level), func(t *testing.T) {
				e := tiertest.NewEnv(t, profile, level, tierFor(level))
				target := tiertest.NewEnv(t, profile, 4, tierFor(4))
				var moved atomic.Int64
				e.NotifyLog = 2
				e.OnBackedge = func(ctx context.Context, code jrt.Code, loop int, c jrt.Counters) (jrt.Code, error) {
					if code.Method().Key == "GCTR.update" {
						moved.Add(1)
					}
					return target.Code(code.Method().Key)
				}
				key := []byte("0123456789abcdef")
				ke, _, err := e.ExpandKey(key)
				if err != nil {
					t.Fatal(err)
				}
				counter := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff, 0xff, 0xff, 0xf9}
				in := make([]byte, 20*16)
				for i := range in {
					in[i] = byte(i * 7)
				}
				out := make([]byte, len(in))
				want := tiertest.GCTRReference(t, key, counter, in)
				ctr := append([]byte(nil), counter...)
				if _, err := e.Call("GCTR.update", bytecode.IntsArg(ke), bytecode.BytesArg(ctr), bytecode.BytesArg(make([]byte, 16)), bytecode.IntsArg([]uint32{16}),
					bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.IntArg(len(in)), bytecode.BytesArg(out), bytecode.IntArg(0)); err != nil {
					t.Fatal(err)
				}
				if fmt.Sprintf("%x", out) != fmt.Sprintf("%x", want) {
					t.Fatalf("GCTR across the 32-bit wrap:\n got %x\nwant %x", out, want)
				}
				if wantCtr := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 13}; fmt.Sprint(ctr) != fmt.Sprint(wantCtr) {
					t.Errorf("counter after: %x, want %x", ctr, wantCtr)
				}
				if (level == 0 || level == 3) && moved.Load() == 0 {
					t.Error("GCTR.update was never interrupted")
				}
			})
		}
	}
}
