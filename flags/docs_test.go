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
	b.WriteString("by the runtime's ergonomics. Profiles: " + strings.Join(jdk.Names(), ", ") + "; \"x86\" flags do not exist on arm64.\n\n")
	b.WriteString("## Modelled\n\n")
	b.WriteString("The rows written by hand: the flags jitsim acts on or documents, and every flag of the profiles\n")
	b.WriteString("that were not recorded (" + (jdk.AllReleases &^ (rec17 | rec25)).String() + ").\n\n")
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
	b.WriteString("checks of their syntax. A word in an @argfile that is not an option (an @argfile named inside one\n")
	b.WriteString("included, which the launcher does not expand) is java's main class: the options end there, and\n")
	b.WriteString("once the VM is up java cannot load it (\"Could not find or load main class\", exit 1), as jitsim says.\n")
	b.WriteString("Each options container — the command line (with JDK_JAVA_OPTIONS and @argfiles),\n")
	b.WriteString("JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, read in that order — takes one `-XX:VMOptionsFile=`, whose\n")
	b.WriteString("options take the container's origin; a second in the same container, and a file that names\n")
	b.WriteString("another (before any of its options is read), are java's errors naming the container\n")
	b.WriteString("(`cmd_line_args`, `env_var='JAVA_TOOL_OPTIONS'`). The -X options and -D properties that set a\n")
	b.WriteString("flag (-Xmx, -Xss, -Xbatch, -Xrs, -Xshare, -Xnoclassgc, `-Dcom.sun.management…`) set it with the\n")
	b.WriteString("command line's origin whatever container held them; only -XX options take their container's.\n\n")
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
			if o.act != nil || o.vmAct != nil {
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
java prints the line before every start-up failure after the options are read and the
collector chosen (the flag constraints checked after the ergonomics, the heap and stack sizes,
agents, the code heaps, the class-data archive but 25's unreadable one, the compile commands,
the boot layer, the management agent), and not before the options' own errors, a range checked
late, an unknown compilation mode, two collectors or a removed directory option; jitsim
follows (17.0.15, 25.0.3). The tenuring switches move together where the options stand
(MaxTenuringThreshold=0 is AlwaysTenure, NeverTenure a maximum of 16, the last winning) and a
default InitialTenuringThreshold follows a lower maximum; only Parallel refuses an initial
threshold above the maximum, after the line. G1 warns when NewSize or MaxNewSize overrides
NewRatio and when NewSize is above MaxNewSize, which then takes NewSize. -XX:+AggressiveHeap
sets, once the options are read and over what they said, the Parallel collector, a fixed
256 KB TLAB and young PLAB, an 8 KB old PLAB, no TLAB resizing, ThresholdTolerance 100 (17:
no scavenge before a full GC), and, unless the command line sized them, half the machine's
memory as the maximum, initial and minimum heap and three eighths of the maximum as the young
generation, all with the command line's origin.

Temurin 25's AOT cache options are checked as java checks them: AOTCache, AOTConfiguration or
AOTMode with an -Xshare option or the older archive options, AOTMode=record without a
configuration or with a cache to read, AOTMode=create without a configuration, a cache to
write, or with a configuration that does not exist, AOTConfiguration outside record and create,
and an empty value, each java's error. A cache that does not exist is logged as java logs it
(three aot errors) and ends the start under AOTMode=on; AOTMode=off and record map no archive
(the banner loses "sharing"), and record says at exit where it wrote the configuration (jitsim
writes none). The AOT switches are settled as java settles them (AOTClassLinking on when a mode
is given, AOTInvokeDynamicLinking following it, training recorded under record and replayed
with a cache or an auto or on mode). AOTCacheOutput's child process, which assembles the cache,
is not modelled. 25's -XX:+AutoCreateSharedArchive needs SharedArchiveFile (a cds warning, then
the launcher's lines) and takes a missing archive as one to create; a base and a dynamic
archive whose base does not exist are logged as two cds errors (17 checks the base as one
archive). -Xshare:dump is accepted: 17 exits without its banner, 25 runs on interpreted.

-Xlog's collector lines are reproduced for Serial, Parallel and G1 on 17 and 25: "Using …",
gc+init's description (build, CPUs, memory, compressed-oops mode, region and heap sizes,
workers), gc+heap=debug's sizes and the zero-based heap's address. ZGC's gc+init lines are
reproduced on both releases from the settled flags (its address space sixteen times the maximum
heap, the medium page size, the workers, uncommit), with the modelled Linux machine's memfd heap
on tmpfs. Shenandoah's and Epsilon's gc+init descriptions are reproduced on both (Shenandoah's
heap in whole regions, its regions in whole 2 MB pages on transparent huge pages once the heap
holds ten of them, the mode and heuristics; Epsilon's heap in whole pages and its TLAB sizing);
25's generational Shenandoah, which adds its young and old heuristics, is not. Nor is what
gc* prints of this host's address space (gc,metaspace: the class space's mapping, chosen by
ASLR), which varies from run to run. The modelled machine has no large pages configured: -XX:+UseLargePages
warns as java does on such a host and goes off (-XX:-UseLargePages in PrintCommandLineFlags);
transparent huge pages serve them (UseLargePages on, "Large Page Support: Enabled
(Transparent)", Parallel's spaces aligned to 2 MB) unless the command line turned large pages
off, which turns every kind off. A MaxVectorSize given is held to at least 4, at most the
vector width of the AVX level and a power of two, with java's warnings. Nor does it dump core (ulimit -c 0): Temurin 25 warns when
the command line asks for -XX:+CreateCoredumpOnCrash.

When the ergonomics' maximum heap (no -Xmx) is above what compressed oops address, a MaxRAM
or RAM share given on the command line turns the oops off (ergonomic, so
PrintCommandLineFlags shows -XX:-UseCompressedOops) and keeps the heap; with the oops asked for,
or left on by the VM, the heap is cut to the oops' reach less HeapBaseMinAddress (G1 at
MaxRAM=256g with +UseCompressedOops: 32 GB less 32 MB less 2 GB; ZGC is cut alike before it
turns them off). A machine of more than 128 GB takes the second branch by its own memory, which
was not observed here. A maximum heap above the address range the VM can reserve (the range
below the launcher, at two thirds of x86_64's 128 TiB user space: 85.3 TiB) stops the VM after
the collector's "Using" line ("Could not reserve enough space for …KB object heap") under every
collector but ZGC; java's own boundary moves up by as much as 1 TiB with address-space
randomisation (-Xmx86t reserved in one or two runs of three). ZGC refuses a heap above 16 TB
(25: the initialization error after gc+init's NUMA line; 17: a gc error, the rest of the
collector's lines, then the launcher's lines alone), and warns, as gc warnings after the
backing filesystem's line, when its 3.6 mappings per 2 MB of heap exceed the modelled machine's
vm.max_map_count (the kernel's default, 65530: from -Xmx36407m); a heap beyond compressed oops'
reach leaves UseCompressedOops at its default under ZGC. The metaspace commits in 64 KB
granules: MaxMetaspaceSize is at least one, MetaspaceSize whole granules (at least one, at
most the maximum), and below two (128 KB) the VM stops after the collector's lines with
"OutOfMemoryError: Metaspace" (without the archive it needs about 4 MB, and java's texts
below that vary: not modelled).

A young generation too small for the JDK's own start-up stops the VM after the collector's
start-up lines ("GC triggered before VM initialization completed. Try increasing NewSize,
current value …K."): under Serial a young generation given by -Xmn or -XX:NewSize (aligned
down to 64 KB, at least 192 KB) below 384 KB on 17 and 256 KB on 25; under G1 two regions on 17, and on 25 a heap that
leaves less than 2 MB beyond one region. Parallel starts with any. The boundaries were taken
with a clean environment; the environment's strings are part of what the start-up allocates,
so a large one moves them up a step (` + "`ergo.StartupFailure`" + `).

The collector's summary at exit (gc,heap,exit on 17, gc,exit on 25, under -Xlog:gc*,
-XX:+PrintGCDetails or the tag set itself) is reproduced after -version for G1, Serial and
Parallel. From the settled flags: the heap's reserved size and address range (MaxHeapSize and
the compressed-oops mode), G1's committed size (MaxHeapSize when the heap cannot grow;
otherwise the initial size in whole regions plus one region of at least 2 MB, what 25
committed in every run observed, where 17 committed up to 8 MB more) and region size; Serial's
and Parallel's generations (the young one committed at NewSize and reserved at MaxNewSize,
survivors a (SurvivorRatio + 2)th of it aligned to 64 KB, or an InitialSurvivorRatio-th aligned
to 512 KB; Serial at the heap's start, Parallel at its end) and their address triples; the
metaspace's reservations (CompressedClassSpaceSize, plus 64 MB for non-class data). What
depends on the run is printed as a ` + "`-version`" + ` run left it: G1's heap use (1439K on 17, 2026K on
25 with 1 MB regions; 17 printed 1685K in some runs; larger regions hold larger TLABs and print
more), one young region and no survivors; 6 % of Serial's and Parallel's eden (25 at every size
tried; 17 printed 4 to 8 %), whose exact top address is the run's; 25's 1166K of archived
objects in the old generation; the metaspace's use (25: the same in every run; 17: within a
few KB). On 25 every line of Serial's and Parallel's summary but eden's equals java's. vs-java's
rule compares these lines literally: a line with another use, like the uptime decoration, is a
difference the model cannot remove. ZGC's, Shenandoah's and Epsilon's summaries are not
reproduced.

