// Command _asm generates stubs/aes/aes_amd64.s, jitsim's amd64 AES stubs,
// with avo. Each TEXT models one HotSpot x86_64 stub generator
// (src/hotspot/cpu/x86/stubGenerator_x86_64_aes.cpp). After each TEXT, a
// "bind:" comment attaches the kernel to the variant ID it implements (declared
// with its Needs in the entry's file); stubs/internal/gluegen turns those lines
// and the prototypes into ../zcode_amd64.go.
//
// Key handling, as in HotSpot: the stubs take the JDK's expanded-key words
// (big-endian int[] K) and byte-swap each round key as they load it (PSHUFB
// with a 32-bit byte-reverse mask). The AES-NI stubs reload round keys from
// the schedule every round; the VAES stubs broadcast all of them into
// Z16–Z30 once per call.
//
// Regenerate with: go generate ./stubs/aes (from the repository root).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var bswap32, bswap128, ctrLanes, ctrInc4 Mem

func main() {
	ConstraintExpr("!purego")

	bswap32 = GLOBL("bswap32", RODATA|NOPTR)
	DATA(0, U64(0x0405060700010203))
	DATA(8, U64(0x0c0d0e0f08090a0b))
	bswap128 = GLOBL("bswap128", RODATA|NOPTR)
	for i := 0; i < 4; i++ { // four copies, so a zmm load gets it in every lane
		DATA(16*i, U64(0x08090a0b0c0d0e0f))
		DATA(16*i+8, U64(0x0001020304050607))
	}
	ctrLanes = GLOBL("ctrLanes", RODATA|NOPTR) // low-qword offsets 0,1,2,3 per lane
	for i := 0; i < 4; i++ {
		DATA(16*i, U64(uint64(i)))
		DATA(16*i+8, U64(0))
	}
	ctrInc4 = GLOBL("ctrInc4", RODATA|NOPTR) // +4 in every lane's low qword
	for i := 0; i < 4; i++ {
		DATA(16*i, U64(4))
		DATA(16*i+8, U64(0))
	}

	blockAESNI("encryptBlockAESNI", false)
	bind("bindBlockEncrypt(EncryptBlockAESNI, encryptBlockAESNI)")
	blockAESNI("decryptBlockAESNI", true)
	bind("bindBlockDecrypt(DecryptBlockAESNI, decryptBlockAESNI)")
	cbcEncryptAESNI()
	bind("bindCBCEncrypt(CBCEncryptAESNI, cbcEncryptAESNI)")
	cbcDecryptAESNI4()
	bind("bindCBCDecrypt(CBCDecryptAESNI4, cbcDecryptAESNI4)")
	ctrAESNI6()
	bind("bindCTR(CTRAESNI6, ctrAESNI6, encryptBlockAESNI)")
	ecbAVX4("ecbEncryptAVX4", false)
	bind("bindECBEncrypt(ECBEncryptAVX4, ecbEncryptAVX4)")
	ecbAVX4("ecbDecryptAVX4", true)
	bind("bindECBDecrypt(ECBDecryptAVX4, ecbDecryptAVX4)")
	ecbVAES("ecbEncryptVAES", false)
	bind("bindECBEncrypt(ECBEncryptVAES, ecbEncryptVAES)")
	ecbVAES("ecbDecryptVAES", true)
	bind("bindECBDecrypt(ECBDecryptVAES, ecbDecryptVAES)")
	cbcDecryptVAES()
	bind("bindCBCDecrypt(CBCDecryptVAES, cbcDecryptVAES)")
	ctrVAES()
	bind("bindCTR(CTRVAES, ctrVAES, encryptBlockAESNI)")
	Generate()
}

// bind records, in the function just generated, the Go statement that attaches
// it to its variant (see the package comment).
func bind(stmt string) { Comment("bind: " + stmt) }

// --- AES-NI (SSE) helpers ---------------------------------------------------

