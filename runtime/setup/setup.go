// Package setup resolves a run's configuration once, in one place, for every command and
// scenario file that makes a VM. Given a release, a CPU model, java's VM options, a clock and
// a cost profile, which flags does the run have after ergonomics, what does java print while
// it starts, what does the model clock price with, and what jrt.Config does every VM of the
// run start from? Resolve answers all of it in one pass — parse (flags), ergonomics against
// the CPU model (runtime/ergo), the cost profile (runtime/model) — and the Run it returns is
// handed down to whatever makes the VMs. See RATIONALE.md, "Why is a run's configuration
// resolved in one package above runtime?".
package setup

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// The clocks a run can be timed on (design.md §1).
const (
	// ClockWall measures this host's real time.
	ClockWall = "wall"
	// ClockModel is the deterministic virtual time of a CPU model's cost profile.
	ClockModel = "model"
)

// Request is what a run's configuration is resolved from: what a command line or a scenario
// file's variant says.
type Request struct {
	// JDK is the release (--jdk).
	JDK jdk.Release
	// CPU is the CPU model (--cpu, looked up by the caller); its architecture decides which
	// flags exist, its features and Cores what the ergonomics settle.
	CPU cpu.Model
	// Options are the VM options as written, -D properties included (flags.Parse).
	Options []string
	// Getenv looks up JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS; nil: none is set.
	Getenv func(string) (string, bool)
	// ReadFile reads @argfiles, -XX:Flags= and -XX:VMOptionsFile= files; nil: the file system,
	// at most flags.MaxOptionsFile bytes of a file.
	ReadFile func(string) ([]byte, error)
	// Clock is ClockWall ("" is the same) or ClockModel.
	Clock string
	// ProfileFile, on the model clock, names a cost profile file (what `jitsim calibrate
	// --out` writes) that replaces the CPU model's own; "" keeps it.
	ProfileFile string
	// ForceProfile uses a profile measured on a real JVM even when its release or CPU
	// features are not the run's (model.Profile.Fits).
	ForceProfile bool
	// HostProfiles, when set, is the directory of calibrated profiles of this host
	// (HostProfileDir): with the CPU model "host" on the model clock and no ProfileFile, the
	// run uses the calibrated profile of its release there, if one exists.
	HostProfiles string
	// Threads is the number of application threads (0: the scenario's default).
	Threads int
	// Tiers are the execution tiers of every VM of the run (tiers.Default()).
	Tiers []jrt.Tier
	// NewClock makes the wall clock of each VM; nil: jrt.WallClock.
	NewClock func() jrt.Clock
}

// Run is a resolved configuration: the request and everything that follows from it.
type Run struct {
	Request
	// Flags are the parsed VM options, nil when parsing failed; Settled says whether the
	// ergonomics have settled them.
	Flags *flags.Set
	// Result is what parsing found besides flag values: -D properties, -Xmx, -version, and
	// the lines java prints to stderr while parsing (Result.Stderr, each ending in a newline).
	Result *flags.Result
	// Settled reports that the ergonomics ran: Flags hold the values the VM starts with.
	Settled bool
	// Warnings are the lines the ergonomics print to stderr (HotSpot's warnings and range
	// notices), without newlines.
	Warnings []string
	// CommandLineFlags are the flags as java holds them when it prints
	// -XX:+PrintCommandLineFlags (ergo.SettleStderr); nil when not settled.
	CommandLineFlags *flags.Set
	// StartLog are the VM's start-up log lines (ergo.StartLog: the collector's, the compiler
	// threads'), for the outputs that take them (jrt.StartupLog).
	StartLog []flags.LogLine
	// ExitLog are the collector's lines as the VM exits (ergo.ExitLog: G1's heap summary).
	ExitLog []flags.LogLine
	// MaxMemory is the heap's maximum as the running VM reports it (ergo.MaxMemory), which
	// -XshowSettings:vm shows as the estimated maximum heap size.
	MaxMemory uint64
	// ConstraintFailure is the flag constraint the settled flags break, which java prints
	// after -XX:+PrintCommandLineFlags and stops on (ergo.ConstraintFailure); "" when none.
	ConstraintFailure string
	// InitFailure is the text the VM stops with after its start-up log lines, when the
	// settled heap cannot start it (ergo.StartupFailure); "" when it starts.
	InitFailure string
	// CollectorFailure reports that the VM stops after its start-up log lines with the
	// launcher's lines alone (ergo.CollectorFailure).
	CollectorFailure bool
	// Profile is the model clock's cost profile; nil on the wall clock.
	Profile *model.Profile
	// CachedProfile names the file of this host's calibrated profile when the run uses it
	// (Request.HostProfiles), so that the caller can say so.
	CachedProfile string
}

