package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jce"
	jrt "github.com/jitsim/jitsim/runtime"
)

// Find returns the scenario that name stands for: a registered scenario,
// a workload file at that path ([Workload.Scenario]) or a trace
// ([Trace.Scenario]).
func Find(name string) (Scenario, error) {
	if s, ok := Lookup(name); ok {
		return s, nil
	}
	if st, err := os.Stat(name); err == nil && !st.IsDir() && IsTraceFile(name) {
		t, err := LoadTrace(name)
		if err != nil {
			return Scenario{}, err
		}
		return t.Scenario(), nil
	}
	if st, err := os.Stat(name); err != nil || st.IsDir() || !IsWorkloadFile(name) {
		return Scenario{}, fmt.Errorf("%q is not a jitsim scenario (see 'jitsim scenarios'), a workload file or a trace", name)
	}
	w, err := LoadWorkload(name)
	if err != nil {
		return Scenario{}, err
	}
	return w.Scenario(), nil
}

// Scenario returns the workload as a scenario named by its file's base
// name without ".toml" (as a benchmark's name, in titles): without
// arguments it runs the phases in order and prints each phase's
// operations, bytes, throughput and latency percentiles on the run's
// clock; with a benchmark's arguments ([warmupIterations] [iterations]
// [opsPerIteration], and so under `jitsim bench`) it measures the last
// phase, the steady load, as JMH would.
func (w *Workload) Scenario() Scenario {
	name := strings.TrimSuffix(filepath.Base(w.Path), ".toml")
	return withCommonProps(Scenario{
		Name: name,
		Doc:  "workload file " + w.Path + ": " + w.Title,
		Args: benchArgs + " (none: run the phases in order; given: benchmark the last phase)",
		Props: []Property{
			{Name: "msgSize", Default: "", Doc: "when set, every phase's message size (a sweep's size axis)"},
			{Name: "aadSize", Default: "", Doc: "when set, every GCM phase's AAD size"},
			{Name: "maxOps", Default: "", Doc: "when set, at most this many operations per thread in every phase (a short look at a long workload)"},
			{Name: "seed", Default: strconv.FormatInt(w.Seed, 10), Doc: "the seed of keys, IVs, data and draws"},
		},
		run:       func(ctx context.Context, r *runner) error { return runWorkload(ctx, r, w) },
		benchName: "Workload." + name,
		workload:  w,
	})
}

// draw returns the next size of d: list sizes in order (i counts the
// draws), distributions from rng.
func (d *sizeDist) draw(rng *rand.Rand, i int) int {
	var n int
	switch d.kind {
	case "fixed":
		n = d.list[0]
	case "list":
		n = d.list[i%len(d.list)]
	case "uniform":
		n = d.lo + rng.IntN(d.hi-d.lo+1)
	case "lognormal":
		x := math.Exp(d.mu + d.sig*rng.NormFloat64())
		n = int(math.Min(math.Max(math.Round(x), float64(d.lo)), float64(d.hi)))
	case "histogram":
		u := rng.Float64() * d.total
		n = d.list[len(d.list)-1]
		for j, wt := range d.weights {
			if u < wt {
				n = d.list[j]
				break
			}
			u -= wt
		}
	}
	if d.blocks {
		n &^= 15
	}
	return n
}

// latHist is a latency histogram with bounded memory: exact below 128 ns,
// then 128 buckets per power of two (under 0.8% relative error), and the
// exact maximum.
type latHist struct {
	counts []int64
	n      int64
	max    time.Duration
}

const latSub = 128

// latBucket returns the bucket of v ns and its upper bound.
func latBucket(v uint64) int {
	if v < latSub {
		return int(v)
	}
	shift := bits.Len64(v) - 8
	return shift*latSub + int(v>>shift)
}

// latUpper returns the largest value of bucket i.
func latUpper(i int) time.Duration {
	if i < 2*latSub {
		return time.Duration(i)
	}
	shift := i/latSub - 1
	m := i - shift*latSub
	return time.Duration((uint64(m+1) << shift) - 1)
}

func (h *latHist) add(d time.Duration) {
	if d < 0 {
		d = 0
	}
	i := latBucket(uint64(d))
	if i >= len(h.counts) {
		h.counts = append(h.counts, make([]int64, i+1-len(h.counts))...)
	}
	h.counts[i]++
	h.n++
	h.max = max(h.max, d)
}

