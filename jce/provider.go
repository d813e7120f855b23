package jce

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
)

// This file is the provider layer: what javax.crypto.Cipher and the SunJCE
// provider (com.sun.crypto.provider.CipherCore, GaloisCounterMode and its
// engines) do in Java above the reference methods of bytecode. The
// Java logic those methods do not model — transformation parsing, key and
// parameter checks, CipherCore's buffering and PKCS5 padding, the GCM
// engines' AAD, buffering, tag and size routing — is written here in Go;
// every call the JDK makes to a modelled method (AESCrypt.makeSessionKey,
// CipherBlockChaining.encrypt, CounterMode.implCrypt, GCTR.update,
// GHASH.update, GaloisCounterMode.implGCMCrypt, GCMEngine.doLastBlock, ...)
// goes through an [Invoker], so the VM counts it, compiles it and routes
// the callee's own calls to intrinsics exactly as it does for any Java call.

// Invoker runs a reference method the way the VM does for a call from
// Java code that the VM does not itself model (here: the provider layer):
// count the invocation, let the policy react, run the method's current
// code. The VM's Call satisfies it.
type Invoker interface {
	Call(ctx context.Context, m *bytecode.Method, args []bytecode.Arg) (int64, error)
}

// GlueCharger is an Invoker that also prices the provider code jitsim does not run
// (CipherCore, a mode's init and doFinal set-up) — the VM on the model clock: family is
// "MODE.init" or "MODE.final", priced at the level the method entry (a key) runs at, or
// "MODE.instance" at a Cipher.getInstance (no entry), which only a fresh VM pays for.
type GlueCharger interface {
	ChargeGlue(ctx context.Context, entry, family string) error
}

// chargeGlue charges the provider glue of phase ("init" or "final") of c's mode, when the
// Invoker prices it, at the level of the operation's entry method (glueEntry). The JDK's
// glue methods (Cipher.init and doFinal, CipherCore, GaloisCounterMode's engine, ...) are
// the entry's callers: loop-free and invoked once per operation, as the entry is, so they
// cross the tier thresholds at the operation counts it does (C2 after
// Tier4InvocationThreshold operations) — not when the hot methods under them do. A method
// called per block or per AAD chunk (AESCrypt.implEncryptBlock, GHASH.update) reaches C2
// within a few operations and would price the glue as compiled code thousands of
// operations too early.
func (c *Cipher) chargeGlue(ctx context.Context, phase string) error {
	g := c.glue
	if g == nil {
		return nil
	}
	m := &cipherModes[c.tr.mode]
	family := m.glueFinal
	if phase == "init" {
		family = m.glueInit
	}
	return g.ChargeGlue(ctx, c.entry, family)
}

// glueEntry is the method (key) c's operations enter the mode by, once per operation (set in
// Init, when the direction is known, as c.entry): the
// first of the mode's glueEntries for c's direction the profile has — or GHASH.doFinal for a
// GCM decryption of a release that hashes the ciphertext first (gcmVerifyFirst), which
// calls no GCMEngine.doLastBlock.
func (c *Cipher) glueEntry() string {
	m := &cipherModes[c.tr.mode]
	if m.gcm && c.decrypt && c.prof.gcmVerifyFirst {
		return "GHASH.doFinal"
	}
	dir := 0
	if c.decrypt {
		dir = 1
	}
	for _, k := range m.glueEntries[dir] {
		if _, err := c.tab.Lookup(k); err == nil {
			return k
		}
	}
	return m.glueEntries[dir][0]
}

// Cipher operation cipherModes, javax.crypto.Cipher.ENCRYPT_MODE etc.
const (
	EncryptMode = 1
	DecryptMode = 2
	WrapMode    = 3
	UnwrapMode  = 4
)

// Java exception classes the provider layer throws.
const (
	NoSuchAlgorithmException           = "java.security.NoSuchAlgorithmException"
	InvalidKeyException                = "java.security.InvalidKeyException"
	InvalidAlgorithmParameterException = "java.security.InvalidAlgorithmParameterException"
	InvalidParameterException          = "java.security.InvalidParameterException"
	ProviderException                  = "java.security.ProviderException"
	IllegalBlockSizeException          = "javax.crypto.IllegalBlockSizeException"
	BadPaddingException                = "javax.crypto.BadPaddingException"
	AEADBadTagException                = "javax.crypto.AEADBadTagException"
	ShortBufferException               = "javax.crypto.ShortBufferException"
	IllegalStateException              = "java.lang.IllegalStateException"
	IllegalArgumentException           = "java.lang.IllegalArgumentException"
	UnsupportedOperationException      = "java.lang.UnsupportedOperationException"
)