// Resolve resolves a run's configuration: it parses the VM options for the release on the
// CPU model's architecture, settles them with the ergonomics against the CPU model (its Cores
// as the active processor count), and on the model clock loads the cost profile
// (CostProfile). Each step runs only after the one before it succeeded; on an error the Run
// holds what the earlier steps resolved — the parse's Stderr lines for a bad option (a
// *flags.Error), the settled flags for a bad profile — so that a caller prints what java
// prints before it stops. Whether the CPU model can run code on this host is Runnable's
// question, asked by callers that run code (a -version run and `jitsim explain` run none).
func Resolve(q Request) (*Run, error) {
	r := &Run{Request: q}
	switch r.Clock {
	case "":
		r.Clock = ClockWall
	case ClockWall, ClockModel:
	default:
		return r, fmt.Errorf("setup: unknown clock %q (want %q or %q)", r.Clock, ClockWall, ClockModel)
	}
	if r.ProfileFile != "" && r.Clock != ClockModel {
		return r, fmt.Errorf("setup: cost profile %s: a cost profile prices the model clock", r.ProfileFile)
	}
	set, res, err := flags.Parse(flags.Options{JDK: q.JDK, Arch: q.CPU.Arch, Args: q.Options, Getenv: q.Getenv, ReadFile: q.ReadFile})
	r.Result = res
	if err != nil {
		settleFailed(r, set, q, err)
		return r, err
	}
	r.Flags = set
	lines, logs, cl, err := ergo.SettleStartup(set, q.CPU, q.CPU.Cores)
	if err != nil {
		return r, err
	}
	r.Result.LogWarnings = append(r.Result.LogWarnings, logs...)
	// A collector the ergonomics chose checks its arguments as one the command line named
	// does in flags.Parse, before -XX:+PrintCommandLineFlags' line.
	for _, failure := range []func(*flags.Set) error{flags.UnselectedCollectorFailure, flags.WorkerThreadsFailure} {
		if err := failure(set); err != nil {
			r.Flags = nil
			return r, err
		}
	}
	r.CommandLineFlags = cl
	if err := flags.CodeHeapFailure(set); err != nil {
		// The code cache is reserved after PrintCommandLineFlags' line and before the
		// collector starts: the ergonomics' lines are logged as for a failure the parser
		// found after the flags settled (settleFailed).
		var fe *flags.Error
		if errors.As(err, &fe) {
			for _, l := range logs {
				if l.Level == "warning" || l.Configured {
					fe.ErgoLog = append(fe.ErgoLog, l)
				}
			}
		}
		r.Flags = nil
		return r, err
	}
	r.StartLog = append(ergo.HeapSizeLog(cl), ergo.StartLog(set, cl, q.CPU, q.CPU.Cores)...)
	r.ExitLog = ergo.ExitLog(set)
	r.MaxMemory = ergo.MaxMemory(set)
	r.ConstraintFailure = ergo.ConstraintFailure(set)
	r.InitFailure = ergo.StartupFailure(set)
	r.CollectorFailure = ergo.CollectorFailure(set)
	r.Settled, r.Warnings = true, lines
	if r.Clock == ClockModel {
		file := q.ProfileFile
		if file == "" && q.CPU.Name == "host" && q.HostProfiles != "" {
			if f := HostProfileFile(q.HostProfiles, q.CPU, q.JDK); fileExists(f) {
				file, r.CachedProfile = f, f
			}
		}
		p, err := CostProfile(q.CPU, q.JDK, file, q.ForceProfile)
		if err != nil {
			return r, err
		}
		r.Profile = &p
	}
	return r, nil
}

