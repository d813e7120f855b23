package scenario

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// everyFeature is a small workload that uses every phase feature once.
const everyFeature = `title = "every feature"
seed = 7
threads = 2
start = "staggered"
stagger = "10us"

[[phase]]
name = "gcm"
transformation = "AES/GCM/NoPadding"
key_size = 256
message_size = {lognormal = {median = 100, sigma = 1.0, min = 1, max = 300}}
aad_size = [0, 13]
chunk = 64
decrypt = 0.5
corrupt_tag = 0.3
count = 12
think = "1us"
iv = "random"
iv_length = 7
tag_length = 96
output = "separate"
in_offset = 3
out_offset = 5

[[phase]]
name = "cbc"
transformation = "AES/CBC/PKCS5Padding"
message_size = {histogram = [[0, 1], [17, 2], [64, 1]]}
cipher = "new"
decrypt = 0.5
output = "in-place"
in_offset = 2
count = 8

[[phase]]
name = "ctr"
transformation = "AES/CTR/NoPadding"
key_size = 192
message_size = {uniform = [1, 99]}
cipher = "reuse"
threads = 1
duration = "1ms"

[[phase]]
name = "ecb"
transformation = "AES/ECB/NoPadding"
message_size = [16, 48]
decrypt = 1
cipher = "reuse"
chunk = 16
count = 4

[[phase]]
name = "gcm-dec-inplace"
transformation = "AES/GCM/NoPadding"
message_size = 40
decrypt = 1
corrupt_tag = 0.5
output = "in-place"
count = 6
`

