package jce_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// newHeapVM is a JDK 25 VM on the real tiers with the default Java heap.
func newHeapVM(t *testing.T) *jrt.VM {
	t.Helper()
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vm.Close() })
	return vm
}

// TestProviderArraysReclaimed makes 800 ciphers on four threads and drops
// each: the provider keeps its objects' arrays in the heap, and the heap
// takes them back once their Cipher is unreachable, so what it holds stays
// bounded instead of growing with every Cipher made.
func TestProviderArraysReclaimed(t *testing.T) {
	vm := newHeapVM(t)
	h := vm.Heap()
	if h == nil {
		t.Skip("no Java heap on this platform")
	}
	ctx := context.Background()
	key, iv := []byte("0123456789abcdef"), []byte("unique nonce")
	newCipher := func() (*jce.Cipher, error) {
		c, err := jce.NewCipher(ctx, vm, jdk.R25, "AES/GCM/NoPadding", jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: iv})
		if err != nil {
			return nil, err
		}
		_, err = c.DoFinal(ctx, make([]byte, 100))
		return c, err
	}
	before := h.Used()
	kept, err := newCipher()
	if err != nil {
		t.Fatal(err)
	}
	per := h.Used() - before
	if per <= 0 {
		t.Fatalf("a GCM cipher holds %d bytes of the heap; its arrays are not there", per)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for i := range 200 {
				if _, err := newCipher(); err != nil {
					errs <- err
					return
				}
				if i%50 == 49 {
					runtime.GC()
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	used := h.Used()
	t.Logf("one cipher holds %d bytes; after 800 more were made and dropped the heap holds %d (%.0f ciphers' worth)", per, used, float64(used)/float64(per))
	if used > 300*per {
		t.Fatalf("the heap holds %d bytes, %d ciphers' worth, after 800 dropped ciphers: their arrays were not reclaimed", used, used/per)
	}
	runtime.KeepAlive(kept)
}
