package flags

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// Options is the input of Parse.
type Options struct {
	// JDK and Arch select the profile and the target architecture.
	JDK  jdk.Release
	Arch jdk.Arch
	// Args are the java options in command-line order: -XX:…, -X…, -D…, @argfiles,
	// -version. The main class (scenario) and its arguments are not included.
	Args []string
	// Getenv looks up JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS; nil means an
	// empty environment.
	Getenv func(name string) (string, bool)
	// ReadFile reads @argfiles, -XX:Flags= and -XX:VMOptionsFile= files; nil means the file
	// system, reading at most MaxOptionsFile bytes of a file (a larger file is an error).
	ReadFile func(name string) ([]byte, error)
	// Stat looks up the directory of an -Xlog file output (java opens the file when the VM
	// starts); nil means os.Stat.
	Stat func(name string) (fs.FileInfo, error)
}

// Mode is the execution mode chosen by -Xint, -Xmixed and -Xcomp (the last one wins).
type Mode int

// The execution modes.
const (
	Mixed Mode = iota
	Interpreted
	Compiled
)

// String returns the mode as java -version names it ("mixed mode", "interpreted mode",
// "compiled mode").
func (m Mode) String() string {
	switch m {
	case Interpreted:
		return "interpreted mode"
	case Compiled:
		return "compiled mode"
	}
	return "mixed mode"
}

// Property is one -D system property.
type Property struct{ Name, Value string }

// Result is everything Parse learned besides the flag values.
type Result struct {
	// Stderr holds the texts HotSpot and the launcher print to stderr before the version
	// banner or the error, in order ("Picked up …" notices, warnings). Each ends in a newline.
	Stderr []string
	// Stdout holds the lines HotSpot prints to stdout while parsing (-XX:+PrintVMOptions'
	// "VM option" lines), in order. Each ends in a newline.
	Stdout []string
	// Properties are the -D system properties in order; see Property.
	Properties []Property
	// Mode is the -Xint/-Xmixed/-Xcomp mode.
	Mode Mode
	// Version is true when -version (or --version) was given: print the version banner and
	// exit.
	Version bool
	// FullVersion is true when -fullversion (or --full-version, with ToStdout) was given: the
	// launcher prints the full version on one line and exits before the VM starts, so no VM
	// option is looked at, before it or after (17.0.15, 25.0.3).
	FullVersion bool
	// ShowVersion is true when -showversion or --show-version was given: print the banner,
	// then run the program.
	ShowVersion bool
	// ToStdout: the banner or the -X listing goes to stdout (--version, --show-version,
	// --help-extra), not stderr.
	ToStdout bool
	// XHelp is true when -X (or --help-extra) was given: print the -X options and exit.
	XHelp bool
	// Help is true when -help, --help, -h or -? was given: print the usage and exit.
	Help bool
	// InternalVersion is true when -Xinternalversion was given: print the VM's build line on
	// stdout and exit.
	InternalVersion bool
	// DryRun is true when --dry-run was given: start the VM, do not run the program.
	DryRun bool
	// MainClass is a main class an @argfile named (a word that is not an option, or an
	// @argfile inside one, which the launcher does not expand): the launcher's options end
	// there and what follows is the program's. MainClassFrom says which file and line.
	MainClass, MainClassFrom string
	// DumpArchive is 17's -Xshare:dump: java writes the class-data archive once the VM is up
	// and exits, status 0, before any banner.
	DumpArchive bool
	// ShowSettingsVM is true when -XshowSettings:vm was given: the launcher prints the VM
	// settings (VMSettings) once the VM is up. LauncherSizes are the -Xss, -Xms and -Xmx the
	// launcher itself read (the command line, JDK_JAVA_OPTIONS, @argfiles; the last of each
	// wins), which that listing shows as given; 0 where none was.
	ShowSettingsVM bool
	LauncherSizes  struct{ Stack, MinHeap, MaxHeap uint64 }
	// BootWarnings are what the boot layer prints on stderr when the VM has started (unknown
	// modules, incubator modules), after the VM's own warnings. Each ends in a newline.
	BootWarnings []string
	// Logs are the -Xlog options that configure an output, in order; LogDisabled is true
	// when -Xlog:disable came (it drops the ones before it, and java's own warnings).
	Logs []LogConfig
	// RunLog are lines logged once the VM runs, with the -Xlog configuration (JFR's start).
	RunLog []LogLine
	// ExitLog are lines the VM prints as it exits, after the version banner (25's AOT
	// configuration, recorded).
	ExitLog     []LogLine
	LogDisabled bool
	// LogWarnings are the unified-logging lines the options themselves caused (excess
	// parts, ignored output options), printed on stdout at start-up.
	LogWarnings []LogLine
	// XlogHelp is true when -Xlog:help was given: print the -Xlog usage and exit.
	XlogHelp bool
	// EmulatedClient is true when only C1 compiles, without profiling (TieredStopAtLevel=1
	// or CompilationMode=quick-only, tiered): java's banner then says "emulated-client".
	EmulatedClient bool
	// Ignored lists options java accepts that jitsim does not model (e.g. -Xms2g, -server).
	Ignored []string
	// MaxHeapSize is the last -Xmx or -XX:MaxHeapSize= in bytes, 0 when none was given; it
	// sizes jitsim's Java heap (runtime.Config.WithMaxHeapSize). -Xmx is also in Ignored.
	MaxHeapSize uint64
	// InitialHeapSize is the last -Xms or -XX:InitialHeapSize= in bytes, 0 when none was
	// given (checked against MaxHeapSize only).
	InitialHeapSize uint64
	// Oracle holds what the compiler oracle prints on stdout while the VM starts
	// (-XX:CompileCommand's echo lines, parse errors, help), after the flag tables and
	// before the version banner. Each ends in a newline.
	Oracle []string
	// Started holds what agents print on stdout once the VM is up (the debugger's listening
	// address), after the compiler oracle's lines. Each ends in a newline.
	Started []string
}

