//go:build !purego

package stubs

func purego() bool { return false }
