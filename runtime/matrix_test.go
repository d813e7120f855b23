package runtime_test

// The whole-path differential matrix: every cipher mode the provider
// serves, through the Cipher API over a real VM (wazero interpreter, C1
// and C2 compiles of the reference modules, our own stubs), at every tier
// level, with the intrinsics on, off and on at every level (the Haley
// flag), on every CPU model and UseAVX clamp that selects a different stub
// variant, on every JDK profile — each output checked byte for byte
// against crypto/cipher, with message lengths around the block size,
// PARALLEL_LEN (512 and 7680) and the 1 MiB split left out for time,
// input and output offsets, in-place operation and multi-part streams.
//
// Every configuration runs on the wall clock and, as a second dimension, on
// the model clock (runtime/model: virtual time, simulated compiler pools),
// where the same bytes must come out of the same tiers and stubs.
//
// The default run covers every value of every dimension at least once
// (one factor at a time around JDK 25 / host / -Xcomp at level 4 /
// intrinsics on / wall clock, plus a few pairs the bugs would hide in, and
// every level and intrinsic setting of JDK 25 on the model clock);
// JITSIM_LONG=1 runs the full product of the dimensions.

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// long reports whether JITSIM_LONG=1 asks for the long runs.
func long() bool { return os.Getenv("JITSIM_LONG") == "1" }

// matrixLevel pins where the provider's methods run.
type matrixLevel struct {
	name string
	args func(jdk.Release) []string
	// stubsAt4 is true when the callers reach level 4, where stock HotSpot
	// binds intrinsic calls to stubs.
	stubsAt4 bool
}

// fixed returns a matrixLevel.args that is the same on every profile.
func fixed(a ...string) func(jdk.Release) []string { return func(jdk.Release) []string { return a } }

// lowThresholds makes compiles come after a few calls: CompileThresholdScaling
// from JDK 9, the tier thresholds themselves on JDK 8 (which has no scaling flag).
func lowThresholds(scale string) func(jdk.Release) []string {
	return func(j jdk.Release) []string {
		if j >= jdk.R17 {
			return []string{"-XX:CompileThresholdScaling=" + scale}
		}
		return []string{"-XX:Tier3InvocationThreshold=4", "-XX:Tier3MinInvocationThreshold=2", "-XX:Tier3CompileThreshold=8",
			"-XX:Tier4InvocationThreshold=40", "-XX:Tier0InvokeNotifyFreqLog=1"}
	}
}

var matrixLevels = []matrixLevel{
	{"Xint", fixed("-Xint"), false},
	{"Xcomp-L1", fixed("-Xcomp", "-XX:TieredStopAtLevel=1"), false},
	{"Xcomp-L2", fixed("-Xcomp", "-XX:TieredStopAtLevel=2"), false},
	{"Xcomp-L3", fixed("-Xcomp", "-XX:TieredStopAtLevel=3"), false},
	{"Xcomp-L4", fixed("-Xcomp", "-XX:TieredStopAtLevel=4"), true},
	// Tiers change during the run: compiles block the caller (-Xbatch) after
	// a few calls, so one message's calls see levels 0, 3 and 4.
	{"Xbatch-scaled", func(j jdk.Release) []string { return append([]string{"-Xbatch"}, lowThresholds("0.01")(j)...) }, false},
}

// matrixIntrinsic is the intrinsic setting.
type matrixIntrinsic struct {
	name string
	args func(jdk.Release) []string
	// none: no call may be bound to a stub.
	none bool
	// everyLevel: the Haley flag, stubs from level 0.
	everyLevel bool
}

var matrixIntrinsics = []matrixIntrinsic{
	{"on", func(jdk.Release) []string { return nil }, false, false},
	{"off", func(j jdk.Release) []string {
		a := []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESIntrinsics"}
		if j >= jdk.R8u {
			a = append(a, "-XX:-UseGHASHIntrinsics")
		}
		if j >= jdk.R17 {
			a = append(a, "-XX:-UseAESCTRIntrinsics")
		}
		return a
	}, true, false},
	{"haley", func(jdk.Release) []string {
		return []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + jrt.HaleyFlag}
	}, false, true},
}

// matrixCPU is a CPU model and an optional UseAVX clamp: each row selects
// a different set of stub variants (stubs.Select); a variant the host
// cannot run executes as its generic twin.
type matrixCPU struct {
	model string
	avx   string // "" or a UseAVX value
}

func (c matrixCPU) String() string {
	if c.avx == "" {
		return c.model
	}
	return c.model + "-UseAVX=" + c.avx
}

