package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

// Version is jitsim's own version.
const Version = "0.1.0-dev"

// CPUModel is what the command needs to know about a --cpu name.
type CPUModel struct {
	// Name is the model's name as --cpu takes it.
	Name string
	// Arch is the model's architecture; it decides which flags exist (UseAVX is x86-only).
	Arch jdk.Arch
	// Description is shown in the version banner.
	Description string
	// Spec is the catalog's own description of the model (a stubs/cpu.Model for the real
	// catalog), handed back to the ergonomics.
	Spec any
}

// CPUCatalog resolves --cpu names. wire.go installs the models of package stubs/cpu; hostOnly
// is the fallback that knows only "host".
type CPUCatalog interface {
	Lookup(name string) (CPUModel, error)
	Names() []string
}

// ScenarioCatalog lists and runs scenarios. The default is empty; the scenario package is
// wired in by assigning scenarioCatalog.
type ScenarioCatalog interface {
	// Names returns the scenario names, sorted.
	Names() []string
	// Run runs a scenario by name, or a scenario file when file is true.
	Run(ctx RunContext, nameOrFile string, file bool, args []string) int
}

// RunContext is what a scenario run gets from the command line.
type RunContext struct {
	Flags  *flags.Set
	Result *flags.Result
	CPU    CPUModel
	Clock  string
	// ProfileFile is --profile: a cost profile (what 'jitsim calibrate --out'
	// writes) that replaces the CPU model's on the model clock; "" keeps it.
	ProfileFile string
	// Threads is --threads (0: the scenario's own default).
	Threads int
	// VMArgs are the command line's VM options as written, for scenario files, whose
	// variants parse them again after their own options.
	VMArgs []string
	Stdout io.Writer
	Stderr io.Writer
}

// Ergonomics adjusts flags for a CPU model after parsing (vm_version_*.cpp): it uses
// Set.SetDefault/SetErgo and writes HotSpot's warnings to warn. wire.go installs the
// runtime's; nil skips ergonomics (declared defaults stay).
type Ergonomics func(s *flags.Set, cpu CPUModel, warn io.Writer) error

var (
	cpuCatalog      CPUCatalog      = hostOnly{}
	scenarioCatalog ScenarioCatalog = noScenarios{}
	ergonomics      Ergonomics
)

type hostOnly struct{}

func (hostOnly) Lookup(name string) (CPUModel, error) {
	if name != "host" {
		return CPUModel{}, fmt.Errorf("unknown CPU model %q (known: host)", name)
	}
	arch := jdk.AMD64
	if goruntime.GOARCH == "arm64" {
		arch = jdk.ARM64
	}
	return CPUModel{Name: "host", Arch: arch, Description: "host " + goruntime.GOARCH}, nil
}

func (hostOnly) Names() []string { return []string{"host"} }

type noScenarios struct{}

func (noScenarios) Names() []string { return nil }

func (noScenarios) Run(ctx RunContext, name string, file bool, args []string) int {
	fmt.Fprintf(ctx.Stderr, "jitsim: cannot run %q: no scenario runner is built into this jitsim yet\n", name)
	return 1
}

// javaProgramOptions are java options that name a Java program to run; jitsim runs its own
// scenarios instead.
var javaProgramOptions = map[string]bool{
	"-jar": true, "-cp": true, "-classpath": true, "--class-path": true, "-m": true, "--module": true,
	"--module-path": true, "-p": true, "--source": true,
}

// runArgs is the pre-split command line of `jitsim run`.
type runArgs struct {
	own      []string // jitsim's --options, for cobra
	vm       []string // java options, for flags.Parse
	scenario string
	rest     []string
	help     bool
}

// ownWithValue are jitsim options that take their value as the next argument when written
// without "=".
var ownWithValue = map[string]bool{"--jdk": true, "--cpu": true, "--clock": true, "--profile": true, "--threads": true}