func (h *latHist) merge(o *latHist) {
	if len(o.counts) > len(h.counts) {
		h.counts = append(h.counts, make([]int64, len(o.counts)-len(h.counts))...)
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// quantile returns the q-quantile (0 < q <= 1): the upper bound of the
// bucket holding the ceil(q·n)-th smallest value, at most the maximum.
func (h *latHist) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q * float64(h.n)))
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(latUpper(i), h.max)
		}
	}
	return h.max
}

// poolItem is one message encrypted before a phase for its decryptions.
type poolItem struct {
	iv, aad, plain, ct []byte
}

// phaseStats is what one thread of a phase did.
type phaseStats struct {
	ops, bytes, rejected int64
	leftInPlace          int64 // rejected decryptions that left plaintext in the in-place array
	hist                 latHist
}

// wlThread is one application thread's state in one phase.
type wlThread struct {
	r        *runner
	p        *phaseSpec
	id       int
	inv      jce.Invoker
	rng      *rand.Rand
	key, iv  []byte
	data     []byte // plaintext source
	aadBuf   []byte
	in, out  []byte // Java arrays for input and output
	c        *jce.Cipher
	dec      *jce.Cipher // cipher = "reuse": the decrypting one
	pool     []poolItem
	draws    int
	aadDraws int
	lastSize int // the payload of the last operation
	st       phaseStats
}

// runWorkload runs w's phases in order, or benchmarks its last phase when
// the scenario has arguments.
func runWorkload(ctx context.Context, r *runner, w *Workload) error {
	override := 0
	if _, threadsSet := r.props["threads"]; threadsSet || r.env.Threads > 0 {
		override = r.threads
	}
	set, err := w.settle(r.prop, override)
	if err != nil {
		return err
	}
	if len(r.args) > 0 {
		p := &set.phases[len(set.phases)-1]
		return runWorkloadSet(ctx, r, w, set, &wlBench{name: "workload " + w.Path + " phase " + p.Name, params: p.describe(), defaults: []int{5, 5, 100}}, nil)
	}
	return runWorkloadSet(ctx, r, w, set, nil, nil)
}

// wlReport replaces a run's own lines (the workload header, each phase's statistics) with a
// built-in scenario's: started runs once a phase's messages are prepared, before its threads
// start; op receives each operation's time; done the phase's.
type wlReport struct {
	started func()
	op      func(thread, index int, d time.Duration)
	done    func(elapsed time.Duration)
}

// wlBench names a benchmark of a workload's last phase: the name and parameters its result
// lines print, and the default warmupIterations, iterations and opsPerIteration.
type wlBench struct {
	name, params string
	defaults     []int
	avgTime      bool                                         // score in µs/op rather than ops/s
	bytesPerOp   int64                                        // when > 0, each operation's payload (GMAC's AAD), not its message's
	result       func(score, err float64, unit string) string // nil: JMH's Result block
}

