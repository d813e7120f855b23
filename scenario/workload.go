package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	jrt "github.com/jitsim/jitsim/runtime"
)

// Workload is a workload file (TOML): an application's Cipher calls as
// phases run in order — a warm-up phase, then the steady load, or bursts.
// Each phase names its transformation, key size, message and AAD sizes
// (fixed, a list, or a distribution), chunking, cipher life cycle,
// encrypt:decrypt mix, threads, a count or a duration, think time, IV
// policy, output arrays and a share of corrupted tags. A workload file runs
// wherever a scenario name does (run, warmup, bench, sweep) through
// [Workload.Scenario]; examples/README.md documents the format.
type Workload struct {
	Path string `toml:"-"`

	Title string `toml:"title"`
	Notes string `toml:"notes"`
	// Seed makes keys, IVs, data and every draw the same on every run.
	Seed int64 `toml:"seed"`
	// Threads is every phase's default thread count (1 when 0).
	Threads int `toml:"threads"`
	// Start is "together" (default: the threads of a phase start on one
	// line) or "staggered" (thread i starts i × Stagger later).
	Start   string  `toml:"start"`
	Stagger string  `toml:"stagger"`
	Phases  []Phase `toml:"phase"`

	stagger time.Duration
	phases  []phaseSpec // checked and resolved by check
	lines   map[string]int
}

// Phase is one [[phase]] of a workload file as written.
type Phase struct {
	Name           string  `toml:"name"`
	Transformation string  `toml:"transformation"`
	KeySize        int     `toml:"key_size"`     // bits; default 128
	MessageSize    any     `toml:"message_size"` // see sizeForms
	AADSize        any     `toml:"aad_size"`     // GCM only
	Chunk          int     `toml:"chunk"`        // 0: one doFinal; n: update in n-byte parts, then doFinal
	Cipher         string  `toml:"cipher"`       // new, reinit (default), reuse
	Decrypt        float64 `toml:"decrypt"`      // share of operations that decrypt, 0..1
	Threads        int     `toml:"threads"`
	Count          int64   `toml:"count"`    // operations per thread
	Total          int64   `toml:"total"`    // or: operations in all, operation i on thread i mod threads
	Duration       string  `toml:"duration"` // or: run this long per thread, on the run's clock
	Think          string  `toml:"think"`    // pause after each operation
	IV             string  `toml:"iv"`       // fixed, counter (default), random
	IVLength       int     `toml:"iv_length"`
	TagLength      int     `toml:"tag_length"` // GCM tag bits; default 128
	Output         string  `toml:"output"`     // new (default), separate, in-place
	InOffset       int     `toml:"in_offset"`
	OutOffset      int     `toml:"out_offset"`
	CorruptTag     float64 `toml:"corrupt_tag"` // share of GCM decryptions with a corrupted tag
	Parts          int     `toml:"parts"`       // 0, 1: no parts; n: n-1 update()s of size/n bytes, then doFinal of the rest
	Prepare        string  `toml:"prepare"`     // writer (default), thread, cipher: who encrypts the decryptions' messages
	Messages       int     `toml:"messages"`    // how many messages the decryptions cycle through (0: up to 64)
	// InitAtSetup, with cipher = "reinit", also initialises each thread's Cipher once when the
	// thread is set up, as code that makes and initialises its Cipher in a constructor does.
	InitAtSetup bool `toml:"init_at_setup"`
}

// Workload bounds: a bad file is an error, never an allocation the host
// cannot make or a run that cannot end.
const (
	maxWorkloadThreads  = 256
	maxWorkloadPhases   = 64
	maxWorkloadCount    = 1_000_000_000
	maxWorkloadDuration = 24 * time.Hour
	maxThink            = time.Hour
	maxOffset           = 1 << 20
	maxListSizes        = 4096
	maxIVLength         = 1024
	maxParts            = 1024
	maxMessages         = 100_000
	// maxPhaseBuffers bounds the arrays a phase's threads hold at once
	// (plaintext source, AAD, input and output arrays per thread).
	maxPhaseBuffers = 1 << 30
)

