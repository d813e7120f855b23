package runtime

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Intrinsic is a HotSpot crypto intrinsic ID (vmIntrinsics::ID in
// src/hotspot/share/classfile/vmIntrinsics.hpp). It indexes the one
// intrinsic table; nothing else in jitsim switches on it (style.md habit 2).
type Intrinsic uint16

// The crypto intrinsics of hotspot.md §2.1, in vmIntrinsics.hpp order.
const (
	AESCryptEncryptBlock Intrinsic = iota
	AESCryptDecryptBlock
	CBCEncryptAESCrypt
	CBCDecryptAESCrypt
	ECBEncryptAESCrypt
	ECBDecryptAESCrypt
	CounterModeAESCrypt
	GaloisCounterModeAESCrypt
	GHASHProcessBlocks
	// NumIntrinsics is the end sentinel: the number of rows.
	NumIntrinsics
)

// NoIntrinsic marks a method that is not an intrinsic candidate.
const NoIntrinsic Intrinsic = 0xffff

// LevelSet is a set of compilation levels 0..4.
type LevelSet uint8

// Levels returns the set of the given levels.
func Levels(ls ...Level) LevelSet {
	var s LevelSet
	for _, l := range ls {
		s |= 1 << uint(l)
	}
	return s
}

// Has reports whether l is in s.
func (s LevelSet) Has(l Level) bool {
	return l >= 0 && l <= LevelFullOptimization && s&(1<<uint(l)) != 0
}

// String lists the levels, e.g. "{0,1,2,3,4}".
func (s LevelSet) String() string {
	var parts []string
	for l := LevelNone; l <= LevelFullOptimization; l++ {
		if s.Has(l) {
			parts = append(parts, fmt.Sprint(int(l)))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Standard level sets: HotSpot runs the crypto stubs only from C2 code
// (hotspot.md §2.2: C1's is_intrinsic_supported and the interpreter's
// special entries list no crypto); jitsim's experimental
// UseInterpreterAndC1CryptoIntrinsics (Andrew Haley's 2018 proof of
// concept) opens every level.
var (
	c2Only    = Levels(LevelFullOptimization)
	allLevels = Levels(LevelNone, LevelSimple, LevelLimitedProfile, LevelFullProfile, LevelFullOptimization)
)

// HaleyFlag is jitsim's experimental flag that lets interpreter and C1
// callers use the crypto stubs.
const HaleyFlag = "UseInterpreterAndC1CryptoIntrinsics"

// stubCall runs a stub on a call's argument views (no copy) and returns
// the Java method's result. It has Target's shape, so a C2 call site binds
// to it with no wrapper.
type stubCall = Target

// IntrinsicRow is one row of the intrinsic table: what the runtime decides
// about one vmIntrinsics ID. Every field must be set (TestIntrinsicTable).
//
// The intrinsic's identity is not here: the method it replaces in each
// release (class, name, descriptor), and so the releases that have it, is
// declared by the reference code's method table, whose rows name their
// intrinsic by HotSpotName (bytecode.Method.Intrinsic); see [IntrinsicRow.Method].
// TestIntrinsicsAgreeWithMethodTable checks that the two tables meet.
type IntrinsicRow struct {
	// GoName is the Go-cased name ("AESCryptEncryptBlock").
	GoName string
	// HotSpotName is the vmIntrinsics ID ("_aescrypt_encryptBlock"), the
	// name the method table's rows give the intrinsic.
	HotSpotName string
	// Gate lists the flags that must all be on (vmIntrinsics::disabled_by_jvm_flags);
	// GateDoc says it in words, including gates that are stub presence.
	Gate    []string
	GateDoc string
	// Predicated is true when C2 emits a runtime predicate before the
	// stub call (LibraryIntrinsic::generate_predicate): PrintIntrinsics
	// says "(intrinsic, predicate)". PredicateDoc is HotSpot's condition.
	Predicated   bool
	PredicateDoc string
	// Predicate is the part of the condition that depends on the call's
	// arguments (nil: none); when it fails the call takes the Java path.
	Predicate func(args []Arg) bool
	// Stub is the StubRoutines entry, the key of stubs.Select.
	Stub string
	// Levels are the caller levels that use the stub in stock HotSpot;
	// HaleyLevels those with UseInterpreterAndC1CryptoIntrinsics.
	Levels, HaleyLevels LevelSet
	// Adapt binds the code of stub variant impl (looked up by its ID in
	// its stub package) to the Java signature: it converts the call's Arg
	// views (hotspot.md §2.1 signatures, bytecode Params) to the stub's Go
	// signature (stubs-contract.md). ok is false when impl is not a
	// variant of the row's stub built into this binary.
	Adapt func(m *Method, impl variant.ID) (call stubCall, ok bool)
	// AdaptBlocks, when set, is Adapt's call n at a time (BlockTarget) for
	// C2 code that hands the stub a batch (BindBlocks): the same checks
	// and errors as n calls of Adapt's, made once where the n calls'
	// arguments make them come out the same. nil: the n calls one by one.
	AdaptBlocks func(m *Method, impl variant.ID) (batch BlockTarget, ok bool)
	// AdaptFrame, when set, is Adapt together with the call read from the
	// calling code's wasm stack (FrameTarget) for C2 call sites on the wall
	// clock, the two sharing the adapter's state. The frame target tests
	// Predicate itself (it leaves a call that fails it). nil: Adapt's call
	// alone.
	AdaptFrame func(m *Method, impl variant.ID) (call stubCall, frame frameAdapter, ok bool)
	// Doc is a one-line description.
	Doc string
}

// intrinsics is THE intrinsic table, indexed by Intrinsic.
var intrinsics = [NumIntrinsics]IntrinsicRow{
	AESCryptEncryptBlock: {
		GoName: "AESCryptEncryptBlock", HotSpotName: "_aescrypt_encryptBlock",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		PredicateDoc: "none", Stub: aes.StubEncryptBlock, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptBlock, AdaptBlocks: adaptBlocks, Doc: "AES encryption of one 16-byte block (FIPS-197 §5.1)",
	},
	AESCryptDecryptBlock: {
		GoName: "AESCryptDecryptBlock", HotSpotName: "_aescrypt_decryptBlock",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		PredicateDoc: "none", Stub: aes.StubDecryptBlock, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptBlock, AdaptBlocks: adaptBlocks, Doc: "AES decryption of one 16-byte block (FIPS-197 §5.3)",
	},
	CBCEncryptAESCrypt: {
		GoName: "CBCEncryptAESCrypt", HotSpotName: "_cipherBlockChaining_encryptAESCrypt",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		Predicated: true, PredicateDoc: "embeddedCipher instanceof AESCrypt",
		Stub: aes.StubCBCEncrypt, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptCBC, AdaptFrame: adaptCBCFrame(false), Doc: "AES-CBC encryption of whole blocks (SP 800-38A §6.2)",
	},
	CBCDecryptAESCrypt: {
		GoName: "CBCDecryptAESCrypt", HotSpotName: "_cipherBlockChaining_decryptAESCrypt",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		Predicated: true, PredicateDoc: "embeddedCipher instanceof AESCrypt and src != dst",
		Predicate: func(args []Arg) bool { return !routeSameArray(args[2], args[5]) },
		Stub:      aes.StubCBCDecrypt, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptCBC, AdaptFrame: adaptCBCFrame(true), Doc: "AES-CBC decryption of whole blocks (SP 800-38A §6.2)",
	},
	ECBEncryptAESCrypt: {
		GoName: "ECBEncryptAESCrypt", HotSpotName: "_electronicCodeBook_encryptAESCrypt",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		Predicated: true, PredicateDoc: "embeddedCipher instanceof AESCrypt",
		Stub: aes.StubECBEncrypt, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptECB, Doc: "AES-ECB encryption of whole blocks (SP 800-38A §6.1)",
	},
	ECBDecryptAESCrypt: {
		GoName: "ECBDecryptAESCrypt", HotSpotName: "_electronicCodeBook_decryptAESCrypt",
		Gate: []string{"UseAESIntrinsics"}, GateDoc: "UseAESIntrinsics",
		Predicated: true, PredicateDoc: "embeddedCipher instanceof AESCrypt and src != dst",
		Predicate: func(args []Arg) bool { return !routeSameArray(args[1], args[4]) },
		Stub:      aes.StubECBDecrypt, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptECB, Doc: "AES-ECB decryption of whole blocks (SP 800-38A §6.1)",
	},
	CounterModeAESCrypt: {
		GoName: "CounterModeAESCrypt", HotSpotName: "_counterMode_AESCrypt",
		Gate: []string{"UseAESCTRIntrinsics"}, GateDoc: "UseAESCTRIntrinsics",
		Predicated: true, PredicateDoc: "embeddedCipher instanceof AESCrypt",
		Stub: aes.StubCTR, Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptCTR, AdaptFrame: adaptCTRFrame, Doc: "AES-CTR with the JDK's 128-bit counter and partial-block state (SP 800-38A §6.5)",
	},
	GaloisCounterModeAESCrypt: {
		GoName: "GaloisCounterModeAESCrypt", HotSpotName: "_galoisCounterMode_AESCrypt",
		GateDoc:    "stub presence (x86: generated with UseAESIntrinsics; aarch64: also UseGHASHIntrinsics)",
		Predicated: true, PredicateDoc: "GCTR.embeddedCipher instanceof AESCrypt",
		Stub: "galoisCounterMode_AESCrypt", Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptGCM, AdaptFrame: adaptGCMFrame, Doc: "interleaved AES-GCTR and GHASH over a prefix of the data (SP 800-38D §7.1)",
	},
	GHASHProcessBlocks: {
		GoName: "GHASHProcessBlocks", HotSpotName: "_ghash_processBlocks",
		Gate: []string{"UseGHASHIntrinsics"}, GateDoc: "UseGHASHIntrinsics",
		PredicateDoc: "none", Stub: "ghash_processBlocks", Levels: c2Only, HaleyLevels: allLevels,
		Adapt: adaptGHASH, AdaptFrame: adaptGHASHFrame, Doc: "GHASH of whole 16-byte blocks into the state (SP 800-38D §6.4)",
	},
}

// Row returns the table row of id; it panics for an ID outside the table.
func (id Intrinsic) Row() *IntrinsicRow {
	if id >= NumIntrinsics {
		panic(fmt.Sprintf("BUG: intrinsic %d outside the table", id))
	}
	return &intrinsics[id]
}

// String returns the HotSpot ID ("_aescrypt_encryptBlock"), or "none".
func (id Intrinsic) String() string {
	if id >= NumIntrinsics {
		return "none"
	}
	return intrinsics[id].HotSpotName
}

// Intrinsics returns every intrinsic ID in table order.
func Intrinsics() []Intrinsic {
	out := make([]Intrinsic, NumIntrinsics)
	for i := range out {
		out[i] = Intrinsic(i)
	}
	return out
}

// LookupIntrinsic finds an intrinsic by its HotSpot ID ("_ghash_processBlocks")
// or Go name ("GHASHProcessBlocks").
func LookupIntrinsic(name string) (Intrinsic, bool) {
	for i := range intrinsics {
		if intrinsics[i].HotSpotName == name || intrinsics[i].GoName == name {
			return Intrinsic(i), true
		}
	}
	return NoIntrinsic, false
}

// identities holds each intrinsic's method per release, read once from the
// method table's rows (bytecode.Rows: no module is loaded).
var identities = sync.OnceValue(func() map[string]map[jdk.Release]*bytecode.Method {
	ids := map[string]map[jdk.Release]*bytecode.Method{}
	rows := bytecode.Rows()
	for i := range rows {
		m := &rows[i]
		if m.Intrinsic == "" {
			continue
		}
		if ids[m.Intrinsic] == nil {
			ids[m.Intrinsic] = map[jdk.Release]*bytecode.Method{}
		}
		for _, j := range m.Profiles.Releases() {
			ids[m.Intrinsic][j] = m
		}
	}
	return ids
})

// Releases returns the JDK profiles that have the intrinsic (hotspot.md
// §2.6): those whose method table marks a method with it.
func (r *IntrinsicRow) Releases() jdk.Set {
	var s jdk.Set
	for j := range identities()[r.HotSpotName] {
		s |= jdk.Of(j)
	}
	return s
}

// InJDK reports whether profile j has the intrinsic.
func (r *IntrinsicRow) InJDK(j jdk.Release) bool { return r.Releases().Has(j) }

// Method returns the method the intrinsic replaces in profile j, as the
// method table declares it (class, name, descriptor, as vmIntrinsics::find_id
// matches them); the row is shared and must not be changed. A profile without the intrinsic gets the method of the
// oldest later profile that has it (else of the newest earlier one), so that
// a decision still names the method it is about. It panics for an
// intrinsic no method table row names (TestIntrinsicsAgreeWithMethodTable).
func (r *IntrinsicRow) Method(j jdk.Release) *bytecode.Method {
	byRelease := identities()[r.HotSpotName]
	if m := byRelease[j]; m != nil {
		return m
	}
	var earlier *bytecode.Method
	for _, k := range jdk.All() {
		if m := byRelease[k]; m != nil {
			if k > j {
				return m
			}
			earlier = m
		}
	}
	if earlier == nil {
		panic(fmt.Sprintf("BUG: no method table row is marked %s", r.HotSpotName))
	}
	return earlier
}

// intrinsicOf returns the intrinsic the method table marks m with, or
// NoIntrinsic; it panics for a name that is no row of the intrinsic table
// (TestIntrinsicsAgreeWithMethodTable).
func intrinsicOf(m *Method) Intrinsic {
	if m.Intrinsic == "" {
		return NoIntrinsic
	}
	for i := range intrinsics {
		if intrinsics[i].HotSpotName == m.Intrinsic {
			return Intrinsic(i)
		}
	}
	panic(fmt.Sprintf("BUG: method table row %s is marked %q, which is no intrinsic", m.Key, m.Intrinsic))
}

// --- argument adapters: one per row, from Arg views to the stub's types ---

// argError is the Java exception a stub call would have raised in the
// Java path (HotSpot's stubs do not check; the JDK's callers do, and a
// wrong call is the caller's bug, reported here rather than crashing).
func argError(m *Method, class string, detail int, format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{&Exception{Method: m, Class: class, Detail: int32(detail)}}, a...)...)
}

const (
	exAIOOBE = "java.lang.ArrayIndexOutOfBoundsException"
	exNPE    = "java.lang.NullPointerException"
	exKey    = "java.security.InvalidKeyException"
)

// span returns args[arr].Data[off:off+n] with off = args[ofs].Scalar, or
// false when that range is outside the array or the array is null (the
// caller then reports spanError). It is small enough to inline: the hot
// path is a few compares.
func span(args []Arg, arr, ofs, n int) ([]byte, bool) {
	a := &args[arr]
	off := int(args[ofs].Scalar)
	// Unsigned compares fold the negative cases into the range checks.
	if d := a.Data; !a.Null && uint(off) <= uint(len(d)) && uint(n) <= uint(len(d)-off) {
		return d[off : off+n : off+n], true
	}
	return nil, false
}

// spanError is the Java exception for a span that failed.
//
//go:noinline
func spanError(m *Method, args []Arg, arr, ofs, n int) error {
	a := &args[arr]
	off := int(args[ofs].Scalar)
	if a.Null {
		return argError(m, exNPE, 0, "argument %d is null", arr)
	}
	return argError(m, exAIOOBE, off+n, "argument %d: range [%d, %d) outside %d bytes", arr, off, off+n, len(a.Data))
}

// key returns the expanded key view, or false unless it has 44/52/60
// words (aes.Rounds' rule; the caller then reports keyError).
func key(a *Arg) ([]uint32, bool) {
	xk := a.Uint32s()
	n := len(xk)
	return xk, n == 44 || n == 52 || n == 60
}

// keyError is the Java exception for an expanded key of the wrong size.
//
//go:noinline
func keyError(m *Method, a *Arg) error {
	n := len(a.Data) / 4
	return argError(m, exKey, n, "expanded key of %d words", n)
}

// block16 returns a 16-byte array argument as *[16]byte.
func block16(m *Method, a Arg, what string) (*[16]byte, error) {
	if a.Null || len(a.Data) < 16 {
		return nil, argError(m, exAIOOBE, 16, "%s has %d bytes, want 16", what, len(a.Data))
	}
	return (*[16]byte)(a.Data[:16]), nil
}

func routeSameArray(a, b Arg) bool {
	return len(a.Data) > 0 && len(b.Data) > 0 && unsafe.SliceData(a.Data) == unsafe.SliceData(b.Data)
}

// unaliased returns src, or a copy of it when dst and src overlap without
// being the same bytes: the stubs allow exact in-place only
// (stubs-contract.md), while Java arrays may overlap at other offsets.
func unaliased(dst, src []byte) []byte {
	if !partialOverlap(dst, src) {
		return src
	}
	return append([]byte(nil), src...)
}

// partialOverlap reports whether a and b share bytes without starting at
// the same address.
func partialOverlap(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	x, y := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return x != y && x < y+uintptr(len(b)) && y < x+uintptr(len(a))
}

// adaptBlock: AESCrypt.implEncryptBlock/implDecryptBlock(K; in, inOffset, out, outOffset).
func adaptBlock(m *Method, impl variant.ID) (stubCall, bool) {
	f, ok := aes.BlockCode(impl)
	if !ok {
		return nil, false
	}
	return func(_ context.Context, args []Arg) (int64, error) {
		xk, ok := key(&args[0])
		if !ok {
			return 0, keyError(m, &args[0])
		}
		src, ok := span(args, 1, 2, aes.BlockSize)
		if !ok {
			return 0, spanError(m, args, 1, 2, aes.BlockSize)
		}
		dst, ok := span(args, 3, 4, aes.BlockSize)
		if !ok {
			return 0, spanError(m, args, 3, 4, aes.BlockSize)
		}
		f(xk, dst, unaliased(dst, src))
		return 0, nil
	}, true
}

// adaptBlocks is adaptBlock n calls at a time (BlockTarget). The n calls
// share the key and the offsets, and their arrays' parts are the same
// size, so the key and range checks of each call's stub entry come out as
// the first call's: they are made once, on its arguments, and fail with
// its errors. Each block is still run through the stub on its own bytes.
func adaptBlocks(m *Method, impl variant.ID) (BlockTarget, bool) {
	f, ok := aes.BlockCode(impl)
	if !ok {
		return nil, false
	}
	fn, ok := aes.BlocksCode(impl)
	if !ok {
		return nil, false
	}
	return func(_ context.Context, args []Arg, n int) error {
		if n <= 0 {
			return nil
		}
		if len(args) != 5 {
			return fmt.Errorf("runtime: %s: a batch of %d arguments, want 5", m, len(args))
		}
		if err := checkBatch(args, n); err != nil {
			return err
		}
		xk, ok := key(&args[0])
		if !ok {
			return keyError(m, &args[0])
		}
		first := [5]Arg(args)
		in, out := args[1].Data, args[3].Data
		iw, ow := len(in)/n, len(out)/n
		first[1].Data, first[3].Data = in[:iw:iw], out[:ow:ow]
		if _, ok := span(first[:], 1, 2, aes.BlockSize); !ok {
			return spanError(m, first[:], 1, 2, aes.BlockSize)
		}
		if _, ok := span(first[:], 3, 4, aes.BlockSize); !ok {
			return spanError(m, first[:], 3, 4, aes.BlockSize)
		}
		io, oo := int(args[2].Scalar), int(args[4].Scalar)
		src, dst := in[io:(n-1)*iw+io+aes.BlockSize], out[oo:(n-1)*ow+oo+aes.BlockSize]
		if !partialOverlap(dst, src) && (&dst[0] != &src[0] || iw == ow) {
			// No call's output overwrites another's input, so the n calls are the
			// stub entered once for all of them (aes.BlocksFunc).
			fn(xk, dst, ow, src, iw, n)
			return nil
		}
		for k := range n {
			src := in[k*iw+io : k*iw+io+aes.BlockSize : k*iw+io+aes.BlockSize]
			dst := out[k*ow+oo : k*ow+oo+aes.BlockSize : k*ow+oo+aes.BlockSize]
			f(xk, dst, unaliased(dst, src))
		}
		return nil
	}, true
}

// adaptCBC: CipherBlockChaining.implEncrypt/implDecrypt(K, r; in, inOfs, len, out, outOfs).
func adaptCBC(m *Method, impl variant.ID) (stubCall, bool) {
	f, ok := aes.CBCCode(impl)
	if !ok {
		return nil, false
	}
	return func(_ context.Context, args []Arg) (int64, error) {
		xk, ok := key(&args[0])
		if !ok {
			return 0, keyError(m, &args[0])
		}
		iv, err := block16(m, args[1], "r")
		if err != nil {
			return 0, err
		}
		n := int(args[4].Scalar)
		if n%aes.BlockSize != 0 {
			return 0, argError(m, exAIOOBE, n, "length %d is not a multiple of 16", n)
		}
		src, ok := span(args, 2, 3, n)
		if !ok {
			return 0, spanError(m, args, 2, 3, n)
		}
		dst, ok := span(args, 5, 6, n)
		if !ok {
			return 0, spanError(m, args, 5, 6, n)
		}
		return int64(f(xk, iv, dst, unaliased(dst, src))), nil
	}, true
}

// adaptCBCFrame is adaptCBC with its frame twin (frameCBC); distinct is
// CBC decryption's predicate, in and out not the same array.
func adaptCBCFrame(distinct bool) func(m *Method, impl variant.ID) (stubCall, frameAdapter, bool) {
	return func(m *Method, impl variant.ID) (stubCall, frameAdapter, bool) {
		call, ok := adaptCBC(m, impl)
		if !ok {
			return nil, nil, false
		}
		f, _ := aes.CBCCode(impl)
		return call, frameCBC(m, f, distinct), true
	}
}

// adaptECB: ElectronicCodeBook.implECBEncrypt/Decrypt(K; in, inOfs, len, out, outOfs).
func adaptECB(m *Method, impl variant.ID) (stubCall, bool) {
	f, ok := aes.ECBCode(impl)
	if !ok {
		return nil, false
	}
	return func(_ context.Context, args []Arg) (int64, error) {
		xk, ok := key(&args[0])
		if !ok {
			return 0, keyError(m, &args[0])
		}
		n := int(args[3].Scalar)
		if n%aes.BlockSize != 0 {
			return 0, argError(m, exAIOOBE, n, "length %d is not a multiple of 16", n)
		}
		src, ok := span(args, 1, 2, n)
		if !ok {
			return 0, spanError(m, args, 1, 2, n)
		}
		dst, ok := span(args, 4, 5, n)
		if !ok {
			return 0, spanError(m, args, 4, 5, n)
		}
		return int64(f(xk, dst, unaliased(dst, src))), nil
	}, true
}

// adaptCTR: CounterMode.implCrypt(K, counter, encryptedCounter, used; in, inOfs, len, out, outOfs).
func adaptCTR(m *Method, impl variant.ID) (stubCall, bool) {
	call, _, ok := adaptCTRFrame(m, impl)
	return call, ok
}

// adaptCTRFrame is adaptCTR's call and its frame twin (frameCTR).
func adaptCTRFrame(m *Method, impl variant.ID) (stubCall, frameAdapter, bool) {
	f, ok := aes.CTRCode(impl)
	if !ok {
		return nil, nil, false
	}
	return ctrCall(m, f), frameCTR(m, f), true
}

// ctrCall is adaptCTR's call of stub code f.
func ctrCall(m *Method, f aes.CTRFunc) stubCall {
	return func(_ context.Context, args []Arg) (int64, error) {
		xk, ok := key(&args[0])
		if !ok {
			return 0, keyError(m, &args[0])
		}
		ctr, err := block16(m, args[1], "counter")
		if err != nil {
			return 0, err
		}
		enc, err := block16(m, args[2], "encryptedCounter")
		if err != nil {
			return 0, err
		}
		usedArr := args[3].Uint32s()
		if len(usedArr) < 1 || usedArr[0] > 16 {
			return 0, argError(m, exAIOOBE, 0, "used must be one int in 0..16")
		}
		n := int(args[6].Scalar)
		src, ok := span(args, 4, 5, n)
		if !ok {
			return 0, spanError(m, args, 4, 5, n)
		}
		dst, ok := span(args, 7, 8, n)
		if !ok {
			return 0, spanError(m, args, 7, 8, n)
		}
		// used is the Java int[1] itself: the stub updates it in place, and no local
		// escapes through the call (one allocation per CTR call otherwise).
		done := f(xk, ctr, enc, &usedArr[0], dst, unaliased(dst, src))
		return int64(done), nil
	}
}

// adaptGHASH: GHASH.processBlocks(data, inOfs, blocks, state, subkeyHtbl).
func adaptGHASH(m *Method, impl variant.ID) (stubCall, bool) {
	call, _, ok := adaptGHASHFrame(m, impl)
	return call, ok
}

// adaptGHASHFrame is adaptGHASH's call and its frame twin (frameGHASH), on
// one set of subkey tables.
func adaptGHASHFrame(m *Method, impl variant.ID) (stubCall, frameAdapter, bool) {
	f, ok := gcm.GHASHCode(impl)
	if !ok {
		return nil, nil, false
	}
	tables := &subkeyTables{impl: impl}
	return ghashCall(m, f, tables), frameGHASH(m, f, tables), true
}

// ghashCall is adaptGHASH's call of stub code f.
func ghashCall(m *Method, f gcm.GHASHFunc, tables *subkeyTables) stubCall {
	return func(_ context.Context, args []Arg) (int64, error) {
		blocks := int(args[2].Scalar)
		if blocks < 0 {
			return 0, argError(m, exAIOOBE, blocks, "negative block count %d", blocks)
		}
		data, ok := span(args, 0, 1, 16*blocks)
		if !ok {
			return 0, spanError(m, args, 0, 1, 16*blocks)
		}
		st := args[3].Uint64s()
		if len(st) < 2 {
			return 0, argError(m, exAIOOBE, 2, "state has %d longs, want 2", len(st))
		}
		htbl, err := tables.get(m, args[4])
		if err != nil {
			return 0, err
		}
		f((*[2]uint64)(st[:2]), htbl, data, blocks)
		return 0, nil
	}
}

// adaptGCM: GaloisCounterMode.implGCMCrypt0(in, inOfs, inLen, ct, ctOfs,
// out, outOfs, gctr{K, counter, encryptedCounter, used}, ghash{state, subkeyHtbl}).
func adaptGCM(m *Method, impl variant.ID) (stubCall, bool) {
	call, _, ok := adaptGCMFrame(m, impl)
	return call, ok
}

// adaptGCMFrame is adaptGCM's call and its frame twin (frameGCM), on one
// set of subkey tables.
func adaptGCMFrame(m *Method, impl variant.ID) (stubCall, frameAdapter, bool) {
	f, ok := gcm.GCMCode(impl)
	if !ok {
		return nil, nil, false
	}
	tables := &subkeyTables{impl: impl}
	return gcmCall(m, f, tables), frameGCM(m, f, tables), true
}

// gcmCall is adaptGCM's call of stub code f.
func gcmCall(m *Method, f gcm.GCMFunc, tables *subkeyTables) stubCall {
	return func(_ context.Context, args []Arg) (int64, error) {
		n := int(args[2].Scalar)
		src, ok := span(args, 0, 1, n)
		if !ok {
			return 0, spanError(m, args, 0, 1, n)
		}
		ct, ok := span(args, 3, 4, n)
		if !ok {
			return 0, spanError(m, args, 3, 4, n)
		}
		dst, ok := span(args, 5, 6, n)
		if !ok {
			return 0, spanError(m, args, 5, 6, n)
		}
		xk, ok := key(&args[7])
		if !ok {
			return 0, keyError(m, &args[7])
		}
		ctr, err := block16(m, args[8], "counter")
		if err != nil {
			return 0, err
		}
		st := args[11].Uint64s()
		if len(st) < 2 {
			return 0, argError(m, exAIOOBE, 2, "state has %d longs, want 2", len(st))
		}
		htbl, err := tables.get(m, args[12])
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, nil
		}
		// The stub needs ct to be exactly dst (encrypting) or src
		// (decrypting), as the JDK passes it; anything else is the Java path's job.
		if unsafe.SliceData(ct) != unsafe.SliceData(dst) && unsafe.SliceData(ct) != unsafe.SliceData(src) {
			return 0, nil
		}
		if partialOverlap(dst, src) {
			return 0, nil // partial overlap: leave it all to the Java code
		}
		return int64(f(xk, ctr, (*[2]uint64)(st[:2]), htbl, dst, src, ct)), nil
	}
}

// subkeyTables holds, for one GHASH or GCM stub binding, the VM-private
// full-size subkey table of each H, filled as the bound variant's code reads
// it (gcm.FillTable). Each binding of the VM's route table has its own, so
// the tables live as long as the VM and follow the dispatch decision: the
// variant that fills a table is the one that runs on it.
type subkeyTables struct {
	impl  variant.ID
	byH   sync.Map // [2]uint64 -> []uint64
	count atomic.Int64
	last  atomic.Pointer[subkeyTable] // the table last asked for: a run under one key asks for no other
}

// subkeyTable is one H's table.
type subkeyTable struct {
	h [2]uint64
	t []uint64
}

// maxSubkeyTables bounds a binding's tables; past it each call gets a fresh one.
const maxSubkeyTables = 256

// get returns the GHASH subkey table for the stub. A caller's array long
// enough for the stubs is used in place: its powers of H are filled as
// HotSpot's AVX stubs fill subkeyHtbl, but copied from the VM-private table
// for that H rather than recomputed (the stubs' Go precompute is 32 bitwise
// GF(2^128) products, tens of microseconds, and the JDK makes a fresh GHASH
// object, so a fresh table, per GCM message). A shorter array gets the
// VM-private table itself.
func (c *subkeyTables) get(m *Method, a Arg) ([]uint64, error) {
	h := a.Uint64s()
	if len(h) < 2 {
		return nil, argError(m, exAIOOBE, 2, "subkeyHtbl has %d longs, want at least 2", len(h))
	}
	if len(h) >= gcm.HtblLen && h[2]|h[3] != 0 {
		// Filled: every power slot of a non-zero H is non-zero, and the
		// JDK never changes H in a GHASH object (a new key is a new object).
		return h, nil
	}
	t := c.table([2]uint64{h[0], h[1]})
	if len(h) < gcm.HtblLen {
		return t, nil
	}
	if t[2]|t[3] != 0 { // the bound code keeps powers of H in the table
		copy(h[2:gcm.HtblLen], t[2:gcm.HtblLen])
	}
	return h, nil
}

// table returns the VM-private full subkey table of H, filled before it
// is shared.
func (c *subkeyTables) table(k [2]uint64) []uint64 {
	if e := c.last.Load(); e != nil && e.h == k {
		return e.t
	}
	if t, ok := c.byH.Load(k); ok {
		c.last.Store(&subkeyTable{h: k, t: t.([]uint64)})
		return t.([]uint64)
	}
	t := make([]uint64, gcm.HtblLen)
	t[0], t[1] = k[0], k[1]
	gcm.FillTable(c.impl, t)
	if c.count.Add(1) > maxSubkeyTables {
		return t // too many keys: a fresh table per call
	}
	v, _ := c.byH.LoadOrStore(k, t)
	c.last.Store(&subkeyTable{h: k, t: v.([]uint64)})
	return v.([]uint64)
}
