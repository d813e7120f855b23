package jce

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jitsim/jitsim/bytecode"
)

// gcmCipher is com.sun.crypto.provider.GaloisCounterMode with its
// GCMEngine (GCMEncrypt / GCMDecrypt) for AES: AAD buffering, J0 (SP
// 800-38D §7.1 step 2), the encrypt-side block buffer, the decrypt-side
// ciphertext buffer (no plaintext before the tag is verified), the size
// routing to implGCMCrypt (PARALLEL_LEN, JDK 18+), the length block and
// the tag (§7.1 steps 5-6). The GCTR and GHASH objects' fields live here
// and are handed to the reference methods on every call.
type gcmCipher struct {
	c       *Cipher
	prof    *providerProfile
	encrypt bool
	tagLen  int // bytes
	iv      []byte
	reInit  bool // encryption finished: same key and IV may not be reused

	eng *gcmEngine // GaloisCounterMode.engine; nil until checkInit

	// aad is the AAD given before the engine exists (updateAAD before the first data),
	// aadOpen whether updateAAD was called; aadInline backs aad for short AAD.
	aad       []byte
	aadOpen   bool
	aadInline [64]byte
	ivInline  [16]byte // backs iv for IVs up to 16 bytes
}

// args returns the Cipher's empty argument scratch (Cipher.args).
func (g *gcmCipher) args() []bytecode.Arg { return g.c.args[:0] }

// gcmEngine is one operation's state (GCMEngine).
type gcmEngine struct {
	j0 []byte // preCounterBlock
	// GCTR object: counter (J0+1 onwards), encryptedCounter, used.
	counter, ectr []byte
	used          []uint32
	// GHASH object: state, subkeyHtbl (H in [0], [1]).
	state, htbl []uint64

	aad          []byte
	aadOpen      bool // aadBuffer != null
	aadProcessed bool
	sizeOfAAD    int

	ibuf      []byte // ibuffer
	processed int    // GCMEncrypt.processed

	tag     []byte // GCMDecrypt.tag
	tagBuf  [16]byte
	tagOfs  int
	inPlace bool // inPlaceArray

	origOut    []byte // overlapDetection: the caller's array while out is a copy
	origOutOfs int

	// Scratch arrays of the Java locals the engine's helpers allocate per
	// operation (H, the length block, the digest, the tag's GCTR object),
	// kept with the engine so a reused engine allocates nothing.
	h, lb, sum, tagCtr, tagEctr []byte   // aesBlockSize each
	tagUsed                     []uint32 // 1
}

// newEngine returns a zeroed engine for the next operation, reusing the
// arrays of the engine the last operation released (Cipher.gcmSpare): the
// JDK allocates these per GCMEngine; reusing them keeps a steady-state
// message free of Go allocations. Every field is reset.
func (g *gcmCipher) newEngine() *gcmEngine {
	old := g.c.gcmSpare
	g.c.gcmSpare = nil
	if old == nil {
		a := g.c.arrays
		var e *gcmEngine
		if !g.c.engObjUsed { // the Cipher's first engine is part of it
			g.c.engObjUsed = true
			e = g.c.engObj
		} else {
			e = new(gcmEngine)
		}
		*e = gcmEngine{htbl: a.longs(subkeyHtblLen), state: a.longs(2),
			ectr: a.bytes(aesBlockSize), used: a.ints(1),
			j0: a.bytes(aesBlockSize)[:0], counter: a.bytes(aesBlockSize)[:0],
			h: a.bytes(aesBlockSize), lb: a.bytes(aesBlockSize), sum: a.bytes(aesBlockSize),
			tagCtr: a.bytes(aesBlockSize), tagEctr: a.bytes(aesBlockSize), tagUsed: a.ints(1)}
		e.used[0] = aesBlockSize
		return e
	}
	*old = gcmEngine{htbl: old.htbl, state: old.state, ectr: old.ectr, used: old.used,
		j0: old.j0[:0], counter: old.counter[:0], ibuf: old.ibuf[:0], tag: old.tag[:0],
		h: old.h, lb: old.lb, sum: old.sum, tagCtr: old.tagCtr, tagEctr: old.tagEctr, tagUsed: old.tagUsed}
	clear(old.htbl)
	clear(old.state)
	clear(old.ectr)
	clear(old.h) // H = E(K, 0^128) is computed in place
	clear(old.lb)
	clear(old.sum)
	clear(old.tagCtr)
	clear(old.tagEctr)
	old.used[0] = aesBlockSize
	return old
}

// release ends the operation: the engine's arrays go to the next one.
func (g *gcmCipher) release() {
	if e := g.eng; e != nil {
		e.origOut = nil // no reference to the caller's array
		g.c.gcmSpare = e
	}
	g.eng = nil
}

