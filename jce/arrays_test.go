package jce_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"runtime"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/heap"
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
//
// The heap learns that a Cipher is gone from a weak pointer to its slab (the
// Ciphers allocated with it, jce.SlabLen in all), which only a Go collection
// clears, and looks only when its owners have doubled since
// the last look (heap.Track). A look that runs before the collection finds
// the dropped ciphers alive and puts the next look twice as far away, so
// how much the heap holds when the threads finish depends on when the
// collector ran. The test therefore goes on the way the application would
// — a collection, then more ciphers — until the heap has looked after a
// collection, which takes a bounded number of rounds; then a collection
// before an OutOfMemoryError must leave only the one cipher still held and
// the others of its slab.
func TestProviderArraysReclaimed(t *testing.T) {
	vm := newHeapVM(t)
	h := vm.Heap()
	if h == nil {
		t.Skip("no Java heap on this platform")
	}
	ctx := context.Background()
	key, iv := []byte("0123456789abcdef"), []byte("unique nonce")
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(blk)
	if err != nil {
		t.Fatal(err)
	}
	want := gcm.Seal(nil, iv, make([]byte, 100), nil)
	// Each cipher's output is checked: once the heap has taken dropped ciphers'
	// arrays back, new ciphers get their places with the old bytes in them.
	newCipher := func() (*jce.Cipher, error) {
		c, err := jce.NewCipher(ctx, vm, jdk.R25, "AES/GCM/NoPadding", jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: iv})
		if err != nil {
			return nil, err
		}
		got, err := c.DoFinal(ctx, make([]byte, 100))
		if err == nil && !bytes.Equal(got, want) {
			err = errors.New("a cipher's output differs from crypto/cipher's")
		}
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
	const threads, each = 4, 200
	errs := make(chan error, threads)
	for range threads {
		go func() {
			for i := range each {
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
	for range threads {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}

	// The heap has at most 1+threads*each owners, so its next look is at
	// most twice that many away: rounds of batch more ciphers reach it.
	const batch = 64
	const maxRounds = 2*(1+threads*each)/batch + 1
	used := h.Used()
	t.Logf("one cipher holds %d bytes; after %d more were made and dropped the heap holds %d (%.0f ciphers' worth)",
		per, threads*each, used, float64(used)/float64(per))
	for round := 1; used > 300*per; round++ {
		if round > maxRounds {
			t.Fatalf("the heap holds %d bytes, %d ciphers' worth, after %d dropped ciphers and %d rounds of a collection and %d more: their arrays were not reclaimed",
				used, used/per, threads*each, maxRounds, batch)
		}
		runtime.GC()
		for range batch {
			if _, err := newCipher(); err != nil {
				t.Fatal(err)
			}
		}
		used = h.Used()
		t.Logf("round %d (a collection and %d more ciphers): the heap holds %d (%.0f ciphers' worth)", round, batch, used, float64(used)/float64(per))
	}

	// A collection and the heap's look before an OutOfMemoryError (an
	// allocation larger than the heap) leave the arrays of kept and of its
	// slab's other ciphers alone.
	runtime.GC()
	var oom *heap.OutOfMemoryError
	if _, err := h.Alloc(h.Size() + 1); !errors.As(err, &oom) {
		t.Fatalf("allocating more than the heap: %v, want an OutOfMemoryError", err)
	}
	if used := h.Used() - before; used < per || used > jce.SlabLen*per || used%per != 0 {
		t.Fatalf("after a collection the heap holds %d bytes of ciphers, %d ciphers' worth; only one cipher (%d bytes) and the %d others of its slab are still held",
			used, used/per, per, jce.SlabLen-1)
	}
	runtime.KeepAlive(kept)
}
