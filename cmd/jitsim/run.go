package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Version is jitsim's own version.
const Version = "0.1.0-dev"

// scenarioCatalog lists and runs scenarios: package scenario's (scenarioRunner), or a
// test's.
type scenarioCatalog interface {
	// Names returns the scenario names, sorted.
	Names() []string
	// Describe returns a scenario's one-line summary and its full description (properties
	// with their defaults and meaning, positional arguments); ok is false for an unknown name.
	Describe(name string) (summary, detail string, ok bool)
	// Run runs a scenario by name, or a scenario file when file is true.
	Run(rc runContext, nameOrFile string, file bool, args []string) int
}

// runContext is what a scenario run gets from the command line.
type runContext struct {
	// run is the command line's configuration, resolved once (setup.Resolve): flags after
	// ergonomics, CPU model, clock, profile, threads, tiers; run.Options are the VM options
	// as written, which a scenario file's variants parse again after their own.
	run *setup.Run
	// unpriced is why the run has no cost profile for the model clock (Resolve's last
	// step failed): it stops a named scenario, not -version.
	unpriced       error
	stdout, stderr io.Writer
	// given are jitsim's own options the command line set explicitly (a scenario file's
	// keys yield to them): "jdk", "cpu", "clock", "threads".
	given map[string]bool
	// stats is --stats: after a named scenario, its phases' simulated seconds per wall
	// second on stderr.
	stats bool
	// ctx, when set, stops the run (at an iteration boundary) instead of SIGINT and
	// SIGTERM: the playground's runs, whose process serves other runs.
	ctx context.Context
	// tty, when set, receives the VM's diagnostic output (PrintCompilation, PrintInlining,
	// …) apart from the scenario's own stdout; nil: stdout, as java writes both.
	tty io.Writer
	// observer, when set, receives a named scenario's iterations (and its VM).
	observer scenario.Observer
}

// runArgs is the pre-split command line of `jitsim run`.
type runArgs struct {
	own      []string // jitsim's --options, for cobra
	vm       []string // java options, for flags.Parse
	scenario string
	// kind is what java would take scenario for: "class" (a main class or a scenario file),
	// "jar" (-jar FILE) or "module" (-m MODULE).
	kind string
	rest []string
	help bool
}

// ownOptionShape is how jitsim's own options look: a lowercase word with dashes, maybe
// "=value" (what splitRunArgs takes as jitsim's without a command at hand; execute asks the
// command which options it registers). Another "--" option (--XX:+UseG1GC,
// --add-opensjava.base/…, --finalization=disabled) is java's to take or refuse, as java does.
var ownOptionShape = regexp.MustCompile(`^--[a-z][a-z0-9-]*(=.*)?$`)

// ownWithValue are jitsim options that take their value as the next argument when written
// without "=".
var ownWithValue = map[string]bool{"--jdk": true, "--cpu": true, "--clock": true, "--profile": true, "--threads": true, "--cpuprofile": true}

// splitRunArgs separates jitsim's own --options from java's options and the scenario. It
// runs before cobra, which cannot parse -XX:… options. A "--" option java knows
// (flags.IsLauncherOption: --add-opens, --version, …) is java's; java options that take a
// value (-cp PATH) take the next argument with them.
func splitRunArgs(args []string) (runArgs, error) {
	return splitRunArgsWith(args, ownOptionShape.MatchString)
}