// JavaException is an exception the provider layer throws as the JDK's
// Cipher would: its class and getMessage() text. Error returns what
// Throwable.toString prints.
type JavaException struct {
	Class   string
	Message string
}

// Error returns "class: message", as Throwable.toString prints it.
func (e *JavaException) Error() string {
	if e.Message == "" {
		return e.Class
	}
	return e.Class + ": " + e.Message
}

// javaThrow returns a JavaException of class with a formatted message.
func javaThrow(class, format string, args ...any) error {
	return &JavaException{Class: class, Message: fmt.Sprintf(format, args...)}
}

// wrapProvider is new ProviderException(cause): Java's message is the
// cause's toString.
func wrapProvider(err error) error {
	return &JavaException{Class: ProviderException, Message: err.Error()}
}

// ParamSpec is an AlgorithmParameterSpec handed to Cipher.init: an
// [IvParameterSpec], a [GCMParameterSpec], or nil for none.
type ParamSpec interface{ paramSpec() }

// IvParameterSpec is javax.crypto.spec.IvParameterSpec.
type IvParameterSpec struct{ IV []byte }

// GCMParameterSpec is javax.crypto.spec.GCMParameterSpec: the tag length in
// bits and the IV.
type GCMParameterSpec struct {
	TLen int
	IV   []byte
}

// paramSpec marks the ParamSpec types.
func (IvParameterSpec) paramSpec()  {}
func (GCMParameterSpec) paramSpec() {}

// providerProfile is everything the provider layer does differently per
// JDK profile: one row per profile, read by the code below (no switches on
// the JDK name).
type providerProfile struct {
	rel jdk.Release
	// parallelLen is GaloisCounterMode.PARALLEL_LEN: 7680 from JDK 18
	// (JDK-8267125) through 23 (JDK 21 and 22: facts-21.txt, facts-22.txt),
	// 512 from JDK-8337632 (verified: Temurin 25.0.3's class file); 0 where
	// there is no implGCMCrypt (JDK 8, 8u, 17).
	parallelLen int
	// gcmVerifyFirst: GCM decryption hashes the ciphertext and checks the
	// tag before any GCTR (JDK 8's decryptFinal, JDK 17's GCMDecrypt.doFinal
	// with GHASH as the first pass); otherwise one pass of DecryptOp with
	// the plaintext zeroed on a bad tag (JDK 18+).
	gcmVerifyFirst bool
	// gcmThrottle: GCMEncrypt.doFinal splits inputs above TRIGGERLEN into
	// six GCTRGHASH.update segments (JDK 17's throttleData).
	gcmThrottle bool
	// gcmCipherCore: GCM runs under CipherCore, whose capacity check and
	// message come first (JDK 8, 8u).
	gcmCipherCore bool
	// gcmOutCheckFirst: GCMDecrypt.doFinal bounds-checks the output before
	// checking that the input holds a tag (JDK 17).
	gcmOutCheckFirst bool
	tagMismatch      string // AEADBadTagException text on a wrong tag
	// badPadding is CipherCore's BadPaddingException text. JDK 8's is the
	// short form (public Java 8 stack traces); 9+ adds a hint (checked on
	// 17 and 25).
	badPadding string
	tooShort   string // AEADBadTagException text, %d = tag bytes, if any
	// emptyTokenText: Cipher.getInstance reports an empty mode or padding
	// token itself (JDK 25); older JDKs' StringTokenizer skips it and
	// report a format error.
	emptyTokenText bool
}

// CipherCore's BadPaddingException texts.
const (
	shortPadText = "Given final block not properly padded"
	longPadText  = "Given final block not properly padded. Such issues can arise if a bad key is used during decryption."
)

