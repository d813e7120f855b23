package flags

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxOptionsFile is the most jitsim reads of a file of options: an @argfile, a
// -XX:VMOptionsFile, a -XX:Flags settings file or a -XX:CompileCommandFile. java has no such
// limit (OpenJDK 17.0.15 reads a 100 MB settings file of 12.5 million options in about 23 s,
// growing to 650 MB); jitsim refuses a larger file with an error naming it, so its memory stays
// bounded whatever the command line names.
const MaxOptionsFile = 16 << 20

// errTooLarge is the error of a file over MaxOptionsFile.
type errTooLarge struct {
	name string
	size int64 // -1: unknown (more than the limit was read)
}

func (e *errTooLarge) Error() string {
	if e.size < 0 {
		return fmt.Sprintf("%s is larger than %d MiB, the most jitsim reads of a file of options", e.name, MaxOptionsFile>>20)
	}
	return fmt.Sprintf("%s is %d bytes, more than %d MiB, the most jitsim reads of a file of options", e.name, e.size, MaxOptionsFile>>20)
}

// readOptionsFile reads a file of options, at most MaxOptionsFile bytes.
func readOptionsFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxOptionsFile {
		return nil, &errTooLarge{name: name, size: st.Size()}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxOptionsFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxOptionsFile {
		return nil, &errTooLarge{name: name, size: -1}
	}
	return data, nil
}

// limitedReader wraps an injected ReadFile with the same limit.
func limitedReader(read func(string) ([]byte, error)) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		data, err := read(name)
		if err == nil && len(data) > MaxOptionsFile {
			return nil, &errTooLarge{name: name, size: int64(len(data))}
		}
		return data, err
	}
}

// tooLarge returns jitsim's error for a file over the limit, or nil for other errors.
func tooLarge(err error) *Error {
	var t *errTooLarge
	if errors.As(err, &t) {
		return &Error{Text: "jitsim: " + t.Error() + "\n"}
	}
	return nil
}
