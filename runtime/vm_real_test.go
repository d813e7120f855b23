package runtime_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// gcmDriver runs one AES-GCM encryption the way the JDK's
// GaloisCounterMode engine does for doFinal on arrays (SP 800-38D §7.1):
// H = E(0), J0 = IV || 0^31 || 1, GHASH of the AAD, GCMEngine.doLastBlock
// over the data, the length block, and the tag E(J0) xor S. Every step is a
// VM.Call into the profile's methods.
type gcmDriver struct {
	vm            *jrt.VM
	ke            []uint32
	block, dolast *jrt.Method
	ghashDoFinal  *jrt.Method
	ghashUpdate   *jrt.Method
	makeKey       *jrt.Method
	subH          []uint64
}

func newGCMDriver(t testing.TB, vm *jrt.VM, key []byte) *gcmDriver {
	t.Helper()
	g := &gcmDriver{vm: vm}
	for _, p := range []struct {
		m   **jrt.Method
		key string
	}{{&g.block, "AESCrypt.implEncryptBlock"}, {&g.dolast, "GaloisCounterMode.GCMEngine.doLastBlock"},
		{&g.ghashDoFinal, "GHASH.doFinal"}, {&g.ghashUpdate, "GHASH.update"}, {&g.makeKey, "AESCrypt.makeSessionKey"}} {
		m, err := vm.Method(p.key)
		if err != nil {
			t.Fatal(err)
		}
		*p.m = m
	}
	n := 4 * (len(key)/4 + 7)
	g.ke = make([]uint32, n)
	kd := make([]uint32, n)
	ctx := context.Background()
	if _, err := vm.Call(ctx, g.makeKey, []jrt.Arg{bytecode.BytesArg(key), bytecode.IntsArg(g.ke), bytecode.IntsArg(kd)}); err != nil {
		t.Fatal(err)
	}
	h := make([]byte, 16)
	if _, err := vm.Call(ctx, g.block, []jrt.Arg{bytecode.IntsArg(g.ke), bytecode.BytesArg(h), bytecode.IntArg(0), bytecode.BytesArg(h), bytecode.IntArg(0)}); err != nil {
		t.Fatal(err)
	}
	g.subH = []uint64{binary.BigEndian.Uint64(h), binary.BigEndian.Uint64(h[8:])}
	return g
}

func (g *gcmDriver) seal(ctx context.Context, iv, in []byte) ([]byte, error) {
	out := make([]byte, len(in)+16)
	j0 := append(append([]byte(nil), iv...), 0, 0, 0, 1)
	st := make([]uint64, 2)
	counter := append([]byte(nil), j0...)
	counter[15]++ // inc32 of J0 (its last byte is 1)
	ectr := make([]byte, 16)
	used := []uint32{16}
	if _, err := g.vm.Call(ctx, g.dolast, []jrt.Arg{bytecode.BoolArg(true), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.IntArg(len(in)),
		bytecode.BytesArg(out), bytecode.IntArg(0), bytecode.IntsArg(g.ke), bytecode.BytesArg(counter), bytecode.BytesArg(ectr), bytecode.IntsArg(used),
		bytecode.LongsArg(st), bytecode.LongsArg(g.subH)}); err != nil {
		return nil, err
	}
	lb := make([]byte, 16)
	binary.BigEndian.PutUint64(lb[8:], uint64(len(in))*8)
	if _, err := g.vm.Call(ctx, g.ghashUpdate, []jrt.Arg{bytecode.LongsArg(st), bytecode.LongsArg(g.subH), bytecode.BytesArg(lb), bytecode.IntArg(0), bytecode.IntArg(16)}); err != nil {
		return nil, err
	}
	tag := out[len(in):]
	if _, err := g.vm.Call(ctx, g.block, []jrt.Arg{bytecode.IntsArg(g.ke), bytecode.BytesArg(j0), bytecode.IntArg(0), bytecode.BytesArg(tag), bytecode.IntArg(0)}); err != nil {
		return nil, err
	}
	for i := range 8 {
		tag[i] ^= byte(st[0] >> (56 - 8*i))
		tag[8+i] ^= byte(st[1] >> (56 - 8*i))
	}
	return out, nil
}

