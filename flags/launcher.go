package flags

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/jitsim/jitsim/jdk"
)

// The java launcher's options and the VM's -X options: one table, a row per option. Every
// behaviour below was observed on OpenJDK 17.0.15 and Temurin 25.0.3 (the recordings in
// testdata/recorded.json); options that do not concern the JIT are accepted and do nothing
// in jitsim, after java's checks of their syntax.

// launcherStage says who takes an option: the launcher (before the VM starts, with its own
// error texts and no "Could not create the Java Virtual Machine" lines) or the VM's
// argument parser (Arguments::parse_each_vm_init_arg).
type launcherStage uint8

const (
	stageLauncher launcherStage = iota
	stageVM
)

// launcherOption is one row of the option table.
type launcherOption struct {
	// name is the option as written; with prefix it is the start of the option and the rest
	// is the option's value.
	name   string
	prefix bool
	stage  launcherStage
	// missing, when not "", makes the option take the next argument (or, for a "--" option,
	// "=value"); without one the launcher says "Error: NAME requires " + missing.
	missing string
	// emptyValue, for a "--" option that takes a value: java's word for "NAME=" with nothing
	// after it ("Error: NAME= requires " + emptyValue); "" takes the empty value as given.
	emptyValue string
	// envRefused: the launcher refuses the option in JDK_JAVA_OPTIONS.
	envRefused bool
	// terminal: the option ends option processing (java acts on it and exits; later options
	// are not looked at).
	terminal bool
	// help is jitsim's one-line description for `-X`'s listing; "" keeps the option out of it.
	help string
	// releases limits the row to some profiles (0: all).
	releases jdk.Set
	// act does what the option does; nil: accepted and inert.
	act func(p *parser, t token, val string) error
	// moduleGraph: the option shapes the boot layer (unless its value is only commas), so a
	// release in archivedModuleGraph builds the layer rather than take the one its
	// class-data archive holds.
	moduleGraph bool
	// vmAct, for a launcher option the launcher hands on to the VM, acts on its value where
	// it stands among the VM's options (the VM's checks of it come in their order).
	vmAct func(p *parser, t token, val string) error
}

// modulesSpecified is the launcher's word for a missing module list (and for the value of an
// empty "--module-path=").
const modulesSpecified = "modules to be specified"