// Property returns the value of the last -D definition of name.
func (r *Result) Property(name string) (string, bool) {
	for i := len(r.Properties) - 1; i >= 0; i-- {
		if r.Properties[i].Name == name {
			return r.Properties[i].Value, true
		}
	}
	return "", false
}

// Error is a failed command line. Text is exactly what HotSpot (or the launcher) prints to
// stderr for it, possibly several lines, and possibly without a final newline (JDK 17's "Did
// you mean" line). When Launcher is true the java launcher then prints LauncherLines and exits
// with status 1.
type Error struct {
	Text     string
	Launcher bool
	// Stdout: Text is an initialization failure, which the VM prints to stdout
	// (vm_exit_during_initialization) with no launcher lines after it.
	Stdout bool
	// Log holds the unified-logging lines the VM prints on stdout before Text (an -Xlog
	// option's errors).
	Log []LogLine
	// Where names the file and line the bad option came from, when it came from a file;
	// HotSpot does not say, so this is jitsim's own addition, printed after HotSpot's text.
	Where string
	// AfterFlags: the failure comes after the VM settled its flags, so java printed
	// -XX:+PrintCommandLineFlags' line before it (every start-up failure after the options
	// are parsed and the collector chosen: the compile thresholds, the compiler count and the
	// free ratios, the heap sizes, the stack size, agents, the code heaps, the class-data
	// archive, the compile commands, the boot layer; 17.0.15 and 25.0.3).
	AfterFlags bool
	// Constraints: the failure is of the flag constraints java checks once the ergonomics
	// have run, which report together; the collector's own (runtime/ergo) join it.
	Constraints bool
	// ErgoLog holds the ergonomics' log lines java printed before the failure and before
	// PrintCommandLineFlags' line (a Configured line with the -Xlog options' outputs).
	ErgoLog []LogLine
	// AtHeap: the failure comes as the heap is made (a Shenandoah mode or heuristics it
	// refuses), so java logged the collector's start-up lines up to it, after
	// PrintCommandLineFlags' line; StartLog holds them.
	AtHeap   bool
	StartLog []LogLine
	// beforeFlags: a failure of a start-up check that the VM meets while it reads the
	// options (25's archive header), so not AfterFlags.
	beforeFlags bool
}

// LauncherLines is what the java launcher prints after the VM failed to start.
const LauncherLines = "Error: Could not create the Java Virtual Machine.\nError: A fatal exception has occurred. Program will exit.\n"

// ExitStatus is java's exit status after an option error.
const ExitStatus = 1

// Error implements error.
func (e *Error) Error() string {
	s := strings.TrimRight(e.Text, " \n")
	s = strings.ReplaceAll(s, "\n", "; ")
	if e.Where != "" {
		s += " (" + e.Where + ")"
	}
	return s
}

// token is one option with where it came from.
type token struct {
	text   string
	origin Origin
	where  string // "file F, line N" for options read from files
	// jdkJavaOptions: the token came from JDK_JAVA_OPTIONS, where the launcher refuses some
	// options.
	jdkJavaOptions bool
	// literal: an @argfile left unexpanded (after JDK_JAVA_OPTIONS' --disable-@files).
	literal bool
	// vmAct and vmValue: a launcher option handed on to the VM, its row's vmAct and value.
	vmAct   func(p *parser, t token, val string) error
	vmValue string
}

type parser struct {
	o        Options
	set      *Set
	res      *Result
	errText  strings.Builder
	ignore   bool
	readFile func(string) ([]byte, error)
	// compilerAfterXint: -XX:+UseCompiler came after the last -Xint (java then warns that
	// -Xint turns it off; given before -Xint it is turned off silently).
	compilerAfterXint bool
	// moduleRuleFailures are the boot layer's complaints about the first malformed value of
	// each of --add-reads, --add-exports and --add-opens (moduleRuleFailure picks one);
	// addModules and limitModules the modules named, moduleRules the well-formed
	// --add-reads/--add-exports/--add-opens, nativeAccess the modules
	// --enable-native-access names; modulePath whether a module path was given.
	moduleRuleFailures map[string]string
	// moduleGraph: an option shaped the boot layer (launcherOption.moduleGraph).
	moduleGraph bool
	// patchModules are the modules --patch-module named, in order; patchBootLayer the boot
	// layer's complaint about the first malformed or repeated one.
	patchModules             []string
	patchBootLayer           string
	addModules, limitModules []string
	moduleRules              []moduleRuleEntry
	moduleRuleIndex          map[[2]string]int // (option, key) → its entry in moduleRules
	nativeAccess             []string
	// illegalNativeAccess is the boot layer's complaint about --illegal-native-access.
	illegalNativeAccess string
	// moduleQuery is what --list-modules ("--list-modules") or --describe-module ("=NAME")
	// asked for.
	moduleQuery string
	modulePath  bool
	// gcLogFile: -Xloggc named a GC log file, so -XX:+PrintGC and PrintGCDetails log there
	// rather than to stdout.
	gcLogFile bool
	// agents are the -agentlib:, -agentpath:, -javaagent: and -Xrun options, in order; share
	// the last -Xshare mode ("auto" unless given).
	agents []agent
	share  string
	// shareGiven: an -Xshare option was given (25's AOT options refuse any). noArchive: the
	// VM maps no archive though -Xshare left it (25's AOT modes, a missing AOT cache).
	shareGiven, noArchive bool
	// jfrRecordings are the options of each -XX:StartFlightRecording, jfrRecorderOptions of
	// each -XX:FlightRecorderOptions (startJFR checks them).
	jfrRecordings, jfrRecorderOptions []string
}

