package runtime_test

import (
	"bytes"
	"context"
	goaes "crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/tiers"
)

// gcmSize is the message size of the VM throughput benchmarks: 16 KiB.
const gcmSize = 16 << 10

// warmGCM is a VM with AES/GCM decryption of one gcmSize message warmed to
// steady state: -Xbatch and a low CompileThresholdScaling make every
// compile synchronous and early, and the warm-up runs until no method has a
// compile queued and the VM reported no event (compile, install, first stub
// call) for 200 messages. A method whose calls all run inlined in C2 code
// stops being called and keeps the level it had (as in HotSpot), so "every
// caller at level 4" is not the criterion. Decryption is used because a
// GCM cipher may decrypt again after doFinal without a new init (encryption
// needs a fresh IV per message), so the timed loop is doFinal alone.
type warmGCM struct {
	vm      *jrt.VM
	c       *jce.Cipher
	key, iv []byte
	plain   []byte
	in, out []byte // ciphertext||tag, plaintext buffer
}

func newWarmGCM(tb testing.TB, rel jdk.Release, out *bytes.Buffer, vmArgs ...string) *warmGCM {
	tb.Helper()
	return newWarmGCMSize(tb, rel, gcmSize, out, vmArgs...)
}

// newWarmGCMSize is newWarmGCM for a message of size bytes.
func newWarmGCMSize(tb testing.TB, rel jdk.Release, size int, out *bytes.Buffer, vmArgs ...string) *warmGCM {
	tb.Helper()
	vm := newBatchVM(tb, rel, out, vmArgs...)
	var err error
	w := &warmGCM{vm: vm, key: []byte("0123456789abcdef"), iv: []byte("unique nonce"), plain: make([]byte, size)}
	for i := range w.plain {
		w.plain[i] = byte(i * 7)
	}
	w.in = goGCM(tb, w.key).Seal(nil, w.iv, w.plain, nil)
	w.out = make([]byte, size)
	if w.c, err = jce.GetInstance(vm, rel, "AES/GCM/NoPadding"); err != nil {
		tb.Fatal(err)
	}
	if err := w.c.Init(context.Background(), jce.DecryptMode, w.key, jce.GCMParameterSpec{TLen: 128, IV: w.iv}); err != nil {
		tb.Fatal(err)
	}
	var events atomic.Int64
	unsubscribe := vm.Subscribe(func(jrt.Event) { events.Add(1) })
	defer unsubscribe()
	last, quiet := int64(-1), 0
	for i := 0; ; i++ {
		w.once(tb)
		if i%50 == 49 {
			if n := events.Load(); n == last && w.steady(tb) {
				quiet++
			} else {
				last, quiet = n, 0
			}
			if quiet == 4 {
				break
			}
		}
		if i > 20000 {
			tb.Fatalf("JDK %s %q: not at steady state after %d messages: %s", rel, vmArgs, i, w.levels(tb))
		}
	}
	return w
}

// newBatchVM is a VM of release rel on the real tiers that compiles early and in the
// foreground (-Xbatch, CompileThresholdScaling 0.05), so that a warm-up loop reaches
// steady state in few operations; out, when not nil, receives its printed output.
func newBatchVM(tb testing.TB, rel jdk.Release, out *bytes.Buffer, vmArgs ...string) *jrt.VM {
	tb.Helper()
	args := append([]string{"-Xbatch", "-XX:CompileThresholdScaling=0.05"}, vmArgs...)
	set, _, err := flags.Parse(flags.Options{JDK: rel, Arch: jdk.AMD64, Args: args})
	if err != nil {
		tb.Fatal(err)
	}
	cfg := jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...)
	if out != nil {
		cfg = cfg.WithOutput(out)
	}
	vm, err := jrt.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { vm.Close() })
	return vm
}

