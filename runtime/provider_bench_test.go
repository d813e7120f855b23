package runtime_test

import (
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
)

// BenchmarkProviderGCM seals a message through the provider with every
// method at level 1 (C1 code, no intrinsics), per JDK profile, next to
// crypto/cipher as the peer: it shows what the provider's routing costs
// in calls into the reference code (per-block calls on JDK 8, one
// CounterMode.implCrypt from 17 on).
func BenchmarkProviderGCM(b *testing.B) {
	key, iv := make([]byte, 16), make([]byte, 12)
	for _, size := range []int{1024, 16384} {
		p := make([]byte, size)
		for _, jdk := range jdk.Names() {
			b.Run(fmt.Sprintf("size=%d/jdk=%s", size, jdk), func(b *testing.B) {
				v := vmFor(b, jdk)
				c, err := jrt.GetInstance(v, jdk, "AES/GCM/NoPadding")
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				for i := 0; b.Loop(); i++ {
					iv[0], iv[1], iv[2] = byte(i), byte(i>>8), byte(i>>16) // a new IV per encryption
					if err := c.Init(ctx, jrt.EncryptMode, key, jrt.GCMParameterSpec{TLen: 128, IV: iv}); err != nil {
						b.Fatal(err)
					}
					if _, err := c.DoFinal(ctx, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("size=%d/peer=crypto-cipher", size), func(b *testing.B) {
			g := goGCM(b, key, iv, 16)
			b.SetBytes(int64(size))
			for b.Loop() {
				g.Seal(nil, iv, p, nil)
			}
		})
	}
}
