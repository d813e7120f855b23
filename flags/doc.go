// Package flags is jitsim's one table of HotSpot -XX flags and the option parser that fills it.
//
// The table (table.go) has one row per flag: name, type, kind (product, diagnostic,
// experimental, with the pd/ARCH/C2 decorations PrintFlagsFinal shows), declared default per
// JDK profile, allowed range, target architectures and a one-line doc. Parse turns a java-style
// command line (plus JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, JDK_JAVA_OPTIONS, @argfiles,
// -XX:Flags= and -XX:VMOptionsFile= files) into a Set, with HotSpot's precedence, origins and
// error texts for the chosen profile (Arguments::parse and Arguments::process_argument in
// src/hotspot/share/runtime/arguments.cpp; JVMFlag::print_on and JVMFlag::fuzzy_match in
// src/hotspot/share/runtime/flags/jvmFlag.cpp).
//
// What is modelled was checked against OpenJDK 17.0.15 and Temurin 25.0.3 on x86_64; the JDK 8,
// 8u and 21 profiles are built from documented facts (see the Profile notes on jdk.Release) and follow
// the nearest verified release where behaviour could not be observed.
//
// CPU-dependent ergonomics (UseAES*, UseGHASHIntrinsics, UseAVX, UseSSE, UseCLMUL,
// CICompilerCount …) are not done here: a later pass calls (*Set).SetDefault for values that
// HotSpot flips with FLAG_SET_DEFAULT or plain assignment (origin stays {default}) and
// (*Set).SetErgo for FLAG_SET_ERGO (origin {ergonomic}).
package flags

//go:generate go run gen_recorded.go
