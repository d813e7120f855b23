package scenario

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
)

// testJDKs are the profiles every scenario is run on.
var testJDKs = []jdk.Release{jdk.R8u, jdk.R17, jdk.R25}

// countObserver counts iterations per phase.
type countObserver struct {
	mu     sync.Mutex
	phases map[string]int
	bytes  int64
}

func (o *countObserver) Iteration(it Iteration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.phases == nil {
		o.phases = map[string]int{}
	}
	if it.Duration < 0 || it.Start < 0 {
		panic("negative time in an Iteration")
	}
	o.phases[it.Phase]++
	o.bytes += it.Bytes
}

// TestScenariosOnRealVM runs every scenario with small counts on the real
// tiers for JDK 8u, 17 and 25, with checkOutput forced (every output is
// compared with crypto/cipher), and checks the observer saw each iteration.
func TestScenariosOnRealVM(t *testing.T) {
	cases := []struct {
		name   string
		props  map[string]string
		args   []string
		phases map[string]int
		want   []string // regexps the output must match
	}{
		{"TestAESMain", map[string]string{"mode": "GCM", "msgSize": "1000"}, []string{"6", "3"},
			map[string]int{"encrypt-warmup": 3, "encrypt": 6, "decrypt-warmup": 3, "decrypt": 6},
			[]string{`TestAESEncode runtime was [0-9.E]+ ms`, `TestAESDecode runtime was`}},
		{"TestAESMain", map[string]string{"mode": "CBC", "encInputOffset": "1", "decOutputOffset": "3"}, []string{"4", "2"},
			map[string]int{"encrypt": 4, "decrypt": 4}, []string{`Encryption cipher algorithm: AES/CBC/PKCS5Padding`}},
		{"TestAESMain", map[string]string{"mode": "ECB", "keySize": "256", "paddingStr": "NoPadding", "msgSize": "640"}, []string{"3", "1"},
			map[string]int{"encrypt": 3}, []string{`Algorithm: AES\(256bit\)`}},
		{"TestAESMain", map[string]string{"mode": "CTR", "paddingStr": "NoPadding", "msgSize": "1001", "noReinit": "true", "encOutputOffset": "9"}, []string{"3", "1"},
			map[string]int{"decrypt": 3}, []string{`encOutputOffset=1,`}},
		{"AESGCMBench", map[string]string{"dataSize": "2048"}, []string{"1", "2", "3"},
			map[string]int{"warmup": 1, "measure": 2}, []string{`Result "AESGCMBench.encrypt":\n  [0-9.]+ ±\(99.9%\) [0-9.]+ ops/s`}},
		{"AESGCMBench", map[string]string{"op": "decryptMultiPart", "dataSize": "1000", "keyLength": "192"}, []string{"0", "2", "2"},
			map[string]int{"measure": 2}, []string{`AESGCMBench.decryptMultiPart`}},
		{"AESGCMBench", map[string]string{"op": "encryptMultiPart", "dataSize": "777"}, []string{"0", "1", "2"},
			map[string]int{"measure": 1}, []string{`Iteration   1: [0-9.]+ ops/s`}},
		{"AESGCMBench", map[string]string{"op": "decrypt", "dataSize": "8192"}, []string{"0", "1", "2"},
			map[string]int{"measure": 1}, nil},
		{"AESGCMUpdateAAD", map[string]string{"aadSize": "65536"}, []string{"1", "2", "1"},
			map[string]int{"warmup": 1, "measure": 2}, []string{`us/op`}},
		{"AESGCMUpdateAAD", map[string]string{"aadSize": "4096", "op": "encrypt"}, []string{"0", "2", "2"},
			map[string]int{"measure": 2}, nil},
		{"CBCThroughput", map[string]string{"threads": "2", "msgSize": "1024"}, []string{"1", "2", "3"},
			map[string]int{"warmup": 2, "measure": 4}, []string{`AES/CBC/PKCS5Padding 1024 B, 2 thread\(s\): +[0-9.]+ \+- +[0-9.]+ ops/sec`}},
		{"ParquetDecrypt", map[string]string{"pages": "40", "pageSize": "300"}, nil,
			map[string]int{"page": 40}, []string{`first 4 pages: [0-9.]+ MB/s per thread; last 4 pages`}},
	}
	for _, rel := range testJDKs {
		env := testEnv(t, rel)
		for _, tc := range cases {
			t.Run(rel.String()+"/"+tc.name+"/"+tc.props["mode"]+tc.props["op"], func(t *testing.T) {
				obs := &countObserver{}
				env := env
				env.Observer = obs
				out, err := runScenario(t, env, tc.name, tc.props, tc.args...)
				if err != nil {
					t.Fatalf("%v\noutput:\n%s", err, out)
				}
				for _, re := range tc.want {
					if !regexp.MustCompile(re).MatchString(out) {
						t.Errorf("output does not match %q:\n%s", re, out)
					}
				}
				for ph, n := range tc.phases {
					if obs.phases[ph] != n {
						t.Errorf("observer saw %d %q iterations, want %d (all: %v)", obs.phases[ph], ph, n, obs.phases)
					}
				}
			})
		}
	}
}