// launcherOptions is the table. Rows are looked up in order; an exact row before a prefix
// row of the same start.
var launcherOptions = []launcherOption{
	// Version and help: the launcher's.
	{name: "-version", terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error { p.res.Version = true; return nil }},
	{name: "--version", releases: modern, terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error {
		p.res.Version, p.res.ToStdout = true, true
		return nil
	}},
	{name: "-showversion", act: func(p *parser, _ token, _ string) error { p.res.ShowVersion = true; return nil }},
	{name: "--show-version", releases: modern, act: func(p *parser, _ token, _ string) error {
		p.res.ShowVersion, p.res.ToStdout = true, true
		return nil
	}},
	{name: "-X", terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error { p.res.XHelp = true; return nil }},
	{name: "--help-extra", releases: modern, terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error {
		p.res.XHelp, p.res.ToStdout = true, true
		return nil
	}},
	{name: "-help", terminal: true, envRefused: true, act: setHelp},
	{name: "--help", releases: modern, terminal: true, envRefused: true, act: setHelp},
	{name: "-h", terminal: true, envRefused: true, act: setHelp},
	{name: "-?", terminal: true, envRefused: true, act: setHelp},
	{name: "-fullversion", terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error { p.res.FullVersion = true; return nil }},
	{name: "--full-version", releases: modern, terminal: true, envRefused: true, act: func(p *parser, _ token, _ string) error {
		p.res.FullVersion, p.res.ToStdout = true, true
		return nil
	}},
	{name: "--dry-run", releases: modern, envRefused: true, act: func(p *parser, _ token, _ string) error { p.res.DryRun = true; return nil }},
	// --list-modules and --describe-module (-d) print the system modules, or one module's
	// descriptor, once the VM is up, and exit; no program runs. The options after them are
	// still read, the VM's checked and acted on (-XX:+UseFooBar fails, -Xlog:help prints),
	// and a later -version, -showversion or -X ends the options without being acted on; the
	// listing wins over a descriptor in either order (17.0.15, 25.0.3). moduleListing
	// prints them.
	{name: "--list-modules", releases: modern, act: func(p *parser, _ token, _ string) error {
		p.moduleQuery, p.res.DryRun = "--list-modules", true
		return nil
	}},
	{name: "--describe-module", releases: modern, missing: "module name", act: describeModule},
	{name: "-d", releases: modern, missing: "module name", act: describeModule},
	// --validate-modules checks the module path's modules and exits (no program runs); the
	// system image's own modules pass, so without a module path it prints nothing. Not
	// terminal: -version still prints the version (17.0.15, 25.0.3).
	{name: "--validate-modules", releases: modern, act: func(p *parser, _ token, _ string) error { p.res.DryRun = true; return nil }},
	// The program to run: jitsim runs its own scenarios (SplitCommandLine takes these out of
	// a command line; here they can only come from JDK_JAVA_OPTIONS or an @argfile).
	{name: "-jar", envRefused: true, missing: "jar file specification"},
	{name: "-m", releases: modern, envRefused: true, missing: "module name"},
	{name: "--module", releases: modern, envRefused: true, missing: "module name", emptyValue: "module name"},
	// Class and module paths, module options: accepted and inert.
	{name: "-cp", missing: "class path specification"},
	{name: "-classpath", missing: "class path specification"},
	{name: "--class-path", releases: modern, missing: "class path specification"},
	{name: "-p", moduleGraph: true, releases: modern, missing: "module path specification", act: modulePath},
	{name: "--module-path", moduleGraph: true, releases: modern, missing: "module path specification", emptyValue: modulesSpecified, act: modulePath},
	{name: "--upgrade-module-path", moduleGraph: true, releases: modern, missing: "module path specification", emptyValue: modulesSpecified, act: modulePath},
	{name: "--add-modules", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, act: func(p *parser, _ token, val string) error {
		p.addModules = append(p.addModules, strings.Split(val, ",")...)
		return nil
	}},
	{name: "--limit-modules", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, act: func(p *parser, _ token, val string) error {
		p.limitModules = append(p.limitModules, strings.Split(val, ",")...)
		return nil
	}},
	{name: "--patch-module", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, vmAct: patchModule},
	{name: "--add-opens", moduleGraph: true, releases: modern, missing: modulesSpecified, act: moduleRule("--add-opens", true)},
	{name: "--add-exports", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, act: moduleRule("--add-exports", true)},
	{name: "--add-reads", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, act: moduleRule("--add-reads", false)},
	{name: "--source", releases: modern, missing: "source version", emptyValue: "source version"},
	{name: "--enable-preview", releases: modern},
	{name: "--finalization=", releases: jdk.SinceFeature(18), prefix: true, stage: stageVM, act: func(p *parser, t token, _ string) error {
		// JDK 18+: whether finalizers run.
		if v := strings.TrimPrefix(t.text, "--finalization="); v != "enabled" && v != "disabled" {
			return &Error{Text: "Invalid finalization value '" + v + "', must be 'disabled' or 'enabled'.\n", Launcher: true}
		}
		return nil
	}},
	// Temurin 25.0.3's launcher takes --disable-@files anywhere (17.0.15 calls it unrecognized
	// outside JDK_JAVA_OPTIONS); an @argfile after it on the command line is then a main class,
	// which jitsim does not tell apart (it expands it).
	{name: "--disable-@files", releases: jdk.Of(jdk.R25)},
	{name: "--sun-misc-unsafe-memory-access=", releases: jdk.Of(jdk.R25), prefix: true, act: func(p *parser, t token, _ string) error {
		// JDK 23+: how sun.misc.Unsafe's memory access is allowed.
		if v := strings.TrimPrefix(t.text, "--sun-misc-unsafe-memory-access="); !slices.Contains([]string{"allow", "warn", "debug", "deny"}, v) {
			return &Error{Text: "Value specified to --sun-misc-unsafe-memory-access not recognized: '" + v + "'\n", Launcher: true}
		}
		return nil
	}},
	{name: "--illegal-native-access=", moduleGraph: true, releases: jdk.Of(jdk.R25), prefix: true, act: func(p *parser, t token, _ string) error {
		// JDK 24+: what restricted native access without --enable-native-access does; the
		// boot layer refuses another value before it reads the module options (25.0.3).
		if v := strings.TrimPrefix(t.text, "--illegal-native-access="); !slices.Contains([]string{"allow", "warn", "deny"}, v) {
			p.illegalNativeAccess = "java.lang.ExceptionInInitializerError\nCaused by: java.lang.RuntimeException: Value specified to --illegal-native-access not recognized: '" + v + "'"
		}
		return nil
	}},
	{name: "--enable-native-access", moduleGraph: true, releases: modern, missing: modulesSpecified, emptyValue: modulesSpecified, act: func(p *parser, _ token, val string) error {
		for _, m := range strings.Split(val, ",") {
			// An empty name between commas names no module (17.0.15, 25.0.3: no warning).
			if m != "ALL-UNNAMED" && m != "" {
				p.nativeAccess = append(p.nativeAccess, m)
			}
		}
		return nil
	}},
	{name: "-splash:", prefix: true},
	// The multiple-JRE options JDK 9 retired: 17's launcher explains them before it calls them
	// unrecognized (OpenJDK 17.0.15); Temurin 25.0.3 only calls them unrecognized.
	{name: "-version:", prefix: true, releases: modern & jdk.Before(jdk.R25), act: retiredJRE(
		"Error: Specifying an alternate JDK/JRE version is no longer supported.\n  The use of the flag '-version:' is no longer valid.\n  Please download and execute the appropriate version.\n")},
	{name: "-jre-restrict-search", releases: modern & jdk.Before(jdk.R25), act: retiredJRE(retiredJRESearch)},
	{name: "-jre-no-restrict-search", releases: modern & jdk.Before(jdk.R25), act: retiredJRE(retiredJRESearch)},
	{name: "-server"},
	{name: "-client"},
	{name: "-Xfuture", releases: jdk.Before(jdk.R25), act: func(p *parser, _ token, _ string) error {
		// The launcher's own warning (OpenJDK 17.0.15); Temurin 25.0.3 no longer knows -Xfuture.
		p.notice("Warning: -Xfuture option is deprecated and may be removed in a future release.\n")
		return nil
	}},
	{name: "-Xdiag", help: "print more detail in launcher errors (inert in jitsim)"},

	// The VM's options.
	{name: "-Xint", stage: stageVM, help: "interpreted mode only", act: modeOption(Interpreted)},
	{name: "-Xmixed", stage: stageVM, help: "mixed mode (the default)", act: modeOption(Mixed)},
	{name: "-Xcomp", stage: stageVM, help: "compile every method on its first call", act: modeOption(Compiled)},
	{name: "-Xbatch", stage: stageVM, help: "compile in the foreground (-XX:-BackgroundCompilation)", act: func(p *parser, t token, _ string) error {
		p.setCmdline("BackgroundCompilation", value{b: false}, CommandLine)
		return nil
	}},
	{name: "-Xinternalversion", stage: stageVM, terminal: true, help: "print the VM's build line and exit",
		act: func(p *parser, _ token, _ string) error { p.res.InternalVersion = true; return nil }},
	{name: "-Xss", prefix: true, stage: stageVM, help: "thread stack size (checked; sets ThreadStackSize)", act: stackSize},
	{name: "-Xmn", prefix: true, stage: stageVM, help: "young generation size (checked, inert)", act: memoryOption("Invalid initial young generation size", "NewSize", "MaxNewSize")},
	{name: "-Xmx", prefix: true, stage: stageVM, help: "maximum heap size (sizes jitsim's Java heap)", act: memoryOption("Invalid maximum heap size", "MaxHeapSize")},
	{name: "-Xms", prefix: true, stage: stageVM, help: "initial heap size (checked against -Xmx)", act: memoryOption("Invalid initial heap size", "MinHeapSize", "InitialHeapSize")},
	{name: "-Xverify", stage: stageVM, help: "verify all classes (inert)"},
	{name: "-Xverify:", prefix: true, stage: stageVM, act: verifyOption},
	{name: "-noverify", stage: stageVM, act: func(p *parser, _ token, _ string) error {
		if p.o.JDK.Modern() {
			p.warning(noVerifyWarning) // deprecated in JDK 13
		}
		return nil
	}},
	{name: "-Xcheck:jni", stage: stageVM, help: "extra JNI checks (inert)"},
	{name: "-Xcheck", prefix: true, stage: stageVM, act: func(p *parser, t token, _ string) error {
		p.errText.WriteString("Unrecognized check option: " + t.text + "\n")
		return p.fail(t)
	}},
	{name: "-Xrs", stage: stageVM, help: "reduce the VM's use of OS signals (sets ReduceSignalUsage)", act: setsFlags(flagBool{"ReduceSignalUsage", true})},
	{name: "-Xnoclassgc", stage: stageVM, help: "no class unloading (turns ClassUnloading off)",
		act: setsFlags(flagBool{"ClassUnloading", false})},
	{name: "-Xshare:auto", stage: stageVM, act: shareMode, help: "use the class data sharing archive if possible (17: sets UseSharedSpaces)"},
	{name: "-Xshare:off", stage: stageVM, act: shareMode, help: "do not use class data sharing (the GC logs lose the archive)"},
	{name: "-Xshare:on", stage: stageVM, act: shareMode, help: "require class data sharing (17: sets RequireSharedSpaces)"},
	// java writes the archive (jitsim writes none); 17.0.15 then exits 0 without its banner,
	// Temurin 25.0.3 goes on in interpreted mode, its banner saying so.
	{name: "-Xshare:dump", stage: stageVM, act: func(p *parser, t token, v string) error {
		if behavesLike25(p.o.JDK) {
			p.res.Mode = Interpreted
		} else {
			p.res.DumpArchive = true
		}
		return shareMode(p, t, v)
	}, help: "write the class data sharing archive (17: and exit; 25: then run interpreted); jitsim writes none"},
	{name: "-Xdebug", stage: stageVM, help: "no effect (deprecated)", act: func(p *parser, _ token, _ string) error {
		if xdebugDeprecated.At(p.o.JDK) {
			p.warning("Option -Xdebug was deprecated in JDK 22 and will likely be removed in a future release.")
		}
		return nil
	}},
	// Accepted and ignored by OpenJDK 17.0.15; gone by Temurin 25.0.3 ("Unrecognized option").
	{name: "-Xnoagent", stage: stageVM, releases: jdk.Before(jdk.R25), help: "no effect (JDK 21 and before)"},
	{name: "-Xprof", stage: stageVM, act: func(p *parser, _ token, _ string) error {
		if p.o.JDK.Modern() {
			p.warning("Ignoring option -Xprof; support was removed in 10.0") // JDK 8 still profiles
		}
		return nil
	}},
	{name: "-Xbootclasspath/a:", prefix: true, stage: stageVM, help: "append to the boot class path (inert)"},
	{name: "-Xloggc:", prefix: true, stage: stageVM, help: "GC log file (inert)", act: func(p *parser, t token, _ string) error {
		if p.o.JDK.Modern() {
			name := strings.TrimPrefix(t.text, "-Xloggc:")
			p.logWarning("gc", "-Xloggc is deprecated. Will use -Xlog:gc:"+name+" instead.")
			p.gcLogFile = true
			p.res.Logs = append(p.res.Logs, LogConfig{Selections: []LogSelection{{Tags: []string{"gc"}, Level: "info"}}, Output: "file=" + name})
		}
		return nil
	}},
	{name: "-XshowSettings", stage: stageVM, help: "show settings (the vm category printed, the others not)"},
	{name: "-XshowSettings:", prefix: true, stage: stageVM, act: func(p *parser, _ token, val string) error {
		// Only the vm category is modelled; the others describe this host and JDK.
		p.res.ShowSettingsVM = val == "vm"
		return nil
	}},
	{name: "-Xlog:help", releases: modern, stage: stageVM, terminal: true, act: func(p *parser, _ token, _ string) error { p.res.XlogHelp = true; return nil }},
	{name: "-Xlog", releases: modern, prefix: true, stage: stageVM, help: "unified logging (checked; see -Xlog:help)", act: (*parser).xlogOption},
	// Assertions, verbosity, agents, Java-level options: accepted and inert.
	{name: "-ea", stage: stageVM}, {name: "-ea:", prefix: true, stage: stageVM},
	{name: "-da", stage: stageVM}, {name: "-da:", prefix: true, stage: stageVM},
	{name: "-enableassertions", stage: stageVM}, {name: "-enableassertions:", prefix: true, stage: stageVM},
	{name: "-disableassertions", stage: stageVM}, {name: "-disableassertions:", prefix: true, stage: stageVM},
	{name: "-esa", stage: stageVM}, {name: "-dsa", stage: stageVM},
	{name: "-enablesystemassertions", stage: stageVM}, {name: "-disablesystemassertions", stage: stageVM},
	{name: "-verbose", stage: stageVM},
	{name: "-verbose:gc", stage: stageVM, act: func(p *parser, _ token, _ string) error {
		// The same as -Xlog:gc (JDK 9+): the collector's info lines on stdout.
		if p.o.JDK.Modern() {
			p.res.Logs = append(p.res.Logs, LogConfig{Selections: []LogSelection{{Tags: []string{"gc"}, Level: "info"}}, Output: "stdout"})
		}
		return nil
	}},
	{name: "-verbose:", prefix: true, stage: stageVM},
	// Agents: loaded (or refused) at start-up, as loadAgents models it.
	{name: "-javaagent:", prefix: true, stage: stageVM, act: agentOption("javaagent")},
	{name: "-agentlib:", prefix: true, stage: stageVM, act: agentOption("agentlib")},
	{name: "-agentpath:", prefix: true, stage: stageVM, act: agentOption("agentpath")},
	{name: "-Xrun", prefix: true, stage: stageVM, act: agentOption("agentlib")},
	{name: "--illegal-access=", releases: modern, prefix: true, stage: stageVM, act: func(p *parser, t token, _ string) error {
		p.warning("Ignoring option " + t.text + "; support was removed in 17.0")
		return nil
	}},
}

