// Command gcm_amd64_asm generates stubs/gcm's amd64 assembly with avo.
//
// Run it from this directory with
//
//	go run . -out ../gcm_amd64.s -pkg gcm
//
// (the //go:generate line in stubs/gcm/gcm.go does exactly that).
//
// All the stubs work in one representation of GF(2^128): a GHASH block is
// loaded and byte-reversed (VPSHUFB), which turns GCM's reflected bit order
// into a 128-bit integer whose carry-less products need no bit reversal; the
// precomputed powers of H in the subkey table are pre-multiplied by the
// integer 2 (see stubs/gcm/htbl.go), so the 256-bit product is already
// aligned, and the reduction modulo x^128+x^7+x^2+x+1 folds the low half
// twice with one carry-less multiply by 0xC2<<56 each (the "Montgomery"
// style reduction Intel's GCM white paper describes).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// maxPowers and powerOff must match stubs/gcm (maxPowers, powerIndex).
const maxPowers = 32

// powerOff returns the byte offset of H^k in the subkey table.
func powerOff(k int) int { return 8 * (2 + 2*(maxPowers-k)) }

// karatsubaOff returns the byte offset of the 16-byte entry whose low 64
// bits are H^k's two halves XORed (1 ≤ k ≤ 8; stubs/gcm karatsubaIndex).
func karatsubaOff(k int) int { return 8 * (2 + 2*maxPowers + 2*(8-k)) }

var (
	bswapMask, ctrMask, keyMask, polyConst, incTable Mem
	chunkInc                                         = map[int]Mem{}
)

func main() {
	ConstraintExpr("!purego")

	bswapMask = GLOBL("gcmBswapMask", RODATA|NOPTR)
	DATA(0, U64(0x08090a0b0c0d0e0f))
	DATA(8, U64(0x0001020304050607))

	// ctrMask byte-swaps only the last 32-bit word: the inc32 counter is kept
	// with that word little-endian so VPADDD can increment it.
	ctrMask = GLOBL("gcmCtrMask", RODATA|NOPTR)
	DATA(0, U64(0x0706050403020100))
	DATA(8, U64(0x0c0d0e0f0b0a0908))

	// keyMask byte-swaps each 32-bit word: the JDK's int[] round keys are
	// big-endian words, AESENC wants the key bytes in order.
	keyMask = GLOBL("gcmKeyMask", RODATA|NOPTR)
	DATA(0, U64(0x0405060700010203))
	DATA(8, U64(0x0c0d0e0f08090a0b))

	polyConst = GLOBL("gcmPoly", RODATA|NOPTR)
	DATA(0, U64(1))
	DATA(8, U64(0xc200000000000000))

	// incTable entry k (16 bytes) adds k to the counter word.
	incTable = GLOBL("gcmIncTable", RODATA|NOPTR)
	for k := 0; k <= 32; k++ {
		DATA(16*k, U64(0))
		DATA(16*k+8, U64(uint64(k)<<32))
	}

	// chunkInc[w] adds 8·w to the counter word of every lane.
	for _, w := range []int{1, 2, 4} {
		m := GLOBL(fmt.Sprintf("gcmChunkInc%d", 8*w), RODATA|NOPTR)
		for l := range w {
			DATA(16*l, U64(0))
			DATA(16*l+8, U64(uint64(8*w)<<32))
		}
		chunkInc[w] = m
	}

	ghashPCLMUL()
	bind("bindGHASH(GHASHPCLMUL, ghashPCLMUL)")
	ghashAVX8()
	bind("bindGHASH(GHASHAVX8, ghashAVX8)")
	for _, k := range []struct {
		f  flavor
		id string // the variant the kernel pair implements
	}{{xmmAVX, "GCMAVX2"}, {ymmVAES, "GCMVAESYMM"}, {zmmVAES, "GCMVAES"}} {
		gcmKernel(k.f, true)
		gcmKernel(k.f, false)
		bind(fmt.Sprintf("bindGCM(%s, gcmEnc%s, gcmDec%s, %d*16)", k.id, k.f.name, k.f.name, 8*k.f.w))
	}
	Generate()
}

