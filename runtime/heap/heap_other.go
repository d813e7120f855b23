//go:build !(linux && (amd64 || arm64))

package heap

type region struct{}

func newRegion(int) (*region, []byte, error) { return nil, nil, ErrUnsupported }

func (r *region) mapAt(int) ([]byte, error) { return nil, ErrUnsupported }

func unmap([]byte) error { return ErrUnsupported }

func (r *region) close() error { return nil }
