package model

import (
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
)

func TestPayload(t *testing.T) {
	tab, err := bytecode.ForProfile(jdk.R17)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key     string
		value   int64 // every Int argument
		want    int
		wantErr bool
	}{
		{"AESCrypt.implEncryptBlock", 3, 16, false},
		{"CounterMode.implCrypt", 4096, 4096, false},
		// JDK 9+: processBlocks and processBlock hand each block on to
		// blockMult, which is priced for it.
		{"GHASH.processBlocks", 10, 0, false},
		{"GHASH.processBlock", 0, 0, false},
		{"GHASH.blockMult", 0, 16, false},
		{"AESCrypt.makeSessionKey", 0, 0, false},
		{"CounterMode.implCrypt", -1, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			m, err := tab.Lookup(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Payload(m, func(int) int64 { return tc.value })
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("Payload = %d, %v; want %d (error %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
	// A stub replacing processBlocks covers every block it is handed.
	m, err := tab.Lookup("GHASH.processBlocks")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := RangeRuleOf(m).Bytes(m, func(int) int64 { return 10 }); err != nil || got != 160 {
		t.Errorf("RangeRuleOf(GHASH.processBlocks) = %d, %v; want 160", got, err)
	}
	// JDK 8u's processBlocks keeps its callees inlined: it is priced per byte itself.
	tab8u, err := bytecode.ForProfile(jdk.R8u)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int{"GHASH.processBlocks": 160, "GHASH.processBlock": 16} {
		m, err := tab8u.Lookup(key)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := Payload(m, func(int) int64 { return 10 }); err != nil || got != want {
			t.Errorf("JDK 8u %s: Payload = %d, %v; want %d", key, got, err, want)
		}
	}
}
