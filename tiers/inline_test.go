package tiers_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/runtime/model"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

// TestInliningHostCalls checks that inlining removes the host hops: CTR
// over 64 blocks from CounterMode.crypt makes 1 + 64 calls through the
// router when nothing is inlined (implCrypt, then encryptBlock per block)
// and none when every call is inlined, at levels 1, 2 and 4; levels 0 and
// 3 never use the inline modules. The bytes equal crypto/cipher's.
func TestInliningHostCalls(t *testing.T) {
	key, iv := make([]byte, 16), make([]byte, 16)
	for i := range key {
		key[i], iv[i] = byte(i), byte(0xf0+i)
	}
	const n = 64 * 16
	in := make([]byte, n)
	for i := range in {
		in[i] = byte(i * 3)
	}
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, n)
	cipher.NewCTR(blk, iv).XORKeyStream(want, in)
	for _, level := range []jrt.Level{0, 1, 2, 3, 4} {
		for _, inlining := range []bool{false, true} {
			t.Run(fmt.Sprintf("level=%d/inlining=%v", level, inlining), func(t *testing.T) {
				e := tiertest.NewEnv(t, jdk.R25, level, tierFor(level))
				e.Inlining = inlining
				ke, _, err := e.ExpandKey(key)
				if err != nil {
					t.Fatal(err)
				}
				e.HostCalls.Store(0)
				out := make([]byte, n)
				if _, err := e.CTR(ke, iv, in, 0, n, out, 0); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out, want) {
					t.Fatalf("CTR output differs from crypto/cipher's")
				}
				wantCalls := int64(1 + n/16)
				if inlining && level != 0 && level != 3 {
					wantCalls = 0
				}
				if got := e.HostCalls.Load(); got != wantCalls {
					t.Errorf("%d calls through the router, want %d", got, wantCalls)
				}
			})
		}
	}
}

// TestInliningCharge checks the model clock's hook: with Charge set, every
// inlined call reports its callee and payload bytes before it runs — CTR
// over 64 blocks from CounterMode.crypt reports implCrypt once with the
// length and the AES block method 64 times with 16 bytes — and without it
// nothing is reported.
func TestInliningCharge(t *testing.T) {
	const n = 64 * 16
	for _, level := range []jrt.Level{1, 2, 4} {
		for _, charging := range []bool{false, true} {
			t.Run(fmt.Sprintf("level=%d/charge=%v", level, charging), func(t *testing.T) {
				e := tiertest.NewEnv(t, jdk.R25, level, tierFor(level))
				e.Inlining = true
				got := map[string][]int{}
				if charging {
					e.Charge = func(callee *jrt.Method, l jrt.Level, payload int) error {
						if l != level {
							t.Errorf("%s charged at level %d, want %d", callee.Key, l, level)
						}
						got[callee.Key] = append(got[callee.Key], payload)
						return nil
					}
				}
				ke, _, err := e.ExpandKey(make([]byte, 16))
				if err != nil {
					t.Fatal(err)
				}
				buf := make([]byte, n)
				if _, err := e.CTR(ke, make([]byte, 16), buf, 0, n, buf, 0); err != nil {
					t.Fatal(err)
				}
				want := map[string][]int{}
				if charging {
					want["CounterMode.implCrypt"] = []int{n}
					for range n / 16 {
						want["AESCrypt.implEncryptBlock"] = append(want["AESCrypt.implEncryptBlock"], 16)
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("reports %v, want %v", got, want)
				}
			})
		}
	}
}

// TestInliningChargeError checks that an error from the charge hook fails
// the call with that error.
func TestInliningChargeError(t *testing.T) {
	e := tiertest.NewEnv(t, jdk.R25, 4, tierFor(4))
	e.Inlining = true
	ke, _, err := e.ExpandKey(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	refused := errors.New("model clock: no turn")
	e.Charge = func(*jrt.Method, jrt.Level, int) error { return refused }
	buf := make([]byte, 32)
	if _, err := e.CTR(ke, make([]byte, 16), buf, 0, 32, buf, 0); !errors.Is(err, refused) {
		t.Fatalf("got %v, want the charge hook's error", err)
	}
}

// TestInliningChargeIsTheProfilesBody checks that an inlined call reports
// the payload of its callee's body in the caller's own JDK profile: a GCM
// message at level 4 with every call inlined reports GCTR.update with no
// bytes on JDK 17 (its body hands the range to CounterMode.implCrypt, which
// reports them) and with the length on JDK 8u (its body is the per-block
// loop) — model.Payload of each profile's method.
func TestInliningChargeIsTheProfilesBody(t *testing.T) {
	const n = 4096
	for _, tc := range []struct {
		profile jdk.Release
		gctr    bool // GCTR.update reports the message's bytes
	}{{jdk.R8u, true}, {jdk.R17, false}} {
		t.Run(tc.profile.String(), func(t *testing.T) {
			e := tiertest.NewEnv(t, tc.profile, 4, tierFor(4))
			e.Inlining = true
			got, calls := map[string]int{}, map[string]int{}
			e.Charge = func(callee *jrt.Method, _ jrt.Level, payload int) error {
				calls[callee.Key]++
				want, err := model.Payload(callee, func(int) int64 { return 0 })
				if err == nil && model.PayloadRuleOf(callee).Param < 0 && payload != want {
					t.Errorf("%s (%s body) reported %d bytes, its rule says %d", callee.Key, callee.Module, payload, want)
				}
				got[callee.Key] += payload
				return nil
			}
			ke, _, err := e.ExpandKey(make([]byte, 16))
			if err != nil {
				t.Fatal(err)
			}
			in, out := make([]byte, n), make([]byte, n+16)
			if _, err := e.GCM(false, ke, make([]byte, 12), nil, in, 0, n, out, 0); err != nil {
				t.Fatal(err)
			}
			if (got["GCTR.update"] >= n) != tc.gctr {
				t.Errorf("GCTR.update reported %d bytes for a %d-byte message; want them reported: %v (all reports %v)", got["GCTR.update"], n, tc.gctr, got)
			}
			// JDK 17's processBlock makes one blockMult call per block: the counts
			// survive the code's list of runs filling up (src/jvm.h INLINE_CHARGES).
			if pb, bm := calls["GHASH.processBlock"], calls["GHASH.blockMult"]; tc.profile == jdk.R17 && (pb != bm || bm < n/16) {
				t.Errorf("%d processBlock and %d blockMult calls reported for %d blocks, want one each per block", pb, bm, n/16)
			}
		})
	}
}