// sse holds the registers every AES-NI stub uses for its key schedule.
type sse struct {
	name     string
	nr, xk   GPPhysical // round count; schedule base
	last     GPPhysical // address of the last round key
	tk, mask VecPhysical
	labels   int
}

func newSSE(name string) *sse {
	s := &sse{name: name, nr: RCX, xk: RBX, last: RDX, tk: X14, mask: X15}
	Load(Param("nr"), s.nr)
	Load(Param("xk"), s.xk)
	MOVOU(bswap32, s.mask)
	MOVQ(s.nr, s.last)
	SHLQ(Imm(4), s.last)
	ADDQ(s.xk, s.last)
	return s
}

func (s *sse) key(m Mem) {
	MOVOU(m, s.tk)
	PSHUFB(s.mask, s.tk)
}

// rounds emits all rounds on the states: AddRoundKey, nr-1 full rounds and
// the last round (AESENC…AESENCLAST or AESDEC…AESDECLAST), branching on nr
// after rounds 9 and 11 like HotSpot's key-length dispatch.
func (s *sse) rounds(dec bool, states ...VecPhysical) {
	op, opLast := AESENC, AESENCLAST
	if dec {
		op, opLast = AESDEC, AESDECLAST
	}
	s.labels++
	done := fmt.Sprintf("%s_last%d", s.name, s.labels)
	s.key(Mem{Base: s.xk})
	for _, st := range states {
		PXOR(s.tk, st)
	}
	for r := 1; r < 14; r++ {
		if r == 10 || r == 12 {
			CMPQ(s.nr, Imm(uint64(r)))
			JE(LabelRef(done))
		}
		s.key(Mem{Base: s.xk, Disp: 16 * r})
		for _, st := range states {
			op(s.tk, st)
		}
	}
	Label(done)
	s.key(Mem{Base: s.last})
	for _, st := range states {
		opLast(s.tk, st)
	}
}

func blockAESNI(name string, dec bool) {
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, dst, src *byte)")
	gen := "generate_aescrypt_encryptBlock"
	if dec {
		gen = "generate_aescrypt_decryptBlock"
	}
	Doc(name + " models HotSpot's " + gen + ": one block, AES-NI.")
	s := newSSE(name)
	dst, src := RDI, RSI
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	MOVOU(Mem{Base: src}, X0)
	s.rounds(dec, X0)
	MOVOU(X0, Mem{Base: dst})
	RET()
}

func cbcEncryptAESNI() {
	name := "cbcEncryptAESNI"
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)")
	Doc(name + " models generate_cipherBlockChaining_encryptAESCrypt: serial by definition, one block per iteration.")
	s := newSSE(name)
	iv, dst, src, n := R8, RDI, RSI, R9
	Load(Param("iv"), iv)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	MOVOU(Mem{Base: iv}, X0)
	Label(name + "_loop")
	CMPQ(n, Imm(16))
	JB(LabelRef(name + "_done"))
	MOVOU(Mem{Base: src}, X1)
	PXOR(X1, X0)
	s.rounds(false, X0)
	MOVOU(X0, Mem{Base: dst})
	ADDQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	SUBQ(Imm(16), n)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	MOVOU(X0, Mem{Base: iv})
	RET()
}