// initGCM is GaloisCounterMode.engineInit + init.
func (c *Cipher) initGCM(ctx context.Context, key []byte, spec ParamSpec) error {
	// The Cipher's one GCM object is reset, not allocated: Init dropped the last
	// operation's (c.gcm is nil here), and nothing else refers to it.
	*c.gcmObj = gcmCipher{c: c, prof: c.prof, encrypt: !c.decrypt, tagLen: 16}
	g := c.gcmObj
	switch s := spec.(type) {
	case nil:
		if c.decrypt {
			return javaThrow(InvalidKeyException, "No GCMParameterSpec specified")
		}
		iv, err := randomIV(12)
		if err != nil {
			return err
		}
		g.iv = iv
	case GCMParameterSpec:
		if len(s.IV) == 0 {
			return javaThrow(InvalidAlgorithmParameterException, "IV is empty")
		}
		if s.TLen < 96 || s.TLen > 128 || s.TLen%8 != 0 {
			return javaThrow(InvalidAlgorithmParameterException, "Unsupported TLen value.  Must be one of {128, 120, 112, 104, 96}")
		}
		g.iv, g.tagLen = append(g.ivInline[:0:len(g.ivInline)], s.IV...), s.TLen/8
	default:
		return javaThrow(InvalidAlgorithmParameterException, "AlgorithmParameterSpec not of GCMParameterSpec")
	}
	if err := c.checkKeySize(key); err != nil {
		return err
	}
	if g.encrypt { // GaloisCounterMode.init's reuse check
		if c.lastGCMKey != nil && slices.Equal(key, c.lastGCMKey) && slices.Equal(g.iv, c.lastGCMIV) {
			return javaThrow(InvalidAlgorithmParameterException, "Cannot reuse iv for GCM encryption")
		}
		c.lastGCMKey = append(c.lastKeyBuf[:0:len(c.lastKeyBuf)], key...)
		c.lastGCMIV = append(c.lastIVBuf[:0:len(c.lastIVBuf)], g.iv...)
	}
	if err := c.setKey(ctx, key); err != nil {
		return err
	}
	c.gcm = g
	return nil
}

// Argument helpers: the GCTR and GHASH objects as the reference methods
// take them (bytecode/src/gcm.h), and non-null arrays.

// gctrArgs are a GCTR object's fields: the AES key (always the
// encryption schedule), counter, encryptedCounter, used.
func (g *gcmCipher) gctrArgs(args []bytecode.Arg, counter, ectr []byte, used []uint32) []bytecode.Arg {
	return append(args, bytecode.IntsArg(g.c.ke), bytecode.BytesArg(counter), bytecode.BytesArg(ectr), bytecode.IntsArg(used))
}

// ghashArgs are a GHASH object's fields: state, subkeyHtbl.
func (g *gcmCipher) ghashArgs(args []bytecode.Arg, st []uint64, e *gcmEngine) []bytecode.Arg {
	return append(args, bytecode.LongsArg(st), bytecode.LongsArg(e.htbl))
}

// jarr is a Java array argument: a nil slice is an empty, non-null array.
func jarr(b []byte) bytecode.Arg {
	if b == nil {
		b = []byte{}
	}
	return bytecode.BytesArg(b)
}

// ghashUpdate calls GHASH.update on the GHASH object with state st.
func (g *gcmCipher) ghashUpdate(ctx context.Context, st []uint64, in []byte, ofs, n int) error {
	_, err := g.c.callRef(ctx, refGHASHUpdate, append(g.ghashArgs(g.args(), st, g.eng), jarr(in), bytecode.IntArg(ofs), bytecode.IntArg(n))...)
	return err
}

// ghashDoFinal calls GHASH.doFinal on the engine's GHASH object.
func (g *gcmCipher) ghashDoFinal(ctx context.Context, in []byte, ofs, n int) error {
	_, err := g.c.callRef(ctx, refGHASHDoFinal, append(g.ghashArgs(g.args(), g.eng.state, g.eng), jarr(in), bytecode.IntArg(ofs), bytecode.IntArg(n))...)
	return err
}

// gctr calls GCTR.update or GCTR.doFinal (method) on the engine's GCTR
// object.
func (g *gcmCipher) gctr(ctx context.Context, method methodRef, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	e := g.eng
	r, err := g.c.callRef(ctx, method, append(g.gctrArgs(g.args(), e.counter, e.ectr, e.used),
		jarr(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), jarr(out), bytecode.IntArg(outOfs))...)
	return int(r), err
}

