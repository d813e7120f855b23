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
		{"GHASH.processBlocks", 10, 160, false},
		{"GHASH.processBlock", 0, 16, false},
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
}
