package scenario

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
)

// TestAESMain is the JDK-7184394 test program (hotspot
// test/compiler/7184394, later compiler/codegen/aes: TestAESMain,
// TestAESBase, TestAESEncode, TestAESDecode), rewritten in Go on the
// provider layer: it prepares an encrypting TestAESEncode, runs it
// warmupIterations times, times iterations runs, then does the same with a
// decrypting TestAESDecode, printing what the Java test prints.
var TestAESMain = register(Scenario{
	Name: "TestAESMain",
	Doc:  "JDK-7184394's AES test: warm up, then time N encryptions and N decryptions of one message",
	Args: "[iterations=100000] [warmupIterations=20000]",
	Props: []Property{
		{Name: "mode", Default: "CBC", Doc: "CBC, ECB, CTR or GCM"},
		{Name: "msgSize", Default: "646", Doc: "message bytes"},
		{Name: "keySize", Default: "128", Doc: "key bits (128 is the fixed key f8f9…0607; others random, 0 means 128)"},
		{Name: "algorithm", Default: "AES", Doc: "the transformation's algorithm"},
		{Name: "paddingStr", Default: "", Doc: "padding; default PKCS5Padding, NoPadding for GCM/CTR/CTS from JDK 17 (the test's later default)"},
		{Name: "checkOutput", Default: "false", Doc: "compare every output with the first one and with crypto/cipher; print the arrays"},
		{Name: "noReinit", Default: "false", Doc: "do not re-init the cipher before each run (not GCM)"},
		{Name: "encInputOffset", Default: "0", Doc: "input offset for encryption (mod 8; non-zero: update + doFinal)"},
		{Name: "encOutputOffset", Default: "0", Doc: "output offset for encryption (mod 8)"},
		{Name: "decOutputOffset", Default: "0", Doc: "output offset for decryption (mod 8)"},
		{Name: "lastChunkSize", Default: "32", Doc: "doFinal's share when the offsets are misaligned"},
	},
	run: runTestAESMain,
})

// aesAlign is TestAESBase.ALIGN: offsets are taken mod 8.
const aesAlign = 8

// aesParams are TestAESBase's fields read from system properties.
type aesParams struct {
	msgSize, keySize, lastChunkSize                  int
	checkOutput, noReinit, misaligned                bool
	encInputOffset, encOutputOffset, decOutputOffset int
	algorithm, mode, paddingStr                      string
}

// aesTestKey is TestAESBase's fixed 128-bit key: the bytes -8..7.
var aesTestKey = []byte{0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff, 0, 1, 2, 3, 4, 5, 6, 7}

// aesTestAAD is TestAESBase's 5-byte AAD; the GCM tag is tlen = 12 bytes
// and the IV 16 zero bytes.
var aesTestAAD = []byte{0x11, 0x22, 0x33, 0x44, 0x55}

const aesTestTagLen = 12

// readAESParams reads the properties, strictly.
func readAESParams(r *runner) (aesParams, error) {
	var p aesParams
	var err error
	ints := []struct {
		name string
		dst  *int
		min  int
	}{
		{"msgSize", &p.msgSize, 0}, {"keySize", &p.keySize, 0}, {"lastChunkSize", &p.lastChunkSize, 0},
		{"encInputOffset", &p.encInputOffset, 0}, {"encOutputOffset", &p.encOutputOffset, 0},
		{"decOutputOffset", &p.decOutputOffset, 0},
	}
	for _, f := range ints {
		if *f.dst, err = r.minIntProp(f.name, f.min); err != nil {
			return p, err
		}
	}
	p.encInputOffset %= aesAlign
	p.encOutputOffset %= aesAlign
	p.decOutputOffset %= aesAlign
	if p.checkOutput, err = r.boolProp("checkOutput"); err != nil {
		return p, err
	}
	if p.noReinit, err = r.boolProp("noReinit"); err != nil {
		return p, err
	}
	p.checkOutput = p.checkOutput || r.check
	p.algorithm, _ = r.prop("algorithm")
	p.mode, _ = r.prop("mode")
	var set bool
	p.paddingStr, set = r.prop("paddingStr")
	if !set {
		p.paddingStr = "PKCS5Padding"
		if r.rel >= jdk.R17 && (p.mode == "GCM" || p.mode == "CTR" || p.mode == "CTS") {
			p.paddingStr = "NoPadding"
		}
	}
	p.misaligned = p.encInputOffset != 0 || p.encOutputOffset != 0 || p.decOutputOffset != 0
	if p.misaligned && p.lastChunkSize > p.msgSize {
		return p, fmt.Errorf("property lastChunkSize=%d exceeds msgSize=%d (the offsets are misaligned, so the message is split)", p.lastChunkSize, p.msgSize)
	}
	return p, nil
}

