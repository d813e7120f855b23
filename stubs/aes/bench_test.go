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
//	go test -run '^$' -bench 'CTR|CBC' -count 8 ./stubs/aes | tee out.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl out.txt

var benchSizes = []int{1024, 16384, 65536}

type benchImpl struct {
	name string
	fn   func(dst, src []byte)
}

func runBench(b *testing.B, impls []benchImpl) {
	for _, size := range benchSizes {
		for _, im := range impls {
			b.Run(fmt.Sprintf("impl=%s/size=%d", im.name, size), func(b *testing.B) {
				src, dst := make([]byte, size), make([]byte, size)
				b.SetBytes(int64(size))
				for b.Loop() {
					im.fn(dst, src)
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
	impls := []benchImpl{{"stdlib", func(dst, src []byte) { cipher.NewCTR(std, iv).XORKeyStream(dst, src) }}}
	for _, v := range CTRVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) {
				var ctr, ec [16]byte
				used := 16
				v.Fn(enc, &ctr, &ec, &used, dst, src)
			}})
		}
	}
	runBench(b, impls)
}

func BenchmarkCBCEncrypt(b *testing.B) {
	enc, _, std := benchKey(b)
	iv := make([]byte, 16)
	impls := []benchImpl{{"stdlib", func(dst, src []byte) { cipher.NewCBCEncrypter(std, iv).CryptBlocks(dst, src) }}}
	for _, v := range CBCEncryptVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) { v.Fn(enc, new([16]byte), dst, src) }})
		}
	}
	runBench(b, impls)
}

func BenchmarkCBCDecrypt(b *testing.B) {
	_, dec, std := benchKey(b)
	iv := make([]byte, 16)
	impls := []benchImpl{{"stdlib", func(dst, src []byte) { cipher.NewCBCDecrypter(std, iv).CryptBlocks(dst, src) }}}
	for _, v := range CBCDecryptVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) { v.Fn(dec, new([16]byte), dst, src) }})
		}
	}
	runBench(b, impls)
}

func BenchmarkECBEncrypt(b *testing.B) {
	enc, _, std := benchKey(b)
	impls := []benchImpl{{"stdlib", func(dst, src []byte) {
		for i := 0; i < len(src); i += 16 {
			std.Encrypt(dst[i:], src[i:])
		}
	}}}
	for _, v := range ECBEncryptVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) { v.Fn(enc, dst, src) }})
		}
	}
	runBench(b, impls)
}

func BenchmarkECBDecrypt(b *testing.B) {
	_, dec, std := benchKey(b)
	impls := []benchImpl{{"stdlib", func(dst, src []byte) {
		for i := 0; i < len(src); i += 16 {
			std.Decrypt(dst[i:], src[i:])
		}
	}}}
	for _, v := range ECBDecryptVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) { v.Fn(dec, dst, src) }})
		}
	}
	runBench(b, impls)
}

// BenchmarkBlock measures one aescrypt_encryptBlock call per 16 bytes.
func BenchmarkBlock(b *testing.B) {
	enc, _, std := benchKey(b)
	impls := []benchImpl{{"stdlib", func(dst, src []byte) { std.Encrypt(dst, src) }}}
	for _, v := range BlockEncryptVariants {
		if cpu.Host().HasAll(v.Needs) {
			impls = append(impls, benchImpl{v.Name, func(dst, src []byte) { v.Fn(enc, dst, src) }})
		}
	}
	for _, im := range impls {
		b.Run("impl="+im.name+"/size=16", func(b *testing.B) {
			src, dst := make([]byte, 16), make([]byte, 16)
			b.SetBytes(16)
			for b.Loop() {
				im.fn(dst, src)
			}
		})
	}
}