// goGCM is crypto/cipher's AES-GCM (12-byte nonce, 16-byte tag): the
// oracle the warm cipher's messages are sealed with.
func goGCM(tb testing.TB, key []byte) cipher.AEAD {
	tb.Helper()
	blk, err := goaes.NewCipher(key)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := cipher.NewGCM(blk)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// once decrypts the message and checks the bytes.
func (w *warmGCM) once(tb testing.TB) {
	n, err := w.c.DoFinalTo(context.Background(), w.in, 0, len(w.in), w.out, 0)
	if err != nil {
		tb.Fatal(err)
	}
	if n != len(w.plain) || !bytes.Equal(w.out, w.plain) {
		tb.Fatalf("decryption through the VM returned %d bytes that differ from crypto/cipher's plaintext", n)
	}
}

// steady reports whether no method that imports an intrinsic method has a
// compile queued or running.
func (w *warmGCM) steady(tb testing.TB) bool {
	for _, m := range w.callers() {
		_, q, err := w.vm.Level(m)
		if err != nil {
			tb.Fatal(err)
		}
		if q {
			return false
		}
	}
	return true
}

func (w *warmGCM) callers() []string {
	tab := w.vm.Table()
	intr := map[string]bool{}
	for _, m := range tab.Methods() {
		if m.Intrinsic != "" {
			intr[m.Key] = true
		}
	}
	var out []string
	for _, m := range tab.Methods() {
		for _, imp := range m.Imports {
			if intr[imp] {
				out = append(out, m.Key)
				break
			}
		}
	}
	return out
}

func (w *warmGCM) levels(tb testing.TB) string {
	var s []string
	for _, m := range w.callers() {
		l, q, _ := w.vm.Level(m)
		s = append(s, fmt.Sprintf("%s=%d(queued %v)", m, l, q))
	}
	return strings.Join(s, " ")
}

// BenchmarkVMGCM compares AES-GCM decryption of 16 KiB:
//
//	path=stub  the galoisCounterMode_AESCrypt variant the VM selected for
//	           this host, called bare on the whole message (GCTR + GHASH)
//	path=vm    GaloisCounterMode.doFinal through the provider and the VM at
//	           steady state (warm-up outside the timer): the Java code at
//	           level 4 calling the same stub, plus the tag and tail work
//	path=vm-heap  path=vm with the ciphertext and the plaintext buffer in
//	           the VM's Java heap (VM.NewByteArray): no copy into the
//	           compiled code's memory and back
//	path=peer  crypto/cipher's AES-GCM Open, for scale
//
// Same bytes on every path. The ratio stub/vm (ns/op) is the VM's
// throughput relative to the bare stub (goal ≥ 95 %). Interleave rounds as
// BenchmarkDispatch's comment shows (the test binary with -test.count 1 in
// a loop) and compare per-round ratios: the box is shared and noisy.
func BenchmarkVMGCM(b *testing.B) {
	w := newWarmGCM(b, jdk.R25, nil)
	b.Run("path=stub", w.bareStub)
	b.Run("path=vm", func(b *testing.B) { w.throughVM(b, w.in, w.out) })
	b.Run("path=vm-heap", func(b *testing.B) { w.throughVM(b, heapCopy(b, w.vm, w.in), heapCopy(b, w.vm, w.out)) })
	b.Run("path=peer", func(b *testing.B) {
		g := goGCM(b, w.key)
		b.SetBytes(gcmSize)
		for b.Loop() {
			if _, err := g.Open(w.out[:0], w.iv, w.in, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// encryptBlockGeneric encrypts one block with the generic block stub (for
// the hash subkey H = E_K(0^128), SP 800-38D §6.4).
func encryptBlockGeneric(xk []uint32, dst, src []byte) { aes.EncryptBlockGeneric(xk, dst, src) }

// BenchmarkVMGHASHFlag decrypts 16 KiB of AES-GCM through the VM at steady
// state with GHASH intrinsics on and off (-XX:-UseGHASHIntrinsics) on
// JDK 17 and 25. On 17, GHASH.processBlocks is the whole GHASH cost, so
// turning the intrinsic off leaves it to C2-compiled Java; on 25 the
// combined galoisCounterMode_AESCrypt stub (gated on x86 by UseAESIntrinsics
// only) does the bulk GHASH, so the flag changes little.
func BenchmarkVMGHASHFlag(b *testing.B) {
	for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
		for _, on := range []bool{true, false} {
			name := "on"
			args := []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:+UseGHASHIntrinsics"}
			if !on {
				name, args[1] = "off", "-XX:-UseGHASHIntrinsics"
			}
			b.Run(fmt.Sprintf("jdk=%s/ghash=%s", rel, name), func(b *testing.B) {
				w := newWarmGCM(b, rel, nil, args...)
				b.SetBytes(gcmSize)
				b.ResetTimer()
				for b.Loop() {
					if _, err := w.c.DoFinalTo(context.Background(), w.in, 0, len(w.in), w.out, 0); err != nil {
						b.Fatal(err)
					}
				}
				if !bytes.Equal(w.out, w.plain) {
					b.Fatal("VM output differs from crypto/cipher's plaintext")
				}
			})
		}
	}
}

// TestPrintIntrinsicsGHASHFlag checks what C2 binds when it compiles the
// GCM callers: with JDK 17 and -XX:-UseGHASHIntrinsics no call site is bound
// to the ghash_processBlocks stub (PrintIntrinsics shows no
// _ghash_processBlocks intrinsic line), while JDK 25 binds
// _galoisCounterMode_AESCrypt whatever the GHASH flag says.
func TestPrintIntrinsicsGHASHFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("warms a VM to level 4")
	}
	tests := []struct {
		jdk           jdk.Release
		ghash         string
		want, wantNot []string // intrinsic IDs
	}{
		{jdk.R17, "-XX:-UseGHASHIntrinsics", []string{"_counterMode_AESCrypt"}, []string{"_ghash_processBlocks"}},
		{jdk.R17, "-XX:+UseGHASHIntrinsics", []string{"_ghash_processBlocks", "_counterMode_AESCrypt"}, nil},
		{jdk.R25, "-XX:-UseGHASHIntrinsics", []string{"_galoisCounterMode_AESCrypt"}, []string{"_ghash_processBlocks"}},
		{jdk.R25, "-XX:+UseGHASHIntrinsics", []string{"_galoisCounterMode_AESCrypt", "_ghash_processBlocks"}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("jdk=%s/%s", tt.jdk, tt.ghash), func(t *testing.T) {
			var out bytes.Buffer
			w := newWarmGCM(t, tt.jdk, &out, "-XX:+UnlockDiagnosticVMOptions", tt.ghash, "-XX:+PrintIntrinsics")
			w.vm.Close() // flush the printer
			text := out.String()
			for _, id := range tt.want {
				if !boundIntrinsic(t, text, tt.jdk, id) {
					t.Errorf("PrintIntrinsics shows no call site bound to %s:\n%s", id, text)
				}
			}
			for _, id := range tt.wantNot {
				if boundIntrinsic(t, text, tt.jdk, id) {
					t.Errorf("PrintIntrinsics shows a call site bound to %s:\n%s", id, text)
				}
			}
		})
	}
}

// boundIntrinsic reports whether PrintIntrinsics output has a line that
// binds a call to intrinsic id ("@ bci  Class::method (n bytes)   (intrinsic…)";
// HotSpot prints the replaced method, not the ID).
func boundIntrinsic(t *testing.T, text string, rel jdk.Release, id string) bool {
	t.Helper()
	intr, ok := jrt.LookupIntrinsic(id)
	if !ok {
		t.Fatalf("no intrinsic %s", id)
	}
	m := intr.Row().Method(rel)
	name := m.Class + "::" + m.Name + " ("
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, name) && strings.Contains(l, "(intrinsic") {
			return true
		}
	}
	return false
}

// heapCopy returns a copy of b in vm's Java heap, released at the end of
// the test.
func heapCopy(tb testing.TB, vm *jrt.VM, b []byte) []byte {
	tb.Helper()
	h, err := vm.NewByteArray(len(b))
	if err != nil {
		tb.Fatal(err)
	}
	copy(h, b)
	tb.Cleanup(func() {
		if err := vm.ReleaseArray(h); err != nil {
			tb.Error(err)
		}
	})
	return h
}

// BenchmarkVMGCMSizes is BenchmarkVMGCM's stub and vm-heap paths over
// message sizes: the VM's cost per message is a fixed number of calls, so
// its throughput approaches the bare stub's as messages grow. The ratio
// per size is stub ns/op over vm-heap ns/op.
func BenchmarkVMGCMSizes(b *testing.B) {
	for _, size := range []int{16 << 10, 64 << 10, 256 << 10, 1 << 20} {
		w := newWarmGCMSize(b, jdk.R25, size, nil)
		b.Run(fmt.Sprintf("size=%dK/path=stub", size>>10), w.bareStub)
		b.Run(fmt.Sprintf("size=%dK/path=vm-heap", size>>10), func(b *testing.B) {
			w.throughVM(b, heapCopy(b, w.vm, w.in), heapCopy(b, w.vm, w.out))
		})
	}
}

// bareStub is the path=stub benchmark of w's message: the GCM stub variant
// the VM selected for this host, called bare on the whole message (GCTR +
// GHASH, no tag), checked against crypto/cipher's plaintext.
func (w *warmGCM) bareStub(b *testing.B) {
	d, err := w.vm.Explain("_galoisCounterMode_AESCrypt", jrt.LevelFullOptimization)
	if err != nil {
		b.Fatal(err)
	}
	f, ok := gcm.GCMCode(d.Impl.ID)
	if !d.Stub || !ok {
		b.Skipf("no GCM stub for this host: %s", d)
	}
	xk, _, err := aes.ExpandKey(w.key)
	if err != nil {
		b.Fatal(err)
	}
	var zero, h [16]byte
	encryptBlockGeneric(xk, h[:], zero[:])
	htbl := make([]uint64, gcm.HtblLen)
	htbl[0], htbl[1] = binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
	size := len(w.plain)
	ct := w.in[:size]
	ctr, st := new([16]byte), new([2]uint64)
	b.SetBytes(int64(size))
	for b.Loop() {
		*ctr, *st = [16]byte{}, [2]uint64{}
		copy(ctr[:], w.iv)
		ctr[15] = 2 // inc32(J0) for a 96-bit IV
		for done := 0; done < size; {
			n := f(xk, ctr, st, htbl, w.out[done:], ct[done:], ct[done:])
			if n == 0 {
				b.Fatalf("stub %s made no progress at %d", d.Impl.Name, done)
			}
			done += n
		}
	}
	if !bytes.Equal(w.out, w.plain) {
		b.Fatal("bare stub output differs from crypto/cipher's plaintext")
	}
}

// throughVM decrypts w's message through the provider and the VM at steady
// state from in (ciphertext and tag) into out — Go slices or heap arrays —
// checked against crypto/cipher's plaintext.
func (w *warmGCM) throughVM(b *testing.B, in, out []byte) {
	b.SetBytes(int64(len(w.plain)))
	for b.Loop() {
		if _, err := w.c.DoFinalTo(context.Background(), in, 0, len(in), out, 0); err != nil {
			b.Fatal(err)
		}
	}
	if !bytes.Equal(out, w.plain) {
		b.Fatal("VM output differs from crypto/cipher's plaintext")
	}
}
