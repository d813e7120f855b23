package cpu

import (
	"runtime"
	"testing"
)

func TestExtsRoundTrip(t *testing.T) {
	all := ExtsOf(POPCNT, LZCNT, BMI1, BMI2, FMA, SHA, ERMS)
	got, err := ParseExts(all.String())
	if err != nil || got != all {
		t.Fatalf("ParseExts(%q) = %v, %v", all.String(), got, err)
	}
	if _, err := ParseExts("popcnt,avx9"); err == nil {
		t.Error("ParseExts accepted avx9")
	}
}

func TestHostIdentity(t *testing.T) {
	id := HostIdentity()
	if runtime.GOARCH != "amd64" {
		if id != (Identity{}) {
			t.Errorf("identity off x86_64: %+v", id)
		}
		return
	}
	// Every x86_64 CPU has a vendor string and reports family 6 (Intel) or 0xF and above.
	if id.Vendor == VendorUnknown || id.Family < 6 {
		t.Errorf("host identity %+v", id)
	}
	if id.Ext.Has(BMI2) && !id.Ext.Has(BMI1) {
		t.Errorf("host has BMI2 without BMI1: %v", id.Ext)
	}
}
