package scenario

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jce"
)

// Scenario returns the trace as a scenario named by its file's base name:
// each of the trace's threads replays its own lines in order, waiting for
// each line's at_us on the model clock (and on the wall clock with
// -Dpaced=true), and the run prints the operations, bytes, throughput and
// latency percentiles. The trace's threads are its own: --threads does not
// change them.
func (t *Trace) Scenario() Scenario {
	name := strings.TrimSuffix(filepath.Base(t.Path), filepath.Ext(t.Path))
	return withCommonProps(Scenario{
		Name: name,
		Doc:  "trace " + t.Path,
		Args: "(none)",
		Props: []Property{
			{Name: "paced", Default: "false", Doc: "on the wall clock too, wait for each operation's at_us (the model clock always does)"},
			{Name: "seed", Default: "1", Doc: "the seed of keys, IVs and data"},
		},
		run: func(ctx context.Context, r *runner) error { return runTrace(ctx, r, t) },
	})
}

// traceThread is one replaying thread's state.
type traceThread struct {
	ciphers map[[2]int]*jce.Cipher // by (mode, key bits)
	ivs     map[int][]byte         // by mode: the encryption IV counter
	data    []byte
	aad     []byte
	st      phaseStats
}

// runTrace replays t.
func runTrace(ctx context.Context, r *runner, t *Trace) error {
	if _, err := r.intArgs(nil, nil); err != nil {
		return err
	}
	paced, err := r.boolProp("paced")
	if err != nil {
		return err
	}
	paced = paced || r.env.VM.ModelClock()
	seedText, _ := r.prop("seed")
	seed, err := strconv.ParseInt(strings.TrimSpace(seedText), 10, 64)
	if err != nil {
		return fmt.Errorf("property seed=%q is not an integer", seedText)
	}
	keys := map[int][]byte{}
	for _, bits := range []int{128, 192, 256} {
		keys[bits] = randBytes(workloadRand(seed, bits, -2), bits/8)
	}
	// The decryptions' messages, encrypted before the replay on a writer VM.
	items := make([]poolItem, len(t.order))
	if len(items) > 0 {
		writer := r.env.VM
		if r.env.NewVM != nil {
			if writer, err = r.env.NewVM(); err != nil {
				return fmt.Errorf("writer VM: %w", err)
			}
			defer writer.Close()
		}
		inv := threadInvoker{VM: writer, Thread: writer.NewThread("writer")}
		inv.Thread.Enter()
		rng := workloadRand(seed, 0, -1)
		for i, s := range t.order {
			m := workloadModes[s.mode]
			p := &phaseSpec{Phase: Phase{Name: "trace", Transformation: m.transformation}, mode: m.mode, padding: m.padding, ivLen: m.ivLen, tagLen: 16}
			it := poolItem{plain: randBytes(rng, s.size), aad: randBytes(rng, s.aad), iv: randBytes(rng, m.ivLen)}
			c, err := jce.NewCipher(ctx, inv, r.rel, m.transformation, jce.EncryptMode, keys[s.keyBits], p.paramSpec(it.iv))
			if err == nil && len(it.aad) > 0 {
				err = c.UpdateAAD(it.aad)
			}
			if err == nil {
				it.ct, err = c.DoFinal(ctx, it.plain)
			}
			if err == nil && r.check {
				var want []byte
				if want, err = p.oracle(keys[s.keyBits], it.iv, it.aad, it.plain); err == nil {
					err = checkBytes("trace message encryption vs crypto/cipher", it.ct, want)
				}
			}
			if err != nil {
				inv.Thread.Exit()
				return err
			}
			items[i] = it
		}
		inv.Thread.Exit()
	}
	ths := make([]*traceThread, t.threads)
	start := newBarrier(t.threads)
	t0 := r.now()
	err = r.parallelN(ctx, r.env.VM, t.threads, func(ctx context.Context, id int, inv jce.Invoker) error {
		rc, err := t.open()
		if err != nil {
			start.leave(inv)
			return fmt.Errorf("trace: %w", err)
		}
		defer rc.Close()
		rd, err := newTraceReader(t.Path, bufio.NewReaderSize(rc, traceOpenBufferSize))
		if err != nil {
			start.leave(inv)
			return err
		}
		rng := workloadRand(seed, 1, id)
		th := &traceThread{ciphers: map[[2]int]*jce.Cipher{}, ivs: map[int][]byte{},
			data: randBytes(rng, t.maxSize[id]), aad: randBytes(rng, t.maxAAD[id])}
		ths[id] = th
		if err := start.wait(ctx, inv); err != nil {
			return err
		}
		vmth := threadOf(inv)
		begin := r.now()
		prefix := []byte(strconv.Itoa(id) + ",")
		index := 0
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			op, err := rd.nextFor(prefix)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if paced {
				if wait := begin + op.at - r.now(); wait > 0 {
					if err := vmth.Sleep(ctx, wait); err != nil {
						return err
					}
				}
			}
			s0 := r.now()
			d, err := r.traceOp(ctx, inv, th, op, keys, items, t, rng)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", t.Path, op.line, err)
			}
			r.observe(Iteration{Phase: "replay", Thread: id, Index: index, Start: s0, Duration: d, Ops: 1, Bytes: int64(op.size)})
			index++
		}
	})
	if err != nil {
		return err
	}
	elapsed := r.now() - t0
	var all phaseStats
	for _, th := range ths {
		all.ops += th.st.ops
		all.bytes += th.st.bytes
		all.hist.merge(&th.st.hist)
	}
	pace := "as fast as it goes (-Dpaced=true honours at_us)"
	if paced {
		pace = "at its at_us offsets"
	}
	r.printStats(fmt.Sprintf("trace %s: %d thread(s), %d operations, replayed %s", t.Path, t.threads, t.Ops, pace), all, elapsed)
	return r.out.err
}

