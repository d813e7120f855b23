package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// The recording of the real JVMs: flags/testdata/cases.json holds the command lines and the
// files they name, flags/testdata/recorded.json what OpenJDK 17.0.15 and Temurin 25.0.3 printed
// for `java ARGS -version` (re-record with flags/testdata/record; the tests never need java).
type casesFile struct {
	Files map[string]string `json:"files"`
	Cases []struct {
		Name string            `json:"name"`
		Args []string          `json:"args"`
		Env  map[string]string `json:"env,omitempty"`
	} `json:"cases"`
}

type recording struct {
	HostFeatures string `json:"host_features"`
	HostCPUs     int    `json:"host_cpus"`
	HostMemory   uint64 `json:"host_memory"`
	// The CPU identity (cpu.Identity) of the recording machine.
	HostVendor     string `json:"host_vendor"`
	HostFamily     int    `json:"host_family"`
	HostExtensions string `json:"host_extensions"`
	JVMs           map[string]struct {
		Cases map[string]struct {
			Stdout string `json:"stdout"`
			Stderr string `json:"stderr"`
			Exit   int    `json:"exit"`
			// HostMemory is the recording machine's memory for this run, when it was
			// not HostMemory (a run recorded later on a machine with other memory).
			HostMemory uint64 `json:"host_memory"`
		} `json:"cases"`
	} `json:"jvms"`
}

// recordingModel is the one CPU model of the recorded runs: the machine the recording was made
// on (its features and CPU count as the recorder saved them), so the runtime's ergonomics
// settle the CPU-dependent rows as java did there, whatever machine runs the test.
func recordingModel(t *testing.T, rec *recording) cpu.Model {
	t.Helper()
	var fs cpu.Set
	for _, name := range strings.Split(rec.HostFeatures, ",") {
		f, err := cpu.ParseFeature(name)
		if err != nil {
			t.Fatalf("recorded host feature: %v", err)
		}
		fs = fs.With(f)
	}
	if rec.HostCPUs < 1 || rec.HostMemory == 0 {
		t.Fatal("recording lacks host_cpus or host_memory")
	}
	exts, err := cpu.ParseExts(rec.HostExtensions)
	if err != nil {
		t.Fatalf("recorded host extensions: %v", err)
	}
	id := cpu.Identity{Family: rec.HostFamily, Ext: exts}
	switch rec.HostVendor {
	case "AMD":
		id.Vendor = cpu.VendorAMD
	case "Intel":
		id.Vendor = cpu.VendorIntel
	default:
		t.Fatalf("recorded host vendor %q is not one the ergonomics tell apart", rec.HostVendor)
	}
	return cpu.Model{Name: "recording-machine", Description: "the machine the JVM runs were recorded on",
		Arch: jdk.AMD64, Features: fs, Cores: rec.HostCPUs, Memory: rec.HostMemory, ID: id}
}

// hostDependent lists recorded runs whose java output depends on the recording machine in a
// way the model cannot know, with the reason (docs/flags.md, "Recorded runs that depend on
// the host"). They are reported as host-dependent, not failed, and fail once they match, so
// the list stays true.
var hostDependent = map[string]string{
	"25/printcompilation_xlog_default":  hashCodeTiming,
	"25/printcompilation_xlog_wildcard": hashCodeTiming,
}

// notModelled lists recorded runs whose java output comes from parts of the JDK jitsim does
// not model, with the reason (docs/flags.md). Reported, not failed; they fail once they
// match.
var notModelled = map[string]string{}