// implGCMCrypt calls GaloisCounterMode.implGCMCrypt (JDK 18+); ct nil is
// Java's null (in-place decryption: no combined intrinsic).
func (g *gcmCipher) implGCMCrypt(ctx context.Context, in []byte, inOfs, n int, ct []byte, ctOfs int, out []byte, outOfs int) (int, error) {
	e := g.eng
	args := append(g.args(), jarr(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), bytecode.BytesArg(ct), bytecode.IntArg(ctOfs), jarr(out), bytecode.IntArg(outOfs))
	args = g.ghashArgs(g.gctrArgs(args, e.counter, e.ectr, e.used), e.state, e)
	r, err := g.c.callRef(ctx, refImplGCMCrypt, args...)
	return int(r), err
}

// doLastBlock calls GCMEngine.doLastBlock: EncryptOp.doFinal /
// DecryptOp.doFinal on arrays (implGCMCrypt for the PARALLEL_LEN head
// where the profile has it, then GCTR.doFinal and GHASH.doFinal).
func (g *gcmCipher) doLastBlock(ctx context.Context, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	e := g.eng
	args := append(g.args(), bytecode.BoolArg(g.encrypt), jarr(in), bytecode.IntArg(inOfs), bytecode.IntArg(n), jarr(out), bytecode.IntArg(outOfs))
	args = g.ghashArgs(g.gctrArgs(args, e.counter, e.ectr, e.used), e.state, e)
	r, err := g.c.callRef(ctx, refDoLastBlock, args...)
	return int(r), err
}

// gcmOp is the GCM operation object a routine drives: EncryptOp or
// DecryptOp (both GCTR and GHASH), or, in JDK 17's two-pass decryption,
// the GHASH object alone and then the GCTR object alone.
type gcmOp int

const (
	opBoth gcmOp = iota
	opGHASH
	opGCTR
)

// update1 is op.update on whole blocks.
func (g *gcmCipher) update1(ctx context.Context, op gcmOp, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	switch op {
	case opGHASH:
		n -= n % aesBlockSize
		return n, g.ghashUpdate(ctx, g.eng.state, in, inOfs, n)
	case opGCTR:
		n -= n % aesBlockSize
		return g.gctr(ctx, refGCTRUpdate, in, inOfs, n, out, outOfs)
	}
	return g.opUpdate(ctx, in, inOfs, n, out, outOfs)
}

// final1 is op.doFinal: GCMEngine.doLastBlock for both, else
// GHASH.doFinal or GCTR.doFinal.
func (g *gcmCipher) final1(ctx context.Context, op gcmOp, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	switch op {
	case opGHASH:
		return n, g.ghashDoFinal(ctx, in, inOfs, n)
	case opGCTR:
		return g.gctr(ctx, refGCTRDoFinal, in, inOfs, n, out, outOfs)
	}
	return g.doLastBlock(ctx, in, inOfs, n, out, outOfs)
}

// opUpdate is EncryptOp.update (GCTR then GHASH over the output) or
// DecryptOp.update (GHASH over the input, then GCTR) on whole blocks.
func (g *gcmCipher) opUpdate(ctx context.Context, in []byte, inOfs, n int, out []byte, outOfs int) (int, error) {
	n -= n % aesBlockSize // GCTR.update and GHASH.update take whole blocks
	if n == 0 {
		return 0, nil
	}
	if g.encrypt {
		r, err := g.gctr(ctx, refGCTRUpdate, in, inOfs, n, out, outOfs)
		if err != nil {
			return 0, err
		}
		return r, g.ghashUpdate(ctx, g.eng.state, out, outOfs, r)
	}
	if err := g.ghashUpdate(ctx, g.eng.state, in, inOfs, n); err != nil {
		return 0, err
	}
	return g.gctr(ctx, refGCTRUpdate, in, inOfs, n, out, outOfs)
}

// checkInit is GaloisCounterMode.checkInit: a new engine for the next
// operation — H = E(K, 0^128) through AESCrypt.implEncryptBlock, J0, the
// GCTR counter at inc32(J0) and a zero GHASH state.
func (g *gcmCipher) checkInit(ctx context.Context) error {
	if g.eng != nil {
		return nil
	}
	e := g.newEngine()
	g.eng = e
	h := e.h[:]
	if _, err := g.c.callRef(ctx, refImplEncryptBlock, append(g.args(), bytecode.IntsArg(g.c.ke), bytecode.BytesArg(h), bytecode.IntArg(0), bytecode.BytesArg(h), bytecode.IntArg(0))...); err != nil {
		g.eng = nil
		return err
	}
	e.htbl[0], e.htbl[1] = binary.BigEndian.Uint64(h), binary.BigEndian.Uint64(h[8:])
	if err := g.getJ0(ctx); err != nil {
		g.eng = nil
		return err
	}
	e.counter = append(e.counter[:0], e.j0...)
	gcmInc32(e.counter)
	return nil
}