// stringChoices are the string flags whose constraint takes a fixed list of values (Temurin
// 25.0.3: AOTMode), in the order java names them.
var stringChoices = map[string][]string{"AOTMode": {"off", "record", "create", "auto", "on"}}

// nonEmptyStrings are the string flags whose constraint refuses an empty value as the option is
// parsed (Temurin 25.0.3).
var nonEmptyStrings = []string{"AOTCache", "AOTCacheOutput", "AOTConfiguration", "AOTMode"}

// Parse parses a java command line for profile o.JDK on o.Arch: JDK_JAVA_OPTIONS and @argfiles
// (the launcher), then -XX:VMOptionsFile=, -XX:Flags= (origin {config file}),
// JAVA_TOOL_OPTIONS ({environment}), the command line ({command line}) and _JAVA_OPTIONS
// ({environment}), later settings winning (Arguments::parse, arguments.cpp). The Result is
// returned even on error, so its Stderr notices can be printed before the error. The error is
// an *Error.
func Parse(o Options) (*Set, *Result, error) {
	if !o.JDK.Valid() || !o.Arch.Valid() {
		return nil, &Result{}, &Error{Text: fmt.Sprintf("jitsim models no flags for JDK %v on %v\n", o.JDK, o.Arch)}
	}
	p := &parser{o: o, set: NewSet(o.JDK, o.Arch), res: &Result{}, readFile: readOptionsFile, share: "auto"}
	if o.ReadFile != nil {
		p.readFile = limitedReader(o.ReadFile)
	}
	err := p.run()
	if err != nil {
		return p.set, p.res, p.withLogWarnings(err)
	}
	// The VM's start-up, in its order: the collector and the heap, the stack size, agents,
	// the class-data archive, then the Java-level start-up (modules, system properties).
	p.gcLogWarnings()
	p.classSpaceWarning()
	for _, check := range []func() error{p.checkAOTOptions, p.checkRemovedDirs, p.checkCollectors} {
		if err := check(); err != nil {
			return p.set, p.res, p.withLogWarnings(err)
		}
	}
	for _, check := range []func() error{p.checkShenandoah, p.heapSizes, p.checkAfterErgo, p.checkRTM, p.checkStackSize, p.loadAgents, p.checkCodeHeaps, p.checkCodeHeapPages, p.checkSharedArchive, p.startAOTCache, p.checkTLABSize, p.checkJVMCICompiler} {
		if err := check(); err != nil {
			return p.set, p.res, p.withLogWarnings(afterFlags(err))
		}
	}
	p.compilerCountWarning()
	for _, check := range []func() error{p.compilerOracle, p.checkBootLayer, p.checkSystemProperties, p.checkJMXAgent, p.startJFR, p.moduleListing} {
		if err := check(); err != nil {
			return p.set, p.res, p.withLogWarnings(afterFlags(err))
		}
	}
	p.set.logs = p.res.Logs
	p.set.noSharing = p.share == "off" || p.noArchive
	return p.set, p.res, nil
}

// afterFlags marks a start-up failure that java reports after its flags are settled, unless
// its check found it while the options were read (Error.beforeFlags).
func afterFlags(err error) error {
	var e *Error
	if errors.As(err, &e) && !e.beforeFlags {
		e.AfterFlags = true
	}
	return err
}

// Defaults returns the flags java starts with when it is given no options: the declared
// defaults of NewSet after the start-up rules Parse applies (-Xmixed, tiered, the per-CPU
// compiler count turned on), before any CPU ergonomics.
func Defaults(j jdk.Release, a jdk.Arch) *Set {
	if !j.Valid() || !a.Valid() {
		return NewSet(j, a)
	}
	p := &parser{o: Options{JDK: j, Arch: a}, set: NewSet(j, a), res: &Result{}}
	p.applyModes()
	// Without class unloading the collectors' start turns concurrent class unloading off too,
	// as if the command line had, whichever option turned it off and whatever came after for
	// ClassUnloadingWithConcurrentMark (17.0.15, 25.0.3).
	if e := p.set.lookup("ClassUnloading"); e != nil && !e.v.b && p.set.Has("ClassUnloadingWithConcurrentMark") {
		p.setCmdline("ClassUnloadingWithConcurrentMark", value{b: false}, CommandLine)
	}
	p.compilerThreadFlags()
	return p.set
}

// minMaxHeap is the smallest -Xmx the VM starts with: below it JDK 17 and Temurin 25 stop
// with "Too small maximum heap" (checked on both here; just above it the collector's own
// sizing may still fail, which jitsim does not model).
const minMaxHeap = 2 << 20

// minHeapSize is the smallest -Xms (InitialHeapSize, MinHeapSize) the VM takes other than 0:
// 1023k stops with "Too small initial heap", 1024k starts (17.0.15 and 25.0.3).
const minHeapSize = 1 << 20

