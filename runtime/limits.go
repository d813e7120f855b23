package runtime

import (
	"fmt"
	"os"
	"strconv"
)

// This file holds jitsim's resource caps: the limits that keep a bad input
// (a -DmsgSize with nine zeros, a scenario file asking for a 2 GB AAD) from
// ending in the Go runtime's "fatal error: out of memory", which no recover
// can catch. A Java VM has the same kind of guard: an array allocation past
// the heap throws java.lang.OutOfMemoryError ("Java heap space",
// "Requested array size exceeds VM limit") instead of crashing the
// process (HotSpot's CollectedHeap::array_allocate and
// arrayOopDesc::max_array_length).

// DefaultMaxMessageBytes is the default cap on one message, AAD or data
// buffer a scenario allocates from a property or argument: 16 MiB. The
// binding limit is the tiers' wasm memory (tiers/internal/engine: 1024
// pages, 64 MiB, per instance), into which an interpreted or C1-compiled
// method copies every array it is passed — the input and the output
// array of one call, plus the module's own 192 KiB — so 16 MiB leaves
// room for both arrays at every level; the largest published workload
// jitsim models uses 1 MiB of AAD (AESGCMUpdateAAD).
const DefaultMaxMessageBytes = 16 << 20

// MaxMessageEnv is the environment variable that overrides
// DefaultMaxMessageBytes (a byte count). Above about 30 MB a call at
// levels 0–3 fails with the engine's "cannot grow memory" error instead.
const MaxMessageEnv = "JITSIM_MAX_MESSAGE_BYTES"

// MaxMessageBytes returns the message size cap in force: MaxMessageEnv when
// it is set to a positive integer, else DefaultMaxMessageBytes. A set but
// unusable value is an error that names the variable.
func MaxMessageBytes() (int64, error) {
	v, ok := os.LookupEnv(MaxMessageEnv)
	if !ok || v == "" {
		return DefaultMaxMessageBytes, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("environment variable %s=%q is not a positive byte count", MaxMessageEnv, v)
	}
	return n, nil
}

// CheckMessageSize checks that a buffer of n bytes, asked for by the input
// named what (e.g. "property msgSize", "argument dataSize"), fits the cap
// of MaxMessageBytes. The error names the input, the value, the cap and
// the way to raise it.
func CheckMessageSize(what string, n int64) error {
	limit, err := MaxMessageBytes()
	if err != nil {
		return err
	}
	if n > limit {
		return fmt.Errorf("%s=%d exceeds jitsim's message size cap of %d bytes (set %s to raise it)", what, n, limit, MaxMessageEnv)
	}
	return nil
}