// getJ0 is GaloisCounterMode.getJ0 (SP 800-38D §7.1 step 2): IV || 0^31 ||
// 1 for a 96-bit IV, else GHASH of the zero-padded IV and its length block
// with a GHASH object of its own.
func (g *gcmCipher) getJ0(ctx context.Context) error {
	e := g.eng
	if len(g.iv) == 12 {
		e.j0 = append(append(e.j0[:0], g.iv...), 0, 0, 0, 1)
		return nil
	}
	st := make([]uint64, 2)
	last := len(g.iv) % aesBlockSize
	if err := g.ghashUpdate(ctx, st, g.iv, 0, len(g.iv)-last); err != nil {
		return err
	}
	if last != 0 {
		pad := make([]byte, aesBlockSize)
		copy(pad, g.iv[len(g.iv)-last:])
		if err := g.ghashUpdate(ctx, st, pad, 0, aesBlockSize); err != nil {
			return err
		}
	}
	lb := make([]byte, aesBlockSize)
	binary.BigEndian.PutUint64(lb[8:], uint64(uint32(len(g.iv)))<<3)
	if err := g.ghashUpdate(ctx, st, lb, 0, aesBlockSize); err != nil {
		return err
	}
	e.j0 = append(e.j0[:0], digest(e.sum[:], st)...)
	return nil
}

// digest is GHASH.digest: the state as 16 big-endian bytes, in b.
func digest(b []byte, st []uint64) []byte {
	binary.BigEndian.PutUint64(b, st[0])
	binary.BigEndian.PutUint64(b[8:], st[1])
	return b
}

// checkReInit is GaloisCounterMode.checkReInit: a finished encryption may
// not go on with the same key and IV.
func (g *gcmCipher) checkReInit() error {
	if g.encrypt && g.reInit {
		return javaThrow(IllegalStateException, "Must use either different key or  iv for GCM encryption")
	}
	return nil
}

// updateAAD is GCMEngine.updateAAD: AAD is buffered until the first data.
func (g *gcmCipher) updateAAD(aad []byte) error {
	if err := g.checkReInit(); err != nil {
		return err
	}
	e := g.eng
	if e == nil {
		// the engine (H, J0) is made on the first data call; until then the AAD waits here
		if g.aad == nil {
			g.aad = g.aadInline[:0]
		}
		g.aad, g.aadOpen = append(g.aad, aad...), true
		return nil
	}
	if !e.aadOpen {
		if e.sizeOfAAD != 0 || e.aadProcessed {
			return javaThrow(IllegalStateException, "Update has been called; no more AAD data")
		}
		e.aadOpen = true
	}
	e.aad = append(e.aad, aad...)
	return nil
}

// engine returns the operation's engine, creating it (checkInit) and
// keeping AAD given before it existed.
func (g *gcmCipher) engine(ctx context.Context) error {
	if g.eng != nil {
		return nil
	}
	if err := g.checkInit(ctx); err != nil {
		return err
	}
	if g.aadOpen {
		g.eng.aad, g.eng.aadOpen = g.aad, true
		g.aad, g.aadOpen = nil, false
	}
	return nil
}

// processAAD is GCMEngine.processAAD: the buffered AAD, zero-padded to a
// block, into GHASH.
//
// AAD longer than the inline buffer goes to GHASH as a Java array in the
// heap, as the JDK's aadBuffer.toByteArray() makes one: GHASH.update passes
// it on to a callee once per block (processBlock) where that callee is a
// method of its own, and an array outside the heap is copied whole into the
// callee's memory on every such call — for 1 MiB of AAD, 64 GiB of copying
// per operation. Shorter AAD stays in Go memory, whose copies cost less
// than the heap's allocation.
func (g *gcmCipher) processAAD(ctx context.Context) error {
	e := g.eng
	if e.aadOpen {
		e.sizeOfAAD = len(e.aad)
		if e.sizeOfAAD > 0 {
			aad := e.aad
			if len(aad) > len(g.aadInline) {
				aad = g.c.arrays.bytes(len(aad))
				copy(aad, e.aad)
				defer g.c.arrays.drop(aad)
			}
			last := e.sizeOfAAD % aesBlockSize
			if err := g.ghashUpdate(ctx, e.state, aad, 0, e.sizeOfAAD-last); err != nil {
				return err
			}
			if last != 0 {
				pad := make([]byte, aesBlockSize)
				copy(pad, aad[e.sizeOfAAD-last:])
				if err := g.ghashUpdate(ctx, e.state, pad, 0, aesBlockSize); err != nil {
					return err
				}
			}
		}
		e.aad, e.aadOpen = nil, false
	}
	e.aadProcessed = true
	return nil
}

