// Package stubs is jitsim's native code: the machine code a HotSpot intrinsic
// calls. The stubs themselves live in stubs/aes (block, CBC, ECB, CTR) and
// stubs/gcm (GHASH and the combined GCM stubs); stubs/cpu is the only reader of
// the host's CPU features. This package answers, for an intrinsic, a flag set
// and a CPU model, which variant HotSpot would have generated.
package stubs
