package jce

import (
	"context"
	"slices"

	"github.com/jitsim/jitsim/bytecode"
)

// cipherCore is com.sun.crypto.provider.CipherCore over one of the
// FeedbackCipher cipherModes ECB, CBC and CTR: it buffers what does not make a
// whole unit, pads and unpads (PKCS5Padding), checks output capacity, and
// hands whole units to the mode's encrypt/decrypt methods — the reference
// methods, called through the Invoker. The mode objects' fields
// (CipherBlockChaining.r, CounterMode.counter/encryptedCounter/used) live
// here between calls, as they live in the Java objects.
type cipherCore struct {
	c       *Cipher
	mode    string
	padding bool
	decrypt bool
	unit    int // CipherCore.unitBytes: 16, or 1 for CTR
	k       []uint32
	iv      []byte
	enc     *bytecode.Method // the methods the mode's encrypt/decrypt resolve to
	dec     *bytecode.Method

	buf []byte // CipherCore.buffer[0:buffered]

	r       []byte   // CBC: CipherBlockChaining.r
	counter []byte   // CTR: CounterMode.counter
	ectr    []byte   // CTR: CounterMode.encryptedCounter
	used    []uint32 // CTR: CounterMode.used

	// Backing arrays of the fields above: a Cipher's operations then allocate
	// nothing of their own for them.
	ivBuf, rBuf, counterBuf, ectrBuf [aesBlockSize]byte
	usedBuf                          [1]uint32
}

// modeEntries are the methods CipherCore calls for each mode's encrypt and
// decrypt: the first key the profile's table has. JDK 9+ has a checking
// wrapper (CipherBlockChaining.encrypt → implEncrypt); JDK 8's
// encrypt/decrypt are the intrinsic candidates themselves (table keys
// ...implEncrypt etc.). CTR's encrypt and decrypt are both CounterMode's
// crypt → implCrypt (JDK 8: crypt is the intrinsic-free body itself), so
// that C2's binding of implCrypt in crypt shows, as HotSpot prints it.
var modeEntries = map[string][2][]string{
	"ECB": {{"ElectronicCodeBook.encrypt", "ElectronicCodeBook.implECBEncrypt"},
		{"ElectronicCodeBook.decrypt", "ElectronicCodeBook.implECBDecrypt"}},
	"CBC": {{"CipherBlockChaining.encrypt", "CipherBlockChaining.implEncrypt"},
		{"CipherBlockChaining.decrypt", "CipherBlockChaining.implDecrypt"}},
	"CTR": {{"CounterMode.crypt", "CounterMode.implCrypt"}, {"CounterMode.crypt", "CounterMode.implCrypt"}},
}

// initCore is CipherCore.init for ECB, CBC and CTR.
func (c *Cipher) initCore(ctx context.Context, mi int, padding bool, key []byte, spec ParamSpec) error {
	m := &cipherModes[mi]
	// The Cipher's one core object is reset, not allocated: Init dropped the last
	// operation's (c.core is nil here), and nothing else refers to it.
	*c.coreObj = cipherCore{c: c, mode: m.name, padding: padding, decrypt: c.decrypt, unit: aesBlockSize}
	cc := c.coreObj
	if m.stream {
		cc.unit = 1
	}
	var iv []byte
	switch s := spec.(type) {
	case nil:
	case IvParameterSpec:
		if !m.iv {
			return javaThrow(InvalidAlgorithmParameterException, "ECB mode cannot use IV")
		}
		iv = s.IV
		if len(iv) != aesBlockSize {
			return javaThrow(InvalidAlgorithmParameterException, "Wrong IV length: must be %d bytes long", aesBlockSize)
		}
	default:
		// Java prints the spec object (class@hash); jitsim gives the class.
		return javaThrow(InvalidAlgorithmParameterException, "Unsupported parameter: javax.crypto.spec.GCMParameterSpec")
	}
	if m.iv && iv == nil {
		if cc.decrypt {
			return javaThrow(InvalidKeyException, "Parameters missing")
		}
		var err error
		if iv, err = randomIV(aesBlockSize); err != nil {
			return err
		}
	}
	if err := c.setKey(ctx, key); err != nil {
		return err
	}
	cc.k = c.ke
	if cc.decrypt && !m.stream { // CTR encrypts the counter both ways
		cc.k = c.kd
	}
	if iv != nil {
		cc.iv = append(cc.ivBuf[:0:len(cc.ivBuf)], iv...)
	}
	for d, keys := range modeEntries[m.name] {
		k := ""
		for _, cand := range keys {
			if c.has(cand) {
				k = cand
				break
			}
		}
		if k == "" {
			panic("BUG: JDK " + c.prof.rel.String() + " has no method for " + m.name)
		}
		m, err := c.method(k)
		if err != nil {
			return err
		}
		if d == 0 {
			cc.enc = m
		} else {
			cc.dec = m
		}
	}
	cc.reset()
	c.core = cc
	return nil
}