// runWorkloadSet runs w's phases as set settles them (reported by rep when not nil), or with
// b, benchmarks its last phase.
func runWorkloadSet(ctx context.Context, r *runner, w *Workload, set wlSettings, b *wlBench, rep *wlReport) error {
	phases, capOps, seed, threadsFor := set.phases, set.capOps, set.seed, set.threadsFor
	var err error
	var writer *jrt.VM // encrypts the decryptions' inputs, so as not to warm the VM under study
	defer func() {
		if writer != nil && writer != r.env.VM {
			writer.Close()
		}
	}()
	pool := func(pi int, p *phaseSpec, key, fixedIV []byte, expected int64) ([]poolItem, error) {
		if p.Decrypt == 0 || p.prepare != "writer" {
			return nil, nil
		}
		if writer == nil {
			writer = r.env.VM
			if r.env.NewVM != nil {
				if writer, err = r.env.NewVM(); err != nil {
					return nil, fmt.Errorf("writer VM: %w", err)
				}
			}
		}
		return r.encryptPool(ctx, writer, p, workloadRand(seed, pi, -1), key, fixedIV, expected)
	}
	if b != nil {
		pi := len(phases) - 1
		p := &phases[pi]
		r.threads = threadsFor(p)
		key, fixedIV := phaseKey(seed, pi, p)
		items, err := pool(pi, p, key, fixedIV, math.MaxInt64)
		if err != nil {
			return err
		}
		ths := make([]*wlThread, r.threads)
		spec := benchSpec{
			name:       b.name,
			params:     b.params,
			defaults:   b.defaults,
			result:     b.result,
			avgTime:    b.avgTime,
			bytesPerOp: b.bytesPerOp,
			opBytes:    func(id int) int64 { return ths[id].st.bytes },
			setup: func(ctx context.Context, id int, inv jce.Invoker) (func(context.Context) error, error) {
				t, err := r.newPhaseThread(ctx, p, pi, id, inv, seed, key, fixedIV, items, math.MaxInt64)
				if err != nil {
					return nil, err
				}
				ths[id] = t
				return func(ctx context.Context) error {
					_, err := t.op(ctx)
					if err == nil {
						err = threadOf(inv).Sleep(ctx, p.think)
					}
					return err
				}, nil
			},
		}
		if b.bytesPerOp > 0 {
			spec.opBytes = nil
		}
		return r.bench(ctx, spec)
	}
	title := w.Title
	if title == "" {
		title = w.Path
	}
	if rep == nil {
		r.out.printf("# Workload: %s (%s), %d phase(s), seed %d\n", title, w.Path, len(phases), seed)
	}
	for pi := range phases {
		p := &phases[pi]
		n := threadsFor(p)
		key, fixedIV := phaseKey(seed, pi, p)
		expected := p.expected(n, capOps)
		items, err := pool(pi, p, key, fixedIV, expected)
		if err != nil {
			return fmt.Errorf("phase %q: %w", p.Name, err)
		}
		ths := make([]*wlThread, n)
		start := newBarrier(n)
		if rep != nil {
			rep.started()
		}
		t0 := r.now()
		err = r.parallelN(ctx, r.env.VM, n, func(ctx context.Context, id int, inv jce.Invoker) error {
			t, err := r.newPhaseThread(ctx, p, pi, id, inv, seed, key, fixedIV, items, p.expected(1, capOps))
			if err != nil {
				start.leave(inv)
				return err
			}
			ths[id] = t
			if err := start.wait(ctx, inv); err != nil {
				return err
			}
			th := threadOf(inv)
			if w.Start == "staggered" {
				if err := th.Sleep(ctx, time.Duration(id)*w.stagger); err != nil {
					return err
				}
			}
			begin := r.now()
			count, bounded := p.countFor(id, n)
			for i := int64(0); ; i++ {
				if (bounded && i >= count) || i >= capOps {
					break
				}
				if p.duration > 0 && r.now()-begin >= p.duration {
					break
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				s0 := r.now()
				d, err := t.op(ctx)
				if err != nil {
					return fmt.Errorf("phase %q, thread %d, operation %d: %w", p.Name, id, i+1, err)
				}
				r.observe(Iteration{Phase: p.Name, Thread: id, Index: int(i), Start: s0, Duration: d, Ops: 1, Bytes: int64(t.lastSize)})
				if rep != nil {
					rep.op(id, int(i), d)
				}
				if err := th.Sleep(ctx, p.think); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		elapsed := r.now() - t0
		var all phaseStats
		for _, t := range ths {
			all.ops += t.st.ops
			all.bytes += t.st.bytes
			all.rejected += t.st.rejected
			all.leftInPlace += t.st.leftInPlace
			all.hist.merge(&t.st.hist)
		}
		if rep != nil {
			rep.done(elapsed)
		} else {
			r.printPhase(p, n, all, elapsed)
		}
	}
	return r.out.err
}

// wlSettings are a workload run's properties applied: the phases (with
// msgSize), the cap on operations per thread (MaxInt64: none), the seed,
// and the thread count that replaces every phase's (0: none).
type wlSettings struct {
	phases  []phaseSpec
	capOps  int64
	seed    int64
	threads int
}

// threadsFor is the number of threads phase p runs on.
func (s *wlSettings) threadsFor(p *phaseSpec) int {
	if s.threads > 0 {
		return s.threads
	}
	return p.Threads
}

// settle applies the properties get returns (msgSize, aadSize, maxOps, seed) and
// a thread count override (0: none) to w's phases, checking each.
func (w *Workload) settle(get func(string) (string, bool), threads int) (wlSettings, error) {
	set := wlSettings{phases: make([]phaseSpec, len(w.phases)), capOps: math.MaxInt64, threads: threads}
	phases := set.phases
	copy(phases, w.phases)
	if v, _ := get("msgSize"); strings.TrimSpace(v) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil || n < 0 {
			return set, fmt.Errorf("property msgSize=%q is not a size in bytes", v)
		}
		if err := jrt.CheckMessageSize("property msgSize", n); err != nil {
			return set, err
		}
		for i := range phases {
			if phases[i].blocks && n%16 != 0 {
				return set, fmt.Errorf("property msgSize=%d: phase %q (%s) takes whole 16-byte blocks", n, phases[i].Name, phases[i].Transformation)
			}
			phases[i].msg = sizeDist{kind: "fixed", list: []int{int(n)}, maxBytes: int(n)}
		}
	}
	if v, _ := get("aadSize"); strings.TrimSpace(v) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil || n < 0 {
			return set, fmt.Errorf("property aadSize=%q is not a size in bytes", v)
		}
		if err := jrt.CheckMessageSize("property aadSize", n); err != nil {
			return set, err
		}
		for i := range phases {
			if phases[i].mode == "GCM" {
				phases[i].aad = sizeDist{kind: "fixed", list: []int{int(n)}, maxBytes: int(n)}
			}
		}
	}
	if v, _ := get("maxOps"); strings.TrimSpace(v) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 1 {
			return set, fmt.Errorf("property maxOps=%q is not a positive operation count", v)
		}
		set.capOps = n
	}
	seedText, _ := get("seed")
	var err error
	if set.seed, err = strconv.ParseInt(strings.TrimSpace(seedText), 10, 64); err != nil {
		return set, fmt.Errorf("property seed=%q is not an integer", seedText)
	}
	if threads > maxWorkloadThreads {
		return set, fmt.Errorf("%d threads: a workload runs at most %d", threads, maxWorkloadThreads)
	}
	for i := range phases {
		p := &phases[i]
		if err := p.checkBuffers(set.threadsFor(p)); err != nil {
			return set, fmt.Errorf("phase %q: %w", p.Name, err)
		}
	}
	return set, nil
}

// describe is a phase's one-line summary.
func (p *phaseSpec) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d-bit key, message %s", p.Transformation, p.KeySize, p.msg)
	if p.mode == "GCM" {
		fmt.Fprintf(&b, ", AAD %s, %d-byte IV, %d-bit tag", p.aad, p.ivLen, p.tagLen*8)
	}
	if p.Chunk > 0 {
		fmt.Fprintf(&b, ", update in %d-byte parts", p.Chunk)
	}
	fmt.Fprintf(&b, ", cipher %s, IV %s, output %s", p.lifecycle, p.iv, p.output)
	if p.Decrypt > 0 {
		fmt.Fprintf(&b, ", %g%% decrypt", 100*p.Decrypt)
	}
	if p.CorruptTag > 0 {
		fmt.Fprintf(&b, " (%g%% corrupted tags)", 100*p.CorruptTag)
	}
	if p.think > 0 {
		fmt.Fprintf(&b, ", think %s", p.think)
	}
	return b.String()
}