// heapSizes is the heap-size check of the VM's initialization (JDK 9+ profiles; JDK 8's
// texts were not observed here): -Xms above -Xmx, a minimum above the initial size, -Xmx
// below minMaxHeap, -Xms or MinHeapSize below minHeapSize.
func (p *parser) heapSizes() error {
	if !p.o.JDK.Modern() {
		return nil
	}
	fail := func(msg string) error {
		return &Error{Text: "Error occurred during initialization of VM\n" + msg + "\n", Stdout: true}
	}
	// The flags behind -Xmx and -Xms, whichever way the user set them (the last one wins).
	if s := p.set; s.Has("MaxHeapSize") {
		if s.WasSetOnCommandLine("MaxHeapSize") {
			p.res.MaxHeapSize = s.Uint("MaxHeapSize")
		}
		if s.WasSetOnCommandLine("InitialHeapSize") {
			p.res.InitialHeapSize = s.Uint("InitialHeapSize")
		}
	}
	var minHeap uint64
	if s := p.set; s.Has("MinHeapSize") && s.WasSetOnCommandLine("MinHeapSize") {
		minHeap = s.Uint("MinHeapSize")
	}
	// In the VM's order (each one observed to win over the later ones on 17.0.15 and 25.0.3).
	x, init := p.res.MaxHeapSize, p.res.InitialHeapSize
	switch {
	case x != 0 && init > x:
		return fail("Initial heap size set to a larger value than the maximum heap size")
	case init != 0 && minHeap > init:
		return fail("Incompatible minimum and initial heap sizes specified")
	case x != 0 && x < minMaxHeap:
		return fail("Too small maximum heap")
	case init != 0 && init < minHeapSize:
		return fail("Too small initial heap")
	case minHeap != 0 && minHeap < minHeapSize:
		return fail("Too small minimum heap")
	}
	// SoftMaxHeapSize's constraint against a maximum the command line set (one the
	// ergonomics size from memory is not checked here).
	if s := p.set; s.Has("SoftMaxHeapSize") && s.WasSetOnCommandLine("SoftMaxHeapSize") && p.res.MaxHeapSize != 0 && s.Uint("SoftMaxHeapSize") > p.res.MaxHeapSize {
		return &Error{Text: "SoftMaxHeapSize must be less than or equal to the maximum heap size\n", Launcher: true}
	}
	return nil
}

func (p *parser) getenv(name string) (string, bool) {
	if p.o.Getenv == nil {
		return "", false
	}
	return p.o.Getenv(name)
}

func (p *parser) notice(s string) { p.res.Stderr = append(p.res.Stderr, s) }

func (p *parser) run() error {
	j := p.o.JDK
	// The launcher: JDK_JAVA_OPTIONS goes before the command line (JDK 9+), @argfiles are
	// expanded in place (JDK 9+), -version is the launcher's.
	var cmd []token
	if j.Modern() {
		if v, ok := p.getenv("JDK_JAVA_OPTIONS"); ok {
			// Announced whenever it is set, even empty (the launcher's JLI_AddArgsFromEnvVar).
			p.notice("NOTE: Picked up JDK_JAVA_OPTIONS: " + v + "\n")
			if unmatchedQuote(v) {
				return &Error{Text: "Error: Unmatched quote in environment variable JDK_JAVA_OPTIONS\n"}
			}
			// --disable-@files stops the expansion of the @argfiles after it in the variable
			// (and is itself left for the launcher, which does not know it there); an
			// unexpanded @argfile is a main class (17.0.15, 25.0.3).
			noArgFiles := false
			for _, t := range splitOptions(v) {
				t.jdkJavaOptions = true
				if noArgFiles && strings.HasPrefix(t.text, "@") {
					t.literal = true
					cmd = append(cmd, t)
					continue
				}
				noArgFiles = noArgFiles || t.text == "--disable-@files"
				exp, err := p.expandArg(t)
				if err != nil {
					return err
				}
				cmd = append(cmd, exp...)
			}
		}
	}
	for _, a := range p.o.Args {
		exp, err := p.expandArg(token{text: a, origin: CommandLine})
		if err != nil {
			return err
		}
		cmd = append(cmd, exp...)
	}
	vmCmd, err := p.launcherPass(cmd)
	if err != nil || p.res.FullVersion {
		return err
	}

	// The VM: environment variables are read (and announced) first.
	var tool, javaOpts []token
	// Announced whenever they are set, even empty (Arguments::parse_options_environment_variable).
	if v, ok := p.getenv("JAVA_TOOL_OPTIONS"); ok {
		p.notice("Picked up JAVA_TOOL_OPTIONS: " + v + "\n")
		tool = envTokens(v)
	}
	if v, ok := p.getenv("_JAVA_OPTIONS"); ok {
		p.notice("Picked up _JAVA_OPTIONS: " + v + "\n")
		javaOpts = envTokens(v)
	}
	if j.Modern() {
		// Each options container takes one VM options file, expanded in the order the VM
		// reads the containers (17.0.15, 25.0.3).
		var err error
		if tool, err = p.expandVMOptionsFiles(tool, "env_var='JAVA_TOOL_OPTIONS'"); err != nil {
			return err
		}
		if vmCmd, err = p.expandVMOptionsFiles(vmCmd, "cmd_line_args"); err != nil {
			return err
		}
		if javaOpts, err = p.expandVMOptionsFiles(javaOpts, "env_var='_JAVA_OPTIONS'"); err != nil {
			return err
		}
	}

	// Pre-scan (match_special_option_and_act): -XX:Flags= and ±IgnoreUnrecognizedVMOptions.
	flagsFile := ""
	for _, list := range [][]token{tool, vmCmd, javaOpts} {
		for _, t := range list {
			switch {
			case strings.HasPrefix(t.text, "-XX:Flags="):
				flagsFile = strings.TrimPrefix(t.text, "-XX:Flags=")
			case t.text == "-XX:+IgnoreUnrecognizedVMOptions":
				p.ignore = true
			case t.text == "-XX:-IgnoreUnrecognizedVMOptions":
				p.ignore = false
			case t.text == "-XX:+PrintVMOptions", t.text == "-XX:-PrintVMOptions":
				// Set at once, the last one winning, without an origin.
				if e := p.set.lookup("PrintVMOptions"); e != nil {
					e.v = value{b: t.text[4] == '+'}
				}
			}
		}
	}
	hotspotrc := false
	if flagsFile != "" {
		if err := p.settingsFile(flagsFile); err != nil {
			return err
		}
	} else if _, err := p.readFile(".hotspotrc"); err == nil {
		// Product VMs ignore a .hotspotrc in the working directory, and say so.
		hotspotrc = true
	}
	for _, list := range [][]token{tool, vmCmd, javaOpts} {
		if p.printVMOptions() {
			for _, t := range list {
				if tail, ok := strings.CutPrefix(t.text, "-XX:"); ok {
					p.res.Stdout = append(p.res.Stdout, "VM option '"+tail+"'\n")
				}
			}
		}
		for _, t := range list {
			if err := p.vmOption(t); err != nil {
				return err
			}
		}
	}
	if hotspotrc {
		p.warning(".hotspotrc file is present but has been ignored.  Run with -XX:Flags=.hotspotrc to load the file.")
	}
	p.applyModes()
	p.aggressiveHeap()
	p.tenuringErgonomics()
	p.compactHeaders()
	p.classSpaceWithoutPointers()
	if e := p.set.peek("DynamicDumpSharedSpaces"); e != nil && p.set.Has("ArchiveClassesAtExit") && p.set.String("ArchiveClassesAtExit") != "" {
		// 17's dynamic archive: an archive to write at exit turns the dump on, whatever
		// the command line said of it (17.0.15; 25 has no such switch).
		p.setCmdline("DynamicDumpSharedSpaces", value{b: true}, CommandLine)
	}
	// Without class unloading the collectors' start turns concurrent class unloading off too,
	// as if the command line had, whichever option turned it off and whatever came after for
	// ClassUnloadingWithConcurrentMark (17.0.15, 25.0.3).
	if e := p.set.lookup("ClassUnloading"); e != nil && !e.v.b && p.set.Has("ClassUnloadingWithConcurrentMark") {
		p.setCmdline("ClassUnloadingWithConcurrentMark", value{b: false}, CommandLine)
	}
	p.compilerThreadFlags()
	if err := p.checkChoices(); err != nil {
		return err
	}
	// Statistics of a tracker that is off: a warning before the constraints are checked
	// (17.0.15, 25.0.3).
	if p.set.Has("PrintNMTStatistics") && p.set.Bool("PrintNMTStatistics") && p.set.String("NativeMemoryTracking") == "off" {
		p.warning("PrintNMTStatistics is disabled, because native memory tracking is not enabled")
	}
	return p.checkConstraints()
}

