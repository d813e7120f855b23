package runtime

import (
	"io"
	goruntime "runtime"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/heap"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/stubs/cpu"
	"go.uber.org/zap"
)

// Clock is the VM's one source of time: the duration since VM start.
// Nothing else in the VM reads time.Now (style.md habit 11). The wall
// clock measures real time; the model clock (Config.WithModel) is the
// virtual time of a deterministic simulation driven by a CPU profile's
// cost table.
type Clock interface {
	Now() time.Duration
}

// WallClock returns a Clock that measures real time from the moment it is
// created. New creates one at VM start when the Config has no clock.
func WallClock() Clock { return wallClock{start: time.Now()} }

type wallClock struct{ start time.Time }

// Now implements Clock.
func (w wallClock) Now() time.Duration { return time.Since(w.start) }

// Config is the immutable configuration of a VM. Start from NewConfig; each
// With method returns a changed copy and never fails: New reports every
// problem at once. See RATIONALE.md, "Why With* rather than zap-style
// options".
type Config struct {
	jdk        jdk.Release
	jdkSet     bool
	set        *flags.Set
	model      cpu.Model
	modelSet   bool
	tiers      []Tier
	logger     *zap.Logger
	out        io.Writer
	clock      Clock
	costs      *model.Profile // the model clock's profile; nil: wall clock
	processors int
	settled    bool
	heapSize   int // bytes; 0: heap.DefaultSize, < 0: no heap
}

// NewConfig returns the defaults: JDK profile jdk.Default (25), the
// profile's default flag values, the host CPU model, no tiers (New fails
// without them: pass tiers.Default() or fakes), zap.NewNop(), output
// discarded, the wall clock, and the host's processor count.
func NewConfig() Config {
	return Config{jdk: jdk.Default, logger: zap.NewNop(), out: io.Discard}
}

// WithHeapSize sets the size of the Java heap in bytes (rounded up to
// 64 KiB, at most heap.MaxSize): the memory Java arrays from
// VM.NewByteArray live in, which compiled code and stubs use in place.
// Negative: no heap — every array is copied into the called code's memory
// and back (the VM also runs without one where the platform cannot map it).
// Default heap.DefaultSize.
func (c Config) WithHeapSize(bytes int) Config { c.heapSize = bytes; return c }

// WithMaxHeapSize sizes the Java heap from -Xmx (flags.Result.MaxHeapSize):
// 0 leaves the size as it is; jitsim's heap holds at most heap.MaxSize (it
// sits in a wasm32 address space), so a larger -Xmx gets that.
func (c Config) WithMaxHeapSize(xmx uint64) Config {
	if xmx == 0 {
		return c
	}
	return c.WithHeapSize(int(min(xmx, heap.MaxSize)))
}

// WithJDK selects the JDK profile. Default jdk.R25. A flag Set given
// with WithFlags must be of the same profile.
func (c Config) WithJDK(j jdk.Release) Config { c.jdk, c.jdkSet = j, true; return c }

// WithFlags sets the parsed flag values (flags.Parse). New runs the
// runtime's Ergonomics on a copy against the CPU model; the caller's Set is
// never changed. Default: the profile's declared defaults.
func (c Config) WithFlags(s *flags.Set) Config { c.set, c.settled = s, false; return c }

// WithSettledFlags sets flag values that have already been through the
// runtime's Ergonomics (as the CLI does to print warnings before the VM
// starts); New then uses them as they are.
func (c Config) WithSettledFlags(s *flags.Set) Config { c.set, c.settled = s, true; return c }

// WithCPU sets the CPU model. Default: the "host" model. Stubs that the
// model selects but the host cannot run execute as their generic twins.
func (c Config) WithCPU(m cpu.Model) Config { c.model, c.modelSet = m, true; return c }

// WithTiers sets the execution tiers, one per level 0..4 at most
// (tiers.Default() for the real ones). Default: none.
func (c Config) WithTiers(ts ...Tier) Config { c.tiers = append([]Tier(nil), ts...); return c }

// WithLogger sets the zap logger. Default zap.NewNop(); a nil logger
// restores the default.
func (c Config) WithLogger(l *zap.Logger) Config {
	if l == nil {
		l = zap.NewNop()
	}
	c.logger = l
	return c
}

// WithOutput sets where -XX:+PrintCompilation, PrintIntrinsics,
// PrintInlining and PrintTieredEvents write (HotSpot's tty: stdout).
// Default io.Discard; nil restores the default.
func (c Config) WithOutput(w io.Writer) Config {
	if w == nil {
		w = io.Discard
	}
	c.out = w
	return c
}

// WithClock sets the clock. Default: a wall clock started by New.
func (c Config) WithClock(k Clock) Config { c.clock = k; return c }

// WithModel runs the VM on the model clock (docs/model.md): every piece of
// code it runs, each stub call and each compile costs what profile p says,
// in the virtual time of a deterministic scheduler of its own (one per VM).
// The VM's clock is then that scheduler's, and WithClock is ignored.
// Application threads must Enter before calling into the VM and Exit after
// (Thread.Enter). Default: the wall clock.
func (c Config) WithModel(p model.Profile) Config { c.costs = &p; return c }

// WithActiveProcessors sets the machine's processor count: what the
// compiler thread ergonomics see (os::active_processor_count) unless the
// flag ActiveProcessorCount overrides it, as in HotSpot, and the cores
// the model clock's threads share. Default: the host's count.
func (c Config) WithActiveProcessors(n int) Config { c.processors = n; return c }

// JDK returns the configured profile.
func (c Config) JDK() jdk.Release {
	if !c.jdkSet && c.set != nil {
		return c.set.JDK()
	}
	return c.jdk
}

// activeProcessors returns os::active_processor_count for the VM.
func (c Config) activeProcessors(s *flags.Set) int {
	if s.Has("ActiveProcessorCount") {
		if n := s.Int("ActiveProcessorCount"); n > 0 {
			return int(n)
		}
	}
	if c.processors > 0 {
		return c.processors
	}
	return goruntime.NumCPU()
}