// sunJCEVersion is Provider.toString of SunJCE: "SunJCE version 1.8" on
// JDK 8, the feature release from JDK 9 on (java 17 prints "SunJCE version
// 17").
func sunJCEVersion(rel jdk.Release) string {
	if rel.Feature() == 8 {
		return "SunJCE version 1.8"
	}
	return fmt.Sprintf("SunJCE version %d", rel.Feature())
}

// providerTransformation is the transformation asked of the provider
// layer. JDK 8's SunJCE accepts AES/GCM/PKCS5Padding and ignores the
// padding (the JDK-8073108 seed ran it); jitsim's provider knows only
// NoPadding for GCM, so on 8/8u the request becomes NoPadding while the
// program still prints the name it asked for.
func providerTransformation(rel jdk.Release, tr string) string {
	parts := strings.Split(tr, "/")
	if rel.Feature() == 8 && len(parts) == 3 && strings.EqualFold(parts[1], "GCM") && strings.EqualFold(parts[2], "PKCS5Padding") {
		return parts[0] + "/" + parts[1] + "/NoPadding"
	}
	return tr
}

// aesTest is one TestAESEncode or TestAESDecode object.
type aesTest struct {
	r       *runner
	p       aesParams
	inv     jce.Invoker
	id      int // threadId
	decrypt bool
	trans   string

	key             []byte
	cipher, dCipher *jce.Cipher
	algParams       jce.ParamSpec
	iv              []byte
	input           []byte
	encode, decode  []byte
	expEnc, expDec  []byte
	encodeLength    int
	decodeLength    int
	decodeMsgSize   int
}

// newArray is the Java program's new byte[n], in the VM's Java heap so
// that the cipher calls pass it in place, as HotSpot's compiled code uses
// the program's arrays; old, the array the program drops for it, goes
// back to the heap (the collector's part). Without a heap, or when it is
// full, it is Go memory.
func (t *aesTest) newArray(old []byte, n int) []byte {
	h := jce.HeapOf(t.inv)
	if h == nil {
		return make([]byte, n)
	}
	if old != nil {
		_ = h.Free(old) // an error: old was Go memory
	}
	b, err := h.Alloc(n)
	if err != nil {
		return make([]byte, n)
	}
	return b
}

// getInstance is Cipher.getInstance(transformation, "SunJCE").
func (t *aesTest) getInstance() (*jce.Cipher, error) {
	return jce.GetInstance(t.inv, t.r.rel, providerTransformation(t.r.rel, t.trans))
}

// gcmInit is TestAESBase.gcm_init: a new encrypting cipher each time
// (GCM refuses to reuse a key and IV), or a re-init of the decrypting one;
// then the AAD.
func (t *aesTest) gcmInit(ctx context.Context, encrypt bool) error {
	spec := jce.GCMParameterSpec{TLen: aesTestTagLen * 8, IV: t.iv}
	if encrypt {
		c, err := t.getInstance()
		if err != nil {
			return err
		}
		t.cipher = c
		if err := c.Init(ctx, jce.EncryptMode, t.key, spec); err != nil {
			return err
		}
		return c.UpdateAAD(aesTestAAD)
	}
	if err := t.dCipher.Init(ctx, jce.DecryptMode, t.key, spec); err != nil {
		return err
	}
	return t.dCipher.UpdateAAD(aesTestAAD)
}

