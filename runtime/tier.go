package runtime

import (
	"context"
	"time"

	"github.com/jitsim/jitsim/runtime/heap"
)

// Tier is one execution tier: the interpreter (level 0), C1 (levels 1-3)
// or C2 (level 4). Implementations live in tiers/interp, tiers/c1 and
// tiers/c2; they never import each other (wazero's Engine pattern).
type Tier interface {
	// Name is "interp", "c1" or "c2".
	Name() string
	// Levels lists the levels the tier produces code for.
	Levels() []Level
	// Compile produces runnable code for a method at a level. For the
	// compilers it is a real compile, timed (Code.CompileTime).
	Compile(ctx context.Context, req CompileRequest) (Code, error)
}

// CompileRequest asks a tier for code.
type CompileRequest struct {
	Method *Method
	Level  Level
	// Table resolves the method's imports (the JDK profile's methods).
	Table *MethodTable
	// Router receives every call the code makes to another method.
	Router Router
	// BackedgeNotifyFreqLog is HotSpot's Tier{0,2,3}BackedgeNotifyFreqLog:
	// in builds that count, the code returns to the host every
	// 2^BackedgeNotifyFreqLog back-edges. Negative: never.
	BackedgeNotifyFreqLog int
	// OnBackedge is called at each such notification. It returns the code
	// in which the loop continues (an OSR compile of the same method, at any
	// level), or nil to continue in the same code.
	OnBackedge BackedgeHandler
	// Heap is the Java heap every instance of the code maps at heap.Base
	// (nil: none; arrays are copied in and out).
	Heap *heap.Heap
}

// BackedgeHandler decides where an interrupted loop continues; loop is the
// method's loop index (the OSR bci analogue).
type BackedgeHandler func(ctx context.Context, code Code, loop int, c Counters) (Code, error)

// Counters are a code's invocation and back-edge counts
// (MethodCounters / MDO invocation and backedge counters).
type Counters struct {
	Invocations uint64
	Backedges   uint64
}

// Profile is the level-3 (and interpreter) profile of a method: per branch
// site taken / not-taken counts and per call-site counts (BranchData and
// CounterData analogues of the MDO).
type Profile struct {
	Branches [][2]uint64
	Sites    []uint64
}

// OSRState is a method's loop state saved at a back-edge notification
// point: the frame and arguments region of the instance memory, which any
// build of the same method can resume from its OSR entry.
type OSRState struct {
	Method *Method
	Loop   int
	Memory []byte // bytecode.CtlAddr .. end of the arguments
}

// Code is a method's runnable code at one level.
type Code interface {
	Method() *Method
	Level() Level
	// CompileTime is the measured duration of the compile (for the
	// interpreter: wazero's decode, validation and lowering to its IR).
	CompileTime() time.Duration
	// Invoke runs the method. Arrays are copied into the code's instance
	// memory and Out/InOut arrays copied back. Safe for concurrent use.
	Invoke(ctx context.Context, args []Arg) (int64, error)
	// ResumeOSR continues an interrupted loop from its OSR entry; the
	// state's Memory is updated in place with the final frame and arrays.
	ResumeOSR(ctx context.Context, st *OSRState) (int64, error)
	// Counters returns the counts accumulated by this code (zero for
	// builds that do not count: levels 1 and 4).
	Counters() Counters
	// Profile returns the branch and call-site profile (level 0 and 3).
	Profile() Profile
	// Close releases the code's instances.
	Close(ctx context.Context) error
}
