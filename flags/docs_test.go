package flags

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

var update = flag.Bool("update", false, "rewrite docs/flags.md from the flag table")

// TestFlagsDoc keeps docs/flags.md equal to the table; run with -update after changing a row.
func TestFlagsDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "flags.md")
	want := FlagsMarkdown()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./flags -run TestFlagsDoc -update)", err)
	}
	if string(got) != want {
		t.Error("docs/flags.md is out of date: run go test ./flags -run TestFlagsDoc -update")
	}
}

// FlagsMarkdown renders the flag table as the Markdown page docs/flags.md: the hand rows with
// their descriptions, then the recorded rows the model does not act on, one short line each.
func FlagsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Flags jitsim models\n\n")
	b.WriteString("Which -XX flags does each JDK profile know, with what type, kind, default and range?\n")
	b.WriteString("Generated from the table in `flags/table.go` and `flags/table_recorded.go` (`go test ./flags -run TestFlagsDoc -update`).\n")
	b.WriteString("Values are declared defaults, before ergonomics; the CPU-dependent ones (UseAES*, UseGHASHIntrinsics,\n")
	b.WriteString("UseCLMUL, UseAVX, UseSSE, UseSSE42Intrinsics, UseVectorizedMismatchIntrinsic, CICompilerCount) are set\n")
	b.WriteString("by the runtime's ergonomics. Profiles: 8, 8u, 17, 21, 25; \"x86\" flags do not exist on arm64.\n\n")
	b.WriteString("## Modelled\n\n")
	b.WriteString("The rows written by hand: the flags jitsim acts on or documents, and every flag of the profiles\n")
	b.WriteString("that were not recorded (8, 8u, 21).\n\n")
	b.WriteString("| Flag | Type | Kind | Default | Range | Profiles | Description |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	n := 0
	for _, f := range table {
		if f.NotModelled {
			n++
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", f.Name, typeText(f), kindColumn(f),
			byProfile(f, func(j jdk.Release) string { return defaultText(f.Default.At(j)) }),
			byProfile(f, func(j jdk.Release) string { return rangeText(f, j) }),
			profiles(f), doc(f))
	}
	b.WriteString(launcherMarkdown())
	b.WriteString(machineMarkdown)
	fmt.Fprintf(&b, "\n## Accepted, not modelled (%d flags)\n\n", n)
	b.WriteString("Generated from the recordings of the real JVMs (`flags/testdata/jvmflags`): java accepts these\n")
	b.WriteString("flags on JDK 17 and 25, so jitsim does too, checks their type and range, and otherwise ignores\n")
	b.WriteString("them. The default of a diagnostic or experimental flag is the value the recorded JVM printed\n")
	b.WriteString("(HotSpot prints no declared default for them). The profiles 8, 8u and 21 were not recorded and\n")
	b.WriteString("do not have these flags. The tables are generated from x86_64 recordings: on arm64 jitsim has the\n")
	b.WriteString("same rows but the x86 ones, with x86_64's defaults, and not arm64's own flags. JDK 17 on arm64\n")
	b.WriteString("was recorded under qemu-aarch64 (`flags/testdata/jvmflags/aarch64`, Debian's 17.0.21.1) and the\n")
	b.WriteString("hand rows are checked against it; JDK 25 on arm64 was not recorded.\n\n")
	b.WriteString("| Flag | Type | Kind | Default | Range | Profiles |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, f := range table {
		if !f.NotModelled {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", f.Name, typeText(f), kindColumn(f),
			byProfile(f, func(j jdk.Release) string { return defaultText(f.Default.At(j)) }),
			byProfile(f, func(j jdk.Release) string { return rangeText(f, j) }),
			profiles(f))
	}
	return b.String()
}

func typeText(f *Flag) string {
	return byProfile(f, func(j jdk.Release) string { return f.Type.At(j).String() })
}

func kindColumn(f *Flag) string {
	return byProfile(f, func(j jdk.Release) string {
		k := strings.Trim(kindText(f, j), "{}")
		if d := f.Deprecated.At(j); d != "" {
			k += ", deprecated in " + d
		}
		if r := f.Requires.At(j); r != "" {
			k += ", needs " + r
		}
		return k
	})
}

func doc(f *Flag) string {
	if f.Jitsim {
		return "**jitsim's own.** " + f.Doc
	}
	return f.Doc
}

func profiles(f *Flag) string {
	var s, unrecorded []string
	for _, j := range jdk.All() {
		if f.inJDK(j) {
			s = append(s, j.String())
			if !recordedProfiles().Has(j) {
				unrecorded = append(unrecorded, j.String())
			}
		}
	}
	out := strings.Join(s, ", ")
	if len(unrecorded) > 0 {
		out += " (" + strings.Join(unrecorded, ", ") + ": not recorded)"
	}
	if f.AMD64Only {
		out += " (x86)"
	}
	return out
}

// recordedProfiles are the profiles whose flags were recorded from a real JVM.
func recordedProfiles() jdk.Set {
	var rs jdk.Set
	for _, r := range recordedTable {
		rs |= r.Releases
	}
	return rs
}

// byProfile joins the distinct values of fn over the profiles that have f, naming the
// profiles when they differ.
func byProfile(f *Flag, fn func(jdk.Release) string) string {
	type run struct {
		from, to jdk.Release
		v        string
	}
	var runs []run
	for _, j := range jdk.All() {
		if !f.inJDK(j) {
			continue
		}
		v := fn(j)
		if n := len(runs); n > 0 && runs[n-1].v == v {
			runs[n-1].to = j
			continue
		}
		runs = append(runs, run{j, j, v})
	}
	if len(runs) == 1 {
		return runs[0].v
	}
	var parts []string
	for _, r := range runs {
		name := r.from.String()
		if r.to != r.from {
			name += "–" + r.to.String()
		}
		parts = append(parts, name+": "+r.v)
	}
	return strings.Join(parts, "; ")
}