// providerProfiles is the one table of per-JDK provider behaviour. Texts
// for 17 and 25 are checked against the real JVMs (testdata/provider);
// 8, 8u, 21 and 22 follow the JDK sources of those releases.
var providerProfiles = []providerProfile{
	{rel: jdk.R8, gcmVerifyFirst: true, gcmCipherCore: true, badPadding: shortPadText,
		tagMismatch: "Tag mismatch!", tooShort: "Input too short - need tag"},
	{rel: jdk.R8u, gcmVerifyFirst: true, gcmCipherCore: true, badPadding: shortPadText,
		tagMismatch: "Tag mismatch!", tooShort: "Input too short - need tag"},
	{rel: jdk.R17, gcmVerifyFirst: true, gcmThrottle: true, gcmOutCheckFirst: true, badPadding: longPadText,
		tagMismatch: "Tag mismatch!", tooShort: "Input too short - need tag"},
	{rel: jdk.R21, parallelLen: 7680, badPadding: longPadText,
		tagMismatch: "Tag mismatch", tooShort: "Input data too short to contain an expected tag length of %dbytes"},
	{rel: jdk.R22, parallelLen: 7680, badPadding: longPadText,
		tagMismatch: "Tag mismatch", tooShort: "Input data too short to contain an expected tag length of %dbytes"},
	{rel: jdk.R25, parallelLen: 512, emptyTokenText: true, badPadding: longPadText,
		tagMismatch: "Tag mismatch", tooShort: "Input data too short to contain an expected tag length of %dbytes"},
}

// profileFor returns the providerProfiles row of release rel.
func profileFor(rel jdk.Release) (*providerProfile, error) {
	for i := range providerProfiles {
		if providerProfiles[i].rel == rel {
			return &providerProfiles[i], nil
		}
	}
	return nil, fmt.Errorf("provider: unknown JDK profile %v (want one of %s)", rel, strings.Join(jdk.Names(), ", "))
}

// GaloisCounterMode's constants (JDK 18+; TRIGGERLEN also JDK 17).
const (
	aesBlockSize  = 16
	gcmTriggerLen = 65536
	// subkeyHtblLen is the length of GHASH.subkeyHtbl: 18 longs, as the JDK
	// allocates it (javap of GHASH.<init>, JDK 17 and 25). The reference code
	// reads only H ([0], [1]); jitsim's stubs keep more powers of H than 18
	// longs hold (stubs/gcm.HtblLen), and a stub handed this array runs on the
	// VM's own table for its H, made once per H (runtime's subkeyTables), instead
	// of a table zeroed and filled per GHASH object.
	subkeyHtblLen = 18
)

// cipherModes lists the transformations the provider serves: mode name, the
// paddings SunJCE accepts for it, and the engine. ECB is the default mode
// and PKCS5Padding the default padding of the bare "AES".
var cipherModes = []struct {
	name     string
	paddings []string
	gcm      bool
	stream   bool // CipherCore unitBytes 1 (CTR)
	iv       bool // takes an IV
	fixedKey bool // also registered as AES_128/AES_192/AES_256
	// glueEntries are the mode's entry methods (keys) by direction (encryption, decryption),
	// the newer releases' first: the methods the JDK's glue calls once per operation, at
	// whose level the glue is priced (chargeGlue).
	glueEntries [2][]string
	// glueInit, glueFinal and glueInstance are the glue families "MODE.init", "MODE.final"
	// and "MODE.instance" (set by init).
	glueInit, glueFinal, glueInstance string
	// arrays is the block of Java heap a Cipher of the mode takes for its objects' arrays
	// (javaArrays): both session keys of a 256-bit key (480 bytes), and for GCM the GHASH
	// and GCTR objects' fields and the tag's scratch besides (800 bytes in all), a heap
	// size class (a power of two).
	arrays int
}{
	{name: "ECB", paddings: []string{"NOPADDING", "PKCS5PADDING"}, fixedKey: true, arrays: 512, glueEntries: [2][]string{
		{"ElectronicCodeBook.encrypt", "ElectronicCodeBook.implECBEncrypt"}, {"ElectronicCodeBook.decrypt", "ElectronicCodeBook.implECBDecrypt"}}},
	{name: "CBC", paddings: []string{"NOPADDING", "PKCS5PADDING"}, iv: true, fixedKey: true, arrays: 512, glueEntries: [2][]string{
		{"CipherBlockChaining.encrypt", "CipherBlockChaining.implEncrypt"}, {"CipherBlockChaining.decrypt", "CipherBlockChaining.implDecrypt"}}},
	{name: "CTR", paddings: []string{"NOPADDING"}, stream: true, iv: true, arrays: 512, glueEntries: [2][]string{
		{"CounterMode.crypt", "CounterMode.implCrypt"}, {"CounterMode.crypt", "CounterMode.implCrypt"}}},
	{name: "GCM", paddings: []string{"NOPADDING"}, gcm: true, iv: true, fixedKey: true, arrays: 1024, glueEntries: [2][]string{
		{"GaloisCounterMode.GCMEngine.doLastBlock"}, {"GaloisCounterMode.GCMEngine.doLastBlock"}}},
}