// modern are the profiles of JDK 9+ options (modules, unified logging, the GNU-style
// spellings): JDK 8's launcher does not know them.
const modern = jdk.AllReleases &^ (1<<jdk.R8 | 1<<jdk.R8u)

// xdebugDeprecated: JDK 22 deprecated -Xdebug (Temurin 25.0.3 warns; OpenJDK 17.0.15 does not).
var xdebugDeprecated = from(false, jdk.R25, true)

const noVerifyWarning = "Options -Xverify:none and -noverify were deprecated in JDK 13 and will likely be removed in a future release."

func setHelp(p *parser, _ token, _ string) error { p.res.Help = true; return nil }

// flagBool is a boolean flag an -X option sets, as if it were given on the command line.
type flagBool struct {
	name string
	on   bool
}

// setsFlags is the action of an -X option that is a spelling of -XX flags (-Xrs is
// -XX:+ReduceSignalUsage): PrintCommandLineFlags and PrintFlagsFinal show them as set on the
// command line. Every -X option (and -D property) that sets a flag sets it with the command
// line's origin whichever container held it (JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, a VM options
// file named there); only -XX options take their container's (17.0.15, 25.0.3). A flag the profile lacks is left alone.
func setsFlags(fs ...flagBool) func(p *parser, t token, _ string) error {
	return func(p *parser, t token, _ string) error {
		for _, f := range fs {
			p.setCmdline(f.name, value{b: f.on}, CommandLine)
		}
		return nil
	}
}