Output java prints that no model can match line for line:

- the uptime and time decorations of unified logging (` + "`[0.012s]`, `[7ms]`, `[2026-…+0000]`" + `):
  jitsim prints its own clock in java's shape;
- JFR's ` + "`Use jcmd PID JFR.dump …`" + ` line names the process (jitsim names its own);
- -Xlog:os+container, -Xlog:startuptime, -XshowSettings (but for its vm category, printed from
  the launcher's -Xss/-Xms/-Xmx and the settled heap) and -XX:+PrintNMTStatistics describe
  this host and this process (not modelled);
- the start-up compiles of -XX:+PrintCompilation and -Xlog:jit+compilation on Temurin 25 depend
  on timing (String::hashCode is compiled before -version ends in some runs): the recorded
  runs ` + "`25/printcompilation_xlog_default`" + ` and ` + "`25/printcompilation_xlog_wildcard`" + ` are
  reported by TestMatchesRecordedJVMs as host-dependent;
- -XX:+PrintCodeCache's report at exit, and -XX:+PrintCodeCacheOnCompilation's after each
  compile, give each code heap's address range, which address-space randomisation moves from
  run to run, and its use, which follows the start-up compiles (java printed different uses in
  three runs of the same line); jitsim prints no report.

An -Xlog selection of valid tags that no registered tag set matches (exactly, or as a subset
with the wildcard) gets java's warning "No tag set matches selection: X. Did you mean any of
the following? …" on 17 and 25 (a tag the release lacks, like 17's ` + "`deoptimization`" + `, is an error
instead). The tag sets are recorded per release in ` + "`flags/testdata/jvmflags/jdk-VERSION.tagsets.txt`" + `
(` + "`record-tagsets.sh`" + `: read from libjvm.so's symbol table, each confirmed by the JVM) and
generated into ` + "`recordedLogTagSets`" + `; the order in which the JVM walks them is recorded beside
them (` + "`jdk-VERSION.tagset-order.txt`" + `, ` + "`record-tagset-order.sh`" + `: read from the JVM's own list
under gdb at the end of ` + "`-version`" + `, checked against the tag sets) into ` + "`recordedLogTagSetOrder`" + `.
The suggestions are java's: first the selection itself with "*" when that would take a tag set
(` + "`-Xlog:nestmates`" + ` suggests ` + "`nestmates*`" + `); then, in the JVM's order, each tag set as a selection
(with "*" when that takes another tag set too, ` + "`codecache*`" + ` for ` + "`aot+codecache`" + `) whose
Sørensen–Dice similarity to the selection (twice the shared tags over the tags of both) is at
least 0.3, the first five kept and a later one replacing the first of the least similar when it
is more similar; the five are then sorted by similarity, fewer tags, then more tag sets selected,
with HotSpot's quicksort (median of three, exchanging equal elements), whose handling of equal
elements decides their order. Checked on 39 mistyped selections per release (80 runs, all
equal), 14 of them recorded (` + "`xlog_nomatch_order_*`" + `).

The management agent's remote connector (-Dcom.sun.management.jmxremote.port) fails as java's
does on what the command line alone decides, with the agent's stack trace and the release's
line numbers (flags/jmx.go): a port or RMI port that Integer.parseInt refuses or that is
negative, and a password file that does not exist: the one the command line names or, with
authentication left on, the default one in the JDK's own directory, which a JDK ships only as a
template; jitsim cannot know that directory and names it ` + "`<java.home>`" + `.

The debugger agent's options (` + "`-agentlib:jdwp=`, `-Xrunjdwp:`" + `) are read as the agent reads
them, from a table of its options per release: its syntax errors, precrash's removal, a second
transport, a missing transport, a client's missing address, onthrow's and onuncaught's need of
launch=, and the "Listening for transport" line of a server that does not wait for an event.

Not modelled yet: a port out of range (refused only when the connector binds), a JDWP
transport that fails to load, and a client that cannot connect.

## CPU and collector ergonomics

After the heap's alignment a machine pass (runtime/ergo/machine.go, one table of rows) settles
the rest of what PrintFlagsFinal shows of the machine. Each row was learned by running java
with ` + "`" + `-XX:+PrintFlagsFinal` + "`" + ` under the options of ` + "`" + `flags/testdata/jvmflags/record-ergonomics.sh` + "`" + `
(processor counts 1–64, UseAVX 0–2, UseSSE 2–3, BMI off, each collector, heaps of 64 MB to
40 GB, ZGC and Shenandoah on small heaps, metaspace maxima, the compilation modes, a 512 MB
code cache, biased locking) on the AMD family 0x1A host
of the recordings; ` + "`" + `flags/testdata/jvmflags/ergonomics/jdk-VERSION.txt` + "`" + ` holds what moved, and
` + "`" + `TestErgonomicsMatchRecordings` + "`" + ` (cmd/jitsim) holds every row of every run to it. The CPU rows
read the model's identity (` + "`" + `cpu.Identity` + "`" + `: vendor, family and the POPCNT, LZCNT, BMI1, BMI2,
FMA, SHA and ERMS extensions; ` + "`" + `--cpu=host` + "`" + ` reads CPUID, the named Intel models give theirs in
their row) and the UseSSE/UseAVX levels the CPU pass settled:

