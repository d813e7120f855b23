package runtime_test

// Tests of bounded resources: a long run of small messages leaves the heap
// and the goroutine count where they started, VMs started and closed leave
// no goroutines behind, and the message size cap names its input.

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"os"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// heapAfterGC returns the live heap after two collections (the second
// frees what the first one's finalizers released).
func heapAfterGC() uint64 {
	goruntime.GC()
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// settledGoroutines waits up to a second for goroutines that are on their
// way out (compiler threads of closed VMs) and returns the count.
func settledGoroutines(atMost int) int {
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); n > atMost && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	return n
}

// TestLongRunBounded runs many iterations of a small AES-GCM encryption
// (64 bytes, 16 bytes of AAD, a fresh IV each time as the JDK requires) on
// one VM in mixed mode, every output checked against crypto/cipher, and
// checks that after the warm-up neither the live heap nor the goroutine
// count grows: the heap within 4 MiB of where it stood after the warm-up,
// the goroutines within 2. The default run does the 200 000
// iterations, about 6–10 s on the wall clock here (2 vCPUs, shared with
// other builds; the bound the issue sets is 60 s); JITSIM_LONG=1 runs
// 2 000 000.
func TestLongRunBounded(t *testing.T) {
	iters, warm := 200_000, 5_000
	if long() {
		iters = 2_000_000
	}
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	key := bytes.Repeat([]byte{0x5a}, 16)
	blk, _ := aes.NewCipher(key)
	oracle, _ := cipher.NewGCM(blk)
	pt, aad := bytes.Repeat([]byte{0xa5}, 64), []byte("sixteen byte aad")
	iv := make([]byte, 12)
	ctx := context.Background()
	c, err := jce.GetInstance(vm, jdk.R25, "AES/GCM/NoPadding")
	if err != nil {
		t.Fatal(err)
	}
	var heap0 uint64
	var g0 int
	start := time.Now()
	for i := range warm + iters {
		if i == warm {
			heap0, g0 = heapAfterGC(), goruntime.NumGoroutine()
		}
		binary.BigEndian.PutUint64(iv[4:], uint64(i))
		if err := c.Init(ctx, jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: iv}); err != nil {
			t.Fatalf("iteration %d: init: %v", i, err)
		}
		if err := c.UpdateAAD(aad); err != nil {
			t.Fatalf("iteration %d: updateAAD: %v", i, err)
		}
		got, err := c.DoFinal(ctx, pt)
		if err != nil {
			t.Fatalf("iteration %d: doFinal: %v", i, err)
		}
		if want := oracle.Seal(nil, iv, pt, aad); !bytes.Equal(got, want) {
			t.Fatalf("iteration %d: ciphertext differs from crypto/cipher", i)
		}
	}
	took := time.Since(start)
	heap1, g1 := heapAfterGC(), settledGoroutines(g0+2)
	t.Logf("%d iterations after %d of warm-up in %v; heap %d -> %d bytes; goroutines %d -> %d",
		iters, warm, took.Round(time.Millisecond), heap0, heap1, g0, g1)
	if heap1 > heap0+4<<20 {
		t.Errorf("live heap grew from %d to %d bytes over %d iterations", heap0, heap1, iters)
	}
	if g1 > g0+2 {
		t.Errorf("goroutines grew from %d to %d over %d iterations", g0, g1, iters)
	}
	// The run is only a long run of the real thing if the hot methods got to C2.
	var c2 []string
	for _, m := range vm.Table().Methods() {
		if l, _, err := vm.Level(m.Key); err == nil && l == jrt.LevelFullOptimization {
			c2 = append(c2, m.Key)
		}
	}
	if len(c2) == 0 {
		t.Errorf("no method reached level 4 in %d iterations", warm+iters)
	}
	t.Logf("at level 4 at the end: %v", c2)
}