func init() {
	for i := range cipherModes {
		cipherModes[i].glueInit = cipherModes[i].name + ".init"
		cipherModes[i].glueFinal = cipherModes[i].name + ".final"
		cipherModes[i].glueInstance = cipherModes[i].name + ".instance"
	}
}

// Cipher is a javax.crypto.Cipher for AES from the SunJCE provider of one
// JDK profile, initialised (getInstance + init in one step). Arrays are
// Java arrays: a nil slice is an empty array, and passing the same slice
// (same first element and length) as input and output is in-place
// operation on one array. A Cipher is not safe for concurrent use (nor is
// Java's).
type Cipher struct {
	inv     Invoker
	tab     *bytecode.Table
	refs    *methodRefs // tab's
	prof    *providerProfile
	trans   string
	tr      transformation
	ready   bool // initialised
	opmode  int
	decrypt bool
	key     []byte
	ke, kd  []uint32 // AESCrypt.sessionK[0], [1]

	lastGCMKey, lastGCMIV []byte // GaloisCounterMode.lastKey, lastIv
	lastKeyBuf            [32]byte
	lastIVBuf             [16]byte // backs lastGCMIV up to 16 bytes (longer IVs grow past it)
	keyBuf                [32]byte // backs key
	// args is the scratch of one reference-method call's arguments, for every
	// provider object of the Cipher: the provider makes one call at a time (a
	// Cipher is not for concurrent use, as in the JDK) and the VM does not keep
	// the slice after the call. Its capacity is the mode's widest call.
	args []bytecode.Arg
	// The mode's objects, allocated with the Cipher (gcmAlloc, coreAlloc) and
	// reset by each init: gcmObj is what gcm points to, coreObj what core points
	// to, engObj the first GCM engine (later ones reuse it through gcmSpare).
	gcmObj     *gcmCipher
	coreObj    *cipherCore
	engObj     *gcmEngine
	engObjUsed bool

	core     *cipherCore // ECB, CBC, CTR
	gcm      *gcmCipher  // GCM
	gcmSpare *gcmEngine  // the arrays of the last finished GCM operation, for the next

	arrays *javaArrays // the provider objects' arrays, in the Java heap when there is one

	entry string // the operation's entry method, at whose level its glue is priced (glueEntry)

	glue GlueCharger // inv, when it prices the glue; nil otherwise (asked once, not per call)
}

// NewCipher is Cipher.getInstance(transformation) followed by
// cipher.init(opmode, new SecretKeySpec(key, "AES"), spec) on release rel.
// Invalid Java input gives a *JavaException with the JDK's class and text;
// a release jitsim does not model a plain error.
func NewCipher(ctx context.Context, inv Invoker, rel jdk.Release, transformation string, opmode int, key []byte, spec ParamSpec) (*Cipher, error) {
	c, err := GetInstance(inv, rel, transformation)
	if err != nil {
		return nil, err
	}
	if err := c.Init(ctx, opmode, key, spec); err != nil {
		return nil, err
	}
	return c, nil
}

