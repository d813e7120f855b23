// Package scenario holds jitsim's workloads: Java programs and benchmarks
// the VM runs as `java` would run a main class — TestAESMain of JDK-7184394
// with its -D properties, the JDK's AESGCMBench micro-benchmark, Haley's
// AESGCMUpdateAAD (GMAC over 1 MiB of AAD), the multi-threaded CBC
// throughput run of the JDK-7184394 review, and a Parquet-like
// many-small-pages decrypt that never warms up — and the scenario files in
// examples/ that name a scenario, its properties, the option sets to
// compare and the published numbers beside them.
//
// A scenario does what its Java program does through the provider layer of
// the runtime (jce.NewCipher, Update, UpdateAAD, DoFinal), so every cipher
// call is counted, compiled and routed to intrinsics by the VM. Time comes
// from a jrt.Clock (never time.Now). With checkOutput=true every output is
// also checked byte for byte against Go's crypto/aes and crypto/cipher,
// which serve only as that oracle.
//
// Tests run every scenario on the real tiers (tiers.Default()) for JDK 8u,
// 17 and 25 with small counts. JITSIM_LONG=1 also runs the jtreg matrix of
// TestAESMain with 3000 iterations per setting, so that C2 code and the
// intrinsic stubs take over mid-run and their bytes are checked too.
package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jce"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Scenario is one runnable workload: a name as `jitsim run` takes it, a
// one-line description, its -D properties with their defaults, and its
// positional arguments.
type Scenario struct {
	Name  string
	Doc   string
	Props []Property
	// Args documents the positional arguments, e.g.
	// "[iterations=100000] [warmupIterations=20000]".
	Args string
	// BytesProp names the property that is the payload bytes of one operation, for a
	// benchmark whose twin runs on a real JVM (its default is the property's).
	BytesProp string

	run func(ctx context.Context, r *runner) error
	// benchName, when set, is BenchmarkMethod's answer.
	benchName string
	// workload is the workload file the scenario runs, when it is one.
	workload *Workload
	// shipped is the workload file a built-in scenario runs with its properties applied,
	// when it runs one (AESGCMBench's aesgcmbench.toml, …).
	shipped func() *Workload
}

// Workload returns the workload file s runs, or nil when s is not one.
func (s Scenario) Workload() *Workload { return s.workload }

// SizeProperties are the -D properties of the catalog's scenarios that size a buffer each
// application thread allocates: a message, a data block, the AAD, a page.
var SizeProperties = []string{"msgSize", "dataSize", "aadSize", "pageSize"}

// WorkloadFile returns the workload file s runs as written: a workload file's own, or the
// shipped file a built-in scenario runs (its properties at their defaults leave the file as
// it is); nil when s runs no workload file (TestAESMain).
func (s Scenario) WorkloadFile() *Workload {
	if s.workload != nil {
		return s.workload
	}
	if s.shipped == nil {
		return nil
	}
	return s.shipped()
}

// Property is one -D system property a scenario reads.
type Property struct {
	Name    string
	Default string // as the Java code's default; "" when it depends on others (Doc says how)
	Doc     string
}

// Iteration is one timed unit of a scenario's work (one run() of
// TestAESMain, one benchmark iteration, one Parquet page) on the run's
// clock, reported to an [Observer].
type Iteration struct {
	Scenario string
	Phase    string // e.g. "encrypt-warmup", "encrypt", "decrypt", "warmup", "measure", "page"
	Thread   int    // application thread index, 0-based
	Index    int    // 0-based within (Phase, Thread)
	Start    time.Duration
	Duration time.Duration
	Ops      int64 // operations in the iteration (cipher operations)
	Bytes    int64 // payload bytes processed
}

// Observer receives every Iteration of a run, from the application thread
// that did it: implementations must be safe for concurrent use when a
// scenario runs more than one thread.
type Observer interface {
	Iteration(it Iteration)
}

// VMObserver is an Observer that also wants the VM a run's application
// threads call into (to read method levels or explain routing per
// iteration): Run calls VMStarted once, before the first iteration.
type VMObserver interface {
	Observer
	VMStarted(vm *jrt.VM)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Iteration)

