package aes

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/jitsim/jitsim/stubs/cpu"
)

// Benchmarks interleave every runnable variant with impl=stdlib (crypto/aes +
// crypto/cipher, the peer) inside one Benchmark function, so that one run with
// -count ≥ 6 gives benchstat comparable medians on a noisy machine:
//
//	go test -c -o aes.test ./stubs/aes
//	for i in $(seq 12); do ./aes.test -test.run '^$' -test.bench 'CTR|CBC' -test.benchtime 100ms; done | tee out.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl -table .name -row /size out.txt
//
// (A loop of -count 1 runs interleaves the implementations round by round;
// -count N would repeat each sub-benchmark N times back to back.)

var benchSizes = []int{1024, 16384, 65536}

// benchImpl is one contestant. setup runs once per sub-benchmark, outside the
// timed loop, and returns the function to time: the stdlib peer builds its
// cipher.Stream/BlockMode there (the stream or chain simply continues from
// one iteration to the next), so no allocation is timed on either side.
type benchImpl struct {
	name  string
	setup func() func(dst, src []byte)
}

func fixed(fn func(dst, src []byte)) func() func(dst, src []byte) {
	return func() func(dst, src []byte) { return fn }
}

func runBench(b *testing.B, impls []benchImpl) {
	for _, size := range benchSizes {
		for _, im := range impls {
			b.Run(fmt.Sprintf("impl=%s/size=%d", im.name, size), func(b *testing.B) {
				src, dst := make([]byte, size), make([]byte, size)
				fn := im.setup()
				b.SetBytes(int64(size))
				for b.Loop() {
					fn(dst, src)
				}
			})
		}
	}
}

func benchKey(b *testing.B) (enc, dec []uint32, std cipher.Block) {
	key := make([]byte, 16)
	enc, dec, _ = ExpandKey(key)
	std, _ = stdaes.NewCipher(key)
	return
}

func BenchmarkCTR(b *testing.B) {
	enc, _, std := benchKey(b)
	iv := make([]byte, 16)
	impls := []benchImpl{{"stdlib", func() func(dst, src []byte) { return cipher.NewCTR(std, iv).XORKeyStream }}}
	for _, v := range CTRVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), func() func(dst, src []byte) {
				var ctr, ec [16]byte
				used := uint32(16)
				return func(dst, src []byte) { v.Fn(enc, &ctr, &ec, &used, dst, src) }
			}})
		}
	}
	runBench(b, impls)
}

func BenchmarkCBCEncrypt(b *testing.B) {
	enc, _, std := benchKey(b)
	iv := make([]byte, 16)
	impls := []benchImpl{{"stdlib", func() func(dst, src []byte) { return cipher.NewCBCEncrypter(std, iv).CryptBlocks }}}
	for _, v := range CBCEncryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), func() func(dst, src []byte) {
				var st [16]byte
				return func(dst, src []byte) { v.Fn(enc, &st, dst, src) }
			}})
		}
	}
	runBench(b, impls)
}

func BenchmarkCBCDecrypt(b *testing.B) {
	_, dec, std := benchKey(b)
	iv := make([]byte, 16)
	impls := []benchImpl{{"stdlib", func() func(dst, src []byte) { return cipher.NewCBCDecrypter(std, iv).CryptBlocks }}}
	for _, v := range CBCDecryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), func() func(dst, src []byte) {
				var st [16]byte
				return func(dst, src []byte) { v.Fn(dec, &st, dst, src) }
			}})
		}
	}
	runBench(b, impls)
}

func BenchmarkECBEncrypt(b *testing.B) {
	enc, _, std := benchKey(b)
	impls := []benchImpl{{"stdlib", fixed(func(dst, src []byte) {
		for i := 0; i < len(src); i += 16 {
			std.Encrypt(dst[i:], src[i:])
		}
	})}}
	for _, v := range ECBEncryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), fixed(func(dst, src []byte) { v.Fn(enc, dst, src) })})
		}
	}
	runBench(b, impls)
}

func BenchmarkECBDecrypt(b *testing.B) {
	_, dec, std := benchKey(b)
	impls := []benchImpl{{"stdlib", fixed(func(dst, src []byte) {
		for i := 0; i < len(src); i += 16 {
			std.Decrypt(dst[i:], src[i:])
		}
	})}}
	for _, v := range ECBDecryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), fixed(func(dst, src []byte) { v.Fn(dec, dst, src) })})
		}
	}
	runBench(b, impls)
}

// BenchmarkBlock measures one aescrypt_encryptBlock call per 16 bytes.
func BenchmarkBlock(b *testing.B) {
	enc, _, std := benchKey(b)
	impls := []benchImpl{{"stdlib", fixed(std.Encrypt)}}
	for _, v := range BlockEncryptVariants() {
		if cpu.Host().HasAll(v.Needs()) {
			impls = append(impls, benchImpl{v.Name(), fixed(func(dst, src []byte) { v.Fn(enc, dst, src) })})
		}
	}
	for _, im := range impls {
		b.Run("impl="+im.name+"/size=16", func(b *testing.B) {
			src, dst := make([]byte, 16), make([]byte, 16)
			fn := im.setup()
			b.SetBytes(16)
			for b.Loop() {
				fn(dst, src)
			}
		})
	}
}
