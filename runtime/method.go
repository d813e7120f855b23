package runtime

import (
	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/runtime/policy"
)

// Method is a Java method the VM knows: one row of the reference method
// table of the running JDK profile (class, name, descriptor, bytecode size,
// imports, wasm signature). The table lives with the modules in
// bytecode; the runtime adds counters and levels around it.
type Method = bytecode.Method

// MethodTable is the method table of one JDK profile.
type MethodTable = bytecode.Table

// Level is a HotSpot compilation level, CompLevel_* in
// src/hotspot/share/compiler/compilerDefinitions.hpp: the policy's type,
// so that the runtime and the policy speak of one level.
type Level = policy.Level

// The five tier levels.
const (
	LevelNone             = policy.LevelNone             // interpreter
	LevelSimple           = policy.LevelSimple           // C1, no profiling
	LevelLimitedProfile   = policy.LevelLimitedProfile   // C1, invocation and back-edge counters
	LevelFullProfile      = policy.LevelFullProfile      // C1, counters and full profile
	LevelFullOptimization = policy.LevelFullOptimization // C2
)
