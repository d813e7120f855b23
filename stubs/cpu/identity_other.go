//go:build !amd64

package cpu

// hostIdentity is unknown off x86_64: the vendor-keyed ergonomics do not apply there.
func hostIdentity() Identity { return Identity{} }