func init() {
	for reason, names := range map[string][]string{
		"a JDWP transport library that fails to load aborts java; jitsim does not load agents' libraries": {"prod2_tomcat_jpda_bad"},
		"PrintAssembly's disassembly is not modelled":                                                     {"prod2_diag_printassembly"},
	} {
		for _, n := range names {
			notModelled["17/"+n], notModelled["25/"+n] = reason, reason
		}
	}
	for _, n := range []string{"17/prod2_flink_native_mem", "25/prod2_flink_native_mem"} {
		hostDependent[n] = "PrintNMTStatistics reports this process's native memory"
	}
	hostDependent["25/prod2_diag_printinlining"] = hashCodeTiming
	hostDependent["25/prod6_bug_logcompilation_pid_file"] = hashCodeTiming
	for _, n := range []string{"17/prod4_xlog_three_outputs", "25/prod4_xlog_three_outputs"} {
		hostDependent[n] = "with two log files open the start-up lasts longer, and java compiles more of its own methods, in an order that varies"
	}
	for _, n := range []string{"17/prod9_printcodecache", "25/prod9_printcodecache", "17/prod9_printcodecache_oncompilation_locked"} {
		hostDependent[n] = "PrintCodeCache's report names the code heaps' addresses, which change from run to run (address-space randomisation), " +
			"and their use, which follows the start-up compiles (25 printed it after no compile in one run and after three in another); jitsim prints no report"
	}
	for _, n := range []string{"17/prod4_xlog_uppercase_level", "25/prod4_xlog_uppercase_level"} {
		hostDependent[n] = "the safepoint's thread count (7 to 9) varies from run to run"
	}
}

// hashCodeTiming is why Temurin 25's start-up compiles differ from run to run.
const hashCodeTiming = "java's start-up compiles depend on timing: String::hashCode, in jitsim's recorded start-up list, " +
	"was compiled before -version ended in 4 of 10 clean-environment runs of Temurin 25.0.3 here, and not in this recording"

func loadRecording(t *testing.T) (*casesFile, *recording) {
	t.Helper()
	dir := filepath.Join("..", "..", "flags", "testdata")
	var cf casesFile
	var rec recording
	for name, v := range map[string]any{"cases.json": &cf, "recorded.json": &rec} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return &cf, &rec
}