// nextFor returns the next operation of the thread whose lines start
// with prefix ("3,"), skipping the others' without parsing them.
func (t *traceReader) nextFor(prefix []byte) (traceOp, error) {
	for {
		if !t.sc.Scan() {
			if err := t.sc.Err(); err != nil {
				return traceOp{}, fmt.Errorf("%s: %w", t.path, err)
			}
			return traceOp{}, io.EOF
		}
		t.line++
		b := bytes.TrimSpace(t.sc.Bytes()) // no string for the other threads' lines
		if bytes.HasPrefix(b, prefix) {
			return t.parse(string(b))
		}
	}
}

// traceOp does one operation of a trace and returns its time: a Cipher
// per transformation and key size, re-initialised for every operation
// (a counter IV for encryptions, the prepared message's for decryptions),
// the AAD, one doFinal; checked when checking.
func (r *runner) traceOp(ctx context.Context, inv jce.Invoker, th *traceThread, op traceOp, keys map[int][]byte, items []poolItem, t *Trace, rng interface{ Uint32() uint32 }) (time.Duration, error) {
	m := workloadModes[op.mode]
	p := &phaseSpec{Phase: Phase{Name: "trace", Transformation: m.transformation}, mode: m.mode, padding: m.padding, ivLen: m.ivLen, tagLen: 16}
	key := keys[op.keyBits]
	var input, iv, aad, plain []byte
	mode := jce.EncryptMode
	if op.decrypt {
		it := items[t.shapes[traceShape{op.mode, op.keyBits, op.size, op.aad}]]
		input, iv, aad, plain, mode = it.ct, it.iv, it.aad, it.plain, jce.DecryptMode
	} else {
		plain, aad = th.data[:op.size], th.aad[:op.aad]
		input = plain
		if m.ivLen > 0 {
			v, ok := th.ivs[op.mode]
			if !ok {
				v = make([]byte, m.ivLen)
				for i := range v {
					v[i] = byte(rng.Uint32())
				}
				th.ivs[op.mode] = v
			}
			nextIV(v)
			iv = v
		}
	}
	c := th.ciphers[[2]int{op.mode, op.keyBits}]
	var err error
	if c == nil {
		if c, err = jce.GetInstance(inv, r.rel, m.transformation); err != nil {
			return 0, err
		}
		th.ciphers[[2]int{op.mode, op.keyBits}] = c
	}
	s0 := r.now()
	err = c.Init(ctx, mode, key, p.paramSpec(iv))
	if err == nil && len(aad) > 0 {
		err = c.UpdateAAD(aad)
	}
	var got []byte
	if err == nil {
		got, err = c.DoFinal(ctx, input)
	}
	d := r.now() - s0
	if err != nil {
		return d, err
	}
	th.st.ops++
	th.st.bytes += int64(op.size)
	th.st.hist.add(d)
	if !r.check {
		return d, nil
	}
	if op.decrypt {
		return d, checkBytes("trace decryption vs plaintext", got, plain)
	}
	want, err := p.oracle(key, iv, aad, plain)
	if err != nil {
		return d, err
	}
	return d, checkBytes("trace encryption vs crypto/cipher", got, want)
}
