package runtime

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// TestStubAdaptersAgainstCrypto calls every intrinsic through the dispatch
// point as from a level-4 caller (so the selected stub runs through its
// row's adapter) and checks the bytes against crypto/aes and crypto/cipher.
// It also checks that a failing predicate (CBC/ECB decryption in place)
// takes the Java path.
func TestStubAdaptersAgainstCrypto(t *testing.T) {
	for _, j := range []jdk.Release{jdk.R17, jdk.R25} {
		t.Run("jdk="+j.String(), func(t *testing.T) {
			var java javaRuns
			vm := newTestVM(t, NewConfig().WithFlags(parseFlags(t, j)).WithTiers(fakeTiers(java.body)...))
			ctx := context.Background()
			key := []byte("0123456789abcdef0123456789abcdef")
			ke, kd, err := stubaes.ExpandKey(key)
			if err != nil {
				t.Fatal(err)
			}
			blk, _ := aes.NewCipher(key)
			msg := make([]byte, 4096)
			for i := range msg {
				msg[i] = byte(i*13 + 1)
			}
			iv := []byte("0123456789012345")
			call := func(t *testing.T, key string, args ...Arg) int64 {
				t.Helper()
				m, err := vm.Method(key)
				if err != nil {
					t.Fatal(err)
				}
				d, _ := vm.Explain(key, LevelFullOptimization)
				if !d.Stub {
					t.Skipf("%s: no stub here (%s)", key, d.Reason)
				}
				ret, err := vm.Route(ctx, Site{Caller: m, Level: LevelFullOptimization, Callee: m}, args)
				if err != nil {
					t.Fatal(err)
				}
				return ret
			}
			t.Run("block", func(t *testing.T) {
				out, back, want := make([]byte, 16), make([]byte, 16), make([]byte, 16)
				blk.Encrypt(want, msg[16:32])
				call(t, "AESCrypt.implEncryptBlock", bytecode.IntsArg(ke), bytecode.BytesArg(msg), bytecode.IntArg(16), bytecode.BytesArg(out), bytecode.IntArg(0))
				call(t, "AESCrypt.implDecryptBlock", bytecode.IntsArg(kd), bytecode.BytesArg(out), bytecode.IntArg(0), bytecode.BytesArg(back), bytecode.IntArg(0))
				if !bytes.Equal(out, want) || !bytes.Equal(back, msg[16:32]) {
					t.Errorf("block: %x / %x", out, back)
				}
			})
			t.Run("cbc", func(t *testing.T) {
				want := make([]byte, len(msg))
				cipher.NewCBCEncrypter(blk, iv).CryptBlocks(want, msg)
				out, r := make([]byte, len(msg)), append([]byte(nil), iv...)
				if n := call(t, "CipherBlockChaining.implEncrypt", bytecode.IntsArg(ke), bytecode.BytesArg(r), bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(len(msg)), bytecode.BytesArg(out), bytecode.IntArg(0)); n != int64(len(msg)) {
					t.Errorf("encrypt returned %d", n)
				}
				if !bytes.Equal(out, want) || !bytes.Equal(r, want[len(want)-16:]) {
					t.Errorf("CBC encryption differs")
				}
				back, r := make([]byte, len(msg)), append([]byte(nil), iv...)
				call(t, "CipherBlockChaining.implDecrypt", bytecode.IntsArg(kd), bytecode.BytesArg(r), bytecode.BytesArg(out), bytecode.IntArg(0), bytecode.IntArg(len(out)), bytecode.BytesArg(back), bytecode.IntArg(0))
				if !bytes.Equal(back, msg) {
					t.Errorf("CBC decryption differs")
				}
				// In place: the predicate (src != dst) fails, the Java path runs.
				before := java.n.Load()
				inplace := append([]byte(nil), out...)
				call(t, "CipherBlockChaining.implDecrypt", bytecode.IntsArg(kd), bytecode.BytesArg(r), bytecode.BytesArg(inplace), bytecode.IntArg(0), bytecode.IntArg(len(out)), bytecode.BytesArg(inplace), bytecode.IntArg(0))
				if java.n.Load() != before+1 {
					t.Errorf("in-place CBC decryption did not take the Java path")
				}
			})
			t.Run("ecb", func(t *testing.T) {
				want := make([]byte, len(msg))
				for i := 0; i < len(msg); i += 16 {
					blk.Encrypt(want[i:], msg[i:i+16])
				}
				out, back := make([]byte, len(msg)), make([]byte, len(msg))
				call(t, "ElectronicCodeBook.implECBEncrypt", bytecode.IntsArg(ke), bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(len(msg)), bytecode.BytesArg(out), bytecode.IntArg(0))
				call(t, "ElectronicCodeBook.implECBDecrypt", bytecode.IntsArg(kd), bytecode.BytesArg(out), bytecode.IntArg(0), bytecode.IntArg(len(out)), bytecode.BytesArg(back), bytecode.IntArg(0))
				if !bytes.Equal(out, want) || !bytes.Equal(back, msg) {
					t.Errorf("ECB differs")
				}
			})
			t.Run("ctr", func(t *testing.T) {
				n := len(msg) - 5 // a partial last block
				want := make([]byte, n)
				cipher.NewCTR(blk, iv).XORKeyStream(want, msg[:n])
				out, ctr, ectr, used := make([]byte, n), append([]byte(nil), iv...), make([]byte, 16), []uint32{16}
				call(t, "CounterMode.implCrypt", bytecode.IntsArg(ke), bytecode.BytesArg(ctr), bytecode.BytesArg(ectr), bytecode.IntsArg(used), bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(0))
				if !bytes.Equal(out, want) || used[0] != 11 {
					t.Errorf("CTR differs (used %d)", used[0])
				}
			})
			aead, _ := cipher.NewGCM(blk)
			nonce := iv[:12]
			h := make([]byte, 16)
			blk.Encrypt(h, h)
			subH := []uint64{binary.BigEndian.Uint64(h), binary.BigEndian.Uint64(h[8:])}
			j0 := append(append([]byte(nil), nonce...), 0, 0, 0, 1)
			tag := func(t *testing.T, st []uint64, aadLen, ctLen int) []byte {
				lb := make([]byte, 16)
				binary.BigEndian.PutUint64(lb, uint64(aadLen)*8)
				binary.BigEndian.PutUint64(lb[8:], uint64(ctLen)*8)
				call(t, "GHASH.processBlocks", bytecode.BytesArg(lb), bytecode.IntArg(0), bytecode.IntArg(1), bytecode.LongsArg(st), bytecode.LongsArg(subH))
				out := make([]byte, 16)
				blk.Encrypt(out, j0)
				for i := range 8 {
					out[i] ^= byte(st[0] >> (56 - 8*i))
					out[8+i] ^= byte(st[1] >> (56 - 8*i))
				}
				return out
			}
			t.Run("ghash", func(t *testing.T) {
				// GHASH over AAD only: the tag of an empty message.
				st := make([]uint64, 2)
				call(t, "GHASH.processBlocks", bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(len(msg)/16), bytecode.LongsArg(st), bytecode.LongsArg(subH))
				if got, want := tag(t, st, len(msg), 0), aead.Seal(nil, nonce, nil, msg); !bytes.Equal(got, want) {
					t.Errorf("GHASH tag %x, want %x", got, want)
				}
			})
			t.Run("gcm", func(t *testing.T) {
				if _, err := vm.Method("GaloisCounterMode.implGCMCrypt0"); err != nil {
					t.Skip("profile has no implGCMCrypt0")
				}
				want := aead.Seal(nil, nonce, msg, nil)
				out := make([]byte, len(msg))
				ctr := append([]byte(nil), j0...)
				ctr[15]++
				st := make([]uint64, 2)
				n := call(t, "GaloisCounterMode.implGCMCrypt0", bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(len(msg)), bytecode.BytesArg(out), bytecode.IntArg(0), bytecode.BytesArg(out), bytecode.IntArg(0),
					bytecode.IntsArg(ke), bytecode.BytesArg(ctr), bytecode.BytesArg(make([]byte, 16)), bytecode.IntsArg([]uint32{16}), bytecode.LongsArg(st), bytecode.LongsArg(subH))
				if n != int64(len(msg)) {
					t.Fatalf("stub processed %d of %d bytes", n, len(msg))
				}
				if !bytes.Equal(out, want[:len(msg)]) {
					t.Errorf("GCM ciphertext differs")
				}
				if got := tag(t, st, 0, len(msg)); !bytes.Equal(got, want[len(msg):]) {
					t.Errorf("GCM tag %x, want %x", got, want[len(msg):])
				}
			})
		})
	}
	if !cpu.Host().Has(cpu.AES) {
		t.Log("host without AES-NI: the generic twins ran")
	}
}
