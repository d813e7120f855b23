package policy

import (
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// What does each JDK release's compilation policy do differently?
//
// One row per release, read by the policy, the thread count and the printers: adding a
// release is adding a row. JDK 8 and 8u are AdvancedThresholdPolicy (tiered) and
// SimpleCompPolicy (non-tiered, server VM) of 8u's sources; 17, 21, 22 and 25 are
// compilationPolicy.cpp. Rows of 17 and 25 are checked against OpenJDK 17.0.15 and Temurin
// 25.0.3 (testdata/jvm); 21 follows its sources where it could not be observed. 22 could not
// be observed either and no policy change between 21 and 22 was established: its row is 21's.
type release struct {
	rel jdk.Release

	// strictThresholds: the call and loop predicates compare counts with ">" (JDK 8,
	// simpleThresholdPolicy.inline.hpp); ">=" since JDK 9.
	strictThresholds bool
	// nonTiered: -XX:-TieredCompilation selects the non-tiered SimpleCompPolicy (JDK 8). From
	// 17 on it means C2 only inside the tiered policy (the high-only emulation, with the
	// intermediate levels disabled).
	nonTiered bool
	// oldCalls and oldBackEdges make a method old (is_old) at fixed counts (JDK 8: 50000 and
	// 500000); zero means TieredOldPercentage of the level-3 thresholds (17+).
	oldCalls, oldBackEdges int64
	// oldIgnoresLoad: call_event ignores the C2 queue's load feedback for old methods (17+).
	oldIgnoresLoad bool
	// wideTrivial: small loop-free methods whose MDO found nothing to profile are trivial
	// too (JDK 8's AdvancedThresholdPolicy::is_trivial).
	wideTrivial bool
	// mdoDelayTier3: the interpreter starts profiling while C2's queue is at most
	// Tier3DelayOn per thread, and old methods wait like the others (JDK 8); from 17 on old
	// methods profile at once and the bound is Tier0Delay.
	mdoDelayTier3 bool
	// osrAnyHigher: a loop event enters OSR code of any level above the caller's (JDK 8);
	// from 17 on only code of the next level expected.
	osrAnyHigher bool
	// cacheScaleByStop: the code-cache factor of threshold_scale applies when
	// TieredStopAtLevel is 4 (JDK 8), not when the configuration is tiered (17+).
	cacheScaleByStop bool

	// The level-2 detour (transition from limited profile).
	//
	// level2ProfiledFirst: a level-2 method whose MDO already passes the level-4 predicate
	// goes to 4 before anything else (8, 17, 21); level2ProfiledLast: only when the way
	// back to 3 was chosen (25, transition_from_limited_profile). level2WaitsForMDO: without
	// an MDO the method stays at 2 (JDK 8); from 17 on it may go back to 3.
	level2ProfiledFirst, level2ProfiledLast, level2WaitsForMDO bool
	// xcompKeepsLevel3: under -Xcomp select_task does not turn a level-3 task of a profiled
	// method into level 2 (17+; JDK 8 does).
	xcompKeepsLevel3 bool
	// dropsDoneLevel2: select_task drops such a task when level-2 code already exists (17+).
	dropsDoneLevel2 bool
	// forceCompileEvent: -Xcomp's compile_if_required prints a force-compile event with
	// counters (25); 8 and 17 print a plain compile event (both measured for 17 and 25).
	forceCompileEvent bool

	// tieredThreads is the tiered compiler thread count for log2(cpus), log2(log2(cpus))
	// and whether one compiler has all threads (CompilationPolicy::initialize; JDK 8:
	// AdvancedThresholdPolicy::initialize). JDK 8's non-tiered count is max(log_cpu − 1, 1).
	tieredThreads func(logCPU, logLogCPU int, single bool) int

	// paddedTimestamp: PrintCompilation's timestamp is "%7d " (8, 17), "%d " from 21 on.
	paddedTimestamp bool
	// notEntrantReason: "made not entrant" is followed by ": reason" (25).
	notEntrantReason bool
	// trainingData: PrintTieredEvents' non-compile events end with " mtd: null" (25, no
	// training data).
	trainingData bool
	// startup are the compiles the JVM makes of its own code before a `java -version`
	// returns, in the default configuration (nil: not recorded); startupInt those under -Xint
	// (the native wrappers it makes without a compiler; an empty list: none).
	startup, startupInt []CompileLine
}

// startup17 and startup25 are what -XX:+PrintCompilation -version printed on OpenJDK
// 17.0.15 and Temurin 25.0.3 (x86_64, 2 CPUs); the times are of one run, and vary.
var (
	startup17 = []CompileLine{
		{Time: 266 * time.Millisecond, ID: 1, OSRBCI: InvocationEntryBCI, Level: 3, Tiered: true, Name: "java.lang.Object::<init>", CodeSize: 1},
	}
	startup25 = []CompileLine{
		{Time: 220 * time.Millisecond, ID: 1, OSRBCI: InvocationEntryBCI, Level: 3, Tiered: true, Name: "java.lang.Object::<init>", CodeSize: 1},
		{Time: 248 * time.Millisecond, ID: 2, OSRBCI: InvocationEntryBCI, Level: 3, Tiered: true, Name: "java.lang.String::hashCode", CodeSize: 60},
		{Time: 257 * time.Millisecond, ID: 3, OSRBCI: InvocationEntryBCI, Native: true, Level: 0, Tiered: true, Name: "jdk.internal.misc.Unsafe::getReferenceVolatile"},
		{Time: 257 * time.Millisecond, ID: 4, OSRBCI: InvocationEntryBCI, Native: true, Level: 0, Tiered: true, Name: "jdk.internal.vm.Continuation::enterSpecial", Message: "(static)"},
		{Time: 257 * time.Millisecond, ID: 5, OSRBCI: InvocationEntryBCI, Native: true, Level: 0, Tiered: true, Name: "jdk.internal.vm.Continuation::doYield", Message: "(static)"},
	}

	// Without a compiler Temurin 25.0.3 still makes the continuations' two native wrappers
	// (-Xint prints them without a tier, -XX:-UseCompiler at tier 0); OpenJDK 17.0.15 makes
	// none.
	startupInt25 = []CompileLine{
		{Time: 152 * time.Millisecond, ID: 1, OSRBCI: InvocationEntryBCI, Native: true, Level: 0, Name: "jdk.internal.vm.Continuation::enterSpecial", Message: "(static)"},
		{Time: 152 * time.Millisecond, ID: 2, OSRBCI: InvocationEntryBCI, Native: true, Level: 0, Name: "jdk.internal.vm.Continuation::doYield", Message: "(static)"},
	}
)

// StartupCompiles returns the PrintCompilation lines of the JVM's own start-up compiles
// before `java -version` ends, as release rel prints them in the default configuration
// (tiered, both compilers), or nil when they were not recorded (8, 8u, 21, 22).
func StartupCompiles(rel jdk.Release) []string {
	r := releaseOf(rel)
	if r == nil {
		return nil
	}
	return formatStartup(rel, r.startup, true)
}

// StartupCompilesWithoutCompiler is StartupCompiles when no compiler runs (-Xint,
// -XX:-UseCompiler): the native wrappers the JVM still makes, with a tier column when tiered
// compilation stays on; an empty list when it makes none, nil when not recorded.
func StartupCompilesWithoutCompiler(rel jdk.Release, tiered bool) []string {
	r := releaseOf(rel)
	if r == nil || r.startup == nil {
		return nil
	}
	return formatStartup(rel, r.startupInt, tiered)
}

func formatStartup(rel jdk.Release, lines []CompileLine, tiered bool) []string {
	if lines == nil {
		return nil
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		l.Tiered = tiered
		out = append(out, FormatCompilation(rel, l))
	}
	return out
}

// Compiler thread counts (hotspot.md §1.8): JDK 8 tiered max(log_cpu·loglog_cpu, 1)·3/2;
// from 17 on max(log_cpu·loglog_cpu·3/2, min) with min = 2 in 17, and 1 for a single compiler
// from 21 on (checked: JDK 25 prints CICompilerCount=1 for -XX:-TieredCompilation on 2 CPUs,
// JDK 17 prints 2).
func threads8(logCPU, logLogCPU int, _ bool) int  { return max(logCPU*logLogCPU, 1) * 3 / 2 }
func threads17(logCPU, logLogCPU int, _ bool) int { return max(logCPU*logLogCPU*3/2, 2) }
func threads21(logCPU, logLogCPU int, single bool) int {
	if single {
		return max(logCPU*logLogCPU*3/2, 1)
	}
	return threads17(logCPU, logLogCPU, single)
}

// jdk8 is the row of JDK 8 and 8u.
func jdk8(rel jdk.Release) release {
	return release{rel: rel, strictThresholds: true, nonTiered: true, oldCalls: 50000, oldBackEdges: 500000,
		wideTrivial: true, mdoDelayTier3: true, osrAnyHigher: true, cacheScaleByStop: true,
		level2ProfiledFirst: true, level2WaitsForMDO: true, tieredThreads: threads8, paddedTimestamp: true}
}

// releases is the one table of per-release policy behaviour.
var releases = []release{
	jdk8(jdk.R8),
	jdk8(jdk.R8u),
	{rel: jdk.R17, oldIgnoresLoad: true, level2ProfiledFirst: true, xcompKeepsLevel3: true, dropsDoneLevel2: true,
		tieredThreads: threads17, paddedTimestamp: true, startup: startup17, startupInt: []CompileLine{}},
	{rel: jdk.R21, oldIgnoresLoad: true, level2ProfiledFirst: true, xcompKeepsLevel3: true, dropsDoneLevel2: true,
		tieredThreads: threads21},
	{rel: jdk.R22, oldIgnoresLoad: true, level2ProfiledFirst: true, xcompKeepsLevel3: true, dropsDoneLevel2: true,
		tieredThreads: threads21},
	{rel: jdk.R25, oldIgnoresLoad: true, level2ProfiledLast: true, xcompKeepsLevel3: true, dropsDoneLevel2: true,
		forceCompileEvent: true, tieredThreads: threads21, notEntrantReason: true, trainingData: true, startup: startup25, startupInt: startupInt25},
}

// releaseOf returns the row of rel, or nil when there is none.
func releaseOf(rel jdk.Release) *release {
	for i := range releases {
		if releases[i].rel == rel {
			return &releases[i]
		}
	}
	return nil
}

// printRow returns the row the printers use for rel; a value that is not a release prints
// as the newest.
func printRow(rel jdk.Release) *release {
	if r := releaseOf(rel); r != nil {
		return r
	}
	return &releases[len(releases)-1]
}
