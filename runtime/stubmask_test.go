package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// stubMaskRecording is testdata/stubmask/recorded.json, written by testdata/stubmask/record
// from OpenJDK 17.0.15 and Temurin 25.0.3.
type stubMaskRecording struct {
	HostFeatures string `json:"host_features"`
	HostCPUs     int    `json:"host_cpus"`
	JVMs         map[string]struct {
		Cases []struct {
			Name  string   `json:"name"`
			Args  []string `json:"args"`
			Rows  []string `json:"rows"`
			Stubs []struct {
				Name  string `json:"name"`
				Bytes int    `json:"bytes"`
			} `json:"stubs"`
			Stderr []string `json:"stderr"`
			Exit   int      `json:"exit"`
		} `json:"cases"`
	} `json:"jvms"`
}

// recordedVariants names the jitsim variant a recorded stub stands for, by the stub's size:
// the generators of one stub differ by far more than the encodings UseAVX changes (VEX or
// legacy SSE). Stubs with one x86 variant in jitsim need no entry.
var recordedVariants = map[string]map[int]string{
	gcm.StubGHASH:        {1162: "avx-8block", 1164: "avx-8block", 325: "pclmul-1block", 327: "pclmul-1block"},
	aes.StubCBCDecrypt:   {1728: "vaes-avx512", 1731: "vaes-avx512", 1993: "aesni-parallel4", 2161: "aesni-parallel4"},
	aes.StubCTR:          {4019: "vaes-avx512", 4010: "vaes-avx512", 4593: "aesni-parallel6", 4521: "aesni-parallel6", 4875: "aesni-parallel6", 4787: "aesni-parallel6"},
	gcm.StubGCM:          {11864: "vaes-avx512", 6357: "avx2-interleaved8"},
	aes.StubEncryptBlock: nil, aes.StubDecryptBlock: nil, aes.StubCBCEncrypt: nil,
	aes.StubECBEncrypt: nil, aes.StubECBDecrypt: nil,
}

// TestStubMaskRecorded replays every UseSSE/UseAVX combination recorded from the real JVMs
// (the defaults, each level alone, every pair) through flags.Parse, ergo.Settle and stub
// selection, on the recording machine as jitsim's host model: the PrintFlagsFinal rows of the
// level and crypto flags, the warnings, which crypto stubs HotSpot generated (PrintStubCode)
// and which of their variants must all agree. It pins the one CPU-feature mask (cpu.Mask)
// that ergonomics and stub selection share.
func TestStubMaskRecorded(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stubmask", "recorded.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec stubMaskRecording
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	host := cpu.Model{Name: "host", Arch: jdk.AMD64, Cores: rec.HostCPUs}
	for _, name := range strings.Split(rec.HostFeatures, ",") {
		f, err := cpu.ParseFeature(name)
		if err != nil {
			t.Fatalf("recording: %v", err)
		}
		host.Features = host.Features.With(f)
	}
	total := 0
	for _, jdkName := range []string{"17", "25"} {
		jvm, ok := rec.JVMs[jdkName]
		if !ok || len(jvm.Cases) == 0 {
			t.Fatalf("recording has no JDK %s", jdkName)
		}
		rel := jdk.MustParse(jdkName)
		for _, c := range jvm.Cases {
			total++
			t.Run(jdkName+"/"+c.Name, func(t *testing.T) {
				if c.Exit != 0 {
					t.Fatalf("java exited %d", c.Exit)
				}
				set, res, err := flags.Parse(flags.Options{JDK: rel, Arch: jdk.AMD64,
					Args: append([]string{"-XX:+UnlockDiagnosticVMOptions"}, c.Args...)})
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				var stderr []string
				for _, l := range res.Stderr {
					stderr = append(stderr, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
				}
				lines, _, err := ergo.SettleStderr(set, host, host.Cores)
				if err != nil {
					t.Fatal(err)
				}
				if stderr = append(stderr, lines...); !slices.Equal(stderr, c.Stderr) {
					t.Errorf("stderr:\n java:   %q\n jitsim: %q", c.Stderr, stderr)
				}
				var b strings.Builder
				if err := set.PrintFlagsFinal(&b); err != nil {
					t.Fatal(err)
				}
				ours := map[string]string{}
				for _, l := range strings.Split(b.String(), "\n") {
					if f := strings.Fields(l); len(f) >= 2 {
						ours[f[1]] = l
					}
				}
				for _, w := range c.Rows {
					if g := ours[strings.Fields(w)[1]]; g != w {
						t.Errorf("row:\n java:   %q\n jitsim: %q", w, g)
					}
				}
				env := routeEnv{jdk: rel, set: set, model: host}
				for stub, sizes := range recordedVariants {
					v, ok := stubs.Select(stub, env.stubConfig(), host.Features)
					i := slices.IndexFunc(c.Stubs, func(s struct {
						Name  string `json:"name"`
						Bytes int    `json:"bytes"`
					}) bool {
						return s.Name == stub
					})
					switch {
					case i < 0 && ok:
						t.Errorf("%s: jitsim generates %s, java did not", stub, v.Name)
					case i >= 0 && !ok:
						t.Errorf("%s: java generated it (%d bytes), jitsim does not", stub, c.Stubs[i].Bytes)
					case i >= 0 && sizes != nil:
						want, known := sizes[c.Stubs[i].Bytes]
						if !known {
							t.Errorf("%s: no variant known for java's %d-byte stub (add it to recordedVariants)", stub, c.Stubs[i].Bytes)
						} else if v.Name != want {
							t.Errorf("%s: jitsim selects %s, java's %d-byte stub is %s", stub, v.Name, c.Stubs[i].Bytes, want)
						}
					}
				}
			})
		}
	}
	if total < 40 {
		t.Errorf("%d recorded combinations, want the 20 of each JVM", total)
	}
}
