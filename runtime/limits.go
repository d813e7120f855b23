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
// buffer a scenario allocates from a property or argument: 256 MiB. The
// largest published workload jitsim models uses 1 MiB of AAD
// (AESGCMUpdateAAD) and 64 KiB messages, and a scenario holds a handful of
// buffers of that size per application thread, so 256 MiB keeps eight
// threads of the worst case well inside a few GB.
const DefaultMaxMessageBytes = 256 << 20

// MaxMessageEnv is the environment variable that overrides
// DefaultMaxMessageBytes (a byte count; for studies that really want
// larger messages on a machine with the memory for them).
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