// isBanner reports whether a stderr line is part of a version banner (java's or jitsim's).
func isBanner(line string) bool {
	for _, p := range []string{"openjdk version ", "openjdk full version ", "openjdk 1", "openjdk 2", "OpenJDK Runtime Environment", "OpenJDK 64-Bit Server VM (build", "OpenJDK 64-Bit Server VM Temurin", "jitsim "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// uptimes replaces the uptime decoration of each unified-logging line of s (an -Xlog output on
// stderr), each JVM's own clock reading.
func uptimes(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		lines[i] = uptimeDecoration.ReplaceAllString(l, "[uptime]")
	}
	return strings.Join(lines, "")
}

// incubatorWarning matches the boot layer's warning that names the incubator modules it
// resolved.
var incubatorWarning = regexp.MustCompile(`(?m)^(WARNING: Using incubator modules: )(.*)$`)

// sortIncubators sorts the modules of the incubator warning: java lists them from a set, in
// an order that changes from run to run (17.0.15 with both incubator modules: foreign first
// in 6 of 10 runs of --add-modules ALL-SYSTEM -Xint, 8 of 10 of them named in that order),
// so the list is java's answer in any order.
func sortIncubators(s string) string {
	return incubatorWarning.ReplaceAllStringFunc(s, func(l string) string {
		m := incubatorWarning.FindStringSubmatch(l)
		names := strings.Split(m[2], ", ")
		slices.Sort(names)
		return m[1] + strings.Join(names, ", ")
	})
}

// missingModule matches the boot layer's failure on a module an added module requires that
// --limit-modules left out.
var missingModule = regexp.MustCompile(`(?m)^(java\.lang\.module\.FindException: Module )(\S+)( not found, required by )(\S+)$`)

// foldMissingModule writes a missing module that module Y requires as "<a module Y
// requires>": with several missing, java names one at random from run to run (its module
// sets iterate in a per-run order), so any of them is java's answer; jitsim names the first
// by name. A module Y does not require stays as it is.
func foldMissingModule(s string, rel jdk.Release) string {
	return missingModule.ReplaceAllStringFunc(s, func(l string) string {
		m := missingModule.FindStringSubmatch(l)
		if !slices.Contains(flags.ModuleRequires(rel, m[4]), m[2]) {
			return l
		}
		return m[1] + "<a module " + m[4] + " requires>" + m[3] + m[4]
	})
}

// sortDescriptor sorts each run of --describe-module's lines of one kind (requires, uses,
// provides, qualified, contains) and the targets of each qualified export or open and the
// implementations of each service: java prints them from sets, in an order that changes
// from run to run (java.base's uses lines and qualified exports' targets, java.sql's
// requires), so the lines are java's answer in any order.
func sortDescriptor(s string) string {
	kind := func(l string) string {
		k, _, _ := strings.Cut(l, " ")
		switch k {
		case "requires", "uses", "provides", "qualified", "contains":
			if strings.HasSuffix(l, "\n") {
				return k
			}
		}
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	for i := 0; i < len(lines); {
		k, j := kind(lines[i]), i
		for j < len(lines) && k != "" && kind(lines[j]) == k {
			lines[j] = sortAfter(sortAfter(lines[j], " to "), " with ")
			j++
		}
		slices.Sort(lines[i:j])
		i = max(j, i+1)
	}
	return strings.Join(lines, "")
}

// sortAfter sorts the space-separated names after sep in one line ("qualified exports P to
// M1 M2"), keeping its newline.
func sortAfter(line, sep string) string {
	head, tail, ok := strings.Cut(strings.TrimSuffix(line, "\n"), sep)
	if !ok {
		return line
	}
	names := strings.Fields(tail)
	slices.Sort(names)
	return head + sep + strings.Join(names, " ") + "\n"
}

func stripBanner(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && !isBanner(l) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// header returns the "[Global flags…]" line of a PrintFlags* output, or "".
func header(stdout string) string {
	if strings.HasPrefix(stdout, "[Global flags") {
		return strings.SplitAfter(stdout, "\n")[0]
	}
	return ""
}

// otherLines returns the lines of stdout that are neither a table header nor a table row,
// in order: PrintVMOptions' lines, the compiler oracle's (CompileCommand echoes, errors,
// help), initialization errors.
func otherLines(stdout string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(stdout, "\n") {
		f := strings.Fields(l)
		if l == "" || isBanner(l) || silentLog(l) || ulCompileLine.MatchString(l) || strings.HasPrefix(l, "[Global flags") || isTableRow(f) || len(f) >= 2 && f[1] == "+=" || compileLine.MatchString(l) {
			continue
		}
		l = uptimeDecoration.ReplaceAllString(l, "[uptime]")
		// JFR's start lines name the process and the recording's absolute path.
		l = jcmdPID.ReplaceAllString(l, "jcmd PID ")
		l = absPath.ReplaceAllString(l, "] DIR/$2")
		// A log file's name has %p and %t expanded: the process and the moment.
		l = openedLog.ReplaceAllStringFunc(l, func(m string) string { return digits.ReplaceAllString(m, "N") })
		b.WriteString(blankDecoration.ReplaceAllString(l, "[blank]"))
	}
	return b.String()
}

// blankDecoration starts the later lines of a unified-logging message of several lines: as
// wide as the first line's decorations, so it grows with the uptime.
var blankDecoration = regexp.MustCompile(`^\[ +\]`)

// uptimeDecoration is the decoration that starts a unified-logging line with a time (uptime,
// uptimemillis, uptimenanos, time, utctime): java's and jitsim's differ (each its own clock),
// so the comparison leaves it out.
var uptimeDecoration = regexp.MustCompile(`^\[([0-9]+\.[0-9]{3}s|[0-9]+ms|[0-9]+ns|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+[+-][0-9]{4})\]`)

// silentLog reports whether a unified-logging line (-Xlog, -verbose:gc) is of a tag set
// jitsim validates but does not log — the class loader's, JNI's, CDS's, the OS layer's, the
// start-up timers' — or a GC line that describes this host's address space or the heap's
// use at exit (gc,metaspace, gc,heap…, gc,exit, Epsilon's summary). The comparison skips java's and jitsim's.
// The collectors' "Using …" and gc+init lines are compared.
func silentLog(l string) bool {
	m := logLine.FindStringSubmatch(l)
	if m == nil {
		return false
	}
	tags := strings.TrimSpace(m[1])
	first, _, _ := strings.Cut(tags, ",")
	switch first {
	case "class", "jni", "cds", "os", "startuptime":
		return true
	case "gc":
		return !comparedGCTags[tags] || epsilonHeap.MatchString(l)
	}
	return false
}

// comparedGCTags are the GC tag sets whose lines jitsim models at start-up: the collectors'
// "Using …", gc+init's description, the heap's sizing and reservation, G1's first expansion,
// regions, IHOP target and refinement zones.
var comparedGCTags = map[string]bool{"gc": true, "gc,init": true, "gc,heap": true, "gc,heap,coops": true,
	"gc,ergo": true, "gc,ergo,heap": true, "gc,heap,region": true, "gc,ihop": true, "gc,ergo,refine": true, "gc,refine": true}

// epsilonHeap is Epsilon's heap summary at exit, whose use varies from run to run.
var epsilonHeap = regexp.MustCompile(`\] Heap: .* used\n?$`)

// logLine matches a unified-logging line with the default decorations; group 1 is its tags.
var logLine = regexp.MustCompile(`^\[[0-9.]+s\]\[[a-z]+ *\]\[([a-z,]+) *\] `)

// jcmdPID and absPath match what JFR's start lines say of the running process: its pid and
// the recording's absolute path (the recorder writes its scratch directory as $SCRATCH; the
// test's directory is another).
var (
	jcmdPID = regexp.MustCompile(`jcmd [0-9]+ `)
	// openedLog is the file name of "Error opening log file", digits is a run of digits.
	openedLog = regexp.MustCompile(`Error opening log file '[^']*'`)
	digits    = regexp.MustCompile(`[0-9]+`)
	absPath   = regexp.MustCompile(`\] (/.*|\$SCRATCH)/([^/]+)$`)
)

// bannerInfo returns which stream carries a version banner ("stdout", "stderr" or "") and the
// mode words of its VM line ("mixed mode", "interpreted mode", "compiled mode", each
// followed by ", emulated-client" when java says so).
func bannerInfo(stdout, stderr string) (stream, mode string) {
	for _, o := range []struct{ name, text string }{{"stdout", stdout}, {"stderr", stderr}} {
		for _, l := range strings.Split(o.text, "\n") {
			for _, m := range []string{"mixed mode", "interpreted mode", "compiled mode"} {
				if isBanner(l) && strings.Contains(l, m) {
					mode = m
				}
			}
			if mode == "" {
				continue
			}
			if strings.Contains(l, "emulated-client") {
				mode += ", emulated-client"
			}
			return o.name, mode
		}
	}
	return "", ""
}

// compileLine matches a PrintCompilation line: time, compile id, attributes, level, method.
var compileLine = regexp.MustCompile(`^ *[0-9]+ +[0-9]+ [ %sb!n]{5} [0-9-]? +\S+`)

// compileTimeID matches the time and compile id that start a PrintCompilation line.
var compileTimeID = regexp.MustCompile(`^ *[0-9]+ +[0-9]+ `)

// ulCompileLine matches a -Xlog:jit+compilation line with the default decorations; its
// text is a PrintCompilation line without the timestamp column.
var ulCompileLine = regexp.MustCompile(`^\[[0-9.]+s\]\[(debug|info) *\]\[jit,compilation *\] `)

// compileLines returns stdout's PrintCompilation lines without their times and compile ids,
// and its -Xlog:jit+compilation lines the same way (decorations dropped, the level kept in
// front).
func compileLines(stdout string) []string {
	var lines []string
	for _, l := range strings.SplitAfter(stdout, "\n") {
		if m := ulCompileLine.FindStringSubmatch(l); m != nil {
			l = "0 " + l[len(m[0]):]
			lines = append(lines, "["+m[1]+"] "+compileTimeID.ReplaceAllString(l, ""))
			continue
		}
		if compileLine.MatchString(l) {
			lines = append(lines, compileTimeID.ReplaceAllString(l, ""))
		}
	}
	return lines
}

// notIn returns the lines of got that want does not have (each line of want matches once).
func notIn(got, want []string) []string {
	left := map[string]int{}
	for _, l := range want {
		left[l]++
	}
	var missing []string
	for _, l := range got {
		if left[l] == 0 {
			missing = append(missing, l)
			continue
		}
		left[l]--
	}
	return missing
}

// isTableRow reports whether a line's fields are a PrintFlagsFinal row ("type name = value
// {origin}", := when set) or a PrintFlagsRanges row ("type name [ min ... max ]").
func isTableRow(f []string) bool {
	return len(f) >= 3 && (f[2] == "=" || f[2] == ":=" || f[2] == "[")
}

// rows maps flag name to its PrintFlagsFinal row (continuation lines included).
func rows(stdout string) map[string]string {
	m := map[string]string{}
	last := ""
	for _, l := range strings.SplitAfter(stdout, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) >= 2 && f[1] == "+=":
			m[last] += l
		case isTableRow(f):
			last = f[1]
			m[last] = l
		}
	}
	return m
}

// TestMatchesRecordedJVMs runs every recorded command line through `jitsim run --jdk=N
// --cpu=recording-machine ARGS -version`, with the runtime's ergonomics, and compares the exit
// status, stderr (version banners aside) and every PrintFlagsFinal/PrintFlagsRanges row with
// what java printed.
func TestMatchesRecordedJVMs(t *testing.T) {
	cf, rec := loadRecording(t)
	dir := t.TempDir()
	for name, text := range cf.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	machine := recordingModel(t, rec)
	// memory is the physical memory of the machine the current run was recorded on.
	memory := machine.Memory
	d := wired()
	d.cpus = func() []cpu.Model { return []cpu.Model{machine} }
	d.lookupCPU = func(name string) (cpu.Model, error) {
		if name != machine.Name {
			return cpu.Model{}, fmt.Errorf("unknown CPU model %q", name)
		}
		m := machine
		m.Memory = memory
		return m, nil
	}
	// keptRows are the flags whose rows the recording kept in some case.
	keptRows := map[string]bool{}
	for _, jvm := range rec.JVMs {
		for _, c := range jvm.Cases {
			for n := range rows(c.Stdout) {
				keptRows[n] = true
			}
		}
	}
	matched, total, hostRuns, unmodelledRuns := 0, 0, 0, 0
	for _, rel := range []string{"17", "25"} {
		jvm, ok := rec.JVMs[rel]
		if !ok {
			t.Fatalf("no recording for JDK %s", rel)
		}
		relOf, err := jdk.Parse(rel)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cf.Cases {
			want, ok := jvm.Cases[c.Name]
			if !ok {
				t.Errorf("%s/%s: not recorded; re-run the recorder", rel, c.Name)
				continue
			}
			key := rel + "/" + c.Name
			t.Run(key, func(t *testing.T) {
				total++
				memory = machine.Memory
				if want.HostMemory != 0 {
					memory = want.HostMemory
				}
				var stdout, stderr bytes.Buffer
				env := func(k string) (string, bool) { v, ok := c.Env[k]; return v, ok }
				args := append(append([]string{"run", "--jdk=" + rel, "--cpu=recording-machine"}, c.Args...), "-version")
				exit := d.execute(args, strings.NewReader(""), &stdout, &stderr, env)
				var problems []string
				if exit != want.Exit {
					problems = append(problems, "exit status")
				}
				gotErr := stripBanner(stderr.String())
				gotErr = strings.Join(dropJitsimNotes(strings.SplitAfter(gotErr, "\n")), "")
				switch {
				case isXHelp(c.Args, c.Env):
					// -X's listing is jitsim's own text (TestXHelpListsJavaOptions checks
					// that jitsim accepts every option java lists); both print it on stderr.
					if (gotErr == "") != (stripBanner(want.Stderr) == "") {
						problems = append(problems, "stderr")
					}
				case sortIncubators(uptimes(gotErr)) != sortIncubators(uptimes(stripBanner(want.Stderr))):
					problems = append(problems, "stderr")
				}
				ws, wm := bannerInfo(want.Stdout, want.Stderr)
				if gs, gm := bannerInfo(stdout.String(), stderr.String()); ws != gs || wm != gm {
					problems = append(problems, fmt.Sprintf("version banner (java: %s %q, jitsim: %s %q)", ws, wm, gs, gm))
				}
				if header(want.Stdout) != header(stdout.String()) {
					problems = append(problems, "stdout header")
				}
				// The JVM's start-up compiles, where jitsim prints them (the default
				// configuration) or the case is about them: each line jitsim prints must be one
				// java printed, times and compile ids aside. Which methods java compiles before
				// -version ends depends on timing (a loaded machine adds some), so java may
				// print more.
				if w, g := compileLines(want.Stdout), compileLines(stdout.String()); len(g) > 0 || strings.HasPrefix(c.Name, "printcompilation_") {
					if missing := notIn(g, w); len(missing) > 0 || len(g) == 0 && len(w) > 0 {
						problems = append(problems, "PrintCompilation lines")
						t.Logf("--- java compiles:\n%s--- jitsim compiles not printed by java:\n%s", strings.Join(w, ""), strings.Join(missing, ""))
					}
				}
				if w, g := otherLines(want.Stdout), otherLines(stdout.String()); sortDescriptor(foldMissingModule(w, relOf)) != sortDescriptor(foldMissingModule(g, relOf)) && !(internalVersion(c.Args, c.Env) && oneLine(w) && oneLine(g)) && !(isXHelp(c.Args, c.Env) && w != "" && g != "") {
					problems = append(problems, "stdout lines outside the flag tables")
					t.Logf("--- java stdout (tables aside):\n%s--- jitsim stdout (tables aside):\n%s", w, g)
				}
				wr, gr := rows(want.Stdout), rows(stdout.String())
				var names []string
				for n := range wr {
					names = append(names, n)
				}
				for n := range gr {
					if _, ok := wr[n]; !ok {
						names = append(names, n)
					}
				}
				sort.Strings(names)
				var rowDiffs []string
				for _, n := range names {
					if f := flags.Lookup(n); f != nil && (f.NotModelled || !keptRows[n]) && wr[n] == "" {
						// The recording keeps the rows of the flags modelled when it was
						// made; the full tables are compared in flags
						// (TestPrintFlagsMatchRecordings).
						continue
					}
					if f := flags.Lookup(n); f != nil && f.Jitsim {
						if wr[n] != "" {
							rowDiffs = append(rowDiffs, "java has jitsim's own flag "+n+"\n")
						}
						continue
					}
					if wr[n] != gr[n] {
						rowDiffs = append(rowDiffs, "java:   "+wr[n]+"jitsim: "+gr[n])
					}
				}
				if len(rowDiffs) > 0 {
					problems = append(problems, "PrintFlagsFinal rows")
				}
				if len(problems) == 0 {
					matched++
					if reason, ok := hostDependent[key]; ok {
						t.Errorf("listed as host-dependent (%s) but matches: drop it from hostDependent", reason)
					}
					if reason, ok := notModelled[key]; ok {
						t.Errorf("listed as not modelled (%s) but matches: drop it from notModelled", reason)
					}
					return
				}
				if reason, ok := notModelled[key]; ok {
					unmodelledRuns++
					t.Logf("not modelled: differs (%s): %s", strings.Join(problems, ", "), reason)
					return
				}
				if reason, ok := hostDependent[key]; ok {
					hostRuns++
					t.Logf("host-dependent: differs (%s): %s", strings.Join(problems, ", "), reason)
					return
				}
				t.Errorf("differs in %s\n--- java stderr:\n%s--- jitsim stderr:\n%s--- exit java %d, jitsim %d\n%s",
					strings.Join(problems, ", "), want.Stderr, stderr.String(), want.Exit, exit, strings.Join(rowDiffs, ""))
			})
		}
	}
	t.Logf("%d of %d recorded JVM runs matched; %d differ in a way that depends on the recording host (hostDependent), %d in what jitsim does not model (notModelled)",
		matched, total, hostRuns, unmodelledRuns)
}

// isXHelp reports whether a case asks for -X's listing or -Xlog's usage (in the options or JDK_JAVA_OPTIONS)
// before any other option that ends the command line.
func isXHelp(args []string, env map[string]string) bool {
	switch firstTerminal(args, env) {
	case "-X", "--help-extra", "-Xlog:help":
		return true
	}
	return false
}

// internalVersion reports whether a case prints the VM's build line (-Xinternalversion), a
// line in jitsim's words.
func internalVersion(args []string, env map[string]string) bool {
	return firstTerminal(args, env) == "-Xinternalversion"
}

func firstTerminal(args []string, env map[string]string) string {
	all := append(strings.Fields(env["JDK_JAVA_OPTIONS"]), args...)
	for _, a := range all {
		switch a {
		case "-X", "--help-extra", "-Xlog:help", "-Xinternalversion", "-version", "--version":
			return a
		}
	}
	return ""
}

func oneLine(s string) bool { return strings.Count(s, "\n") == 1 && strings.HasSuffix(s, "\n") }

func dropJitsimNotes(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "jitsim: ") {
			out = append(out, l)
		}
	}
	return out
}