// printVMOptions reports whether PrintVMOptions is on now: java then names each -XX option
// before processing it, on stdout, a whole option list at a time (a settings file's
// options one by one).
func (p *parser) printVMOptions() bool {
	return p.set.Has("PrintVMOptions") && p.set.Bool("PrintVMOptions")
}

// fail builds the Error for the text collected so far.
func (p *parser) fail(t token) error {
	return &Error{Text: p.errText.String(), Launcher: true, Where: t.where}
}

// expandArg expands one launcher argument: @file is replaced by the file's options (JDK 9+
// launcher, src/java.base/share/native/libjli/args.c); "@@x" stands for the literal "@x".
func (p *parser) expandArg(t token) ([]token, error) {
	if !p.o.JDK.Modern() || !strings.HasPrefix(t.text, "@") {
		return []token{t}, nil
	}
	if strings.HasPrefix(t.text, "@@") {
		return []token{{text: t.text[1:], origin: t.origin}}, nil
	}
	name := t.text[1:]
	data, err := p.readFile(name)
	if e := tooLarge(err); e != nil {
		return nil, e
	}
	if err != nil {
		return nil, &Error{Text: "Error: could not open `" + name + "'\n", Where: fileProblem("argument file", name, err)}
	}
	var out []token
	for _, ft := range splitArgFile(string(data)) {
		out = append(out, token{text: ft.text, origin: t.origin, where: fmt.Sprintf("argument file %s, line %d", name, ft.line), jdkJavaOptions: t.jdkJavaOptions})
	}
	return out, nil
}

func fileProblem(kind, name string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Sprintf("%s %s: %v", kind, name, err)
}

// expandVMOptionsFiles replaces -XX:VMOptionsFile=F by the options in F
// (Arguments::parse_vm_options_file), which take the origin of the option that named the file.
// container names the options container in java's errors: the command line (with
// JDK_JAVA_OPTIONS and @argfiles) or an environment variable.
func (p *parser) expandVMOptionsFiles(in []token, container string) ([]token, error) {
	var out []token
	first := ""
	for _, t := range in {
		name, ok := strings.CutPrefix(t.text, "-XX:VMOptionsFile=")
		if !ok {
			out = append(out, t)
			continue
		}
		if first != "" {
			// One options file per command line (observed on 17.0.15 and 25.0.3).
			return nil, &Error{Text: "The option '" + first + "' is already specified in the options container '" + container + "' so the specification of '" +
				t.text + "' in the same options container is an error.\n", Launcher: true, Where: t.where}
		}
		first = t.text
		data, err := p.readFile(name)
		if e := tooLarge(err); e != nil {
			return nil, e
		}
		if err != nil {
			return nil, &Error{Text: "Could not open options file '" + name + "'\n", Launcher: true,
				Where: fileProblem("options file", name, err)}
		}
		fts := splitBuffer(string(data))
		for _, ft := range fts {
			// A file naming another file stops the VM before any of its options is read
			// (a bare -XX:VMOptionsFile is an unknown option).
			if strings.HasPrefix(ft.text, "-XX:VMOptionsFile=") {
				return nil, &Error{Text: "A VM options file may not refer to a VM options file. Specification of '-XX:VMOptionsFile=<file-name>' in the options file '" +
					t.text + "' in options container '" + container + "' is an error.\n", Launcher: true,
					Where: fmt.Sprintf("options file %s, line %d", name, ft.line)}
			}
		}
		for _, ft := range fts {
			out = append(out, token{text: ft.text, origin: t.origin, where: fmt.Sprintf("options file %s, line %d", name, ft.line)})
		}
	}
	return out, nil
}