// splitRunArgsWith is splitRunArgs with isOwn telling jitsim's "--" options from java's.
func splitRunArgsWith(args []string, isOwn func(string) bool) (runArgs, error) {
	var r runArgs
	// jar: -jar came before an option; java's launcher then takes the first argument that is
	// not an option as the jar (java -jar -Xmx64m app.jar), and -jar -version prints the
	// version (OpenJDK 17.0.15, Temurin 25.0.3). -m and --module take the next argument.
	jar := false
args:
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-jar" && i+1 < len(args) && strings.HasPrefix(args[i+1], "-"):
			jar = true
		case a == "--":
			if i+1 < len(args) {
				r.scenario, r.kind, r.rest = args[i+1], "class", args[i+2:]
				return r, nil
			}
			break args // nothing after the separator: as if the line ended before it
		case a == "-h" || a == "--help":
			r.help = true
			r.own = append(r.own, a)
		case flags.ProgramKind(a) != "" && i+1 < len(args):
			r.scenario, r.kind, r.rest = args[i+1], flags.ProgramKind(a), args[i+2:]
			return r, nil
		case flags.TakesArgument(a):
			r.vm = append(r.vm, a)
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				r.vm = append(r.vm, args[i])
			}
		case strings.HasPrefix(a, "--") && !flags.IsLauncherOption(a) && isOwn(a):
			r.own = append(r.own, a)
			if ownWithValue[a] && i+1 < len(args) {
				i++
				r.own = append(r.own, args[i])
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@"):
			r.vm = append(r.vm, a)
		default:
			r.scenario, r.kind, r.rest = a, "class", args[i+1:]
			if jar {
				r.kind = "jar"
			}
			return r, nil
		}
	}
	if jar {
		// No jar named: java's own complaint.
		r.vm = append(r.vm, "-jar")
	}
	return r, nil
}

// execute runs the command line on d's packages and returns the exit status.
func (d deps) execute(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) (string, bool)) int {
	status := 0
	var split runArgs
	root := &cobra.Command{
		Use:           "jitsim",
		Short:         "A model of HotSpot's tiered runtime and its crypto intrinsics",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	var prof cpuProfile
	prof.register(root)
	defer prof.stop(stderr)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(d.newRunCommand(&split, getenv, &status), d.newExplainCommand(&split, getenv, &status), d.newScenariosCommand(),
		d.newCPUsCommand(), newVersionCommand())
	root.AddCommand(d.newWarmupCommand(getenv, &status), d.newBenchCommand(getenv, &status), d.newSweepCommand(getenv, &status))
	root.AddCommand(d.newCalibrateCommand(&status), d.newValidateCommand(&status), d.newServeCommand(&status))
	if len(args) > 0 && (args[0] == "run" || args[0] == "explain") {
		sub, _, _ := root.Find(args[:1])
		// A "--" option the command does not register is java's to accept or refuse.
		isOwn := func(a string) bool {
			name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			return sub.Flags().Lookup(name) != nil || sub.InheritedFlags().Lookup(name) != nil
		}
		var err error
		split, err = splitRunArgsWith(args[1:], isOwn)
		if err != nil {
			fmt.Fprintf(stderr, "jitsim %s: %v\n", args[0], err)
			return 1
		}
		args = append([]string{args[0]}, split.own...)
		for _, a := range split.vm {
			if strings.HasPrefix(a, "--") && ownOptionShape.MatchString(a) && !flags.IsLauncherOption(a) {
				fmt.Fprintf(stderr, "jitsim: %s is not one of jitsim's options either ('jitsim help %s' lists them)\n", a, args[0])
			}
		}
	}
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "jitsim:", err)
		return 2
	}
	return status
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print jitsim's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "jitsim %s (%s, JDK profiles %s; default %s)\n",
				Version, goruntime.Version(), profileList(), jdk.Default)
			return err
		},
	}
}

func profileList() string {
	var s []string
	for _, j := range jdk.All() {
		s = append(s, j.String())
	}
	return strings.Join(s, ", ")
}