// shareMode notes the last -Xshare mode for the class-data archive's start-up check and sets
// the flags JDK 17 keeps it in (UseSharedSpaces, RequireSharedSpaces; JDK 19 made them
// obsolete, so Temurin 25 shows neither).
func shareMode(p *parser, t token, v string) error {
	p.share, p.shareGiven = strings.TrimPrefix(t.text, "-Xshare:"), true
	return setsFlags(flagBool{"UseSharedSpaces", p.share != "off"}, flagBool{"RequireSharedSpaces", p.share == "on"})(p, t, v)
}

// retiredJRESearch is 17's launcher text for -jre-restrict-search and -jre-no-restrict-search.
const retiredJRESearch = "Error: Specifying an alternate JDK/JRE is no longer supported.\n  The related flags -jre-restrict-search | -jre-no-restrict-search are also no longer valid.\n"

// retiredJRE is a retired multiple-JRE option: the launcher's explanation, then the VM's
// "Unrecognized option".
func retiredJRE(text string) func(p *parser, t token, _ string) error {
	return func(p *parser, t token, _ string) error {
		p.notice(text)
		p.errText.WriteString("Unrecognized option: " + t.text + "\n")
		return p.fail(t)
	}
}

// lookupLauncher returns the row for an option in profile j (or any profile), or nil.
func lookupLauncher(j jdk.Release, anyRelease bool, s string) *launcherOption {
	for i := range launcherOptions {
		o := &launcherOptions[i]
		if !anyRelease && o.releases != 0 && !o.releases.Has(j) {
			continue
		}
		if s == o.name || o.prefix && strings.HasPrefix(s, o.name) {
			return o
		}
		if o.missing != "" && strings.HasPrefix(o.name, "--") && strings.HasPrefix(s, o.name+"=") {
			return o
		}
	}
	return nil
}

// TakesArgument reports whether java option s takes the next command-line argument as its
// value (-cp PATH, --add-opens M/P=T, -jar FILE, …).
func TakesArgument(s string) bool {
	o := lookupLauncher(0, true, s)
	return o != nil && o.missing != "" && s == o.name
}

// IsLauncherOption reports whether s is one of java's launcher or -X options (the table
// above), so a command line can tell java's "--" options from its own.
func IsLauncherOption(s string) bool { return lookupLauncher(0, true, s) != nil }

// ProgramKind returns "jar" or "module" when option s names the program to run (-jar FILE,
// -m MODULE, --module MODULE), else "".
func ProgramKind(s string) string {
	switch s {
	case "-jar":
		return "jar"
	case "-m", "--module":
		return "module"
	}
	return ""
}

// XOption is one line of `-X`'s listing.
type XOption struct{ Name, Help string }

// XOptions returns the -X options jitsim accepts, with jitsim's description of each, in
// table order, for profile j.
func XOptions(j jdk.Release) []XOption {
	var out []XOption
	for _, o := range launcherOptions {
		if o.help != "" && (o.releases == 0 || o.releases.Has(j)) {
			name := o.name
			if o.prefix && !strings.HasSuffix(name, ":") {
				name += "<size>"
			} else if o.prefix {
				name += "<value>"
			}
			out = append(out, XOption{Name: name, Help: o.help})
		}
	}
	return out
}

// launcherPass takes the launcher's options out of cmd (the command line after
// JDK_JAVA_OPTIONS and @argfiles), acting on them, and returns the VM's options in order.
// A terminal option ends the pass (java ignores what follows it).
func (p *parser) launcherPass(cmd []token) ([]token, error) {
	var vm []token
	for i := 0; i < len(cmd); i++ {
		t := cmd[i]
		o := lookupLauncher(p.o.JDK, false, t.text)
		if t.jdkJavaOptions {
			if o != nil && o.envRefused {
				return nil, &Error{Text: "Error: Option " + o.name + " is not allowed in environment variable JDK_JAVA_OPTIONS\n"}
			}
			if !strings.HasPrefix(t.text, "-") && (!strings.HasPrefix(t.text, "@") || t.literal) {
				return nil, &Error{Text: "Error: Cannot specify main class in environment variable JDK_JAVA_OPTIONS\n"}
			}
		}
		if t.where != "" && !t.jdkJavaOptions && !strings.HasPrefix(t.text, "-") {
			// A main class from an @argfile ends java's options; the rest are the
			// program's (17.0.15, 25.0.3: "Could not find or load main class" once the
			// VM is up).
			p.res.MainClass, p.res.MainClassFrom = t.text, t.where
			return vm, nil
		}
		if o == nil || o.stage != stageLauncher {
			vm = append(vm, t)
			if o != nil && o.terminal {
				// A terminal VM option (-Xinternalversion) ends the command line too.
				return vm, nil
			}
			continue
		}
		val := ""
		if o.missing != "" {
			if v, ok := strings.CutPrefix(t.text, o.name+"="); ok {
				if v == "" && o.emptyValue != "" {
					return nil, &Error{Text: "Error: " + o.name + "= requires " + o.emptyValue + "\n"}
				}
				val = v
			} else {
				if i+1 >= len(cmd) || strings.HasPrefix(cmd[i+1].text, "-") {
					return nil, &Error{Text: "Error: " + o.name + " requires " + o.missing + "\n"}
				}
				i++
				val = cmd[i].text
			}
		} else if o.prefix {
			val = strings.TrimPrefix(t.text, o.name)
		}
		p.res.Ignored = append(p.res.Ignored, t.text)
		if o.moduleGraph && strings.Trim(val, ",") != "" {
			p.moduleGraph = true
		}
		if o.act != nil {
			if err := o.act(p, t, val); err != nil {
				return nil, err
			}
		}
		if o.vmAct != nil {
			t.vmAct, t.vmValue = o.vmAct, val
			vm = append(vm, t)
		}
		if o.terminal {
			return vm, nil
		}
	}
	return vm, nil
}