func TestWorkloadEveryFeature(t *testing.T) {
	w, err := ParseWorkload("every.toml", []byte(everyFeature))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []jdk.Release{jdk.R8u, jdk.R17, jdk.R25} {
		t.Run(rel.String(), func(t *testing.T) {
			var out lockedBuffer
			var its int
			env := testEnv(t, rel)
			env.Observer = ObserverFunc(func(Iteration) { its++ })
			if err := w.Scenario().Run(context.Background(), env, nil, nil, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			s := out.String()
			for _, want := range []string{"phase gcm: 2 thread(s)", "operations 24,", "phase cbc:", "phase ctr: 1 thread(s)",
				"phase ecb:", "operations 8,", "latency us: p50", "corrupted tags rejected"} {
				if !strings.Contains(s, want) {
					t.Errorf("output lacks %q:\n%s", want, s)
				}
			}
			if its < 24+16+8+12 {
				t.Errorf("observer saw %d operations", its)
			}
		})
	}
}

func TestWorkloadErrors(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmesage_size = 3\n", `wl.toml:4: unknown key "mesage_size" (did you mean "message_size"?)`},
		{"thraeds = 2\n[[phase]]\n", `wl.toml:1: unknown key "thraeds" (did you mean "threads"?)`},
		{"[[phase]]\ntransformation = \"AES/XTS/NoPadding\"\ncount = 1\n", `wl.toml:2: phase 1: transformation "AES/XTS/NoPadding"`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = -1\n", `wl.toml:4: phase 1: message_size: size -1 is negative`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = 999999999\n", `exceeds jitsim's message size cap`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = {histogram = [[1, 0]]}\n", `histogram weights sum to 0`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = {lognormal = {median = 10, sigma = 1}}\n", `lognormal needs max`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = {unifrom = [1, 2]}\n", `unknown distribution "unifrom" (did you mean "uniform"?)`},
		{"[[phase]]\ntransformation = \"AES/CBC/NoPadding\"\ncount = 1\nmessage_size = 17\n", `not a whole number of 16-byte blocks`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nthreads = 1000\n", `wl.toml:4: phase 1: threads = 1000: want 1 to 256`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\n", `give count = N (operations per thread), total = N (in all) or duration`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\nduration = \"25h\"\n", `over the limit`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\niv = \"fixed\"\n", `GCM refuses to re-init encryption`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ncipher = \"reuse\"\n", `GCM refuses to encrypt twice`},
		{"[[phase]]\ntransformation = \"AES/CTR/NoPadding\"\ncount = 1\naad_size = 4\n", `takes no AAD`},
		{"[[phase]]\ntransformation = \"AES/CTR/NoPadding\"\ncount = 1\ncorrupt_tag = 0.1\ndecrypt = 1\n", `corrupt_tag needs GCM decryptions`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ntag_length = 64\n", `tag_length = 64`},
		{"[[phase]]\ntransformation = \"AES/ECB/PKCS5Padding\"\ncount = 1\niv_length = 12\n", `takes no IV`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ndecrypt = 1.5\n", `decrypt = 1.5`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nout_offset = 3\n", `out_offset needs output`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = \"x\"\n", `wl.toml:3:`},
		{"title = \n", `wl.toml:1:`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nparts = 2000\n", `wl.toml:4: phase 1: parts = 2000: want 1 (one doFinal) to 1024`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nparts = 2\nchunk = 16\n", `not both`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nprepare = \"threads\"\n", `wl.toml:4: phase 1: prepare: "threads" is not one of writer, thread`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessages = 3\n", `wl.toml:4: phase 1: messages is the decryptions' prepared messages; this phase has none`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ndecrypt = 1\nmessages = -3\n", `messages = -3: want 1 to 100000`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ndecrypt = 1\nmessage_size = 16000000\nmessages = 100\n", `100 messages of up to 16000000 bytes are over`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ntotal = 5\n", `wl.toml:3: phase 1: give one of count, total and duration`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ntotal = -5\n", `wl.toml:3: phase 1: total = -5: want 1 to 1000000000`},
		{"[[phase]]\ntransformation = \"AES/CBC/NoPadding\"\ncount = 1\ndecrypt = 1\ncipher = \"new\"\nprepare = \"cipher\"\n", `wl.toml:6: phase 1: prepare = "cipher" encrypts with the thread's one Cipher: it needs cipher = "reinit" or "reuse" (cipher = "new")`},
		{"[[phase]]\ntransformation = \"AES/CBC/NoPadding\"\ncount = 1\ncipher = \"reuse\"\ninit_at_setup = true\n", `wl.toml:5: phase 1: init_at_setup initialises a re-initialised Cipher once more at setup: it needs cipher = "reinit" (cipher = "reuse" initialises its Cipher at setup already)`},
		{"[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\ndecrypt = 1\niv = \"fixed\"\nprepare = \"cipher\"\n", `wl.toml:6: phase 1: prepare = "cipher" with a fixed IV encrypts every message with one key and IV, which GCM refuses after the first: give messages = 1`},
		{"threads = 200\n[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 1\nmessage_size = 16000000\n", `wl.toml:2: phase 1: 200 thread(s) × 48000128 bytes of arrays`},
	} {
		_, err := ParseWorkload("wl.toml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseWorkload(%q) = %v, want %q", tc.file, err, tc.want)
		}
		var fe *FileError
		if err != nil && !errors.As(err, &fe) {
			t.Errorf("ParseWorkload(%q): error %T is not a *FileError", tc.file, err)
		}
	}
}

// TestWorkloadModelClock runs the every-feature workload twice on the
// model clock: byte-identical output, think time and staggered starts
// included, and virtual time that moves by at least the think time.
func TestWorkloadModelClock(t *testing.T) {
	w, err := ParseWorkload("every.toml", []byte(everyFeature))
	if err != nil {
		t.Fatal(err)
	}
	first := modelRunScenario(t, "skylake-avx2", jdk.R25, []string{"-XX:+PrintCompilation"}, 0, w.Scenario(), nil)
	if again := modelRunScenario(t, "skylake-avx2", jdk.R25, []string{"-XX:+PrintCompilation"}, 0, w.Scenario(), nil); again != first {
		t.Errorf("two model-clock runs differ:\n%s\n---\n%s", first, again)
	}
	if !strings.Contains(first, "left the unverified plaintext in the in-place array, as JDK 25") {
		t.Errorf("JDK 25 in-place bad-tag decryption not reported:\n%s", first)
	}
	out17 := modelRunScenario(t, "skylake-avx2", jdk.R17, nil, 0, w.Scenario(), nil)
	if strings.Contains(out17, "left the unverified") || !strings.Contains(out17, "no plaintext released") {
		t.Errorf("JDK 17 verifies GCM tags before it decrypts; got:\n%s", out17)
	}
}

// TestWorkloadBench runs a workload as a benchmark of its last phase, and
// as the batches `jitsim bench` asks for, with --threads overriding the
// file's threads.
func TestWorkloadBench(t *testing.T) {
	w, err := ParseWorkload("every.toml", []byte(everyFeature))
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t, jdk.R17)
	var out lockedBuffer
	if err := w.Scenario().Run(context.Background(), env, nil, []string{"1", "2", "3"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if s := out.String(); !strings.Contains(s, "phase gcm-dec-inplace") || !strings.Contains(s, "Iteration   2:") {
		t.Errorf("benchmark output:\n%s", s)
	}
	env.Threads = 3
	bs, err := w.Scenario().RunBatch(context.Background(), env, nil, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 3 {
		t.Fatalf("RunBatch on 3 threads: %d batches", len(bs))
	}
	for _, b := range bs {
		if b.Ops != 4 || b.Bytes != 4*40 {
			t.Errorf("batch %+v: want 4 operations of 40 bytes", b)
		}
	}
}

// TestWorkloadTotal splits total operations over the threads, operation i on thread i mod
// threads, and a resolved trace lists the same split.
func TestWorkloadTotal(t *testing.T) {
	w, err := ParseWorkload("total.toml", []byte("threads = 3\n[[phase]]\ntransformation = \"AES/CTR/NoPadding\"\nmessage_size = 32\ntotal = 7\n"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	per := map[int]int{}
	modelRunObserved(t, "skylake-avx2", jdk.R25, w.Scenario(), ObserverFunc(func(it Iteration) {
		mu.Lock()
		per[it.Thread]++
		mu.Unlock()
	}))
	if per[0] != 3 || per[1] != 2 || per[2] != 2 {
		t.Fatalf("operations per thread %v, want 3, 2, 2", per)
	}
	res, err := w.Resolve(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int64{}
	for _, c := range res.Expected() {
		got[c.Thread] = c.Ops
	}
	if res.Ops != 7 || got[0] != 3 || got[1] != 2 || got[2] != 2 {
		t.Fatalf("resolved %d operations, per thread %v", res.Ops, got)
	}
}

// TestModeLoopIsItsWorkloadFile: ModeLoop benchmarks modeloop.toml's phase —
// the same times on the model clock, the result lines named by the scenario — and
// init_at_setup moves the key expansion of a re-initialised Cipher out of its first
// operation.
func TestModeLoopIsItsWorkloadFile(t *testing.T) {
	w, err := LoadWorkload("../examples/workloads/modeloop.toml")
	if err != nil {
		t.Fatal(err)
	}
	scores := func(out string) []string {
		var s []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Iteration") {
				s = append(s, l)
			}
		}
		return s
	}
	builtIn := modelRun(t, "icelake-server", jdk.R17, nil, 1, "ModeLoop", map[string]string{"dataSize": "1024"}, "1", "2", "20")
	file := modelRunScenario(t, "icelake-server", jdk.R17, nil, 1, w.Scenario(), map[string]string{"msgSize": "1024"}, "1", "2", "20")
	if a, b := scores(builtIn), scores(file); len(a) != 3 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("ModeLoop:\n%s\nmodeloop.toml:\n%s", builtIn, file)
	}
	if !strings.Contains(builtIn, `Result "ModeLoop.GCM.encrypt"`) {
		t.Errorf("result line:\n%s", builtIn)
	}
	first := func(w *Workload) time.Duration {
		var d time.Duration
		obs := ObserverFunc(func(it Iteration) {
			if it.Index == 0 {
				d = it.Duration
			}
		})
		modelRunWith(t, "icelake-server", jdk.R17, nil, 1, w.Scenario(), map[string]string{"maxOps": "3", "msgSize": "1024"}, obs)
		return d
	}
	without, err := w.edited(func(p *Phase) { p.InitAtSetup = false })
	if err != nil {
		t.Fatal(err)
	}
	if a, b := first(w), first(without); a <= 0 || a >= b {
		t.Errorf("first operation %v with init_at_setup, %v without: want the key expanded at setup", a, b)
	}
	// The replayer is told to initialise its Cipher at setup too.
	res, err := w.Resolve(t.TempDir(), map[string]string{"maxOps": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(res.Trace); err != nil || !strings.Contains(string(data), " setup_init=encrypt name=encrypt\n") {
		t.Errorf("resolved trace: %v\n%s", err, data)
	}
}
