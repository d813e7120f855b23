package policy

import "strconv"

// Level is a HotSpot compilation level (CompLevel in compilerDefinitions.hpp).
type Level int8

// The five execution levels of HotSpot's tiered runtime.
const (
	// LevelNone is the template interpreter (CompLevel_none).
	LevelNone Level = 0
	// LevelSimple is C1 without profiling (CompLevel_simple).
	LevelSimple Level = 1
	// LevelLimitedProfile is C1 with invocation and back-edge counters (CompLevel_limited_profile).
	LevelLimitedProfile Level = 2
	// LevelFullProfile is C1 with full MDO profiling (CompLevel_full_profile).
	LevelFullProfile Level = 3
	// LevelFullOptimization is C2 (CompLevel_full_optimization).
	LevelFullOptimization Level = 4
)

// InvocationEntryBCI is the bci HotSpot uses for the normal method entry
// (InvocationEntryBci); any other bci names an OSR entry at a loop header.
const InvocationEntryBCI = -1

// String returns the level number, as PrintCompilation prints it.
func (l Level) String() string { return strconv.Itoa(int(l)) }

// IsC1 reports whether code at level l is produced by C1 (levels 1–3),
// mirroring is_c1_compile in compilerDefinitions.hpp.
func (l Level) IsC1() bool { return l >= LevelSimple && l <= LevelFullProfile }

// IsC2 reports whether code at level l is produced by C2 (level 4),
// mirroring is_c2_compile in compilerDefinitions.hpp.
func (l Level) IsC2() bool { return l == LevelFullOptimization }

// Compiler names one of the two compile queues and thread pools.
type Compiler int8

// The two compilers of the server VM.
const (
	C1 Compiler = iota
	C2
)

// String returns "c1" or "c2".
func (c Compiler) String() string {
	if c == C1 {
		return "c1"
	}
	return "c2"
}

// compilerFor returns the compiler that produces code at level l
// (CompileBroker::compiler(level)).
func compilerFor(l Level) Compiler {
	if l.IsC2() {
		return C2
	}
	return C1
}
