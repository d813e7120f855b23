package scenario

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"github.com/jitsim/jitsim/jce"
)

// ParquetDecrypt is a short-lived job in the manner of a Spark task reading
// an encrypted Parquet file (the workload Gidon Gershinsky brought to the
// 2018 thread that led to Haley's proof of concept): many small
// AES/GCM/NoPadding pages, each with its own 12-byte nonce and a module AAD
// (file AAD, module type, row-group, column and page ordinals), decrypted
// once each. The job ends long before C2 has compiled the GCM code, so it
// runs almost entirely in the interpreter and C1: the job that never warms
// up. The pages are written on a separate VM (Env.NewVM) so that writing
// does not warm the reader.
var ParquetDecrypt = register(Scenario{
	Name: "ParquetDecrypt",
	Doc:  "a short-lived Parquet-like job: decrypt many small AES/GCM pages once each (never warms up)",
	Args: "(none)",
	Props: []Property{
		{Name: "pages", Default: "500", Doc: "pages to decrypt (split across threads)"},
		{Name: "pageSize", Default: "4096", Doc: "plaintext bytes per page"},
		{Name: "keySize", Default: "128", Doc: "key bits: 128, 192, 256"},
	},
	run: runParquetDecrypt,
})

// parquetPage is one encrypted page.
type parquetPage struct {
	nonce, aad, ct, plain []byte
}

// parquetAAD is Parquet's module AAD for a data page: the file AAD, the
// module type (2 = data page), then the row-group, column and page
// ordinals as little-endian int16s.
func parquetAAD(fileAAD []byte, i int) []byte {
	aad := append([]byte(nil), fileAAD...)
	aad = append(aad, 2)
	aad = binary.LittleEndian.AppendUint16(aad, 0)
	aad = binary.LittleEndian.AppendUint16(aad, uint16(i>>15))
	return binary.LittleEndian.AppendUint16(aad, uint16(i&0x7fff))
}

// runParquetDecrypt writes the pages, then decrypts them on r.threads
// threads, page i on thread i mod threads, and prints the throughput of the
// first and last tenth of the job beside the whole.
func runParquetDecrypt(ctx context.Context, r *runner) error {
	if _, err := r.intArgs(nil, nil); err != nil {
		return err
	}
	n, err := r.minIntProp("pages", 1)
	if err != nil {
		return err
	}
	size, err := r.minIntProp("pageSize", 0)
	if err != nil {
		return err
	}
	bits, err := r.intProp("keySize")
	if err != nil {
		return err
	}
	rng := benchRand("ParquetDecrypt", 0)
	key, err := keyBytes(rng, "keySize", bits)
	if err != nil {
		return err
	}
	fileAAD := randBytes(rng, 8)
	pages := make([]parquetPage, n)
	for i := range pages {
		pages[i] = parquetPage{nonce: randBytes(rng, 12), aad: parquetAAD(fileAAD, i), plain: randBytes(rng, size)}
	}
	writer := r.env.VM
	if r.env.NewVM != nil {
		w, err := r.env.NewVM()
		if err != nil {
			return fmt.Errorf("writer VM: %w", err)
		}
		defer w.Close()
		writer = w
	} else {
		r.out.printf("(no VM factory: the pages are written on the reader's VM, which warms it)\n")
	}
	winv := threadInvoker{VM: writer, Thread: writer.NewThread("writer")}
	// On the model clock the writer is a simulated thread of its VM; it
	// leaves before the readers start (they may share that VM).
	winv.Thread.Enter()
	exitWriter := sync.OnceFunc(winv.Thread.Exit)
	defer exitWriter()
	enc, err := jce.GetInstance(winv, r.rel, "AES/GCM/NoPadding")
	if err != nil {
		return err
	}
	for i := range pages {
		p := &pages[i]
		if err := enc.Init(ctx, jce.EncryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: p.nonce}); err != nil {
			return err
		}
		if err := enc.UpdateAAD(p.aad); err != nil {
			return err
		}
		if p.ct, err = enc.DoFinal(ctx, p.plain); err != nil {
			return err
		}
		p.ct = inHeap(winv, p.ct)
		if r.check {
			want, err := oracleEncrypt(oracleSpec{mode: "GCM", key: key, iv: p.nonce, aad: p.aad, tagLen: 16}, p.plain)
			if err != nil {
				return err
			}
			if err := checkBytes(fmt.Sprintf("page %d encryption vs crypto/cipher", i), p.ct, want); err != nil {
				return err
			}
		}
	}
	exitWriter()
	r.out.printf("ParquetDecrypt: %d pages of %d B, AES/GCM/NoPadding, %d-bit key, %d thread(s)\n", n, size, bits, r.threads)
	took := make([]time.Duration, n)
	start := r.now()
	err = r.parallel(ctx, r.env.VM, func(ctx context.Context, id int, inv jce.Invoker) error {
		dec, err := jce.GetInstance(inv, r.rel, "AES/GCM/NoPadding")
		if err != nil {
			return err
		}
		for i := id; i < n; i += r.threads {
			p := &pages[i]
			t0 := r.now()
			if err := dec.Init(ctx, jce.DecryptMode, key, jce.GCMParameterSpec{TLen: 128, IV: p.nonce}); err != nil {
				return err
			}
			if err := dec.UpdateAAD(p.aad); err != nil {
				return err
			}
			pt, err := dec.DoFinal(ctx, p.ct)
			if err != nil {
				return fmt.Errorf("page %d: %w", i, err)
			}
			d := r.now() - t0
			took[i] = d
			r.observe(Iteration{Phase: "page", Thread: id, Index: i / r.threads, Start: t0, Duration: d, Ops: 1, Bytes: int64(size)})
			if r.check {
				if err := checkBytes(fmt.Sprintf("page %d decryption", i), pt, p.plain); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	wall := r.now() - start
	tenth := max(1, n/10)
	rate := func(ds []time.Duration) float64 {
		var sum time.Duration
		for _, d := range ds {
			sum += d
		}
		if sum <= 0 {
			return 0
		}
		return float64(len(ds)*size) / sum.Seconds() / 1e6
	}
	r.out.printf("first %d pages: %.3f MB/s per thread; last %d pages: %.3f MB/s per thread\n", tenth, rate(took[:tenth]), tenth, rate(took[n-tenth:]))
	r.out.printf("job: %s ms, %.3f MB/s\n", javaDouble(float64(wall.Nanoseconds())/1e6), float64(n*size)/wall.Seconds()/1e6)
	return r.out.err
}
