package flags

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// The raw recordings of the real JVMs (testdata/jvmflags, written by record.sh): PrintFlagsFinal,
// PrintFlagsInitial and PrintFlagsRanges with both unlock options and nothing else.

var recordingName = regexp.MustCompile(`^jdk-(\d+)(?:\.[0-9.]+)?\.(final|initial|ranges|set)\.txt$`)

// recordedOutputs returns release → "final"/"initial"/"ranges" → the recorded output.
func recordedOutputs(t *testing.T) map[jdk.Release]map[string]string {
	t.Helper()
	dir := filepath.Join("testdata", "jvmflags")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[jdk.Release]map[string]string{}
	for _, e := range entries {
		m := recordingName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		feature, _ := strconv.Atoi(m[1])
		rel, ok := modernRelease(feature)
		if !ok {
			t.Fatalf("%s: no profile for Java %d", e.Name(), feature)
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if out[rel] == nil {
			out[rel] = map[string]string{}
		}
		out[rel][m[2]] = string(data)
	}
	if len(out) == 0 {
		t.Fatal("no recordings")
	}
	for r := range out {
		if len(out[r]) != 4 {
			t.Fatalf("JDK %s: want the final, initial, ranges and set recordings, have %d", r, len(out[r]))
		}
	}
	return out
}

// recordedReleases returns the releases of a recording, oldest first.
func recordedReleases(rec map[jdk.Release]map[string]string) []jdk.Release {
	var rs []jdk.Release
	for r := range rec {
		rs = append(rs, r)
	}
	slices.Sort(rs)
	return rs
}

// modernRelease returns the JDK 9+ profile of a Java feature number.
func modernRelease(feature int) (jdk.Release, bool) {
	for _, r := range jdk.All() {
		if r.Modern() && r.Feature() == feature {
			return r, true
		}
	}
	return 0, false
}

// printedRows splits a PrintFlags* output into its header and its rows in order, keyed by name.
func printedRows(s string) (header string, names []string, rows map[string]string) {
	rows = map[string]string{}
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if i == 0 {
			header = l
			continue
		}
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		names = append(names, f[1])
		rows[f[1]] = l
	}
	return header, names, rows
}

// hostErgonomics lists the rows whose value (and origin) java settles from the machine it runs
// on, or at start-up from other flags, in ways the flags package does not model
// (testdata/jvmflags/host-ergonomics.txt, name → reason): the comparison below skips their
// value and origin columns. Every other column of these rows, and every column of every other
// row, must equal the recording.
func hostErgonomics(t *testing.T) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "jvmflags", "host-ergonomics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, reason, ok := strings.Cut(l, "\t")
		if !ok || reason == "" {
			t.Fatalf("host-ergonomics.txt: %q is not name<TAB>reason", l)
		}
		m[name] = reason
	}
	return m
}

// valueColumns blanks a row's value and origin (the columns hostErgonomics skips).
func valueColumns(row string) string {
	k := strings.LastIndex(row, "{")
	k = strings.LastIndex(row[:k], "{")
	if e := strings.Index(row, " = "); e > 0 && e < k {
		return row[:e] + strings.TrimRight(row[k:strings.LastIndex(row, "{")], " ")
	}
	return row[:strings.LastIndex(row, "{")]
}

