package runtime

import "github.com/jitsim/jitsim/tiers/bytecode"

// Method is a Java method the VM knows: one row of the reference method
// table of the running JDK profile (class, name, descriptor, bytecode size,
// imports, wasm signature). The table lives with the modules in
// tiers/bytecode; the runtime adds counters and levels around it.
type Method = bytecode.Method

// MethodTable is the method table of one JDK profile.
type MethodTable = bytecode.Table

// Level is a HotSpot compilation level, CompLevel_* in
// src/hotspot/share/compiler/compilerDefinitions.hpp.
type Level int

// The five tier levels.
const (
	LevelNone             Level = 0 // interpreter
	LevelSimple           Level = 1 // C1, no profiling
	LevelLimitedProfile   Level = 2 // C1, invocation and back-edge counters
	LevelFullProfile      Level = 3 // C1, counters and full profile
	LevelFullOptimization Level = 4 // C2
)