// Iteration implements Observer.
func (f ObserverFunc) Iteration(it Iteration) { f(it) }

// Clock kinds a run can use (design.md §1; setup owns them).
const (
	ClockWall  = setup.ClockWall
	ClockModel = setup.ClockModel
)

// ModelConfig returns cfg set up for a ClockModel run on the CPU model
// named cpuName, priced by setup.CostProfile: that CPU's cost profile, or
// the one in the JSON file profileFile when it is not "" (what `jitsim
// calibrate --out` writes; its errors read FILE:LINE: …) for cfg's release.
// Each VM made from the result has a scheduler of its own.
func ModelConfig(cfg jrt.Config, cpuName, profileFile string) (jrt.Config, error) {
	m, err := cpu.Lookup(cpuName)
	if err != nil {
		return cfg, err
	}
	p, err := setup.CostProfile(m, cfg.JDK(), profileFile, false)
	if err != nil {
		return cfg, err
	}
	return cfg.WithModel(p), nil
}

// Env is what a scenario runs on.
type Env struct {
	// VM is the VM the application threads call into. When nil, NewVM is
	// called once for it.
	VM *jrt.VM
	// NewVM makes a fresh VM of the same configuration (forks; the
	// Parquet writer, which must not warm the reader's VM). Optional.
	NewVM func() (*jrt.VM, error)
	// Threads is the number of application threads (--threads); 0 means
	// the scenario's "threads" property or 1. Each thread is its own VM
	// Thread with its own ciphers.
	Threads int
	// Clock is the clock the VM was configured with (jrt.Config.WithClock);
	// nil: a jrt.WallClock started by Run. A model-clock VM brings its own
	// (the VM's virtual time), which replaces this one.
	Clock jrt.Clock
	// ClockKind is ClockWall ("" is the same) or ClockModel. ClockModel
	// needs a VM made with ModelConfig: each application thread is then a
	// simulated thread of the VM's scheduler and every time the scenario
	// prints is virtual time, the same on every run and every machine.
	ClockKind string
	// Observer, when set, receives every Iteration.
	Observer Observer
	// OpTime, when set, receives the time of every single operation of a
	// benchmark scenario's iterations, on the thread that ran it (calls for
	// one thread never overlap): JMH's sample mode. Each operation is then
	// timed on its own, between two clock readings of its own.
	OpTime func(thread int, d time.Duration)
	// CheckOutput forces checkOutput=true (tests set it).
	CheckOutput bool
}

// PropsFrom turns the -D system properties of a command line
// (flags.Result.Properties) into the map Run takes; a later definition of a
// name wins, as in java.
func PropsFrom(ps []flags.Property) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Name] = p.Value
	}
	return m
}

// registry is the one table of scenarios, filled by the files that define
// them.
var registry []Scenario

// register adds s to the registry; called from package-level var
// initialisers only.
func register(s Scenario) Scenario {
	for _, o := range registry {
		if strings.EqualFold(o.Name, s.Name) {
			panic("BUG: scenario " + s.Name + " registered twice")
		}
	}
	s = withCommonProps(s)
	registry = append(registry, s)
	return s
}

// withCommonProps adds the properties every scenario honours, threads and
// checkOutput, unless s declares them itself.
func withCommonProps(s Scenario) Scenario {
	if !slices.ContainsFunc(s.Props, func(p Property) bool { return p.Name == "threads" }) {
		s.Props = append(s.Props, Property{Name: "threads", Default: "1", Doc: "application threads (--threads overrides the default, not an explicit -Dthreads)"})
	}
	if !slices.ContainsFunc(s.Props, func(p Property) bool { return p.Name == "checkOutput" }) {
		s.Props = append(s.Props, Property{Name: "checkOutput", Default: "false", Doc: "check every output against crypto/cipher"})
	}
	return s
}

