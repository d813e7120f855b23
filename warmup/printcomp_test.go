package warmup

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dumpCompileLog prints a log's counts and every record of a crypto
// method, one per line, for the golden files.
func dumpCompileLog(l *CompileLog) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lines %d, records %d, crypto %d, other %d, garbled %d\n", l.Lines, len(l.Records), len(l.Crypto()), l.Other, l.Garbled)
	for _, r := range l.Crypto() {
		fmt.Fprintf(&b, "%d: %v id=%d attrs=%q level=%d %s bci=%d size=%d %s", r.Line, r.At, r.ID, r.Attrs, r.Level, r.Method, r.BCI, r.Size, r.Kind)
		if r.Message != "" {
			fmt.Fprintf(&b, " %q", r.Message)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestPrintCompilationGolden parses the recorded JDK 17 and Temurin 25 logs
// and the hand-made JDK 8 one and compares every crypto record with
// testdata/printcompilation/*.golden.
func TestPrintCompilationGolden(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join("testdata", "printcompilation", "*.log"))
	if err != nil || len(logs) < 4 {
		t.Fatalf("logs %v (%v)", logs, err)
	}
	for _, path := range logs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			l, err := ParsePrintCompilation(f, filepath.Base(path), path)
			if err != nil {
				t.Fatal(err)
			}
			got := dumpCompileLog(l)
			golden := strings.TrimSuffix(path, ".log") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", path, golden, got)
			}
		})
	}
}

