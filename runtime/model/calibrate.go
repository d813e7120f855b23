package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	stubaes "github.com/jitsim/jitsim/stubs/aes"
)

// Probe is one host primitive for Calibrate to time: Run executes Units
// units (bytes, blocks, calls or bytecode bytes, as Unit says) of What for
// Family. Package calibrate builds probes from the real tiers (a reference
// method run at each level) and the VM's dispatcher, the stub probes run
// the stubs, so this package needs no tier and no VM.
type Probe struct {
	What, Family string
	Unit         Unit
	Units        int
	Run          func() error
	// Note says what Run does, for the row's Source.
	Note string
}

// Workload is the data every calibration probe works on: an AES-128 key with
// its encryption and decryption schedules (the JDK's expanded-key words), a
// payload In to read and a buffer Out as large to write, a zero IV, and
// GHASH's hash subkey H for the key.
type Workload struct {
	Key, In, Out, IV []byte
	KE, KD           []uint32
	H                [2]uint64
}

// NewWorkload returns the workload with a payload of size bytes.
func NewWorkload(size int) *Workload {
	w := &Workload{Key: []byte("jitsim calibrate"), In: make([]byte, size), Out: make([]byte, size), IV: make([]byte, 16)}
	for i := range w.In {
		w.In[i] = byte(i*7 + 3)
	}
	var err error
	if w.KE, w.KD, err = stubaes.ExpandKey(w.Key); err != nil {
		panic("BUG: model: calibration key: " + err.Error())
	}
	var hb [16]byte
	stubaes.EncryptBlockGeneric(w.KE, hb[:], hb[:])
	w.H = [2]uint64{binary.BigEndian.Uint64(hb[:]), binary.BigEndian.Uint64(hb[8:])}
	return w
}

// CalibrateOptions tune Calibrate. Zero values take the defaults.
type CalibrateOptions struct {
	CPU    string        // profile name; default "host"
	MHz    int64         // the host clock, if known (documentation)
	Rounds int           // interleaved rounds per probe; default 7, the median is kept
	Round  time.Duration // minimum measured time per probe per round; default 50ms
	// Timer returns a monotonic time; default: the calling thread's CPU
	// time where the OS offers it (Linux), else wall time. CPU time keeps
	// other processes on a shared machine out of the numbers.
	Timer func() time.Duration
	// Describe names the host in every row's Source, e.g. "linux/amd64 AMD EPYC".
	Describe string
}

// Calibrate measures every probe on this machine and returns a profile
// with one row per probe: the median over Rounds interleaved rounds (each
// round runs every probe once, so slow phases of a shared machine hit all
// probes alike) of the time per unit, in picoseconds, with the method in
// its Source. It fails on a probe error or a malformed probe.
func Calibrate(opts CalibrateOptions, probes []Probe) (Profile, error) {
	if opts.CPU == "" {
		opts.CPU = "host"
	}
	if opts.Rounds <= 0 {
		opts.Rounds = 7
	}
	if opts.Round <= 0 {
		opts.Round = 50 * time.Millisecond
	}
	timer, timerName := opts.Timer, "the given timer"
	if timer == nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		timer, timerName = threadCPUTimer()
	}
	for i, p := range probes {
		if p.Run == nil || p.Units <= 0 {
			return Profile{}, fmt.Errorf("model: calibrate probe %d (%s %s): needs Run and Units > 0", i, p.What, p.Family)
		}
		if err := (Row{p.What, p.Family, p.Unit, 0, "x"}).validate(); err != nil {
			return Profile{}, fmt.Errorf("model: calibrate probe %d: %w", i, err)
		}
	}
	samples := make([][]float64, len(probes))
	for range opts.Rounds {
		for i, p := range probes {
			n, t0 := 0, timer()
			var el time.Duration
			for el < opts.Round {
				if err := p.Run(); err != nil {
					return Profile{}, fmt.Errorf("model: calibrate %s %s: %w", p.What, p.Family, err)
				}
				n++
				el = timer() - t0
			}
			samples[i] = append(samples[i], float64(el.Nanoseconds())*1000/float64(n*p.Units))
		}
	}
	prof := Profile{CPU: opts.CPU, GHz: float64(opts.MHz) / 1000,
		Source: fmt.Sprintf("jitsim calibrate on %s (%s/%s)", or(opts.Describe, "this host"), runtime.GOOS, runtime.GOARCH)}
	for i, p := range probes {
		s := samples[i]
		slices.Sort(s)
		med := s[len(s)/2]
		prof.Rows = append(prof.Rows, Row{p.What, p.Family, p.Unit, int64(med + 0.5),
			fmt.Sprintf("jitsim calibrate on %s: %s; median of %d interleaved rounds of ≥ %v (%s), range %.0f–%.0f ps/%s",
				or(opts.Describe, "this host"), or(p.Note, "probe"), opts.Rounds, opts.Round, timerName, s[0], s[len(s)-1], p.Unit)})
	}
	if err := prof.Validate(); err != nil {
		return Profile{}, errors.Join(errors.New("model: calibrate produced a bad profile"), err)
	}
	return prof, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
