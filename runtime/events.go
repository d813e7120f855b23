package runtime

import (
	"time"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/policy"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// How does what happens in the VM reach its outputs? The code where a
// thing happens builds one event and hands it to [VM.emit], the only way an
// event leaves the VM. Emit feeds every sink: the printer (HotSpot's
// PrintCompilation, PrintIntrinsics, PrintInlining, PrintTieredEvents and
// LogCompilation, print.go), the zap log (style.md habit 10: Info for tier
// transitions, Debug for routing decisions, Warn for downgrades, with the
// fixed keys method, level, intrinsic, impl and flag) and the subscribers
// of [VM.Subscribe] (observe.go). What each sink makes of an event is one
// row of eventKinds.

// eventKind is what an event is about: its row of eventKinds.
type eventKind uint8

const (
	evQueued      eventKind = iota + 1 // the policy created a compile task
	evStarted                          // a compiler thread took a task
	evFailed                           // a started compile failed (COMPILE SKIPPED)
	evPanicked                         // a compile panicked: a jitsim bug
	evInstalled                        // a compile's code was installed
	evNotEntrant                       // an install retired older code
	evRoute                            // the routing decision for calls from one level, made at start-up
	evGenericTwin                      // a chosen stub variant the host cannot run runs as its generic twin
	evBound                            // C2 bound a call site to a stub
	evFirstStub                        // the first call from one level that ran a stub
	evInlining                         // the inlining tree of new code
	evTiered                           // a tier-policy event
	evNoHeap                           // the VM runs without a Java heap
	evVMStarted                        // the VM is up
	evExcluded                         // a compile command refused a compile request
	numEventKinds
)

// event is one thing that happened in the VM. Which fields are set depends
// on the kind; each is read by the rows of the kinds named beside it.
type event struct {
	kind eventKind
	at   time.Duration // when, on the VM's clock
	st   *methodState  // the method it is about

	task   *policy.Task      // queued, started, failed, panicked, installed, not-entrant
	ci     *codeInfo         // installed: the new code
	start  time.Duration     // installed: when its compile started
	ne     policy.NotEntrant // not-entrant: the retired code and why
	err    error             // failed, no-heap: why
	panic  any               // panicked: the panic's value
	thread compilerThread    // failed, panicked, installed, not-entrant: the compiler thread

	level Level     // route, generic-twin, first-stub: the calling code's level
	d     *Decision // route, generic-twin, bound, first-stub
	site  Site      // bound: the call site
	note  string    // first-stub: the intrinsic flags that are off and do not gate this stub

	inlining []inlineLine        // inlining, installed (LogCompilation only): the tree's lines
	tiered   *policy.TieredEvent // tiered

	rel     jdk.Release // vm-started: the JDK profile
	cpu     string      // vm-started: the CPU model
	threads [2]int      // vm-started: the C1 and C2 compiler threads
}

// eventLog names the logger of an event kind's zap entry.
type eventLog uint8

const (
	logVM       eventLog = iota // the VM's logger
	logRoute                    // its "route" child: routing decisions
	logCompiler                 // the compiler thread's (compilerThread.logger)
)

// eventKinds says, per kind, what each sink makes of an event.
var eventKinds = [numEventKinds]struct {
	// print writes its HotSpot output, each line under the flag that asks
	// for it (nil: none).
	print func(p *printer, e *event)
	// log, level, msg and fields are its zap entry (nil fields: none).
	log    eventLog
	level  zapcore.Level
	msg    string
	fields func(e *event) []zap.Field
	// observe is what subscribers receive (nil: nothing).
	observe func(e *event) Event
}{
	evQueued: {
		print: (*printer).queued,
		level: zapcore.DebugLevel, msg: "compile queued", fields: func(e *event) []zap.Field {
			t := e.task
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
				zap.Int("osr_bci", t.BCI), zap.Bool("blocking", t.Blocking)}
		},
		observe: func(e *event) Event { return taskEvent(EventQueued, e) },
	},
	evStarted: {
		print: (*printer).task,
		level: zapcore.DebugLevel, msg: "compile started", fields: func(e *event) []zap.Field {
			t := e.task
			return []zap.Field{zap.String("method", t.Method.PrintName()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
				zap.Duration("queued", e.at-t.Enqueued)}
		},
		observe: func(e *event) Event { return taskEvent(EventStarted, e) },
	},
	evFailed: {
		print: (*printer).skipped,
		log:   logCompiler, level: zapcore.WarnLevel, msg: "compile failed", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(e.task.Level)), zap.Error(e.err)}
		},
	},
	evPanicked: {
		log: logCompiler, level: zapcore.ErrorLevel, msg: "compiler thread panicked", fields: func(e *event) []zap.Field {
			// The stack starts where the VM recovered the panic: skip
			// this function, logSink.event and VM.emit.
			return []zap.Field{zap.String("method", e.task.Method.PrintName()), zap.Int("level", int(e.task.Level)),
				zap.Any("panic", e.panic), zap.StackSkip("stack", 3)}
		},
	},
	evInstalled: {
		print: (*printer).installed,
		level: zapcore.InfoLevel, msg: "tier transition", fields: func(e *event) []zap.Field {
			t := e.task
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(t.Level)), zap.Int("compile_id", t.ID),
				zap.Bool("osr", t.IsOSR()), zap.Duration("compile_time", e.ci.code.CompileTime())}
		},
		observe: func(e *event) Event {
			if e.task.IsOSR() {
				return taskEvent(EventOSR, e)
			}
			return taskEvent(EventInstalled, e)
		},
	},
	evExcluded: {
		print: (*printer).excluded,
		level: zapcore.InfoLevel, msg: "compile excluded by CompileCommand", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(e.level))}
		},
	},
	evNotEntrant: {
		print: (*printer).notEntrant,
		level: zapcore.InfoLevel, msg: "made not entrant", fields: func(e *event) []zap.Field {
			c := e.ne.Code
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(c.Level)), zap.Int("compile_id", c.ID),
				zap.String("reason", e.ne.Reason)}
		},
		observe: func(e *event) Event {
			c := e.ne.Code
			return Event{Kind: EventNotEntrant, Method: c.Method.PrintName(), Level: Level(c.Level), At: e.at, CompileID: c.ID,
				BCI: c.BCI, Detail: e.ne.Reason}
		},
	},
	evRoute: {
		log: logRoute, level: zapcore.DebugLevel, msg: "route", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(e.level)), zap.String("intrinsic", e.st.intr.String()),
				zap.String("impl", implName(*e.d)), zap.String("flag", e.d.Flag), zap.String("reason", e.d.Reason)}
		},
	},
	evGenericTwin: {
		log: logRoute, level: zapcore.WarnLevel, msg: "stub variant not runnable on this host, running its generic twin",
		fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("intrinsic", e.st.intr.String()), zap.String("impl", e.d.Impl.Name), zap.String("method", e.d.Variant.Name)}
		},
	},
	evBound: {
		print: (*printer).intrinsicSite,
		level: zapcore.DebugLevel, msg: "call site bound to stub", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("method", e.st.m.String()), zap.Int("level", int(e.site.Level)), zap.String("intrinsic", e.d.Intrinsic.String()),
				zap.String("impl", implName(*e.d)), zap.Stringer("caller", e.site.Caller)}
		},
	},
	evFirstStub: {
		observe: func(e *event) Event {
			return Event{Kind: EventFirstStub, Method: e.st.m.Class + "::" + e.st.m.Name, Level: e.level, At: e.at,
				BCI: policy.InvocationEntryBCI, Detail: implName(*e.d) + e.note}
		},
	},
	evInlining: {print: (*printer).inliningTree},
	evTiered:   {print: (*printer).tieredEvent},
	evNoHeap: {
		level: zapcore.DebugLevel, msg: "no Java heap: arrays are copied into every call", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.Error(e.err)}
		},
	},
	evVMStarted: {
		level: zapcore.InfoLevel, msg: "vm started", fields: func(e *event) []zap.Field {
			return []zap.Field{zap.String("jdk", e.rel.String()), zap.String("cpu", e.cpu),
				zap.Int("c1_threads", e.threads[0]), zap.Int("c2_threads", e.threads[1])}
		},
	},
}

