// Package bytecode is jitsim's "Java bytecode": the JDK provider methods
// (com.sun.crypto.provider AESCrypt, CipherBlockChaining, ElectronicCodeBook,
// CounterMode, GCTR, GHASH, GaloisCounterMode) written as freestanding C in
// the JDK's own algorithms, built with clang for wasm32 — one module per
// method, three builds per module — committed and embedded.
//
// # Builds
//
// Every module is built three times from one source (src/jvm.h):
// [None] (no counters; HotSpot levels 1 and 4), [Limited] (invocation and
// back-edge counters; level 2) and [Full] (counters plus branch and
// call-site profile; levels 0 and 3). Loops with an OSR entry keep their
// state in a frame at a fixed address and export "<key>$osr", so a loop
// interrupted at a back-edge notification point in one build can be resumed
// by another.
//
// Level 4 runs the None build compiled once more with C2's loop unrolling
// ([Method.Unrolled], wasm/<Module>.unrolled.wasm: clang's partial
// unrolling up to 60 instructions of body, as C2 unrolls within
// LoopUnrollLimit's 60 nodes). It has the None build's imports, exports and
// frames; the model reads the None build's loops and sizes.
//
// # Inline modules
//
// A method that calls others also has an inline module per JDK profile
// group and per build None / Limited ([Method.Inline]), the None one also
// unrolled ([InlineBuild.Unrolled]): its body linked
// statically with the uncounted bodies of every method it reaches, each
// call behind a shim the host switches at [InlineAddr] (slot per key,
// [InlineSlot]) — on: the linked body runs in the caller's code and memory
// (inlined); off: the "jvm" import (the dispatcher). tiers/internal/inlinegen
// builds them after the per-method builds; see src/jvm.h.
//
// # Java sizes
//
// [Method.Size] is the Java bytecode size the JDK release prints for the
// method ("(N bytes)" in PrintCompilation and PrintInlining) and HotSpot's
// inlining limits compare: the JavaSize column of the table, with where each
// profile's numbers come from in [SizeSources]. [Method.WasmSize] is the
// wasm body's. JITSIM_LONG=1 go test -run TestJavaSizeAgainstJDK
// ./bytecode measures the column again on the JDKs named by
// JAVA17/JAVA21/JAVA25 (testdata/codesize/CodeSize.java reads code_length
// from their java.base class files).
//
// # ABI
//
// A Java array parameter is a (pointer, length) pair of i32, int and boolean
// are i32, long is i64. Calls to other methods are wasm imports from module
// "jvm" named by the callee's [Method.Key]. The host lays arguments out from
// [ArgBase]; [ProfAddr] holds the counters and [CtlAddr] the thrown
// exception and the OSR frame (see src/jvm.h).
//
// A body whose loop only hands successive 16-byte blocks to a call may
// also import that callee from module "jvm.blocks" ([Method.Blocks]): the
// callee's parameters and a count n, the byte arrays holding the n calls'
// arrays one after another. Its None build takes that path when the host
// sets [BlocksOnAddr] (the call is bound to a stub in C2 code), leaving
// wasm once per batch; the host runs and charges every call of it as a
// call of its own (runtime.BlockTarget). JDK 8's GCTR.update is one.
//
// # Regenerating
//
//	go generate ./bytecode   # runs build.sh: needs clang and lld (Debian 12: clang 14)
//
// The build is reproducible; CI rebuilds and runs git diff --exit-code.
package bytecode

//go:generate sh build.sh