// workloadModes are the transformations a phase may name, one row each:
// the oracle's mode, PKCS5 padding, and what the mode takes.
var workloadModes = []struct {
	transformation string
	mode           string
	padding        bool
	ivLen          int // the IV length; 0: none (ECB); GCM: the default of any length
	blocks         bool
}{
	{"AES/GCM/NoPadding", "GCM", false, 12, false},
	{"AES/CBC/PKCS5Padding", "CBC", true, 16, false},
	{"AES/CBC/NoPadding", "CBC", false, 16, true},
	{"AES/CTR/NoPadding", "CTR", false, 16, false},
	{"AES/ECB/PKCS5Padding", "ECB", true, 0, false},
	{"AES/ECB/NoPadding", "ECB", false, 0, true},
}

// Phase choices, each a row of allowed words with its default first.
var (
	cipherLifecycles = []string{"reinit", "new", "reuse"}
	ivPolicies       = []string{"counter", "fixed", "random"}
	outputKinds      = []string{"new", "separate", "in-place"}
	startKinds       = []string{"together", "staggered"}
	prepareKinds     = []string{"writer", "thread", "cipher"}
)

// workloadKeys are the keys a workload file may use, for did-you-mean.
var (
	workloadTopKeys   = []string{"title", "notes", "seed", "threads", "start", "stagger", "phase"}
	workloadPhaseKeys = []string{"name", "transformation", "key_size", "message_size", "aad_size", "chunk", "cipher", "decrypt",
		"threads", "count", "total", "duration", "think", "iv", "iv_length", "tag_length", "output", "in_offset", "out_offset", "corrupt_tag",
		"parts", "prepare", "messages", "init_at_setup"}
)

// phaseSpec is a checked phase, ready to run.
type phaseSpec struct {
	Phase
	mode      string
	padding   bool
	blocks    bool // NoPadding ECB/CBC: whole 16-byte blocks only
	msg, aad  sizeDist
	duration  time.Duration
	think     time.Duration
	ivLen     int
	tagLen    int // bytes
	lifecycle string
	iv        string
	output    string
	prepare   string
}

// workloadHeader finds a [[phase]] table: what tells a workload file from
// a scenario file.
var workloadHeader = regexp.MustCompile(`(?m)^[ \t]*\[\[[ \t]*phase[ \t]*\]\]`)

// IsWorkload reports whether data is a workload file (it has [[phase]]
// tables) rather than a scenario file.
func IsWorkload(data []byte) bool { return workloadHeader.Match(data) }

// IsWorkloadFile reports whether the file at path is a workload file.
func IsWorkloadFile(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && IsWorkload(data)
}

// LoadWorkload reads and checks a workload file; every problem is a
// *FileError naming the file and line.
func LoadWorkload(path string) (*Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("workload file: %w", err)
	}
	return ParseWorkload(path, data)
}

