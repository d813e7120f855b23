package model

import (
	"fmt"

	"github.com/jitsim/jitsim/bytecode"
)

// payloadRules map a method's parameter name to the payload bytes its
// value stands for: a byte count ("len", "inLen"), a block count
// ("blocks"), and methods that take neither process one 16-byte block
// (AESCrypt's block methods, GHASH.processBlock and blockMult) or their input array.
// Add a row, not a case; each rule's bytes must be linear in the value
// (PayloadRule keeps bytes(1) as the scale).
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
	"GHASH.blockMult": true,
}

// Payload returns the payload bytes of one call of m — the n of
// Profile.Cost — from its scalar arguments: scalar(i) is the value of
// parameter i (only called for Int parameters). Methods with no length
// parameter and not a block method (key set-up), and methods that hand
// their bytes to a callee (bytecode.Method.Delegates: wrappers, GCM's
// engine, JDK 9+ GCTR.update), count 0: they cost their per-call rows only,
// and the bytes are priced once, in the method that processes them.
func Payload(m *bytecode.Method, scalar func(param int) int64) (int, error) {
	return PayloadRuleOf(m).Bytes(m, scalar)
}

// PayloadRule is how Payload finds one method's payload, resolved once
// per method so that a caller pricing many calls (the VM, per call) does
// no name matching per call: a fixed count when Param < 0, else parameter
// Param's value times Scale.
type PayloadRule struct {
	Fixed int
	Param int
	Scale int64
}

// PayloadRuleOf resolves the rule for m's own Java code: 0 bytes for a
// method that delegates its bytes, else RangeRuleOf.
func PayloadRuleOf(m *bytecode.Method) PayloadRule {
	if m.Delegates {
		// Its bytes are priced where they are processed: in the callee it
		// hands them to (bytecode.Method.Delegates).
		return PayloadRule{Param: -1}
	}
	return RangeRuleOf(m)
}

// RangeRuleOf resolves the bytes one call of m covers, whoever processes
// them: the n of a stub that replaces m (a stub does all of the method's
// work, including what its Java body would delegate).
func RangeRuleOf(m *bytecode.Method) PayloadRule {
	if blockMethods[m.Key] {
		return PayloadRule{Fixed: 16, Param: -1}
	}
	for _, r := range payloadRules {
		for i, p := range m.Params {
			if p.Name == r.param && p.Kind == bytecode.Int {
				return PayloadRule{Param: i, Scale: r.bytes(1)}
			}
		}
	}
	return PayloadRule{Param: -1}
}

// Bytes applies the rule to one call of m (m names the method in errors).
func (r PayloadRule) Bytes(m *bytecode.Method, scalar func(param int) int64) (int, error) {
	if r.Param < 0 {
		return r.Fixed, nil
	}
	v := scalar(r.Param)
	if v < 0 {
		return 0, fmt.Errorf("model: %s: parameter %s = %d is negative", m, m.Params[r.Param].Name, v)
	}
	return int(v * r.Scale), nil
}