// vmLauncherOption processes a VM-stage row of the table; handled is false when s has none.
func (p *parser) vmLauncherOption(t token) (handled bool, err error) {
	if t.vmAct != nil {
		return true, t.vmAct(p, t, t.vmValue)
	}
	o := lookupLauncher(p.o.JDK, false, t.text)
	if o == nil || o.stage != stageVM {
		return false, nil
	}
	if o.act == nil {
		p.res.Ignored = append(p.res.Ignored, t.text)
		return true, nil
	}
	val := ""
	if o.prefix {
		val = strings.TrimPrefix(t.text, o.name)
	}
	return true, o.act(p, t, val)
}

// modeOption is -Xint, -Xmixed or -Xcomp: at its place on the command line it puts the
// flags every mode sets back to their declared values (keeping their origins, so a flag the
// user set earlier still shows {command line}), then sets its own; options after it win
// (observed on 17.0.15 and 25.0.3: -Xcomp -Xbatch -Xmixed leaves BackgroundCompilation true
// {command line}; -XX:-UseOnStackReplacement -Xcomp leaves it true).
func modeOption(m Mode) func(p *parser, t token, _ string) error {
	return func(p *parser, _ token, _ string) error {
		for _, name := range modeResetFlags {
			if e := p.set.lookup(name); e != nil {
				if v, err := parseDefault(e.flag, p.o.JDK); err == nil {
					e.v = v
				}
			}
		}
		keep := func(name string, v bool) {
			if e := p.set.lookup(name); e != nil {
				e.v = value{b: v}
			}
		}
		switch m {
		case Interpreted:
			keep("UseCompiler", false)
			keep("UseLoopCounter", false)
			keep("AlwaysCompileLoopMethods", false)
			keep("UseOnStackReplacement", false)
			p.compilerAfterXint = false
		case Compiled:
			keep("UseInterpreter", false)
			keep("BackgroundCompilation", false)
			keep("ClipInlining", false)
		}
		p.res.Mode = m
		return nil
	}
}

// modeResetFlags are the flags every mode option puts back to their declared values first.
var modeResetFlags = []string{"UseCompiler", "UseInterpreter", "UseLoopCounter", "UseOnStackReplacement",
	"AlwaysCompileLoopMethods", "BackgroundCompilation", "ClipInlining"}

// memoryOption is -Xmx, -Xms or -Xmn: a memory size (Arguments::parse_memory_size syntax) of
// at least 1, which sets the named flags.
func memoryOption(invalid string, flagNames ...string) func(p *parser, t token, val string) error {
	return func(p *parser, t token, val string) error {
		v, ok := atojulong(val)
		// -Xms0 asks for the ergonomic initial and minimum heap (the flags keep their
		// command-line origin); -Xmx0 and -Xmn0 are invalid (17.0.15 and 25.0.3).
		if !ok || v < 1 && flagNames[0] != "MinHeapSize" {
			p.errText.WriteString(invalid + ": " + t.text + "\n")
			return p.fail(t)
		}
		p.res.Ignored = append(p.res.Ignored, t.text)
		for _, name := range flagNames {
			p.setCmdline(name, value{u: v}, CommandLine)
		}
		if launcherRead(t) {
			switch flagNames[0] {
			case "MaxHeapSize":
				p.res.LauncherSizes.MaxHeap = v
			case "MinHeapSize":
				p.res.LauncherSizes.MinHeap = v
			}
		}
		switch flagNames[0] {
		case "MaxHeapSize":
			p.res.MaxHeapSize = v
		case "MinHeapSize":
			p.res.InitialHeapSize = v
		}
		return nil
	}
}

// minStackSize and maxStackSize bound -Xss on x86_64 Linux: below 136k the VM refuses to
// start after parsing; above 1g the size is not representable (both observed on 17.0.15
// and 25.0.3).
const (
	minStackSize = 136 << 10
	maxStackSize = 1 << 30
)

// stackSize is -Xss.
func stackSize(p *parser, t token, val string) error {
	v, ok := atojulong(val)
	if !ok {
		p.errText.WriteString("Invalid thread stack size: " + t.text + "\n")
		return p.fail(t)
	}
	if v > maxStackSize {
		p.errText.WriteString("Invalid thread stack size: " + t.text + "\nThe specified size exceeds the maximum representable size.\n")
		return p.fail(t)
	}
	p.res.Ignored = append(p.res.Ignored, t.text)
	if launcherRead(t) {
		p.res.LauncherSizes.Stack = v
	}
	// ThreadStackSize counts whole KB, rounded up (-Xss100001 is 98).
	p.setCmdline("ThreadStackSize", value{i: int64((v + 1023) >> 10)}, CommandLine)
	return nil
}

// checkStackSize is the start-up check of the threads' stack sizes (-Xss, ThreadStackSize,
// CompilerThreadStackSize, VMThreadStackSize), after every option was parsed.
func (p *parser) checkStackSize() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	// The three thread kinds in java's order, sizes in K (0: the platform's default); the
	// same floors on 17.0.15 and 25.0.3.
	for _, k := range []struct {
		flag, what string
		min        int64
	}{
		{"ThreadStackSize", "Java thread stack size", minStackSize >> 10},
		{"CompilerThreadStackSize", "CompilerThreadStackSize", 144},
		{"VMThreadStackSize", "VMThreadStackSize", 64},
	} {
		if !p.set.Has(k.flag) || !p.set.WasSetOnCommandLine(k.flag) {
			continue
		}
		if n := p.set.Int(k.flag); n != 0 && n < k.min {
			return &Error{Text: fmt.Sprintf("\nThe %s specified is too small. Specify at least %dk\n", k.what, k.min), Launcher: true, Stdout: true}
		}
	}
	return nil
}

// verifyOption is -Xverify:MODE.
func verifyOption(p *parser, t token, val string) error {
	switch val {
	case "none":
		if p.o.JDK.Modern() {
			p.warning(noVerifyWarning) // deprecated in JDK 13
		}
	case "remote", "all":
	default:
		p.errText.WriteString("Unrecognized verification option: " + t.text + "\n")
		return p.fail(t)
	}
	p.res.Ignored = append(p.res.Ignored, t.text)
	return nil
}

