package runtime

import (
	"bytes"
	"context"
	"crypto/aes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"go.uber.org/zap/zaptest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fakeTier is a Tier whose code is a Go function: enough to test the
// policy wiring, queues and dispatch without wazero. Every method's "Java
// code" is body(method, level, router, args).
type fakeTier struct {
	name     string
	levels   []Level
	compiles atomic.Int64
	body     func(ctx context.Context, m *Method, level Level, r Router, args []Arg) (int64, error)
}

func (t *fakeTier) Name() string    { return t.name }
func (t *fakeTier) Levels() []Level { return t.levels }
func (t *fakeTier) Compile(_ context.Context, req CompileRequest) (Code, error) {
	t.compiles.Add(1)
	return &fakeCode{t: t, m: req.Method, level: req.Level, r: req.Router}, nil
}

type fakeCode struct {
	t     *fakeTier
	m     *Method
	level Level
	r     Router
	calls atomic.Uint64
}

func (c *fakeCode) Method() *Method            { return c.m }
func (c *fakeCode) Level() Level               { return c.level }
func (c *fakeCode) CompileTime() time.Duration { return 0 }
func (c *fakeCode) Invoke(ctx context.Context, args []Arg) (int64, error) {
	if err := bytecode.CheckArgs(c.m, args); err != nil {
		return 0, err
	}
	c.calls.Add(1)
	return c.t.body(ctx, c.m, c.level, c.r, args)
}
func (c *fakeCode) ResumeOSR(context.Context, *OSRState) (int64, error) {
	return 0, errors.New("fake code has no OSR")
}
func (c *fakeCode) Counters() Counters          { return Counters{} }
func (c *fakeCode) Profile() Profile            { return Profile{} }
func (c *fakeCode) Close(context.Context) error { return nil }
func (c *fakeCode) String() string              { return fmt.Sprintf("%s@%d", c.m, c.level) }
func (t *fakeTier) String() string              { return t.name }
func fakeTiers(body func(context.Context, *Method, Level, Router, []Arg) (int64, error)) []Tier {
	return []Tier{
		&fakeTier{name: "interp", levels: []Level{LevelNone}, body: body},
		&fakeTier{name: "c1", levels: []Level{LevelSimple, LevelLimitedProfile, LevelFullProfile}, body: body},
		&fakeTier{name: "c2", levels: []Level{LevelFullOptimization}, body: body},
	}
}

// javaMarker is what the fake Java body of an intrinsic candidate writes:
// recognisably not AES.
const javaMarker = 0xAA

// javaRuns counts how often a fake Java body of an intrinsic candidate ran.
type javaRuns struct{ n atomic.Int64 }

// body returns a fake body: intrinsic candidates fill their output with
// javaMarker (and count), other methods return 0.
func (j *javaRuns) body(_ context.Context, m *Method, _ Level, _ Router, args []Arg) (int64, error) {
	if m.Intrinsic == "" {
		return 0, nil
	}
	j.n.Add(1)
	for i, p := range m.Params {
		if p.Dir != 0 && args[i].Kind == 4 { // Out/InOut byte[]
			for k := range args[i].Data {
				args[i].Data[k] = javaMarker
			}
		}
	}
	return 0, nil
}

func parseFlags(t testing.TB, rel jdk.Release, args ...string) *flags.Set {
	t.Helper()
	s, _, err := flags.Parse(flags.Options{JDK: rel, Arch: jdk.AMD64, Args: args})
	if err != nil {
		t.Fatalf("flags %q: %v", args, err)
	}
	return s
}

func hostModel(t testing.TB) cpu.Model {
	t.Helper()
	m, err := cpu.Lookup("host")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newTestVM(t testing.TB, cfg Config) *VM {
	t.Helper()
	vm, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := vm.Close(); err != nil {
			t.Error(err)
		}
	})
	return vm
}