func cbcDecryptAESNI4() {
	name := "cbcDecryptAESNI4"
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)")
	Doc(name + " models generate_cipherBlockChaining_decryptAESCrypt_Parallel: four blocks per iteration (PARALLEL_FACTOR = 4), then one at a time.")
	s := newSSE(name)
	iv, dst, src, n := R8, RDI, RSI, R9
	Load(Param("iv"), iv)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	MOVOU(Mem{Base: iv}, X8) // X8: previous ciphertext block
	st := []VecPhysical{X0, X1, X2, X3}
	ct := []VecPhysical{X4, X5, X6, X7}
	Label(name + "_loop4")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_loop1"))
	for i := range st {
		MOVOU(Mem{Base: src, Disp: 16 * i}, ct[i])
		MOVO(ct[i], st[i])
	}
	s.rounds(true, st...)
	PXOR(X8, st[0])
	for i := 1; i < 4; i++ {
		PXOR(ct[i-1], st[i])
	}
	MOVO(ct[3], X8)
	for i := range st {
		MOVOU(st[i], Mem{Base: dst, Disp: 16 * i})
	}
	ADDQ(Imm(64), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(64), n)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_loop1")
	CMPQ(n, Imm(16))
	JB(LabelRef(name + "_done"))
	MOVOU(Mem{Base: src}, X4)
	MOVO(X4, X0)
	s.rounds(true, X0)
	PXOR(X8, X0)
	MOVO(X4, X8)
	MOVOU(X0, Mem{Base: dst})
	ADDQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	SUBQ(Imm(16), n)
	JMP(LabelRef(name + "_loop1"))
	Label(name + "_done")
	MOVOU(X8, Mem{Base: iv})
	RET()
}

func ctrAESNI6() {
	name := "ctrAESNI6"
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)")
	Doc(name+" models generate_counterMode_AESCrypt_Parallel: six counter blocks per iteration (PARALLEL_FACTOR = 6),",
		"then one at a time. n is a multiple of 16 and the caller guarantees the counter's low 64 bits do not wrap.")
	s := newSSE(name)
	ctr, dst, src, n := R8, RDI, RSI, R9
	Load(Param("ctr"), ctr)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	cle, one, bsw := X6, X7, X8
	MOVOU(bswap128, bsw)
	MOVOU(Mem{Base: ctr}, cle)
	PSHUFB(bsw, cle) // little-endian 128-bit counter: low qword in lane 0
	MOVQ(U32(1), RAX)
	MOVQ(RAX, one)
	st := []VecPhysical{X0, X1, X2, X3, X4, X5}
	Label(name + "_loop6")
	CMPQ(n, Imm(96))
	JB(LabelRef(name + "_loop1"))
	for _, x := range st {
		MOVO(cle, x)
		PSHUFB(bsw, x)
		PADDQ(one, cle)
	}
	s.rounds(false, st...)
	for i, x := range st {
		MOVOU(Mem{Base: src, Disp: 16 * i}, X9)
		PXOR(X9, x)
		MOVOU(x, Mem{Base: dst, Disp: 16 * i})
	}
	ADDQ(Imm(96), src)
	ADDQ(Imm(96), dst)
	SUBQ(Imm(96), n)
	JMP(LabelRef(name + "_loop6"))
	Label(name + "_loop1")
	CMPQ(n, Imm(16))
	JB(LabelRef(name + "_done"))
	MOVO(cle, X0)
	PSHUFB(bsw, X0)
	PADDQ(one, cle)
	s.rounds(false, X0)
	MOVOU(Mem{Base: src}, X9)
	PXOR(X9, X0)
	MOVOU(X0, Mem{Base: dst})
	ADDQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	SUBQ(Imm(16), n)
	JMP(LabelRef(name + "_loop1"))
	Label(name + "_done")
	RET()
}

// roundsAVX is rounds with VEX-encoded AES-NI (VAESENC xmm …), the form the
// AVX2 ECB stub of JDK-8376164 uses.
func (s *sse) roundsAVX(dec bool, states ...VecPhysical) {
	op, opLast := VAESENC, VAESENCLAST
	if dec {
		op, opLast = VAESDEC, VAESDECLAST
	}
	key := func(m Mem) {
		VMOVDQU(m, s.tk)
		VPSHUFB(s.mask, s.tk, s.tk)
	}
	s.labels++
	done := fmt.Sprintf("%s_last%d", s.name, s.labels)
	key(Mem{Base: s.xk})
	for _, st := range states {
		VPXOR(s.tk, st, st)
	}
	for r := 1; r < 14; r++ {
		if r == 10 || r == 12 {
			CMPQ(s.nr, Imm(uint64(r)))
			JE(LabelRef(done))
		}
		key(Mem{Base: s.xk, Disp: 16 * r})
		for _, st := range states {
			op(s.tk, st, st)
		}
	}
	Label(done)
	key(Mem{Base: s.last})
	for _, st := range states {
		opLast(s.tk, st, st)
	}
}