// moduleRuleEntry is one key of --add-reads (a module), --add-exports or --add-opens
// ("module/package") with the targets every option naming it gave, in order.
type moduleRuleEntry struct {
	option, key string
	targets     []string
}

// moduleRule checks --add-opens/--add-exports (module/package=targets) and --add-reads
// (module=targets) as the boot layer does when the VM starts: a malformed value ends the
// start with java's RuntimeException text on stdout; the rest are gathered per key, the
// targets of one key merged, for checkBootLayer.
func moduleRule(option string, withPackage bool) func(p *parser, t token, val string) error {
	return func(p *parser, _ token, val string) error {
		left, targets, ok := strings.Cut(val, "=")
		var msg string
		switch {
		case !ok || targets == "" || left == "":
			msg = "Unable to parse " + option + " <module>=<value>: " + val
		case withPackage && !strings.Contains(left, "/"):
			msg = "Unable to parse " + option + " <module>/<package>: " + left
		}
		if msg != "" {
			if p.moduleRuleFailures == nil {
				p.moduleRuleFailures = map[string]string{}
			}
			if _, ok := p.moduleRuleFailures[option]; !ok {
				p.moduleRuleFailures[option] = msg
			}
			return nil
		}
		if p.moduleRuleIndex == nil {
			p.moduleRuleIndex = map[[2]string]int{}
		}
		i, ok := p.moduleRuleIndex[[2]string{option, left}]
		if !ok {
			p.moduleRules = append(p.moduleRules, moduleRuleEntry{option: option, key: left})
			i = len(p.moduleRules) - 1
			p.moduleRuleIndex[[2]string{option, left}] = i
		}
		p.moduleRules[i].targets = append(p.moduleRules[i].targets, strings.Split(targets, ",")...)
		return nil
	}
}

// patchModule takes --patch-module MODULE=PATH[:PATH…] (17.0.15, 25.0.3): without an '=' the
// VM stops where the option stands; so does java.base named twice, before later options are
// read; an empty module or path, or another module named twice, is the boot layer's
// complaint (before every other of its own), and a module the JDK lacks is warned about.
func patchModule(p *parser, _ token, val string) error {
	module, path, ok := strings.Cut(val, "=")
	switch {
	case !ok:
		return &Error{Text: "Missing '=' in --patch-module specification\n", Launcher: true, Stdout: true}
	case module == "java.base" && slices.Contains(p.patchModules, module):
		return &Error{Text: "Error occurred during initialization of VM\nCannot specify java.base more than once to --patch-module\n", Stdout: true}
	case p.patchBootLayer != "":
	case module == "" || path == "":
		p.patchBootLayer = "Unable to parse --patch-module <module>=<value>: " + val
	case slices.Contains(p.patchModules, module):
		p.patchBootLayer = module + " specified more than once to --patch-module"
	}
	p.patchModules = append(p.patchModules, module)
	return nil
}

// javaHashOrder sorts keys, given in the order they were first named, into the order the
// boot layer reports each of --add-reads, --add-exports and --add-opens in: a hash map's,
// by bucket (String.hashCode spread by its upper half, masked by a table that doubles from
// 16 whenever it is more than three quarters full), and within a bucket the key named last
// first (observed on 17.0.15 and 25.0.3 with 2, 3 and 15 keys, sharing buckets or not).
func javaHashOrder(keys []string) []string {
	size := 16
	for len(keys) > size*3/4 {
		size *= 2
	}
	bucket := func(k string) uint32 {
		var h uint32
		for _, c := range utf16.Encode([]rune(k)) {
			h = 31*h + uint32(c)
		}
		return (h ^ h>>16) & uint32(size-1)
	}
	out := slices.Clone(keys)
	slices.Reverse(out)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(bucket(a), bucket(b)) })
	return out
}

// resolvedModules returns whether the boot layer resolves each system module: those of the
// default boot layer (recordedBootLayer), the modules --add-modules names and what they
// require, every system module under ALL-SYSTEM. Under --limit-modules, whose answer jitsim
// does not work out, any system module counts as resolved.
func (p *parser) resolvedModules() func(string) bool {
	j := p.o.JDK
	if len(p.limitModules) > 0 {
		return func(m string) bool { return systemModule(j, m) }
	}
	set := map[string]bool{}
	for _, m := range releaseNames(recordedBootLayer[:], j) {
		set[m] = true
	}
	requires := releaseNames(recordedRequires[:], j)
	var add func(string)
	add = func(m string) {
		if set[m] || !systemModule(j, m) {
			return
		}
		set[m] = true
		i, _ := slices.BinarySearch(requires, m+" ")
		for ; i < len(requires) && strings.HasPrefix(requires[i], m+" "); i++ {
			add(strings.TrimPrefix(requires[i], m+" "))
		}
	}
	for _, m := range p.addModules {
		if m == "ALL-SYSTEM" {
			for _, n := range modulesOf(j) {
				add(n)
			}
		}
		add(m)
	}
	return func(m string) bool { return set[m] }
}

// releaseNames returns the names a generated per-release list holds for profile j (21
// follows 17).
func releaseNames(lists []struct {
	releases jdk.Set
	names    []string
}, j jdk.Release) []string {
	for _, r := range lists {
		if r.releases.Has(j) {
			return r.names
		}
	}
	return lists[0].names
}

// moduleWarnings are the boot layer's warnings about --add-reads, --add-exports, --add-opens
// (in that order, each in its map's order) and --enable-native-access (in order): a module
// the boot layer does not resolve (a source module alone, its targets not looked at), a
// package the source module does not hold (its targets not looked at either), then each
// target module not resolved (observed on 17.0.15 and 25.0.3). With a module path that may
// hold modules, no module is called unknown.
func (p *parser) moduleWarnings() {
	resolved := p.resolvedModules()
	unknown := func(m, option string) bool {
		if resolved(m) || p.modulePath {
			return false
		}
		p.res.BootWarnings = append(p.res.BootWarnings, "WARNING: Unknown module: "+m+" specified to "+option+"\n")
		return true
	}
	packages := releaseNames(recordedPackages[:], p.o.JDK)
	for _, m := range p.patchModules {
		unknown(m, "--patch-module")
	}
	for _, option := range []string{"--add-reads", "--add-exports", "--add-opens"} {
		var keys []string
		targets := map[string][]string{}
		for _, e := range p.moduleRules {
			if e.option == option {
				keys = append(keys, e.key)
				targets[e.key] = e.targets
			}
		}
		for _, key := range javaHashOrder(keys) {
			source, pkg, hasPkg := strings.Cut(key, "/")
			if unknown(source, option) {
				continue
			}
			if _, found := slices.BinarySearch(packages, key); hasPkg && !found && systemModule(p.o.JDK, source) {
				p.res.BootWarnings = append(p.res.BootWarnings, "WARNING: package "+pkg+" not in "+source+"\n")
				continue
			}
			for _, m := range targets[key] {
				if m != "ALL-UNNAMED" {
					unknown(m, option)
				}
			}
		}
	}
	for _, m := range p.nativeAccess {
		unknown(m, "--enable-native-access")
	}
}