// printPhase prints one phase's result on the run's clock.
func (r *runner) printPhase(p *phaseSpec, threads int, s phaseStats, elapsed time.Duration) {
	r.printStats(fmt.Sprintf("phase %s: %d thread(s), %s", p.Name, threads, p.describe()), s, elapsed)
}

// printStats prints a header line, then operations, bytes, throughput
// and latency percentiles on the run's clock.
func (r *runner) printStats(header string, s phaseStats, elapsed time.Duration) {
	r.out.printf("\n%s\n", header)
	sec := elapsed.Seconds()
	var opsPerSec, mbPerSec float64
	if sec > 0 {
		opsPerSec, mbPerSec = float64(s.ops)/sec, float64(s.bytes)/sec/1e6
	}
	r.out.printf("  operations %d, bytes %d, time %.3f ms: %.1f ops/s, %.3f MB/s\n", s.ops, s.bytes, float64(elapsed.Nanoseconds())/1e6, opsPerSec, mbPerSec)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	r.out.printf("  latency us: p50 %.3f, p90 %.3f, p99 %.3f, max %.3f\n",
		us(s.hist.quantile(0.50)), us(s.hist.quantile(0.90)), us(s.hist.quantile(0.99)), us(s.hist.max))
	if s.rejected > 0 {
		r.out.printf("  corrupted tags rejected (AEADBadTagException): %d", s.rejected)
		if s.leftInPlace > 0 {
			r.out.printf("; %d left the unverified plaintext in the in-place array, as JDK %s's GCM does\n", s.leftInPlace, r.rel)
		} else {
			r.out.printf(", no plaintext released\n")
		}
	}
}

