package model

import (
	"strings"
	"testing"
)

func TestBackgroundParse(t *testing.T) {
	b := &Background{Source: "s", Compiles: []string{"0 c1 76", "1647 c2 520", " 1647  c1 0 "}}
	cs, err := b.Parse()
	if err != nil {
		t.Fatal(err)
	}
	want := []BackgroundCompile{{0, WhatCompileC1, 76}, {1_647_000_000, WhatCompileC2, 520}, {1_647_000_000, WhatCompileC1, 0}}
	if len(cs) != len(want) {
		t.Fatalf("%d compiles, want %d", len(cs), len(want))
	}
	for i := range want {
		if cs[i] != want[i] {
			t.Errorf("compile %d: %+v, want %+v", i, cs[i], want[i])
		}
		if i < 2 && FormatBackgroundCompile(cs[i]) != strings.TrimSpace(b.Compiles[i]) {
			t.Errorf("compile %d formats as %q, want %q", i, FormatBackgroundCompile(cs[i]), b.Compiles[i])
		}
	}
	for _, bad := range []struct {
		b    Background
		want string
	}{
		{Background{Source: " ", Compiles: nil}, "no source"},
		{Background{Source: "s", Compiles: []string{"1 c1"}}, "is not \"AT_US c1|c2 BYTES\""},
		{Background{Source: "s", Compiles: []string{"-1 c1 5"}}, "time \"-1\""},
		{Background{Source: "s", Compiles: []string{"3600000001 c1 5"}}, "time \"3600000001\""},
		{Background{Source: "s", Compiles: []string{"1 c3 5"}}, "compiler \"c3\""},
		{Background{Source: "s", Compiles: []string{"1 c2 1048577"}}, "bytes \"1048577\""},
		{Background{Source: "s", Compiles: []string{"1 c2 x"}}, "bytes \"x\""},
		{Background{Source: "s", Compiles: []string{"5 c1 1", "4 c1 1"}}, "starts before the one above it"},
	} {
		if _, err := bad.b.Parse(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: error %v, want one containing %q", bad.b, err, bad.want)
		}
	}
}

func TestBackgroundNeedsProvenance(t *testing.T) {
	p := testProfile()
	p.Background = &Background{Source: "s", Compiles: []string{"0 c1 1"}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "provenance") {
		t.Errorf("a background without a provenance: error %v, want one about the provenance", err)
	}
}