// TestVMCloseReleases starts and closes VMs (each with compiler threads
// and compiled wazero modules) and checks that the goroutines return to
// where they were and the heap does not grow with the number of VMs.
func TestVMCloseReleases(t *testing.T) {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: []string{"-Xcomp"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	once := func() {
		vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
		if err != nil {
			t.Fatal(err)
		}
		c, err := jce.NewCipher(ctx, vm, jdk.R25, "AES/CBC/PKCS5Padding", jce.EncryptMode, make([]byte, 16), jce.IvParameterSpec{IV: make([]byte, 16)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.DoFinal(ctx, make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
		if err := vm.Close(); err != nil {
			t.Fatal(err)
		}
	}
	once() // first use builds the process-wide caches (module table, stub tables)
	g0, heap0 := settledGoroutines(0), heapAfterGC()
	const n = 20
	for range n {
		once()
	}
	g1, heap1 := settledGoroutines(g0), heapAfterGC()
	t.Logf("%d VMs started and closed: goroutines %d -> %d, heap %d -> %d bytes", n, g0, g1, heap0, heap1)
	if g1 > g0 {
		t.Errorf("goroutines %d -> %d after %d VMs were closed", g0, g1, n)
	}
	if heap1 > heap0+8<<20 {
		t.Errorf("live heap grew from %d to %d bytes over %d closed VMs", heap0, heap1, n)
	}
}

func TestCheckMessageSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		n    int64
		want string // "" for no error
	}{
		{"under default", "", 1 << 20, ""},
		{"at default", "", jrt.DefaultMaxMessageBytes, ""},
		{"over default", "", jrt.DefaultMaxMessageBytes + 1, "property msgSize=16777217 exceeds jitsim's message size cap of 16777216 bytes (set JITSIM_MAX_MESSAGE_BYTES to raise it)"},
		{"raised", "30000000", 20 << 20, ""},
		{"lowered", "4096", 4097, "cap of 4096 bytes"},
		{"not a number", "1GB", 1, `environment variable JITSIM_MAX_MESSAGE_BYTES="1GB" is not a positive byte count`},
		{"zero", "0", 1, "is not a positive byte count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv(jrt.MaxMessageEnv, tc.env)
			} else if _, ok := os.LookupEnv(jrt.MaxMessageEnv); ok {
				t.Setenv(jrt.MaxMessageEnv, "")
			}
			err := jrt.CheckMessageSize("property msgSize", tc.n)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestWasmMemoryLimit sends a message whose Go-slice input and output
// together exceed the tiers' wasm memory limit (64 MiB per method
// instance) through an interpreted method: the call fails with an error,
// the process does not, and the VM serves the next message. This is the
// bound behind DefaultMaxMessageBytes.
func TestWasmMemoryLimit(t *testing.T) {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: []string{"-Xint"}})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	ctx := context.Background()
	key, iv := make([]byte, 16), make([]byte, 16)
	for _, tc := range []struct {
		name string
		n    int
		fail bool
	}{
		{"over the limit", 40 << 20, true},
		{"after it", 4096, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := jce.NewCipher(ctx, vm, jdk.R25, "AES/CBC/NoPadding", jce.EncryptMode, key, jce.IvParameterSpec{IV: iv})
			if err != nil {
				t.Fatal(err)
			}
			// Go slices both ways: each is copied into the interpreted
			// code's memory (heap arrays are not: TestHeapArrayBeyondCopyLimit).
			pt, got := make([]byte, tc.n), make([]byte, tc.n)
			_, err = c.DoFinalTo(ctx, pt, 0, tc.n, got, 0)
			if tc.fail {
				if err == nil || !strings.Contains(err.Error(), "memory limit") {
					t.Fatalf("%d bytes at level 0: error %v, want the engine's memory limit", tc.n, err)
				}
				t.Logf("%d bytes: %v", tc.n, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			blk, _ := aes.NewCipher(key)
			want := make([]byte, tc.n)
			cipher.NewCBCEncrypter(blk, iv).CryptBlocks(want, pt)
			if !bytes.Equal(got, want) {
				t.Fatal("ciphertext differs from crypto/cipher after the failed call")
			}
		})
	}
}
