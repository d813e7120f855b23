package runtime

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ergoDir holds the ergonomics recordings and goldens.
var ergoDir = filepath.Join("testdata", "ergo")

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
func settle(t *testing.T, j flags.JDK, a flags.Arch, model cpu.Model, cpus int, args []string) (rows map[string]string, warnings []string, set *flags.Set, parseErr error) {
	t.Helper()
	set, res, err := flags.Parse(flags.Options{JDK: j, Arch: a, Args: args})
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := Ergonomics(set, model, cpus)
	if err != nil {
		t.Fatalf("Ergonomics(%v): %v", args, err)
	}
	var b strings.Builder
	if err := set.PrintFlagsFinal(&b); err != nil {
		t.Fatal(err)
	}
	return rowsByName(b.String()), append(vmWarnings(res.Stderr), w...), set, nil
}

// TestErgonomicsRecorded replays every recorded command line (testdata/ergo/cases.json, run by
// testdata/ergo/record through java 17 and 25) and compares the CPU and policy rows of
// PrintFlagsFinal, origins included, and the warnings with what the real JVM printed.
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
	profiles := map[string]flags.JDK{"17": flags.JDK17, "25": flags.JDK25}
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
				rows, warnings, _, perr := settle(t, profiles[jdkName], flags.AMD64, host, recordingCPUs, args)
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
				wantWarn := vmWarnings([]string{c.Stderr})
				if !slices.Equal(wantWarn, warnings) {
					t.Errorf("warnings:\n java:   %q\n jitsim: %q", wantWarn, warnings)
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