// ParseWorkload is LoadWorkload on data read from path.
func ParseWorkload(path string, data []byte) (*Workload, error) {
	w := &Workload{Path: path, lines: keyLines(data)}
	f := &File{Path: path, lines: w.lines} // for its line and error helpers
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(w)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &FileError{Path: path, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, decodeError(f, err)
	}
	var errs []error
	if und := md.Undecoded(); len(und) > 0 {
		for _, k := range und {
			if len(k) > 2 && k[0] == "phase" && (k[1] == "message_size" || k[1] == "aad_size") {
				continue // a distribution's table: parseSize checks it
			}
			known := workloadTopKeys
			if len(k) > 1 && k[0] == "phase" {
				known = workloadPhaseKeys
			}
			errs = append(errs, f.fail(k.String(), "unknown key %q%s", k[len(k)-1], didYouMean(k[len(k)-1], known)))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := w.check(f); err != nil {
		return nil, err
	}
	return w, nil
}

// builtInWorkload is a workload file built into jitsim, parsed on first use
// (a process that runs none, as 'run -version' or 'explain', never parses
// one); a bad one is a bug.
func builtInWorkload(path string, data []byte) func() *Workload {
	return sync.OnceValue(func() *Workload {
		w, err := ParseWorkload(path, data)
		if err != nil {
			panic("BUG: built-in workload " + path + ": " + err.Error())
		}
		return w
	})
}

// edited returns a copy of w with edit applied to each phase as written,
// checked again: a built-in scenario's properties set on its workload file.
func (w *Workload) edited(edit func(*Phase)) (*Workload, error) {
	c := *w
	c.Phases, c.phases = slices.Clone(w.Phases), nil
	for i := range c.Phases {
		edit(&c.Phases[i])
	}
	if err := c.check(&File{Path: c.Path, lines: c.lines}); err != nil {
		return nil, err
	}
	return &c, nil
}

// didYouMean returns ` (did you mean "x"?)` for the known word closest to
// word, or the list of known words when none is close.
func didYouMean(word string, known []string) string {
	best, bestD := "", math.MaxInt
	for _, k := range known {
		if d := editDistance(strings.ToLower(word), k); d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= max(2, len(word)/3) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return fmt.Sprintf(" (known keys: %s)", strings.Join(known, ", "))
}

// parseBoundedDuration parses a Go duration ("500ms", "2s") in [0, limit].
func parseBoundedDuration(s string, limit time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a duration (e.g. \"500ms\", \"2s\")", s)
	case d < 0:
		return 0, fmt.Errorf("%q is negative", s)
	case d > limit:
		return 0, fmt.Errorf("%q is over the limit of %s", s, limit)
	}
	return d, nil
}

// choice checks word against a row of allowed words ("" is the first).
func choice(word string, allowed []string) (string, error) {
	if word == "" {
		return allowed[0], nil
	}
	if slices.Contains(allowed, word) {
		return word, nil
	}
	return "", fmt.Errorf("%q is not one of %s", word, strings.Join(allowed, ", "))
}

// check validates the decoded workload and resolves its phases.
func (w *Workload) check(f *File) error {
	var errs []error
	fail := func(key, format string, a ...any) { errs = append(errs, f.fail(key, format, a...)) }
	if w.Threads < 0 || w.Threads > maxWorkloadThreads {
		fail("threads", "threads = %d: want 1 to %d", w.Threads, maxWorkloadThreads)
	}
	if w.Threads == 0 {
		w.Threads = 1
	}
	start, err := choice(w.Start, startKinds)
	if err != nil {
		fail("start", "start: %v", err)
	}
	w.Start = start
	if w.Stagger != "" {
		if w.stagger, err = parseBoundedDuration(w.Stagger, maxThink); err != nil {
			fail("stagger", "stagger: %v", err)
		}
		if start != "staggered" {
			fail("stagger", "stagger is given but start = %q (say start = \"staggered\")", start)
		}
	} else if start == "staggered" {
		fail("start", "start = \"staggered\" needs stagger = \"…\" (the delay between thread starts)")
	}
	switch {
	case len(w.Phases) == 0:
		fail("", "no [[phase]] tables: a workload needs at least one phase")
	case len(w.Phases) > maxWorkloadPhases:
		fail("phase", "%d phases: at most %d", len(w.Phases), maxWorkloadPhases)
	}
	seen := map[string]bool{}
	for i := range w.Phases {
		p, perrs := w.checkPhase(f, i)
		errs = append(errs, perrs...)
		if p.Name != "" && seen[p.Name] {
			errs = append(errs, f.fail(fmt.Sprintf("phase.%d.name", i), "two phases are named %q", p.Name))
		}
		seen[p.Name] = true
		w.phases = append(w.phases, p)
	}
	return errors.Join(errs...)
}

// checkPhase checks phase i and returns it resolved.
func (w *Workload) checkPhase(f *File, i int) (phaseSpec, []error) {
	ph := w.Phases[i]
	at := fmt.Sprintf("phase.%d", i)
	var errs []error
	which := fmt.Sprintf("phase %d", i+1)
	if ph.Name != "" {
		which += fmt.Sprintf(" (%s)", ph.Name)
	} else {
		ph.Name = fmt.Sprintf("phase%d", i+1)
	}
	fail := func(key, format string, a ...any) {
		k := at
		if key != "" {
			k += "." + key
		}
		errs = append(errs, f.fail(k, which+": "+format, a...))
	}
	p := phaseSpec{Phase: ph}
	mi := slices.IndexFunc(workloadModes, func(m struct {
		transformation string
		mode           string
		padding        bool
		ivLen          int
		blocks         bool
	}) bool {
		return strings.EqualFold(m.transformation, ph.Transformation)
	})
	if mi < 0 {
		var names []string
		for _, m := range workloadModes {
			names = append(names, m.transformation)
		}
		fail("transformation", "transformation %q: want one of %s", ph.Transformation, strings.Join(names, ", "))
		return p, errs
	}
	m := workloadModes[mi]
	p.Transformation, p.mode, p.padding, p.blocks = m.transformation, m.mode, m.padding, m.blocks
	gcm := p.mode == "GCM"
	switch p.KeySize {
	case 0:
		p.KeySize = 128
	case 128, 192, 256:
	default:
		fail("key_size", "key_size = %d: want 128, 192 or 256", ph.KeySize)
	}
	var err error
	if p.msg, err = parseSize(ph.MessageSize, p.blocks); err != nil {
		fail("message_size", "message_size: %v", err)
	}
	if ph.AADSize != nil && !gcm {
		fail("aad_size", "aad_size: %s takes no AAD (GCM only)", p.Transformation)
	} else if p.aad, err = parseSize(ph.AADSize, false); err != nil {
		fail("aad_size", "aad_size: %v", err)
	}
	if ph.Chunk < 0 || ph.Chunk > int(jrt.DefaultMaxMessageBytes) {
		fail("chunk", "chunk = %d: want 0 (one doFinal) or a part size up to %d", ph.Chunk, jrt.DefaultMaxMessageBytes)
	}
	switch {
	case ph.Parts < 0 || ph.Parts > maxParts:
		fail("parts", "parts = %d: want 1 (one doFinal) to %d", ph.Parts, maxParts)
	case ph.Parts > 1 && ph.Chunk > 0:
		fail("parts", "give chunk (parts of a size) or parts (a number of parts), not both")
	}
	if p.prepare, err = choice(ph.Prepare, prepareKinds); err != nil {
		fail("prepare", "prepare: %v", err)
	} else if p.prepare == "cipher" && ph.Cipher == "new" {
		fail("prepare", "prepare = \"cipher\" encrypts with the thread's one Cipher: it needs cipher = \"reinit\" or \"reuse\" (cipher = %q)", ph.Cipher)
	}
	switch {
	case ph.Messages < 0 || ph.Messages > maxMessages:
		fail("messages", "messages = %d: want 1 to %d", ph.Messages, maxMessages)
	case ph.Messages > 0 && ph.Decrypt == 0:
		fail("messages", "messages is the decryptions' prepared messages; this phase has none (decrypt = 0)")
	case int64(ph.Messages)*int64(2*p.msg.maxBytes+p.aad.maxBytes+64) > maxPhaseBuffers:
		fail("messages", "%d messages of up to %d bytes are over jitsim's %d-byte bound", ph.Messages, p.msg.maxBytes, maxPhaseBuffers)
	}
	if p.lifecycle, err = choice(ph.Cipher, cipherLifecycles); err != nil {
		fail("cipher", "cipher: %v", err)
	} else if ph.InitAtSetup && p.lifecycle != "reinit" {
		fail("init_at_setup", "init_at_setup initialises a re-initialised Cipher once more at setup: it needs cipher = \"reinit\" (cipher = %q initialises %s)",
			p.lifecycle, map[string]string{"new": "a new Cipher per operation", "reuse": "its Cipher at setup already"}[p.lifecycle])
	}
	if math.IsNaN(ph.Decrypt) || ph.Decrypt < 0 || ph.Decrypt > 1 {
		fail("decrypt", "decrypt = %v: want the share of decryptions, 0 to 1", ph.Decrypt)
	}
	if math.IsNaN(ph.CorruptTag) || ph.CorruptTag < 0 || ph.CorruptTag > 1 {
		fail("corrupt_tag", "corrupt_tag = %v: want a share of decryptions, 0 to 1", ph.CorruptTag)
	} else if ph.CorruptTag > 0 && (!gcm || ph.Decrypt == 0) {
		fail("corrupt_tag", "corrupt_tag needs GCM decryptions (transformation %s, decrypt = %v)", p.Transformation, ph.Decrypt)
	}
	p.Threads = ph.Threads
	if p.Threads == 0 {
		p.Threads = w.Threads
	}
	if p.Threads < 1 || p.Threads > maxWorkloadThreads {
		fail("threads", "threads = %d: want 1 to %d", ph.Threads, maxWorkloadThreads)
	}
	given := 0
	for _, set := range []bool{ph.Count != 0, ph.Total != 0, ph.Duration != ""} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		fail("count", "give one of count, total and duration")
	case given == 0:
		fail("", "give count = N (operations per thread), total = N (in all) or duration = \"…\"")
	case ph.Total < 0 || ph.Total > maxWorkloadCount:
		fail("total", "total = %d: want 1 to %d", ph.Total, maxWorkloadCount)
	case ph.Duration != "":
		if p.duration, err = parseBoundedDuration(ph.Duration, maxWorkloadDuration); err != nil {
			fail("duration", "duration: %v", err)
		} else if p.duration == 0 {
			fail("duration", "duration: %q is zero", ph.Duration)
		}
	case ph.Count < 0 || ph.Count > maxWorkloadCount:
		fail("count", "count = %d: want 1 to %d", ph.Count, maxWorkloadCount)
	}
	if ph.Think != "" {
		if p.think, err = parseBoundedDuration(ph.Think, maxThink); err != nil {
			fail("think", "think: %v", err)
		}
	}
	if p.iv, err = choice(ph.IV, ivPolicies); err != nil {
		fail("iv", "iv: %v", err)
	}
	p.ivLen = m.ivLen
	switch {
	case m.ivLen == 0 && (ph.IV != "" || ph.IVLength != 0):
		fail("iv", "%s takes no IV", p.Transformation)
	case ph.IVLength != 0 && !gcm && ph.IVLength != m.ivLen:
		fail("iv_length", "iv_length = %d: %s takes a %d-byte IV", ph.IVLength, p.Transformation, m.ivLen)
	case ph.IVLength < 0 || ph.IVLength > maxIVLength:
		fail("iv_length", "iv_length = %d: want 1 to %d", ph.IVLength, maxIVLength)
	case ph.IVLength != 0:
		p.ivLen = ph.IVLength
	}
	p.tagLen = 16
	switch {
	case ph.TagLength != 0 && !gcm:
		fail("tag_length", "tag_length: %s has no tag", p.Transformation)
	case ph.TagLength != 0 && (ph.TagLength < 96 || ph.TagLength > 128 || ph.TagLength%8 != 0):
		fail("tag_length", "tag_length = %d: want 96, 104, 112, 120 or 128 bits", ph.TagLength)
	case ph.TagLength != 0:
		p.tagLen = ph.TagLength / 8
	}
	if p.lifecycle == "reuse" {
		switch {
		case ph.IV != "" && ph.IV != "fixed":
			fail("iv", "cipher = \"reuse\" keeps the key and IV of its one init; iv = %q needs cipher = \"reinit\" or \"new\"", ph.IV)
		case gcm && ph.Decrypt < 1:
			fail("cipher", "cipher = \"reuse\": GCM refuses to encrypt twice with one key and IV (use cipher = \"reinit\" with iv = \"counter\")")
		}
		p.iv = "fixed"
	}
	if gcm && p.iv == "fixed" && p.lifecycle == "reinit" && ph.Decrypt < 1 {
		fail("iv", "iv = \"fixed\": GCM refuses to re-init encryption with the key and IV it used last (use iv = \"counter\" or \"random\")")
	}
	if gcm && p.iv == "fixed" && p.prepare == "cipher" && ph.Decrypt > 0 && ph.Messages != 1 {
		fail("prepare", "prepare = \"cipher\" with a fixed IV encrypts every message with one key and IV, which GCM refuses after the first: give messages = 1")
	}
	if p.output, err = choice(ph.Output, outputKinds); err != nil {
		fail("output", "output: %v", err)
	}
	if err := p.checkBuffers(p.Threads); err != nil {
		fail("threads", "%v", err)
	}
	for _, o := range []struct {
		key string
		v   int
	}{{"in_offset", ph.InOffset}, {"out_offset", ph.OutOffset}} {
		if o.v < 0 || o.v > maxOffset {
			fail(o.key, "%s = %d: want 0 to %d", o.key, o.v, maxOffset)
		}
	}
	if p.output == "new" && ph.OutOffset != 0 {
		fail("out_offset", "out_offset needs output = \"separate\" or \"in-place\" (output = \"new\" returns a new array)")
	}
	if p.output == "in-place" && ph.OutOffset != 0 && ph.OutOffset != ph.InOffset {
		fail("out_offset", "output = \"in-place\" writes at in_offset; out_offset must be unset or equal")
	}
	return p, errs
}

// countFor returns how many operations thread id of n runs (count, or its share of
// total: operations id, id+n, …), and false when the phase runs for a duration instead.
func (p *phaseSpec) countFor(id, n int) (int64, bool) {
	switch {
	case p.Total > 0:
		return max(0, (p.Total-int64(id)+int64(n)-1)/int64(n)), true
	case p.Count > 0:
		return p.Count, true
	}
	return 0, false
}

// expected returns how many operations n threads of p run in all, each capped at capOps
// (MaxInt64: unknown, a duration without a cap).
func (p *phaseSpec) expected(n int, capOps int64) int64 {
	var sum int64
	for id := range n {
		c, bounded := p.countFor(id, n)
		switch {
		case !bounded && capOps == math.MaxInt64:
			return math.MaxInt64
		case !bounded:
			c = capOps
		}
		sum += min(c, capOps)
	}
	return sum
}

// checkBuffers checks that threads threads of p fit maxPhaseBuffers.
func (p *phaseSpec) checkBuffers(threads int) error {
	per := int64(p.msg.maxBytes)*3 + int64(p.aad.maxBytes) + int64(p.InOffset+p.OutOffset) + 128
	if total := per * int64(threads); total > maxPhaseBuffers {
		return fmt.Errorf("%d thread(s) × %d bytes of arrays (messages up to %d bytes) is over jitsim's %d-byte bound for one phase; use fewer threads or smaller messages",
			threads, per, p.msg.maxBytes, maxPhaseBuffers)
	}
	return nil
}

// sizeDist is a message or AAD size: fixed, a list cycled in order, or a
// distribution drawn from the phase's seeded random source.
type sizeDist struct {
	kind     string // "fixed", "list", "uniform", "lognormal", "histogram"
	list     []int  // fixed: one; list; histogram: the sizes
	weights  []float64
	total    float64
	lo, hi   int // uniform bounds, lognormal clamps
	mu, sig  float64
	blocks   bool // round draws down to whole 16-byte blocks
	maxBytes int
}

// sizeForms documents the forms a size takes, for errors.
const sizeForms = `N, [N, …], {uniform = [MIN, MAX]}, {lognormal = {median = M, sigma = S, min = MIN, max = MAX}} or {histogram = [[SIZE, WEIGHT], …]}`

// parseSize reads a size field: nil is 0.
func parseSize(v any, blocks bool) (sizeDist, error) {
	d := sizeDist{kind: "fixed", list: []int{0}, blocks: blocks}
	size := func(x any, what string) (int, error) {
		n, ok := x.(int64)
		if !ok {
			return 0, fmt.Errorf("%s %v is not an integer", what, x)
		}
		if n < 0 {
			return 0, fmt.Errorf("%s %d is negative", what, n)
		}
		if err := jrt.CheckMessageSize(what, n); err != nil {
			return 0, err
		}
		if blocks && n%16 != 0 {
			return 0, fmt.Errorf("%s %d is not a whole number of 16-byte blocks (NoPadding)", what, n)
		}
		return int(n), nil
	}
	switch x := v.(type) {
	case nil:
		return d, nil
	case int64:
		n, err := size(x, "size")
		d.list[0] = n
		d.maxBytes = n
		return d, err
	case []any:
		if len(x) == 0 || len(x) > maxListSizes {
			return d, fmt.Errorf("a list of %d sizes: want 1 to %d", len(x), maxListSizes)
		}
		d.kind, d.list = "list", nil
		for _, e := range x {
			n, err := size(e, "size")
			if err != nil {
				return d, err
			}
			d.list = append(d.list, n)
			d.maxBytes = max(d.maxBytes, n)
		}
		return d, nil
	case map[string]any:
		if len(x) != 1 {
			return d, fmt.Errorf("want one distribution, got keys %s; forms: %s", strings.Join(sortedKeys(x), ", "), sizeForms)
		}
		for k, body := range x {
			switch k {
			case "uniform":
				b, ok := body.([]any)
				if !ok || len(b) != 2 {
					return d, fmt.Errorf("uniform = [MIN, MAX]")
				}
				lo, err := size(b[0], "uniform min")
				if err != nil {
					return d, err
				}
				hi, err := size(b[1], "uniform max")
				if err != nil {
					return d, err
				}
				if lo > hi {
					return d, fmt.Errorf("uniform = [%d, %d]: min is above max", lo, hi)
				}
				d.kind, d.lo, d.hi, d.maxBytes = "uniform", lo, hi, hi
				return d, nil
			case "lognormal":
				b, ok := body.(map[string]any)
				if !ok {
					return d, fmt.Errorf("lognormal = {median = M, sigma = S, min = MIN, max = MAX}")
				}
				num := func(k string) (float64, bool) {
					switch n := b[k].(type) {
					case int64:
						return float64(n), true
					case float64:
						return n, true
					}
					return 0, false
				}
				for k := range b {
					if !slices.Contains([]string{"median", "sigma", "min", "max"}, k) {
						return d, fmt.Errorf("lognormal: unknown key %q%s", k, didYouMean(k, []string{"median", "sigma", "min", "max"}))
					}
				}
				med, ok1 := num("median")
				sig, ok2 := num("sigma")
				if !ok1 || !ok2 || !(med > 0) || !(sig >= 0) || sig > 10 || math.IsInf(med, 0) {
					return d, fmt.Errorf("lognormal needs median > 0 and 0 <= sigma <= 10 (numbers)")
				}
				lo := 0
				if _, set := b["min"]; set {
					var err error
					if lo, err = size(b["min"], "lognormal min"); err != nil {
						return d, err
					}
				}
				if _, set := b["max"]; !set {
					return d, fmt.Errorf("lognormal needs max (the largest size it may draw)")
				}
				hi, err := size(b["max"], "lognormal max")
				if err != nil {
					return d, err
				}
				if lo > hi {
					return d, fmt.Errorf("lognormal min %d is above max %d", lo, hi)
				}
				d.kind, d.mu, d.sig, d.lo, d.hi, d.maxBytes = "lognormal", math.Log(med), sig, lo, hi, hi
				return d, nil
			case "histogram":
				b, ok := body.([]any)
				if !ok || len(b) == 0 || len(b) > maxListSizes {
					return d, fmt.Errorf("histogram = [[SIZE, WEIGHT], …] with 1 to %d rows", maxListSizes)
				}
				d.kind, d.list = "histogram", nil
				for _, row := range b {
					r, ok := row.([]any)
					if !ok || len(r) != 2 {
						return d, fmt.Errorf("histogram row %v: want [SIZE, WEIGHT]", row)
					}
					n, err := size(r[0], "histogram size")
					if err != nil {
						return d, err
					}
					var wt float64
					switch x := r[1].(type) {
					case int64:
						wt = float64(x)
					case float64:
						wt = x
					default:
						return d, fmt.Errorf("histogram weight %v is not a number", r[1])
					}
					if !(wt >= 0) || math.IsInf(wt, 0) {
						return d, fmt.Errorf("histogram weight %v: want a finite number >= 0", r[1])
					}
					d.list, d.weights, d.total = append(d.list, n), append(d.weights, wt), d.total+wt
					d.maxBytes = max(d.maxBytes, n)
				}
				if !(d.total > 0) {
					return d, fmt.Errorf("histogram weights sum to %v; want more than 0", d.total)
				}
				return d, nil
			default:
				return d, fmt.Errorf("unknown distribution %q%s; forms: %s", k, didYouMean(k, []string{"uniform", "lognormal", "histogram"}), sizeForms)
			}
		}
	}
	return d, fmt.Errorf("%v is not a size; forms: %s", v, sizeForms)
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// String describes d as the file wrote it.
func (d sizeDist) String() string {
	switch d.kind {
	case "fixed":
		return fmt.Sprint(d.list[0])
	case "list":
		return fmt.Sprint(d.list)
	case "uniform":
		return fmt.Sprintf("uniform %d–%d", d.lo, d.hi)
	case "lognormal":
		return fmt.Sprintf("log-normal median %.0f sigma %g in %d–%d", math.Exp(d.mu), d.sig, d.lo, d.hi)
	}
	return fmt.Sprintf("histogram of %d sizes", len(d.list))
}
