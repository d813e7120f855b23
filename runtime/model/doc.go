// Package model is jitsim's model clock: per-CPU cost profiles (what each
// primitive costs, every number with its source), a deterministic
// discrete-event [Scheduler] that advances application and compiler
// threads in virtual time, and [Calibrate], which measures the host's
// primitives and returns a [Profile].
//
// The model clock replaces measured time (design.md §1, §3 step 6): every
// executed piece of code — interpreted, C1 with or without profiling, C2,
// each stub variant, each call and dispatch — advances the calling
// thread's virtual time by what the CPU profile says, and each compile
// occupies a simulated compiler thread for its bytecode size times the
// compiler's per-byte cost. Costs are integer picoseconds and the
// scheduler orders events by (virtual time, sequence number), so the same
// inputs give byte-identical results on every run and every machine,
// whatever the goroutine scheduling.
//
// Where each number comes from is written beside it (Row.Source) and
// collected in docs/model.md. No number is tuned to a seed.
//
// The package imports only the standard library and stubs/cpu; package
// runtime imports it, never the other way round.
package model