// List returns every scenario, sorted by name.
func List() []Scenario {
	out := slices.Clone(registry)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the scenario named name (case-sensitive, as a Java main
// class name is).
func Lookup(name string) (Scenario, bool) {
	for _, s := range registry {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// Prop returns the declared property name.
func (s Scenario) Prop(name string) (Property, bool) {
	for _, p := range s.Props {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}

// Run runs the scenario on env with the -D properties props (unknown names
// are ignored, as a Java program ignores system properties it does not
// read) and the positional args, writing the program's output to stdout.
// A bad property or argument value is an error naming it (where Java's
// Integer.getInteger would silently fall back to the default). A Java
// exception the program would die of is returned as the error
// (*jce.JavaException inside).
func (s Scenario) Run(ctx context.Context, env Env, props map[string]string, args []string, stdout io.Writer) error {
	err := s.runEnv(ctx, env, props, args, stdout)
	if err != nil && !strings.HasPrefix(err.Error(), s.Name) {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	return err
}

// runEnv is Run without the scenario name on errors.
func (s Scenario) runEnv(ctx context.Context, env Env, props map[string]string, args []string, stdout io.Writer) error {
	if s.run == nil {
		return fmt.Errorf("scenario: %q is not a registered scenario", s.Name)
	}
	switch env.ClockKind {
	case "", ClockWall, ClockModel:
	default:
		return fmt.Errorf("scenario: unknown clock %q (want %q or %q)", env.ClockKind, ClockWall, ClockModel)
	}
	if stdout == nil {
		stdout = io.Discard
	}
	r := &runner{s: &s, env: env, props: props, args: args, out: &syncWriter{w: stdout}}
	if r.env.Clock == nil {
		r.env.Clock = jrt.WallClock()
	}
	if r.env.VM == nil {
		if r.env.NewVM == nil {
			return errors.New("Env has neither a VM nor a NewVM factory")
		}
		vm, err := r.env.NewVM()
		if err != nil {
			return err
		}
		defer vm.Close()
		r.env.VM = vm
	}
	switch {
	case r.env.VM.ModelClock():
		// The running thread's time (the only thread running is the turn
		// holder), or the latest time reached between threads.
		r.env.Clock = r.env.VM
	case env.ClockKind == ClockModel:
		return errors.New("clock = model, but the VM runs on the wall clock (make its Config with ModelConfig)")
	}
	r.rel = r.env.VM.Flags().JDK()
	if o, ok := r.env.Observer.(VMObserver); ok {
		o.VMStarted(r.env.VM)
	}
	var err error
	if r.threads, err = r.threadCount(); err != nil {
		return err
	}
	if r.check, err = r.boolProp("checkOutput"); err != nil {
		return err
	}
	r.check = r.check || env.CheckOutput
	return s.run(ctx, r)
}

// runner is one run of a scenario: its environment, properties and output.
type runner struct {
	s       *Scenario
	env     Env
	props   map[string]string
	args    []string
	out     *syncWriter
	rel     jdk.Release // the VM's release, the provider's profile
	threads int
	check   bool
}

// syncWriter serialises the output of several application threads, as
// System.out's PrintStream does.
type syncWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// printf writes one formatted piece of output; the first write error is
// kept and reported at the end of the run.
func (w *syncWriter) printf(format string, a ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := fmt.Fprintf(w.w, format, a...); err != nil && w.err == nil {
		w.err = err
	}
}

// prop returns the value of property name: the -D value if given, else the
// declared default.
func (r *runner) prop(name string) (string, bool) {
	if v, ok := r.props[name]; ok {
		return v, true
	}
	p, ok := r.s.Prop(name)
	if !ok {
		panic("BUG: scenario " + r.s.Name + " reads undeclared property " + name)
	}
	return p.Default, false
}

// intProp is Integer.getInteger(name, default): a value Integer.decode cannot
// read as an int (empty, malformed, out of range) gives the default, as in
// Java; TestAESMain's jtreg runs pass -DencOutputOffset= (empty) for 0.
func (r *runner) intProp(name string) (int, error) {
	v, _ := r.prop(name)
	if n, ok := javaDecode(v, 32); ok {
		return int(n), nil
	}
	p, _ := r.s.Prop(name)
	n, ok := javaDecode(p.Default, 32)
	if !ok {
		panic("BUG: scenario " + r.s.Name + " property " + name + " has no int default")
	}
	return int(n), nil
}

// minIntProp is intProp for values that must be at least min (below it the
// Java program would throw; jitsim says which property is wrong instead).
func (r *runner) minIntProp(name string, min int) (int, error) {
	n, err := r.intProp(name)
	if err == nil && n < min {
		err = fmt.Errorf("property %s=%d must be at least %d", name, n, min)
	}
	return n, err
}

// boolProp is Boolean.getBoolean(name): true exactly when the value is
// "true" in any case; anything else is false.
func (r *runner) boolProp(name string) (bool, error) {
	v, _ := r.prop(name)
	return strings.EqualFold(v, "true"), nil
}

// javaDecode is Integer.decode (bits 32) or Long.decode (bits 64): an
// optional sign, then 0x, 0X or # for hexadecimal, a leading 0 for octal,
// else decimal; no blanks, no second sign, and the value must fit.
func javaDecode(s string, bits int) (int64, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "#"):
		base, s = 16, s[1:]
	case strings.HasPrefix(s, "0") && len(s) > 1:
		base, s = 8, s[1:]
	}
	if s == "" || s[0] == '-' || s[0] == '+' {
		return 0, false
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false
	}
	limit := uint64(1) << (bits - 1) // |MIN_VALUE|
	if u > limit || !neg && u == limit {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// UnreadProperty reports whether the -D property name is one the scenario
// does not read and that is not in a standard namespace (java.*, jdk.*,
// sun.*, user.*, file.*, os.*, line.*, javax.*), with the declared
// property it most likely means ("" when none is close).
func (s Scenario) UnreadProperty(name string) (unread bool, suggestion string) {
	if _, ok := s.Prop(name); ok {
		return false, ""
	}
	for _, ns := range []string{"java.", "jdk.", "sun.", "user.", "file.", "os.", "line.", "javax."} {
		if strings.HasPrefix(name, ns) {
			return false, ""
		}
	}
	best := 3 // at most two edits away, or the same name in another case
	for _, p := range s.Props {
		if strings.EqualFold(p.Name, name) {
			return true, p.Name
		}
		if d := editDistance(strings.ToLower(p.Name), strings.ToLower(name)); d < best {
			best, suggestion = d, p.Name
		}
	}
	return true, suggestion
}

// editDistance is the Levenshtein distance of two short names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// threadCount is -Dthreads when given, else Env.Threads, else the default.
func (r *runner) threadCount() (int, error) {
	if _, set := r.props["threads"]; !set && r.env.Threads > 0 {
		return r.env.Threads, nil
	}
	if r.env.Threads < 0 {
		return 0, fmt.Errorf("--threads=%d must be at least 1", r.env.Threads)
	}
	n, err := r.minIntProp("threads", 1)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// intArgs parses the positional arguments as Java's Integer.valueOf would
// (an error names the argument), with defaults for missing ones. names and
// defaults give the arguments in order.
func (r *runner) intArgs(names []string, defaults []int) ([]int, error) {
	if len(r.args) > len(names) {
		return nil, fmt.Errorf("too many arguments %q (usage: %s %s)", r.args[len(names):], r.s.Name, r.s.Args)
	}
	out := slices.Clone(defaults)
	for i, a := range r.args {
		n, err := strconv.ParseInt(a, 10, 32)
		if err != nil {
			return nil, fmt.Errorf("argument %s=%q is not an int (usage: %s %s)", names[i], a, r.s.Name, r.s.Args)
		}
		if n < 0 {
			return nil, fmt.Errorf("argument %s=%d must not be negative", names[i], n)
		}
		out[i] = int(n)
	}
	return out, nil
}

// now reads the run's clock.
func (r *runner) now() time.Duration { return r.env.Clock.Now() }

// observe hands an iteration to the observer, if any.
func (r *runner) observe(it Iteration) {
	if r.env.Observer != nil {
		it.Scenario = r.s.Name
		r.env.Observer.Iteration(it)
	}
}

// threadInvoker calls into the VM as one application thread: the provider
// layer's Invoker for that thread's ciphers.
type threadInvoker = jrt.ThreadInvoker

// inHeap returns b copied into the Java heap of inv's VM — the program's
// data as a Java array, which cipher calls pass in place — or b itself
// when there is no heap or it is full. The copy lives as long as the VM
// (one run).
func inHeap(inv jce.Invoker, b []byte) []byte {
	hp := jce.HeapOf(inv)
	if hp == nil || len(b) == 0 {
		return b
	}
	h, err := hp.Alloc(len(b))
	if err != nil {
		return b
	}
	copy(h, b)
	return h
}

// parallel runs body on r.threads application threads of vm ("main" for
// the first, as java's main thread; "Thread-N" for the others) and returns
// the first error; a failing thread cancels the others.
func (r *runner) parallel(ctx context.Context, vm *jrt.VM, body func(ctx context.Context, id int, inv jce.Invoker) error) error {
	return r.parallelN(ctx, vm, r.threads, body)
}

// parallelN is parallel on n threads.
func (r *runner) parallelN(ctx context.Context, vm *jrt.VM, n int, body func(ctx context.Context, id int, inv jce.Invoker) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	body = recoverThreads(body) // a panicking thread fails like an erring one (op.go)
	errs := make([]error, n)
	var wg sync.WaitGroup
	// Every thread exists before any starts: on the model clock a thread
	// begins at the virtual time of its creation, which a running thread
	// would move.
	invs := make([]threadInvoker, n)
	for i := range invs {
		name := "main"
		if i > 0 {
			name = ""
		}
		invs[i] = threadInvoker{VM: vm, Thread: vm.NewThread(name)}
	}
	for i, inv := range invs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// On the model clock the thread takes turns with the others in
			// virtual-time order from here to Exit (no-ops on the wall clock).
			inv.Thread.Enter()
			defer inv.Thread.Exit()
			if err := body(ctx, i, inv); err != nil {
				errs[i] = err
				cancel()
			}
		}()
	}
	wg.Wait()
	rethrowThreadPanic(errs)
	var canceled error
	for _, err := range errs {
		switch {
		case err == nil:
		case !errors.Is(err, context.Canceled):
			return err
		case canceled == nil:
			canceled = err
		}
	}
	if canceled != nil {
		return canceled
	}
	return r.out.err
}

// barrier is a start line for application threads (JMH starts every
// thread's measurement together): wait returns once every one of n
// threads has arrived (or left, having failed before it). On the model
// clock a waiting thread parks, so the others can run to the line, and
// the last to arrive releases the rest at its own virtual time.
type barrier struct {
	mu      sync.Mutex
	left    int
	parked  []*jrt.Thread
	release chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{left: n, release: make(chan struct{})} }

// threadOf returns the VM thread behind an application thread's invoker.
func threadOf(inv jce.Invoker) *jrt.Thread {
	if t, ok := inv.(threadInvoker); ok {
		return t.Thread
	}
	return nil
}

// arrive counts th in; the last arrival releases everyone. It reports
// whether th was the last.
func (b *barrier) arrive(th *jrt.Thread) bool {
	b.left--
	if b.left > 0 {
		return false
	}
	for _, p := range b.parked {
		th.Unpark(p)
	}
	b.parked = nil
	close(b.release)
	return true
}

// leave counts a thread that will not wait (it failed before the line).
func (b *barrier) leave(inv jce.Invoker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.arrive(threadOf(inv))
}

// wait blocks the thread of inv at the line until all have arrived or ctx
// ends.
func (b *barrier) wait(ctx context.Context, inv jce.Invoker) error {
	th := threadOf(inv)
	b.mu.Lock()
	if b.arrive(th) {
		b.mu.Unlock()
		return nil
	}
	b.parked = append(b.parked, th)
	th.Park()
	b.mu.Unlock()
	select {
	case <-b.release:
		th.Enter()
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		i := slices.Index(b.parked, th)
		if i >= 0 {
			b.parked = slices.Delete(b.parked, i, i+1)
		}
		b.mu.Unlock()
		if i < 0 {
			th.Enter() // released meanwhile: back in the simulation, to Exit
		}
		return ctx.Err()
	}
}
