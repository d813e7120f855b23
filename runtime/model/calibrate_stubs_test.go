package model_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"os"
	"testing"
	"time"

	"github.com/jitsim/jitsim/runtime/model"
	jaes "github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// TestCalibrateStubs calibrates jitsim's own CTR stub variants that this
// host can run, after checking each against crypto/cipher (the oracle), and
// checks the rows are well-formed. With JITSIM_LONG=1 it runs 7 rounds of
// 50 ms and logs the profile (the numbers docs/model.md quotes for our
// stubs); by default 3 short rounds.
func TestCalibrateStubs(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 16)
	xk, _, err := jaes.ExpandKey(key)
	if err != nil {
		t.Fatal(err)
	}
	const n = 16 << 10
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	blk, _ := aes.NewCipher(key)
	iv := make([]byte, 16)
	want := make([]byte, n)
	cipher.NewCTR(blk, iv).XORKeyStream(want, src)

	var probes []model.Probe
	for _, v := range jaes.CTRVariants() {
		if !cpu.Host().HasAll(v.Needs()) {
			continue
		}
		dst := make([]byte, n)
		run := func() error {
			var ctr, enc [16]byte
			used := uint32(16)
			v.Fn(xk, &ctr, &enc, &used, dst, src)
			return nil
		}
		// CTR here is GCM-style (32-bit counter) in the stubs and full
		// 128-bit in crypto/cipher; with a zero IV and 1024 blocks they agree.
		if run(); !bytes.Equal(dst, want) {
			t.Fatalf("CTR variant %s disagrees with crypto/cipher", v.Name())
		}
		probes = append(probes, model.Probe{What: model.Stub(v.Name()), Family: v.Stub(), Unit: model.PerByte, Units: n, Run: run,
			Note: "jitsim stub " + v.ID.String() + " over 16 KiB"})
	}
	opts := model.CalibrateOptions{Rounds: 3, Round: 2 * time.Millisecond, Describe: "the test host"}
	if os.Getenv("JITSIM_LONG") == "1" {
		opts.Rounds, opts.Round = 7, 50*time.Millisecond
	}
	p, err := model.Calibrate(opts, probes)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != len(probes) {
		t.Fatalf("%d rows for %d probes", len(p.Rows), len(probes))
	}
	for _, r := range p.Rows {
		if r.Ps <= 0 {
			t.Errorf("%s %s: %d ps per byte", r.What, r.Family, r.Ps)
		}
		t.Logf("%-24s %-22s %7.3f ns/byte  (%s)", r.What, r.Family, float64(r.Ps)/1000, r.Source)
	}
	if _, err := model.LoadProfile("calibrated", bytes.NewReader(must(p.MarshalIndent()))); err != nil {
		t.Fatalf("a calibrated profile does not load back: %v", err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
