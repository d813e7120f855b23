package runtime_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"slices"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// TestSubscribeGCMWarmup encrypts 16 KiB GCM messages on the real tiers and
// watches the VM through Subscribe and Levels: GHASH::processBlocks must
// enter at level 0, then 3, then 4 (each normal-entry level announced by
// queued, started and installed events), the level-3
// code must be made not entrant, and a first-stub event must name the GHASH
// stub called from C2 code. Every ciphertext is checked against crypto/cipher.
func TestSubscribeGCMWarmup(t *testing.T) {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	var mu sync.Mutex
	var events []jrt.Event
	unsub := vm.Subscribe(func(e jrt.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	defer unsub()

	const ghash = "com.sun.crypto.provider.GHASH::processBlocks"
	if !slices.Contains(vm.IntrinsicMethods(), ghash) {
		t.Fatalf("IntrinsicMethods() = %v, no %s", vm.IntrinsicMethods(), ghash)
	}
	key, iv := []byte("jitsim-gcm-key16"), []byte("twelve bytes")
	msg := make([]byte, 16384)
	for i := range msg {
		msg[i] = byte(i * 13)
	}
	blk, _ := aes.NewCipher(key)
	aead, _ := cipher.NewGCM(blk)
	want := aead.Seal(nil, iv, msg, nil)
	g := newGCMDriver(t, vm, key)
	ctx := context.Background()
	var seen []int // distinct entry levels of processBlocks, in order
	stubSeen := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.ContainsFunc(events, func(e jrt.Event) bool {
			return e.Kind == jrt.EventFirstStub && e.Method == ghash && e.Level == jrt.LevelFullOptimization
		})
	}
	for i := 0; i < 3000 && !(len(seen) > 0 && seen[len(seen)-1] == 4 && stubSeen()); i++ {
		got, err := g.seal(ctx, iv, msg)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("message %d: ciphertext differs from crypto/cipher", i)
		}
		if l, ok := vm.Levels()[ghash]; ok && (len(seen) == 0 || seen[len(seen)-1] != l) {
			seen = append(seen, l)
		}
	}
	if !slices.Equal(seen, []int{0, 3, 4}) {
		t.Errorf("entry levels of %s over the run: %v, want [0 3 4]", ghash, seen)
	}
	if !stubSeen() {
		t.Errorf("no first-stub event for %s from level 4", ghash)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, level := range []jrt.Level{jrt.LevelFullProfile, jrt.LevelFullOptimization} {
		var kinds []jrt.EventKind
		for _, e := range events {
			if e.Method == ghash && e.Level == level && e.Kind != jrt.EventFirstStub && e.BCI < 0 { // normal entry, not OSR
				kinds = append(kinds, e.Kind)
			}
		}
		if len(kinds) < 3 || kinds[0] != jrt.EventQueued || kinds[1] != jrt.EventStarted || kinds[2] != jrt.EventInstalled {
			t.Errorf("level %d events of %s: %v, want queued, started, installed first", level, ghash, kinds)
		}
	}
	if !slices.ContainsFunc(events, func(e jrt.Event) bool {
		return e.Kind == jrt.EventNotEntrant && e.Method == ghash && e.Level == jrt.LevelFullProfile
	}) {
		t.Errorf("level-3 code of %s never made not entrant", ghash)
	}
	if !slices.ContainsFunc(events, func(e jrt.Event) bool { return e.Kind == jrt.EventOSR && e.BCI >= 0 }) {
		t.Logf("no OSR compile in this run (processBlocks' loop usually gets one)")
	}
}

// TestEventKindString checks the names series files use.
func TestEventKindString(t *testing.T) {
	for _, tc := range []struct {
		k    jrt.EventKind
		want string
	}{{jrt.EventQueued, "queued"}, {jrt.EventStarted, "started"}, {jrt.EventInstalled, "installed"},
		{jrt.EventNotEntrant, "not-entrant"}, {jrt.EventOSR, "osr"}, {jrt.EventFirstStub, "first-stub"}, {0, "unknown"}, {99, "unknown"}} {
		if got := tc.k.String(); got != tc.want {
			t.Errorf("EventKind(%d).String() = %q, want %q", tc.k, got, tc.want)
		}
	}
}