| rows | rule | recorded |
|---|---|---|
| UseAddressNop | on for AMD and Intel | AMD |
| UseXmmLoadAndClearUpper, UseXmmRegToRegMoveAll, UseXmmI2D, UseXmmI2F, UseNewLongLShift | AMD: on (the first four need UseSSE ≥ 3); Intel: UseXmmRegToRegMoveAll with UseSSE ≥ 3, I2D/I2F and the long shift off | AMD; Intel not recorded |
| UseUnalignedLoadStores, UseXMMForArrayCopy, UseXMMForObjInit; AlignVector | AMD: on; Intel: with SSE4.2; AlignVector is the opposite of UseUnalignedLoadStores | AMD; Intel not recorded |
| UseFPUForSpilling | UseSSE ≥ 4 | AMD |
| OptimizeFill | 17: off; 25: UseAVX ≥ 3 | AMD |
| UseBMI1Instructions, UseBMI2Instructions, UseFMA | the extension and UseAVX ≥ 1 | AMD |
| UseCountLeadingZerosInstruction, UsePopCountInstruction | LZCNT, POPCNT | AMD |
| UseCountTrailingZerosInstruction | BMI1, unless -XX:-UseBMI1Instructions (UseAVX=0 leaves it on) | AMD |
| UseSHA | the SHA extensions (or AVX2 with BMI2: not recorded); 25: and UseSSE ≥ 4 | AMD |
| UseBASE64Intrinsics | 17: UseAVX ≥ 3 with AVX-512 VL and BW; 25: UseAVX ≥ 2 | AMD |
| MaxVectorSize | 64 bytes with UseAVX ≥ 3, 32 with 1–2, 16 without AVX | AMD |
| UseAdler32Intrinsics, UseSHA512Intrinsics, UseVectorizedHashCodeIntrinsic (25) | off below UseAVX 2 (SHA-512: and needs UseSHA, BMI2) | AMD |
| UseCRC32Intrinsics; UseCRC32CIntrinsics, UseSHA1Intrinsics, UseSHA256Intrinsics | off below UseSSE 3; below UseSSE 4 | AMD |
| 25: UseChaCha20Intrinsics; UsePoly1305, IntPoly, Dilithium, Kyber, SHA3 intrinsics | off without AVX; below UseAVX 3 | AMD |
| AllocatePrefetchDistance, AllocatePrefetchStepSize, PrefetchCopyIntervalInBytes, PrefetchScanIntervalInBytes, PrefetchFieldsAhead (17) | AMD 256, 64, 576, 576, 1; Intel 192, 64, 576, 576, 1 | AMD; Intel not recorded |
| IntelJccErratumMitigation (25), X86ICacheSync (25) | off, {ergonomic}, on AMD; the cache-sync style re-set {ergonomic}; which Intel models have the erratum is not modelled | AMD |

