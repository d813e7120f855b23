package tiertest

import (
	"bufio"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The oracles: Go's crypto, used only to check the reference methods.

func goBlock(tb testing.TB, key []byte) cipher.Block {
	b, err := aes.NewCipher(key)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func goCBC(tb testing.TB, decrypt bool, key, iv, src []byte) []byte {
	dst := make([]byte, len(src))
	if decrypt {
		cipher.NewCBCDecrypter(goBlock(tb, key), iv).CryptBlocks(dst, src)
	} else {
		cipher.NewCBCEncrypter(goBlock(tb, key), iv).CryptBlocks(dst, src)
	}
	return dst
}

func goECB(tb testing.TB, decrypt bool, key, src []byte) []byte {
	b := goBlock(tb, key)
	dst := make([]byte, len(src))
	for i := 0; i+16 <= len(src); i += 16 {
		if decrypt {
			b.Decrypt(dst[i:], src[i:])
		} else {
			b.Encrypt(dst[i:], src[i:])
		}
	}
	return dst
}

func goCTR(tb testing.TB, key, iv, src []byte) []byte {
	dst := make([]byte, len(src))
	cipher.NewCTR(goBlock(tb, key), iv).XORKeyStream(dst, src)
	return dst
}

func goGCM(tb testing.TB, key, iv []byte) cipher.AEAD {
	var g cipher.AEAD
	var err error
	if len(iv) == 12 {
		g, err = cipher.NewGCM(goBlock(tb, key))
	} else {
		g, err = cipher.NewGCMWithNonceSize(goBlock(tb, key), len(iv))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// SpecVector is one of the GCM specification's test cases 1-18.
type SpecVector struct {
	Case              int
	K, P, A, IV, C, T []byte
}

// SpecVectors reads testdata/gcm_spec_vectors.txt.
func SpecVectors(tb testing.TB) []SpecVector {
	_, file, _, _ := runtime.Caller(0)
	f, err := os.Open(filepath.Join(filepath.Dir(file), "testdata", "gcm_spec_vectors.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var vs []SpecVector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			tb.Fatalf("spec vectors: bad line %q", line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "case" {
			n, err := strconv.Atoi(v)
			if err != nil {
				tb.Fatal(err)
			}
			vs = append(vs, SpecVector{Case: n})
			continue
		}
		b, err := hex.DecodeString(v)
		if err != nil || len(vs) == 0 {
			tb.Fatalf("spec vectors: bad line %q", line)
		}
		cur := &vs[len(vs)-1]
		switch k {
		case "K":
			cur.K = b
		case "P":
			cur.P = b
		case "A":
			cur.A = b
		case "IV":
			cur.IV = b
		case "C":
			cur.C = b
		case "T":
			cur.T = b
		default:
			tb.Fatalf("spec vectors: unknown field %q", k)
		}
	}
	if len(vs) != 18 {
		tb.Fatalf("spec vectors: %d cases, want 18", len(vs))
	}
	return vs
}

// GCTRReference is AES in GCM's counter mode with inc32 (SP 800-38D §6.5),
// built on crypto/aes's block function; the oracle for GCTR.update.
func GCTRReference(tb testing.TB, key, counter, in []byte) []byte {
	b := goBlock(tb, key)
	cb := append([]byte(nil), counter...)
	out := make([]byte, len(in))
	ks := make([]byte, 16)
	for i := 0; i < len(in); i += 16 {
		b.Encrypt(ks, cb)
		for j := 0; j < 16 && i+j < len(in); j++ {
			out[i+j] = in[i+j] ^ ks[j]
		}
		inc32(cb)
	}
	return out
}