// describeModule notes --describe-module's module for moduleListing.
func describeModule(p *parser, _ token, val string) error {
	if p.moduleQuery != "--list-modules" {
		p.moduleQuery = "=" + val
	}
	p.res.DryRun = true
	return nil
}

// moduleListing prints what --list-modules or --describe-module asked for, from the recorded
// descriptors (recordedDescriptors; 21 follows 17): every system module as "name@version",
// or under --limit-modules the modules the named ones require, transitively; or the
// module's descriptor as java printed it, or "NAME not found" on stdout with exit status 1.
func (p *parser) moduleListing() error {
	if p.moduleQuery == "" || p.res.XlogHelp {
		return nil // -Xlog:help exits as the VM reads its options, before any listing
	}
	// The listing is printed instead of the launcher's own answers.
	p.res.Version, p.res.ShowVersion, p.res.XHelp, p.res.Help, p.res.ToStdout = false, false, false, false, false
	blocks := releaseBlocks(p.o.JDK)
	head := func(b string) string { h, _, _ := strings.Cut(b, "\n"); return h }
	if name, ok := strings.CutPrefix(p.moduleQuery, "="); ok {
		for _, b := range blocks {
			if m, _, _ := strings.Cut(head(b), "@"); m == name {
				p.res.Stdout = append(p.res.Stdout, b)
				return nil
			}
		}
		return &Error{Text: name + " not found\n", Stdout: true}
	}
	keep := func(string) bool { return true }
	if len(p.limitModules) > 0 {
		requires := releaseNames(recordedRequires[:], p.o.JDK)
		set := map[string]bool{}
		var add func(string)
		add = func(m string) {
			if set[m] {
				return
			}
			set[m] = true
			i, _ := slices.BinarySearch(requires, m+" ")
			for ; i < len(requires) && strings.HasPrefix(requires[i], m+" "); i++ {
				add(strings.TrimPrefix(requires[i], m+" "))
			}
		}
		for _, m := range p.limitModules {
			add(m)
		}
		keep = func(m string) bool { return set[m] }
	}
	for _, b := range blocks {
		if m, _, _ := strings.Cut(head(b), "@"); keep(m) {
			p.res.Stdout = append(p.res.Stdout, head(b)+"\n")
		}
	}
	return nil
}

// releaseBlocks returns profile j's recorded module descriptors (21 follows 17).
func releaseBlocks(j jdk.Release) []string {
	for _, r := range recordedDescriptors {
		if r.releases.Has(j) {
			return r.blocks
		}
	}
	return recordedDescriptors[0].blocks
}

// modulePath notes a module path that may hold modules: one with an entry that exists (a
// path of missing directories and files holds none, so --add-modules of a module the JDK
// lacks still fails; what an existing entry holds is not read).
func modulePath(p *parser, _ token, val string) error {
	stat := p.o.Stat
	if stat == nil {
		stat = os.Stat
	}
	for _, e := range filepath.SplitList(val) {
		if _, err := stat(e); e != "" && err == nil {
			p.modulePath = true
		}
	}
	return nil
}

// systemModule reports whether profile j's JDK has the module (recordedModules; 8 and 8u
// have no modules, 21 follows 17).
func systemModule(j jdk.Release, name string) bool {
	for _, r := range recordedModules {
		if r.releases.Has(j) {
			_, found := slices.BinarySearch(r.names, name)
			return found
		}
	}
	_, found := slices.BinarySearch(recordedModules[0].names, name)
	return found
}

// checkBootLayer is what the boot layer says about the module options when the VM starts:
// the first malformed one ends the start; so does a module --add-modules or --limit-modules
// names that the JDK does not have (unless a module path may hold it); otherwise modules
// the JDK lacks are warned about, and so is the use of incubator modules.
func (p *parser) checkBootLayer() error {
	fail := func(msg string) error {
		return &Error{Text: "Error occurred during initialization of boot layer\n" + msg + "\n", Stdout: true}
	}
	if p.illegalNativeAccess != "" {
		return fail(p.illegalNativeAccess)
	}
	if !p.o.JDK.Modern() {
		return nil
	}
	if p.patchBootLayer != "" {
		return fail("java.lang.ExceptionInInitializerError\nCaused by: java.lang.RuntimeException: " + p.patchBootLayer)
	}
	var incubator []string
	for _, list := range [][]string{p.addModules, p.limitModules} {
		for _, m := range list {
			switch {
			case m == "ALL-DEFAULT" || m == "ALL-MODULE-PATH" || m == "":
			case m == "ALL-SYSTEM":
				for _, name := range modulesOf(p.o.JDK) {
					if strings.HasPrefix(name, "jdk.incubator.") && !slices.Contains(incubator, name) {
						incubator = append(incubator, name)
					}
				}
			case !systemModule(p.o.JDK, m):
				if !p.modulePath {
					return fail("java.lang.module.FindException: Module " + m + " not found")
				}
			case strings.HasPrefix(m, "jdk.incubator.") && !slices.Contains(incubator, m):
				incubator = append(incubator, m)
			}
		}
	}
	if msg := p.limitedRequires(); msg != "" {
		return fail(msg)
	}
	// A missing module is reported before a malformed --add-opens/--add-exports/--add-reads
	// (observed on 17.0.15 and 25.0.3).
	if len(incubator) > 0 {
		// java lists them from a set, in an order that changes from run to run (17.0.15
		// with both incubator modules, named in either order or by ALL-SYSTEM); jitsim
		// lists them in the reverse of the order they were resolved. Before the unknown
		// modules and before a malformed module rule's failure (17.0.15, 25.0.3).
		slices.Reverse(incubator)
		p.res.BootWarnings = append(p.res.BootWarnings, "WARNING: Using incubator modules: "+strings.Join(incubator, ", ")+"\n")
	}
	if msg := p.moduleRuleFailure(); msg != "" {
		return fail("java.lang.RuntimeException: " + msg)
	}
	p.moduleWarnings()
	return nil
}

