package tiers_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"testing"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/bytecode"
	"github.com/jitsim/jitsim/tiers/internal/tiertest"
)

// TestInliningHostCalls checks that inlining removes the host hops: CTR
// over 64 blocks from CounterMode.crypt makes 1 + 64 calls through the
// router when nothing is inlined (implCrypt, then encryptBlock per block)
// and none when every call is inlined, at levels 1 and 4; levels 0, 2 and
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
				e := tiertest.NewEnv(t, bytecode.JDK25, level, tierFor(level))
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
				if inlining && (level == 1 || level == 4) {
					wantCalls = 0
				}
				if got := e.HostCalls.Load(); got != wantCalls {
					t.Errorf("%d calls through the router, want %d", got, wantCalls)
				}
			})
		}
	}
}