// TestPrintFlagsMatchRecordings prints PrintFlagsFinal, PrintFlagsInitial and PrintFlagsRanges
// for the recorded command line (both unlocks, nothing else) on 17 and 25 and compares them
// with the recordings row for row: the same flags in the same order, every row equal, except
// the value and origin of the rows listed in hostErgonomics.
func TestPrintFlagsMatchRecordings(t *testing.T) {
	rec := recordedOutputs(t)
	hostRows := hostErgonomics(t)
	used := map[string]bool{}
	for _, rel := range recordedReleases(rec) {
		for _, what := range []string{"final", "initial", "ranges"} {
			opt := map[string]string{"final": "-XX:+PrintFlagsFinal", "initial": "-XX:+PrintFlagsInitial", "ranges": "-XX:+PrintFlagsRanges"}[what]
			set, _, err := Parse(Options{JDK: rel, Arch: jdk.AMD64,
				Args: []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions", opt, "-version"}})
			if err != nil {
				t.Fatal(err)
			}
			ReserveCodeCache(set) // the VM's start-up after parsing, as java prints its tables
			var b strings.Builder
			switch what {
			case "final":
				err = set.PrintFlagsFinal(&b)
			case "initial":
				err = set.PrintFlagsInitial(&b)
			case "ranges":
				err = set.PrintFlagsRanges(&b)
			}
			if err != nil {
				t.Fatal(err)
			}
			wh, wn, wr := printedRows(rec[rel][what])
			gh, gn, gr := printedRows(b.String())
			gn = slices.DeleteFunc(gn, func(n string) bool { return Lookup(n).Jitsim })
			if wh != gh {
				t.Errorf("%s %s: header %q, want %q", rel, what, gh, wh)
			}
			if !sort.StringsAreSorted(gn) || strings.Join(wn, " ") != strings.Join(gn, " ") {
				t.Errorf("%s %s: %d rows, java %d, or in another order", rel, what, len(gn), len(wn))
			}
			equal := 0
			for _, n := range wn {
				w, g := wr[n], gr[n]
				if w == g {
					equal++
					continue
				}
				if _, ok := hostRows[n]; ok {
					used[n] = true
					if valueColumns(w) == valueColumns(g) {
						equal++
						continue
					}
				}
				t.Errorf("%s %s row %s:\n java:   %q\n jitsim: %q", rel, what, n, w, g)
			}
			t.Logf("JDK %s PrintFlags%s: %d of %d rows equal to java's (%d differ only in a host-ergonomics value)",
				rel, what, equal, len(wn), equal-countSame(wr, gr))
		}
	}
	for n := range hostRows {
		if !used[n] {
			t.Errorf("%s is listed in hostErgonomics but its rows equal java's: drop it", n)
		}
	}
}

func countSame(a, b map[string]string) int {
	n := 0
	for k, v := range a {
		if b[k] == v {
			n++
		}
	}
	return n
}

// TestHandRowsAgreeWithRecordings checks the merge of the two halves of the table: a hand row
// replaces the recorded row of the same name, so for 17 and 25 it must say what the recording
// says (existence, x86-only, type, kind, decorations, deprecation, required flag, range and default), and a
// hand row of a
// HotSpot flag that exists in 17 or 25 must have been recorded there. The default of a
// diagnostic or experimental flag is recorded after ergonomics; hostErgonomics lists the ones
// that differ from the declared default for that reason.
func TestHandRowsAgreeWithRecordings(t *testing.T) {
	recorded := map[string]*Flag{}
	for i := range recordedTable {
		recorded[recordedTable[i].Name] = &recordedTable[i]
	}
	releases := recordedReleases(recordedOutputs(t))
	hostRows := hostErgonomics(t)
	for _, h := range handTable {
		r := recorded[h.Name]
		for _, j := range releases {
			if h.Jitsim {
				if r != nil {
					t.Errorf("jitsim's own flag %s is in the recording", h.Name)
				}
				continue
			}
			if !h.inJDK(j) {
				if r != nil && r.inJDK(j) {
					t.Errorf("%s: recorded in %s, the hand row lacks it", h.Name, j)
				}
				continue
			}
			if r == nil || !r.inJDK(j) {
				t.Errorf("%s: the hand row has it in %s, the recording does not", h.Name, j)
				continue
			}
			if h.AMD64Only != r.AMD64Only {
				t.Errorf("%s: AMD64Only %v, recorded %v", h.Name, h.AMD64Only, r.AMD64Only)
			}
			ht, rt := h.Type.At(j), r.Type.At(j)
			if ht != rt {
				t.Errorf("%s in %s: type %s, recorded %s", h.Name, j, ht, rt)
				continue
			}
			if hk, rk := kindText(h, j), kindText(r, j); hk != rk {
				t.Errorf("%s in %s: kind %s, recorded %s", h.Name, j, hk, rk)
			}
			if hd, rd := h.Deprecated.At(j), r.Deprecated.At(j); hd != rd {
				t.Errorf("%s in %s: deprecated in %q, recorded %q", h.Name, j, hd, rd)
			}
			if hl, rl := h.LateRange.At(j), r.LateRange.At(j); hl != rl {
				t.Errorf("%s in %s: range checked late %v, recorded %v", h.Name, j, hl, rl)
			}
			if hq, rq := h.Requires.At(j), r.Requires.At(j); hq != rq {
				t.Errorf("%s in %s: requires %q, recorded %q", h.Name, j, hq, rq)
			}
			if hr, rr := rangeText(h, j), rangeText(r, j); hr != rr {
				t.Errorf("%s in %s: range %s, recorded %s", h.Name, j, hr, rr)
			}
			hv, err1 := parseDefault(h, j)
			rv, err2 := parseDefault(r, j)
			if err1 != nil || err2 != nil {
				t.Errorf("%s in %s: defaults %v, %v", h.Name, j, err1, err2)
				continue
			}
			if format(ht, hv) != format(rt, rv) {
				k := h.Kind.At(j)
				if _, ergo := hostRows[h.Name]; ergo && (k == Diagnostic || k == Experimental) {
					continue
				}
				t.Errorf("%s in %s: default %s, recorded %s", h.Name, j, format(ht, hv), format(rt, rv))
			}
		}
	}
}

// constraintsNotModelled lists, as "release name", the flags whose setting alone makes java
// print or fail for a reason jitsim does not model (a flag-specific constraint or message).
var constraintsNotModelled = map[string]string{
	"17 UseCountedLoopSafepoints": "adjusts LoopStripMiningIter and says so",
	"25 UseCountedLoopSafepoints": "adjusts LoopStripMiningIter and says so",
	"25 CreateCoredumpOnCrash":    "warns when the host's core dumps are off",
}

// TestSetEachFlag replays the recorded runs that set one flag each (testdata/jvmflags/
// jdk-*.set.txt, made by setflags): every flag of 17 and 25 set alone to its PrintFlagsFinal
// value must be accepted silently, or print exactly what java printed (deprecation warnings,
// JVMCI's "must be enabled"), except the flags in constraintsNotModelled.
func TestSetEachFlag(t *testing.T) {
	rec := recordedOutputs(t)
	for _, rel := range recordedReleases(rec) {
		want := map[string]string{} // option → exit status and lines
		for _, block := range strings.Split(rec[rel]["set"], "\n-XX:") {
			opt, rest, _ := strings.Cut(strings.TrimPrefix(block, "-XX:"), "\n")
			if opt == "" {
				continue
			}
			var b strings.Builder
			for _, l := range strings.Split(strings.TrimRight(rest, "\n"), "\n") {
				b.WriteString(strings.TrimPrefix(l, "| ") + "\n")
			}
			want["-XX:"+opt] = b.String()
		}
		_, names, rows := printedRows(rec[rel]["final"])
		checked, same := 0, 0
		for _, n := range names {
			f := strings.Fields(rows[n])
			if n == "UnlockDiagnosticVMOptions" || n == "UnlockExperimentalVMOptions" || strings.HasPrefix(n, "PrintFlags") {
				continue
			}
			m := finalValue.FindStringSubmatch(rows[n])
			opt := "-XX:" + n + "=" + m[1]
			if f[0] == "bool" {
				opt = map[string]string{"true": "-XX:+", "false": "-XX:-"}[m[1]] + n
			}
			_, res, err := Parse(Options{JDK: rel, Arch: jdk.AMD64,
				Args: []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions", opt, "-version"}})
			var b strings.Builder
			b.WriteString("exit 0\n")
			if err != nil {
				b.Reset()
				b.WriteString("exit 1\n")
			}
			for _, l := range res.Stderr {
				b.WriteString(l)
			}
			if fe, ok := err.(*Error); ok {
				b.WriteString(fe.Text)
				if fe.Launcher {
					b.WriteString(LauncherLines)
				}
			}
			w, ok := want[opt]
			if !ok {
				w = "exit 0\n"
			}
			checked++
			if b.String() == w {
				same++
				if _, listed := constraintsNotModelled[rel.String()+" "+n]; listed {
					t.Errorf("%s %s: listed in constraintsNotModelled but matches java", rel, n)
				}
				continue
			}
			if _, listed := constraintsNotModelled[rel.String()+" "+n]; listed {
				continue
			}
			t.Errorf("%s %s:\n java:   %q\n jitsim: %q", rel, opt, w, b.String())
		}
		t.Logf("JDK %s: %d of %d flags set alone behave as java did", rel, same, checked)
	}
}

var finalValue = regexp.MustCompile(`^ *\S+ \S+ +=(?: (.*?))? +\{[^}]*\} \{[^}]*\}$`)
