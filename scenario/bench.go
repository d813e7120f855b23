package scenario

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jce"
	"gonum.org/v1/gonum/stat/distuv"
)

// benchSpec is one JMH-like benchmark: per-thread setup returning the
// operation, the unit of the score, and how the result line reads.
type benchSpec struct {
	name       string // e.g. "AESGCMBench.encrypt"
	params     string // e.g. "dataSize = 1024, keyLength = 128"
	avgTime    bool   // score in µs/op (JMH avgt) rather than ops/s (thrpt)
	bytesPerOp int64
	// opBytes, when set, replaces bytesPerOp for operations of varying
	// size: the payload bytes thread id has processed so far.
	opBytes  func(id int) int64
	defaults []int // warmupIterations, iterations, opsPerIteration
	setup    func(ctx context.Context, id int, inv jce.Invoker) (op func(ctx context.Context) error, err error)
	// result formats the final line; nil: JMH's "Result" block.
	result func(score, err float64, unit string) string
}

// benchArgs are the positional arguments of the benchmark scenarios.
const benchArgs = "[warmupIterations] [iterations] [opsPerIteration]"

// bench runs spec on r.threads threads: every thread sets up its own
// ciphers, all start together, and each runs warmup then measured
// iterations of opsPerIteration operations, timed on the run's clock. An
// iteration's score is the sum of the threads' throughputs (ops/s) or the
// mean of their times per operation (µs/op), as JMH aggregates threads.
func (r *runner) bench(ctx context.Context, spec benchSpec) error {
	a, err := r.intArgs([]string{"warmupIterations", "iterations", "opsPerIteration"}, spec.defaults)
	if err != nil {
		return err
	}
	warm, iters, ops := a[0], a[1], a[2]
	if iters < 1 || ops < 1 {
		return fmt.Errorf("iterations and opsPerIteration must be at least 1 (got %d, %d)", iters, ops)
	}
	unit := "ops/s"
	if spec.avgTime {
		unit = "us/op"
	}
	threadWord := "threads"
	if r.threads == 1 {
		threadWord = "thread"
	}
	r.out.printf("# Benchmark: %s (%s)\n# Threads: %d %s, %d warmup and %d measurement iterations of %d operations\n",
		spec.name, spec.params, r.threads, threadWord, warm, iters, ops)
	total := warm + iters
	dur := make([][]time.Duration, r.threads)
	// iterationScore is iteration i's score over all threads.
	iterationScore := func(dur [][]time.Duration, i int) float64 {
		var score float64
		for id := range dur {
			sec := dur[id][i].Seconds()
			if spec.avgTime {
				score += sec * 1e6 / float64(ops) / float64(len(dur))
			} else if sec > 0 {
				score += float64(ops) / sec
			}
		}
		return score
	}
	printIteration := func(i int, score float64) {
		if i < warm {
			r.out.printf("# Warmup Iteration %3d: %.3f %s\n", i+1, score, unit)
		} else {
			r.out.printf("Iteration %3d: %.3f %s\n", i-warm+1, score, unit)
		}
	}
	start := newBarrier(r.threads)
	err = r.parallel(ctx, r.env.VM, func(ctx context.Context, id int, inv jce.Invoker) error {
		op, err := spec.setup(ctx, id, inv)
		if err != nil {
			start.leave(inv)
			return err
		}
		if err := start.wait(ctx, inv); err != nil {
			return err
		}
		dur[id] = make([]time.Duration, total)
		var doneBytes int64
		for i := range total {
			t0 := r.now()
			if sample := r.env.OpTime; sample != nil {
				for range ops {
					s0 := r.now()
					if err := op(ctx); err != nil {
						return err
					}
					sample(id, r.now()-s0) // the recording is outside the operation's time
				}
			} else {
				for range ops {
					if err := op(ctx); err != nil {
						return err
					}
				}
			}
			d := r.now() - t0
			dur[id][i] = d
			phase, idx := "warmup", i
			if i >= warm {
				phase, idx = "measure", i-warm
			}
			nbytes := int64(ops) * spec.bytesPerOp
			if spec.opBytes != nil {
				b := spec.opBytes(id)
				nbytes, doneBytes = b-doneBytes, b
			}
			r.observe(Iteration{Phase: phase, Thread: id, Index: idx, Start: t0, Duration: d, Ops: int64(ops), Bytes: nbytes})
			if r.threads == 1 { // one thread: the iteration's score is known now
				printIteration(i, iterationScore(dur, i))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	scores := make([]float64, total)
	for i := range total {
		scores[i] = iterationScore(dur, i)
		if r.threads > 1 {
			printIteration(i, scores[i])
		}
	}
	score, e := meanError(scores[warm:])
	if spec.result != nil {
		r.out.printf("%s\n", spec.result(score, e, unit))
	} else {
		r.out.printf("\nResult %q:\n  %.3f ±(99.9%%) %.3f %s\n", spec.name, score, e, unit)
	}
	return r.out.err
}

// meanError returns the mean of x and the half-width of its 99.9%
// Student-t confidence interval (JMH's "±(99.9%)"); NaN for one sample.
func meanError(x []float64) (mean, halfWidth float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += v
	}
	mean /= n
	if len(x) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.9995)
	return mean, t * sd / math.Sqrt(n)
}

// randBytes returns n bytes from rng.
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// nextIV makes iv the next of a sequence of distinct IVs (GCM refuses to
// encrypt twice with one key and IV), as the JDK's benchmarks do.
func nextIV(iv []byte) {
	for i := len(iv) - 1; i >= 0; i-- {
		iv[i]++
		if iv[i] != 0 {
			return
		}
	}
}

// gcmOps are AESGCMBench's benchmark methods.
var gcmOps = []string{"encrypt", "decrypt", "encryptMultiPart", "decryptMultiPart"}

// AESGCMBench is the JDK's micro-benchmark org.openjdk.bench.javax.crypto
// .full.AESGCMBench on the provider layer: one AES/GCM/NoPadding doFinal of
// dataSize bytes per operation (a fresh IV per encryption), or an update of
// the first half and a doFinal of the rest (the MultiPart methods).
var AESGCMBench = register(Scenario{
	Name: "AESGCMBench",
	Doc:  "the JDK's AESGCMBench: AES/GCM doFinal of dataSize bytes, ops/s",
	Args: benchArgs + " (default 5 5 200)",
	Props: []Property{
		{Name: "op", Default: "encrypt", Doc: strings.Join(gcmOps, ", ")},
		{Name: "dataSize", Default: "1024", Doc: "bytes per operation"},
		{Name: "keyLength", Default: "128", Doc: "key bits: 128, 192, 256"},
	},
	BytesProp: "dataSize",
	run:       runAESGCMBench,
	shipped:   aesgcmBenchWorkload,
})

// aesgcmBenchFile is AESGCMBench as a workload file, shipped as
// examples/workloads/aesgcmbench.toml (a link to this one).
//
//go:embed workloads/aesgcmbench.toml
var aesgcmBenchFile []byte

// aesgcmBenchWorkload is aesgcmBenchFile, checked.
var aesgcmBenchWorkload = builtInWorkload("aesgcmbench.toml", aesgcmBenchFile)

// runAESGCMBench runs the chosen method on the workload engine: the shipped
// aesgcmbench.toml with the properties applied to its phase.
func runAESGCMBench(ctx context.Context, r *runner) error {
	op, _ := r.prop("op")
	multi := strings.HasSuffix(op, "MultiPart")
	decrypt := strings.HasPrefix(op, "decrypt")
	if !slices.Contains(gcmOps, op) {
		return fmt.Errorf("property op=%q: want one of %s", op, strings.Join(gcmOps, ", "))
	}
	size, err := r.minIntProp("dataSize", 0)
	if err != nil {
		return err
	}
	bits, err := r.intProp("keyLength")
	if err != nil {
		return err
	}
	if bits != 128 && bits != 192 && bits != 256 {
		return fmt.Errorf("property keyLength=%d: want 128, 192 or 256", bits)
	}
	return runBuiltInWorkload(ctx, r, aesgcmBenchWorkload(), func(ph *Phase) {
		ph.Name, ph.MessageSize, ph.KeySize = op, int64(size), bits
		if decrypt {
			ph.Decrypt, ph.IV, ph.Messages = 1, "fixed", 1
		}
		if multi {
			ph.Parts = 2
		}
	}, &wlBench{name: "AESGCMBench." + op, params: fmt.Sprintf("dataSize = %d, keyLength = %d", size, bits), defaults: []int{5, 5, 200}})
}

// settleOwnSeed settles a built-in scenario's workload on threads with the file's own seed as
// its only property: the scenario's properties were applied by editing its phases.
func (w *Workload) settleOwnSeed(threads int) (wlSettings, error) {
	return w.settle(func(name string) (string, bool) {
		if name == "seed" {
			return strconv.FormatInt(w.Seed, 10), false
		}
		return "", false
	}, threads)
}

// runBuiltInWorkload benchmarks the last phase of a built-in scenario's workload file with
// edit (the scenario's properties) applied, on the run's threads.
func runBuiltInWorkload(ctx context.Context, r *runner, file *Workload, edit func(*Phase), b *wlBench) error {
	w, err := file.edited(edit)
	if err != nil {
		return err
	}
	set, err := w.settleOwnSeed(r.threads)
	if err != nil {
		return err
	}
	return runWorkloadSet(ctx, r, w, set, b, nil)
}

// AESGCMUpdateAAD is Andrew Haley's AESGCMUpdateAAD2 benchmark of the 2018
// GCTR/GHASH-in-every-tier proof of concept: GCM with aadSize bytes of AAD
// and no data (GMAC), average time per operation.
var AESGCMUpdateAAD = register(Scenario{
	Name: "AESGCMUpdateAAD",
	Doc:  "Haley's AESGCMUpdateAAD2: updateAAD(1 MiB) then an empty doFinal (GMAC), us/op",
	Args: benchArgs + " (default 3 5 5)",
	Props: []Property{
		{Name: "op", Default: "decrypt", Doc: "decrypt (verify the tag) or encrypt (make one, fresh IV each time)"},
		{Name: "aadSize", Default: "1048576", Doc: "AAD bytes per operation"},
		{Name: "keySize", Default: "128", Doc: "key bits: 128, 192, 256"},
	},
	BytesProp: "aadSize",
	run:       runAESGCMUpdateAAD,
	shipped:   aesgcmUpdateAADWorkload,
})

// aesgcmUpdateAADFile is AESGCMUpdateAAD as a workload file, shipped as
// examples/workloads/aesgcmupdateaad.toml (a link to this one).
//
//go:embed workloads/aesgcmupdateaad.toml
var aesgcmUpdateAADFile []byte

// aesgcmUpdateAADWorkload is aesgcmUpdateAADFile, checked.
var aesgcmUpdateAADWorkload = builtInWorkload("aesgcmupdateaad.toml", aesgcmUpdateAADFile)

// runAESGCMUpdateAAD runs the GMAC benchmark on the workload engine: the shipped
// aesgcmupdateaad.toml with the properties applied to its phase.
func runAESGCMUpdateAAD(ctx context.Context, r *runner) error {
	op, _ := r.prop("op")
	if op != "encrypt" && op != "decrypt" {
		return fmt.Errorf("property op=%q: want encrypt or decrypt", op)
	}
	size, err := r.minIntProp("aadSize", 0)
	if err != nil {
		return err
	}
	bits, err := r.intProp("keySize")
	if err != nil {
		return err
	}
	if bits != 128 && bits != 192 && bits != 256 {
		return fmt.Errorf("property keySize=%d: want 128, 192 or 256", bits)
	}
	return runBuiltInWorkload(ctx, r, aesgcmUpdateAADWorkload(), func(ph *Phase) {
		ph.Name, ph.AADSize, ph.KeySize = op, int64(size), bits
		if op == "encrypt" {
			ph.Decrypt, ph.IV, ph.Messages = 0, "counter", 0
		}
	}, &wlBench{name: "AESGCMUpdateAAD." + op, params: fmt.Sprintf("aadSize = %d, keySize = %d", size, bits),
		avgTime: true, bytesPerOp: int64(size), defaults: []int{3, 5, 5}})
}

// CBCThroughput is the run Aleksey Shipilev reported in the JDK-7184394
// review: AES/CBC/PKCS5Padding encryption of 10 KB byte[]s on N threads,
// each with its own cipher initialised once, ops/s ± error.
var CBCThroughput = register(Scenario{
	Name: "CBCThroughput",
	Doc:  "JDK-7184394 review's AES/CBC/PKCS5Padding encryption of 10 KB messages on N threads, ops/s",
	Args: benchArgs + " (default 5 5 100)",
	Props: []Property{
		{Name: "msgSize", Default: "10240", Doc: "bytes per message"},
		{Name: "keySize", Default: "128", Doc: "key bits: 128, 192, 256"},
	},
	BytesProp: "msgSize",
	run:       runCBCThroughput,
	shipped:   cbcThroughputWorkload,
})

// cbcThroughputFile is CBCThroughput as a workload file, shipped as
// examples/workloads/cbcthroughput.toml (a link to this one).
//
//go:embed workloads/cbcthroughput.toml
var cbcThroughputFile []byte

// cbcThroughputWorkload is cbcThroughputFile, checked.
var cbcThroughputWorkload = builtInWorkload("cbcthroughput.toml", cbcThroughputFile)

// runCBCThroughput runs the CBC throughput benchmark on the workload engine: the shipped
// cbcthroughput.toml with the properties applied to its phase.
func runCBCThroughput(ctx context.Context, r *runner) error {
	size, err := r.minIntProp("msgSize", 0)
	if err != nil {
		return err
	}
	bits, err := r.intProp("keySize")
	if err != nil {
		return err
	}
	if bits != 128 && bits != 192 && bits != 256 {
		return fmt.Errorf("property keySize=%d: want 128, 192 or 256", bits)
	}
	threads := r.threads
	return runBuiltInWorkload(ctx, r, cbcThroughputWorkload(), func(ph *Phase) { ph.MessageSize, ph.KeySize = int64(size), bits },
		&wlBench{name: "CBCThroughput", params: fmt.Sprintf("AES/CBC/PKCS5Padding, msgSize = %d, keySize = %d", size, bits),
			defaults: []int{5, 5, 100},
			result: func(score, e float64, unit string) string {
				return fmt.Sprintf("AES/CBC/PKCS5Padding %d B, %d thread(s): %10.3f +- %8.3f ops/sec", size, threads, score, e)
			}})
}

// modeLoopModes are ModeLoop's transformations, by its "mode" property.
var modeLoopModes = []struct{ name, transformation string }{
	{"GCM", "AES/GCM/NoPadding"}, {"CBC", "AES/CBC/NoPadding"}, {"CTR", "AES/CTR/NoPadding"},
}

// ModeLoop is one AES mode's whole Cipher operation over and over: the composite operations
// `jitsim validate` compares with a real JVM, as jvmharness's Cost program runs them there
// (rows gcm-enc, gcm-dec, cbc-enc, cbc-dec, ctr). GCM encryption re-inits with a fresh IV
// every operation, GCM decryption re-inits with the IV of its one ciphertext; CBC and CTR are
// initialised once and call doFinal over and over.
var ModeLoop = register(Scenario{
	Name: "ModeLoop",
	Doc:  "one AES mode's doFinal of dataSize bytes over and over (GCM, CBC, CTR; encrypt or decrypt), us/op",
	Args: benchArgs + " (default 5 5 200)",
	Props: []Property{
		{Name: "mode", Default: "GCM", Doc: "GCM, CBC or CTR"},
		{Name: "op", Default: "encrypt", Doc: "encrypt or decrypt"},
		{Name: "dataSize", Default: "16384", Doc: "bytes per operation (a multiple of 16 for CBC)"},
	},
	BytesProp: "dataSize",
	run:       runModeLoop,
	shipped:   modeLoopWorkload,
})

// modeLoopFile is ModeLoop as a workload file, shipped as examples/workloads/modeloop.toml (a
// link to this one).
//
//go:embed workloads/modeloop.toml
var modeLoopFile []byte

// modeLoopWorkload is modeLoopFile, checked.
var modeLoopWorkload = builtInWorkload("modeloop.toml", modeLoopFile)

// runModeLoop runs ModeLoop on the workload engine: the shipped modeloop.toml with the
// properties applied to its phase.
func runModeLoop(ctx context.Context, r *runner) error {
	modeName, _ := r.prop("mode")
	op, _ := r.prop("op")
	i := slices.IndexFunc(modeLoopModes, func(m struct{ name, transformation string }) bool { return m.name == modeName })
	if i < 0 {
		return fmt.Errorf("property mode=%q: want GCM, CBC or CTR", modeName)
	}
	if op != "encrypt" && op != "decrypt" {
		return fmt.Errorf("property op=%q: want encrypt or decrypt", op)
	}
	size, err := r.minIntProp("dataSize", 0)
	if err != nil {
		return err
	}
	if modeName == "CBC" && size%16 != 0 {
		return fmt.Errorf("property dataSize=%d: AES/CBC/NoPadding takes whole 16-byte blocks", size)
	}
	tr := modeLoopModes[i].transformation
	return runBuiltInWorkload(ctx, r, modeLoopWorkload(), func(ph *Phase) {
		ph.Name, ph.Transformation, ph.MessageSize = op, tr, int64(size)
		if modeName != "GCM" { // initialised once, doFinal over and over
			ph.Cipher, ph.IV, ph.InitAtSetup = "reuse", "fixed", false
		}
		if op == "decrypt" { // one message, encrypted by the thread's own Cipher
			ph.Decrypt, ph.IV, ph.Messages, ph.Prepare = 1, "fixed", 1, "cipher"
		}
	}, &wlBench{name: "ModeLoop." + modeName + "." + op, params: fmt.Sprintf("%s, dataSize = %d", tr, size), defaults: []int{5, 5, 200}})
}