// prepare is TestAESBase.prepare: print the settings, make the key and
// both ciphers, size the arrays, do one encryption and decryption.
func (t *aesTest) prepare(ctx context.Context) error {
	p, out := t.p, t.r.out
	if t.id == 0 {
		out.printf("\nalgorithm=%s, mode=%s, paddingStr=%s, msgSize=%d, keySize=%d, noReinit=%t, checkOutput=%t, encInputOffset=%d, encOutputOffset=%d, decOutputOffset=%d, lastChunkSize=%d\n",
			p.algorithm, p.mode, p.paddingStr, p.msgSize, p.keySize, p.noReinit, p.checkOutput,
			p.encInputOffset, p.encOutputOffset, p.decOutputOffset, p.lastChunkSize)
	}
	keyLen := p.keySize / 8
	if p.keySize == 0 {
		keyLen = 16
	}
	if p.keySize == 128 {
		t.key = aesTestKey
	} else {
		t.key = make([]byte, keyLen)
		rng := rand.New(rand.NewPCG(uint64(p.keySize), uint64(t.id)))
		for i := range t.key {
			t.key[i] = byte(rng.Uint32())
		}
	}
	if t.id == 0 {
		out.printf("Algorithm: %s(%dbit)\n", p.algorithm, len(t.key)*8)
	}
	t.trans = p.algorithm + "/" + p.mode + "/" + p.paddingStr
	t.iv = make([]byte, 16)
	var err error
	if t.cipher, err = t.getInstance(); err != nil {
		return err
	}
	if t.dCipher, err = t.getInstance(); err != nil {
		return err
	}
	switch p.mode {
	case "CBC", "CTR":
		spec := jce.IvParameterSpec{IV: t.iv}
		if err := t.cipher.Init(ctx, jce.EncryptMode, t.key, spec); err != nil {
			return err
		}
		t.algParams = jce.IvParameterSpec{IV: t.cipher.IV()} // cipher.getParameters()
		if err := t.dCipher.Init(ctx, jce.DecryptMode, t.key, spec); err != nil {
			return err
		}
	case "GCM":
		if err := t.gcmInit(ctx, true); err != nil {
			return err
		}
		if err := t.gcmInit(ctx, false); err != nil {
			return err
		}
	default:
		if err := t.cipher.Init(ctx, jce.EncryptMode, t.key, nil); err != nil {
			return err
		}
		if err := t.dCipher.Init(ctx, jce.DecryptMode, t.key, nil); err != nil {
			return err
		}
	}
	if t.id == 0 {
		kind := "Encryption"
		if t.decrypt {
			kind = "Decryption"
		}
		// showCipher prints the encrypting cipher in both tests (the
		// Java code's own slip); the texts are the same.
		out.printf("%s cipher provider: %s\n", kind, sunJCEVersion(t.r.rel))
		out.printf("%s cipher algorithm: %s\n", kind, t.trans) // getAlgorithm: the name asked for
	}
	inputLength := p.msgSize + p.encInputOffset
	if p.misaligned {
		t.encodeLength = t.cipher.OutputSize(p.msgSize-p.lastChunkSize) + p.encOutputOffset
		t.encodeLength += t.cipher.OutputSize(p.lastChunkSize)
		t.decodeLength = t.dCipher.OutputSize(t.encodeLength-p.lastChunkSize) + p.decOutputOffset
		t.decodeLength += t.dCipher.OutputSize(p.lastChunkSize)
	} else {
		t.encodeLength = t.cipher.OutputSize(p.msgSize) + p.encOutputOffset
		t.decodeLength = t.dCipher.OutputSize(t.encodeLength) + p.decOutputOffset
	}
	t.input = t.newArray(nil, inputLength)
	for i, j := p.encInputOffset, 0; i < inputLength; i, j = i+1, j+1 {
		t.input[i] = byte(j)
	}
	t.encode = t.newArray(nil, t.encodeLength)
	t.decode = t.newArray(nil, t.decodeLength)
	if p.misaligned {
		n, err := t.cipher.UpdateTo(ctx, t.input, p.encInputOffset, p.msgSize-p.lastChunkSize, t.encode, p.encOutputOffset)
		if err != nil {
			return err
		}
		m, err := t.cipher.DoFinalTo(ctx, t.input, p.encInputOffset+p.msgSize-p.lastChunkSize, p.lastChunkSize, t.encode, p.encOutputOffset+n)
		if err != nil {
			return err
		}
		t.decodeMsgSize = n + m
		if t.decodeMsgSize < p.lastChunkSize {
			return fmt.Errorf("BUG: ciphertext of %d bytes is shorter than lastChunkSize %d", t.decodeMsgSize, p.lastChunkSize)
		}
		tmp, err := t.dCipher.UpdateTo(ctx, t.encode, p.encOutputOffset, t.decodeMsgSize-p.lastChunkSize, t.decode, p.decOutputOffset)
		if err != nil {
			return err
		}
		if _, err := t.dCipher.DoFinalTo(ctx, t.encode, p.encOutputOffset+t.decodeMsgSize-p.lastChunkSize, p.lastChunkSize, t.decode, p.decOutputOffset+tmp); err != nil {
			return err
		}
	} else {
		if t.decodeMsgSize, err = t.cipher.DoFinalTo(ctx, t.input, p.encInputOffset, p.msgSize, t.encode, p.encOutputOffset); err != nil {
			return err
		}
		if _, err := t.dCipher.DoFinalTo(ctx, t.encode, p.encOutputOffset, t.decodeMsgSize, t.decode, p.decOutputOffset); err != nil {
			return err
		}
	}
	if p.checkOutput {
		t.expEnc, t.expDec = append([]byte(nil), t.encode...), append([]byte(nil), t.decode...)
		if t.id == 0 {
			showArray(out, t.key, "key:    ")
			showArray(out, t.input, "input:  ")
			showArray(out, t.encode, "encode: ")
			showArray(out, t.decode, "decode: ")
		}
		if err := t.checkOracle(); err != nil {
			return err
		}
	}
	return nil
}

