package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/calibrate"
	"github.com/jitsim/jitsim/runtime/model"
	stubaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// jitsim calibrate measures this host's primitives into a cost profile (package calibrate,
// docs/model.md §4) on the command's tiers, with the stub probes below.

// calibrateOptions are the command's options.
type calibrateOptions struct {
	out   string
	quick bool
	jdk   string
	// rounds, round and size, when set, override the rounds, the minimum time per probe
	// per round and the payload (tests; no command-line flag).
	rounds int
	round  time.Duration
	size   int
}

func (d deps) newCalibrateCommand(status *int) *cobra.Command {
	var o calibrateOptions
	cmd := &cobra.Command{
		Use:   "calibrate [--out FILE.json] [--quick] [--jdk=17]",
		Short: "Measure this host's primitives and write a cost profile for the model clock",
		Long: `Measure, on this host, what each primitive of the model clock costs: every tier's code per
payload byte at levels 0-4 (jitsim's interpreter, C1 and C2 running the reference methods), every
stub variant this CPU can run, a call from tier code into another method at each level, C2's
dispatch into a stub, and C1/C2 compiles per bytecode byte. Each number is the median of
interleaved rounds in thread CPU time (the machine may be shared), with its range in the row's
source. The table goes to stdout; --out writes the profile as JSON, which the model loads
(model.LoadProfileFile). --quick takes 3 short rounds instead of 7 of 50 ms.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			*status = d.runCalibrate(cmd.Context(), o, cmd.OutOrStdout(), cmd.ErrOrStderr())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "write the profile as JSON to this file")
	f.BoolVar(&o.quick, "quick", false, "3 rounds of 10 ms and 4 KiB payloads (a rough profile in a few seconds)")
	f.StringVar(&o.jdk, "jdk", bytecode.JDK17, "JDK profile whose reference methods are run (the recorded JVM profile is JDK 17's)")
	return cmd
}

// runCalibrate is `jitsim calibrate`; it returns the exit status.
func (d deps) runCalibrate(ctx context.Context, o calibrateOptions, stdout, stderr io.Writer) int {
	if ctx == nil {
		ctx = context.Background()
	}
	prof, err := d.calibrateHost(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "jitsim calibrate:", err)
		return 1
	}
	calibrate.WriteTable(stdout, prof)
	if o.out != "" {
		data, err := prof.MarshalIndent()
		if err == nil {
			err = os.WriteFile(o.out, data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "jitsim calibrate: --out:", err)
			return 1
		}
		fmt.Fprintf(stderr, "jitsim calibrate: wrote %s (%d rows)\n", o.out, len(prof.Rows))
	}
	return 0
}

// calibrateHost turns the options into calibrate.Host's: the rounds and payload size
// (--quick: 3 rounds of 10 ms over 4 KiB; else 7 of 50 ms over 16 KiB), the JDK profile's
// reference methods, the tiers, and the stub probes.
func (d deps) calibrateHost(ctx context.Context, o calibrateOptions, progress io.Writer) (model.Profile, error) {
	copts := model.CalibrateOptions{Describe: calibrate.HostDescription()}
	size := 16 << 10
	if o.quick {
		copts.Rounds, copts.Round, size = 3, 10*time.Millisecond, 4<<10
	}
	if o.rounds > 0 {
		copts.Rounds, copts.Round = o.rounds, o.round
	}
	if o.size > 0 {
		size = o.size
	}
	tab, err := bytecode.ForProfile(o.jdk)
	if err != nil {
		return model.Profile{}, fmt.Errorf("--jdk: %w", err)
	}
	w := model.NewWorkload(size)
	sp, err := stubProbes(newCalibState(w))
	if err != nil {
		return model.Profile{}, err
	}
	return calibrate.Host(ctx, calibrate.Options{Table: tab, Tiers: d.tiers(), Workload: w, Stubs: sp, Timing: copts, Progress: progress})
}

// calibState is the calibration workload as stubProbes reads it, until the stub probes are
// keyed by variant in runtime/model.
type calibState struct {
	key, in, out, iv []byte
	ke, kd           []uint32
	h                [2]uint64
}

func newCalibState(w *model.Workload) *calibState {
	return &calibState{key: w.Key, in: w.In, out: w.Out, iv: w.IV, ke: w.KE, kd: w.KD, h: w.H}
}

// stubProbes time every stub variant the host can run over the payload, each first
// checked against its generic Go twin.
func stubProbes(s *calibState) ([]model.Probe, error) {
	host := cpu.Host()
	n := len(s.in)
	var ps []model.Probe
	add := func(stub, name string, needs cpu.Set, run func() error, check func() error) error {
		if !host.HasAll(needs) {
			return nil
		}
		if err := check(); err != nil {
			return fmt.Errorf("stub %s/%s: %w", stub, name, err)
		}
		ps = append(ps, model.Probe{What: model.Stub(name), Family: stub, Unit: model.PerByte, Units: n, Run: run,
			Note: fmt.Sprintf("jitsim's stub %s/%s over %d B", stub, name, n)})
		return nil
	}
	same := func(a, b []byte) error {
		if !bytes.Equal(a, b) {
			return errors.New("output differs from the generic twin")
		}
		return nil
	}
	for _, list := range [][]stubaes.BlockVariant{stubaes.BlockEncryptVariants, stubaes.BlockDecryptVariants} {
		for _, v := range list {
			k := s.ke
			if v.Stub == stubaes.StubDecryptBlock {
				k = s.kd
			}
			fn, gen := v.Fn, list[0].Fn
			run := func() error {
				for i := 0; i < n; i += 16 {
					fn(k, s.out[i:i+16], s.in[i:i+16])
				}
				return nil
			}
			check := func() error {
				want := make([]byte, 16)
				gen(k, want, s.in[:16])
				fn(k, s.out[:16], s.in[:16])
				return same(s.out[:16], want)
			}
			if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
				return nil, err
			}
		}
	}
	for _, list := range [][]stubaes.CBCVariant{stubaes.CBCEncryptVariants, stubaes.CBCDecryptVariants} {
		for _, v := range list {
			k := s.ke
			if v.Stub == stubaes.StubCBCDecrypt {
				k = s.kd
			}
			fn, gen := v.Fn, list[0].Fn
			run := func() error { var iv [16]byte; fn(k, &iv, s.out, s.in); return nil }
			check := func() error {
				want := make([]byte, n)
				var a, b [16]byte
				gen(k, &a, want, s.in)
				fn(k, &b, s.out, s.in)
				return same(s.out, want)
			}
			if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
				return nil, err
			}
		}
	}
	for _, list := range [][]stubaes.ECBVariant{stubaes.ECBEncryptVariants, stubaes.ECBDecryptVariants} {
		for _, v := range list {
			k := s.ke
			if v.Stub == stubaes.StubECBDecrypt {
				k = s.kd
			}
			fn, gen := v.Fn, list[0].Fn
			run := func() error { fn(k, s.out, s.in); return nil }
			check := func() error {
				want := make([]byte, n)
				gen(k, want, s.in)
				fn(k, s.out, s.in)
				return same(s.out, want)
			}
			if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
				return nil, err
			}
		}
	}
	for _, v := range stubaes.CTRVariants {
		fn, gen := v.Fn, stubaes.CTRVariants[0].Fn
		run := func() error { var c, e [16]byte; u := 16; fn(s.ke, &c, &e, &u, s.out, s.in); return nil }
		check := func() error {
			want := make([]byte, n)
			var c, e [16]byte
			u := 16
			gen(s.ke, &c, &e, &u, want, s.in)
			return errors.Join(run(), same(s.out, want))
		}
		if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
			return nil, err
		}
	}
	newHtbl := func() []uint64 { t := make([]uint64, gcm.HtblLen); t[0], t[1] = s.h[0], s.h[1]; return t }
	for _, v := range gcm.GHASHVariants {
		fn, gen := v.Fn, gcm.GHASHVariants[0].Fn
		htbl := newHtbl()
		run := func() error { var st [2]uint64; fn(&st, htbl, s.in, n/16); return nil }
		check := func() error {
			var a, b [2]uint64
			gen(&a, newHtbl(), s.in, n/16)
			fn(&b, htbl, s.in, n/16)
			if a != b {
				return errors.New("GHASH state differs from the generic twin")
			}
			return nil
		}
		if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
			return nil, err
		}
	}
	for _, v := range gcm.GCMVariants {
		fn, gen := v.Fn, gcm.GCMVariants[0].Fn
		htbl := newHtbl()
		run := func() error {
			var c [16]byte
			var st [2]uint64
			fn(s.ke, &c, &st, htbl, s.out, s.in, s.out)
			return nil
		}
		check := func() error {
			want := make([]byte, n)
			var c1, c2 [16]byte
			var a, b [2]uint64
			m := gen(s.ke, &c1, &a, newHtbl(), want, s.in, want)
			k := fn(s.ke, &c2, &b, htbl, s.out, s.in, s.out)
			// A variant processes a prefix (its granularity); compare what both did.
			k = min(k, m)
			if k == 0 {
				return errors.New("processed no bytes")
			}
			return same(s.out[:k], want[:k])
		}
		if err := add(v.Stub, v.Name, v.Needs, run, check); err != nil {
			return nil, err
		}
	}
	return ps, nil
}