// CostProfile returns the model clock's cost profile for CPU model m and release rel: the
// profile in the JSON file file when it is not "" (model.LoadProfiles; its errors read
// FILE:LINE: …), else the CPU model's own (model.Lookup). Of a file with one profile per
// JVM, the one measured with rel; a profile measured on a real JVM must fit rel and m
// (model.Profile.Fits) unless force is set.
func CostProfile(m cpu.Model, rel jdk.Release, file string, force bool) (model.Profile, error) {
	if file == "" {
		return model.LookupRelease(m.Name, rel)
	}
	f, err := os.Open(file)
	if err != nil {
		return model.Profile{}, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	ps, err := model.LoadProfiles(file, f)
	if err != nil {
		return model.Profile{}, err
	}
	p := ps[0]
	if len(ps) > 1 {
		var have []string
		found := false
		for _, q := range ps {
			have = append(have, q.Release)
			if q.Release == rel.String() {
				p, found = q, true
			}
		}
		if !found {
			return model.Profile{}, fmt.Errorf("cost profile %s has profiles for JDK %s, none for JDK %s", file, strings.Join(have, ", "), rel)
		}
	}
	if err := p.Fits(rel, m); err != nil && !force {
		return model.Profile{}, fmt.Errorf("cost profile %s does not price this run: %v (--force-profile uses it anyway)", file, err)
	}
	return p, nil
}

// HostProfileDir is where `jitsim calibrate --jvm` keeps this host's calibrated profiles:
// DIR/jitsim/profiles under the user's cache directory (os.UserCacheDir: $XDG_CACHE_HOME or
// ~/.cache on Linux), or "" when there is none.
func HostProfileDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "jitsim", "profiles")
}