// TestDispatchByCallerLevel checks THE dispatch point with fake tiers: a
// call to AESCrypt.implEncryptBlock goes to the stub only from a level-4
// caller in stock HotSpot, from every level with the Haley flag, and never
// when a flag, DisableIntrinsic or the CPU model turns it off.
func TestDispatchByCallerLevel(t *testing.T) {
	if !cpu.Host().Has(cpu.AES) {
		t.Skip("host has no AES-NI: the stub path cannot be told from the model here")
	}
	host := hostModel(t)
	noAES := host
	noAES.Name, noAES.Features = "host-without-aes", host.Features.Without(cpu.AES)
	all := []Level{0, 1, 2, 3, 4}
	tests := []struct {
		name      string
		jdk       jdk.Release
		args      []string
		model     cpu.Model
		stubAt    []Level
		wantFlag  string
		callerKey string
	}{
		{"stock-25", jdk.R25, nil, host, []Level{4}, HaleyFlag, "CounterMode.implCrypt"},
		{"stock-17", jdk.R17, nil, host, []Level{4}, HaleyFlag, "CounterMode.implCrypt"},
		{"stock-8", jdk.R8, nil, host, []Level{4}, HaleyFlag, "GCTR.update"},
		{"haley-25", jdk.R25, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + HaleyFlag}, host, all, "", "CounterMode.implCrypt"},
		{"haley-8", jdk.R8, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + HaleyFlag}, host, all, "", "GCTR.update"},
		{"no-aes-intrinsics", jdk.R25, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESIntrinsics"}, host, nil, "UseAESIntrinsics", "CounterMode.implCrypt"},
		{"no-aes-intrinsics-8", jdk.R8, []string{"-XX:-UseAESIntrinsics"}, host, nil, "UseAESIntrinsics", "GCTR.update"},
		{"disable-intrinsic", jdk.R25, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic=_aescrypt_encryptBlock"}, host, nil, "DisableIntrinsic", "CounterMode.implCrypt"},
		{"control-intrinsic", jdk.R17, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:ControlIntrinsic=-_aescrypt_encryptBlock"}, host, nil, "ControlIntrinsic", "CounterMode.implCrypt"},
		{"haley-but-disabled", jdk.R25, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + HaleyFlag, "-XX:+UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic=_aescrypt_encryptBlock"}, host, nil, "DisableIntrinsic", "CounterMode.implCrypt"},
		{"no-inline-natives", jdk.R25, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-InlineNatives"}, host, nil, "InlineNatives", "CounterMode.implCrypt"},
		{"cpu-without-aes", jdk.R25, nil, noAES, nil, "UseAESIntrinsics", "CounterMode.implCrypt"},
		{"cpu-without-aes-haley", jdk.R25, []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + HaleyFlag}, noAES, nil, "UseAESIntrinsics", "CounterMode.implCrypt"},
	}
	key := []byte("0123456789abcdef")
	ref, _ := aes.NewCipher(key)
	in := []byte("sixteen byte msg")
	want := make([]byte, 16)
	ref.Encrypt(want, in)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var java javaRuns
			set := parseFlags(t, tt.jdk, tt.args...)
			vm := newTestVM(t, NewConfig().WithFlags(set).WithCPU(tt.model).WithTiers(fakeTiers(java.body)...).
				WithLogger(zaptest.NewLogger(t)))
			callee, err := vm.Method("AESCrypt.implEncryptBlock")
			if err != nil {
				t.Fatal(err)
			}
			caller, err := vm.Method(tt.callerKey)
			if err != nil {
				t.Fatal(err)
			}
			xk := expandKey(t, key)
			for _, level := range all {
				wantStub := false
				for _, l := range tt.stubAt {
					wantStub = wantStub || l == level
				}
				out := make([]byte, 16)
				before := java.n.Load()
				args := []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.BytesArg(out), bytecode.IntArg(0)}
				if _, err := vm.Route(context.Background(), Site{Caller: caller, Level: level, Callee: callee}, args); err != nil {
					t.Fatalf("level %d: %v", level, err)
				}
				ranJava := java.n.Load() != before
				switch {
				case wantStub && (ranJava || !bytes.Equal(out, want)):
					t.Errorf("level %d: want the stub (AES output), got java=%v out=%x", level, ranJava, out)
				case !wantStub && (!ranJava || out[0] != javaMarker):
					t.Errorf("level %d: want the Java code, got java=%v out=%x", level, ranJava, out)
				}
				d, err := vm.Explain("AESCrypt::"+callee.Name, level)
				if err != nil {
					t.Fatal(err)
				}
				if d.Stub != wantStub {
					t.Errorf("level %d: Explain says stub=%v (%s), dispatch did %v", level, d.Stub, d, wantStub)
				}
				if !wantStub && level == 4 && d.Flag != tt.wantFlag {
					t.Errorf("level 4: deciding flag %q, want %q (%s)", d.Flag, tt.wantFlag, d)
				}
			}
		})
	}
}