func ecbAVX4(name string, dec bool) {
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, dst, src *byte, n int)")
	Doc(name+" models the AVX2 ECB stubs of JDK-8376164 (2026, after JDK 25): four blocks per",
		"iteration with VEX-encoded AES-NI, then one at a time.")
	s := newSSE(name)
	dst, src, n := RDI, RSI, R9
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	st := []VecPhysical{X0, X1, X2, X3}
	Label(name + "_loop4")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_loop1"))
	for i, x := range st {
		VMOVDQU(Mem{Base: src, Disp: 16 * i}, x)
	}
	s.roundsAVX(dec, st...)
	for i, x := range st {
		VMOVDQU(x, Mem{Base: dst, Disp: 16 * i})
	}
	ADDQ(Imm(64), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(64), n)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_loop1")
	CMPQ(n, Imm(16))
	JB(LabelRef(name + "_done"))
	VMOVDQU(Mem{Base: src}, X0)
	s.roundsAVX(dec, X0)
	VMOVDQU(X0, Mem{Base: dst})
	ADDQ(Imm(16), src)
	ADDQ(Imm(16), dst)
	SUBQ(Imm(16), n)
	JMP(LabelRef(name + "_loop1"))
	Label(name + "_done")
	RET()
}

// --- VAES (AVX-512) helpers -------------------------------------------------

// vaes keeps round keys 0..13 in Z16..Z29 and the last one in Z30, each
// broadcast to all four 128-bit lanes.
type vaes struct {
	name   string
	nr     GPPhysical
	labels int
}

func keyZ(r int) VecPhysical {
	return []VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29}[r]
}

func newVAES(name string) *vaes {
	v := &vaes{name: name, nr: RCX}
	xk, last := RBX, RDX
	Load(Param("nr"), v.nr)
	Load(Param("xk"), xk)
	MOVQ(v.nr, last)
	SHLQ(Imm(4), last)
	ADDQ(xk, last)
	// VEX/EVEX forms only: no legacy-SSE instruction touches a register
	// whose upper half an AVX-512 instruction has written.
	VMOVDQU(bswap32, X1)
	bcast := func(m Mem, z VecPhysical) {
		VMOVDQU(m, X0)
		VPSHUFB(X1, X0, X0)
		VSHUFI32X4(Imm(0), Z0, Z0, z)
	}
	done := name + "_keys"
	for r := 0; r < 14; r++ {
		if r == 10 || r == 12 {
			CMPQ(v.nr, Imm(uint64(r)))
			JE(LabelRef(done))
		}
		bcast(Mem{Base: xk, Disp: 16 * r}, keyZ(r))
	}
	Label(done)
	bcast(Mem{Base: last}, Z30)
	return v
}

func (v *vaes) rounds(dec bool, states ...VecPhysical) {
	op, opLast := VAESENC, VAESENCLAST
	if dec {
		op, opLast = VAESDEC, VAESDECLAST
	}
	v.labels++
	done := fmt.Sprintf("%s_last%d", v.name, v.labels)
	for _, st := range states {
		VPXORQ(Z16, st, st)
	}
	for r := 1; r < 14; r++ {
		if r == 10 || r == 12 {
			CMPQ(v.nr, Imm(uint64(r)))
			JE(LabelRef(done))
		}
		for _, st := range states {
			op(keyZ(r), st, st)
		}
	}
	Label(done)
	for _, st := range states {
		opLast(Z30, st, st)
	}
}