Compiler and collector rows: C1InlineStackLimit is 5 unless only C1 compiles
(quick-only) or TieredStopAtLevel is below 4 (in any mode, -Xint and -TieredCompilation
included); 17's UseOptoBiasInlining follows UseBiasedLocking; on x86_64
(aarch64's compiler buffers differ; its rows keep the table's values) the
segmented code cache's NonNMethodCodeHeapSize is 5 MB plus 576716 bytes per C1 thread and 6592
per C2 thread (25: rounded up to 4 KB), the rest split evenly between the profiled and
non-profiled heaps (25: the profiled half rounded up to 4 KB); without segmentation both are 0
and 25 sets the non-method heap to 4096. G1 sets MaxGCPauseMillis 200, GCPauseIntervalMillis
(MaxGCPauseMillis + 1), GCTimeRatio 12, its remembered-set sizes per region size (17:
G1RSetRegionEntries 256 × (log2 of the region in MB + 1), G1RSetSparseRegionEntries 8 per MB;
25: G1RemSetArrayOfCardsEntries 10 for 1 MB regions, else 8 per MB, G1RemSetHowlNumBuckets 4
for 1 MB, else 8; the eager-reclaim threshold follows the sparse or array-of-cards entries), 0
for them under the other collectors, and MaxNewSize (G1MaxNewSizePercent of the heap, whole
regions). ParallelRefProcEnabled is on with G1 or Parallel and more than one GC worker.
Serial and Parallel size NewSize and MaxNewSize as a (NewRatio + 1)th of the initial and
maximum heap (aligned down to 64 KB and 512 KB), OldSize (17) as the rest; Serial has no
workers; ZGC has 60 % of the processors (rounded up) as workers, Shenandoah half, both a
quarter concurrently, ZGC's counts capped at the 2 MB pages 2 % of the maximum heap holds (one
worker at -Xmx128m), its young and old workers following a ConcGCThreads the command line set;
25's ZGC lowers MaxTenuringThreshold until an age's garbage (a medium page, 1/32 of the heap as
a power of two up to 32 MB, plus a 2 MB small page per concurrent worker) times the ages
reaches ZYoungCompactionLimit % of the heap (8 at -Xmx1g, 15 from 2 GB); Shenandoah's region is
the maximum heap in 2048 regions (a power of two rounded down, 256 KB to 32 MB), which aligns
its heap, and it turns ShenandoahUncommit off when the heap starts at its maximum; their fixed defaults (Parallel: heap free ratios 0 and 100, 17's
MarkSweepDeadRatio 1; ZGC: 17's ZAllocationSpikeTolerance 1, 25's TLABSize 256 KB, NUMA off;
Shenandoah: explicit and implicit GCs concurrent, TLABAllocationWeight 90, 25's fixed worker
count) are rows too. MinHeapDeltaBytes is aligned up to the region (G1), 64 KB (Serial), 512 KB
(Parallel), 2 MB (ZGC) or Shenandoah's region; SoftMaxHeapSize is MaxHeapSize (25's ZGC: 90 %
of it); the metaspace steps are aligned down to 64 KB; MetaspaceSize above MaxMetaspaceSize is
lowered to it, and the compressed class space is held to 80 % of MaxMetaspaceSize in 16 MB
granules (before PrintCommandLineFlags; 25 warns when the size the command line gave moves); loop strip mining (UseCountedLoopSafepoints,
LoopStripMiningIter 1000, its short-loop tenth) is on under G1, ZGC and Shenandoah.

