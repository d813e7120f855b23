package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// smallTrace has two threads, every transformation, both directions,
// repeated decryption shapes and offsets in microseconds.
const smallTrace = `# a small trace
thread,at_us,op,transformation,key_size,size,aad_size
0,0,encrypt,AES/GCM/NoPadding,128,100,13
1,0,decrypt,AES/GCM/NoPadding,256,64,5
0,10,decrypt,AES/CBC/PKCS5Padding,128,33,0

1,20.5,encrypt,AES/CTR/NoPadding,192,7,0
0,30,encrypt,AES/ECB/NoPadding,128,32,0
1,40,decrypt,AES/GCM/NoPadding,256,64,5
0,2000,decrypt,AES/ECB/PKCS5Padding,128,1,0
`

func stringTrace(t *testing.T, text string) *Trace {
	t.Helper()
	tr, err := NewTrace("t.csv", func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(text)), nil })
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestTraceReplay(t *testing.T) {
	tr := stringTrace(t, smallTrace)
	if tr.threads != 2 || tr.Ops != 7 || len(tr.order) != 3 {
		t.Fatalf("threads %d, ops %d, shapes %d", tr.threads, tr.Ops, len(tr.order))
	}
	var out lockedBuffer
	var ops int
	env := testEnv(t, jdk.R17)
	env.Observer = ObserverFunc(func(Iteration) { ops++ })
	if err := tr.Scenario().Run(context.Background(), env, nil, nil, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if ops != 7 || !strings.Contains(out.String(), "operations 7, bytes 301,") {
		t.Errorf("%d operations observed; output:\n%s", ops, out.String())
	}
	// On the model clock the offsets are honoured: the replay lasts at
	// least until the last line's 2 ms, and twice gives the same output.
	m1 := modelRunScenario(t, "skylake-avx2", jdk.R25, nil, 0, tr.Scenario(), nil)
	if m2 := modelRunScenario(t, "skylake-avx2", jdk.R25, nil, 0, tr.Scenario(), nil); m1 != m2 {
		t.Errorf("model-clock replays differ:\n%s\n---\n%s", m1, m2)
	}
	var ms float64
	if i := strings.Index(m1, "time "); i < 0 {
		t.Fatalf("no time in %s", m1)
	} else if _, err := fmt.Sscanf(m1[i:], "time %f ms", &ms); err != nil || ms < 2 {
		t.Errorf("paced replay took %v ms (%v), want at least the last offset, 2 ms:\n%s", ms, err, m1)
	}
}

func TestTraceErrors(t *testing.T) {
	h := TraceHeader + "\n"
	for _, tc := range []struct{ text, want string }{
		{"", "t.csv: empty trace"},
		{"thread,at\n", `t.csv:1: header "thread,at"`},
		{h + "0,0,encrypt\n", "t.csv:2: 3 fields, want 7"},
		{h + "300,0,encrypt,AES/GCM/NoPadding,128,1,0\n", `t.csv:2: thread "300": want 0 to 255`},
		{h + "0,-1,encrypt,AES/GCM/NoPadding,128,1,0\n", `t.csv:2: at_us "-1"`},
		{h + "0,5,encrypt,AES/GCM/NoPadding,128,1,0\n0,4,encrypt,AES/GCM/NoPadding,128,1,0\n", "t.csv:3: at_us goes back in time for thread 0"},
		{h + "0,0,seal,AES/GCM/NoPadding,128,1,0\n", `t.csv:2: op "seal"`},
		{h + "0,0,encrypt,AES/OFB/NoPadding,128,1,0\n", `t.csv:2: transformation "AES/OFB/NoPadding"`},
		{h + "0,0,encrypt,AES/GCM/NoPadding,64,1,0\n", `t.csv:2: key_size "64"`},
		{h + "0,0,encrypt,AES/GCM/NoPadding,128,-1,0\n", `t.csv:2: size "-1"`},
		{h + "0,0,encrypt,AES/GCM/NoPadding,128,99999999999,0\n", "exceeds jitsim's message size cap"},
		{h + "0,0,encrypt,AES/CBC/NoPadding,128,17,0\n", "t.csv:2: size 17: AES/CBC/NoPadding takes whole 16-byte blocks"},
		{h + "0,0,encrypt,AES/CTR/NoPadding,128,16,3\n", "t.csv:2: aad_size 3: AES/CTR/NoPadding takes no AAD"},
		{h + "# nothing\n", "the trace has no operations"},
		{h + strings.Repeat("x", 5000) + "\n", "t.csv:2: line longer than 4096 bytes"},
	} {
		_, err := NewTrace("t.csv", func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(tc.text)), nil })
		var fe *FileError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &fe) {
			t.Errorf("NewTrace(%.60q) = %v, want a FileError with %q", tc.text, err, tc.want)
		}
	}
}

// genTrace streams a generated trace of n lines on 2 threads without
// holding it: 0-byte ECB operations, so the replay costs the reading and
// the provider's calls, not bulk AES.
type genTrace struct {
	n, i int
	buf  bytes.Buffer
}

func (g *genTrace) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.i <= g.n {
		if g.i == 0 {
			g.buf.WriteString(TraceHeader + "\n")
		} else {
			fmt.Fprintf(&g.buf, "%d,%d,encrypt,AES/ECB/NoPadding,128,0,0\n", g.i%2, g.i/2)
		}
		g.i++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	return g.buf.Read(p)
}

func (g *genTrace) Close() error { return nil }

// TestTraceStreamed replays a generated trace of 10⁶ lines (10⁷ with
// JITSIM_LONG=1, about 45 s; 10⁵ with -short) and requires the process's
// peak RSS to stay at most 50 MB above what it was before: the trace is
// streamed, never held.
func TestTraceStreamed(t *testing.T) {
	n := 1_000_000
	switch {
	case os.Getenv("JITSIM_LONG") == "1":
		n = 10_000_000
	case testing.Short():
		n = 100_000
	}
	before := peakRSS(t)
	tr, err := NewTrace("gen.csv", func() (io.ReadCloser, error) { return &genTrace{n: n}, nil })
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t, jdk.R25)
	env.CheckOutput = false
	var out lockedBuffer
	if err := tr.Scenario().Run(context.Background(), env, nil, nil, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), fmt.Sprintf("operations %d,", n)) {
		t.Errorf("output:\n%s", out.String())
	}
	after := peakRSS(t)
	t.Logf("%d lines: peak RSS %.1f MB before, %.1f MB after", n, float64(before)/(1<<20), float64(after)/(1<<20))
	if grew := after - before; grew > 50<<20 {
		t.Errorf("peak RSS grew by %d MB replaying %d lines", grew>>20, n)
	}
}

// peakRSS returns the process's peak resident set (VmHWM) in bytes.
func peakRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb << 10
		}
	}
	t.Skip("no VmHWM")
	return 0
}
