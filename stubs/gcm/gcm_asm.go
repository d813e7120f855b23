//go:build (amd64 || arm64) && !purego

package gcm

// ghashAsm wraps an asm GHASH kernel as a GHASHFunc: argument checks, the
// first-use precomputation of the powers of H, and the call.
func ghashAsm(k func(state *[2]uint64, htbl *uint64, data *byte, blocks int)) GHASHFunc {
	return func(state *[2]uint64, htbl []uint64, data []byte, blocks int) {
		checkGHASHArgs(state, htbl, data, blocks)
		if blocks == 0 {
			return
		}
		fillPowers(htbl)
		k(state, &htbl[0], &data[0], blocks)
	}
}

type gcmKernel func(xk *uint32, rounds int, ctr *[16]byte, state *[2]uint64, htbl *uint64, dst, src *byte, chunks int)

// gcmAsm wraps an encrypting and a decrypting asm GCM kernel of granularity
// gran bytes as a GCMFunc.
func gcmAsm(enc, dec gcmKernel, gran int) GCMFunc {
	return func(xk []uint32, ctr *[16]byte, state *[2]uint64, htbl []uint64, dst, src, ct []byte) int {
		n := gcmLen(xk, ctr, state, htbl, dst, src, ct, gran)
		if n == 0 {
			return 0
		}
		fillPowers(htbl)
		k := dec
		if encrypting(dst, ct) {
			k = enc
		}
		k(&xk[0], len(xk)/4-1, ctr, state, &htbl[0], &dst[0], &src[0], n/gran)
		return n
	}
}