An intrinsic switch the command line turns on that the CPU or a lowered -XX:UseSSE/UseAVX
cannot serve goes off with java's warning, in java's order (CRC32, Adler32, CRC32C, 25's
ChaCha20, ML-KEM and ML-DSA, Base64, SHA-1, SHA-256, SHA-512, SHA-3, then 25's Poly1305,
IntPoly and vectorizedHashCode); 17 has no SHA-3 intrinsic on x86. JDK 17's RTM locking needs
TSX, which no modelled CPU has: -XX:+UseRTMLocking stops the VM as on this AMD host.

A mistyped flag gets java's "Did you mean": the first best match in the VM's own flag table
order (` + "`testdata/jvmflags/jdk-*.flagtable.txt`" + `, read from libjvm.so; PrintFlagsFinal's order is
alphabetical, and equal scores such as ShenandoahControlIntervalMin and ...Max go to the one
the VM declares first), the flags only a debug build takes included: those 372 (17: 269
develop, 103 notproduct) and 355 (25: develop) are refused as java refuses them ("is develop and
is available only in debug version of VM"), or skipped under IgnoreUnrecognizedVMOptions.
Profiles without a recording (8, 21, 22, arm64) search jitsim's table in name order.

Left to the run: SharedBaseAddress, where this run mapped the CDS archive (17: an ASLR
address; 25: a different base each run): vs-java's rule sees the row differ on every run.
A model without an identity (an arm64 model, or an x86 one whose row gives none) keeps the
table's values for the CPU rows.
`
