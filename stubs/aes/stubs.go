package aes

import "github.com/jitsim/jitsim/stubs/variant"

// The assembly is generated; CI regenerates it and diffs. The amd64 generator
// is an avo program in _asm (its own module), the arm64 one a go:build-ignore
// program. Both lines live here, in a file without build constraints, so
// go generate runs them on any host.
//
//go:generate go -C _asm run . -out ../aes_amd64.s
//go:generate go run aes_arm64_gen.go

// BlockSize is the AES block size in bytes.
const BlockSize = 16

// BlockFunc encrypts or decrypts one 16-byte block from src into dst with the
// expanded key xk (the StubRoutines::aescrypt_encryptBlock/decryptBlock shape).
type BlockFunc func(xk []uint32, dst, src []byte)

// CBCFunc encrypts or decrypts len(src) bytes (a multiple of 16) in CBC mode
// (NIST SP 800-38A §6.2), updates iv to the last ciphertext block and returns
// the number of bytes processed, as StubRoutines::cipherBlockChaining_*AESCrypt.
type CBCFunc func(xk []uint32, iv *[16]byte, dst, src []byte) int

// ECBFunc encrypts or decrypts len(src) bytes (a multiple of 16) in ECB mode
// (SP 800-38A §6.1) and returns the bytes processed, as
// StubRoutines::electronicCodeBook_*AESCrypt.
type ECBFunc func(xk []uint32, dst, src []byte) int

// CTRFunc XORs src with the CTR key stream (SP 800-38A §6.5) into dst and
// returns len(src), as StubRoutines::counterMode_AESCrypt. ctr is the next
// counter block (big-endian, 128-bit increment); encCtr and used are the
// JDK CounterMode's encryptedCounter and used: the first 16-*used bytes of
// key stream come from encCtr[*used:], and a trailing partial block leaves its
// encrypted counter in encCtr with *used set to the bytes consumed. Start a
// stream with *used = 16.
type CTRFunc func(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte) int

// BlockVariant is one implementation of a block stub: its ID (declared in variants.go) and its code.
type BlockVariant = variant.Impl[BlockFunc]

// CBCVariant is one implementation of a CBC stub.
type CBCVariant = variant.Impl[CBCFunc]

// ECBVariant is one implementation of an ECB stub.
type ECBVariant = variant.Impl[ECBFunc]

// CTRVariant is one implementation of the CTR stub.
type CTRVariant = variant.Impl[CTRFunc]

// HotSpot StubRoutines entry names.
const (
	StubEncryptBlock = "aescrypt_encryptBlock"
	StubDecryptBlock = "aescrypt_decryptBlock"
	StubCBCEncrypt   = "cipherBlockChaining_encryptAESCrypt"
	StubCBCDecrypt   = "cipherBlockChaining_decryptAESCrypt"
	StubECBEncrypt   = "electronicCodeBook_encryptAESCrypt"
	StubECBDecrypt   = "electronicCodeBook_decryptAESCrypt"
	StubCTR          = "counterMode_AESCrypt"
)

// The variant lists: the generic twin first, then every assembly variant built
// for this GOARCH (none under the purego tag or on other architectures).
// Callers pick one whose Needs are within the CPU's features.
var (
	BlockEncryptVariants = append([]BlockVariant{{ID: genericEncryptBlock, Fn: EncryptBlockGeneric}}, asmBlockEncrypt...)
	BlockDecryptVariants = append([]BlockVariant{{ID: genericDecryptBlock, Fn: DecryptBlockGeneric}}, asmBlockDecrypt...)
	CBCEncryptVariants   = append([]CBCVariant{{ID: genericCBCEncrypt, Fn: CBCEncryptGeneric}}, asmCBCEncrypt...)
	CBCDecryptVariants   = append([]CBCVariant{{ID: genericCBCDecrypt, Fn: CBCDecryptGeneric}}, asmCBCDecrypt...)
	ECBEncryptVariants   = append([]ECBVariant{{ID: genericECBEncrypt, Fn: ECBEncryptGeneric}}, asmECBEncrypt...)
	ECBDecryptVariants   = append([]ECBVariant{{ID: genericECBDecrypt, Fn: ECBDecryptGeneric}}, asmECBDecrypt...)
	CTRVariants          = append([]CTRVariant{{ID: genericCTR, Fn: CTRGeneric}}, asmCTR...)
)

// rounds returns the round count for xk, panicking (caller misuse, like Go's
// crypto) for a schedule of the wrong length.
func rounds(xk []uint32) int {
	switch len(xk) {
	case 44, 52, 60:
		return len(xk)/4 - 1
	}
	panic("stubs/aes: expanded key must have 44, 52 or 60 words")
}

func checkBlock(xk []uint32, dst, src []byte) int {
	nr := rounds(xk)
	if len(src) < BlockSize {
		panic("stubs/aes: input not full block")
	}
	if len(dst) < BlockSize {
		panic("stubs/aes: output not full block")
	}
	return nr
}

func checkBlocks(xk []uint32, dst, src []byte) int {
	nr := rounds(xk)
	if len(src)%BlockSize != 0 {
		panic("stubs/aes: input not full blocks")
	}
	if len(dst) < len(src) {
		panic("stubs/aes: output smaller than input")
	}
	return nr
}

func checkCTR(xk []uint32, used *int, dst, src []byte) int {
	nr := rounds(xk)
	if len(dst) < len(src) {
		panic("stubs/aes: output smaller than input")
	}
	if *used < 0 || *used > BlockSize {
		panic("stubs/aes: CTR used count out of range 0..16")
	}
	return nr
}

// addCounter adds n to the 128-bit big-endian counter (the JDK CounterMode's
// increment, applied n times).
func addCounter(ctr *[16]byte, n uint64) {
	lo := be64(ctr[8:])
	hi := be64(ctr[:8])
	nlo := lo + n
	if nlo < lo {
		hi++
	}
	put64(ctr[8:], nlo)
	put64(ctr[:8], hi)
}

func be64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

func put64(b []byte, v uint64) {
	_ = b[7]
	for i := range 8 {
		b[i] = byte(v >> (56 - 8*i))
	}
}

// ctrCrypt is the CTR framing shared by every CTR variant: it drains the
// JDK's leftover key stream (encCtr[*used:]), hands whole blocks to bulk in
// runs that never carry out of the counter's low 64 bits (so the assembly only
// ever adds to one lane), and encrypts one more counter for a trailing partial
// block, as CounterMode.implCrypt and HotSpot's stub do.
func ctrCrypt(xk []uint32, ctr, encCtr *[16]byte, used *int, dst, src []byte,
	bulk func(nr int, xk []uint32, ctr *[16]byte, dst, src []byte), block BlockFunc) int {
	nr := checkCTR(xk, used, dst, src)
	n := len(src)
	dst = dst[:n]
	i := 0
	for *used < BlockSize && i < n {
		dst[i] = src[i] ^ encCtr[*used]
		*used++
		i++
	}
	for n-i >= BlockSize {
		blocks := uint64((n - i) / BlockSize)
		if room := -be64(ctr[8:]); room != 0 && room < blocks { // blocks before the low half wraps
			blocks = room
		}
		m := int(blocks) * BlockSize
		bulk(nr, xk, ctr, dst[i:i+m], src[i:i+m])
		addCounter(ctr, blocks)
		i += m
	}
	if i < n {
		block(xk, encCtr[:], ctr[:])
		addCounter(ctr, 1)
		*used = 0
		for ; i < n; i++ {
			dst[i] = src[i] ^ encCtr[*used]
			*used++
		}
	}
	return n
}
