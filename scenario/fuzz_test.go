package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// FuzzParseFile checks that no scenario file, however broken, panics the
// loader, and that a file it accepts yields runnable variants.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte("scenario = \"TestAESMain\"\n[properties]\nmode = \"GCM\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseFile("fuzz.toml", data)
		if err != nil {
			if _, ok := err.(interface{ Unwrap() []error }); !ok {
				if _, ok := err.(*FileError); !ok {
					t.Fatalf("error %T is neither a *FileError nor a joined list of them: %v", err, err)
				}
			}
			return
		}
		for _, r := range file.Runs() {
			if r.Scenario.run == nil || r.Variant == "" {
				t.Fatalf("accepted file gives an unrunnable variant %+v", r)
			}
		}
	})
}

// FuzzParseWorkload checks that no workload file, however broken, panics
// the parser or passes without its phases resolved, and that every error
// is a *FileError (or a joined list of them) naming the file.
func FuzzParseWorkload(f *testing.F) {
	f.Add([]byte(everyFeature))
	f.Add([]byte("[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ncount = 3\nmessage_size = {histogram = [[16, 1.5], [0, 0]]}\n"))
	f.Add([]byte("threads = 2\n[[phase]]\ntransformation = \"AES/CBC/NoPadding\"\nduration = \"1ms\"\nmessage_size = {uniform = [16, 64]}\n"))
	f.Add([]byte("[[phase]]\ntransformation = \"AES/GCM/NoPadding\"\ntotal = 7\ndecrypt = 1\nparts = 3\nprepare = \"cipher\"\nmessages = 2\n"))
	f.Add(modeLoopFile)
	f.Add([]byte("[[phase]]\ntransformation = \"AES/CTR/NoPadding\"\ncount = 2\ndecrypt = 1\ncipher = \"reuse\"\nprepare = \"cipher\"\nmessages = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorkload("fuzz.toml", data)
		if err != nil {
			if _, ok := err.(interface{ Unwrap() []error }); !ok {
				if _, ok := err.(*FileError); !ok {
					t.Fatalf("error %T is neither a *FileError nor a joined list of them: %v", err, err)
				}
			}
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if w == nil || len(w.phases) == 0 || len(w.phases) != len(w.Phases) {
			t.Fatalf("accepted workload without resolved phases: %+v", w)
		}
		rng := workloadRand(w.Seed, 0, 0)
		for _, p := range w.phases {
			if p.Threads < 1 || p.Threads > maxWorkloadThreads || (p.Count <= 0 && p.Total <= 0 && p.duration <= 0) ||
				p.Parts < 0 || p.Parts > maxParts || p.Messages < 0 || p.Messages > maxMessages || (p.Messages > 0 && p.Decrypt == 0) {
				t.Fatalf("accepted phase out of bounds: %+v", p.Phase)
			}
			for i := range 20 {
				for _, d := range []sizeDist{p.msg, p.aad} {
					if n := d.draw(rng, i); n < 0 || n > d.maxBytes {
						t.Fatalf("drew size %d outside 0..%d from %s", n, d.maxBytes, d)
					}
				}
			}
		}
	})
}

// FuzzTraceReader checks that no trace, however broken, panics the
// reader, that every error is a *FileError naming the trace, and that an
// accepted trace's threads and shapes are consistent with its lines.
func FuzzTraceReader(f *testing.F) {
	f.Add([]byte(smallTrace))
	f.Add([]byte(TraceHeader + "\n0,1e3,decrypt,aes/gcm/nopadding,256,16,3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := NewTrace("fuzz.csv", func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != "fuzz.csv" {
				t.Fatalf("error %T is not a *FileError naming the trace: %v", err, err)
			}
			return
		}
		if tr.Ops < 1 || tr.threads < 1 || tr.threads > maxWorkloadThreads || len(tr.maxSize) != tr.threads || len(tr.order) != len(tr.shapes) {
			t.Fatalf("accepted trace inconsistent: ops %d, threads %d, shapes %d/%d", tr.Ops, tr.threads, len(tr.order), len(tr.shapes))
		}
	})
}

// FuzzResolvedVerify checks that no output, however broken, panics Verify, and that only the
// replay's own check lines pass it.
func FuzzResolvedVerify(f *testing.F) {
	w, err := ParseWorkload("v.toml", []byte("threads = 2\n[[phase]]\ntransformation = \"AES/CTR/NoPadding\"\nmessage_size = 20\ncount = 3\n"))
	if err != nil {
		f.Fatal(err)
	}
	res, err := w.Resolve(f.TempDir(), nil)
	if err != nil {
		f.Fatal(err)
	}
	var good strings.Builder
	for _, c := range res.Expected() {
		fmt.Fprintf(&good, "jitsim-check %d %d %d %d\n", c.Thread, c.Ops, c.Rejected, c.CRC)
	}
	f.Add([]byte(good.String()))
	f.Add([]byte("jitsim-epoch 3\njitsim-check 0 3 0 x\njitsim-check 1\n"))
	var one string // thread 1's check line, fields joined by one space
	for _, c := range res.Expected() {
		if c.Thread == 1 {
			one = fmt.Sprintf("jitsim-check %d %d %d %d", c.Thread, c.Ops, c.Rejected, c.CRC)
		}
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		if err := res.Verify(out); err != nil {
			return
		}
		// Verify reads a line's fields, so any whitespace between them (a CRLF replay's \r)
		// separates them as well as a space does.
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Join(strings.Fields(line), " ") == one {
				return
			}
		}
		t.Fatalf("output without thread 1's check line passed: %q", out)
	})
}