func rangeText(f *Flag, j jdk.Release) string {
	r := f.RangeAt(j)
	if r == nil {
		return "–"
	}
	switch t := f.Type.At(j); {
	case t.unsigned():
		return fmt.Sprintf("%d…%d", r.UMin, r.UMax)
	case t == Double:
		return fmt.Sprintf("%g…%g", r.FMin, r.FMax)
	}
	return fmt.Sprintf("%d…%d", r.Min, r.Max)
}

func defaultText(s string) string {
	if s == "" {
		return "(empty)"
	}
	return "`" + s + "`"
}

// launcherMarkdown renders the launcher's option table (flags/launcher.go): each option, what
// it takes, where java refuses it, and what jitsim does with it.
func launcherMarkdown() string {
	var b strings.Builder
	b.WriteString("\n## Launcher and -X options\n\n")
	b.WriteString("The java launcher's options and the VM's -X options, from the one table in `flags/launcher.go`,\n")
	b.WriteString("checked as OpenJDK 17.0.15 and Temurin 25.0.3 check them (`flags/testdata/recorded.json`, cases\n")
	b.WriteString("`launcher_*`, `env_jdk_java_options_*`, `xlog_*`, `modules_*`). \"Ends the line\": java acts on the\n")
	b.WriteString("option and looks at nothing after it. Options without an effect in jitsim are accepted after java's\n")
	b.WriteString("checks of their syntax.\n\n")
	b.WriteString("| Option | Value | Not in JDK_JAVA_OPTIONS | Ends the line | Profiles | In jitsim |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, o := range launcherOptions {
		name, value := o.name, "–"
		switch {
		case o.missing != "":
			value = "next argument (" + o.missing + ")"
		case o.prefix:
			name += "…"
			value = "after the name"
		}
		yes := func(v bool) string {
			if v {
				return "yes"
			}
			return ""
		}
		what := o.help
		if what == "" {
			what = "accepted, no effect"
			if o.act != nil {
				what = "acted on as java does"
			}
		}
		rels := "all"
		if o.releases != 0 {
			rels = o.releases.String()
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", name, value, yes(o.envRefused), yes(o.terminal), rels, what)
	}
	return b.String()
}

// machineMarkdown is docs/flags.md's account of what jitsim prints from the modelled
// machine, and of what java prints that depends on the host in ways the model cannot know.
const machineMarkdown = `
## Heap and GC ergonomics, and output that depends on the host

The runtime's ergonomics (runtime/ergo) settle what java derives from the machine: the CPU
model's features and processor count, its physical memory (` + "`--cpu=host`" + `: what the kernel
reports; a named model: 16 GiB) and its transparent-huge-page mode (host: sysfs; a named model:
madvise). Before ` + "`-XX:+PrintCommandLineFlags`" + ` is printed they choose the collector (G1 on a
machine with two active processors and 1792 MB, else Serial), size MaxHeapSize (a quarter of the
memory, half when that is below the default), InitialHeapSize (1/64) and MinHeapSize
(NewSize + OldSize) from the memory, -XX:MaxRAM and the RAM percentages, and set G1's
ConcGCThreads, G1ConcRefinementThreads, MarkStackSize (17: GCDrainStackTargetSize), ZGC's
ZYoungGCThreads and ZOldGCThreads (25), compressed oops, THPStackMitigation and 25's AOT
training flags. CICompilerCount, the CPU pass and the heap's alignment (G1's region size, 2 MB
for Serial and Parallel) come after the line, as in java; PrintFlagsFinal shows them.

-Xlog's collector lines are reproduced for Serial, Parallel and G1 on 17 and 25: "Using …",
gc+init's description (build, CPUs, memory, compressed-oops mode, region and heap sizes,
workers), gc+heap=debug's sizes and the zero-based heap's address. ZGC's and Shenandoah's
gc+init lines (address space, backing file system) are not modelled; nor are what gc* prints of
this host's address space (gc,metaspace: the class space's mapping, chosen by ASLR) and of the
heap's use at exit (gc,heap,exit on 17, gc,exit on 25; Epsilon's summary), which vary from run
to run. The modelled machine has no large pages configured: -XX:+UseLargePages warns as java
does on such a host.

Output java prints that no model can match line for line:

- the uptime and time decorations of unified logging (` + "`[0.012s]`, `[7ms]`, `[2026-…+0000]`" + `):
  jitsim prints its own clock in java's shape;
- JFR's ` + "`Use jcmd PID JFR.dump …`" + ` line names the process (jitsim names its own);
- -Xlog:os+container, -Xlog:startuptime, -XshowSettings and -XX:+PrintNMTStatistics describe
  this host and this process (not modelled);
- the start-up compiles of -XX:+PrintCompilation and -Xlog:jit+compilation on Temurin 25 depend
  on timing (String::hashCode is compiled before -version ends in some runs): the recorded
  runs ` + "`25/printcompilation_xlog_default`" + ` and ` + "`25/printcompilation_xlog_wildcard`" + ` are
  reported by TestMatchesRecordedJVMs as host-dependent.

Not modelled yet: the "No tag set matches selection: X. Did you mean any of the following? …"
warning of an -Xlog selection that names existing tags no tag set combines (17 and 25 print it;
its suggestions come from the JVM's list of registered tag sets, which the recordings do not
hold), the management agent's errors (-Dcom.sun.management.jmxremote.port=x), and a JDWP
transport that fails to load.
`