// checkOracle checks the prepared encryption against crypto/cipher and
// the decryption against the input.
func (t *aesTest) checkOracle() error {
	p := t.p
	msg := t.input[p.encInputOffset : p.encInputOffset+p.msgSize]
	spec := oracleSpec{mode: strings.ToUpper(p.mode), padding: strings.EqualFold(p.paddingStr, "PKCS5Padding") && !strings.EqualFold(p.mode, "GCM"),
		key: t.key, aad: aesTestAAD, tagLen: aesTestTagLen}
	if spec.mode != "ECB" {
		spec.iv = t.iv
	}
	want, err := oracleEncrypt(spec, msg)
	if err != nil {
		return err
	}
	if t.decodeMsgSize != len(want) || p.encOutputOffset+t.decodeMsgSize > len(t.encode) {
		return fmt.Errorf("checkOutput: ciphertext is %d bytes, crypto/cipher's %d", t.decodeMsgSize, len(want))
	}
	if err := checkBytes("checkOutput: encode vs crypto/cipher", t.encode[p.encOutputOffset:p.encOutputOffset+t.decodeMsgSize], want); err != nil {
		return err
	}
	if p.decOutputOffset+p.msgSize > len(t.decode) {
		return fmt.Errorf("checkOutput: decode array of %d bytes cannot hold the %d-byte message at %d", len(t.decode), p.msgSize, p.decOutputOffset)
	}
	return checkBytes("checkOutput: decode vs input", t.decode[p.decOutputOffset:p.decOutputOffset+p.msgSize], msg)
}

// showArray is TestAESBase.showArray: name, length, the first 32 bytes.
func showArray(out *syncWriter, b []byte, name string) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s [%d]: ", name, len(b))
	for _, c := range b[:min(len(b), 32)] {
		fmt.Fprintf(&sb, "%02x ", c)
	}
	out.printf("%s\n", sb.String())
}