// splitRunArgs separates jitsim's own --options from java's VM options and the scenario. It
// runs before cobra, which cannot parse -XX:… options.
func splitRunArgs(args []string) (runArgs, error) {
	var r runArgs
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case javaProgramOptions[a] || strings.HasPrefix(a, "--class-path=") || strings.HasPrefix(a, "--module="):
			return r, fmt.Errorf("%s: jitsim runs its own scenarios, not Java programs (see 'jitsim scenarios')", a)
		case a == "--":
			if i+1 < len(args) {
				r.scenario, r.rest = args[i+1], args[i+2:]
			}
			return r, nil
		case a == "-h" || a == "--help":
			r.help = true
			r.own = append(r.own, a)
		case strings.HasPrefix(a, "--"):
			r.own = append(r.own, a)
			if ownWithValue[a] && i+1 < len(args) {
				i++
				r.own = append(r.own, args[i])
			}
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@"):
			r.vm = append(r.vm, a)
		default:
			r.scenario, r.rest = a, args[i+1:]
			return r, nil
		}
	}
	return r, nil
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) (string, bool)) int {
	status := 0
	var split runArgs
	if len(args) > 0 && (args[0] == "run" || args[0] == "explain") {
		var err error
		split, err = splitRunArgs(args[1:])
		if err != nil {
			fmt.Fprintf(stderr, "jitsim %s: %v\n", args[0], err)
			return 1
		}
		args = append([]string{args[0]}, split.own...)
	}
	root := &cobra.Command{
		Use:           "jitsim",
		Short:         "A model of HotSpot's tiered runtime and its crypto intrinsics",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRunCommand(&split, getenv, &status), newExplainCommand(&split, getenv, &status), newScenariosCommand(), newCPUsCommand(), newVersionCommand())
	root.AddCommand(newWarmupCommand(getenv, &status), newBenchCommand(getenv, &status), newSweepCommand(getenv, &status))
	root.AddCommand(newCalibrateCommand(&status))
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

func newScenariosCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "List the scenarios jitsim can run",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, n := range scenarioCatalog.Names() {
				if _, err := fmt.Fprintln(cmd.OutOrStdout(), n); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

func newRunCommand(split *runArgs, getenv func(string) (string, bool), status *int) *cobra.Command {
	var jdkName, cpuName, clock, profile string
	var threads int
	cmd := &cobra.Command{
		Use:   "run [--jdk=8|8u|17|21|25] [--cpu=NAME] [--clock=wall|model [--profile=FILE.json]] [--threads=N] [VM options…] (SCENARIO [args…] | -version)",
		Short: "Run a scenario, or check a java command line with -version",
		Long: `Run a scenario (a name from 'jitsim scenarios' or a scenario file) as java would run a
main class, with java's VM options: -XX:+Flag, -XX:-Flag, -XX:Flag=value, -Xint, -Xcomp,
-Xmixed, -Xbatch, -Dname=value, @argfiles, -XX:Flags=file, -XX:VMOptionsFile=file, and the
JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS environment variables. Option errors
are HotSpot's, word for word, for the chosen JDK profile (exit status 1).

'jitsim run <VM options> -version' checks a command line and prints a version banner, the way
'java <VM options> -version' does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if threads < 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "jitsim run: --threads: %d is not a thread count\n", threads)
				*status = 2
				return nil
			}
			*status = runVM(*split, runOpts{jdk: jdkName, cpu: cpuName, clock: clock, profile: profile, threads: threads},
				getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&jdkName, "jdk", jdk.Default.String(), "JDK profile: "+profileList())
	f.StringVar(&cpuName, "cpu", "host", "CPU model: "+strings.Join(cpuCatalog.Names(), ", ")+" (see 'jitsim cpus')")
	f.StringVar(&clock, "clock", "wall", "clock: wall (measured) or model (deterministic cost model)")
	f.StringVar(&profile, "profile", "", "cost profile JSON for the model clock (from 'jitsim calibrate --out'); default: the CPU model's")
	f.IntVar(&threads, "threads", 0, "application threads (0: the scenario's default)")
	return cmd
}

// runOpts are jitsim's own options of `jitsim run`.
type runOpts struct {
	jdk, cpu, clock, profile string
	threads                  int
}

// runVM is `jitsim run` after jitsim's own options are known.
func runVM(a runArgs, o runOpts, getenv func(string) (string, bool), stdout, stderr io.Writer) int {
	jdkName, cpuName, clock, threads := o.jdk, o.cpu, o.clock, o.threads
	rel, err := jdk.Parse(jdkName)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim run: --jdk:", err)
		return 2
	}
	if clock != "wall" && clock != "model" {
		fmt.Fprintf(stderr, "jitsim run: --clock: unknown clock %q (want wall or model)\n", clock)
		return 2
	}
	if o.profile != "" && clock != "model" {
		fmt.Fprintf(stderr, "jitsim run: --profile=%s: a cost profile prices the model clock; add --clock=model\n", o.profile)
		return 2
	}
	cpu, err := cpuCatalog.Lookup(cpuName)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim run: --cpu:", err)
		return 2
	}
	set, res, err := flags.Parse(flags.Options{JDK: rel, Arch: cpu.Arch, Args: a.vm, Getenv: getenv, ReadFile: os.ReadFile})
	for _, s := range res.Stderr {
		io.WriteString(stderr, s)
	}
	if err != nil {
		var fe *flags.Error
		if !errors.As(err, &fe) {
			fmt.Fprintln(stderr, "jitsim run:", err)
			return 1
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
	if set.Bool("PrintFlagsInitial") {
		// HotSpot prints the initial values and exits at once (Arguments::parse).
		set.PrintFlagsInitial(stdout)
		return 0
	}
	if ergonomics != nil {
		if err := ergonomics(set, cpu, stderr); err != nil {
			fmt.Fprintln(stderr, "jitsim run:", err)
			return 1
		}
	}
	switch {
	case set.Has("PrintFlagsRanges") && set.Bool("PrintFlagsRanges"):
		// HotSpot prints the ranges table instead of PrintFlagsFinal's when both are given.
		set.PrintFlagsRanges(stdout)
	case set.Bool("PrintFlagsFinal"):
		set.PrintFlagsFinal(stdout)
	}
	if set.Bool("PrintCommandLineFlags") {
		set.PrintCommandLineFlags(stdout)
	}
	if res.Version {
		printBanner(stderr, rel, cpu, res.Mode)
		return 0
	}
	if a.scenario == "" {
		fmt.Fprintln(stderr, "jitsim run: no scenario given; name one from 'jitsim scenarios', give a scenario file, or use -version")
		return 1
	}
	rc := RunContext{Flags: set, Result: res, CPU: cpu, Clock: clock, ProfileFile: o.profile, Threads: threads, VMArgs: a.vm, Stdout: stdout, Stderr: stderr}
	if isScenario(a.scenario) {
		return scenarioCatalog.Run(rc, a.scenario, false, a.rest)
	}
	if st, err := os.Stat(a.scenario); err == nil && !st.IsDir() {
		return scenarioCatalog.Run(rc, a.scenario, true, a.rest)
	}
	fmt.Fprintf(stderr, "jitsim run: %q is neither a jitsim scenario nor a scenario file; jitsim runs its own scenarios (see 'jitsim scenarios'), not Java programs\n", a.scenario)
	return 1
}

func isScenario(name string) bool {
	for _, n := range scenarioCatalog.Names() {
		if n == name {
			return true
		}
	}
	return false
}

// printBanner prints java -version's three lines in jitsim's words (to stderr, as java does).
func printBanner(w io.Writer, rel jdk.Release, cpu CPUModel, mode flags.Mode) {
	fmt.Fprintf(w, "jitsim version \"%s\" (JDK %s profile)\n", Version, rel)
	fmt.Fprintf(w, "jitsim Runtime Environment (models OpenJDK %s; CPU model %s: %s)\n", rel, cpu.Name, cpu.Description)
	fmt.Fprintf(w, "jitsim 64-Bit Server VM model (JDK %s profile, %s, %s)\n", rel, cpu.Arch, mode)
}