// tailMask sets K1 to the qword mask of the remaining n (16, 32 or 48)
// bytes: 0x03, 0x0f or 0x3f. label makes the branch targets unique.
func tailMask(label string, n GPPhysical) {
	MOVL(U32(0x03), R10L)
	CMPQ(n, Imm(16))
	JE(LabelRef(label))
	MOVL(U32(0x0f), R10L)
	CMPQ(n, Imm(32))
	JE(LabelRef(label))
	MOVL(U32(0x3f), R10L)
	Label(label)
	KMOVW(R10L, K1)
}

var zs = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7}

func ecbVAES(name string, dec bool) {
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, dst, src *byte, n int)")
	gen := "generate_electronicCodeBook_encryptAESCrypt"
	if dec {
		gen = "generate_electronicCodeBook_decryptAESCrypt"
	}
	Doc(name+" models HotSpot's "+gen+" (AVX-512 VAES): 32 blocks per iteration in eight ZMM",
		"registers, then four, then a masked tail of one to three blocks.")
	v := newVAES(name)
	dst, src, n := RDI, RSI, R9
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	Label(name + "_loop32")
	CMPQ(n, U32(512))
	JB(LabelRef(name + "_loop4"))
	for i, z := range zs {
		VMOVDQU64(Mem{Base: src, Disp: 64 * i}, z)
	}
	v.rounds(dec, zs...)
	for i, z := range zs {
		VMOVDQU64(z, Mem{Base: dst, Disp: 64 * i})
	}
	ADDQ(U32(512), src)
	ADDQ(U32(512), dst)
	SUBQ(U32(512), n)
	JMP(LabelRef(name + "_loop32"))
	Label(name + "_loop4")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_tail"))
	VMOVDQU64(Mem{Base: src}, Z0)
	v.rounds(dec, Z0)
	VMOVDQU64(Z0, Mem{Base: dst})
	ADDQ(Imm(64), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(64), n)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_tail")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	tailMask(name+"_mask", n)
	VMOVDQU64_Z(Mem{Base: src}, K1, Z0)
	v.rounds(dec, Z0)
	VMOVDQU64(Z0, K1, Mem{Base: dst})
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

func cbcDecryptVAES() {
	name := "cbcDecryptVAES"
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, iv *[16]byte, dst, src *byte, n int)")
	Doc(name+" models generate_cipherBlockChaining_decryptVectorAESCrypt: 32 blocks (eight ZMM of four) per",
		"iteration, then four, then a masked tail. Z31 carries the previous ciphertext (its lane 3 is the chaining block).")
	v := newVAES(name)
	iv, dst, src, n := R8, RDI, RSI, R9
	Load(Param("iv"), iv)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	VMOVDQU(Mem{Base: iv}, X0)
	VSHUFI32X4(Imm(0), Z0, Z0, Z31)
	cts := []VecPhysical{Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15}
	// chain sets z ^= [prev lane 3, cur lanes 0..2] and makes cur the new prev.
	chain := func(z, cur, prev VecPhysical) {
		VALIGNQ(Imm(6), prev, cur, Z31) // Z31 is free here: prev was already consumed or is Z31 itself
		VPXORQ(Z31, z, z)
	}
	Label(name + "_loop32")
	CMPQ(n, U32(512))
	JB(LabelRef(name + "_loop4"))
	for i := range zs {
		VMOVDQU64(Mem{Base: src, Disp: 64 * i}, cts[i])
		VMOVDQA64(cts[i], zs[i])
	}
	v.rounds(true, zs...)
	chain(zs[0], cts[0], Z31)
	for i := 1; i < 8; i++ {
		VALIGNQ(Imm(6), cts[i-1], cts[i], Z31)
		VPXORQ(Z31, zs[i], zs[i])
	}
	VMOVDQA64(cts[7], Z31)
	for i, z := range zs {
		VMOVDQU64(z, Mem{Base: dst, Disp: 64 * i})
	}
	ADDQ(U32(512), src)
	ADDQ(U32(512), dst)
	SUBQ(U32(512), n)
	JMP(LabelRef(name + "_loop32"))
	Label(name + "_loop4")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_tail"))
	VMOVDQU64(Mem{Base: src}, Z8)
	VMOVDQA64(Z8, Z0)
	v.rounds(true, Z0)
	chain(Z0, Z8, Z31)
	VMOVDQA64(Z8, Z31)
	VMOVDQU64(Z0, Mem{Base: dst})
	ADDQ(Imm(64), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(64), n)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_tail")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	tailMask(name+"_mask", n)
	VMOVDQU64_Z(Mem{Base: src}, K1, Z8)
	VMOVDQA64(Z8, Z0)
	v.rounds(true, Z0)
	chain(Z0, Z8, Z31)
	VMOVDQU64(Z0, K1, Mem{Base: dst})
	// The new chaining block is the last ciphertext block: lane n/16-1 of Z8.
	VMOVDQU(Mem{Base: src, Index: n, Scale: 1, Disp: -16}, X0)
	VMOVDQU(X0, Mem{Base: iv})
	JMP(LabelRef(name + "_ret"))
	Label(name + "_done")
	VEXTRACTI32X4(Imm(3), Z31, X0)
	VMOVDQU(X0, Mem{Base: iv})
	Label(name + "_ret")
	VZEROUPPER()
	RET()
}