// settingsFile processes a -XX:Flags= file (Arguments::process_settings_file): every token is
// processed, and every failure reported, before the VM gives up.
func (p *parser) settingsFile(name string) error {
	data, err := p.readFile(name)
	if e := tooLarge(err); e != nil {
		return e
	}
	if err != nil {
		p.errText.WriteString("Could not open settings file " + name + "\n")
		return &Error{Text: p.errText.String(), Launcher: true, Where: fileProblem("settings file", name, err)}
	}
	var where []string
	for _, ft := range splitSettingsFile(string(data)) {
		w := fmt.Sprintf("settings file %s, line %d", name, ft.line)
		if p.printVMOptions() {
			p.res.Stdout = append(p.res.Stdout, "VM option '"+ft.text+"'\n")
		}
		if !p.xxOption(ft.text, ConfigFile) {
			where = append(where, w)
		}
	}
	if len(where) > 0 {
		return &Error{Text: p.errText.String(), Launcher: true, Where: strings.Join(where, "; ")}
	}
	return nil
}

// vmOption processes one option of the VM's init args (Arguments::parse_each_vm_init_arg).
func (p *parser) vmOption(t token) error {
	s := t.text
	switch {
	case strings.HasPrefix(s, "-D"):
		name, val, _ := strings.Cut(s[2:], "=")
		p.res.Properties = append(p.res.Properties, Property{Name: name, Value: val})
		if strings.HasPrefix(name, "com.sun.management") && p.o.JDK.Modern() && p.set.Has("ManagementServer") {
			// Any property of the management namespace (even "com.sun.managementX") asks
			// for the management server, where the option stands (17.0.15, 25.0.3).
			p.setCmdline("ManagementServer", value{b: true}, CommandLine)
		}
		return nil
	case strings.HasPrefix(s, "-XX:Flags="), strings.HasPrefix(s, "-XX:VMOptionsFile=") && p.o.JDK.Modern():
		return nil // handled before
	case strings.HasPrefix(s, "-XX:"):
		if !p.xxOption(s[4:], t.origin) {
			return p.fail(t)
		}
		switch s {
		case "-XX:+UseCompiler":
			p.compilerAfterXint = p.res.Mode == Interpreted
		case "-XX:-UseCompiler":
			p.compilerAfterXint = false
		}
		return nil
	}
	if handled, err := p.vmLauncherOption(t); handled {
		return err
	}
	if p.ignore && strings.HasPrefix(s, "-X") {
		return nil
	}
	p.errText.WriteString("Unrecognized option: " + s + "\n")
	return p.fail(t)
}

func (p *parser) setCmdline(name string, v value, origin Origin) {
	if e := p.set.lookup(name); e != nil {
		e.v, e.origin, e.cmdErgo = v, origin, false
	}
}

// isNameChar reports whether c may appear in a flag name (NAME_RANGE "[abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_]").
func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func validName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// unlocked reports whether f may be set now (JVMFlag::is_unlocked): diagnostic flags need
// UnlockDiagnosticVMOptions already set, experimental ones UnlockExperimentalVMOptions; the
// unlock flags themselves are always unlocked.
func (p *parser) unlocked(e *entry) bool {
	switch e.flag.Name {
	case "UnlockDiagnosticVMOptions", "UnlockExperimentalVMOptions":
		return true
	}
	switch e.flag.Kind.At(p.o.JDK) {
	case Diagnostic:
		return p.set.Bool("UnlockDiagnosticVMOptions")
	case Experimental:
		return p.set.Bool("UnlockExperimentalVMOptions")
	}
	return true
}

// xxOption processes the text after -XX: (Arguments::process_argument). It returns false
// after writing HotSpot's error text to p.errText.
func (p *parser) xxOption(arg string, origin Origin) bool {
	if strings.HasPrefix(arg, "#") {
		// A commented-out option: HotSpot names it (unless unrecognized options are ignored)
		// and carries on.
		if !p.ignore {
			p.notice("Unrecognized VM option '" + arg + "'\n")
		}
		return true
	}
	// A deprecated alias warns for itself, not for the flag it stands for.
	if real := p.resolveAlias(arg); real != arg {
		arg = real
	} else {
		p.deprecationWarning(arg)
	}
	if p.jfrArgument(arg) {
		return true
	}
	if ok, handled := p.setFromArgument(arg, origin); handled {
		return ok
	}
	if p.obsolete(arg) {
		return true
	}
	j := p.o.JDK
	plusMinus := arg != "" && (arg[0] == '+' || arg[0] == '-')
	argname := arg
	if plusMinus {
		argname = arg[1:]
	}
	name := argname
	if i := strings.IndexByte(argname, '='); i >= 0 {
		name = argname[:i]
	}
	if e := p.set.lookup(name); e != nil {
		locked := !p.unlocked(e)
		if locked {
			p.errText.WriteString(p.lockedMessage(e))
			if !behavesLike25(j) {
				return false
			}
		}
		p.settingError(argname, e.typ == Bool, plusMinus)
		return false
	}
	// A flag only a debug build takes: with IgnoreUnrecognizedVMOptions java skips it, else it
	// is refused as the locked flags are.
	if f, ok := debugOnlyFlag(j, p.o.Arch, name); ok {
		if p.ignore {
			return true
		}
		fmt.Fprintf(&p.errText, "Error: VM option '%s' is %s and is available only in debug version of VM.\n", f.name, f.debug)
		if behavesLike25(j) {
			p.settingError(argname, f.isBool, plusMinus)
		}
		return false
	}
	if p.ignore {
		return true
	}
	fmt.Fprintf(&p.errText, "Unrecognized VM option '%s'\n", argname)
	if m, ok := p.fuzzyMatch(name); ok {
		pre, post := "", "=<value>"
		if m.isBool {
			pre, post = "(+/-)", ""
		}
		end := "\n"
		if j.Modern() && !behavesLike25(j) {
			end = " " // JDK 9-17 print the suggestion without a newline
		}
		fmt.Fprintf(&p.errText, "Did you mean '%s%s%s'?%s", pre, m.name, post, end)
	}
	return false
}

