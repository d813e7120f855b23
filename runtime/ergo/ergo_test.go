package ergo

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ergoDir holds the ergonomics recordings and goldens.
var ergoDir = filepath.Join("testdata", "ergo")

var updateErgo = flag.Bool("update-ergo", false, "rewrite testdata/ergo/golden_models.txt from the current rules")

// ergoRecording is testdata/ergo/recorded.json, written by testdata/ergo/record from the real
// JVMs (OpenJDK 17.0.15 and Temurin 25.0.3 on a 2-vCPU Ice Lake-class machine).
type ergoRecording struct {
	JVMs map[string]struct {
		Version string `json:"version"`
		Cases   map[string]struct {
			Args   []string `json:"args"`
			Stdout string   `json:"stdout"`
			Stderr string   `json:"stderr"`
			Exit   int      `json:"exit"`
		} `json:"cases"`
	} `json:"jvms"`
}

// cpuRows are the PrintFlagsFinal rows the CPU pass decides.
var cpuRows = []string{
	"UseAES", "UseAESIntrinsics", "UseAESCTRIntrinsics", "UseGHASHIntrinsics",
	"UseAVX", "UseSSE", "UseCLMUL", "UseSSE42Intrinsics", "UseVectorizedMismatchIntrinsic",
}

// policyRows are the rows the policy pass decides.
var policyRows = []string{
	"CICompilerCount", "CICompilerCountPerCPU", "CompileThreshold",
	"Tier0InvokeNotifyFreqLog", "Tier0BackedgeNotifyFreqLog", "Tier2InvokeNotifyFreqLog",
	"Tier2BackedgeNotifyFreqLog", "Tier3InvokeNotifyFreqLog", "Tier3BackedgeNotifyFreqLog",
	"Tier23InlineeNotifyFreqLog", "Tier3InvocationThreshold", "Tier3MinInvocationThreshold",
	"Tier3CompileThreshold", "Tier3BackEdgeThreshold", "Tier4InvocationThreshold",
	"Tier4MinInvocationThreshold", "Tier4CompileThreshold", "Tier4BackEdgeThreshold",
	"Tier0ProfilingStartPercentage",
}

// recordingHost is the CPU the recordings were made on. The icelake-server model has exactly
// the features x/sys/cpu reported there (aes avx avx2 avx512bw/dq/f/vl pclmulqdq sse2…sse4.2
// ssse3 vaes vpclmulqdq), so the table test does not depend on the machine it runs on.
func recordingHost(t *testing.T) cpu.Model {
	t.Helper()
	m, err := cpu.Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// recordingCPUs is the active processor count of the recording machine.
const recordingCPUs = 2

// rowsByName splits PrintFlagsFinal output into rows keyed by flag name.
func rowsByName(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 2 {
			m[f[1]] = line
		}
	}
	return m
}

// vmWarnings returns the texts of the "<VM> warning: " lines of stderr output.
func vmWarnings(lines []string) []string {
	var w []string
	for _, l := range lines {
		for _, one := range strings.Split(strings.TrimRight(l, "\n"), "\n") {
			if text, ok := strings.CutPrefix(one, flags.VMWarningPrefix); ok {
				w = append(w, text)
			}
		}
	}
	return w
}

// settle parses args for profile j on amd64/arm64 and runs Ergonomics; it returns the
// PrintFlagsFinal rows and every VM warning (parser notices first, then ergonomics).
func settle(t *testing.T, j jdk.Release, a jdk.Arch, model cpu.Model, cpus int, args []string) (rows map[string]string, warnings []string, set *flags.Set, parseErr error) {
	t.Helper()
	rows, stderr, set, err := settleStderr(t, j, a, model, cpus, args)
	return rows, vmWarnings(stderr), set, err
}