// outputSize is GCMEngine.getOutputSize.
func (g *gcmCipher) outputSize(inLen int, final bool) int {
	b := 0
	if g.eng != nil {
		b = len(g.eng.ibuf)
	}
	if g.encrypt {
		if final {
			return b + inLen + g.tagLen
		}
		n := b + inLen
		return n - n%aesBlockSize
	}
	if !final {
		return 0
	}
	return max(b+inLen-g.tagLen, 0)
}

// shortUpdate is the ShortBufferException text of an update whose output
// does not fit: GaloisCounterMode.engineUpdate's, or CipherCore's where
// GCM runs under it (JDK 8).
func (g *gcmCipher) shortUpdate(n int) error {
	if g.prof.gcmCipherCore {
		return javaThrow(ShortBufferException, "Output buffer must be (at least) %d bytes long", n)
	}
	return javaThrow(ShortBufferException, "Output buffer too small, must be at least %d bytes long", n)
}

// overlap is GCMEngine.overlapDetection for arrays: a temporary output
// when writing would overwrite input not yet read, and the in-place flag
// for decryption.
func (g *gcmCipher) overlap(in []byte, inOfs int, out []byte, outOfs int) []byte {
	e := g.eng
	if sameJavaArray(in, out) {
		if inOfs < outOfs {
			e.origOut, e.origOutOfs = out, outOfs
			return make([]byte, len(out))
		}
		e.inPlace = !g.encrypt
	}
	return out
}

// restoreOut is GCMEngine.restoreOut.
func (g *gcmCipher) restoreOut(out []byte, n int) {
	e := g.eng
	if e.origOut == nil {
		return
	}
	copy(e.origOut[e.origOutOfs:e.origOutOfs+n], out[e.origOutOfs:])
	e.origOut = nil
}

// update is engineUpdate with an output array.
func (g *gcmCipher) update(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	if err := g.checkReInit(); err != nil {
		return 0, err
	}
	if n := g.outputSize(inLen, false); n > len(out)-outOfs {
		return 0, g.shortUpdate(n)
	}
	if err := g.engine(ctx); err != nil {
		return 0, err
	}
	if g.encrypt {
		return g.encryptUpdate(ctx, in, inOfs, inLen, out, outOfs)
	}
	// GCMDecrypt.doUpdate: keep the ciphertext until doFinal.
	if err := g.processAAD(ctx); err != nil {
		return 0, err
	}
	g.eng.ibuf = append(g.eng.ibuf, in[inOfs:inOfs+inLen]...)
	return 0, nil
}

// encryptUpdate is GCMEncrypt.doUpdate: complete a buffered partial block,
// hand PARALLEL_LEN multiples to implGCMCrypt (JDK 18+), whole blocks to
// EncryptOp.update, and buffer the rest.
func (g *gcmCipher) encryptUpdate(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	e := g.eng
	if err := g.processAAD(ctx); err != nil {
		return 0, err
	}
	out = g.overlap(in, inOfs, out, outOfs)
	n := 0
	if b := len(e.ibuf); b > 0 && inLen+b >= aesBlockSize {
		rem := aesBlockSize - b
		block := append(slices.Clone(e.ibuf), in[inOfs:inOfs+rem]...)
		r, err := g.opUpdate(ctx, block, 0, aesBlockSize, out, outOfs)
		if err != nil {
			return 0, err
		}
		n, inOfs, inLen, outOfs = r, inOfs+rem, inLen-rem, outOfs+aesBlockSize
		e.ibuf = e.ibuf[:0]
	}
	if p := g.prof.parallelLen; p > 0 && inLen >= p {
		r, err := g.implGCMCrypt(ctx, in, inOfs, inLen, out, outOfs, out, outOfs)
		if err != nil {
			return 0, err
		}
		n, inOfs, inLen, outOfs = n+r, inOfs+r, inLen-r, outOfs+r
	}
	if inLen >= aesBlockSize {
		r, err := g.opUpdate(ctx, in, inOfs, inLen, out, outOfs)
		if err != nil {
			return 0, err
		}
		n, inOfs, inLen = n+r, inOfs+r, inLen-r
	}
	if rem := inLen % aesBlockSize; rem > 0 {
		e.ibuf = append(e.ibuf, in[inOfs+inLen-rem:inOfs+inLen]...)
	}
	g.restoreOut(out, n)
	e.processed += n
	return n, nil
}