// run is TestAESEncode.run or TestAESDecode.run.
func (t *aesTest) run(ctx context.Context) error {
	p := t.p
	if !t.decrypt {
		if p.mode == "GCM" {
			if err := t.gcmInit(ctx, true); err != nil {
				return err
			}
		} else if !p.noReinit {
			if err := t.cipher.Init(ctx, jce.EncryptMode, t.key, t.algParams); err != nil {
				return err
			}
		}
		t.encode = t.newArray(t.encode, t.encodeLength)
		if p.misaligned {
			n, err := t.cipher.UpdateTo(ctx, t.input, p.encInputOffset, p.msgSize-p.lastChunkSize, t.encode, p.encOutputOffset)
			if err != nil {
				return err
			}
			if _, err := t.cipher.DoFinalTo(ctx, t.input, p.encInputOffset+p.msgSize-p.lastChunkSize, p.lastChunkSize, t.encode, p.encOutputOffset+n); err != nil {
				return err
			}
		} else if _, err := t.cipher.DoFinalTo(ctx, t.input, p.encInputOffset, p.msgSize, t.encode, p.encOutputOffset); err != nil {
			return err
		}
		if p.checkOutput {
			return checkBytes("TestAESEncode", t.encode, t.expEnc)
		}
		return nil
	}
	if p.mode == "GCM" {
		if err := t.gcmInit(ctx, false); err != nil {
			return err
		}
	} else if !p.noReinit {
		if err := t.dCipher.Init(ctx, jce.DecryptMode, t.key, t.algParams); err != nil {
			return err
		}
	}
	t.decode = t.newArray(t.decode, t.decodeLength)
	if p.misaligned {
		n, err := t.dCipher.UpdateTo(ctx, t.encode, p.encOutputOffset, t.decodeMsgSize-p.lastChunkSize, t.decode, p.decOutputOffset)
		if err != nil {
			return err
		}
		if _, err := t.dCipher.DoFinalTo(ctx, t.encode, p.encOutputOffset+t.decodeMsgSize-p.lastChunkSize, p.lastChunkSize, t.decode, p.decOutputOffset+n); err != nil {
			return err
		}
	} else if _, err := t.dCipher.DoFinalTo(ctx, t.encode, p.encOutputOffset, t.decodeMsgSize, t.decode, p.decOutputOffset); err != nil {
		return err
	}
	if p.checkOutput {
		return checkBytes("TestAESDecode", t.decode, t.expDec)
	}
	return nil
}

// runTestAESMain is TestAESMain.main on every application thread (thread 0
// prints the settings; every thread prints its runtimes).
func runTestAESMain(ctx context.Context, r *runner) error {
	a, err := r.intArgs([]string{"iterations", "warmupIterations"}, []int{100000, 20000})
	if err != nil {
		return err
	}
	iters, warmups := a[0], a[1]
	p, err := readAESParams(r)
	if err != nil {
		return err
	}
	r.out.printf("%d iterations\n", iters)
	return r.parallel(ctx, r.env.VM, func(ctx context.Context, id int, inv jce.Invoker) error {
		for _, decrypt := range []bool{false, true} {
			t := &aesTest{r: r, p: p, inv: inv, id: id, decrypt: decrypt}
			if err := t.prepare(ctx); err != nil {
				return err
			}
			what, name, phase := "encryption", "TestAESEncode", "encrypt"
			if decrypt {
				what, name, phase = "decryption", "TestAESDecode", "decrypt"
			}
			if id == 0 {
				r.out.printf("Starting %s warm-up\n", what)
			}
			if _, err := r.loop(ctx, t, id, phase+"-warmup", warmups, p.msgSize); err != nil {
				return err
			}
			if id == 0 {
				r.out.printf("Finished %s warm-up\n", what)
			}
			start := r.now()
			done, err := r.loop(ctx, t, id, phase, iters, p.msgSize)
			ms := float64((r.now() - start).Nanoseconds()) / 1e6
			if err != nil {
				if errors.Is(err, context.Canceled) && done > 0 { // stopped by a signal: the partial total
					r.out.printf("%s runtime was %s ms (stopped after %d of %d iterations)\n", name, javaDouble(ms), done, iters)
				}
				return err
			}
			r.out.printf("%s runtime was %s ms\n", name, javaDouble(ms))
		}
		return nil
	})
}

// loop runs t n times, reporting each run to the observer when there is
// one (the clock is read per run only then), and returns how many runs
// ended (fewer than n when it stops early with an error).
func (r *runner) loop(ctx context.Context, t *aesTest, id int, phase string, n, bytes int) (int, error) {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		var t0 time.Duration
		if r.env.Observer != nil {
			t0 = r.now()
		}
		if err := t.run(ctx); err != nil {
			return i, err
		}
		if r.env.Observer != nil {
			t1 := r.now()
			r.observe(Iteration{Phase: phase, Thread: id, Index: i, Start: t0, Duration: t1 - t0, Ops: 1, Bytes: int64(bytes)})
		}
	}
	return n, nil
}