// settleStderr is settle returning every stderr line before the version banner: the
// parser's, then SettleStderr's.
func settleStderr(t *testing.T, j jdk.Release, a jdk.Arch, model cpu.Model, cpus int, args []string) (rows map[string]string, stderr []string, set *flags.Set, parseErr error) {
	t.Helper()
	set, res, err := flags.Parse(flags.Options{JDK: j, Arch: a, Args: args})
	if err != nil {
		return nil, nil, nil, err
	}
	for _, l := range res.Stderr {
		stderr = append(stderr, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
	}
	lines, _, err := SettleStderr(set, model, cpus)
	if err != nil {
		t.Fatalf("Settle(%v): %v", args, err)
	}
	var b strings.Builder
	if err := set.PrintFlagsFinal(&b); err != nil {
		t.Fatal(err)
	}
	return rowsByName(b.String()), append(stderr, lines...), set, nil
}

// beforeBanner returns the stderr lines java printed before its -version banner.
func beforeBanner(stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if strings.HasPrefix(l, "openjdk version ") {
			break
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestErgonomicsRecorded replays every recorded command line (testdata/ergo/cases.json, run by
// testdata/ergo/record through java 17 and 25) and compares the CPU and policy rows of
// PrintFlagsFinal, origins included, and every stderr line before the version banner
// (warnings, range messages) with what the real JVM printed.
func TestErgonomicsRecorded(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(ergoDir, "recorded.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec ergoRecording
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	host := recordingHost(t)
	profiles := map[string]jdk.Release{"17": jdk.R17, "25": jdk.R25}
	total, matched := 0, 0
	var codeCache []string
	for _, jdkName := range []string{"17", "25"} {
		jvm, ok := rec.JVMs[jdkName]
		if !ok {
			t.Fatalf("recording has no JDK %s", jdkName)
		}
		names := make([]string, 0, len(jvm.Cases))
		for n := range jvm.Cases {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			c := jvm.Cases[name]
			total++
			ok := t.Run(jdkName+"/"+name, func(t *testing.T) {
				args := c.Args
				rows, stderr, _, perr := settleStderr(t, profiles[jdkName], jdk.AMD64, host, recordingCPUs, args)
				if c.Exit != 0 {
					if perr == nil {
						t.Fatalf("java %s exited %d (%q) but the command line parsed", strings.Join(args, " "), c.Exit, c.Stderr)
					}
					return
				}
				if perr != nil {
					t.Fatalf("java %s ran, Parse failed: %v", strings.Join(args, " "), perr)
				}
				want := rowsByName(c.Stdout)
				for _, n := range append(slices.Clone(cpuRows), policyRows...) {
					w, inRec := want[n]
					g, inOurs := rows[n]
					if !inRec && !inOurs {
						continue
					}
					if w != g {
						t.Errorf("row %s:\n java:   %q\n jitsim: %q", n, w, g)
					}
				}
				if w, g := want["ReservedCodeCacheSize"], rows["ReservedCodeCacheSize"]; w != g {
					codeCache = append(codeCache, fmt.Sprintf("%s/%s: java %q, jitsim %q", jdkName, name, strings.Join(strings.Fields(w), " "), strings.Join(strings.Fields(g), " ")))
				}
				if want := beforeBanner(c.Stderr); !slices.Equal(want, stderr) {
					t.Errorf("stderr before the banner:\n java:   %q\n jitsim: %q", want, stderr)
				}
			})
			if ok {
				matched++
			}
		}
	}
	t.Logf("%d of %d recorded command lines (JDK 17 and 25) match", matched, total)
	// ReservedCodeCacheSize is settled by flags.Parse; JDK 25 sizes it from the compiler
	// count as well. Differences are reported, not failed: see the report of issue 5.
	for _, l := range codeCache {
		t.Logf("ReservedCodeCacheSize differs (not ergonomics' row): %s", l)
	}
}

// maskedModel returns a copy of a named model without some features: jitsim has no named CPU
// without AES-NI or without the Armv8 crypto extension, so the tests build them as masks.
func maskedModel(t *testing.T, name, newName string, drop ...cpu.Feature) cpu.Model {
	t.Helper()
	m, err := cpu.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	m.Name = newName
	m.Features = m.Features.Without(drop...)
	return m
}

func lookupModel(t *testing.T, name string) cpu.Model {
	t.Helper()
	m, err := cpu.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestErgonomicsModels checks CPUs this machine is not, with values derived by hand from the
// rules of vm_version_x86.cpp / vm_version_aarch64.cpp (hotspot.md §3.2–3.4) and the JDK 17
// vs 25 differences the recordings showed. want holds "Flag=value {origin}" items.
func TestErgonomicsModels(t *testing.T) {
	sandy := lookupModel(t, "sandybridge-i5")
	haswell := lookupModel(t, "haswell-e5-2660v3")
	icelake := lookupModel(t, "icelake-server")
	n1 := lookupModel(t, "neoverse-n1")
	noAESNI := maskedModel(t, "sandybridge-i5", "sandybridge-without-aesni", cpu.AES, cpu.PCLMULQDQ)
	noSSE41 := maskedModel(t, "sandybridge-i5", "sandybridge-without-sse4", cpu.SSE41, cpu.SSE42, cpu.AVX)
	armNoCrypto := maskedModel(t, "neoverse-n1", "cortex-a72-without-crypto", cpu.ARM_AES, cpu.PMULL)
	unlock := "-XX:+UnlockDiagnosticVMOptions"
	tests := []struct {
		name  string
		jdk   jdk.Release
		model cpu.Model
		cpus  int
		args  []string
		want  []string
		warn  []string
	}{
		{name: "sandybridge default", jdk: jdk.R25, model: sandy, cpus: 4, args: []string{unlock},
			want: []string{"UseAVX=1 {default}", "UseSSE=4 {default}", "UseAES=true {default}", "UseAESIntrinsics=true {default}",
				"UseAESCTRIntrinsics=true {default}", "UseCLMUL=true {default}", "UseGHASHIntrinsics=true {default}", "CICompilerCount=3 {ergonomic}"}},
		{name: "sandybridge UseAVX=3 jdk25", jdk: jdk.R25, model: sandy, cpus: 4, args: []string{"-XX:UseAVX=3"},
			want: []string{"UseAVX=1 {command line}"},
			warn: []string{"UseAVX=3 is not supported on this CPU, setting it to UseAVX=1"}},
		{name: "sandybridge UseAVX=3 jdk17", jdk: jdk.R17, model: sandy, cpus: 4, args: []string{"-XX:UseAVX=3"},
			want: []string{"UseAVX=1 {command line}"},
			warn: []string{"UseAVX=3 is not supported on this CPU, setting it to UseAVX=1"}},
		{name: "sandybridge UseAVX=2", jdk: jdk.R25, model: sandy, cpus: 4, args: []string{"-XX:UseAVX=2"},
			want: []string{"UseAVX=1 {command line}"},
			warn: []string{"UseAVX=2 is not supported on this CPU, setting it to UseAVX=1"}},
		{name: "sandybridge UseAVX=3 jdk8u is silent", jdk: jdk.R8u, model: sandy, cpus: 4, args: []string{"-XX:UseAVX=3"},
			want: []string{"UseAVX=1 {command line}", "UseSSE=4 {default}", "UseAESIntrinsics=true {default}", "UseGHASHIntrinsics=true {default}"}},
		{name: "haswell UseAVX=3", jdk: jdk.R17, model: haswell, cpus: 10, args: []string{"-XX:UseAVX=3"},
			want: []string{"UseAVX=2 {command line}", "CICompilerCount=4 {ergonomic}"},
			warn: []string{"UseAVX=3 is not supported on this CPU, setting it to UseAVX=2"}},
		{name: "jdk8u caps AVX at 2 on AVX-512 parts", jdk: jdk.R8u, model: icelake, cpus: 2, args: nil,
			want: []string{"UseAVX=2 {default}", "UseSSE=4 {default}"}},
		{name: "icelake 40 cores", jdk: jdk.R25, model: icelake, cpus: 40, args: nil,
			want: []string{"CICompilerCount=15 {ergonomic}", "CICompilerCountPerCPU=true {default}", "UseAVX=3 {default}"}},
		{name: "no AES-NI default", jdk: jdk.R25, model: noAESNI, cpus: 2, args: []string{unlock},
			want: []string{"UseAES=false {default}", "UseAESIntrinsics=false {default}", "UseAESCTRIntrinsics=false {default}",
				"UseCLMUL=false {default}", "UseGHASHIntrinsics=false {default}", "UseAVX=1 {default}"}},
		{name: "no AES-NI, AES asked for", jdk: jdk.R25, model: noAESNI, cpus: 2,
			args: []string{unlock, "-XX:+UseAES", "-XX:+UseAESIntrinsics", "-XX:+UseAESCTRIntrinsics"},
			want: []string{"UseAES=false {command line}", "UseAESIntrinsics=false {command line}", "UseAESCTRIntrinsics=false {command line}"},
			warn: []string{"AES instructions are not available on this CPU", "AES intrinsics are not available on this CPU",
				"AES-CTR intrinsics are not available on this CPU"}},
		{name: "no AES-NI, AES asked for, -PrintWarnings", jdk: jdk.R25, model: noAESNI, cpus: 2,
			args: []string{unlock, "-XX:-PrintWarnings", "-XX:+UseAES", "-XX:+UseAESIntrinsics"},
			want: []string{"UseAES=false {command line}", "UseAESIntrinsics=false {command line}"}},
		{name: "no PCLMULQDQ, GHASH asked for", jdk: jdk.R17, model: noAESNI, cpus: 2,
			args: []string{unlock, "-XX:+UseCLMUL", "-XX:+UseGHASHIntrinsics"},
			want: []string{"UseCLMUL=false {command line}", "UseGHASHIntrinsics=false {command line}"},
			warn: []string{"CLMUL instructions not available on this CPU (AVX may also be required)",
				"GHASH intrinsic requires CLMUL and SSE2 instructions on this CPU"}},
		{name: "no AES-NI jdk8u (product intrinsic flags)", jdk: jdk.R8u, model: noAESNI, cpus: 2,
			args: []string{"-XX:+UseAES", "-XX:+UseAESIntrinsics"},
			want: []string{"UseAES=false {command line}", "UseAESIntrinsics=false {command line}"},
			warn: []string{"AES instructions are not available on this CPU", "AES intrinsics are not available on this CPU"}},
		{name: "no SSE4.1: UseSSE 3, no CTR", jdk: jdk.R25, model: noSSE41, cpus: 2,
			args: []string{unlock, "-XX:+UseAESCTRIntrinsics", "-XX:UseAVX=1"},
			want: []string{"UseSSE=3 {default}", "UseAVX=0 {command line}", "UseAESIntrinsics=true {default}", "UseAESCTRIntrinsics=false {command line}",
				"UseGHASHIntrinsics=true {default}", "UseSSE42Intrinsics=false {default}"},
			warn: []string{"UseAVX=1 requires UseSSE=4, setting it to UseAVX=0",
				"X86 AES-CTR intrinsics require SSE4.1 instructions or higher. Intrinsics will be disabled."}},
		{name: "no SSE4.1, UseSSE=4 asked for", jdk: jdk.R17, model: noSSE41, cpus: 2, args: []string{"-XX:UseSSE=4"},
			want: []string{"UseSSE=3 {command line}", "UseAVX=0 {default}"},
			warn: []string{"UseSSE=4 is not supported on this CPU, setting it to UseSSE=3"}},
		{name: "neoverse-n1 default", jdk: jdk.R25, model: n1, cpus: 64, args: []string{unlock},
			want: []string{"UseAES=true {default}", "UseAESIntrinsics=true {default}", "UseAESCTRIntrinsics=true {default}",
				"UseGHASHIntrinsics=true {default}", "CICompilerCount=18 {ergonomic}"}},
		{name: "neoverse-n1 -UseAES +UseAESIntrinsics turns UseAES back on", jdk: jdk.R25, model: n1, cpus: 2,
			args: []string{unlock, "-XX:-UseAES", "-XX:+UseAESIntrinsics"},
			want: []string{"UseAES=true {command line}", "UseAESIntrinsics=true {command line}"},
			warn: []string{"UseAESIntrinsics enabled, but UseAES not, enabling"}},
		{name: "neoverse-n1 -UseAES", jdk: jdk.R17, model: n1, cpus: 2,
			args: []string{unlock, "-XX:-UseAES"},
			want: []string{"UseAES=false {command line}", "UseAESIntrinsics=false {default}", "UseAESCTRIntrinsics=true {default}"}},
		{name: "arm64 without crypto, everything asked for", jdk: jdk.R25, model: armNoCrypto, cpus: 2,
			args: []string{unlock, "-XX:+UseAES", "-XX:+UseAESIntrinsics", "-XX:+UseAESCTRIntrinsics", "-XX:+UseGHASHIntrinsics"},
			want: []string{"UseAES=false {command line}", "UseAESIntrinsics=false {command line}",
				"UseAESCTRIntrinsics=false {command line}", "UseGHASHIntrinsics=false {command line}"},
			warn: []string{"AES instructions are not available on this CPU", "AES intrinsics are not available on this CPU",
				"AES/CTR intrinsics are not available on this CPU", "GHASH intrinsics are not available on this CPU"}},
		{name: "arm64 without crypto, jdk8u port only warns", jdk: jdk.R8u, model: armNoCrypto, cpus: 2,
			args: []string{"-XX:+UseAES", "-XX:+UseAESIntrinsics", "-XX:+UseGHASHIntrinsics"},
			want: []string{"UseAES=true {command line}", "UseAESIntrinsics=true {command line}", "UseGHASHIntrinsics=false {command line}"},
			warn: []string{"UseAES specified, but not supported on this CPU", "UseAESIntrinsics specified, but not supported on this CPU",
				"GHASH intrinsics are not available on this CPU"}},
		{name: "arm64 without crypto default", jdk: jdk.R25, model: armNoCrypto, cpus: 2, args: []string{unlock},
			want: []string{"UseAES=false {default}", "UseAESIntrinsics=false {default}", "UseAESCTRIntrinsics=false {default}", "UseGHASHIntrinsics=false {default}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, warnings, set, err := settle(t, tt.jdk, tt.model.Arch, tt.model, tt.cpus, tt.args)
			if err != nil {
				t.Fatalf("Parse(%v): %v", tt.args, err)
			}
			for _, w := range tt.want {
				name, _, _ := strings.Cut(w, "=")
				if !set.Has(name) {
					t.Errorf("%s: flag does not exist in JDK %s/%s", w, tt.jdk, tt.model.Arch)
					continue
				}
				if got := fmt.Sprintf("%s=%s {%s}", name, set.Value(name), set.OriginString(name)); got != w {
					t.Errorf("got %s, want %s", got, w)
				}
			}
			if !slices.Equal(warnings, tt.warn) {
				t.Errorf("warnings:\n got  %q\n want %q", warnings, tt.warn)
			}
		})
	}
}

// TestErgonomicsBadInput checks the errors Ergonomics returns instead of panicking.
func TestErgonomicsBadInput(t *testing.T) {
	n1 := lookupModel(t, "neoverse-n1")
	set := flags.NewSet(jdk.R25, jdk.AMD64)
	if _, err := Settle(set, n1, 2); err == nil || !strings.Contains(err.Error(), "neoverse-n1") {
		t.Errorf("amd64 flags with an arm64 model: err = %v, want one naming the model", err)
	}
	if _, err := Settle(nil, n1, 2); err == nil {
		t.Error("nil set: no error")
	}
	set = flags.NewSet(jdk.R25, jdk.AMD64)
	if _, err := Settle(set, recordingHost(t), 0); err == nil || !strings.Contains(err.Error(), "processor") {
		t.Errorf("0 active processors: err = %v, want one naming the processor count", err)
	}
}

// goldenLines are the flag lines of the model matrix; a line that does not parse in a profile
// (e.g. UseAESCTRIntrinsics in JDK 8) is recorded with the parser's error.
var goldenLines = [][]string{
	nil,
	{"-XX:-UseAES"},
	{"-XX:-UseAES", "-XX:+UseAESIntrinsics"},
	{"-XX:-UseAESIntrinsics", "-XX:+UseAESCTRIntrinsics"},
	{"-XX:+UseAES", "-XX:+UseAESIntrinsics", "-XX:+UseAESCTRIntrinsics", "-XX:+UseGHASHIntrinsics"},
	{"-XX:UseAVX=3"},
	{"-XX:UseAVX=2"},
	{"-XX:UseSSE=3"},
	{"-XX:UseSSE=2", "-XX:+UseAESIntrinsics", "-XX:+UseGHASHIntrinsics"},
	{"-XX:-UseCLMUL", "-XX:+UseGHASHIntrinsics"},
	{"-XX:-TieredCompilation"},
}

// TestErgonomicsGolden runs every CPU model (and the masks of TestErgonomicsModels) under
// every JDK profile and the flag lines above, at the model's core count, and compares the
// settled rows and warnings with testdata/ergo/golden_models.txt. The file is the reviewable
// behaviour matrix: regenerate it with go test -run TestErgonomicsGolden -update-ergo and read
// the diff.
func TestErgonomicsGolden(t *testing.T) {
	models := []cpu.Model{}
	for _, m := range cpu.Models() {
		if m.Name != "host" {
			models = append(models, m)
		}
	}
	models = append(models,
		maskedModel(t, "sandybridge-i5", "sandybridge-without-aesni", cpu.AES, cpu.PCLMULQDQ),
		maskedModel(t, "sandybridge-i5", "sandybridge-without-sse4", cpu.SSE41, cpu.SSE42, cpu.AVX),
		maskedModel(t, "neoverse-n1", "cortex-a72-without-crypto", cpu.ARM_AES, cpu.PMULL))
	rows := append(slices.Clone(cpuRows), "CICompilerCount")
	var b strings.Builder
	b.WriteString("# Ergonomics matrix: model (cores) | JDK | flags -> settled rows ({d} default, {c} command line, {e} ergonomic) and warnings.\n")
	b.WriteString("# Generated by go test ./runtime -run TestErgonomicsGolden -update-ergo; review diffs, do not edit.\n")
	for _, m := range models {
		arch := jdk.AMD64
		if m.Arch == jdk.ARM64 {
			arch = jdk.ARM64
		}
		for _, j := range jdk.All() {
			for _, line := range goldenLines {
				args := append([]string{}, line...)
				if j >= jdk.R17 {
					args = append([]string{"-XX:+UnlockDiagnosticVMOptions"}, args...)
				}
				fmt.Fprintf(&b, "%s (%d) | %s | %s ->", m.Name, m.Cores, j, strings.Join(line, " "))
				_, warnings, set, err := settle(t, j, arch, m, m.Cores, args)
				if err != nil {
					fmt.Fprintf(&b, " parse error: %s\n", err)
					continue
				}
				for _, r := range rows {
					if set.Has(r) {
						fmt.Fprintf(&b, " %s=%s{%s}", r, set.Value(r), originCode(set.OriginString(r)))
					}
				}
				b.WriteString("\n")
				for _, w := range warnings {
					fmt.Fprintf(&b, "    warning: %s\n", w)
				}
			}
		}
	}
	path := filepath.Join(ergoDir, "golden_models.txt")
	if *updateErgo {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-ergo to create it)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the rules at line %d:\n got  %q\n want %q\n(if the change is intended: -update-ergo and review the diff)", path, i+1, g, w)
			}
		}
	}
}

func originCode(o string) string {
	switch o {
	case "default":
		return "d"
	case "command line":
		return "c"
	case "ergonomic":
		return "e"
	case "command line, ergonomic":
		return "c,e"
	}
	return o
}

// fuzzOptions is the vocabulary FuzzErgonomics builds command lines from.
var fuzzOptions = []string{
	"-XX:+UseAES", "-XX:-UseAES", "-XX:+UseAESIntrinsics", "-XX:-UseAESIntrinsics",
	"-XX:+UseAESCTRIntrinsics", "-XX:-UseAESCTRIntrinsics", "-XX:+UseGHASHIntrinsics", "-XX:-UseGHASHIntrinsics",
	"-XX:+UseCLMUL", "-XX:-UseCLMUL", "-XX:UseAVX=0", "-XX:UseAVX=1", "-XX:UseAVX=2", "-XX:UseAVX=3",
	"-XX:UseSSE=0", "-XX:UseSSE=2", "-XX:UseSSE=3", "-XX:UseSSE=4", "-XX:+UseSSE42Intrinsics",
	"-XX:-UseSSE42Intrinsics", "-XX:+UseVectorizedMismatchIntrinsic", "-XX:-TieredCompilation",
	"-XX:TieredStopAtLevel=1", "-Xint", "-Xcomp", "-XX:CompileThresholdScaling=0.5", "-XX:CICompilerCount=3",
	"-XX:+CICompilerCountPerCPU", "-XX:-PrintWarnings",
}

// FuzzErgonomics settles random command lines on every model and profile and checks what must
// always hold afterwards: no intrinsic is left on that the CPU or its prerequisite flags
// cannot support, the levels never exceed the CPU's, and a second CPU pass over the settled
// set changes nothing and warns about nothing.
func FuzzErgonomics(f *testing.F) {
	f.Add(uint8(4), uint8(0), uint8(2), []byte{})
	f.Add(uint8(4), uint8(1), uint8(4), []byte{13, 4, 1})
	f.Add(uint8(2), uint8(6), uint8(8), []byte{1, 2, 4, 6})
	f.Add(uint8(1), uint8(7), uint8(1), []byte{0, 2, 9, 6})
	models := []cpu.Model{}
	for _, m := range cpu.Models() {
		if m.Name != "host" {
			models = append(models, m)
		}
	}
	sandy, err := cpu.Lookup("sandybridge-i5")
	if err != nil {
		f.Fatal(err)
	}
	n1, err := cpu.Lookup("neoverse-n1")
	if err != nil {
		f.Fatal(err)
	}
	noAES, noCrypto := sandy, n1
	noAES.Name, noAES.Features = "sandybridge-without-aesni", sandy.Features.Without(cpu.AES, cpu.PCLMULQDQ)
	noCrypto.Name, noCrypto.Features = "cortex-a72-without-crypto", n1.Features.Without(cpu.ARM_AES, cpu.PMULL)
	models = append(models, noAES, noCrypto)
	f.Fuzz(func(t *testing.T, jdkSel, modelSel, cpus uint8, opts []byte) {
		jdks := jdk.All()
		j := jdks[int(jdkSel)%len(jdks)]
		m := models[int(modelSel)%len(models)]
		arch := jdk.AMD64
		if m.Arch == jdk.ARM64 {
			arch = jdk.ARM64
		}
		var args []string
		if j >= jdk.R17 {
			args = append(args, "-XX:+UnlockDiagnosticVMOptions")
		}
		for _, b := range opts {
			args = append(args, fuzzOptions[int(b)%len(fuzzOptions)])
		}
		set, _, err := flags.Parse(flags.Options{JDK: j, Arch: arch, Args: args})
		if err != nil {
			return // an option this profile or architecture rejects
		}
		if _, err := Settle(set, m, int(cpus)%200+1); err != nil {
			t.Fatalf("%s %s %v: %v", m.Name, j, args, err)
		}
		has := func(name string) bool { return set.Has(name) && set.Bool(name) }
		aesFeature := cpu.AES
		if arch == jdk.ARM64 {
			aesFeature = cpu.ARM_AES
		}
		// The JDK 8 aarch64 port only warns and leaves UseAES/UseAESIntrinsics as they were
		// without the CPU feature (so it also warns again on a second pass).
		legacyArm := arch == jdk.ARM64 && j <= jdk.R8u
		if has("UseAESIntrinsics") && !legacyArm && (!m.Features.Has(aesFeature) || !has("UseAES")) {
			t.Errorf("%s %s %v: UseAESIntrinsics on without AES support or UseAES", m.Name, j, args)
		}
		if arch == jdk.AMD64 {
			if has("UseAESIntrinsics") && set.Int("UseSSE") < 3 {
				t.Errorf("%s %s %v: UseAESIntrinsics on with UseSSE=%d", m.Name, j, args, set.Int("UseSSE"))
			}
			if has("UseGHASHIntrinsics") && (!has("UseCLMUL") || set.Int("UseSSE") < 3 || !m.Features.Has(cpu.PCLMULQDQ)) {
				t.Errorf("%s %s %v: UseGHASHIntrinsics on without CLMUL/SSE3", m.Name, j, args)
			}
			limits := map[string]int{"UseSSE": cpu.SSELimit(m.Features), "UseAVX": Mask(set).AVXLimit(m.Features)}
			for flag, limit := range limits {
				if v := set.Int(flag); v > int64(limit) {
					t.Errorf("%s %s %v: %s=%d above the CPU's %d", m.Name, j, args, flag, v, limit)
				}
			}
		} else if has("UseGHASHIntrinsics") && !m.Features.Has(cpu.PMULL) {
			t.Errorf("%s %s %v: UseGHASHIntrinsics on without PMULL", m.Name, j, args)
		}
		var before, after strings.Builder
		if err := set.PrintFlagsFinal(&before); err != nil {
			t.Fatal(err)
		}
		again := &ergo{set: set}
		again.cpuPass(m)
		if err := set.PrintFlagsFinal(&after); err != nil {
			t.Fatal(err)
		}
		if before.String() != after.String() || (len(again.out) > 0 && !legacyArm) {
			t.Errorf("%s %s %v: a second CPU pass changed the set or warned %v", m.Name, j, args, again.out)
		}
	})
}

// ExampleSettle settles -XX:UseAVX=3 on a Sandy Bridge model (AVX, no AVX2 or AVX-512)
// for JDK 25 and prints the warning the way java does, then the settled rows.
func ExampleSettle() {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R25, Arch: jdk.AMD64, Args: []string{"-XX:UseAVX=3", "-version"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	model, err := cpu.Lookup("sandybridge-i5")
	if err != nil {
		fmt.Println(err)
		return
	}
	warnings, err := Settle(set, model, model.Cores)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println(flags.VMWarningPrefix + w)
	}
	for _, name := range []string{"UseAVX", "UseSSE", "UseAES", "CICompilerCount"} {
		fmt.Printf("%s = %s {%s}\n", name, set.Value(name), set.OriginString(name))
	}
	// Output:
	// OpenJDK 64-Bit Server VM warning: UseAVX=3 is not supported on this CPU, setting it to UseAVX=1
	// UseAVX = 1 {command line}
	// UseSSE = 4 {default}
	// UseAES = true {default}
	// CICompilerCount = 3 {ergonomic}
}

// TestMask checks the CPU-feature mask of settled sets, what the switches and the stub
// selection see: JDK 17 keeps the AVX bits under -XX:UseSSE=3 (UseAVX stays 3), JDK 25 drops
// them with UseAVX. runtime's TestStubMaskRecorded checks the same against the real JVMs'
// stubs.
func TestMask(t *testing.T) {
	icelake := recordingHost(t)
	tests := []struct {
		jdk      jdk.Release
		args     []string
		has, not []cpu.Feature
	}{
		{jdk.R25, nil, []cpu.Feature{cpu.AVX512F, cpu.VAES, cpu.SSE41, cpu.AES}, nil},
		{jdk.R25, []string{"-XX:UseAVX=2"}, []cpu.Feature{cpu.AVX2, cpu.AES, cpu.PCLMULQDQ}, []cpu.Feature{cpu.AVX512F, cpu.VAES, cpu.VPCLMULQDQ}},
		{jdk.R25, []string{"-XX:UseAVX=0"}, []cpu.Feature{cpu.SSE42, cpu.AES}, []cpu.Feature{cpu.AVX, cpu.AVX2, cpu.AVX512F}},
		{jdk.R17, []string{"-XX:UseSSE=3"}, []cpu.Feature{cpu.AVX512F, cpu.AVX2, cpu.SSE3, cpu.AES}, []cpu.Feature{cpu.SSE41, cpu.SSE42}},
		{jdk.R25, []string{"-XX:UseSSE=3"}, []cpu.Feature{cpu.SSE3, cpu.AES}, []cpu.Feature{cpu.AVX, cpu.AVX512F, cpu.SSE41}},
		{jdk.R25, []string{"-XX:UseSSE=2"}, []cpu.Feature{cpu.SSE2, cpu.AES}, []cpu.Feature{cpu.SSE3, cpu.SSSE3, cpu.AVX}},
		{jdk.R8u, nil, []cpu.Feature{cpu.AVX2, cpu.AES}, []cpu.Feature{cpu.AVX512F, cpu.VAES}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.jdk, tt.args), func(t *testing.T) {
			_, _, set, err := settle(t, tt.jdk, jdk.AMD64, icelake, 2, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			f := Mask(set).Apply(icelake.Features)
			for _, h := range tt.has {
				if !f.Has(h) {
					t.Errorf("%s missing from %s", h, f)
				}
			}
			for _, n := range tt.not {
				if f.Has(n) {
					t.Errorf("%s still in %s", n, f)
				}
			}
		})
	}
	n1 := lookupModel(t, "neoverse-n1")
	if got := Mask(flags.NewSet(jdk.R25, jdk.ARM64)).Apply(n1.Features); got != n1.Features {
		t.Errorf("arm64: %s, want the model's %s", got, n1.Features)
	}
}