func (d deps) newScenariosCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios [NAME]",
		Short: "List the scenarios jitsim can run, or describe one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if len(args) == 1 {
				_, detail, ok := d.scenarios.Describe(args[0])
				if !ok {
					msg := fmt.Sprintf("unknown scenario %q (see 'jitsim scenarios')", args[0])
					for _, n := range d.scenarios.Names() {
						if strings.EqualFold(n, args[0]) {
							msg += fmt.Sprintf("; did you mean '%s'?", n)
						}
					}
					return errors.New(msg)
				}
				_, err := io.WriteString(out, detail)
				return err
			}
			width := 0
			for _, n := range d.scenarios.Names() {
				width = max(width, len(n))
			}
			for _, n := range d.scenarios.Names() {
				summary, _, _ := d.scenarios.Describe(n)
				if _, err := fmt.Fprintf(out, "%-*s  %s\n", width, n, summary); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func (d deps) newRunCommand(split *runArgs, getenv func(string) (string, bool), status *int) *cobra.Command {
	var jdkName, cpuName, clock, profile string
	var threads int
	var stats bool
	cmd := &cobra.Command{
		Use:   "run [--jdk=" + strings.Join(jdk.Names(), "|") + "] [--cpu=NAME] [--clock=wall|model [--profile=FILE.json]] [--threads=N] [--stats] [VM options…] (SCENARIO [args…] | -version)",
		Short: "Run a scenario, or check a java command line with -version",
		Long: `Run a scenario (a name from 'jitsim scenarios' or a scenario file) as java would run a
main class, with java's options: -XX:+Flag, -XX:-Flag, -XX:Flag=value, -Dname=value, the -X
options (jitsim run -X lists them), -Xlog (jitsim run -Xlog:help), @argfiles, -XX:Flags=file,
-XX:VMOptionsFile=file, the JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS environment
variables, and the launcher's options (-cp, --add-opens, -ea, -javaagent:…), which are checked
and otherwise do nothing. Option errors are java's, word for word, for the chosen JDK profile
(exit status 1). A command-line option beats a scenario file's key, with a note on stderr.

'jitsim run <VM options> -version' checks a command line and prints a version banner, the way
'java <VM options> -version' does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if threads < 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "jitsim run: --threads: %d is not a thread count\n", threads)
				*status = 2
				return nil
			}
			given := map[string]bool{}
			for _, name := range []string{"jdk", "cpu", "clock", "threads"} {
				given[name] = cmd.Flags().Changed(name)
			}
			*status = d.runVM(*split, runOpts{jdk: jdkName, cpu: cpuName, clock: clock, profile: profile, threads: threads, given: given, stats: stats},
				getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&jdkName, "jdk", jdk.Default.String(), "JDK profile: "+profileList())
	f.StringVar(&cpuName, "cpu", "host", "CPU model: "+strings.Join(d.cpuNames(), ", ")+" (see 'jitsim cpus')")
	f.StringVar(&clock, "clock", "wall", "clock: wall (measured) or model (deterministic cost model)")
	f.StringVar(&profile, "profile", "", "cost profile JSON for the model clock (from 'jitsim calibrate --out'); default: the CPU model's")
	f.IntVar(&threads, "threads", 0, "application threads (0: the scenario's default)")
	f.BoolVar(&stats, "stats", false, "after the run, print per phase the run clock's seconds per wall second on stderr (how fast the model clock simulates)")
	f.BoolVar(&d.forceProfile, "force-profile", false, "use a --profile measured on another JDK release or CPU anyway")
	return cmd
}

// runOpts are jitsim's own options of `jitsim run`.
type runOpts struct {
	jdk, cpu, clock, profile string
	threads                  int
	// given: which of jdk, cpu, clock and threads the command line set explicitly.
	given map[string]bool
	stats bool
	// ctx, tty and observer are runContext's (the playground sets them; the CLI does not).
	ctx      context.Context
	tty      io.Writer
	observer scenario.Observer
}

// runVM is `jitsim run` after jitsim's own options are known. It resolves the command
// line's configuration once and prints what java prints, in java's order: the parse's
// notices, an option error (exit 1), -XX:+PrintFlagsInitial (which exits before any
// ergonomics), the ergonomics' warnings, the flag tables, the -version banner; then it runs
// the scenario or scenario file.
func (d deps) runVM(a runArgs, o runOpts, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	rel, err := jdk.Parse(o.jdk)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim run: --jdk:", err)
		return 2
	}
	if o.clock != setup.ClockWall && o.clock != setup.ClockModel {
		fmt.Fprintf(stderr, "jitsim run: --clock: unknown clock %q (want wall or model)\n", o.clock)
		return 2
	}
	if o.profile != "" && o.clock != setup.ClockModel {
		fmt.Fprintf(stderr, "jitsim run: --profile=%s: a cost profile prices the model clock; add --clock=model\n", o.profile)
		return 2
	}
	m, err := d.resolveCPU(o.cpu)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim run: --cpu:", err)
		return 2
	}
	var logs logPrinter
	r, err := setup.Resolve(setup.Request{JDK: rel, CPU: m, Options: a.vm, Getenv: getenv, Clock: o.clock,
		ProfileFile: o.profile, ForceProfile: d.forceProfile, HostProfiles: d.hostProfiles, Threads: o.threads, Tiers: d.tiersOn(o.clock), NewClock: d.wallClock})
	for _, s := range r.Result.Stderr {
		io.WriteString(stderr, s)
	}
	if r.CachedProfile != "" {
		fmt.Fprintf(stderr, "jitsim: the model clock uses this host's calibrated profile %s ('jitsim calibrate --jvm')\n", r.CachedProfile)
	}
	// PrintVMOptions' lines sit in C stdio's buffer, which a terminal flushes at each line
	// and a pipe at exit or when unified logging writes to stdout (it flushes after each
	// line); the tty stream's lines (PrintCommandLineFlags, the flag tables) go out at once,
	// before them (observed on 17 and 25 with stdout a pipe).
	vmOut := &stdioBuffer{w: stdout, pending: r.Result.Stdout}
	defer vmOut.flush()
	if f, ok := stdout.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			vmOut.flush()
		}
	}
	if r.Flags == nil {
		var fe *flags.Error
		if !errors.As(err, &fe) {
			fmt.Fprintln(stderr, "jitsim run:", err)
			return 1
		}
		// The ergonomics' lines come before PrintCommandLineFlags' line, the collector's
		// start after it: the warnings found before the -Xlog options applied with the
		// default configuration, the later lines (Configured) with the outputs those
		// options gave.
		failLog := jrt.NewStartupLog(vmOut, stderr, r.Result.LogDisabled, processStart)
		failLog.Configure(r.Result.Logs)
		for _, l := range fe.ErgoLog {
			if l.Configured {
				failLog.Write(l)
			} else {
				io.WriteString(vmOut, logs.format(l))
			}
		}
		if cl := r.CommandLineFlags; cl != nil && cl.Bool("PrintCommandLineFlags") {
			cl.PrintCommandLineFlags(stdout)
		}
		for _, o := range r.Result.Oracle {
			io.WriteString(stdout, o)
		}
		for _, l := range fe.Log {
			io.WriteString(vmOut, logs.format(l))
		}
		for _, l := range fe.StartLog {
			failLog.Write(l)
		}
		// The boot layer's warnings come before its own failure.
		for _, l := range r.Result.BootWarnings {
			io.WriteString(stderr, l)
		}
		if fe.Stdout {
			io.WriteString(stdout, fe.Text)
		} else {
			io.WriteString(stderr, fe.Text)
		}
		if fe.Launcher {
			io.WriteString(stderr, flags.LauncherLines)
		}
		if fe.Where != "" {
			fmt.Fprintf(stderr, "jitsim: the failing option came from %s\n", fe.Where)
		}
		return flags.ExitStatus
	}
	set := r.Flags
	if set.Bool("PrintFlagsInitial") {
		// HotSpot prints the initial values and exits at once (Arguments::parse), before it
		// would print the VM option lines (none appear, on a pipe or a terminal).
		vmOut.pending = nil
		set.PrintFlagsInitial(stdout)
		return 0
	}
	if !r.Settled {
		fmt.Fprintln(stderr, "jitsim run:", err)
		return 1
	}
	startLog := jrt.NewStartupLog(vmOut, stderr, r.Result.LogDisabled, processStart)
	for _, l := range r.Result.LogWarnings {
		if !l.Configured {
			startLog.Write(l)
		}
	}
	startLog.Configure(r.Result.Logs)
	for _, l := range r.Result.LogWarnings {
		if l.Configured {
			startLog.Write(l)
		}
	}
	if r.Result.XlogHelp {
		io.WriteString(stdout, flags.XlogHelp(rel))
		return 0
	}
	for _, l := range r.Warnings {
		fmt.Fprintln(stderr, l)
	}
	for _, l := range r.Result.BootWarnings {
		io.WriteString(stderr, l)
	}
	// java prints the command-line flags as the ergonomics end, the collector's lines as
	// the heap is made, the tables when the VM is up.
	if set.Bool("PrintCommandLineFlags") {
		r.CommandLineFlags.PrintCommandLineFlags(stdout)
	}
	if r.ConstraintFailure != "" {
		io.WriteString(stderr, r.ConstraintFailure+"\n"+flags.LauncherLines)
		return flags.ExitStatus
	}
	for _, l := range r.StartLog {
		startLog.Write(l)
	}
	if r.InitFailure != "" {
		io.WriteString(stdout, "Error occurred during initialization of VM\n"+r.InitFailure+"\n")
		return flags.ExitStatus
	}
	if r.CollectorFailure {
		io.WriteString(stderr, flags.LauncherLines)
		return flags.ExitStatus
	}
	for _, l := range r.Result.RunLog {
		startLog.Write(l)
	}
	switch {
	case set.Has("PrintFlagsRanges") && set.Bool("PrintFlagsRanges"):
		// HotSpot prints the ranges table instead of PrintFlagsFinal's when both are given.
		set.PrintFlagsRanges(stdout)
	case set.Bool("PrintFlagsFinal"):
		set.PrintFlagsFinal(stdout)
	}
	for _, o := range r.Result.Oracle {
		io.WriteString(stdout, o)
	}
	for _, o := range r.Result.Started {
		io.WriteString(stdout, o)
	}
	if r.Result.ShowSettingsVM {
		io.WriteString(stderr, flags.VMSettings(r.Result, r.MaxMemory))
	}
	res := r.Result
	if res.DumpArchive {
		return 0
	}
	if res.MainClass != "" {
		// java loads the main class an @argfile named once the VM is up; jitsim runs none.
		fmt.Fprintf(stderr, "Error: Could not find or load main class %s\nCaused by: java.lang.ClassNotFoundException: %s\n", res.MainClass, res.MainClass)
		fmt.Fprintf(stderr, "jitsim: the main class %q came from %s; jitsim runs its own scenarios (see 'jitsim scenarios'), not Java programs\n", res.MainClass, res.MainClassFrom)
		return 1
	}
	banner := stderr
	if res.ToStdout {
		banner = stdout
	}
	switch {
	case res.FullVersion:
		// java's one line, in jitsim's words: `-fullversion` on stderr, `--full-version`
		// on stdout, each in its own form.
		if res.ToStdout {
			fmt.Fprintf(stdout, "jitsim %s (JDK %s profile)\n", Version, rel)
		} else {
			fmt.Fprintf(stderr, "jitsim full version \"%s\" (JDK %s profile)\n", Version, rel)
		}
		return 0
	case res.InternalVersion:
		// java's build line, in jitsim's words: what is modelled and what built it.
		fmt.Fprintf(stdout, "HotSpot model (JDK %s profile) for linux-%s, built by jitsim %s with %s\n", rel, m.Arch, Version, goruntime.Version())
		return 0
	case res.XHelp:
		printXHelp(banner, rel)
		return 0
	case res.Help:
		fmt.Fprintln(stdout, "Usage: jitsim run [jitsim options] [java options] (SCENARIO [args...] | -version)")
		fmt.Fprintln(stdout, "See 'jitsim help run' for jitsim's options, 'jitsim run -X' for the -X options and 'jitsim scenarios' for the scenarios.")
		return 0
	case res.Version:
		if lines := startupCompiles(set); lines != nil {
			if set.Bool("PrintCompilation") {
				for _, l := range lines {
					fmt.Fprintln(stdout, l)
				}
			}
			if err := jrt.LogStartupCompiles(vmOut, set, rel, lines); err != nil {
				fmt.Fprintln(stderr, "jitsim run:", err)
				return 1
			}
		}
		printBanner(banner, rel, m, res)
		for _, l := range r.ExitLog {
			startLog.Write(l)
		}
		for _, l := range res.ExitLog {
			startLog.Write(l)
		}
		return 0
	case res.ShowVersion:
		printBanner(banner, rel, m, res)
	}
	if a.kind == "" {
		if res.DryRun {
			return 0
		}
		fmt.Fprintln(stderr, "jitsim run: no scenario given; name one from 'jitsim scenarios', give a scenario file, or use -version")
		return 1
	}
	rc := runContext{run: r, unpriced: err, stdout: stdout, stderr: stderr, given: o.given, stats: o.stats,
		ctx: o.ctx, tty: o.tty, observer: o.observer}
	if a.kind == "class" && d.isScenario(a.scenario) {
		if res.DryRun {
			return 0
		}
		return d.scenarios.Run(rc, a.scenario, false, a.rest)
	}
	if st, err := os.Stat(a.scenario); a.kind == "class" && err == nil && !st.IsDir() && !isJavaSource(a.scenario) {
		if res.DryRun {
			return 0
		}
		return d.scenarios.Run(rc, a.scenario, true, a.rest)
	}
	if a.kind == "class" && !isJavaSource(a.scenario) {
		// What java says of a main class it cannot find, then why jitsim runs none.
		fmt.Fprintf(stderr, "Error: Could not find or load main class %s\nCaused by: java.lang.ClassNotFoundException: %s\n", a.scenario, a.scenario)
		fmt.Fprintln(stderr, "jitsim: "+d.notAScenario(a))
		return 1
	}
	fmt.Fprintln(stderr, "jitsim run: "+d.notAScenario(a))
	return 1
}

// processStart is when jitsim started: the uptime unified logging's default decoration shows.
var processStart = time.Now()

// logPrinter formats a run's unified-logging lines with java's default decorations (uptime,
// level, tags), the uptime being jitsim's own. Like java it pads each decoration to the
// widest one printed before it ("[error  ]" after "[warning]").
type logPrinter struct{ level, tags int }

func (lp *logPrinter) format(l flags.LogLine) string {
	if l.Plain {
		return l.Text + "\n"
	}
	lp.level = max(lp.level, len(l.Level))
	lp.tags = max(lp.tags, len(l.Tags))
	prefix := fmt.Sprintf("[%.3fs][%-*s][%-*s]", time.Since(processStart).Seconds(), lp.level, l.Level, lp.tags, l.Tags)
	// A message of several lines: the later ones get a blank decoration of the same width.
	blank := "[" + strings.Repeat(" ", len(prefix)-2) + "]"
	var b strings.Builder
	for i, line := range strings.Split(l.Text, "\n") {
		if i > 0 {
			prefix = blank
		}
		b.WriteString(prefix + " " + line + "\n")
	}
	return b.String()
}

// isJavaSource reports whether a file name is a Java program's (source-file mode or a
// class file), which jitsim does not run.
func isJavaSource(name string) bool {
	return strings.HasSuffix(name, ".java") || strings.HasSuffix(name, ".class") || strings.HasSuffix(name, ".jar")
}

// notAScenario explains why the program of a command line is not run: jitsim runs its
// own scenarios, not Java programs; a scenario name in another case gets a suggestion.
func (d deps) notAScenario(a runArgs) string {
	what := map[string]string{"jar": "-jar " + a.scenario, "module": "module " + a.scenario}[a.kind]
	if what == "" {
		what = fmt.Sprintf("%q", a.scenario)
		if isJavaSource(a.scenario) {
			what = "Java program " + what
		}
	}
	msg := what + " is neither a jitsim scenario nor a scenario file; jitsim runs its own scenarios (see 'jitsim scenarios'), not Java programs"
	if a.kind == "class" {
		for _, n := range d.scenarios.Names() {
			if strings.EqualFold(n, a.scenario) {
				msg += fmt.Sprintf(". Did you mean '%s'?", n)
				break
			}
		}
	}
	return msg
}

// printXHelp prints the -X options jitsim accepts, in jitsim's words, to stderr (where java
// prints its -X help).
func printXHelp(w io.Writer, rel jdk.Release) {
	fmt.Fprintln(w)
	for _, o := range flags.XOptions(rel) {
		fmt.Fprintf(w, "    %-18s%s\n", o.Name, o.Help)
	}
	fmt.Fprintln(w, "\nThe -X options java accepts are all checked as java checks them; most do nothing in jitsim.")
}

// startupCompiles returns the PrintCompilation lines of the JVM's own start-up compiles
// during java -version as recorded (PrintCompilation and -Xlog:jit+compilation show them),
// for the default configuration (tiered, both compilers, no compile command) and without a
// compiler (-Xint, -XX:-UseCompiler);
// nil for the others, which compile other methods or at other levels (jitsim prints
// nothing for them).
func startupCompiles(set *flags.Set) []string {
	if policy.StartupCompiles(set.JDK()) == nil {
		return nil // not recorded (8, 8u, 21); those profiles lack some of the flags below
	}
	if !set.Bool("UseCompiler") && set.Bool("UseInterpreter") {
		return policy.StartupCompilesWithoutCompiler(set.JDK(), set.Bool("TieredCompilation"))
	}
	if set.Bool("UseCompiler") && set.Bool("UseInterpreter") && set.Bool("TieredCompilation") &&
		set.Int("TieredStopAtLevel") == 4 && set.CompilationModeInEffect() == "default" && len(set.CompileCommands()) == 0 &&
		set.IsDefault("CompileThresholdScaling") {
		return policy.StartupCompiles(set.JDK())
	}
	return nil
}

// printBanner prints java -version's three lines in jitsim's words, with java's mode words
// ("mixed mode", "interpreted mode", "compiled mode", and "emulated-client" when C1 alone
// compiles).
func printBanner(w io.Writer, rel jdk.Release, m cpu.Model, res *flags.Result) {
	mode := res.Mode.String()
	if res.EmulatedClient && res.Mode != flags.Interpreted {
		mode += ", emulated-client"
	}
	fmt.Fprintf(w, "jitsim version \"%s\" (JDK %s profile)\n", Version, rel)
	fmt.Fprintf(w, "jitsim Runtime Environment (models OpenJDK %s; CPU model %s: %s)\n", rel, m.Name, m.Description)
	fmt.Fprintf(w, "jitsim 64-Bit Server VM model (JDK %s profile, %s, %s)\n", rel, m.Arch, mode)
}

// stdioBuffer holds lines java writes through C stdio to a piped stdout: a write through
// it (unified logging's) first flushes them, as does flush.
type stdioBuffer struct {
	w       io.Writer
	pending []string
}

func (b *stdioBuffer) Write(p []byte) (int, error) {
	b.flush()
	return b.w.Write(p)
}

func (b *stdioBuffer) flush() {
	for _, s := range b.pending {
		io.WriteString(b.w, s)
	}
	b.pending = nil
}