// reset is FeedbackCipher.reset after doFinal: the IV back in the chaining
// register or counter.
func (cc *cipherCore) reset() {
	cc.buf = cc.buf[:0]
	if cc.iv == nil {
		return
	}
	cc.r = append(cc.rBuf[:0:len(cc.rBuf)], cc.iv...)
	cc.counter = append(cc.counterBuf[:0:len(cc.counterBuf)], cc.iv...)
	cc.ectrBuf = [aesBlockSize]byte{}
	cc.ectr = cc.ectrBuf[:]
	cc.usedBuf[0] = aesBlockSize
	cc.used = cc.usedBuf[:]
}

// crypt is the mode's encrypt or decrypt on whole units.
func (cc *cipherCore) crypt(ctx context.Context, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	if n == 0 {
		return 0, nil
	}
	k := cc.enc
	if cc.decrypt {
		k = cc.dec
	}
	args := append(cc.c.args[:0], bytecode.IntsArg(cc.k))
	switch cc.mode {
	case "CBC":
		args = append(args, bytecode.BytesArg(cc.r))
	case "CTR":
		// CounterMode.crypt's checks before implCrypt
		if inOfs < 0 || n > len(in)-inOfs || outOfs < 0 || n > len(out)-outOfs {
			return 0, javaThrow("java.lang.ArrayIndexOutOfBoundsException", "Range [%d, %d + %d) out of bounds for length %d", inOfs, inOfs, n, len(in))
		}
		args = append(args, bytecode.BytesArg(cc.counter), bytecode.BytesArg(cc.ectr), bytecode.IntsArg(cc.used))
	}
	args = append(args, bytecode.BytesArg(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(out), bytecode.IntArg(outOfs))
	r, err := cc.c.inv.Call(ctx, k, args)
	return int(r), err
}

// updateSize is the output length of update(inLen) (CipherCore.update's len).
func (cc *cipherCore) updateSize(inLen int) int {
	n := len(cc.buf) + inLen
	if cc.padding && cc.decrypt {
		n -= aesBlockSize // keep the block that holds the padding
	}
	if n <= 0 {
		return 0
	}
	return n - n%cc.unit
}

// outputSize is CipherCore.getOutputSizeByOperation.
func (cc *cipherCore) outputSize(inLen int, final bool) int {
	n := len(cc.buf) + inLen
	if cc.padding && !cc.decrypt && final {
		n += aesBlockSize - n%aesBlockSize
	}
	return n
}

// update is CipherCore.update(input, inputOffset, inputLen, output, outputOffset).
func (cc *cipherCore) update(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	n := cc.updateSize(inLen)
	if len(out)-outOfs < n {
		return 0, javaThrow(ShortBufferException, "Output buffer must be (at least) %d bytes long", n)
	}
	outLen := 0
	if n != 0 {
		if sameJavaArray(in, out) && outOfs-inOfs < inLen && inOfs-outOfs < len(cc.buf) {
			in = slices.Clone(in[inOfs : inOfs+inLen]) // would be overwritten before it is read
			inOfs = 0
		}
		consumed := n - len(cc.buf)
		if consumed <= 0 { // all of it from the buffer
			w, err := cc.crypt(ctx, slices.Clone(cc.buf), 0, n, out, outOfs)
			if err != nil {
				return 0, err
			}
			outLen = w
			cc.buf = append(cc.buf[:0], cc.buf[n:]...)
			consumed = 0
		} else if len(cc.buf) > 0 {
			// fill CipherCore's buffer (2 blocks) and process it first
			take := min(2*aesBlockSize-len(cc.buf), consumed)
			if cc.unit != aesBlockSize {
				take -= (len(cc.buf) + take) % cc.unit
			}
			b := append(slices.Clone(cc.buf), in[inOfs:inOfs+take]...)
			inOfs += take
			consumed -= take
			inLen -= take
			w, err := cc.crypt(ctx, b, 0, len(b), out, outOfs)
			if err != nil {
				return 0, err
			}
			outLen, outOfs = w, outOfs+w
			cc.buf = cc.buf[:0]
		}
		if consumed > 0 {
			w, err := cc.crypt(ctx, in, inOfs, consumed, out, outOfs)
			if err != nil {
				return 0, err
			}
			outLen += w
			inOfs += consumed
			inLen -= consumed
		}
	}
	if inLen > 0 {
		cc.buf = append(cc.buf, in[inOfs:inOfs+inLen]...)
	}
	return outLen, nil
}

// doFinalAlloc is Cipher.doFinal(input): output sized by getOutputSize, in
// the Cipher's output scratch (the caller copies it or lends it out).
func (cc *cipherCore) doFinalAlloc(ctx context.Context, in []byte) ([]byte, error) {
	out := cc.c.arrays.outBuf(cc.outputSize(len(in), true))
	n, err := cc.doFinal(ctx, in, 0, len(in), out, 0)
	if err != nil {
		return nil, err
	}
	return out[:n], nil
}

// doFinal is CipherCore.doFinal(input, inputOffset, inputLen, output,
// outputOffset): buffered input and the new input, padded (encryption) or
// unpadded (decryption), then the mode reset.
func (cc *cipherCore) doFinal(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	defer cc.reset()
	est := cc.outputSize(inLen, true)
	capacity := len(out) - outOfs
	minOut := est
	if cc.decrypt {
		minOut = est - aesBlockSize
	}
	if capacity < minOut {
		return 0, javaThrow(ShortBufferException, "Output buffer must be (at least) %d bytes long", minOut)
	}
	total := len(cc.buf) + inLen
	fin, fOfs := in, inOfs
	pad := 0
	if cc.padding && !cc.decrypt {
		pad = aesBlockSize - total%aesBlockSize
	}
	if len(cc.buf) > 0 || pad > 0 || sameJavaArray(in, out) {
		fin = make([]byte, 0, total+pad)
		fin = append(append(fin, cc.buf...), in[inOfs:inOfs+inLen]...)
		for range pad {
			fin = append(fin, byte(pad)) // PKCS5Padding.padWithLen
		}
		fOfs = 0
	}
	n := total + pad
	if n%cc.unit != 0 {
		if cc.padding && cc.decrypt {
			return 0, javaThrow(IllegalBlockSizeException, "Input length must be multiple of %d when decrypting with padded cipher", aesBlockSize)
		}
		return 0, javaThrow(IllegalBlockSizeException, "Input length not multiple of %d bytes", cc.unit)
	}
	if !cc.decrypt {
		return cc.crypt(ctx, fin, fOfs, n, out, outOfs)
	}
	// Decryption goes through a temporary array when the output may be too
	// small or padding must come off first (CipherCore.doFinal's outWithPadding).
	if !cc.padding && capacity >= est {
		return cc.crypt(ctx, fin, fOfs, n, out, outOfs)
	}
	tmp := make([]byte, n)
	w, err := cc.crypt(ctx, fin, fOfs, n, tmp, 0)
	if err != nil {
		return 0, err
	}
	if cc.padding {
		start := unpadPKCS5(tmp[:w])
		if start < 0 {
			return 0, javaThrow(BadPaddingException, "%s", cc.c.prof.badPadding)
		}
		w = start
	}
	if capacity < w {
		return 0, javaThrow(ShortBufferException, "Output buffer too short: %d bytes given, %d bytes needed", capacity, w)
	}
	copy(out[outOfs:], tmp[:w])
	return w, nil
}

// unpadPKCS5 is PKCS5Padding.unpad: the start of the padding, or -1.
func unpadPKCS5(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	last := b[len(b)-1]
	p := int(last)
	if p < 1 || p > aesBlockSize || p > len(b) {
		return -1
	}
	for _, x := range b[len(b)-p:] {
		if x != last {
			return -1
		}
	}
	return len(b) - p
}
