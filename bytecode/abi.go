package bytecode

import "fmt"

// Memory layout shared by every build of every module (src/jvm.h).
const (
	// ProfAddr is the address of the profile area (prof_t).
	ProfAddr = 0x10000
	// CtlAddr is the address of the control block: thrown code, detail,
	// then the OSR frame.
	CtlAddr = 0x10400
	// ArgBase is where the host starts laying out array arguments.
	ArgBase = 0x10800
	// InitialMemory is the modules' initial memory size in bytes.
	InitialMemory = 3 << 16
)

// Offsets inside the profile area (prof_t in src/jvm.h).
const (
	ProfInvocations = 0
	ProfBackedges   = 4
	ProfBeMask      = 8
	ProfBeNotify    = 12
	ProfStatus      = 16
	ProfOSRLoop     = 20
	ProfBranch      = 32 // 64 u32: taken, not-taken per branch site
	ProfSite        = ProfBranch + 4*NumBranchCounters
	ProfSize        = ProfSite + 4*NumSiteCounters

	NumBranchCounters = 64
	NumSiteCounters   = 32
)

// The inline area (src/jvm.h INLINE_ON, INLINE_THROWER): between the end of
// the profile area and the control block.
const (
	// InlineAddr is INLINE_ON: one u32 switch per method key slot
	// ([InlineSlot]); non-zero runs calls to that method inlined.
	InlineAddr = 0x10300
	// InlineThrowerAddr is INLINE_THROWER: 1 + the slot of the first inlined
	// method that threw, 0 if none.
	InlineThrowerAddr = 0x10380
	// InlineChargeAddr is INLINE_CHARGE: non-zero makes every inlined call
	// report its callee's slot and payload bytes before it runs, in the
	// list at [InlineChargesAddr].
	InlineChargeAddr = 0x10384
	// BlocksOnAddr is BLOCKS_ON: non-zero sends the calls the code makes
	// through its "jvm.blocks" imports to stubs, n calls per host call.
	BlocksOnAddr = 0x10388
	// InlineChargesLenAddr is INLINE_NCHARGES: how many entries of the
	// list at [InlineChargesAddr] are in use.
	InlineChargesLenAddr = 0x1038c
	// InlineChargesAddr is INLINE_CHARGES: with INLINE_CHARGE set, the
	// inlined calls not yet reported, [MaxInlineCharges] entries of
	// [InlineChargeSize] bytes (slot, payload, count: little-endian u32s),
	// each a run of calls of one slot with one payload. The host empties
	// the list before it serves a call from the code and when the code
	// returns; the code hands it over through the import jitsim.charges
	// when it is full.
	InlineChargesAddr = 0x10390
	// InlineChargeSize is the size of one entry of the list.
	InlineChargeSize = 12
	// MaxInlineCharges is the number of entries the list holds.
	MaxInlineCharges = 8
	// MaxInlineSlots is the number of switches the area holds.
	MaxInlineSlots = (InlineThrowerAddr - InlineAddr) / 4
)

// The list of inlined calls not yet charged ends before the control block.
var _ [CtlAddr - (InlineChargesAddr + InlineChargeSize*MaxInlineCharges)]struct{}

// Offsets inside the control block.
const (
	CtlThrown = 0
	CtlDetail = 4
)

// StatusBackedge is the profile area's status after a method returned at a
// back-edge notification point.
const StatusBackedge = 1

// Kind is the Java type of a parameter or result.
type Kind uint8

// Parameter and result kinds.
const (
	Void  Kind = iota
	Int        // int, i32
	Bool       // boolean, i32
	Long       // long, i64
	Bytes      // byte[]: (ptr, len) i32 pair
	Ints       // int[]:  (ptr, len); elements little-endian u32
	Longs      // long[]: (ptr, len); elements little-endian u64
)

// IsArray reports whether k is an array kind.
func (k Kind) IsArray() bool { return k >= Bytes }

// ElemSize returns the size in bytes of one element of an array kind.
func (k Kind) ElemSize() int {
	switch k {
	case Bytes:
		return 1
	case Ints:
		return 4
	case Longs:
		return 8
	}
	return 0
}

func (k Kind) String() string {
	switch k {
	case Void:
		return "void"
	case Int:
		return "int"
	case Bool:
		return "boolean"
	case Long:
		return "long"
	case Bytes:
		return "byte[]"
	case Ints:
		return "int[]"
	case Longs:
		return "long[]"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Dir says whether an array parameter is read, written or both.
type Dir uint8

// Directions of array parameters.
const (
	In Dir = iota
	Out
	InOut
)

// Param is one parameter of a method's wasm signature: a Java parameter, or
// one field of the receiver or of an object parameter.
type Param struct {
	Name string
	Kind Kind
	Dir  Dir
}

// Exception codes a method sets in the control block (EX_* in src/jvm.h).
const (
	ExAIOOBE     = 1
	ExProvider   = 2
	ExInvalidKey = 3
	ExNPE        = 4
)

// ExceptionName returns the Java exception class for an exception code.
func ExceptionName(code uint32) string {
	switch code {
	case ExAIOOBE:
		return "java.lang.ArrayIndexOutOfBoundsException"
	case ExProvider:
		return "java.security.ProviderException"
	case ExInvalidKey:
		return "java.security.InvalidKeyException"
	case ExNPE:
		return "java.lang.NullPointerException"
	}
	return fmt.Sprintf("exception code %d", code)
}

// Build selects one of a module's three builds.
type Build uint8

// The three builds of every module.
const (
	None    Build = iota // no counters (levels 1, 4)
	Limited              // invocation + back-edge counters (level 2)
	Full                 // counters + branch and call-site profile (levels 0, 3)
)

func (b Build) String() string {
	switch b {
	case None:
		return "none"
	case Limited:
		return "limited"
	case Full:
		return "full"
	}
	return fmt.Sprintf("Build(%d)", uint8(b))
}

// BuildForLevel returns the build HotSpot's tier level runs: 0 and 3 count
// and profile, 2 counts, 1 and 4 do neither (compilerDefinitions.hpp).
func BuildForLevel(level int) (Build, error) {
	switch level {
	case 0, 3:
		return Full, nil
	case 2:
		return Limited, nil
	case 1, 4:
		return None, nil
	}
	return 0, fmt.Errorf("bytecode: no build for tier level %d (want 0..4)", level)
}
