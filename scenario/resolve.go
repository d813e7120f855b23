package scenario

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A workload resolved for a real JVM. `jitsim warmup --jvm` runs a workload file on the
// JVM through the harness's trace replayer (jvmharness/JitsimTraceReplay.java), which parses
// no TOML: jitsim resolves the workload into a trace — the very operations its own engine
// runs, drawn by plan and planPool from the same seed — and the replayer runs that trace.
// Three things a trace line cannot say travel in comment lines, which jitsim's trace reader
// skips (so a resolved trace also replays with `jitsim run`):
//
//	# jitsim-phase threads=T cipher=reinit chunk=0 parts=1 output=new in_offset=0 out_offset=0 iv_length=12 tag_length=128 think_ns=0 stagger_ns=0 [setup_init=encrypt|decrypt] name=NAME
//	# jitsim-corrupt                  the next line's decryption carries a corrupted tag
//
// A phase's lines follow its jitsim-phase line; its threads start together, and every one
// ends before the next phase starts. Decryptions read messages jitsim encrypts (a JVM that
// encrypted them itself would warm the code under study): the messages file beside the
// trace holds one per (phase, transformation, key size, size, AAD size), for prepare =
// "thread" and "cipher" too (the replayer does not encrypt them on the JVM first, as jitsim's
// thread does).
//
// Keys, plaintexts, AADs and IVs are the function fill of their size and a salt, the same in
// Go and Java, so that jitsim knows every output the replay must produce: the replayer
// prints, per thread, its operations, rejected tags and a CRC-32 of every output byte in
// order (jitsim-check THREAD OPS REJECTED CRC), and Verify holds them to jitsim's.

// fill returns n bytes of the pattern the replayer also makes: byte j is
// (j mod 256)·131 + salt·29 + 7, mod 256.
func fill(n, salt int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte((j&0xff)*131 + salt*29 + 7)
	}
	return b
}

// The salts of fill.
const (
	saltPlain   = 1
	saltAAD     = 2
	saltMessage = 50  // the IV of every prepared message
	saltThread  = 100 // + thread: a thread's first encryption IV in a phase
)

// maxResolvedOps bounds a resolved trace (the replayer holds its operations).
const maxResolvedOps = 2_000_000

// messagesMagic starts a messages file ("JSIM", then version 1).
const messagesMagic = 0x4A53494D

// ReplayCheck is what one replaying thread must report.
type ReplayCheck struct {
	Thread   int
	Ops      int64
	Rejected int64
	CRC      uint32
}

// Resolved is a workload resolved into a trace for the replayer.
type Resolved struct {
	Trace    string // the trace file
	Messages string // the prepared messages file
	Ops      int64
	Threads  int // the most threads of a phase
	// Phases are the phases in order with thread 0's operations in each: the replayer
	// prints thread 0's operations phase after phase, and this splits them.
	Phases []ResolvedPhase
	want   map[int]*ReplayCheck
}

// ResolvedPhase is one phase of a resolved trace: its name and thread 0's operations.
type ResolvedPhase struct {
	Name string
	Ops  int64
}

