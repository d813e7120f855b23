package jdk

import "testing"

func TestParseRoundTrip(t *testing.T) {
	for _, r := range All() {
		got, err := Parse(r.String())
		if err != nil || got != r {
			t.Errorf("Parse(%q) = %v, %v; want %v", r.String(), got, err, r)
		}
	}
	if _, err := Parse("11"); err == nil {
		t.Error("Parse(\"11\") succeeded; 11 is not a modelled release")
	}
	if Default != R25 {
		t.Errorf("Default = %v, want 25 (design.md §5)", Default)
	}
}

func TestSets(t *testing.T) {
	cases := []struct {
		set  Set
		want string
	}{
		{Since(R17), "17, 21, 22, 25"},
		{Before(R17), "8, 8u"},
		{Range(R8u, R21), "8u, 17"},
		{Range(R21, Release(255)), "21, 22, 25"},
		{Of(R8, R25), "8, 25"},
		{SinceFeature(18), "21, 22, 25"},
		{SinceFeature(22), "22, 25"},
		{SinceFeature(9), "17, 21, 22, 25"},
		{SinceFeature(8), "all"},
		{SinceFeature(26), ""},
		{Since(R8u) &^ SinceFeature(18), "8u, 17"},
		{Since(R8), "all"},
		{0, ""},
	}
	for _, c := range cases {
		if got := c.set.String(); got != c.want {
			t.Errorf("set %08b = %q, want %q", uint8(c.set), got, c.want)
		}
	}
	if Since(R17).Has(R8u) || !Since(R17).Has(R25) || Since(R17).Len() != 4 {
		t.Error("Since(R17) holds the wrong releases")
	}
	if Release(200).Valid() || Since(R8).Has(Release(200)) {
		t.Error("an out-of-range release is valid")
	}
}

func TestFeature(t *testing.T) {
	want := map[Release]int{R8: 8, R8u: 8, R17: 17, R21: 21, R25: 25}
	for r, f := range want {
		if r.Feature() != f {
			t.Errorf("%v.Feature() = %d, want %d", r, r.Feature(), f)
		}
	}
}

func TestArch(t *testing.T) {
	for _, s := range []string{"amd64", "x86_64", "arm64", "aarch64"} {
		if _, err := ParseArch(s); err != nil {
			t.Errorf("ParseArch(%q): %v", s, err)
		}
	}
	if _, err := ParseArch("riscv64"); err == nil {
		t.Error("ParseArch accepted riscv64")
	}
	var zero Arch
	if zero == AMD64 || zero == ARM64 {
		t.Error("the zero Arch names an architecture")
	}
}