// TestFullTablesMatchRecordings runs `jitsim run --jdk=N --cpu=recording-machine` with both
// unlock options and -XX:+PrintFlagsFinal (then -XX:+PrintFlagsRanges), the runtime's
// ergonomics included, and compares every row with the full tables recorded from java
// (flags/testdata/jvmflags): the same flags in the same order, every row equal but the value
// and origin of the rows listed in host-ergonomics.txt.
func TestFullTablesMatchRecordings(t *testing.T) {
	_, rec := loadRecording(t)
	dir := filepath.Join("..", "..", "flags", "testdata", "jvmflags")
	hostRows := map[string]bool{}
	data, err := os.ReadFile(filepath.Join(dir, "host-ergonomics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if name, _, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			hostRows[name] = true
		}
	}
	machine := recordingModel(t, rec)
	d := wired()
	d.lookupCPU = func(string) (cpu.Model, error) { return machine, nil }
	files, err := filepath.Glob(filepath.Join(dir, "jdk-*.final.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded tables (%v)", err)
	}
	for _, final := range files {
		feature, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(final), "jdk-"), ".")
		for _, what := range []string{"Final", "Ranges"} {
			want, err := os.ReadFile(strings.Replace(final, ".final.", "."+strings.ToLower(what)+".", 1))
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			args := []string{"run", "--jdk=" + feature, "--cpu=recording-machine", "-XX:+UnlockDiagnosticVMOptions",
				"-XX:+UnlockExperimentalVMOptions", "-XX:+PrintFlags" + what, "-version"}
			if exit := d.execute(args, strings.NewReader(""), &stdout, &stderr, func(string) (string, bool) { return "", false }); exit != 0 {
				t.Fatalf("%v: exit %d: %s", args, exit, stderr.String())
			}
			wl := strings.Split(strings.TrimRight(string(want), "\n"), "\n")
			var gl []string
			for _, l := range strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n") {
				if f := strings.Fields(l); len(f) > 1 {
					if fl := flags.Lookup(f[1]); fl != nil && fl.Jitsim {
						continue
					}
				}
				gl = append(gl, l)
			}
			if len(gl) != len(wl) {
				t.Errorf("JDK %s PrintFlags%s: %d lines, java %d", feature, what, len(gl), len(wl))
				continue
			}
			equal, host := 0, 0
			for i := range wl {
				switch f := strings.Fields(wl[i]); {
				case wl[i] == gl[i]:
					equal++
				case len(f) > 1 && hostRows[f[1]] && withoutValue(wl[i]) == withoutValue(gl[i]):
					host++
				default:
					t.Errorf("JDK %s PrintFlags%s line %d:\n java:   %q\n jitsim: %q", feature, what, i+1, wl[i], gl[i])
				}
			}
			t.Logf("JDK %s PrintFlags%s: %d of %d lines equal, %d more differ only in a host-ergonomics value", feature, what, equal, len(wl), host)
		}
	}
}