// Resolve writes w as a trace and its messages file into dir (the file's base name with
// .trace.csv and .msgs) with the properties msgSize, aadSize, maxOps, seed and threads applied as a
// run applies them. A phase that runs for a duration needs -DmaxOps (a trace is a count).
func (w *Workload) Resolve(dir string, props map[string]string) (*Resolved, error) {
	get := func(name string) (string, bool) {
		if v, ok := props[name]; ok {
			return v, true
		}
		if name == "seed" {
			return strconv.FormatInt(w.Seed, 10), false
		}
		return "", false
	}
	threads := 0
	if v, ok := props["threads"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("property threads=%q is not a thread count", v)
		}
		threads = n
	}
	set, err := w.settle(get, threads)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(w.Path), ".toml")
	res := &Resolved{Trace: filepath.Join(dir, base+".trace.csv"), Messages: filepath.Join(dir, base+".msgs"), want: map[int]*ReplayCheck{}}
	var total int64
	for i := range set.phases {
		p := &set.phases[i]
		n := set.threadsFor(p)
		if p.expected(n, set.capOps) == math.MaxInt64 {
			return nil, fmt.Errorf("%s: phase %q runs for %s; a trace counts operations: give -DmaxOps=N (validate: --max-ops=N)", w.Path, p.Name, p.duration)
		}
		total += p.expected(n, set.capOps)
		if total > maxResolvedOps {
			return nil, fmt.Errorf("%s: %d operations or more; a resolved trace holds at most %d (give -DmaxOps=N; validate: --max-ops=N)", w.Path, total, maxResolvedOps)
		}
	}
	tf, err := os.Create(res.Trace)
	if err != nil {
		return nil, err
	}
	defer tf.Close()
	mf, err := os.Create(res.Messages)
	if err != nil {
		return nil, err
	}
	defer mf.Close()
	tw, mw := bufio.NewWriter(tf), bufio.NewWriter(mf)
	var msgs bytes.Buffer // the records; the count goes first
	nmsgs := 0
	fmt.Fprintf(tw, "# %s resolved by jitsim (seed %d): the operations its engine runs\n%s\n", w.Path, set.seed, TraceHeader)
	var phaseAt time.Duration
	for pi := range set.phases {
		p := &set.phases[pi]
		n := set.threadsFor(p)
		res.Threads = max(res.Threads, n)
		var stagger time.Duration
		if w.Start == "staggered" {
			stagger = w.stagger
		}
		setupInit := ""
		if p.InitAtSetup {
			setupInit = " setup_init=encrypt"
			if p.Decrypt >= 1 {
				setupInit = " setup_init=decrypt"
			}
		}
		fmt.Fprintf(tw, "# jitsim-phase threads=%d cipher=%s chunk=%d parts=%d output=%s in_offset=%d out_offset=%d iv_length=%d tag_length=%d think_ns=%d stagger_ns=%d%s name=%s\n",
			n, p.lifecycle, p.Chunk, max(p.Parts, 1), p.output, p.InOffset, p.OutOffset, p.ivLen, p.tagLen*8, p.think.Nanoseconds(), stagger.Nanoseconds(), setupInit, p.Name)
		_, fixedIV := phaseKey(set.seed, pi, p)
		var pool []poolItem
		if p.Decrypt > 0 && p.prepare == "writer" {
			pool = planPool(p, workloadRand(set.seed, pi, -1), fixedIV, p.expected(n, set.capOps))
		}
		key := fill(p.KeySize/8, p.KeySize)
		spec := oracleSpec{mode: p.mode, padding: p.padding, key: key, tagLen: p.tagLen}
		prepared := map[[2]int]bool{}
		var longest time.Duration
		for id := range n {
			if p.prepare != "writer" && p.Decrypt > 0 {
				pool = planPool(p, threadPoolRand(set.seed, pi, id), fixedIV, p.expected(1, set.capOps))
			}
			t := newDrawer(p, workloadRand(set.seed, pi, id), fixedIV, pool)
			chk := res.want[id]
			if chk == nil {
				chk = &ReplayCheck{Thread: id}
				res.want[id] = chk
			}
			sum := chk.CRC
			iv := fill(p.ivLen, saltThread+id)
			at := phaseAt + time.Duration(id)*stagger
			count, bounded := p.countFor(id, n)
			if !bounded || count > set.capOps {
				count = set.capOps
			}
			if id == 0 {
				res.Phases = append(res.Phases, ResolvedPhase{Name: p.Name, Ops: count})
			}
			for range count {
				o := t.plan()
				op, size, aad := "encrypt", o.size, o.aad
				if o.decrypt {
					it := t.pool[o.item]
					op, size, aad = "decrypt", len(it.plain), len(it.aad)
					if k := [2]int{size, aad}; !prepared[k] {
						prepared[k] = true
						ct, err := oracleEncrypt(withIV(spec, fill(p.ivLen, saltMessage), fill(aad, saltAAD)), fill(size, saltPlain))
						if err != nil {
							return nil, err
						}
						writeMessage(&msgs, pi, p.Transformation, p.KeySize, size, aad, ct)
						nmsgs++
					}
				}
				if o.corrupt {
					fmt.Fprintln(tw, "# jitsim-corrupt")
				}
				fmt.Fprintf(tw, "%d,%s,%s,%s,%d,%d,%d\n", id, strconv.FormatFloat(float64(at.Nanoseconds())/1e3, 'f', -1, 64), op, p.Transformation, p.KeySize, size, aad)
				at += p.think
				chk.Ops++
				switch {
				case o.corrupt:
					chk.Rejected++
				case o.decrypt:
					sum = crc32.Update(sum, crc32.IEEETable, fill(size, saltPlain))
				default:
					if p.lifecycle != "reuse" {
						nextIV(iv)
					}
					ct, err := oracleEncrypt(withIV(spec, iv, fill(aad, saltAAD)), fill(size, saltPlain))
					if err != nil {
						return nil, err
					}
					sum = crc32.Update(sum, crc32.IEEETable, ct)
				}
			}
			chk.CRC = sum
			longest = max(longest, at-phaseAt)
		}
		phaseAt += longest
		res.Ops += p.expected(n, set.capOps)
	}
	var head [12]byte
	binary.BigEndian.PutUint32(head[0:], messagesMagic)
	binary.BigEndian.PutUint32(head[4:], 1)
	binary.BigEndian.PutUint32(head[8:], uint32(nmsgs))
	mw.Write(head[:])
	mw.Write(msgs.Bytes())
	for _, c := range []interface{ Flush() error }{tw, mw} {
		if err := c.Flush(); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(tf.Close(), mf.Close()); err != nil {
		return nil, err
	}
	return res, nil
}