// GetInstance is Cipher.getInstance(transformation) on release rel: a
// Cipher that must be initialised with Init before use.
func GetInstance(inv Invoker, rel jdk.Release, transformation string) (*Cipher, error) {
	prof, err := profileFor(rel)
	if err != nil {
		return nil, err
	}
	if inv == nil {
		return nil, fmt.Errorf("provider: nil Invoker")
	}
	tab, err := bytecode.ForProfile(rel)
	if err != nil {
		return nil, err
	}
	t, err := parseTransformation(prof, transformation)
	if err != nil {
		return nil, err
	}
	base := Cipher{inv: inv, tab: tab, refs: refsOf(tab), prof: prof, trans: transformation, tr: t, arrays: newJavaArrays(inv, cipherModes[t.mode].arrays)}
	var c *Cipher
	if cipherModes[t.mode].gcm {
		x, w := gcmSlabs.take()
		x.c = base
		c = &x.c
		c.gcmObj, c.engObj, c.args = &x.g, &x.e, x.args[:0]
		c.arrays.gcmOwner = w
	} else {
		x, w := coreSlabs.take()
		x.c = base
		c = &x.c
		c.coreObj, c.args = &x.core, x.args[:0]
		c.arrays.coreOwner = w
	}
	c.arrays.own()
	if g, ok := inv.(GlueCharger); ok {
		c.glue = g
		if err := g.ChargeGlue(context.Background(), "", cipherModes[t.mode].glueInstance); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// gcmAlloc and coreAlloc are a Cipher with the objects of its mode, of no more
// than the mode needs: a loop that makes a Cipher per operation takes one of
// them per operation, and the Go collector's work follows their size. They are
// allocated slabLen at a time (cipherSlabs).
type gcmAlloc struct {
	c    Cipher
	g    gcmCipher
	e    gcmEngine
	args [13]bytecode.Arg // GaloisCounterMode.implGCMCrypt, the widest call
}

type coreAlloc struct {
	c    Cipher
	core cipherCore
	args [9]bytecode.Arg // CounterMode.implCrypt, the widest call
}

// Init is Cipher.init(opmode, new SecretKeySpec(key, "AES"), spec): it
// (re)initialises the cipher for a new operation. The session key is
// expanded again only when the key changes (AESCrypt.init keeps lastKey);
// GCM encryption refuses the key and IV of the previous encryption init.
// After a failed Init the cipher is not initialised.
func (c *Cipher) Init(ctx context.Context, opmode int, key []byte, spec ParamSpec) error {
	c.ready, c.core, c.gcm = false, nil, nil
	if opmode < EncryptMode || opmode > UnwrapMode {
		return javaThrow(InvalidParameterException, "Invalid operation mode")
	}
	c.opmode = opmode
	c.decrypt = opmode == DecryptMode || opmode == UnwrapMode
	c.entry = c.glueEntry()
	var err error
	if cipherModes[c.tr.mode].gcm {
		err = c.initGCM(ctx, key, spec)
	} else if err = c.checkKeySize(key); err == nil {
		err = c.initCore(ctx, c.tr.mode, c.tr.padding, key, spec)
	}
	if gerr := c.chargeGlue(ctx, "init"); err == nil {
		err = gerr
	}
	if err != nil {
		c.core, c.gcm = nil, nil
		return err
	}
	c.ready = true
	return nil
}

// transformation is a parsed Cipher.getInstance argument.
type transformation struct {
	mode    int  // index into cipherModes
	padding bool // PKCS5Padding
	keySize int  // AES_128 etc.: the one key length accepted, else 0
}

// fixedKeyAlgorithms are SunJCE's key-size-specific AES names, registered
// only as "AES_n/<mode>/NoPadding" for the modes with fixedKeySize.
var fixedKeyAlgorithms = []struct {
	name    string
	keySize int
}{{"AES_128", 16}, {"AES_192", 24}, {"AES_256", 32}}

// parseTransformation is Cipher.getInstance's tokenizer and SunJCE's
// service lookup, engineSetMode and engineSetPadding.
func parseTransformation(prof *providerProfile, tr string) (transformation, error) {
	var t transformation
	if strings.TrimSpace(tr) == "" {
		return t, javaThrow(NoSuchAlgorithmException, "Null or empty transformation")
	}
	var partsBuf [4]string
	parts := partsBuf[:0]
	for rest, more := tr, true; more; {
		var p string
		p, rest, more = strings.Cut(rest, "/")
		p = strings.TrimSpace(p)
		if p == "" && !prof.emptyTokenText {
			continue // java.util.StringTokenizer skips empty tokens
		}
		parts = append(parts, p)
	}
	if len(parts) > 3 { // later tokens belong to the padding name
		parts = append(parts[:2], strings.Join(parts[2:], "/"))
	}
	switch {
	case len(parts) == 0 || len(parts) == 2:
		return t, javaThrow(NoSuchAlgorithmException, "Invalid transformation format:%s", tr)
	case len(parts) == 3 && prof.emptyTokenText && (parts[1] == "" || parts[2] == ""):
		return t, javaThrow(NoSuchAlgorithmException, "Invalid transformation: missing mode and/or padding-%s", tr)
	case parts[0] == "":
		return t, javaThrow(NoSuchAlgorithmException, "Invalid transformation: algorithm not specified-%s", tr)
	}
	notFound := func() error { return javaThrow(NoSuchAlgorithmException, "Cannot find any provider supporting %s", tr) }
	if !strings.EqualFold(parts[0], "AES") {
		for _, f := range fixedKeyAlgorithms {
			if strings.EqualFold(parts[0], f.name) {
				t.keySize = f.keySize
			}
		}
		if t.keySize == 0 || len(parts) != 3 || !strings.EqualFold(parts[2], "NoPadding") {
			return t, notFound()
		}
	}
	if len(parts) == 1 {
		t.padding = true // SunJCE's AES default: ECB, PKCS5Padding
		return t, nil
	}
	for i, m := range cipherModes {
		if strings.EqualFold(parts[1], m.name) {
			k := slices.IndexFunc(m.paddings, func(p string) bool { return upperIs(parts[2], p) })
			if k < 0 || (t.keySize != 0 && !m.fixedKey) {
				return t, notFound()
			}
			t.mode, t.padding = i, m.paddings[k] == "PKCS5PADDING"
			return t, nil
		}
	}
	return t, notFound()
}

// upperIs reports whether strings.ToUpper(s) == upper, without making the
// upper-cased string (getInstance runs on every operation of a new-Cipher loop).
func upperIs(s, upper string) bool {
	for _, r := range s {
		u, size := utf8.DecodeRuneInString(upper)
		if size == 0 || unicode.ToUpper(r) != u {
			return false
		}
		upper = upper[size:]
	}
	return upper == ""
}

// checkKeySize is AESCipher.checkKeySize / GaloisCounterMode.init's check
// for the key-size-specific transformations.
func (c *Cipher) checkKeySize(key []byte) error {
	if c.tr.keySize != 0 && len(key) != c.tr.keySize {
		return javaThrow(InvalidKeyException, "The key must be %d bytes", c.tr.keySize)
	}
	return nil
}

// setKey is AESCrypt.init: the key length check, then makeSessionKey.
func (c *Cipher) setKey(ctx context.Context, key []byte) error {
	if len(key) != 16 && len(key) != 24 && len(key) != 32 {
		return javaThrow(InvalidKeyException, "Invalid AES key length: %d bytes", len(key))
	}
	if c.ke != nil && slices.Equal(key, c.key) {
		return nil // AESCrypt.lastKey: the session key is still valid
	}
	n := len(key) + 28 // 4 * (rounds + 1) words
	ke, kd := c.arrays.ints(n), c.arrays.ints(n)
	if _, err := c.callRef(ctx, refMakeSessionKey, append(c.args[:0], bytecode.BytesArg(key), bytecode.IntsArg(ke), bytecode.IntsArg(kd))...); err != nil {
		c.arrays.drop(bytecode.IntsArg(ke).Data)
		c.arrays.drop(bytecode.IntsArg(kd).Data)
		return err
	}
	// The old session key is unreachable from here on: the caller points
	// its mode object at the new one.
	if c.ke != nil {
		c.arrays.drop(bytecode.IntsArg(c.ke).Data)
		c.arrays.drop(bytecode.IntsArg(c.kd).Data)
	}
	c.key, c.ke, c.kd = append(c.keyBuf[:0:len(c.keyBuf)], key...), ke, kd
	return nil
}

// method returns the profile's method with key k.
func (c *Cipher) method(k string) (*bytecode.Method, error) {
	m, err := c.tab.Lookup(k)
	if err != nil {
		return nil, fmt.Errorf("provider: %w", err)
	}
	return m, nil
}

// has reports whether the profile has method k.
func (c *Cipher) has(k string) bool {
	_, err := c.tab.Lookup(k)
	return err == nil
}

// call invokes method k through the Invoker: the one way the provider
// reaches Java code.
func (c *Cipher) call(ctx context.Context, k string, args ...bytecode.Arg) (int64, error) {
	m, err := c.method(k)
	if err != nil {
		return 0, err
	}
	return c.inv.Call(ctx, m, args)
}

// callRef is call for one of the methods every operation calls, found in
// the profile's resolved list instead of by key.
func (c *Cipher) callRef(ctx context.Context, r methodRef, args ...bytecode.Arg) (int64, error) {
	m := c.refs[r]
	if m == nil {
		return c.call(ctx, methodRefKeys[r], args...) // the table's error
	}
	return c.inv.Call(ctx, m, args)
}

// methodRef names a method the provider calls on every operation of a mode.
type methodRef int

const (
	refMakeSessionKey methodRef = iota
	refImplEncryptBlock
	refGHASHUpdate
	refGHASHDoFinal
	refGCTRUpdate
	refGCTRDoFinal
	refImplGCMCrypt
	refDoLastBlock
	numMethodRefs
)

// methodRefKeys are the methodRefs' table keys.
var methodRefKeys = [numMethodRefs]string{
	refMakeSessionKey:   "AESCrypt.makeSessionKey",
	refImplEncryptBlock: "AESCrypt.implEncryptBlock",
	refGHASHUpdate:      "GHASH.update",
	refGHASHDoFinal:     "GHASH.doFinal",
	refGCTRUpdate:       "GCTR.update",
	refGCTRDoFinal:      "GCTR.doFinal",
	refImplGCMCrypt:     "GaloisCounterMode.implGCMCrypt",
	refDoLastBlock:      "GaloisCounterMode.GCMEngine.doLastBlock",
}

// methodRefs is a profile's methods by methodRef, nil where the profile has
// none (JDK 8 has no implGCMCrypt): resolved once per table, so that an
// operation's calls find their methods without a map lookup each.
type methodRefs [numMethodRefs]*bytecode.Method

var resolvedRefs sync.Map // *bytecode.Table -> *methodRefs

// refsOf returns tab's methodRefs.
func refsOf(tab *bytecode.Table) *methodRefs {
	if r, ok := resolvedRefs.Load(tab); ok {
		return r.(*methodRefs)
	}
	r := new(methodRefs)
	for i, k := range methodRefKeys {
		r[i], _ = tab.Lookup(k)
	}
	v, _ := resolvedRefs.LoadOrStore(tab, r)
	return v.(*methodRefs)
}

// JDK returns the cipher's release.
func (c *Cipher) JDK() jdk.Release { return c.prof.rel }

// Algorithm returns the transformation the cipher was created with
// (Cipher.getAlgorithm).
func (c *Cipher) Algorithm() string { return c.trans }

// IV returns a copy of the IV in use (Cipher.getIV), nil for ECB.
func (c *Cipher) IV() []byte {
	switch {
	case c.core != nil && c.core.iv != nil:
		return slices.Clone(c.core.iv)
	case c.gcm != nil:
		return slices.Clone(c.gcm.iv)
	}
	return nil
}

// checkState is Cipher.checkCipherState for update and doFinal.
func (c *Cipher) checkState() error {
	if !c.ready {
		return javaThrow(IllegalStateException, "Cipher not initialized")
	}
	if c.opmode != EncryptMode && c.opmode != DecryptMode {
		return javaThrow(IllegalStateException, "Cipher not initialized for encryption/decryption")
	}
	return nil
}

// checkCipherArgs is Cipher.update/doFinal's argument check ("Bad
// arguments"); an output offset past the end is left to the capacity
// checks (ShortBufferException), as in Java.
func checkCipherArgs(in []byte, inOfs, inLen int, outOfs int) error {
	if inOfs < 0 || inLen < 0 || inLen > len(in)-inOfs || outOfs < 0 {
		return javaThrow(IllegalArgumentException, "Bad arguments")
	}
	return nil
}

// OutputSize is Cipher.getOutputSize(inputLen): the output length the next
// update or doFinal needs at most.
func (c *Cipher) OutputSize(inLen int) int {
	if !c.ready {
		return 0
	}
	if c.gcm != nil {
		return c.gcm.outputSize(inLen, true)
	}
	return c.core.outputSize(inLen, true)
}

// Update is Cipher.update(input): it returns the output produced now.
func (c *Cipher) Update(ctx context.Context, in []byte) ([]byte, error) {
	if err := c.checkState(); err != nil {
		return nil, err
	}
	var out []byte
	if c.gcm != nil {
		out = c.arrays.outBuf(c.gcm.outputSize(len(in), false))
	} else {
		out = c.arrays.outBuf(c.core.updateSize(len(in)))
	}
	n, err := c.update(ctx, in, 0, len(in), out, 0)
	if err != nil {
		if je, ok := err.(*JavaException); ok && je.Class == ShortBufferException {
			return nil, wrapProvider(err) // cannot happen: the output was sized for it
		}
		return nil, err
	}
	return result(out, n), nil
}

// UpdateTo is Cipher.update(input, inputOffset, inputLen, output,
// outputOffset): it returns the number of bytes written to out.
func (c *Cipher) UpdateTo(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	if err := c.checkState(); err != nil {
		return 0, err
	}
	if err := checkCipherArgs(in, inOfs, inLen, outOfs); err != nil {
		return 0, err
	}
	return c.update(ctx, in, inOfs, inLen, out, outOfs)
}

// update dispatches an update to the mode's engine.
func (c *Cipher) update(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	if c.gcm != nil {
		return c.gcm.update(ctx, in, inOfs, inLen, out, outOfs)
	}
	return c.core.update(ctx, in, inOfs, inLen, out, outOfs)
}

// UpdateAAD is Cipher.updateAAD(src): additional authenticated data
// (GCM only).
func (c *Cipher) UpdateAAD(aad []byte) error {
	if err := c.checkState(); err != nil {
		return err
	}
	if c.gcm == nil {
		return javaThrow(UnsupportedOperationException, "The underlying Cipher implementation does not support this method")
	}
	return c.gcm.updateAAD(aad)
}

// DoFinal is Cipher.doFinal(input): the rest of the output (with the tag
// when GCM-encrypting). The cipher is then reset for another operation
// with the same key and IV (GCM encryption refuses that, as the JDK does).
func (c *Cipher) DoFinal(ctx context.Context, in []byte) ([]byte, error) {
	out, err := c.doFinalScratch(ctx, in)
	if err != nil {
		return nil, err
	}
	return result(out, len(out)), nil
}

// DoFinalView is DoFinal with the output left where the provider wrote it,
// the Cipher's output scratch, instead of copied into a new array: the same
// calls, checks and charges. The view is valid until the Cipher's next call
// and only while the Cipher is reachable (the Java heap takes a dead
// Cipher's arrays back): for a caller that reads the output and drops it
// before then, on the model clock, where the copy is no part of the
// operation's time but costs the process as much as the operation's stubs.
func (c *Cipher) DoFinalView(ctx context.Context, in []byte) ([]byte, error) {
	return c.doFinalScratch(ctx, in)
}

// doFinalScratch is Cipher.doFinal(input) with its output in the Cipher's
// output scratch.
func (c *Cipher) doFinalScratch(ctx context.Context, in []byte) ([]byte, error) {
	if err := c.checkState(); err != nil {
		return nil, err
	}
	var out []byte
	var err error
	if c.gcm != nil {
		out, err = c.gcm.doFinalAlloc(ctx, in)
	} else {
		out, err = c.core.doFinalAlloc(ctx, in)
	}
	if gerr := c.chargeGlue(ctx, "final"); err == nil && gerr != nil {
		return nil, gerr
	}
	return out, err
}

// DoFinalTo is Cipher.doFinal(input, inputOffset, inputLen, output,
// outputOffset): it returns the number of bytes written to out.
func (c *Cipher) DoFinalTo(ctx context.Context, in []byte, inOfs, inLen int, out []byte, outOfs int) (int, error) {
	if err := c.checkState(); err != nil {
		return 0, err
	}
	if err := checkCipherArgs(in, inOfs, inLen, outOfs); err != nil {
		return 0, err
	}
	var n int
	var err error
	if c.gcm != nil {
		n, err = c.gcm.doFinal(ctx, in, inOfs, inLen, out, outOfs)
	} else {
		n, err = c.core.doFinal(ctx, in, inOfs, inLen, out, outOfs)
	}
	if gerr := c.chargeGlue(ctx, "final"); err == nil && gerr != nil {
		return 0, gerr
	}
	return n, err
}

// randomIV is what SunJCE does for an encryption init without parameters:
// a fresh random IV from the default SecureRandom.
func randomIV(n int) ([]byte, error) {
	iv := make([]byte, n)
	if _, err := rand.Read(iv); err != nil {
		return nil, fmt.Errorf("provider: random IV: %w", err)
	}
	return iv, nil
}

// sameJavaArray reports whether a and b are the same Java array.
func sameJavaArray(a, b []byte) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// gcmInc32 is GaloisCounterMode.increment32 (SP 800-38D §6.2, gcmInc32).
func gcmInc32(b []byte) {
	for i := len(b) - 1; i >= len(b)-4; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}
