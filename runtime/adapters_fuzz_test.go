package runtime

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
)

// FuzzCTRDispatch feeds arbitrary offsets, lengths, counters and
// partial-block state to CounterMode.implCrypt through the dispatch point
// from a level-4 caller: in-range calls must equal crypto/cipher's CTR
// (after the same partial-block prefix), out-of-range ones must return a
// Java exception, never panic.
func FuzzCTRDispatch(f *testing.F) {
	f.Add([]byte("0123456789abcdef"), []byte("counter-block-16"), uint8(16), 0, 64, 0, 80, 80)
	f.Add([]byte("0123456789abcdef01234567"), []byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe"), uint8(5), 3, 100, 7, 120, 120)
	f.Add([]byte("0123456789abcdef0123456789abcdef"), []byte("0000000000000000"), uint8(0), -1, 10, 0, 16, 16)
	f.Add([]byte("0123456789abcdef"), []byte("0000000000000000"), uint8(16), 10, 20, 5, 16, 16)
	var java javaRuns
	vm := newTestVM(f, NewConfig().WithFlags(parseFlags(f, jdk.R25)).WithTiers(fakeTiers(java.body)...))
	m, err := vm.Method("CounterMode.implCrypt")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, key, iv []byte, used uint8, inOfs, n, outOfs, inLen, outLen int) {
		if len(iv) != 16 || inLen < 0 || outLen < 0 || inLen > 1<<16 || outLen > 1<<16 {
			t.Skip()
		}
		ke, _, err := stubaes.ExpandKey(key)
		if err != nil {
			t.Skip()
		}
		used %= 17
		in := make([]byte, inLen)
		for i := range in {
			in[i] = byte(i * 7)
		}
		out := make([]byte, outLen)
		ctr, ectr := append([]byte(nil), iv...), make([]byte, 16)
		blk, _ := aes.NewCipher(key)
		if used < 16 {
			// The JDK keeps E(previous counter) in encryptedCounter.
			prev := append([]byte(nil), iv...)
			for i := 15; i >= 0; i-- {
				prev[i]--
				if prev[i] != 0xff {
					break
				}
			}
			blk.Encrypt(ectr, prev)
		}
		u := []uint32{uint32(used)}
		_, err = vm.Route(context.Background(), Site{Caller: m, Level: LevelFullOptimization, Callee: m},
			[]Arg{bytecode.IntsArg(ke), bytecode.BytesArg(ctr), bytecode.BytesArg(ectr), bytecode.IntsArg(u), bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs)})
		valid := inOfs >= 0 && outOfs >= 0 && n >= 0 && inOfs <= inLen && n <= inLen-inOfs && outOfs <= outLen && n <= outLen-outOfs
		if !valid {
			var ex *Exception
			if !errors.As(err, &ex) {
				t.Fatalf("out-of-range call: error %v, want a Java exception", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		// Reference: the key stream from used bytes into E(iv-1) (the
		// JDK's partial block), then E(iv), E(iv+1), ...
		start, skip := append([]byte(nil), iv...), 0
		if used < 16 {
			for i := 15; i >= 0; i-- {
				start[i]--
				if start[i] != 0xff {
					break
				}
			}
			skip = int(used)
		}
		ks := make([]byte, skip+n)
		cipher.NewCTR(blk, start).XORKeyStream(ks, ks)
		ks = ks[skip:]
		want := make([]byte, n)
		for i := range want {
			want[i] = in[inOfs+i] ^ ks[i]
		}
		if !bytes.Equal(out[outOfs:outOfs+n], want) {
			t.Fatalf("CTR through the dispatch point differs from crypto/cipher")
		}
	})
}