// workloadRand is the random source of one phase's thread (thread -1:
// the phase's own draws: key, fixed IV, the decryptions' messages).
func workloadRand(seed int64, phase, thread int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(phase)<<32|uint64(uint32(int32(thread)))))
}

// threadPoolRand is the random source of the messages thread id prepares for itself
// (prepare = "thread").
func threadPoolRand(seed int64, phase, thread int) *rand.Rand {
	return workloadRand(seed, phase, -3-thread)
}

// phaseKey returns a phase's key and its fixed IV.
func phaseKey(seed int64, pi int, p *phaseSpec) (key, iv []byte) {
	rng := workloadRand(seed, pi, -2)
	return randBytes(rng, p.KeySize/8), randBytes(rng, p.ivLen)
}

// paramSpec returns the parameters of an init with iv (nil for ECB).
func (p *phaseSpec) paramSpec(iv []byte) jce.ParamSpec {
	switch {
	case p.mode == "GCM":
		return jce.GCMParameterSpec{TLen: p.tagLen * 8, IV: bytes.Clone(iv)}
	case p.ivLen > 0:
		return jce.IvParameterSpec{IV: bytes.Clone(iv)}
	}
	return nil
}

// oracle returns what Go's crypto says encrypting plain gives.
func (p *phaseSpec) oracle(key, iv, aad, plain []byte) ([]byte, error) {
	return oracleEncrypt(oracleSpec{mode: p.mode, padding: p.padding, key: key, iv: iv, aad: aad, tagLen: p.tagLen}, plain)
}

// poolBudget bounds the bytes of a phase's pool of messages to decrypt.
const (
	poolBudget   = 32 << 20
	poolMaxItems = 64
)

// planPool draws the messages (plaintext, AAD, IV; no ciphertext yet) a
// phase's decryptions will read, for expected operations in all (MaxInt64:
// unknown): what encryptPool encrypts and what a resolved trace's
// decryptions are sized by.
func planPool(p *phaseSpec, rng *rand.Rand, fixedIV []byte, expected int64) []poolItem {
	k := min(int64(poolMaxItems), max(1, int64(poolBudget/(2*(p.msg.maxBytes+p.aad.maxBytes+32)))))
	if expected < math.MaxInt64 {
		k = min(k, max(1, int64(math.Ceil(float64(expected)*p.Decrypt))))
	}
	if p.Messages > 0 {
		k = int64(p.Messages)
	}
	items := make([]poolItem, k)
	for i := range items {
		it := &items[i]
		it.plain = randBytes(rng, p.msg.draw(rng, i))
		it.aad = randBytes(rng, p.aad.draw(rng, i))
		it.iv = fixedIV
		if p.iv != "fixed" {
			it.iv = randBytes(rng, p.ivLen)
		}
	}
	return items
}

// encryptPool encrypts the messages a phase's decryptions will read, on
// the writer VM (one thread that ends before the phase starts), and checks them against Go's crypto when checking.
func (r *runner) encryptPool(ctx context.Context, vm *jrt.VM, p *phaseSpec, rng *rand.Rand, key, fixedIV []byte, expected int64) ([]poolItem, error) {
	inv := threadInvoker{VM: vm, Thread: vm.NewThread("writer")}
	inv.Thread.Enter()
	defer inv.Thread.Exit()
	items := planPool(p, rng, fixedIV, expected)
	return items, r.encryptItems(ctx, inv, p, items, key, nil)
}

