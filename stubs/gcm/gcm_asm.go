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