// settingError is the line java adds after refusing a known flag: the sign or value the
// option got does not fit the flag's type.
func (p *parser) settingError(argname string, isBool, plusMinus bool) {
	switch {
	case isBool && !plusMinus:
		fmt.Fprintf(&p.errText, "Missing +/- setting for VM option '%s'\n", argname)
	case !isBool && plusMinus:
		fmt.Fprintf(&p.errText, "Unexpected +/- setting in VM option '%s'\n", argname)
	default:
		fmt.Fprintf(&p.errText, "Improperly specified VM option '%s'\n", argname)
	}
}

// optionName returns the flag name an -XX: option's text names: without its sign and value.
func optionName(arg string) string {
	name := strings.TrimLeft(arg, "+-")
	name, _, _ = strings.Cut(name, "=")
	return name
}

// resolveAlias returns arg with a deprecated alias of the release (recordedAliases) replaced by
// the flag it stands for, after java's warning; other options come back as they are.
func (p *parser) resolveAlias(arg string) string {
	name := optionName(arg)
	for _, a := range recordedAliases {
		if a.name == name && a.releases.Has(p.o.JDK) {
			p.warning("Option " + name + " was deprecated in version " + a.deprecated +
				" and will likely be removed in a future release. Use option " + a.flag + " instead.")
			return strings.Replace(arg, name, a.flag, 1)
		}
	}
	return arg
}

// obsolete reports whether arg names an obsolete flag of the release (recordedObsolete), which
// java ignores with a warning, whatever its sign or value (Arguments::process_argument checks
// names of at most 255 characters).
func (p *parser) obsolete(arg string) bool {
	name := optionName(arg)
	if len(name) > 255 {
		return false
	}
	for _, o := range recordedObsolete {
		if o.name == name && o.releases.Has(p.o.JDK) {
			p.warning("Ignoring option " + name + "; support was removed in " + o.removed)
			return true
		}
	}
	return false
}

// deprecationWarning warns about a deprecated flag named by arg, as java does for every
// option that names it, before the option is checked.
func (p *parser) deprecationWarning(arg string) {
	name := strings.TrimLeft(arg, "+-")
	name, _, _ = strings.Cut(name, "=")
	name = strings.TrimSuffix(name, ":")
	if e := p.set.peek(name); e != nil {
		if v := e.flag.Deprecated.At(p.o.JDK); v != "" {
			p.warning("Option " + name + " was deprecated in version " + v + " and will likely be removed in a future release.")
		}
	}
}

// lockedMessage is JVMFlag::get_locked_message for a locked flag.
func (p *parser) lockedMessage(e *entry) string {
	kind, unlock := "diagnostic", "UnlockDiagnosticVMOptions"
	if e.flag.Kind.At(p.o.JDK) == Experimental {
		kind, unlock = "experimental", "UnlockExperimentalVMOptions"
	}
	s := fmt.Sprintf("Error: VM option '%s' is %s and must be enabled via -XX:+%s.\n", e.flag.Name, kind, unlock)
	if p.o.JDK.Modern() {
		s += fmt.Sprintf("Error: The unlock option must precede '%s'.\n", e.flag.Name)
	}
	return s
}

// setFromArgument models Arguments::parse_argument: it sets the flag when arg is a
// well-formed setting of an existing, unlocked flag. handled is false when the generic error
// path of process_argument must explain the failure; a range failure is reported here.
func (p *parser) setFromArgument(arg string, origin Origin) (ok, handled bool) {
	j := p.o.JDK
	if arg != "" && (arg[0] == '+' || arg[0] == '-') {
		e := p.set.lookup(arg[1:])
		if !validName(arg[1:]) || e == nil || e.typ != Bool || !p.unlocked(e) {
			return false, false
		}
		p.setCmdline(e.flag.Name, value{b: arg[0] == '+'}, origin)
		p.setCoupled(e.flag.Name, value{b: arg[0] == '+'}, origin)
		return true, true
	}
	name, val, found := strings.Cut(arg, "=")
	if !found {
		return false, false
	}
	reset := false
	if strings.HasSuffix(name, ":") {
		name, reset = name[:len(name)-1], true
	}
	e := p.set.lookup(name)
	if !validName(name) || e == nil || !p.unlocked(e) || e.typ == Bool {
		return false, false
	}
	if reset && !e.typ.isString() {
		return false, false
	}
	var v value
	var err error
	switch e.typ {
	case Ccstr:
		v = value{s: val}
		if val == "" && slices.Contains(nonEmptyStrings, name) {
			// The flag's constraint at parse time (25's AOT files and mode).
			fmt.Fprintf(&p.errText, "%s cannot be empty\n", name)
			return false, false
		}
		if choices, ok := stringChoices[name]; ok && !slices.Contains(choices, val) {
			// The flag's constraint at parse time (AOTMode on 25).
			fmt.Fprintf(&p.errText, "Unrecognized value %s for %s. Must be one of the following: %s\n", val, name, strings.Join(choices, ", "))
			return false, false
		}
	case Ccstrlist:
		v = value{s: val}
		if !reset && e.v.s != "" {
			v.s = e.v.s + "\n" + val
		}
	case Double:
		v, err = parseDouble(val, j)
	default:
		if e.flag.MemorySizeOption != "" && origin != ConfigFile {
			// Parsed by the launcher-facing path as a memory size; its own message.
			u, ok := atojulong(val)
			if !ok || u < 1 || strings.HasPrefix(val, "-") {
				fmt.Fprintf(&p.errText, e.flag.MemorySizeOption+"\n", "-XX:"+arg)
				return false, true
			}
			// Its range is checked after all options are parsed (check_all_ranges).
			p.setCmdline(name, value{u: u}, origin)
			return true, true
		}
		v, err = parseInteger(e.typ, val, j)
	}
	if err != nil {
		return false, false
	}
	if r := e.flag.RangeAt(j); !e.flag.LateRange.At(j) && !inRange(e.typ, r, v) {
		p.errText.WriteString(rangeMessage(e.flag, e.typ, r, v))
		return false, false
	}
	if t := constraintText(p.set, name, j, true, e.typ, v); t != "" {
		p.errText.WriteString(t)
		return false, false
	}
	p.setCmdline(name, v, origin)
	p.setCoupled(name, v, origin)
	return true, true
}