// newPhaseThread sets up thread id of phase pi (newWLThread) with the messages its
// decryptions read: shared, the writer's; with prepare = "thread" its own, encrypted on the
// VM under study before its Cipher exists, one Cipher re-initialised per message, as a
// benchmark's setup does (AESGCMBench's decrypt methods); with prepare = "cipher" its own,
// encrypted by its own Cipher before that Cipher decrypts them (AESGCMUpdateAAD's).
func (r *runner) newPhaseThread(ctx context.Context, p *phaseSpec, pi, id int, inv jce.Invoker, seed int64, key, fixedIV []byte, shared []poolItem, expected int64) (*wlThread, error) {
	items := shared
	if p.prepare != "writer" && p.Decrypt > 0 {
		items = planPool(p, threadPoolRand(seed, pi, id), fixedIV, expected)
		if p.prepare == "thread" {
			if err := r.encryptItems(ctx, inv, p, items, key, nil); err != nil {
				return nil, err
			}
		}
	}
	t, err := r.newWLThread(ctx, p, id, inv, workloadRand(seed, pi, id), key, fixedIV, items)
	if err != nil {
		return nil, err
	}
	if p.prepare == "cipher" && p.Decrypt > 0 {
		c := t.c
		if p.lifecycle == "reuse" {
			c = t.dec
		}
		if err := r.encryptItems(ctx, inv, p, items, key, c); err != nil {
			return nil, err
		}
		if p.lifecycle == "reuse" {
			if err := t.dec.Init(ctx, jce.DecryptMode, key, p.paramSpec(fixedIV)); err != nil {
				return nil, err
			}
		}
	}
	if mode, iv := p.setupInit(t); mode != 0 {
		if err := t.c.Init(ctx, mode, key, p.paramSpec(iv)); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// setupInit returns the mode and IV of the init a thread's Cipher gets at setup with
// init_at_setup (0: none): a phase of decryptions initialises it to decrypt with its first
// message's IV, any other to encrypt with the thread's IV before its first step.
func (p *phaseSpec) setupInit(t *wlThread) (int, []byte) {
	switch {
	case !p.InitAtSetup:
		return 0, nil
	case p.Decrypt >= 1:
		return jce.DecryptMode, t.pool[0].iv
	}
	return jce.EncryptMode, t.iv
}

// encryptItems encrypts items on inv with one Cipher re-initialised per message (c, or a new
// one when nil), as a job writing its records does, and checks them against Go's crypto when
// checking.
func (r *runner) encryptItems(ctx context.Context, inv jce.Invoker, p *phaseSpec, items []poolItem, key []byte, c *jce.Cipher) error {
	if c == nil {
		var err error
		if c, err = jce.GetInstance(inv, r.rel, p.Transformation); err != nil {
			return err
		}
	}
	for i := range items {
		it := &items[i]
		if err := c.Init(ctx, jce.EncryptMode, key, p.paramSpec(it.iv)); err != nil {
			return err
		}
		if len(it.aad) > 0 {
			if err := c.UpdateAAD(it.aad); err != nil {
				return err
			}
		}
		ct, err := c.DoFinal(ctx, it.plain)
		if err != nil {
			return err
		}
		it.ct = bytes.Clone(ct)
		if r.check {
			want, err := p.oracle(key, it.iv, it.aad, it.plain)
			if err != nil {
				return err
			}
			if err := checkBytes(fmt.Sprintf("phase %q message %d encryption vs crypto/cipher", p.Name, i), it.ct, want); err != nil {
				return err
			}
		}
	}
	return nil
}

// newDrawer is a phase thread's random state as newWLThread sets it up —
// its IV, plaintext source and AAD, drawn in that order — ready for plan.
func newDrawer(p *phaseSpec, rng *rand.Rand, fixedIV []byte, pool []poolItem) *wlThread {
	t := &wlThread{p: p, rng: rng, pool: pool}
	t.iv = bytes.Clone(fixedIV)
	if p.iv != "fixed" {
		t.iv = randBytes(rng, p.ivLen)
	}
	t.data = randBytes(rng, p.msg.maxBytes)
	t.aadBuf = randBytes(rng, p.aad.maxBytes)
	return t
}

// newWLThread sets up one thread of a phase: its data, Java arrays and,
// unless each operation makes its own, its ciphers.
func (r *runner) newWLThread(ctx context.Context, p *phaseSpec, id int, inv jce.Invoker, rng *rand.Rand, key, fixedIV []byte, pool []poolItem) (*wlThread, error) {
	t := newDrawer(p, rng, fixedIV, pool)
	t.r, t.id, t.inv, t.key = r, id, inv, key
	maxMsg := p.msg.maxBytes
	for _, it := range pool {
		maxMsg = max(maxMsg, len(it.ct))
	}
	room := maxMsg + 2*16 + p.tagLen
	t.in = inHeap(inv, make([]byte, p.InOffset+room))
	if p.output == "separate" {
		t.out = inHeap(inv, make([]byte, p.OutOffset+room))
	}
	var err error
	switch p.lifecycle {
	case "reinit":
		t.c, err = jce.GetInstance(inv, r.rel, p.Transformation)
	case "reuse":
		if p.Decrypt < 1 {
			if t.c, err = jce.NewCipher(ctx, inv, r.rel, p.Transformation, jce.EncryptMode, key, p.paramSpec(t.iv)); err != nil {
				return nil, err
			}
		}
		switch {
		case p.Decrypt > 0 && p.prepare == "cipher":
			// It encrypts its messages first (newPhaseThread), then is initialised to decrypt.
			t.dec, err = jce.GetInstance(inv, r.rel, p.Transformation)
		case p.Decrypt > 0:
			t.dec, err = jce.NewCipher(ctx, inv, r.rel, p.Transformation, jce.DecryptMode, key, p.paramSpec(fixedIV))
		}
	}
	return t, err
}

// opPlan is one operation's draws: whether it decrypts (which prepared
// message, whether its tag is corrupted) or encrypts (message and AAD
// sizes; the thread's IV is advanced).
type opPlan struct {
	decrypt, corrupt bool
	item             int // decrypt: index in the pool
	size, aad        int // encrypt
}

// plan draws the thread's next operation from its random source: the
// decrypt share, then the pool message and the corrupt-tag share, or the
// message size, the AAD size and the IV policy's step. op runs what plan
// draws, and a resolved trace (resolve.go) lists the same operations.
func (t *wlThread) plan() opPlan {
	p := t.p
	var o opPlan
	o.decrypt = p.Decrypt > 0 && (p.Decrypt >= 1 || t.rng.Float64() < p.Decrypt)
	if o.decrypt {
		o.item = t.draws % len(t.pool)
		t.draws++
		o.corrupt = p.CorruptTag > 0 && t.rng.Float64() < p.CorruptTag
		return o
	}
	o.size = p.msg.draw(t.rng, t.draws)
	t.draws++
	o.aad = p.aad.draw(t.rng, t.aadDraws)
	t.aadDraws++
	switch p.iv {
	case "counter":
		nextIV(t.iv)
	case "random":
		for i := range t.iv {
			t.iv[i] = byte(t.rng.Uint32())
		}
	}
	return o
}

// op does one operation — the input is made ready outside the timed part,
// then the cipher's creation or init, AAD, updates and doFinal are timed,
// then the output is checked when checking — and returns its time.
func (t *wlThread) op(ctx context.Context) (time.Duration, error) {
	p := t.p
	o := t.plan()
	decrypt, corrupt := o.decrypt, o.corrupt
	var input, iv, aad, plain []byte
	if decrypt {
		it := t.pool[o.item]
		input, iv, aad, plain = it.ct, it.iv, it.aad, it.plain
		if corrupt {
			input = bytes.Clone(input)
			input[len(input)-1] ^= 0x80
		}
	} else {
		plain = t.data[:o.size]
		input = plain
		aad = t.aadBuf[:o.aad]
		iv = t.iv
	}
	t.lastSize = len(plain)
	inOfs, outOfs := p.InOffset, p.OutOffset
	in := t.in
	copy(in[inOfs:], input)
	out := t.out
	switch p.output {
	case "in-place":
		out, outOfs = in, inOfs
	case "separate":
		for i := range out {
			out[i] = sentinel
		}
	}
	mode := jce.EncryptMode
	if decrypt {
		mode = jce.DecryptMode
	}
	var got []byte
	var released int
	start := t.r.now()
	c := t.c
	var err error
	switch {
	case p.lifecycle == "new":
		c, err = jce.NewCipher(ctx, t.inv, t.r.rel, p.Transformation, mode, t.key, p.paramSpec(iv))
	case p.lifecycle == "reinit":
		err = c.Init(ctx, mode, t.key, p.paramSpec(iv))
	case decrypt:
		c = t.dec
	}
	if err == nil && len(aad) > 0 {
		err = c.UpdateAAD(aad)
	}
	if err == nil {
		got, released, err = t.crypt(ctx, c, in, inOfs, len(input), out, outOfs)
	}
	defer runtime.KeepAlive(c) // got may be a view of c's output (crypt)
	d := t.r.now() - start
	if corrupt {
		var je *jce.JavaException
		if !errors.As(err, &je) || je.Class != jce.AEADBadTagException {
			return d, fmt.Errorf("decryption with a corrupted tag: want %s, got %v", jce.AEADBadTagException, err)
		}
		if released > 0 {
			return d, fmt.Errorf("decryption with a corrupted tag released %d bytes before throwing", released)
		}
		leaves, lerr := jce.BadTagLeavesPlaintext(t.r.rel, p.output == "in-place")
		switch {
		case lerr != nil:
			return d, lerr
		case leaves:
			t.st.leftInPlace++ // the release's own behaviour: counted and printed, not an error
		default:
			if err := noPlaintext(p, t, in, input, plain); err != nil {
				return d, err
			}
		}
		t.st.rejected++
	} else if err != nil {
		return d, err
	}
	t.st.ops++
	t.st.bytes += int64(len(plain))
	t.st.hist.add(d)
	if !t.r.check || corrupt {
		return d, nil
	}
	if decrypt {
		return d, checkBytes(fmt.Sprintf("phase %q decryption vs plaintext", p.Name), got, plain)
	}
	want, err := p.oracle(t.key, iv, aad, plain)
	if err != nil {
		return d, err
	}
	return d, checkBytes(fmt.Sprintf("phase %q encryption vs crypto/cipher", p.Name), got, want)
}

// sentinel fills a separate output array before each operation, so that
// what an operation did not write can be told from what it wrote.
const sentinel = 0xA5

// noPlaintext checks, after a rejected decryption, that no byte of the
// plaintext reached the output array: each byte holds what it held
// before, or 0 (releases that decrypt before they verify clear what they
// wrote when the tag check fails).
func noPlaintext(p *phaseSpec, t *wlThread, in, input, plain []byte) error {
	var region, before []byte
	switch p.output {
	case "separate":
		region = t.out[p.OutOffset : p.OutOffset+len(input)]
		before = bytes.Repeat([]byte{sentinel}, len(region))
	case "in-place":
		region = in[p.InOffset : p.InOffset+len(input)]
		before = input
	default:
		return nil // doFinal returned no array; the updates were counted
	}
	for i := range region {
		if region[i] != before[i] && region[i] != 0 {
			if len(plain) > 0 && bytes.Contains(region, plain[:min(len(plain), 16)]) {
				return fmt.Errorf("decryption with a corrupted tag left plaintext in the %s output array", p.output)
			}
			return fmt.Errorf("decryption with a corrupted tag wrote byte %d of the %s output array (%02x, neither its old value nor a cleared 0)", i, p.output, region[i])
		}
	}
	return nil
}

// crypt runs the operation's updates and doFinal on c: one doFinal, or
// updates of p.Chunk bytes, or p.Parts-1 updates of n/p.Parts bytes, then a
// doFinal of the rest. It returns the
// output (a view of out when the calls write into out) and how many bytes
// the updates released before the doFinal.
func (t *wlThread) crypt(ctx context.Context, c *jce.Cipher, in []byte, inOfs, n int, out []byte, outOfs int) ([]byte, int, error) {
	p := t.p
	pos, released := 0, 0
	// more reports whether another update() comes before the doFinal, and its size: chunk's
	// parts while more than one remains, or parts-1 of n/parts bytes each (maybe empty).
	step, updates := p.Chunk, 0
	if p.Parts > 1 {
		step = n / p.Parts
	}
	more := func() bool {
		if p.Parts > 1 {
			return updates < p.Parts-1
		}
		return step > 0 && n-pos > step
	}
	if p.output == "new" {
		var acc []byte
		for ; more(); updates++ {
			b, err := c.Update(ctx, in[inOfs+pos:inOfs+pos+step])
			if err != nil {
				return nil, released, err
			}
			acc = append(acc, b...)
			released += len(b)
			pos += step
		}
		doFinal := c.DoFinal
		if t.r.env.VM.ModelClock() {
			// The caller checks the output before the Cipher's next operation (and keeps
			// the Cipher alive until then): on the model clock a view of the provider's
			// output does, the copy into a new array is no part of the modelled time.
			doFinal = c.DoFinalView
		}
		b, err := doFinal(ctx, in[inOfs+pos:inOfs+n])
		if err != nil {
			return nil, released, err
		}
		if acc == nil { // doFinal's array is the whole output: no copy of it
			return b, released, nil
		}
		return append(acc, b...), released, nil
	}
	w := 0
	for ; more(); updates++ {
		k, err := c.UpdateTo(ctx, in, inOfs+pos, step, out, outOfs+w)
		if err != nil {
			return nil, released, err
		}
		w += k
		released += k
		pos += step
	}
	k, err := c.DoFinalTo(ctx, in, inOfs+pos, n-pos, out, outOfs+w)
	if err != nil {
		return nil, released, err
	}
	w += k
	// The caller checks the output before the next operation writes out again: a view, no copy.
	return out[outOfs : outOfs+w : outOfs+w], released, nil
}