// syncBuf collects the VM's tty output from several goroutines.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// allAtLevel reports whether every method of keys has code at level l.
func allAtLevel(vm *jrt.VM, keys []string, l jrt.Level) bool {
	for _, k := range keys {
		if got, _, _ := vm.Level(k); got != l {
			return false
		}
	}
	return true
}

// TestGCMWarmupRealTiers runs an AES-GCM 16 KiB encryption loop through
// the real tiers (wazero interpreter, C1 and C2 compiles of the reference
// modules) and checks every output against crypto/cipher, and that the
// crypto methods go 0 → 3 → 4 with their level-3 code made not entrant.
// JITSIM_LONG=1 runs a longer loop.
func TestGCMWarmupRealTiers(t *testing.T) {
	long := os.Getenv("JITSIM_LONG") == "1"
	iters := 120
	if long {
		iters = 6000
	}
	for _, tc := range []struct {
		jdk      jdk.Release
		longOnly bool
		args     []string
	}{
		{jdk.R17, false, []string{"-XX:+PrintCompilation", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics"}},
		{jdk.R8u, true, []string{"-XX:+PrintCompilation", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics"}},
		{jdk.R25, true, []string{"-XX:+PrintCompilation", "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics"}},
	} {
		t.Run("jdk="+tc.jdk.String(), func(t *testing.T) {
			if tc.longOnly && !long {
				t.Skip("JITSIM_LONG=1 runs this profile too")
			}
			set, _, err := flags.Parse(flags.Options{JDK: tc.jdk, Arch: jdk.AMD64, Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			var out syncBuf
			vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...).WithOutput(&out))
			if err != nil {
				t.Fatal(err)
			}
			defer vm.Close()
			key := []byte("jitsim-gcm-key16")
			iv := []byte("twelve bytes")
			msg := make([]byte, 16384)
			for i := range msg {
				msg[i] = byte(i * 7)
			}
			blk, _ := aes.NewCipher(key)
			aead, _ := cipher.NewGCM(blk)
			want := aead.Seal(nil, iv, msg, nil)
			g := newGCMDriver(t, vm, key)
			ctx := context.Background()
			for i := range iters {
				got, err := g.seal(ctx, iv, msg)
				if err != nil {
					t.Fatalf("iteration %d: %v", i, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("iteration %d: ciphertext differs from crypto/cipher", i)
				}
			}
			// The compiles run on the compiler threads at wazero's real speed: on a loaded
			// machine the queue lags the 120 messages. Keep going (bounded) until C2 code
			// for the hot methods is installed; the test checks the order of events, not
			// how many messages they took.
			hotKeys := []string{"CounterMode.implCrypt", "GHASH.processBlocks"}
			if tc.jdk <= jdk.R8u {
				hotKeys[0] = "GCTR.update"
			}
			for extra := 0; extra < 5000 && !allAtLevel(vm, hotKeys, jrt.LevelFullOptimization); extra++ {
				got, err := g.seal(ctx, iv, msg)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("extra iteration %d: %v, equal=%v", extra, err, bytes.Equal(got, want))
				}
			}
			if long && tc.jdk >= jdk.R21 {
				// Keep going until C2 has compiled the caller of the
				// combined intrinsic (its compile may still be queued).
				for extra := 0; extra < 5000; extra++ {
					if l, _, _ := vm.Level("GaloisCounterMode.implGCMCrypt"); l == jrt.LevelFullOptimization {
						break
					}
					got, err := g.seal(ctx, iv, msg)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("extra iteration %d: %v, equal=%v", extra, err, bytes.Equal(got, want))
					}
				}
				// A few more messages through the stub-bound call site.
				for range 50 {
					got, err := g.seal(ctx, iv, msg)
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("after C2: %v, equal=%v", err, bytes.Equal(got, want))
					}
				}
			}
			text := out.String()
			t.Logf("PrintCompilation after %d iterations:\n%s", iters, text)
			hot := []string{"CounterMode::implCrypt", "GHASH::processBlocks"}
			if tc.jdk <= jdk.R8u {
				hot[0] = "GCTR::update" // JDK 8's GCTR encrypts block by block
			}
			if long && tc.jdk >= jdk.R21 {
				// implGCMCrypt is called once per message: C2 compiles it,
				// and binds its call to implGCMCrypt0, only after
				// thousands of messages.
				hot = append(hot, "GaloisCounterMode::implGCMCrypt")
				if !strings.Contains(text, "GaloisCounterMode::implGCMCrypt0 (") || !strings.Contains(text, "(intrinsic, predicate)") {
					t.Errorf("no intrinsic line for implGCMCrypt0")
				}
			}
			for _, m := range hot {
				for _, want := range []string{"3       com.sun.crypto.provider." + m + " (", "4       com.sun.crypto.provider." + m + " ("} {
					if !strings.Contains(text, want) {
						t.Errorf("no %q line", want)
					}
				}
			}
			if !strings.Contains(text, "made not entrant") {
				t.Errorf("no level-3 code made not entrant")
			}
			for _, k := range []string{"CounterMode.implCrypt", "GHASH.processBlocks", "AESCrypt.implEncryptBlock", "GaloisCounterMode.implGCMCrypt"} {
				l, _, _ := vm.Level(k)
				t.Logf("%s at level %d", k, l)
			}
		})
	}
}

// TestConcurrentRealTiers runs 8 application threads through CTR
// encryption (CounterMode.implCrypt, which calls AESCrypt.implEncryptBlock
// per block) while the compiler threads compile and install code under
// them; every output is checked against crypto/cipher. Thresholds are
// scaled down so the methods reach C2 within the test (run it with -race).
func TestConcurrentRealTiers(t *testing.T) {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64,
		Args: []string{"-XX:CompileThresholdScaling=0.05", "-XX:+PrintCompilation"}})
	if err != nil {
		t.Fatal(err)
	}
	var out syncBuf
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...).WithOutput(&out))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	key := []byte("jitsim-ctr-key16")
	g := newGCMDriver(t, vm, key)
	ctr, err := vm.Method("CounterMode.implCrypt")
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := aes.NewCipher(key)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for th := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			msg := make([]byte, 64+th)
			for i := range 400 {
				for k := range msg {
					msg[k] = byte(th*31 + i + k)
				}
				iv := make([]byte, 16)
				iv[0], iv[15] = byte(th), byte(i)
				want := make([]byte, len(msg))
				cipher.NewCTR(blk, iv).XORKeyStream(want, msg)
				got := make([]byte, len(msg))
				counter := append([]byte(nil), iv...)
				ectr, used := make([]byte, 16), []uint32{16}
				if _, err := vm.Call(ctx, ctr, []jrt.Arg{bytecode.IntsArg(g.ke), bytecode.BytesArg(counter), bytecode.BytesArg(ectr), bytecode.IntsArg(used),
					bytecode.BytesArg(msg), bytecode.IntArg(0), bytecode.IntArg(len(msg)), bytecode.BytesArg(got), bytecode.IntArg(0)}); err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(got, want) {
					errs <- fmt.Errorf("thread %d message %d: CTR output differs from crypto/cipher", th, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if l, _, _ := vm.Level("CounterMode.implCrypt"); l == jrt.LevelNone {
		t.Errorf("CounterMode.implCrypt still interpreted; output:\n%s", out.String())
	}
	t.Logf("PrintCompilation:\n%s", out.String())
}