// seedShape is the console output of TestAESMain in the JDK-8073108 seed
// (Martin Doerr's post) with its numbers and settings turned into
// patterns; the provider line per profile is filled in.
func seedShape(t *testing.T, provider, algorithm string) *regexp.Regexp {
	t.Helper()
	b, err := os.ReadFile("testdata/seed_8073108.txt")
	if err != nil {
		t.Fatal(err)
	}
	var re strings.Builder
	re.WriteString(`\A`)
	num := regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	for _, line := range strings.SplitAfter(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "Encryption cipher provider: "), strings.HasPrefix(line, "Decryption cipher provider: "):
			kind, _, _ := strings.Cut(line, " ")
			re.WriteString(regexp.QuoteMeta(kind+" cipher provider: "+provider) + `\n`)
		case strings.Contains(line, "cipher algorithm: "):
			kind, _, _ := strings.Cut(line, " ")
			re.WriteString(regexp.QuoteMeta(kind+" cipher algorithm: "+algorithm) + `\n`)
		case strings.HasPrefix(line, "algorithm="):
			s := num.ReplaceAllString(regexp.QuoteMeta(strings.Replace(line, "PKCS5Padding", "PADDING", 1)), `[0-9]+`)
			re.WriteString(strings.Replace(s, "PADDING", "(PKCS5Padding|NoPadding)", 1))
		default:
			parts := num.Split(line, -1)
			for i, p := range parts {
				if i > 0 {
					re.WriteString(`[0-9]+(\.[0-9]+)?(E[0-9]+)?`)
				}
				re.WriteString(regexp.QuoteMeta(p))
			}
		}
	}
	re.WriteString(`\z`)
	return regexp.MustCompile(re.String())
}