// withoutValue returns a PrintFlagsFinal or PrintFlagsRanges row without its value and
// origin: the type, name and kind (a ranges row keeps its range).
func withoutValue(row string) string {
	row = strings.TrimSpace(row)
	row = strings.TrimSpace(row[:strings.LastIndex(row, "{")])
	kind := row[strings.LastIndex(row, "{"):]
	if name, _, ok := strings.Cut(row, " ="); ok {
		return name + kind
	}
	return row
}

// TestErgonomicsMatchRecordings runs `jitsim run -XX:+PrintFlagsFinal` on the recording
// machine's model with each option line of flags/testdata/jvmflags/ergonomics (how java's
// table moved with the CPU levels, the processor count, the heap and the collector) and
// compares every row java printed, value and origin included, with the recorded table
// updated by the line's rows. SharedBaseAddress, where the run mapped its archive, is left
// out on both sides.
func TestErgonomicsMatchRecordings(t *testing.T) {
	_, rec := loadRecording(t)
	dir := filepath.Join("..", "..", "flags", "testdata", "jvmflags")
	machine := recordingModel(t, rec)
	d := wired()
	d.lookupCPU = func(string) (cpu.Model, error) { return machine, nil }
	files, err := filepath.Glob(filepath.Join(dir, "ergonomics", "jdk-*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ergonomics recordings (%v)", err)
	}
	name := func(row string) string {
		if f := strings.Fields(row); len(f) > 1 {
			return f[1]
		}
		return ""
	}
	for _, file := range files {
		version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "jdk-"), ".txt")
		feature, _, _ := strings.Cut(version, ".")
		base, err := os.ReadFile(filepath.Join(dir, "jdk-"+version+".final.txt"))
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string]map[string]string{"": {}}
		order := []string{""}
		var cur map[string]string
		for _, l := range strings.Split(string(data), "\n") {
			switch {
			case strings.HasPrefix(l, "#") || l == "":
			case strings.HasPrefix(l, "== "):
				opts := strings.TrimPrefix(l, "== ")
				cur = map[string]string{}
				variants[opts] = cur
				order = append(order, opts)
			case cur == nil:
				t.Fatalf("%s: row before the first option line: %q", file, l)
			default:
				cur[name(l)] = l
			}
		}
		for _, opts := range order {
			args := []string{"run", "--jdk=" + feature, "--cpu=recording-machine", "-XX:+UnlockDiagnosticVMOptions",
				"-XX:+UnlockExperimentalVMOptions"}
			args = append(args, strings.Fields(opts)...)
			args = append(args, "-XX:+PrintFlagsFinal", "-version")
			var stdout, stderr bytes.Buffer
			if exit := d.execute(args, strings.NewReader(""), &stdout, &stderr, func(string) (string, bool) { return "", false }); exit != 0 {
				t.Fatalf("%v: exit %d: %s", args, exit, stderr.String())
			}
			got := map[string]string{}
			for _, l := range strings.Split(stdout.String(), "\n") {
				got[name(l)] = l
			}
			bad := 0
			for _, want := range strings.Split(strings.TrimRight(string(base), "\n"), "\n") {
				n := name(want)
				if n == "" || n == "SharedBaseAddress" || !strings.Contains(want, " = ") {
					continue
				}
				if v, ok := variants[opts][n]; ok {
					want = v
				}
				if got[n] != want {
					bad++
					t.Errorf("JDK %s %q:\n java:   %q\n jitsim: %q", version, opts, want, got[n])
				}
			}
			if bad > 0 {
				t.Logf("JDK %s %q: %d rows differ", version, opts, bad)
			}
		}
	}
}