func ctrVAES() {
	name := "ctrVAES"
	TEXT(name, NOSPLIT, "func(nr int, xk *uint32, ctr *[16]byte, dst, src *byte, n int)")
	Doc(name+" models generate_counterMode_VectorAESCrypt (AVX-512 VAES): 32 counter blocks per iteration",
		"in eight ZMM registers, then four, then a masked tail. n is a multiple of 16 and the caller guarantees",
		"the counter's low 64 bits do not wrap.")
	v := newVAES(name)
	ctr, dst, src, n := R8, RDI, RSI, R9
	Load(Param("ctr"), ctr)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	cle, inc, bsw := Z8, Z9, Z10
	VMOVDQU64(bswap128, bsw)
	VMOVDQU(Mem{Base: ctr}, X0)
	VPSHUFB(X10, X0, X0) // X10 is the low lane of bsw
	VSHUFI32X4(Imm(0), Z0, Z0, cle)
	VPADDQ(ctrLanes, cle, cle) // lanes hold counter+0..3 (low qwords; no carry by contract)
	VMOVDQU64(ctrInc4, inc)
	next := func(z VecPhysical) {
		VPSHUFB(bsw, cle, z)
		VPADDQ(inc, cle, cle)
	}
	Label(name + "_loop32")
	CMPQ(n, U32(512))
	JB(LabelRef(name + "_loop4"))
	for _, z := range zs {
		next(z)
	}
	v.rounds(false, zs...)
	for i, z := range zs {
		VPXORQ(Mem{Base: src, Disp: 64 * i}, z, z)
		VMOVDQU64(z, Mem{Base: dst, Disp: 64 * i})
	}
	ADDQ(U32(512), src)
	ADDQ(U32(512), dst)
	SUBQ(U32(512), n)
	JMP(LabelRef(name + "_loop32"))
	Label(name + "_loop4")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_tail"))
	next(Z0)
	v.rounds(false, Z0)
	VPXORQ(Mem{Base: src}, Z0, Z0)
	VMOVDQU64(Z0, Mem{Base: dst})
	ADDQ(Imm(64), src)
	ADDQ(Imm(64), dst)
	SUBQ(Imm(64), n)
	JMP(LabelRef(name + "_loop4"))
	Label(name + "_tail")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	tailMask(name+"_mask", n)
	next(Z0)
	v.rounds(false, Z0)
	VMOVDQU64_Z(Mem{Base: src}, K1, Z11)
	VPXORQ(Z11, Z0, Z0)
	VMOVDQU64(Z0, K1, Mem{Base: dst})
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
