package scenario

import (
	"context"
	_ "embed"
	"fmt"
	"time"
)

// ParquetDecrypt is a short-lived job in the manner of a Spark task reading
// an encrypted Parquet file (the workload Gidon Gershinsky brought to the
// 2018 thread that led to Haley's proof of concept): many small
// AES/GCM/NoPadding pages, each with its own 12-byte nonce and a module AAD
// (file AAD, module type, row-group, column and page ordinals), decrypted
// once each. The job ends long before C2 has compiled the GCM code, so it
// runs almost entirely in the interpreter and C1: the job that never warms
// up. The pages are written on a separate VM (Env.NewVM) so that writing
// does not warm the reader. The job is the shipped workload file
// parquetdecrypt.toml, run on the workload engine.
var ParquetDecrypt = register(Scenario{
	Name: "ParquetDecrypt",
	Doc:  "a short-lived Parquet-like job: decrypt many small AES/GCM pages once each (never warms up)",
	Args: "(none)",
	Props: []Property{
		{Name: "pages", Default: "500", Doc: "pages to decrypt (split across threads)"},
		{Name: "pageSize", Default: "4096", Doc: "plaintext bytes per page"},
		{Name: "keySize", Default: "128", Doc: "key bits: 128, 192, 256"},
	},
	run:     runParquetDecrypt,
	shipped: parquetWorkload,
})

// parquetFile is ParquetDecrypt as a workload file, shipped as
// examples/workloads/parquetdecrypt.toml (a link to this one).
//
//go:embed workloads/parquetdecrypt.toml
var parquetFile []byte

// parquetWorkload is parquetFile, checked.
var parquetWorkload = builtInWorkload("parquetdecrypt.toml", parquetFile)

// runParquetDecrypt runs the shipped parquetdecrypt.toml on the workload engine with the
// properties applied — the pages written on the writer VM, then decrypted on r.threads
// threads, page i on thread i mod threads — and prints the throughput of the first and last
// tenth of the job beside the whole.
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
	if bits != 128 && bits != 192 && bits != 256 {
		return fmt.Errorf("property keySize=%d: want 128, 192 or 256", bits)
	}
	if n > maxMessages {
		return fmt.Errorf("property pages=%d: at most %d (each page is written before the job)", n, maxMessages)
	}
	w, err := parquetWorkload().edited(func(ph *Phase) {
		ph.Total, ph.Messages, ph.MessageSize, ph.KeySize = int64(n), n, int64(size), bits
	})
	if err != nil {
		return err
	}
	set, err := w.settleOwnSeed(r.threads)
	if err != nil {
		return err
	}
	if r.env.NewVM == nil {
		r.out.printf("(no VM factory: the pages are written on the reader's VM, which warms it)\n")
	}
	took := make([]time.Duration, n)
	threads := r.threads
	rep := &wlReport{
		started: func() {
			r.out.printf("ParquetDecrypt: %d pages of %d B, AES/GCM/NoPadding, %d-bit key, %d thread(s)\n", n, size, bits, threads)
		},
		op: func(thread, index int, d time.Duration) { took[index*threads+thread] = d },
		done: func(wall time.Duration) {
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
		},
	}
	if err := runWorkloadSet(ctx, r, w, set, nil, rep); err != nil {
		return err
	}
	return r.out.err
}