// withIV is spec with iv (none for ECB) and aad.
func withIV(spec oracleSpec, iv, aad []byte) oracleSpec {
	if spec.mode != "ECB" {
		spec.iv = iv
	}
	spec.aad = aad
	return spec
}

// writeMessage appends one prepared message's record: phase, transformation (Java's
// modified UTF-8, here plain ASCII), key bits, size, AAD size, ciphertext length and bytes,
// big-endian as DataInputStream reads them.
func writeMessage(b *bytes.Buffer, phase int, transformation string, keyBits, size, aad int, ct []byte) {
	var n [4]byte
	put := func(v int) {
		binary.BigEndian.PutUint32(n[:], uint32(v))
		b.Write(n[:])
	}
	put(phase)
	binary.BigEndian.PutUint16(n[:2], uint16(len(transformation)))
	b.Write(n[:2])
	b.WriteString(transformation)
	put(keyBits)
	put(size)
	put(aad)
	put(len(ct))
	b.Write(ct)
}

// Verify reads the replayer's jitsim-check lines from its output and holds every thread's
// operations, rejected tags and CRC to what jitsim computed: a replay that ran other
// operations, or whose JVM produced other bytes, is an error naming the thread.
func (r *Resolved) Verify(out []byte) error {
	got := map[int]ReplayCheck{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "jitsim-check" {
			continue
		}
		if len(f) != 5 {
			return fmt.Errorf("replay: bad line %q (want jitsim-check THREAD OPS REJECTED CRC)", sc.Text())
		}
		var c ReplayCheck
		var err error
		var crc uint64
		if c.Thread, err = strconv.Atoi(f[1]); err == nil {
			if c.Ops, err = strconv.ParseInt(f[2], 10, 64); err == nil {
				if c.Rejected, err = strconv.ParseInt(f[3], 10, 64); err == nil {
					crc, err = strconv.ParseUint(f[4], 10, 32)
				}
			}
		}
		if err != nil {
			return fmt.Errorf("replay: bad line %q", sc.Text())
		}
		c.CRC = uint32(crc)
		got[c.Thread] = c
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	var errs []error
	for id := range r.Threads {
		want, g := r.want[id], got[id]
		switch {
		case want == nil:
		case g.Ops == 0 && g.CRC == 0 && g.Rejected == 0:
			errs = append(errs, fmt.Errorf("replay: thread %d reported no check line", id))
		case g.Ops != want.Ops || g.Rejected != want.Rejected:
			errs = append(errs, fmt.Errorf("replay: thread %d ran %d operations (%d rejected), want %d (%d rejected)", id, g.Ops, g.Rejected, want.Ops, want.Rejected))
		case g.CRC != want.CRC:
			errs = append(errs, fmt.Errorf("replay: thread %d's outputs have CRC-32 %d, want %d: the JVM's bytes differ from crypto/cipher's", id, g.CRC, want.CRC))
		}
	}
	return errors.Join(errs...)
}

// Expected returns the checks Verify holds the replay to, by thread.
func (r *Resolved) Expected() []ReplayCheck {
	out := make([]ReplayCheck, 0, len(r.want))
	for id := range r.Threads {
		if c := r.want[id]; c != nil {
			out = append(out, *c)
		}
	}
	return out
}
