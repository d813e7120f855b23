package scenario

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// oracleSpec describes one cipher operation for the oracle: mode (ECB,
// CBC, CTR, GCM), PKCS5 padding, key, IV (nil for ECB), AAD and GCM tag
// length in bytes.
type oracleSpec struct {
	mode    string
	padding bool
	key, iv []byte
	aad     []byte
	tagLen  int
}

// oracleEncrypt is what the JDK's Cipher.doFinal(plaintext) returns for
// spec, computed with Go's crypto/aes and crypto/cipher — the oracle the
// scenarios check their VM's output against, never the implementation.
// GCM: SP 800-38D §7.1 with any IV length; a tag shorter than 16 bytes is
// the leftmost bytes of the full tag (MSB_t).
func oracleEncrypt(spec oracleSpec, plaintext []byte) ([]byte, error) {
	block, err := aes.NewCipher(spec.key)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	in := bytes.Clone(plaintext)
	if spec.padding {
		n := aes.BlockSize - len(in)%aes.BlockSize
		in = append(in, bytes.Repeat([]byte{byte(n)}, n)...)
	}
	switch spec.mode {
	case "ECB":
		if len(in)%aes.BlockSize != 0 {
			return nil, fmt.Errorf("oracle: ECB input of %d bytes", len(in))
		}
		out := make([]byte, len(in))
		for i := 0; i < len(in); i += aes.BlockSize {
			block.Encrypt(out[i:], in[i:])
		}
		return out, nil
	case "CBC":
		if len(in)%aes.BlockSize != 0 {
			return nil, fmt.Errorf("oracle: CBC input of %d bytes", len(in))
		}
		out := make([]byte, len(in))
		cipher.NewCBCEncrypter(block, spec.iv).CryptBlocks(out, in)
		return out, nil
	case "CTR":
		out := make([]byte, len(in))
		cipher.NewCTR(block, spec.iv).XORKeyStream(out, in)
		return out, nil
	case "GCM":
		g, err := cipher.NewGCMWithNonceSize(block, len(spec.iv))
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		sealed := g.Seal(nil, spec.iv, plaintext, spec.aad)
		return sealed[:len(plaintext)+spec.tagLen], nil
	}
	return nil, fmt.Errorf("oracle: mode %q", spec.mode)
}

// checkBytes compares got with want and describes the first difference as
// TestAESBase.compareArrays does.
func checkBytes(what string, got, want []byte) error {
	if len(got) != len(want) {
		return fmt.Errorf("%s: different lengths for actual and expected output arrays (%d, %d)", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("%s: output error at index %d: got %02x, expected %02x", what, i, got[i], want[i])
		}
	}
	return nil
}

// javaDouble formats v as Java's Double.toString does: the shortest
// decimal that reads back as v, plain for 1e-3 <= |v| < 1e7 (with ".0" when
// integral), computerized scientific notation ("1.2345E7") otherwise.
func javaDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // e.g. 1.2345e+07
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}
