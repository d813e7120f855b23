//go:build linux && (amd64 || arm64)

package heap

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// region is a memfd holding the heap's pages.
type region struct {
	fd   int
	size int
	host []byte
}

func newRegion(size int) (*region, []byte, error) {
	// Every instance reserves address space for its own memory and the
	// whole heap; under a limit on address space (ulimit -v) that would
	// starve the Go runtime, so the VM copies arrays instead.
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &lim); err == nil && lim.Cur != unix.RLIM_INFINITY {
		return nil, nil, fmt.Errorf("%w: address space is limited to %d bytes (ulimit -v)", ErrUnsupported, lim.Cur)
	}
	fd, err := unix.MemfdCreate("jitsim-heap", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: memfd_create: %v", ErrUnsupported, err)
	}
	if err := unix.Ftruncate(fd, int64(size)); err != nil {
		_ = unix.Close(fd)
		return nil, nil, fmt.Errorf("heap: sizing the heap to %d bytes: %w", size, err)
	}
	host, err := unix.Mmap(fd, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		_ = unix.Close(fd)
		return nil, nil, fmt.Errorf("heap: mapping the heap: %w", err)
	}
	return &region{fd: fd, size: size, host: host}, host, nil
}

// mapAt reserves private+size bytes of anonymous memory and maps the heap
// over its tail.
func (r *region) mapAt(private int) ([]byte, error) {
	b, err := unix.Mmap(-1, 0, private+r.size, unix.PROT_READ|unix.PROT_WRITE,
		unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("heap: reserving an instance memory of %d bytes: %w", private+r.size, err)
	}
	_, err = unix.MmapPtr(r.fd, 0, unsafe.Pointer(&b[private]), uintptr(r.size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_FIXED)
	if err != nil {
		_ = unix.Munmap(b)
		return nil, fmt.Errorf("heap: mapping the heap into an instance memory: %w", err)
	}
	return b, nil
}

func unmap(b []byte) error { return unix.Munmap(b) }

func (r *region) close() error {
	err := unix.Munmap(r.host)
	if cerr := unix.Close(r.fd); err == nil {
		err = cerr
	}
	return err
}