// doFinalAlloc is engineDoFinal(input): output of getOutputSize (in the
// Cipher's output scratch: the caller copies it or lends it out), a
// ShortBufferException wrapped in a ProviderException, and the engine
// released whatever happens.
func (g *gcmCipher) doFinalAlloc(ctx context.Context, in []byte) ([]byte, error) {
	out := g.c.arrays.outBuf(g.outputSize(len(in), true))
	n, err := g.doFinal(ctx, in, 0, len(in), out, 0)
	g.eng = nil
	if err != nil {
		var je *JavaException
		if errors.As(err, &je) && je.Class == ShortBufferException {
			return nil, wrapProvider(err)
		}
		return nil, err
	}
	return out[:n], nil
}

// doFinal is engineDoFinal with an output array. The engine is released
// after success, and after any failure but a short output buffer (which
// the caller may retry with a larger one).
func (g *gcmCipher) doFinal(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	if err := g.checkReInit(); err != nil {
		return 0, err
	}
	if err := g.engine(ctx); err != nil {
		return 0, err
	}
	var n int
	var err error
	if g.encrypt {
		n, err = g.encryptFinal(ctx, in, inOfs, inLen, out, outOfs)
	} else {
		n, err = g.decryptFinal(ctx, in, inOfs, inLen, out, outOfs)
	}
	if err == nil || !isShortBuffer(err) {
		g.release()
	}
	if err == nil && g.encrypt {
		g.reInit = true
	}
	return n, err
}

// tagOf is the tag computation of GCMEncrypt/GCMDecrypt.doFinal: the
// length block (SP 800-38D §7.1 step 5) through GHASH.update, the digest,
// and GCTR.doFinal from J0 (step 6) on a new GCTR object.
func (g *gcmCipher) tagOf(ctx context.Context, ctLen int) ([]byte, error) {
	e := g.eng
	lb := e.lb[:]
	binary.BigEndian.PutUint64(lb, uint64(uint32(e.sizeOfAAD))<<3)
	binary.BigEndian.PutUint64(lb[8:], uint64(uint32(ctLen))<<3)
	if err := g.ghashUpdate(ctx, e.state, lb, 0, aesBlockSize); err != nil {
		return nil, err
	}
	s := digest(e.sum[:], e.state)
	// a new GCTR object from J0: its counter, encryptedCounter and used
	copy(e.tagCtr[:], e.j0)
	clear(e.tagEctr[:])
	e.tagUsed[0] = aesBlockSize
	args := append(g.gctrArgs(g.args(), e.tagCtr[:], e.tagEctr[:], e.tagUsed[:]),
		bytecode.BytesArg(s), bytecode.IntArg(0), bytecode.IntArg(g.tagLen), bytecode.BytesArg(s), bytecode.IntArg(0))
	if _, err := g.c.callRef(ctx, refGCTRDoFinal, args...); err != nil {
		return nil, err
	}
	return s[:g.tagLen], nil
}

// encryptFinal is GCMEncrypt.doFinal (JDK 8's encryptFinal under
// CipherCore): the buffered block, JDK 17's throttleData above
// TRIGGERLEN, EncryptOp.doFinal (GCMEngine.doLastBlock), then the tag.
func (g *gcmCipher) encryptFinal(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	e := g.eng
	need := g.outputSize(inLen, true)
	if outOfs < 0 || need > len(out)-outOfs {
		if g.prof.gcmCipherCore {
			return 0, javaThrow(ShortBufferException, "Output buffer must be (at least) %d bytes long", need)
		}
		return 0, javaThrow(ShortBufferException, "Output buffer invalid")
	}
	if err := g.processAAD(ctx); err != nil {
		return 0, err
	}
	out = g.overlap(in, inOfs, out, outOfs)
	n := 0
	if b := len(e.ibuf); b > 0 {
		if b+inLen >= aesBlockSize {
			used := aesBlockSize - b
			block := append(slices.Clone(e.ibuf), in[inOfs:inOfs+used]...)
			if _, err := g.opUpdate(ctx, block, 0, aesBlockSize, out, outOfs); err != nil {
				return 0, err
			}
			inOfs, inLen, outOfs, n = inOfs+used, inLen-used, outOfs+aesBlockSize, aesBlockSize
		} else {
			in = append(slices.Clone(e.ibuf), in[inOfs:inOfs+inLen]...)
			inOfs, inLen = 0, len(in)
		}
		e.ibuf = e.ibuf[:0]
	}
	if g.prof.gcmThrottle && inLen > gcmTriggerLen {
		r, err := g.throttle(ctx, opBoth, in, inOfs, inLen, out, outOfs)
		if err != nil {
			return 0, err
		}
		inOfs, inLen, outOfs, n = inOfs+r, inLen-r, outOfs+r, n+r
	}
	r, err := g.doLastBlock(ctx, in, inOfs, inLen, out, outOfs)
	if err != nil {
		return 0, err
	}
	n += r
	tag, err := g.tagOf(ctx, e.processed+n)
	if err != nil {
		return 0, err
	}
	copy(out[outOfs+inLen:], tag)
	n += g.tagLen
	g.restoreOut(out, n)
	return n, nil
}

