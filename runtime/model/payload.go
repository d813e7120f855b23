package model

import (
	"fmt"

	"github.com/jitsim/jitsim/tiers/bytecode"
)

// payloadRules map a method's parameter name to the payload bytes its
// value stands for: a byte count ("len", "inLen"), a block count
// ("blocks"), and methods that take neither process one 16-byte block
// (AESCrypt's block methods, GHASH.processBlock) or their input array.
// Add a row, not a case.
var payloadRules = []struct {
	param string
	bytes func(v int64) int64
}{
	{"len", func(v int64) int64 { return v }},
	{"inLen", func(v int64) int64 { return v }},
	{"blocks", func(v int64) int64 { return 16 * v }},
}

// blockMethods process exactly one block per call.
var blockMethods = map[string]bool{
	"AESCrypt.implEncryptBlock": true, "AESCrypt.implDecryptBlock": true, "GHASH.processBlock": true,
}

// Payload returns the payload bytes of one call of m — the n of
// Profile.Cost — from its scalar arguments: scalar(i) is the value of
// parameter i (only called for Int parameters). Methods with no length
// parameter and not a block method (key set-up, doFinal glue) count 0:
// they cost their per-call rows only.
func Payload(m *bytecode.Method, scalar func(param int) int64) (int, error) {
	if blockMethods[m.Key] {
		return 16, nil
	}
	for _, r := range payloadRules {
		for i, p := range m.Params {
			if p.Name == r.param && p.Kind == bytecode.Int {
				n := r.bytes(scalar(i))
				if n < 0 {
					return 0, fmt.Errorf("model: %s: parameter %s = %d is negative", m, p.Name, scalar(i))
				}
				return int(n), nil
			}
		}
	}
	return 0, nil
}