// bind records, in the function just generated, the Go statement that attaches
// it to its variant ID (declared with its Needs in the entry's file);
// stubs/internal/gluegen turns these lines and the prototypes into
// ../zcode_amd64.go.
func bind(stmt string) { Comment("bind: " + stmt) }

// ghashPCLMUL models generate_ghash_processBlocks (JDK-8073108): one block
// per iteration, SSE PCLMULQDQ, one reduction per block.
func ghashPCLMUL() {
	TEXT("ghashPCLMUL", NOSPLIT, "func(state *[2]uint64, htbl *uint64, data *byte, blocks int)")
	Pragma("noescape")
	Doc("ghashPCLMUL absorbs blocks 16-byte blocks of data into state, one block per iteration (SSE PCLMULQDQ).")
	state, htbl, data, n := RDI, RSI, RDX, RCX
	Load(Param("state"), state)
	Load(Param("htbl"), htbl)
	Load(Param("data"), data)
	Load(Param("blocks"), n)

	MOVOU(bswapMask, X7)
	MOVOU(polyConst, X6)
	MOVOU(Mem{Base: state}, X0)
	PSHUFD(U8(0x4e), X0, X0)
	MOVOU(Mem{Base: htbl, Disp: powerOff(1)}, X1)

	Label("pclmulLoop")
	TESTQ(n, n)
	JZ(LabelRef("pclmulDone"))
	MOVOU(Mem{Base: data}, X2)
	PSHUFB(X7, X2)
	PXOR(X2, X0)
	// 256-bit product of X0 and H: lo in X2, hi in X3.
	MOVOU(X0, X2)
	PCLMULQDQ(U8(0x00), X1, X2)
	MOVOU(X0, X3)
	PCLMULQDQ(U8(0x11), X1, X3)
	MOVOU(X0, X4)
	PCLMULQDQ(U8(0x01), X1, X4)
	PCLMULQDQ(U8(0x10), X1, X0)
	PXOR(X4, X0)
	MOVOU(X0, X4)
	PSLLDQ(U8(8), X4)
	PXOR(X4, X2)
	PSRLDQ(U8(8), X0)
	PXOR(X0, X3)
	for range 2 {
		MOVOU(X6, X4)
		PCLMULQDQ(U8(0x01), X2, X4)
		PSHUFD(U8(0x4e), X2, X2)
		PXOR(X4, X2)
	}
	PXOR(X3, X2)
	MOVOU(X2, X0)
	ADDQ(U8(16), data)
	DECQ(n)
	JMP(LabelRef("pclmulLoop"))

	Label("pclmulDone")
	PSHUFD(U8(0x4e), X0, X0)
	MOVOU(X0, Mem{Base: state})
	RET()
}

// flavor is one vector width of the aggregated GHASH / GCM code.
type flavor struct {
	name string // function name suffix
	w    int    // 16-byte blocks per vector register
	evex bool   // may use EVEX encodings and registers 16–31
}

var (
	xmmAVX  = flavor{name: "AVX2", w: 1}
	ymmVAES = flavor{name: "VAES", w: 2, evex: true}
	zmmVAES = flavor{name: "VAES512", w: 4, evex: true}
)

// v returns vector register i at the flavor's width.
func (f flavor) v(i int) VecPhysical {
	switch f.w {
	case 1:
		return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15,
			X16, X17, X18, X19, X20, X21, X22, X23, X24, X25, X26, X27, X28, X29, X30, X31}[i]
	case 2:
		return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
			Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}[i]
	}
	return []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

func xr(i int) VecPhysical { return flavor{w: 1}.v(i) }
func yr(i int) VecPhysical { return flavor{w: 2}.v(i) }

func (f flavor) bytes() int { return 16 * f.w }

func (f flavor) load(m Mem, r Op) {
	if f.evex {
		VMOVDQU64(m, r)
	} else {
		VMOVDQU(m, r)
	}
}