// throttle is JDK 17's GCMEngine.throttleData: five GCTRGHASH.update
// segments of a sixth of the data (whole blocks), then one more update for
// the whole blocks left.
func (g *gcmCipher) throttle(ctx context.Context, op gcmOp, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	seg := inLen / 6
	seg -= seg % aesBlockSize
	n := 0
	for range 5 {
		r, err := g.update1(ctx, op, in, inOfs+n, seg, out, outOfs+n)
		if err != nil {
			return 0, err
		}
		n += r
	}
	r, err := g.update1(ctx, op, in, inOfs+n, inLen-n, out, outOfs+n)
	if err != nil {
		return 0, err
	}
	return n + r, nil
}

// decryptFinal is GCMDecrypt.doFinal on arrays: the buffered ciphertext
// and the input, the tag found at their end, then either one DecryptOp pass
// with the output zeroed on a bad tag (JDK 18+), or a GHASH pass, the tag
// check and only then GCTR (JDK 8, 8u, 17). No plaintext is returned when
// the tag is wrong.
func (g *gcmCipher) decryptFinal(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	e := g.eng
	total := inLen + len(e.ibuf)
	ptLen := total - g.tagLen
	outBad := outOfs < 0 || ptLen < 0 || outOfs > len(out)-ptLen
	switch {
	case g.prof.gcmCipherCore && len(out)-outOfs < max(ptLen, 0):
		return 0, javaThrow(ShortBufferException, "Output buffer must be (at least) %d bytes long", max(ptLen, 0))
	case g.prof.gcmOutCheckFirst && outBad:
		return 0, javaThrow(ShortBufferException, "Output buffer invalid")
	case ptLen < 0:
		msg := g.prof.tooShort
		if strings.Contains(msg, "%d") {
			msg = fmt.Sprintf(msg, g.tagLen)
		}
		return 0, javaThrow(AEADBadTagException, "%s", msg)
	case outBad:
		return 0, javaThrow(ShortBufferException, "Output buffer invalid")
	}
	if err := g.processAAD(ctx); err != nil {
		return 0, err
	}
	g.findTag(in, inOfs, inLen)
	out = g.overlap(in, inOfs, out, outOfs)
	if g.prof.gcmVerifyFirst {
		return g.decryptVerifyFirst(ctx, in, inOfs, inLen, out, outOfs)
	}
	n, err := g.decryptBlocks(ctx, opBoth, in, inOfs, inLen, out, outOfs)
	if err != nil {
		return 0, err
	}
	tag, err := g.tagOf(ctx, n)
	if err != nil {
		return 0, err
	}
	if !tagEqual(tag, e.tag) {
		if !e.inPlace {
			clear(out[outOfs : outOfs+n])
		}
		return 0, javaThrow(AEADBadTagException, "%s", g.prof.tagMismatch)
	}
	g.restoreOut(out, n)
	return n, nil
}

// findTag is GCMDecrypt.findTag: the tag is the last tagLen bytes of the
// buffered ciphertext followed by the input; tagOfs < 0 when part of it is
// still in the buffer.
func (g *gcmCipher) findTag(in []byte, inOfs, inLen int) {
	e := g.eng
	if e.tag == nil {
		e.tag = e.tagBuf[:0]
	}
	e.tag = append(e.tag[:0], make([]byte, g.tagLen)...)
	if inLen >= g.tagLen {
		e.tagOfs = inLen - g.tagLen
		copy(e.tag, in[inOfs+e.tagOfs:inOfs+inLen])
		return
	}
	fromBuf := g.tagLen - inLen
	copy(e.tag, e.ibuf[len(e.ibuf)-fromBuf:])
	copy(e.tag[fromBuf:], in[inOfs:inOfs+inLen])
	e.tagOfs = inLen - g.tagLen
}

