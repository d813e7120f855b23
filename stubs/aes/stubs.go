package aes

// The assembly is generated; CI regenerates it and diffs. The amd64 generator
// is an avo program in _asm (its own module), the arm64 one a go:build-ignore
// program; gluegen then writes each one's Go prototypes and variant bindings
// (zcode_amd64.go, zcode_arm64.go). The lines live here, in a file without build constraints, so
// go generate runs them on any host.
//
//go:generate go -C _asm run . -out ../aes_amd64.s
//go:generate go run aes_arm64_gen.go
//go:generate go run ../internal/gluegen aes_amd64.s aes_arm64.s

// BlockSize is the AES block size in bytes.
const BlockSize = 16

// rounds returns the round count for xk, panicking (caller misuse, like Go's
// crypto) for a schedule of the wrong length.
func rounds(xk []uint32) int {
	switch len(xk) {
	case 44, 52, 60:
		return len(xk)/4 - 1
	}
	panic("stubs/aes: expanded key must have 44, 52 or 60 words")
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