func (f flavor) store(r Op, m Mem) {
	if f.evex {
		VMOVDQU64(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

func (f flavor) xor(a, b, dst Op) {
	if f.evex {
		VPXORQ(a, b, dst)
	} else {
		VPXOR(a, b, dst)
	}
}

// xor3 sets dst ^= a ^ b.
func (f flavor) xor3(a, b, dst Op) {
	if f.evex {
		VPTERNLOGD(U8(0x96), a, b, dst)
	} else {
		VPXOR(a, dst, dst)
		VPXOR(b, dst, dst)
	}
}

// broadcast loads a 16-byte constant into every lane of r.
func (f flavor) broadcast(m Mem, r Op) {
	if f.w == 1 {
		VMOVDQU(m, r)
	} else {
		VBROADCASTI32X4(m, r)
	}
}

// Register plan of gcmKernel (indices into the flavor's register file).
const (
	rState0 = 0  // 0..7: AES states, 8 vectors = one chunk
	rCtr    = 8  // counter base in every lane, last word little-endian
	rS      = 11 // GHASH state (xmm, byte-reversed representation)
	rLo     = 12 // 256-bit product accumulators: low, high, middle
	rHi     = 13
	rMid    = 14
	rData   = 15 // ciphertext being hashed
	rT1     = 9  // temporaries (below 16: usable by VEX-only instructions)
	rT2     = 10
	// EVEX flavors only:
	rBswap = 16
	rCMask = 17
	rPow   = 18
	rT3    = 19
	rT4    = 20
	rT5    = 21
	rKey0  = 22 // 22..31: round keys 0–9, kept in registers
)

// kernelRegs are the general registers gcmKernel uses.
var (
	kXK, kRounds, kCtr, kState, kHtbl, kDst, kSrc, kN, kHash, kLast = RDI, RSI, R8, R9, R10, R11, R12, R13, RBX, RCX
)

// ctrSlots is the xmm flavor's stack area of eight counter blocks ⊕ key0;
// kCtrLE holds the next block's counter word, kKey3 key0's last word.
var (
	ctrSlots      Mem
	kCtrLE, kKey3 = EDX, R14L
)

// fillCounters stores the last words of the counter slots for the chunk
// starting at kCtrLE.
func fillCounters() {
	for i := range 8 {
		LEAL(Mem{Base: RDX, Disp: i}, EAX)
		BSWAPL(EAX)
		XORL(kKey3, EAX)
		MOVL(EAX, ctrSlots.Offset(16*i+12))
	}
}

// stepOrder is the order in which the eight vectors of a chunk are hashed;
// xmmPow is the register the xmm flavor loads powers of H into. Each
// generator sets both: the state-last order needs a power register that does
// not hold the state, which the AVX2 GCM kernel (16 registers, 8 of them AES
// states) does not have — there the state register doubles as the power
// register between the first block's XOR and the reduction, so the state
// block goes first.
var (
	stepOrder  [8]int
	stateLast  = [8]int{1, 2, 3, 4, 5, 6, 7, 0}
	stateFirst = [8]int{0, 1, 2, 3, 4, 5, 6, 7}
	xmmPow     VecPhysical
	sMem       *Mem // where the xmm GCM kernel keeps the GHASH state, or nil
)

// ghashStep hashes vector j of the chunk at kHash (blocks j·w … j·w+w−1),
// multiplying each block by its power of H and adding the unreduced
// products to lo/hi/mid. Block b of a chunk of 8·w blocks gets H^(8w−b), so
// one reduction after the eighth step finishes the whole chunk.
//
// The block that carries the running state in (j = 0) is hashed last
// (stepOrder), so the loop-carried chain state → product → reduction → state
// is as short as possible; the first step hashed initialises the
// accumulators.
func ghashStep(f flavor, j int) {
	first := j == stepOrder[0]
	d := f.v(rData)
	f.load(Mem{Base: kHash, Disp: j * f.bytes()}, d)
	if f.evex {
		VPSHUFB(f.v(rBswap), d, d)
	} else {
		VPSHUFB(bswapMask, d, d)
	}
	if j == 0 {
		if sMem != nil {
			VPXOR(*sMem, d, d) // the state enters with the first block
		} else {
			f.xor(f.v(rS), d, d) // the state enters with the first block
		}
	}
	pw := Mem{Base: kHtbl, Disp: powerOff(8*f.w - j*f.w)}
	p := f.v(rPow)
	if !f.evex {
		p = xmmPow
	}
	f.load(pw, p)
	if first && !f.evex {
		VPCLMULQDQ(U8(0x00), p, d, f.v(rLo))
		VPCLMULQDQ(U8(0x11), p, d, f.v(rHi))
		VPSHUFD(U8(0x4e), d, f.v(rT1))
		VPXOR(d, f.v(rT1), f.v(rT1))
		VPCLMULQDQ(U8(0x00), Mem{Base: kHtbl, Disp: karatsubaOff(8 - j)}, f.v(rT1), f.v(rMid))
		return
	}
	if first {
		VPCLMULQDQ(U8(0x00), p, d, f.v(rLo))
		VPCLMULQDQ(U8(0x11), p, d, f.v(rHi))
		VPCLMULQDQ(U8(0x01), p, d, f.v(rMid))
		VPCLMULQDQ(U8(0x10), p, d, f.v(rT1))
		f.xor(f.v(rT1), f.v(rMid), f.v(rMid))
		return
	}
	if f.evex {
		VPCLMULQDQ(U8(0x00), p, d, f.v(rT3))
		VPCLMULQDQ(U8(0x11), p, d, f.v(rT4))
		VPCLMULQDQ(U8(0x01), p, d, f.v(rT5))
		VPCLMULQDQ(U8(0x10), p, d, f.v(rT1))
		f.xor(f.v(rT3), f.v(rLo), f.v(rLo))
		f.xor(f.v(rT4), f.v(rHi), f.v(rHi))
		f.xor3(f.v(rT5), f.v(rT1), f.v(rMid))
		return
	}
	// xmm: Karatsuba, three products per block, the middle one
	// (d.hi⊕d.lo)·(p.hi⊕p.lo) against the precomputed table; lo and hi are
	// subtracted from mid once per chunk in ghashReduce. One temporary only:
	// rT2 holds the round key.
	t := f.v(rT1)
	VPCLMULQDQ(U8(0x00), p, d, t)
	VPXOR(t, f.v(rLo), f.v(rLo))
	VPCLMULQDQ(U8(0x11), p, d, t)
	VPXOR(t, f.v(rHi), f.v(rHi))
	VPSHUFD(U8(0x4e), d, t)
	VPXOR(d, t, t)
	VPCLMULQDQ(U8(0x00), Mem{Base: kHtbl, Disp: karatsubaOff(8 - j)}, t, t)
	VPXOR(t, f.v(rMid), f.v(rMid))
}

// ghashReduce folds the middle product into lo/hi, the lanes into one xmm,
// and reduces lo:hi into the GHASH state register.
func ghashReduce(f flavor) {
	lo, hi, mid := f.v(rLo), f.v(rHi), f.v(rMid)
	if !f.evex { // Karatsuba: mid = Σ(dk·pk) ⊕ lo ⊕ hi
		VPXOR(lo, mid, mid)
		VPXOR(hi, mid, mid)
	}
	VPSLLDQ(U8(8), mid, f.v(rT1))
	VPSRLDQ(U8(8), mid, mid)
	f.xor(f.v(rT1), lo, lo)
	f.xor(mid, hi, hi)
	if f.w == 4 {
		VEXTRACTI64X4(U8(1), lo, yr(rT1))
		VEXTRACTI64X4(U8(1), hi, yr(rT2))
		VPXOR(yr(rT1), yr(rLo), yr(rLo))
		VPXOR(yr(rT2), yr(rHi), yr(rHi))
	}
	if f.w >= 2 {
		VEXTRACTI128(U8(1), yr(rLo), xr(rT1))
		VEXTRACTI128(U8(1), yr(rHi), xr(rT2))
		VPXOR(xr(rT1), xr(rLo), xr(rLo))
		VPXOR(xr(rT2), xr(rHi), xr(rHi))
	}
	reduce(xr(rLo), xr(rHi), xr(rS), xr(rT1))
	if sMem != nil {
		VMOVDQU(xr(rS), *sMem)
	}
}

// reduce sets s = (lo:hi) mod P in the byte-reversed representation.
func reduce(lo, hi, s, t VecPhysical) {
	for range 2 {
		VPCLMULQDQ(U8(0x10), polyConst, lo, t)
		VPSHUFD(U8(0x4e), lo, lo)
		VPXOR(t, lo, lo)
	}
	VPXOR(hi, lo, s)
}

// ghashAVX8 models generate_avx_ghash_processBlocks: eight blocks per
// reduction against H⁸…H¹, then single blocks.
func ghashAVX8() {
	TEXT("ghashAVX8", NOSPLIT, "func(state *[2]uint64, htbl *uint64, data *byte, blocks int)")
	Pragma("noescape")
	Doc("ghashAVX8 absorbs blocks 16-byte blocks of data into state, eight blocks per reduction (AVX, PCLMULQDQ).")
	f := xmmAVX
	stepOrder, xmmPow = stateLast, X7 // X0–X8 are free here
	Load(Param("state"), kState)
	Load(Param("htbl"), kHtbl)
	Load(Param("data"), kHash)
	Load(Param("blocks"), kN)
	VMOVDQU(Mem{Base: kState}, xr(rS))
	VPSHUFD(U8(0x4e), xr(rS), xr(rS))

	Label("avx8Loop")
	CMPQ(kN, U8(8))
	JB(LabelRef("avx8Single"))
	for _, j := range stepOrder {
		ghashStep(f, j)
	}
	ghashReduce(f)
	ADDQ(U8(128), kHash)
	SUBQ(U8(8), kN)
	JMP(LabelRef("avx8Loop"))

	Label("avx8Single")
	TESTQ(kN, kN)
	JZ(LabelRef("avx8Done"))
	VMOVDQU(Mem{Base: kHtbl, Disp: powerOff(1)}, X1)
	Label("avx8SingleLoop")
	VMOVDQU(Mem{Base: kHash}, X0)
	VPSHUFB(bswapMask, X0, X0)
	VPXOR(xr(rS), X0, X0)
	VPCLMULQDQ(U8(0x00), X1, X0, xr(rLo))
	VPCLMULQDQ(U8(0x11), X1, X0, xr(rHi))
	VPCLMULQDQ(U8(0x01), X1, X0, xr(rMid))
	VPCLMULQDQ(U8(0x10), X1, X0, xr(rT1))
	VPXOR(xr(rT1), xr(rMid), xr(rMid))
	VPSLLDQ(U8(8), xr(rMid), xr(rT1))
	VPSRLDQ(U8(8), xr(rMid), xr(rMid))
	VPXOR(xr(rT1), xr(rLo), xr(rLo))
	VPXOR(xr(rMid), xr(rHi), xr(rHi))
	reduce(xr(rLo), xr(rHi), xr(rS), xr(rT1))
	ADDQ(U8(16), kHash)
	DECQ(kN)
	JNZ(LabelRef("avx8SingleLoop"))

	Label("avx8Done")
	VPSHUFD(U8(0x4e), xr(rS), xr(rS))
	VMOVDQU(xr(rS), Mem{Base: kState})
	RET()
}

// gcmKernel emits gcm{Enc,Dec}<flavor>: AES-CTR (inc32) over chunks chunks of
// 8 vectors (8·w blocks) with GHASH of the ciphertext interleaved into the AES
// rounds, one reduction per chunk. It models HotSpot's interleaved GCM stubs
// (generate_avx2_galoisCounterMode_AESCrypt, JDK-8314901; and
// generate_galoisCounterMode_AESCrypt for VAES/VPCLMULQDQ, JDK-8267125):
// the GHASH of one chunk runs between the AES rounds of another, so the
// AES units and the carry-less multiplier work at the same time.
//
// Encrypting, the hashed chunk is the previous one's output (it must exist
// before it can be hashed): the first chunk is AES only, the last hash runs
// alone after the loop. Decrypting, the chunk's own input is hashed.
func gcmKernel(f flavor, enc bool) {
	stepOrder, xmmPow, sMem = stateLast, nil, nil
	if !f.evex {
		// 16 registers: the state lives on the stack between chunks and
		// its register holds the powers of H.
		stepOrder, xmmPow = stateLast, xr(rS)
	}
	name := "gcmDec" + f.name
	if enc {
		name = "gcmEnc" + f.name
	}
	TEXT(name, 0, "func(xk *uint32, rounds int, ctr *[16]byte, state *[2]uint64, htbl *uint64, dst, src *byte, chunks int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s processes chunks chunks of %d blocks: AES-CTR with inc32 and interleaved GHASH of the ciphertext.", name, 8*f.w))
	keys := AllocLocal(15 * f.bytes())
	if !f.evex {
		m := AllocLocal(16)
		sMem = &m
	}
	Load(Param("xk"), kXK)
	Load(Param("rounds"), kRounds)
	Load(Param("ctr"), kCtr)
	Load(Param("state"), kState)
	Load(Param("htbl"), kHtbl)
	Load(Param("dst"), kDst)
	Load(Param("src"), kSrc)
	Load(Param("chunks"), kN)
	lbl := func(s string) string { return name + s }

	// Round keys: byte-swap each word and broadcast to every lane, once.
	for i := 0; i <= 14; i++ {
		switch i {
		case 11:
			CMPQ(kRounds, U8(12))
			JB(LabelRef(lbl("KeysDone")))
		case 13:
			CMPQ(kRounds, U8(14))
			JB(LabelRef(lbl("KeysDone")))
		}
		VMOVDQU(Mem{Base: kXK, Disp: 16 * i}, xr(rT1))
		VPSHUFB(keyMask, xr(rT1), xr(rT1))
		switch f.w {
		case 2:
			VINSERTI128(U8(1), xr(rT1), yr(rT1), yr(rT1))
		case 4:
			VSHUFI64X2(U8(0), f.v(rT1), f.v(rT1), f.v(rT1))
		}
		f.store(f.v(rT1), keys.Offset(i*f.bytes()))
		if f.evex && i <= 9 {
			f.load(keys.Offset(i*f.bytes()), f.v(rKey0+i))
		}
	}
	Label(lbl("KeysDone"))
	// kLast = &keys[rounds]
	MOVQ(kRounds, kLast)
	SHLQ(U8(map[int]uint8{1: 4, 2: 5, 4: 6}[f.w]), kLast)
	LEAQ(keys, RAX)
	ADDQ(RAX, kLast)

	if f.evex {
		f.broadcast(bswapMask, f.v(rBswap))
		f.broadcast(ctrMask, f.v(rCMask))
	}
	if f.evex {
		// Counter base in every lane, last word little-endian; aesChunk
		// adds r·w + l for vector r, lane l (incTable entries r·w … r·w+w−1).
		f.broadcast(Mem{Base: kCtr}, f.v(rCtr))
		VPSHUFB(f.v(rCMask), f.v(rCtr), f.v(rCtr))
	} else {
		// The xmm flavor builds its counter blocks with scalar code, off the
		// vector ports (which AES and GHASH saturate): eight stack slots hold
		// ctr ⊕ key0, whose first 12 bytes never change under inc32; for each
		// chunk only the last word, bswap(c+i) ⊕ key0[3], is stored.
		ctrSlots = AllocLocal(8 * 16)
		VMOVDQU(Mem{Base: kCtr}, xr(rT1))
		VPXOR(keys, xr(rT1), xr(rT1))
		for i := range 8 {
			VMOVDQU(xr(rT1), ctrSlots.Offset(16*i))
		}
		MOVL(Mem{Base: kCtr, Disp: 12}, kCtrLE)
		BSWAPL(kCtrLE)
		MOVL(keys.Offset(12), kKey3)
		fillCounters()
	}
	VMOVDQU(Mem{Base: kState}, xr(rS))
	VPSHUFD(U8(0x4e), xr(rS), xr(rS))
	if sMem != nil {
		VMOVDQU(xr(rS), *sMem)
	}

	chunk := 8 * f.bytes()
	TESTQ(kN, kN)
	JZ(LabelRef(lbl("Done")))
	if enc {
		aesChunk(f, keys, false, lbl("First"))
		MOVQ(kDst, kHash)
		ADDQ(U32(chunk), kSrc)
		ADDQ(U32(chunk), kDst)
		DECQ(kN)
	} else {
		MOVQ(kSrc, kHash)
	}
	Label(lbl("Loop"))
	TESTQ(kN, kN)
	JZ(LabelRef(lbl("Tail")))
	aesChunk(f, keys, true, lbl("Body"))
	ADDQ(U32(chunk), kHash)
	ADDQ(U32(chunk), kSrc)
	ADDQ(U32(chunk), kDst)
	DECQ(kN)
	JMP(LabelRef(lbl("Loop")))

	Label(lbl("Tail"))
	if enc {
		for _, j := range stepOrder {
			ghashStep(f, j)
		}
		ghashReduce(f)
	}
	Label(lbl("Done"))
	if sMem != nil {
		VMOVDQU(*sMem, xr(rS))
	}
	VPSHUFD(U8(0x4e), xr(rS), xr(rS))
	VMOVDQU(xr(rS), Mem{Base: kState})
	// The counter to use next: lane 0 of rCtr, or the scalar one.
	if f.evex {
		VPSHUFB(xr(rCMask), xr(rCtr), xr(rCtr))
		VMOVDQU(xr(rCtr), Mem{Base: kCtr})
	} else {
		BSWAPL(kCtrLE)
		MOVL(kCtrLE, Mem{Base: kCtr, Disp: 12})
	}
	VZEROUPPER()
	RET()
}

// aesChunk encrypts the next 8 vectors of counters, XORs them with src into
// dst and, if hash, hashes the chunk at kHash between the AES rounds.
func aesChunk(f flavor, keys Mem, hash bool, tag string) {
	// key returns round key i: a register in the EVEX flavors (keys 0–9),
	// else memory; the xmm flavor loads each key once per round into rT2.
	key := func(i int) Op {
		if f.evex && i <= 9 {
			return f.v(rKey0 + i)
		}
		return keys.Offset(i * f.bytes())
	}
	roundKey := func(i int) Op {
		if f.evex || i > 9 {
			return key(i)
		}
		VMOVDQU(key(i), f.v(rT2))
		return f.v(rT2)
	}
	if f.evex {
		k0 := key(0)
		for r := range 8 {
			s := f.v(rState0 + r)
			VPADDD(incTable.Offset(16*r*f.w), f.v(rCtr), s)
			VPSHUFB(f.v(rCMask), s, s)
			f.xor(k0, s, s)
		}
		VPADDD(chunkInc[f.w], f.v(rCtr), f.v(rCtr))
	} else {
		for r := range 8 {
			VMOVDQU(ctrSlots.Offset(16*r), f.v(rState0+r))
		}
		ADDL(U8(8), kCtrLE)
	}
	for round := 1; round <= 9; round++ {
		k := roundKey(round)
		for r := range 8 {
			VAESENC(k, f.v(rState0+r), f.v(rState0+r))
		}
		if hash && round <= 8 {
			ghashStep(f, stepOrder[round-1])
		}
		if !f.evex && round == 2 {
			fillCounters() // the next chunk's, well before it loads them
		}
	}
	if hash {
		ghashReduce(f)
	}
	CMPQ(kRounds, U8(12))
	JB(LabelRef(tag + "Last"))
	for round := 10; round <= 11; round++ {
		for r := range 8 {
			VAESENC(key(round), f.v(rState0+r), f.v(rState0+r))
		}
	}
	JE(LabelRef(tag + "Last"))
	for round := 12; round <= 13; round++ {
		for r := range 8 {
			VAESENC(key(round), f.v(rState0+r), f.v(rState0+r))
		}
	}
	Label(tag + "Last")
	for r := range 8 {
		VAESENCLAST(Mem{Base: kLast}, f.v(rState0+r), f.v(rState0+r))
	}
	for r := range 8 {
		s := f.v(rState0 + r)
		f.xor(Mem{Base: kSrc, Disp: r * f.bytes()}, s, s)
		f.store(s, Mem{Base: kDst, Disp: r * f.bytes()})
	}
}