// TestTestAESMainMatchesSeedShape lays TestAESMain's output beside the
// JDK-8073108 seed's console output, line shape by line shape.
func TestTestAESMainMatchesSeedShape(t *testing.T) {
	for _, tc := range []struct {
		jdk                 jdk.Release
		provider, algorithm string
	}{
		{jdk.R8u, "SunJCE version 1.8", "AES/GCM/PKCS5Padding"},
		{jdk.R17, "SunJCE version 17", "AES/GCM/NoPadding"},
		{jdk.R25, "SunJCE version 25", "AES/GCM/NoPadding"},
	} {
		t.Run(tc.jdk.String(), func(t *testing.T) {
			env := testEnv(t, tc.jdk)
			env.CheckOutput = false // the seed ran without checkOutput; bytes are checked below
			out, err := runScenario(t, env, "TestAESMain", map[string]string{"mode": "GCM", "msgSize": "10000"}, "5", "2")
			if err != nil {
				t.Fatal(err)
			}
			if re := seedShape(t, tc.provider, tc.algorithm); !re.MatchString(out) {
				t.Errorf("output does not have the seed's shape\npattern: %s\noutput:\n%s", re, out)
			}
			env.CheckOutput = true
			if _, err := runScenario(t, env, "TestAESMain", map[string]string{"mode": "GCM", "msgSize": "10000"}, "2", "0"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBadInput checks that bad properties, arguments and Java failures are
// clear errors, never panics.
func TestBadInput(t *testing.T) {
	env := testEnv(t, jdk.R25)
	cases := []struct {
		name  string
		props map[string]string
		args  []string
		want  string
	}{
		{"TestAESMain", nil, []string{"x"}, `argument iterations="x" is not an int`},
		{"TestAESMain", nil, []string{"1", "2", "3"}, `too many arguments`},
		{"TestAESMain", map[string]string{"mode": "OFB"}, []string{"1", "1"}, `java.security.NoSuchAlgorithmException: Cannot find any provider supporting AES/OFB/PKCS5Padding`},
		{"TestAESMain", map[string]string{"keySize": "100"}, []string{"1", "1"}, `java.security.InvalidKeyException: Invalid AES key length: 12 bytes`},
		{"TestAESMain", map[string]string{"encInputOffset": "1", "msgSize": "16"}, []string{"1", "1"}, `lastChunkSize=32 exceeds msgSize=16`},
		{"TestAESMain", map[string]string{"msgSize": "-1"}, nil, `property msgSize=-1 must be at least 0`},
		{"TestAESMain", map[string]string{"mode": "CBC", "paddingStr": "NoPadding", "msgSize": "15"}, []string{"1", "1"}, `javax.crypto.IllegalBlockSizeException`},
		{"AESGCMBench", map[string]string{"op": "sign"}, nil, `property op="sign"`},
		{"AESGCMBench", map[string]string{"keyLength": "100"}, []string{"0", "1", "1"}, `keyLength=100: want 128, 192 or 256`},
		{"AESGCMBench", nil, []string{"0", "0", "1"}, `must be at least 1`},
		{"CBCThroughput", map[string]string{"threads": "0"}, nil, `property threads=0 must be at least 1`},
		{"ParquetDecrypt", nil, []string{"5"}, `too many arguments`},
	}
	for _, tc := range cases {
		t.Run(tc.name+"/"+tc.want, func(t *testing.T) {
			_, err := runScenario(t, env, tc.name, tc.props, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.name) {
				t.Errorf("err = %v does not name the scenario", err)
			}
		})
	}
	t.Run("model clock on a wall-clock VM", func(t *testing.T) {
		env := env
		env.ClockKind = ClockModel
		if _, err := runScenario(t, env, "TestAESMain", nil, "1", "1"); err == nil || !strings.Contains(err.Error(), "ModelConfig") {
			t.Fatalf("err = %v, want one saying the VM needs ModelConfig", err)
		}
	})
	t.Run("no VM", func(t *testing.T) {
		if _, err := runScenario(t, Env{}, "TestAESMain", nil, "1", "1"); err == nil || !strings.Contains(err.Error(), "neither a VM") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestList checks the listing: sorted, documented, threads and
// checkOutput declared everywhere.
func TestList(t *testing.T) {
	want := []string{"AESGCMBench", "AESGCMUpdateAAD", "CBCThroughput", "ModeLoop", "ParquetDecrypt", "TestAESMain"}
	var got []string
	for _, s := range List() {
		got = append(got, s.Name)
		if s.Doc == "" || s.Args == "" {
			t.Errorf("%s: empty Doc or Args", s.Name)
		}
		for _, p := range []string{"threads", "checkOutput"} {
			if _, ok := s.Prop(p); !ok {
				t.Errorf("%s does not declare %s", s.Name, p)
			}
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("List() = %v, want %v", got, want)
	}
	// Every built-in but the JDK's test runs a shipped workload file.
	var files []string
	for _, s := range List() {
		if w := s.WorkloadFile(); w != nil {
			files = append(files, s.Name+"="+w.Path)
		}
	}
	if got := strings.Join(files, ","); got != "AESGCMBench=aesgcmbench.toml,AESGCMUpdateAAD=aesgcmupdateaad.toml,CBCThroughput=cbcthroughput.toml,ModeLoop=modeloop.toml,ParquetDecrypt=parquetdecrypt.toml" {
		t.Errorf("shipped workload files: %s", got)
	}
	if _, ok := Lookup("testaesmain"); ok {
		t.Errorf("Lookup is case-insensitive; Java class names are not")
	}
}

// TestJavaDouble checks Double.toString's forms.
func TestJavaDouble(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{4092.488144, "4092.488144"}, {18267.19484, "18267.19484"}, {12, "12.0"}, {0, "0.0"},
		{1.2345678e7, "1.2345678E7"}, {1e7, "1.0E7"}, {0.0005, "5.0E-4"}, {0.001, "0.001"},
	} {
		if got := javaDouble(tc.v); got != tc.want {
			t.Errorf("javaDouble(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

var _ jce.Invoker = threadInvoker{}

// vmObs records the VM it is handed and the levels seen.
type vmObs struct {
	vm *jrt.VM
	n  int
}

func (o *vmObs) VMStarted(vm *jrt.VM) { o.vm = vm }
func (o *vmObs) Iteration(Iteration) {
	if o.vm == nil {
		panic("Iteration before VMStarted")
	}
	o.n++
}

// TestVMObserverAndProps checks that a VMObserver gets the run's VM first
// and that PropsFrom keeps the last -D definition.
func TestVMObserverAndProps(t *testing.T) {
	env := testEnv(t, jdk.R25)
	o := &vmObs{}
	env.Observer = o
	props := PropsFrom([]flags.Property{{Name: "mode", Value: "CBC"}, {Name: "mode", Value: "CTR"}, {Name: "msgSize", Value: "100"}})
	if props["mode"] != "CTR" {
		t.Fatalf("PropsFrom kept mode=%q", props["mode"])
	}
	out, err := runScenario(t, env, "TestAESMain", props, "2", "1")
	if err != nil {
		t.Fatal(err)
	}
	if o.vm != env.VM || o.n != 6 || !strings.Contains(out, "mode=CTR, paddingStr=NoPadding, msgSize=100,") {
		t.Errorf("vm %p (want %p), %d iterations (want 6), output:\n%s", o.vm, env.VM, o.n, out)
	}
}

// TestJavaPropertySemantics checks Integer.getInteger and Boolean.getBoolean
// as java 17.0.15 printed them for each value (System.setProperty, then
// Integer.getInteger("p", 77) and Boolean.getBoolean("b")).
func TestJavaPropertySemantics(t *testing.T) {
	ints := map[string]string{"0x10": "16", "#10": "16", "010": "8", "-0x10": "-16", "+5": "5", " 5": "77", "": "77",
		"2147483648": "77", "-2147483648": "-2147483648", "0": "0", "08": "77", "-": "77", "0x": "77", "--5": "77",
		"+-5": "77", "0X1f": "31", "-0": "0", "1_000": "77"}
	for v, want := range ints {
		got := "77"
		if n, ok := javaDecode(v, 32); ok {
			got = strconv.FormatInt(n, 10)
		}
		if got != want {
			t.Errorf("Integer.getInteger of %q: %s, java %s", v, got, want)
		}
	}
	s := TestAESMain
	r := &runner{s: &s}
	for v, want := range map[string]bool{"true": true, "TRUE": true, "yes": false, "1": false, "": false, " true": false} {
		r.props = map[string]string{"checkOutput": v}
		if got, _ := r.boolProp("checkOutput"); got != want {
			t.Errorf("Boolean.getBoolean of %q: %v, java %v", v, got, want)
		}
	}
	// TestAESBase: a malformed or empty size is the default; an offset is taken mod 8.
	r.props = map[string]string{"msgSize": "ten", "encOutputOffset": "", "decOutputOffset": "9"}
	p, err := readAESParams(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.msgSize != 646 || p.encOutputOffset != 0 || p.decOutputOffset != 1 {
		t.Errorf("msgSize %d encOutputOffset %d decOutputOffset %d, want 646 0 1", p.msgSize, p.encOutputOffset, p.decOutputOffset)
	}
}

// TestUnreadProperty checks the note about -D properties a scenario never
// reads: a suggestion for a near miss, silence for the standard namespaces.
func TestUnreadProperty(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		unread     bool
	}{
		{"msgSIze", "msgSize", true}, {"msgsize", "msgSize", true}, {"mode", "", false},
		{"java.io.tmpdir", "", false}, {"user.home", "", false}, {"frobnicate", "", true}, {"encOutputOfset", "encOutputOffset", true},
	} {
		unread, s := TestAESMain.UnreadProperty(tc.name)
		if unread != tc.unread || s != tc.want {
			t.Errorf("%s: unread %v suggestion %q, want %v %q", tc.name, unread, s, tc.unread, tc.want)
		}
	}
}