// HostProfileFile is the file in dir that holds the calibrated profile of release rel on a
// CPU with m's features: one file per feature set and release, so a machine whose CPU
// changes (a new VM host) does not find the old machine's profile.
func HostProfileFile(dir string, m cpu.Model, rel jdk.Release) string {
	h := fnv.New32a()
	h.Write([]byte(m.Arch.String() + " " + cpu.Normalize(m.Features).String()))
	return filepath.Join(dir, fmt.Sprintf("host-%s-%08x-jdk%s.json", m.Arch, h.Sum32(), rel))
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// HostError is a CPU model that cannot run code on this host's wall clock.
type HostError struct {
	CPU  cpu.Model
	Host jdk.Arch
}

// Error says what cannot run where; the caller adds how to ask for the model clock.
func (e *HostError) Error() string {
	return fmt.Sprintf("a %s CPU model cannot run on the wall clock of this %s host", e.CPU.Arch, e.Host)
}

// Runnable reports whether a run of the CPU model m on clock can execute code on this host:
// the wall clock measures this host's own code, so it runs only a model of the host's
// architecture; the model clock runs any. The error is a *HostError.
func Runnable(m cpu.Model, clock string) error {
	if clock != ClockModel && m.Arch != jdk.HostArch() {
		return &HostError{CPU: m, Host: jdk.HostArch()}
	}
	return nil
}

// errUnsettled is a Run used before Resolve settled it.
var errUnsettled = errors.New("BUG: setup: a VM configuration of a run whose flags are not settled")

// Config returns the configuration of one VM of the run: the release, the settled flags, the
// CPU model and its Cores, the Java heap from -Xmx, the tiers, clock (on the model clock the
// VM's scheduler keeps time instead) and out for the diagnostic output (PrintCompilation and
// the other -XX:+Print… flags). It panics on a Run that Resolve did not finish.
func (r *Run) Config(clock jrt.Clock, out io.Writer) jrt.Config {
	if !r.Settled || r.Clock == ClockModel && r.Profile == nil {
		panic(errUnsettled)
	}
	cfg := jrt.NewConfig().WithJDK(r.JDK).WithSettledFlags(r.Flags).WithCPU(r.CPU).WithMaxHeapSize(r.Result.MaxHeapSize).
		WithActiveProcessors(r.CPU.Cores).WithTiers(r.Tiers...).WithClock(clock).WithOutput(out)
	if r.Profile != nil {
		// Every cost from the profile; the bytes are still computed by this host's code,
		// and the flags, stub choices and compiler counts are the modelled CPU's VM's.
		cfg = cfg.WithModel(*r.Profile)
	}
	return cfg
}

// NewClock returns a fresh wall clock for one VM of the run (Request.NewClock).
func (r *Run) NewClock() jrt.Clock {
	if r.Request.NewClock != nil {
		return r.Request.NewClock()
	}
	return jrt.WallClock()
}

// NewVM starts a VM of Config(clock, out).
func (r *Run) NewVM(clock jrt.Clock, out io.Writer) (*jrt.VM, error) {
	return jrt.New(r.Config(clock, out))
}

// settleFailed settles the flags of a command line whose start-up failed after java settled
// them (flags.Error's AfterFlags): java printed -XX:+PrintCommandLineFlags' line before the
// failure, so r.CommandLineFlags holds the set it shows; and the collector's constraint
// failures (ergo.ConstraintFailure) join a failure of the flag constraints, and a refusal of
// the collector the ergonomics chose (flags.WorkerThreadsFailure) replaces both. The set is a
// copy: the failed one stays as the parser left it. Settling a set the VM refused is best
// effort: when the ergonomics refuse it too, or stop on a value they do not expect, java's
// failure is reported without the line.
func settleFailed(r *Run, set *flags.Set, q Request, err error) {
	var fe *flags.Error
	if set == nil || !errors.As(err, &fe) || !fe.AfterFlags && !fe.Constraints {
		return
	}
	defer func() {
		if recover() != nil {
			r.CommandLineFlags = nil
		}
	}()
	settled := set.Clone()
	_, logs, cl, serr := ergo.SettleStartup(settled, q.CPU, q.CPU.Cores)
	if serr != nil {
		return
	}
	// The collector the ergonomics chose checks its arguments before the late constraints
	// and the line: its refusal is the failure java reports.
	var wf *flags.Error
	if errors.As(flags.UnselectedCollectorFailure(settled), &wf) || errors.As(flags.WorkerThreadsFailure(settled), &wf) {
		*fe = *wf
		return
	}
	if fe.Constraints {
		if t := ergo.ConstraintFailure(settled); t != "" {
			fe.Text += t + "\n"
		}
	}
	if fe.AtHeap {
		// The collector's lines up to the failure, after PrintCommandLineFlags' line.
		for _, l := range ergo.StartLog(settled, cl, q.CPU, q.CPU.Cores) {
			l.Configured = true
			fe.StartLog = append(fe.StartLog, l)
		}
	}
	if fe.AfterFlags {
		r.CommandLineFlags = cl
		// The ergonomics' lines are logged as on a start that succeeds, before
		// PrintCommandLineFlags' line: the warnings found before the -Xlog options
		// applied with the default configuration, the later lines with the outputs those
		// options configured (Result.Logs; Shenandoah's uncommit line before a mode it
		// refuses, under -Xlog:gc; 17's deduplication warning; 17.0.15, 25.0.3).
		for _, l := range logs {
			if l.Level == "warning" || l.Configured {
				fe.ErgoLog = append(fe.ErgoLog, l)
			}
		}
	}
}
