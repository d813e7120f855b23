// Package policy is HotSpot's tiered compilation policy as pure,
// deterministic logic: which method to compile, at which level, and when.
// It models CompilationPolicy (compilationPolicy.cpp, JDK 17 and 25), the
// JDK 8 AdvancedThresholdPolicy (strict ">" comparisons) and the JDK 8
// non-tiered SimpleCompPolicy, with CompileBroker's two compile queues.
// Every function cites the HotSpot function it follows; the formulas are
// written out in the doc comments.
//
// What differs between releases is one row per release (release.go).
//
// The package imports only the standard library, jdk and flags. It starts
// no goroutine and reads no clock: every call takes now, the time since VM
// start, from the caller's clock, so the same code serves a wall clock and
// the deterministic model clock.
//
// # How the VM drives it
//
//  1. Build the Config with FromFlags from a flag set flags.Parse and
//     runtime/ergo settled (every start-up rule between flags is flags';
//     the policy only reads the result), size the compiler pools with
//     CompilerCounts, and call New.
//  2. One NewMethod per Java method.
//  3. On every invocation call Invoke(m, level, now) and on every taken
//     back-edge Backedge(m, level, bci, now), with the level of the code
//     doing the counting (0 in the interpreter, the OSR code's level inside
//     OSR code). Both are a lock-free atomic increment except at HotSpot's
//     notification points (every 2^Tier0InvokeNotifyFreqLog = 128
//     interpreted calls by default, etc.), where the transition functions
//     run. Back-edges counted in a batch (a loop's, after its call
//     returns) go to Backedges, one atomic add per notification point. A VM
//     that keeps its own counters can instead test NotifyMask and call
//     OnCall / OnBackedge itself.
//  4. A Decision may carry a new Task (wait for it if Task.Blocking) and,
//     for back-edges, OSR code to enter. From the interpreter, jump into
//     it; from C1 code HotSpot deoptimizes the frame to the interpreter,
//     which enters the OSR code at its next notification.
//  5. Compiler threads call Next(C1 or C2, now), compile, and report with
//     Installed (which returns the code made not entrant) or Failed.
//     Uncommon traps call Deoptimize and, when the trap asks for it,
//     Reprofile.
//  6. TaskLine, NotEntrantLine, FormatCompilation and FormatTieredEvent
//     produce -XX:+PrintCompilation and -XX:+PrintTieredEvents text in the
//     chosen release's layout; SetTrace delivers the tiered events.
//
// # Concurrency
//
// A Policy is safe for use by many application and compiler goroutines.
// Counters are atomics; everything else sits behind one mutex per Policy
// (see Policy). Task fields are stable once Next has handed the task out.
//
// # Verification
//
// testdata/jvm holds what JDK 17.0.15 and Temurin 25.0.3 printed with
// PrintCompilation and PrintTieredEvents for small Java programs (jvmharness);
// the tests replay the same call sequence through the policy and compare
// the transcripts line by line (no JVM needed). FuzzPolicy checks the
// bookkeeping under random event sequences.
package policy