// expandKey is the AES key schedule as the JDK's AESCrypt K (stubs/aes's
// contract), computed with the stubs' own expansion.
func expandKey(t testing.TB, key []byte) []uint32 {
	t.Helper()
	enc, _, err := aesExpand(key)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestIntrinsicTable fails on any empty or incomplete row (the identity
// columns, in the method table: TestIntrinsicsAgreeWithMethodTable).
func TestIntrinsicTable(t *testing.T) {
	for _, id := range Intrinsics() {
		r := id.Row()
		t.Run(r.HotSpotName, func(t *testing.T) {
			missing := []string{}
			for name, empty := range map[string]bool{
				"GoName": r.GoName == "", "HotSpotName": r.HotSpotName == "", "GateDoc": r.GateDoc == "",
				"PredicateDoc": r.PredicateDoc == "", "Stub": r.Stub == "", "Levels": r.Levels == 0, "HaleyLevels": r.HaleyLevels == 0,
				"Adapt": r.Adapt == nil, "Doc": r.Doc == "",
			} {
				if empty {
					missing = append(missing, name)
				}
			}
			if len(missing) > 0 {
				t.Errorf("row has empty fields: %s", strings.Join(missing, ", "))
			}
			if !strings.HasPrefix(r.HotSpotName, "_") {
				t.Errorf("HotSpot ID %q does not start with _", r.HotSpotName)
			}
			if got, ok := LookupIntrinsic(r.HotSpotName); !ok || got != id {
				t.Errorf("LookupIntrinsic(%q) = %v, %v", r.HotSpotName, got, ok)
			}
			if r.Predicate != nil && !r.Predicated {
				t.Errorf("argument predicate without Predicated")
			}
		})
	}
}

// routeMatrixCases are the flag lines of the route matrix golden file.
var routeMatrixCases = []struct {
	name string
	args []string
}{
	{"defaults", nil},
	{"haley", []string{"-XX:+UnlockExperimentalVMOptions", "-XX:+" + HaleyFlag}},
	{"-UseAESIntrinsics", []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESIntrinsics"}},
	{"-UseAESCTRIntrinsics", []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESCTRIntrinsics"}},
	{"-UseGHASHIntrinsics", []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseGHASHIntrinsics"}},
	{"UseAVX=2", []string{"-XX:UseAVX=2"}},
	{"-InlineNatives", []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-InlineNatives"}},
}

// TestRouteMatrix is the golden route matrix: level × intrinsic × flag
// line × JDK profile → implementation, on the icelake-server model (a
// fixed feature set, so the file does not depend on the host). Run with
// -update to rewrite testdata/route_matrix.golden.
func TestRouteMatrix(t *testing.T) {
	model, err := cpu.Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("# jitsim route matrix (runtime TestRouteMatrix, -update to rewrite): CPU model icelake-server\n")
	sb.WriteString("# jdk flags intrinsic: the implementation a call from levels 0 1 2 3 4 runs (java = the callee's own code)\n")
	var java javaRuns
	for _, j := range jdk.All() {
		for _, c := range routeMatrixCases {
			args := c.args
			if j <= jdk.R8u {
				args = slicesDeleteDiag(args)
			}
			set, _, err := flags.Parse(flags.Options{JDK: j, Arch: jdk.AMD64, Args: args})
			if err != nil {
				fmt.Fprintf(&sb, "%s %s: flags rejected: %v\n", j, c.name, err)
				continue
			}
			vm := newTestVM(t, NewConfig().WithFlags(set).WithCPU(model).WithTiers(fakeTiers(java.body)...))
			for _, id := range Intrinsics() {
				fmt.Fprintf(&sb, "%-3s %-21s %-37s", j, c.name, id)
				for l := LevelNone; l <= LevelFullOptimization; l++ {
					d, err := vm.Explain(id.String(), l)
					if err != nil {
						t.Fatal(err)
					}
					if d.Stub {
						fmt.Fprintf(&sb, " %s", d.Variant.Name)
					} else {
						fmt.Fprintf(&sb, " java")
					}
				}
				d, _ := vm.Explain(id.String(), LevelFullOptimization)
				fmt.Fprintf(&sb, "   # %s\n", d.Reason)
			}
		}
	}
	golden(t, "route_matrix.golden", sb.String())
}

// slicesDeleteDiag drops -XX:+UnlockDiagnosticVMOptions for JDK 8, where
// the intrinsic flags are product flags (the option exists but is not needed).
func slicesDeleteDiag(args []string) []string {
	var out []string
	for _, a := range args {
		if a != "-XX:+UnlockDiagnosticVMOptions" {
			out = append(out, a)
		}
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := 0; i < len(wl) || i < len(gl); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Errorf("%s line %d:\n got  %q\n want %q", name, i+1, g, w)
				break
			}
		}
	}
}

// TestPolicyWiring drives a method with fake tiers and checks the level
// sequence 0 → 3 → 4 the policy asks for, with -Xbatch making the
// requester wait, and the PrintCompilation lines.
func TestPolicyWiring(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantLevel Level
		wantLines int
	}{
		{"batch", []string{"-Xbatch", "-XX:+PrintCompilation"}, 4, 3},
		{"xint", []string{"-Xint", "-XX:+PrintCompilation"}, 0, 0},
		{"stop-at-1", []string{"-Xbatch", "-XX:TieredStopAtLevel=1", "-XX:+PrintCompilation"}, 1, 1},
		{"xcomp", []string{"-Xcomp", "-XX:+PrintCompilation"}, 4, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			var java javaRuns
			vm := newTestVM(t, NewConfig().WithFlags(parseFlags(t, jdk.R17, tt.args...)).
				WithTiers(fakeTiers(java.body)...).WithOutput(&out))
			m, _ := vm.Method("GHASH.processBlock")
			st := make([]uint64, 2)
			h := []uint64{1, 2}
			data := make([]byte, 16)
			for range 20000 {
				if _, err := vm.Call(context.Background(), m, []Arg{bytecode.BytesArg(data), bytecode.IntArg(0), bytecode.LongsArg(st), bytecode.LongsArg(h)}); err != nil {
					t.Fatal(err)
				}
			}
			if tt.name != "batch" && tt.name != "stop-at-1" && tt.name != "xcomp" {
				// background compiles: give the threads a moment to finish
				_ = vm.Close()
			}
			level, _, _ := vm.Level("GHASH.processBlock")
			if level != tt.wantLevel {
				t.Errorf("level %d, want %d; output:\n%s", level, tt.wantLevel, out.String())
			}
			lines := nonEmpty(out.String())
			if len(lines) != tt.wantLines {
				t.Errorf("%d PrintCompilation lines, want %d:\n%s", len(lines), tt.wantLines, out.String())
			}
			for _, l := range lines {
				if !strings.Contains(l, "com.sun.crypto.provider.GHASH::processBlock (") {
					t.Errorf("unexpected line %q", l)
				}
				if strings.Contains(tt.name, "batch") && !strings.Contains(l, "made not entrant") && !strings.Contains(l, " b ") {
					t.Errorf("blocking compile without b: %q", l)
				}
			}
		})
	}
}

func nonEmpty(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// syncBuffer is a bytes.Buffer safe for the compiler threads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestConcurrentDispatch runs 8 application threads through the dispatch
// point while the compiler threads install code (run it with -race).
func TestConcurrentDispatch(t *testing.T) {
	var java javaRuns
	vm := newTestVM(t, NewConfig().WithFlags(parseFlags(t, jdk.R25)).WithTiers(fakeTiers(java.body)...))
	callee, _ := vm.Method("AESCrypt.implEncryptBlock")
	caller, _ := vm.Method("CounterMode.implCrypt")
	key := []byte("0123456789abcdef")
	xk := expandKey(t, key)
	ref, _ := aes.NewCipher(key)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for th := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := make([]byte, 16)
			out := make([]byte, 16)
			want := make([]byte, 16)
			for i := range 3000 {
				in[0], in[1] = byte(th), byte(i)
				level := Level(i % 5)
				if _, err := vm.Route(context.Background(), Site{Caller: caller, Level: level, Callee: callee},
					[]Arg{bytecode.IntsArg(xk), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.BytesArg(out), bytecode.IntArg(0)}); err != nil {
					errs <- err
					return
				}
				if level == LevelFullOptimization && cpu.Host().Has(cpu.AES) {
					ref.Encrypt(want, in)
					if !bytes.Equal(out, want) {
						errs <- fmt.Errorf("thread %d call %d: %x, want %x", th, i, out, want)
						return
					}
				}
				if _, err := vm.Call(context.Background(), caller, []Arg{bytecode.IntsArg(xk), bytecode.BytesArg(make([]byte, 16)), bytecode.BytesArg(make([]byte, 16)),
					bytecode.IntsArg([]uint32{16}), bytecode.BytesArg(in), bytecode.IntArg(0), bytecode.IntArg(16), bytecode.BytesArg(out), bytecode.IntArg(0)}); err != nil {
					errs <- err
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
	if l, _, _ := vm.Level("CounterMode.implCrypt"); l == LevelNone {
		t.Errorf("24000 calls left CounterMode.implCrypt interpreted")
	}
}

func aesExpand(key []byte) (enc, dec []uint32, err error) { return stubaes.ExpandKey(key) }

// TestCompileCommandExcludes runs an excluded method hot: it is never
// compiled (it stays at level 0), PrintCompilation shows java's two lines
// for each refused request (C1's level, then C2's), and
// CompileCommand=quiet silences them.
func TestCompileCommandExcludes(t *testing.T) {
	const exclude = "-XX:CompileCommand=exclude,com/sun/crypto/provider/GHASH.processBlock"
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"printed", []string{"-Xbatch", "-XX:+PrintCompilation", exclude}, []string{
			"### Excluding compile: static com.sun.crypto.provider.GHASH::processBlock",
			"made not compilable on level 3  com.sun.crypto.provider.GHASH::processBlock (37 bytes)   excluded by CompileCommand",
			"### Excluding compile: static com.sun.crypto.provider.GHASH::processBlock",
			"made not compilable on level 4  com.sun.crypto.provider.GHASH::processBlock (37 bytes)   excluded by CompileCommand",
		}},
		{"quiet", []string{"-Xbatch", "-XX:+PrintCompilation", "-XX:CompileCommand=quiet", exclude}, nil},
		{"compileonly", []string{"-Xbatch", "-XX:+PrintCompilation", "-XX:CompileCommand=quiet", "-XX:CompileOnly=*.blockMult"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			var java javaRuns
			vm := newTestVM(t, NewConfig().WithFlags(parseFlags(t, jdk.R17, tt.args...)).
				WithTiers(fakeTiers(java.body)...).WithOutput(&out))
			m, _ := vm.Method("GHASH.processBlock")
			st, h, data := make([]uint64, 2), []uint64{1, 2}, make([]byte, 16)
			for range 20000 {
				if _, err := vm.Call(context.Background(), m, []Arg{bytecode.BytesArg(data), bytecode.IntArg(0), bytecode.LongsArg(st), bytecode.LongsArg(h)}); err != nil {
					t.Fatal(err)
				}
			}
			if level, _, _ := vm.Level("GHASH.processBlock"); level != LevelNone {
				t.Errorf("level %d, want 0; output:\n%s", level, out.String())
			}
			if got := nonEmpty(out.String()); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("output:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