// decryptBlocks is GCMDecrypt.decryptBlocks: the buffered ciphertext
// (implGCMCrypt for its PARALLEL_LEN multiples, op.update for whole
// blocks, one block merged with the input), JDK 17's throttleData above
// TRIGGERLEN, then op.doFinal (GCMEngine.doLastBlock when op is both) on
// the rest. It returns the plaintext length.
func (g *gcmCipher) decryptBlocks(ctx context.Context, op gcmOp, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	e := g.eng
	b := len(e.ibuf)
	if e.tagOfs < 0 {
		inLen = 0
		b += e.tagOfs
	} else {
		inLen -= g.tagLen
	}
	n := 0
	if b > 0 {
		buf := e.ibuf
		if p := g.prof.parallelLen; p > 0 && b >= p && op == opBoth {
			r, err := g.implGCMCrypt(ctx, buf, 0, b, buf, 0, out, outOfs)
			if err != nil {
				return 0, err
			}
			n, outOfs = r, outOfs+r
		}
		rem := b - n
		if rem >= aesBlockSize {
			r, err := g.update1(ctx, op, buf, n, rem, out, outOfs)
			if err != nil {
				return 0, err
			}
			n, outOfs, rem = n+r, outOfs+r, rem-r
		}
		if rem > 0 {
			block := make([]byte, aesBlockSize)
			copy(block, buf[n:n+rem])
			used := min(aesBlockSize-rem, inLen)
			copy(block[rem:], in[inOfs:inOfs+used])
			inOfs, inLen = inOfs+used, inLen-used
			if inLen > 0 {
				r, err := g.update1(ctx, op, block, 0, aesBlockSize, out, outOfs)
				if err != nil {
					return 0, err
				}
				n, outOfs = n+r, outOfs+r
			} else {
				in, inOfs, inLen = block, 0, used+rem
			}
		}
	}
	if g.prof.gcmThrottle && inLen > gcmTriggerLen {
		r, err := g.throttle(ctx, op, in, inOfs, inLen, out, outOfs)
		if err != nil {
			return 0, err
		}
		n, inOfs, inLen, outOfs = n+r, inOfs+r, inLen-r, outOfs+r
	}
	r, err := g.final1(ctx, op, in, inOfs, inLen, out, outOfs)
	return n + r, err
}

// decryptVerifyFirst is the JDK 8/8u/17 decryption: GHASH over the whole
// ciphertext, the tag compared, and only then GCTR into the output. JDK 17
// walks the ciphertext with decryptBlocks twice (GHASH as the operation,
// then GCTR); JDK 8's decryptFinal hashes it with GHASH.doFinal and
// decrypts it with GCTR.doFinal.
func (g *gcmCipher) decryptVerifyFirst(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	e := g.eng
	if !g.prof.gcmCipherCore { // JDK 17: decryptBlocks with GHASH, the tag, decryptBlocks with GCTR
		n, err := g.decryptBlocks(ctx, opGHASH, in, inOfs, inLen, nil, 0)
		if err != nil {
			return 0, err
		}
		tag, err := g.tagOf(ctx, n)
		if err != nil {
			return 0, err
		}
		if !tagEqual(tag, e.tag) {
			return 0, javaThrow(AEADBadTagException, "%s", g.prof.tagMismatch)
		}
		if n, err = g.decryptBlocks(ctx, opGCTR, in, inOfs, inLen, out, outOfs); err != nil {
			return 0, err
		}
		g.restoreOut(out, n)
		return n, nil
	}
	ct, ctOfs := in, inOfs
	n := inLen + len(e.ibuf) - g.tagLen
	if len(e.ibuf) > 0 {
		ct = append(slices.Clone(e.ibuf), in[inOfs:inOfs+inLen]...)
		ctOfs = 0
	}
	if err := g.ghashDoFinal(ctx, ct, ctOfs, n); err != nil {
		return 0, err
	}
	tag, err := g.tagOf(ctx, n)
	if err != nil {
		return 0, err
	}
	if !tagEqual(tag, e.tag) {
		return 0, javaThrow(AEADBadTagException, "%s", g.prof.tagMismatch)
	}
	if _, err := g.gctr(ctx, refGCTRDoFinal, ct, ctOfs, n, out, outOfs); err != nil {
		return 0, err
	}
	g.restoreOut(out, n)
	return n, nil
}

// tagEqual compares tags without an early exit, as the JDK does.
func tagEqual(a, b []byte) bool {
	var d byte
	for i := range a {
		d |= a[i] ^ b[i]
	}
	return d == 0 && len(a) == len(b)
}

// isShortBuffer reports whether err is a ShortBufferException (the one
// failure after which the caller may retry doFinal with the same engine).
func isShortBuffer(err error) bool {
	var je *JavaException
	return errors.As(err, &je) && je.Class == ShortBufferException
}