var matrixCPUs = []matrixCPU{
	{"host", ""}, {"sandybridge-i5", ""}, {"haswell-e5-2660v3", ""}, {"skylake-avx2", ""}, {"icelake-server", ""},
	{"host", "0"}, {"host", "1"}, {"host", "2"},
}

// matrixClocks are the VM's clocks: measured, and the cost model's
// virtual time (Config.WithModel with the CPU model's profile).
var matrixClocks = []string{"wall", "model"}

// matrixConfig is one VM of the matrix.
type matrixConfig struct {
	jdk   jdk.Release
	level matrixLevel
	intr  matrixIntrinsic
	cpu   matrixCPU
	clock string
}

func (c matrixConfig) String() string {
	return fmt.Sprintf("jdk=%s/%s/intrinsics=%s/cpu=%s/clock=%s", c.jdk, c.level.name, c.intr.name, c.cpu, c.clock)
}

// matrixConfigs returns the full product (long) or the default cover: the
// baseline, every single-dimension change of it, every level with every
// intrinsic setting on JDK 8u and 25 (the Haley flag and -Xint meet there),
// and on the model clock every level with every intrinsic setting on JDK
// 25 and host.
func matrixConfigs(long bool) []matrixConfig {
	var all []matrixConfig
	for _, k := range matrixClocks {
		for _, j := range jdk.All() {
			for _, l := range matrixLevels {
				for _, in := range matrixIntrinsics {
					for _, c := range matrixCPUs {
						all = append(all, matrixConfig{j, l, in, c, k})
					}
				}
			}
		}
	}
	if long {
		return all
	}
	base := matrixConfig{jdk.R25, matrixLevels[4], matrixIntrinsics[0], matrixCPUs[0], "wall"}
	var out []matrixConfig
	for _, c := range all {
		diff := 0
		if c.jdk != base.jdk {
			diff++
		}
		if c.level.name != base.level.name {
			diff++
		}
		if c.intr.name != base.intr.name {
			diff++
		}
		if c.cpu != base.cpu {
			diff++
		}
		if c.clock != base.clock {
			// The model clock's cover: JDK 25 on host, every level and
			// intrinsic setting.
			if c.jdk == base.jdk && c.cpu == base.cpu {
				out = append(out, c)
			}
			continue
		}
		levelByIntrinsic := c.cpu == base.cpu && (c.jdk == jdk.R25 || c.jdk == jdk.R8u)
		if diff <= 1 || levelByIntrinsic {
			out = append(out, c)
		}
	}
	return out
}

// stubLog collects the stub variants the VM bound or routed calls to (the
// "impl" field of its zap events).
type stubLog struct {
	obs *observer.ObservedLogs
}

func newStubLog() (*zap.Logger, stubLog) {
	core, obs := observer.New(zapcore.DebugLevel)
	return zap.New(core), stubLog{obs}
}

