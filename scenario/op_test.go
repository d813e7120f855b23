package scenario

import (
	"context"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
)

// TestRunBatch runs batches of AESGCMBench's decrypt on two threads with
// every output checked against crypto/cipher, and checks the batches'
// counts, bytes and thread order.
func TestRunBatch(t *testing.T) {
	env := testEnv(t, flags.JDK17)
	env.Threads = 2
	s, _ := Lookup("AESGCMBench")
	props := map[string]string{"op": "decrypt", "dataSize": "4096"}
	if got := s.BenchmarkMethod(props); got != "AESGCMBench.decrypt" {
		t.Errorf("BenchmarkMethod = %q", got)
	}
	if got := s.BenchmarkMethod(nil); got != "AESGCMBench.encrypt" {
		t.Errorf("BenchmarkMethod(default op) = %q", got)
	}
	for round := range 3 {
		bs, err := s.RunBatch(context.Background(), env, props, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 2 {
			t.Fatalf("round %d: %d batches, want 2", round, len(bs))
		}
		for i, b := range bs {
			if b.Thread != i || b.Ops != 4 || b.Bytes != 4*4096 || b.Duration <= 0 {
				t.Errorf("round %d: batch %d = %+v", round, i, b)
			}
		}
	}
}

// TestRunBatchErrors checks the refusals name what is wrong.
func TestRunBatchErrors(t *testing.T) {
	env := testEnv(t, flags.JDK17)
	gcm, _ := Lookup("AESGCMBench")
	main, _ := Lookup("TestAESMain")
	for _, tc := range []struct {
		name string
		s    Scenario
		env  Env
		n    int
		want string
	}{
		{"not a benchmark", main, env, 1, "not a benchmark scenario"},
		{"no VM", gcm, Env{NewVM: env.NewVM}, 1, "needs the VM"},
		{"empty batch", gcm, env, 0, "a batch of 0"},
		{"bad property", gcm, env, 1, "op="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := map[string]string{}
			if tc.name == "bad property" {
				props["op"] = "sign"
			}
			_, err := tc.s.RunBatch(context.Background(), tc.env, props, tc.n, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