// moduleRuleKinds are the module options the boot layer parses, in its order: the first
// malformed value of the first kind is the one it reports (17.0.15 and 25.0.3: --add-opens=foo
// --add-exports=bar names the --add-exports value).
var moduleRuleKinds = []string{"--add-reads", "--add-exports", "--add-opens"}

// archivedModuleGraph are the releases whose class-data archive holds the default boot
// layer: with no option that shapes the layer (launcherOption.moduleGraph) they take it from
// the archive and never parse a --add-reads, --add-exports or --add-opens whose value is only
// commas (Temurin 25.0.3: --add-opens= and --add-exports=, run; beside another module option,
// under -Xshare:off, ZGC or -XX:-UseCompressedClassPointers they fail as on 17.0.15).
var archivedModuleGraph = jdk.Since(jdk.R25)

// moduleRuleFailure is the boot layer's complaint about the module rules, "" when none.
func (p *parser) moduleRuleFailure() string {
	if len(p.moduleRuleFailures) == 0 {
		return ""
	}
	s := p.set
	archived := archivedModuleGraph.Has(p.o.JDK) && !p.moduleGraph && p.share != "off" && !p.noArchive &&
		s.Collector() != "UseZGC" && !(s.Has("UseCompressedClassPointers") && s.WasSetOnCommandLine("UseCompressedClassPointers") && !s.Bool("UseCompressedClassPointers"))
	if archived {
		// Only values of commas are left: any other sets p.moduleGraph.
		return ""
	}
	for _, k := range moduleRuleKinds {
		if msg, ok := p.moduleRuleFailures[k]; ok {
			return msg
		}
	}
	return ""
}

// limitedRequires is the boot layer's failure when --limit-modules leaves out a module that
// a module --add-modules names requires: the observable modules are those the limit modules
// require, transitively, and the added modules themselves, not what the added ones require
// (17.0.15, 25.0.3: --limit-modules java.base --add-modules java.sql fails, java.sql.rowset
// under --limit-modules java.sql names java.naming). With more than one module missing, java
// names one at random (its module sets iterate in a per-run order); jitsim names the first
// by name.
func (p *parser) limitedRequires() string {
	if len(p.limitModules) == 0 || p.modulePath {
		return ""
	}
	j := p.o.JDK
	of := func(m string) []string { return ModuleRequires(j, m) }
	observable := map[string]bool{}
	var add func(string)
	add = func(m string) {
		if observable[m] || !systemModule(j, m) {
			return
		}
		observable[m] = true
		for _, r := range of(m) {
			add(r)
		}
	}
	for _, m := range p.limitModules {
		add(m)
	}
	var added []string
	for _, m := range p.addModules {
		if systemModule(j, m) {
			added = append(added, m)
			observable[m] = true
		}
	}
	for _, m := range added {
		for _, r := range of(m) {
			if !observable[r] {
				return "java.lang.module.FindException: Module " + r + " not found, required by " + m
			}
		}
	}
	return ""
}

// ModuleRequires returns the modules system module m of profile j requires at run time, as
// its recorded descriptor lists them (sorted); nil for a module it does not know.
func ModuleRequires(j jdk.Release, m string) []string {
	requires := releaseNames(recordedRequires[:], j)
	var out []string
	i, _ := slices.BinarySearch(requires, m+" ")
	for ; i < len(requires) && strings.HasPrefix(requires[i], m+" "); i++ {
		out = append(out, strings.TrimPrefix(requires[i], m+" "))
	}
	return out
}

// modulesOf returns profile j's system modules, sorted.
func modulesOf(j jdk.Release) []string {
	for _, r := range recordedModules {
		if r.releases.Has(j) {
			return r.names
		}
	}
	return recordedModules[0].names
}

// RecordedBuild returns the VM build of the recorded JDK of profile j as its -version banner
// names it ("17.0.15+6-Debian-1deb12u1"), "" for a profile with no recording (8, 8u, 21):
// the GC's start-up log names it.
func RecordedBuild(j jdk.Release) string {
	for _, r := range recordedBuilds {
		if r.releases.Has(j) {
			return r.build
		}
	}
	return ""
}

// launcherRead reports whether the launcher itself saw option t (the command line,
// JDK_JAVA_OPTIONS, an @argfile), not only the VM (JAVA_TOOL_OPTIONS, a VM options file).
func launcherRead(t token) bool {
	return t.origin == CommandLine && (t.where == "" || strings.HasPrefix(t.where, "argument file"))
}

// VMSettings is what -XshowSettings:vm prints on stderr once the VM is up: the sizes the
// launcher read from the command line as given, else the heap's maximum as the running VM
// reports it (maxMemory, "Estimated"), and the VM's name (OpenJDK 17.0.15 and Temurin
// 25.0.3). Sizes are scaled to the largest of K, M and G they reach, with two decimals.
func VMSettings(res *Result, maxMemory uint64) string {
	var b strings.Builder
	b.WriteString("VM settings:\n")
	l := res.LauncherSizes
	if l.Stack != 0 {
		b.WriteString("    Stack Size: " + launcherScale(l.Stack) + "\n")
	}
	if l.MinHeap != 0 {
		b.WriteString("    Min. Heap Size: " + launcherScale(l.MinHeap) + "\n")
	}
	if l.MaxHeap != 0 {
		b.WriteString("    Max. Heap Size: " + launcherScale(l.MaxHeap) + "\n")
	} else {
		b.WriteString("    Max. Heap Size (Estimated): " + launcherScale(maxMemory) + "\n")
	}
	b.WriteString("    Using VM: " + strings.TrimSuffix(VMWarningPrefix, " warning: ") + "\n\n")
	return b.String()
}

func launcherScale(v uint64) string {
	for _, u := range []struct {
		n    uint64
		name string
	}{{1 << 30, "G"}, {1 << 20, "M"}, {1 << 10, "K"}} {
		if v >= u.n {
			return fmt.Sprintf("%.2f%s", float64(v)/float64(u.n), u.name)
		}
	}
	return strconv.FormatUint(v, 10)
}
