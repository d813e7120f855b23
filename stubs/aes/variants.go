package aes

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// Which variants do the AES stubs have? Each entry's file declares the entry and its
// variants once (block.go, cbc.go, ecb.go, ctr.go): name, architecture, the CPU features the
// code uses, HotSpot's selection rules, the model clock's cost shape and the recorded JVM run
// that measured it. The assembly is attached to each ID by the generated zcode_amd64.go and
// zcode_arm64.go (built for one GOARCH each, not under the purego tag). This file holds what
// the entries share.

// Feature sets the generated code uses: avo's "Requires" lines on amd64, plus SSSE3 for the
// PSHUFB that byte-swaps the JDK's key words (the VAES stubs also use VEX-encoded AVX, which
// AVX512F implies); AESE/AESD/AESMC/AESIMC and NEON on arm64.
var (
	needsAESNI     = cpu.Of(cpu.AES, cpu.SSSE3)
	needsAVX       = needsAESNI.With(cpu.AVX) // VEX-encoded AES-NI on XMM
	needsVAES      = needsAESNI.With(cpu.AVX512F, cpu.VAES)
	needsVAESShufB = needsVAES.With(cpu.AVX512BW) // VPSHUFB on ZMM (counter byte order)
	needsARMv8     = cpu.Of(cpu.ASIMD, cpu.ARM_AES)
)

// HotSpot's conditions (hotspot.md §2.4–2.6: StubGenerator::generate_aes_stubs in
// stubGenerator_x86_64_aes.cpp, generate_compiler_stubs in stubGenerator_aarch64.cpp, and the
// ergonomics of vm_version_x86.cpp §3.2): x86 AES intrinsics need AES-NI, UseAES and
// UseSSE > 2; the CTR intrinsic needs SSE4.1 and UseAESIntrinsics; x86 has no CTR stub before
// JDK 9 (JDK-8143355) and aarch64 none before the JDK 18 rework (JDK-8271567). UseSSE > 2
// keeps SSE3 and SSSE3 together (cpu.Mask), and every AES-NI part has SSSE3, whose PSHUFB the
// stubs use to byte-swap key words.
var (
	reqAESNI   = cpu.Of(cpu.AES, cpu.SSSE3)
	reqVAESCBC = reqAESNI.With(cpu.VAES, cpu.AVX512F, cpu.AVX512VL, cpu.AVX512DQ)
	reqARM     = cpu.Of(cpu.ARM_AES)
)

const (
	x86Flags  = variant.UseAES | variant.UseAESIntrinsics
	blockCond = "UseAESIntrinsics (x86: UseAES, AES-NI, UseSSE > 2)"
	vaesCond  = "UseAESIntrinsics and avx512_vaes && avx512vl && avx512dq (UseAVX = 3)"
	armCond   = "UseAESIntrinsics (aarch64 AES feature)"
)

// rule is a selection rule of every release from since on.
func rule(generator string, since jdk.Release, flags variant.Flag, requires cpu.Set, condition string) []variant.Rule {
	return []variant.Rule{{Generator: generator, Releases: jdk.Since(since), Flags: flags, Requires: requires, Condition: condition}}
}

// declared holds every entry and variant of the package, in declaration order.
var declared variant.List

// Variants returns every AES variant, of every architecture, whether or not this binary
// has its code, in declaration order: by entry, each entry's generic twin first.
func Variants() []variant.ID { return declared.IDs() }

// Built returns the variants whose code is in this binary, in declaration order.
func Built() []variant.ID { return declared.Built() }

// prober builds an entry's calibration prober from its typed code lookup and call, which runs
// a variant's code f over in into out with the schedule k from a fresh chaining state: the
// timed run calls it once; before that, one call's output is checked against the generic
// twin's.
func prober[F any](code func(variant.ID) (F, bool), decrypt bool, call func(f F, k []uint32, out, in []byte)) variant.Prober {
	return func(id variant.ID, key, payload []byte) (func(), bool, error) {
		f, ok := code(id)
		twin, tok := code(id.Twin())
		if !ok || !tok {
			return nil, false, nil
		}
		k, err := probeKey(key, payload, decrypt)
		if err != nil {
			return nil, true, err
		}
		out, want := make([]byte, len(payload)), make([]byte, len(payload))
		run := func() { call(f, k, out, payload) }
		call(twin, k, want, payload)
		run()
		if !bytes.Equal(out, want) {
			return run, true, errors.New("output differs from the generic twin")
		}
		return run, true, nil
	}
}

// probeKey checks a probe's payload (a positive multiple of 16 bytes) and returns key's
// encryption or decryption schedule.
func probeKey(key, payload []byte, decrypt bool) ([]uint32, error) {
	if len(payload) < BlockSize || len(payload)%BlockSize != 0 {
		return nil, fmt.Errorf("stub probe payload of %d bytes, want a positive multiple of 16", len(payload))
	}
	enc, dec, err := ExpandKey(key)
	if err != nil {
		return nil, fmt.Errorf("stub probe key: %w", err)
	}
	if decrypt {
		return dec, nil
	}
	return enc, nil
}