// TestParseCompileLine checks each field on the layouts HotSpot prints.
func TestParseCompileLine(t *testing.T) {
	const m = "com.sun.crypto.provider.GHASH::blockMult"
	tests := []struct {
		name, line string
		want       CompileRecord
		state      lineState
	}{
		{"jdk17 padded", "    168  273       3       " + m + " (245 bytes)",
			CompileRecord{At: 168 * time.Millisecond, ID: 273, Level: 3, Method: m, BCI: -1, Size: 245, Kind: CompileTask}, lineRecord},
		{"jdk17 osr", "    168  273 %     4       " + m + " @ 23 (245 bytes)",
			CompileRecord{At: 168 * time.Millisecond, ID: 273, Attrs: "%", Level: 4, Method: m, BCI: 23, Size: 245, Kind: CompileTask}, lineRecord},
		{"jdk25 unpadded reason", "3025 1637       3       " + m + " (245 bytes)   made not entrant: not used",
			CompileRecord{At: 3025 * time.Millisecond, ID: 1637, Level: 3, Method: m, BCI: -1, Size: 245, Kind: CompileNotEntrant, Message: "made not entrant: not used"}, lineRecord},
		{"native static", "    118    2     n 0       java.lang.System::arraycopy (native)   (static)",
			CompileRecord{At: 118 * time.Millisecond, ID: 2, Attrs: "n", Level: 0, Method: "java.lang.System::arraycopy", BCI: -1, Size: -1, Kind: CompileTask, Message: "(static)"}, lineRecord},
		{"no tier, osr blocking", "   3684  506 %  b        com.sun.crypto.provider.AESCrypt::<clinit> @ 724 (1577 bytes)",
			CompileRecord{At: 3684 * time.Millisecond, ID: 506, Attrs: "%b", Level: -1, Method: "com.sun.crypto.provider.AESCrypt::<clinit>", BCI: 724, Size: 1577, Kind: CompileTask}, lineRecord},
		{"zombie", "   2051    5   !   3       " + m + " (76 bytes)   made zombie",
			CompileRecord{At: 2051 * time.Millisecond, ID: 5, Attrs: "!", Level: 3, Method: m, BCI: -1, Size: 76, Kind: CompileZombie, Message: "made zombie"}, lineRecord},
		{"skipped", "    469   28       4       java.lang.Object::<init> (1 bytes)   COMPILE SKIPPED: out of nodes parsing method (retry at different tier)",
			CompileRecord{At: 469 * time.Millisecond, ID: 28, Level: 4, Method: "java.lang.Object::<init>", BCI: -1, Size: 1, Kind: CompileSkipped,
				Message: "COMPILE SKIPPED: out of nodes parsing method (retry at different tier)"}, lineRecord},
		{"squeezed spaces", "120 7 % 4 " + m + " @ 5 (245 bytes)",
			CompileRecord{At: 120 * time.Millisecond, ID: 7, Attrs: "%", Level: 4, Method: m, BCI: 5, Size: 245, Kind: CompileTask}, lineRecord},
		{"program output", "jitsim-iter 0 30332267 61672637", CompileRecord{}, lineOther},
		{"inlining", "                              @ 3   java.lang.Object::<init> (1 bytes)", CompileRecord{}, lineOther},
		{"empty", "", CompileRecord{}, lineOther},
		{"interleaved", "    175    8       3  " + m[:30] + "    175    9       3  ", CompileRecord{}, lineGarbled},
		{"output glued on", "4010 1740       3       com.sun.crypto.provider.GaloisCounterMode::implGCMCrypt0jitsim-iter 25 1198958980 13856058", CompileRecord{}, lineGarbled},
		{"osr without bci", "    168  273 %     4       " + m + " (245 bytes)", CompileRecord{}, lineGarbled},
		{"repeated attribute", "    168  273 % %   4       " + m + " (245 bytes)", CompileRecord{}, lineGarbled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, st, err := parseCompileLine(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			if st != tc.state {
				t.Fatalf("state %d, want %d (%+v)", st, tc.state, got)
			}
			got.tierColumn = false // checked by the golden logs
			if st == lineRecord && got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestPrintCompilationErrors: input that is no log fails with file:line.
func TestPrintCompilationErrors(t *testing.T) {
	ok := "    168  273       3       com.sun.crypto.provider.GHASH::blockMult (245 bytes)\n"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "x.log:1: no -XX:+PrintCompilation line"},
		{"only output", "hello\nworld\n", "x.log:2: no -XX:+PrintCompilation line in 2 line(s)"},
		{"binary", ok + "ab\x00cd\n", "x.log:2: NUL byte"},
		{"long line", ok + ok + strings.Repeat("y", maxLogLine+10) + "\n", "x.log:3: line longer than"},
		{"stamp overflow", ok + "99999999999999999999 1 3 a.B::c (1 bytes)\n", "x.log:2: time stamp"},
		{"stamp too large for ns", ok + "9300000000000 1 3 a.B::c (1 bytes)\n", "x.log:2: time stamp"},
		{"id overflow", "12 99999999999 3 a.B::c (1 bytes)\n", "x.log:1: compile id"},
		{"bci overflow", "12 3 % 4 a.B::c @ 99999999999 (1 bytes)\n", "x.log:1: OSR bci"},
		{"size overflow", "12 3 4 a.B::c (99999999999 bytes)\n", "x.log:1: method size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePrintCompilation(strings.NewReader(tc.in), "x", "x.log")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	l, err := ParsePrintCompilation(strings.NewReader("out\r\n"+ok+"  12  34 junk\n"+strings.TrimSuffix(ok, "\n")), "x", "x.log")
	if err != nil {
		t.Fatal(err)
	}
	if l.Lines != 4 || len(l.Records) != 2 || l.Other != 1 || l.Garbled != 1 {
		t.Errorf("CRLF and a last line without newline: %+v", l)
	}
}

// FuzzParsePrintCompilation feeds arbitrary text to the importer: it must
// return a log or an error naming file:line, never panic, and a log's
// counts must add up and its records be well formed.
func FuzzParsePrintCompilation(f *testing.F) {
	f.Add("    168  273 %     4       com.sun.crypto.provider.GHASH::blockMult @ 23 (245 bytes)\n")
	f.Add("3025 1637       3       a.B::c (245 bytes)   made not entrant: not used\njitsim-iter 0 1 2\n")
	f.Fuzz(func(t *testing.T, in string) {
		l, err := ParsePrintCompilation(strings.NewReader(in), "f", "f.log")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.log:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		if len(l.Records)+l.Other+l.Garbled != l.Lines || len(l.Records) == 0 {
			t.Fatalf("counts: %d records + %d other + %d garbled != %d lines", len(l.Records), l.Other, l.Garbled, l.Lines)
		}
		for _, r := range l.Records {
			if r.At < 0 || r.ID < 0 || r.Level < -1 || r.Level > 4 || r.Line < 1 || r.Line > l.Lines ||
				!methodName(r.Method) || r.OSR() != (r.BCI >= 0) || !attrToken(r.Attrs) && r.Attrs != "" {
				t.Fatalf("bad record %+v", r)
			}
		}
		if bytes.Count([]byte(in), []byte("\n")) > l.Lines {
			t.Fatalf("%d lines counted in input with more newlines", l.Lines)
		}
	})
}

// TestDropUntiered: in a tiered log, a line without a tier column is one
// whose start was overwritten (JDK 17's "1566       3       …" in
// jdk17-gcm16k.log: the id read as the stamp, the tier as the id); in a
// log without tiers, such lines are the rule.
func TestDropUntiered(t *testing.T) {
	const tiered = "    100    1       3       a.B::c (5 bytes)\n    101    2       4       a.B::c (5 bytes)\n"
	const cut = "1566       3       a.B::d (12 bytes)\n"
	l, err := ParsePrintCompilation(strings.NewReader(tiered+cut), "t", "t.log")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != 2 || l.Garbled != 1 {
		t.Errorf("tiered log: %d records, %d garbled; want 2 and 1", len(l.Records), l.Garbled)
	}
	const untiered = "    100    1    b        a.B::c (5 bytes)\n    101    2 %  b        a.B::c @ 3 (5 bytes)\n"
	if l, err = ParsePrintCompilation(strings.NewReader(untiered+cut), "u", "u.log"); err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != 3 || l.Garbled != 0 || l.Records[1].BCI != 3 {
		t.Errorf("untiered log: %d records, %d garbled", len(l.Records), l.Garbled)
	}
}