// coupledFlags are the flags HotSpot sets beside one an option sets, where the option stands
// (Arguments::parse_each_vm_init_arg; observed on 17.0.15 and 25.0.3 with PrintFlagsFinal's
// origins): the tenuring switches and threshold move together, so that the last of them
// wins. A maximum threshold of 0 is AlwaysTenure; NeverTenure is a maximum of 16, one above
// the range an option may give.
var coupledFlags = map[string]func(v value) []coupledSetting{
	"MaxTenuringThreshold": func(v value) []coupledSetting {
		return []coupledSetting{{"NeverTenure", value{b: false}}, {"AlwaysTenure", value{b: v.u == 0}}}
	},
	"AlwaysTenure": func(v value) []coupledSetting {
		if !v.b {
			return nil
		}
		return []coupledSetting{{"NeverTenure", value{b: false}}, {"MaxTenuringThreshold", value{u: 0}}}
	},
	"NeverTenure": func(v value) []coupledSetting {
		if !v.b {
			return nil
		}
		return []coupledSetting{{"AlwaysTenure", value{b: false}}, {"MaxTenuringThreshold", value{u: 16}}}
	},
}

type coupledSetting struct {
	name string
	v    value
}

// setCoupled sets the flags coupled to name (coupledFlags) with the option's origin.
func (p *parser) setCoupled(name string, v value, origin Origin) {
	if !p.o.JDK.Modern() || coupledFlags[name] == nil {
		return
	}
	for _, c := range coupledFlags[name](v) {
		p.setCmdline(c.name, c.v, origin)
	}
}

// classSpaceWithoutPointers: a class space size the command line gave does nothing without
// compressed class pointers; the VM says so as it finishes parsing (17.0.15, 25.0.3: after
// the options' deprecation warnings, before PrintCommandLineFlags' line).
func (p *parser) classSpaceWithoutPointers() {
	s := p.set
	if !p.o.JDK.Modern() || !s.Has("CompressedClassSpaceSize") || !s.Has("UseCompressedClassPointers") {
		return
	}
	// 17 declares the pointers off and turns them on later, unless the command line said no.
	if s.WasSetOnCommandLine("CompressedClassSpaceSize") && s.WasSetOnCommandLine("UseCompressedClassPointers") && !s.Bool("UseCompressedClassPointers") {
		p.warning("Setting CompressedClassSpaceSize has no effect when compressed class pointers are not used")
	}
}

// compactHeaders: Temurin 25's compact object headers need compressed class pointers; with
// those off the VM warns as it finishes parsing (before PrintVMOptions' lines) and turns the
// headers off, the option's origin kept (25.0.3, whatever the collector).
func (p *parser) compactHeaders() {
	s := p.set
	if p.o.JDK < jdk.R25 || !s.Has("UseCompactObjectHeaders") || !s.Has("UseCompressedClassPointers") {
		return
	}
	if e := s.lookup("UseCompactObjectHeaders"); e.v.b && !s.Bool("UseCompressedClassPointers") {
		p.warning("Compact object headers require compressed class pointers. Disabling compact object headers.")
		e.v.b = false
	}
}

// aggressiveHeapFlags are what -XX:+AggressiveHeap sets once the options are read, over
// what the command line said (17.0.15 and 25.0.3: -XX:TLABSize=1m still ends at 256K): the
// Parallel collector, which another collector's option then conflicts with, and its TLAB,
// PLAB and tenuring settings. The heap sizes it sets need the machine's memory
// (runtime/ergo).
var aggressiveHeapFlags = []struct{ name, value string }{
	{"UseParallelGC", "true"}, {"ResizeTLAB", "false"}, {"TLABSize", "262144"}, {"YoungPLABSize", "262144"},
	{"OldPLABSize", "8192"}, {"ScavengeBeforeFullGC", "false"}, {"ThresholdTolerance", "100"},
}

// aggressiveHeap applies aggressiveHeapFlags when -XX:+AggressiveHeap stands after the
// options (the flags a release lacks, 25's ScavengeBeforeFullGC, are skipped).
func (p *parser) aggressiveHeap() {
	s := p.set
	if !p.o.JDK.Modern() || !s.Has("AggressiveHeap") || !s.Bool("AggressiveHeap") {
		return
	}
	for _, f := range aggressiveHeapFlags {
		if s.Has(f.name) {
			_ = s.SetCommandLine(f.name, f.value)
		}
	}
}

// tenuringErgonomics lowers a default InitialTenuringThreshold to a lower maximum, as an
// ergonomic value (-XX:MaxTenuringThreshold=5: 5; 17.0.15 and 25.0.3, every collector). One
// given on the command line stays, for Parallel's constraint to refuse.
func (p *parser) tenuringErgonomics() {
	s := p.set
	if !p.o.JDK.Modern() || !s.Has("InitialTenuringThreshold") || !s.Has("MaxTenuringThreshold") || !s.IsDefault("InitialTenuringThreshold") {
		return
	}
	if m := s.Uint("MaxTenuringThreshold"); m < s.Uint("InitialTenuringThreshold") {
		_ = s.SetErgo("InitialTenuringThreshold", fmt.Sprint(m))
	}
}