// impls returns the distinct non-Java implementations seen, sorted.
func (s stubLog) impls() []string {
	seen := map[string]bool{}
	for _, e := range s.obs.All() {
		if v, ok := e.ContextMap()["impl"].(string); ok && v != "" && !strings.HasPrefix(v, "java") {
			seen[v] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// newMatrixVM starts the VM of one configuration on the real tiers; on the
// model clock it is priced with the CPU model's cost profile.
func newMatrixVM(t testing.TB, c matrixConfig, extra ...string) (*jrt.VM, stubLog) {
	t.Helper()
	args := slices.Concat(c.level.args(c.jdk), c.intr.args(c.jdk), extra)
	if c.cpu.avx != "" {
		args = append(args, "-XX:UseAVX="+c.cpu.avx)
	}
	set, _, err := flags.Parse(flags.Options{JDK: c.jdk, Arch: jdk.AMD64, Args: args})
	if err != nil {
		t.Fatalf("flags %q: %v", args, err)
	}
	cpuModel, err := cpu.Lookup(c.cpu.model)
	if err != nil {
		t.Fatal(err)
	}
	logger, log := newStubLog()
	cfg := jrt.NewConfig().WithFlags(set).WithCPU(cpuModel).WithTiers(tiers.Default()...).WithLogger(logger)
	if c.clock == "model" {
		prof, err := model.Lookup(c.cpu.model)
		if err != nil {
			t.Fatal(err)
		}
		cfg = cfg.WithModel(prof)
	}
	vm, err := jrt.New(cfg)
	if err != nil {
		t.Fatalf("jrt.New %q: %v", args, err)
	}
	t.Cleanup(func() { vm.Close() })
	return vm, log
}

// threadInvoker makes the calls of one VM thread (jrt.VM.CallAs).
type threadInvoker = jrt.ThreadInvoker

// cipherMode is one transformation of the matrix.
type cipherMode struct {
	trans     string
	blockOnly bool // NoPadding ECB/CBC: whole blocks only
}

var matrixModes = []cipherMode{
	{"AES/ECB/NoPadding", true}, {"AES/ECB/PKCS5Padding", false},
	{"AES/CBC/NoPadding", true}, {"AES/CBC/PKCS5Padding", false},
	{"AES/CTR/NoPadding", false}, {"AES/GCM/NoPadding", false},
}

// cryptCase is one message through one transformation.
type cryptCase struct {
	mode          cipherMode
	key, iv, aad  []byte
	pt            []byte
	splits        []int // multi-part: lengths of the Update calls before doFinal
	inOfs, outOfs int
	inPlace       bool
	heap          bool // the buffers are Java heap arrays (VM.NewByteArray): no copies
}

func (c cryptCase) String() string {
	return fmt.Sprintf("%s key=%d len=%d aad=%d parts=%v inOfs=%d outOfs=%d inPlace=%t heap=%t",
		c.mode.trans, len(c.key)*8, len(c.pt), len(c.aad), c.splits, c.inOfs, c.outOfs, c.inPlace, c.heap)
}

// matrixLengths straddle the block size, GCM's PARALLEL_LEN of JDK 25 (512)
// and of JDK 18–24 (7680), and CTR's and GCM's partial-block state.
var matrixLengths = []int{0, 1, 15, 16, 17, 31, 48, 100, 255, 512, 517, 1000, 4099, 7680, 7700, 8200}

// matrixCases builds the cases of one configuration: every mode at every
// length, with key size, offsets, in-place and the split pattern varied
// across the lengths by a seeded generator (the same cases on every run).
func matrixCases(seed uint64, long bool) []cryptCase {
	r := rand.New(rand.NewPCG(seed, 0x6a69_7473_696d))
	lengths := matrixLengths
	if !long {
		// The default run keeps one length per region.
		lengths = []int{0, 1, 16, 17, 100, 517, 7700}
	}
	var cs []cryptCase
	for _, m := range matrixModes {
		for i, n := range lengths {
			if m.blockOnly {
				n -= n % 16
			}
			c := cryptCase{mode: m, key: matrixBytes(r, []int{16, 24, 32}[i%3]), pt: matrixBytes(r, n)}
			switch {
			case strings.Contains(m.trans, "GCM"):
				c.iv = matrixBytes(r, 12)
				c.aad = matrixBytes(r, []int{0, 13, 16, 40}[r.IntN(4)])
			case !strings.Contains(m.trans, "ECB"):
				c.iv = matrixBytes(r, 16)
			}
			c.inOfs, c.outOfs = r.IntN(8), r.IntN(8)
			if i%3 == 2 {
				c.inPlace, c.outOfs = true, c.inOfs
			}
			c.heap = i%2 == 0 // with in-place, offsets and splits in both halves
			if i%2 == 1 && n > 0 {
				// Up to three Update calls before doFinal, at random cuts.
				left := n
				for k := r.IntN(3) + 1; k > 0 && left > 0; k-- {
					part := r.IntN(left + 1)
					c.splits = append(c.splits, part)
					left -= part
				}
			}
			cs = append(cs, c)
		}
	}
	return cs
}

func matrixBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// oracleEncrypt is the expected ciphertext from crypto/aes and
// crypto/cipher (PKCS5 padding by hand: RFC 8018 §6.1.1 step 4).
func oracleEncrypt(c cryptCase) []byte {
	b, err := aes.NewCipher(c.key)
	if err != nil {
		panic(err)
	}
	pt := c.pt
	if strings.HasSuffix(c.mode.trans, "PKCS5Padding") {
		p := 16 - len(pt)%16
		pt = append(slices.Clone(pt), bytes.Repeat([]byte{byte(p)}, p)...)
	}
	out := make([]byte, len(pt))
	switch {
	case strings.Contains(c.mode.trans, "/ECB/"):
		for i := 0; i < len(pt); i += 16 {
			b.Encrypt(out[i:], pt[i:])
		}
	case strings.Contains(c.mode.trans, "/CBC/"):
		cipher.NewCBCEncrypter(b, c.iv).CryptBlocks(out, pt)
	case strings.Contains(c.mode.trans, "/CTR/"):
		cipher.NewCTR(b, c.iv).XORKeyStream(out, pt)
	case strings.Contains(c.mode.trans, "/GCM/"):
		g, err := cipher.NewGCM(b)
		if err != nil {
			panic(err)
		}
		return g.Seal(nil, c.iv, pt, c.aad)
	}
	return out
}

// jitsimCrypt runs in through a fresh Cipher (opmode) as c describes:
// Update calls of c.splits, then doFinal of the rest, at c's offsets,
// in place when c says so. It returns the output bytes.
func jitsimCrypt(ctx context.Context, inv jce.Invoker, rel jdk.Release, c cryptCase, opmode int, in []byte) ([]byte, error) {
	var spec jce.ParamSpec
	switch {
	case strings.Contains(c.mode.trans, "GCM"):
		spec = jce.GCMParameterSpec{TLen: 128, IV: c.iv}
	case c.iv != nil:
		spec = jce.IvParameterSpec{IV: c.iv}
	}
	ci, err := jce.NewCipher(ctx, inv, rel, c.mode.trans, opmode, c.key, spec)
	if err != nil {
		return nil, err
	}
	if len(c.aad) > 0 {
		if err := ci.UpdateAAD(c.aad); err != nil {
			return nil, err
		}
	}
	room := len(in) + 32
	alloc := func(n int) ([]byte, error) { return make([]byte, n), nil }
	if vm := vmOf(inv); c.heap && vm != nil {
		alloc = func(n int) ([]byte, error) {
			b, err := vm.NewByteArray(n)
			if err == nil && vm.Heap() != nil {
				if _, ok := vm.Heap().Offset(b); !ok && n > 0 {
					return nil, fmt.Errorf("NewByteArray(%d) is not in the heap", n)
				}
			}
			return b, err
		}
	}
	inBuf, err := alloc(c.inOfs + len(in) + room)
	if err != nil {
		return nil, err
	}
	copy(inBuf[c.inOfs:], in)
	outBuf, err := alloc(c.outOfs + room)
	if err != nil {
		return nil, err
	}
	if c.inPlace {
		outBuf = inBuf
	}
	inPos, outPos := c.inOfs, c.outOfs
	for _, part := range c.splits {
		if inPos+part > c.inOfs+len(in) {
			part = c.inOfs + len(in) - inPos
		}
		n, err := ci.UpdateTo(ctx, inBuf, inPos, part, outBuf, outPos)
		if err != nil {
			return nil, fmt.Errorf("update(%d): %w", part, err)
		}
		inPos, outPos = inPos+part, outPos+n
	}
	n, err := ci.DoFinalTo(ctx, inBuf, inPos, c.inOfs+len(in)-inPos, outBuf, outPos)
	if err != nil {
		return nil, fmt.Errorf("doFinal: %w", err)
	}
	return slices.Clone(outBuf[c.outOfs : outPos+n]), nil
}

// vmOf is the VM behind an invoker of the matrix, nil if unknown.
func vmOf(inv jce.Invoker) *jrt.VM {
	switch v := inv.(type) {
	case *jrt.VM:
		return v
	case threadInvoker:
		return v.VM
	}
	return nil
}

// checkCase encrypts and decrypts one case through the VM and compares
// both directions with the oracle.
func checkCase(ctx context.Context, inv jce.Invoker, rel jdk.Release, c cryptCase) error {
	want := oracleEncrypt(c)
	got, err := jitsimCrypt(ctx, inv, rel, c, jce.EncryptMode, c.pt)
	if err != nil {
		return fmt.Errorf("encrypt %v: %w", c, err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("encrypt %v: first difference at byte %d of %d (got %d bytes)", c, firstDiff(got, want), len(want), len(got))
	}
	back, err := jitsimCrypt(ctx, inv, rel, c, jce.DecryptMode, want)
	if err != nil {
		return fmt.Errorf("decrypt %v: %w", c, err)
	}
	if !bytes.Equal(back, c.pt) {
		return fmt.Errorf("decrypt %v: first difference at byte %d of %d (got %d bytes)", c, firstDiff(back, c.pt), len(c.pt), len(back))
	}
	return nil
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestMatrix is the whole-path differential matrix (see the file comment).
// Besides the bytes it checks that the intrinsic setting took effect: with
// the intrinsics off no call reaches a stub; on at level 4 and with the
// Haley flag some do. It logs the stub variants each configuration reached,
// and a full run fails if a variant of stubs.Rules that the host can
// execute was reached by no configuration.
func TestMatrix(t *testing.T) {
	if jdk.HostArch() != jdk.AMD64 {
		t.Skip("the matrix's CPU models are x86 ones")
	}
	lng := long()
	configs := matrixConfigs(lng)
	variants := map[string]bool{}
	ran := 0
	var mu sync.Mutex
	for i, mc := range configs {
		t.Run(mc.String(), func(t *testing.T) {
			t.Parallel()
			vm, log := newMatrixVM(t, mc)
			rel := mc.jdk
			ctx := context.Background()
			// One application thread makes every call; on the model clock
			// it is a simulated thread, charged for each call.
			th := vm.NewThread("main")
			th.Enter()
			inv := threadInvoker{VM: vm, Thread: th}
			for _, c := range matrixCases(uint64(i), lng) {
				if err := checkCase(ctx, inv, rel, c); err != nil {
					th.Exit()
					t.Fatal(err)
				}
			}
			virtual := th.Now()
			th.Exit()
			if mc.clock == "model" && virtual <= 0 {
				t.Errorf("model clock: the thread's virtual time is %v after the run", virtual)
			}
			impls := log.impls()
			switch {
			case mc.intr.none && len(impls) > 0:
				t.Errorf("intrinsics off, but calls reached stubs %v", impls)
			case !mc.intr.none && (mc.intr.everyLevel || mc.level.stubsAt4) && len(impls) == 0:
				t.Errorf("no call reached a stub")
			}
			t.Logf("stub variants: %v", impls)
			mu.Lock()
			ran++
			for _, v := range impls {
				variants[v] = true
			}
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		names := make([]string, 0, len(variants))
		for v := range variants {
			names = append(names, v)
		}
		slices.Sort(names)
		t.Logf("%d of %d configurations passed; stub variants reached: %v", ran, len(configs), names)
		if ran < len(configs) {
			return // a run of some subtests (-run) need not reach every variant
		}
		// Every variant the selection table has for this architecture and the
		// host can execute must have been reached by some configuration.
		checked := 0
		defer func() {
			t.Logf("%d stub variants the host can run, each checked for a configuration that reached it", checked)
		}()
		for _, r := range stubs.Rules() {
			if r.ID.Arch() != jdk.HostArch() || !cpu.Host().HasAll(r.Requires) {
				continue
			}
			checked++
			if v := r.ID.String(); !variants[v] {
				t.Errorf("no configuration reached stub variant %s (%s)", v, r.Condition)
			}
		}
	})
}

// TestMatrixThreads runs 8 application threads on one VM in mixed mode
// with background compilation and low thresholds, so compiles install new
// code while the threads' streams are in the middle of a message. Each
// stream is a multi-part encryption whose bytes must equal crypto/cipher's:
// a tier change between two calls of one stream must never change a byte.
// The test also checks that such changes happened (a stream that saw the
// provider's methods at different levels between its first and last call).
func TestMatrixThreads(t *testing.T) {
	for _, rel := range []jdk.Release{jdk.R25, jdk.R17, jdk.R8u} {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			if rel != jdk.R25 && !long() {
				t.Skip("JITSIM_LONG=1 runs every profile")
			}
			mc := matrixConfig{rel, matrixLevel{"mixed", lowThresholds("0.05"), false},
				matrixIntrinsics[0], matrixCPUs[0], "wall"}
			vm, log := newMatrixVM(t, mc)
			methods := vm.Table().Methods()
			levels := func() int {
				sum := 0
				for _, m := range methods {
					l, _, err := vm.Level(m.Key)
					if err == nil {
						sum = sum*5 + int(l)
					}
				}
				return sum
			}
			streams := 60
			if long() {
				streams = 400
			}
			var changed atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for th := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := rand.New(rand.NewPCG(uint64(th), 8))
					ctx := context.Background()
					for s := range streams {
						m := matrixModes[(th+s)%len(matrixModes)]
						n := 64 + r.IntN(2000)
						if m.blockOnly {
							n -= n % 16
						}
						c := cryptCase{mode: m, key: matrixBytes(r, 16), pt: matrixBytes(r, n), inOfs: r.IntN(8), outOfs: r.IntN(8)}
						if !strings.Contains(m.trans, "ECB") {
							c.iv = matrixBytes(r, 16)
						}
						if strings.Contains(m.trans, "GCM") {
							c.iv, c.aad = c.iv[:12], matrixBytes(r, 20)
						}
						for range 6 {
							c.splits = append(c.splits, 16*r.IntN(8)+r.IntN(3))
						}
						before := levels()
						if err := checkCase(ctx, vm, rel, c); err != nil {
							errs <- fmt.Errorf("thread %d stream %d: %w", th, s, err)
							return
						}
						if levels() != before {
							changed.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if changed.Load() == 0 {
				t.Errorf("no stream saw a tier change between its calls; the test checked nothing mid-stream")
			}
			t.Logf("%d of %d streams saw a tier change mid-stream; stubs reached: %v", changed.Load(), 8*streams, log.impls())
		})
	}
}