// sink is one destination of the VM's events.
type sink interface{ event(e *event) }

// emit hands e to every sink (VM.sinks: the printer, the zap log, the
// subscribers): the one place an event leaves the VM.
func (vm *VM) emit(e *event) {
	for _, s := range vm.sinks {
		s.event(e)
	}
}

// logSink writes events to the VM's zap logger.
type logSink struct {
	vm, route *zap.Logger
}

func newLogSink(l *zap.Logger) *logSink { return &logSink{vm: l, route: l.Named("route")} }

// event writes e's zap entry, if its kind has one.
func (s *logSink) event(e *event) {
	k := &eventKinds[e.kind]
	if k.fields == nil {
		return
	}
	l := s.vm
	switch k.log {
	case logRoute:
		l = s.route
	case logCompiler:
		l = e.thread.logger(s.vm)
	}
	if ce := l.Check(k.level, k.msg); ce != nil {
		ce.Write(k.fields(e)...)
	}
}

// compilerThread is the compiler thread an event happened on: one of the
// compiler's goroutines on the wall clock (idx its index), its simulated
// pool on the model clock (idx -1).
type compilerThread struct {
	kind policy.Compiler
	idx  int
}

// logger returns the thread's logger: the compiler's child of root, with the
// thread's index when it has one.
func (th compilerThread) logger(root *zap.Logger) *zap.Logger {
	l := root.Named(th.kind.String())
	if th.idx >= 0 {
		l = l.With(zap.Int("thread", th.idx))
	}
	return l
}
