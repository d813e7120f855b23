package model

import (
	"strings"
	"testing"
)

func testProfile() Profile {
	return Profile{CPU: "test", GHz: 1, Source: "unit test", Rows: []Row{
		{WhatInterp, AnyFamily, PerByte, 100_000, "t"},
		{WhatInterp, "AESCrypt.implEncryptBlock", PerByte, 250_000, "t"},
		{WhatInterp, AnyFamily, PerCall, 40_000, "t"},
		{Stub("aesni-parallel6"), "counterMode_AESCrypt", PerBlock, 8_000, "t"},
		{Stub("aesni-parallel6"), "counterMode_AESCrypt", PerCall, 20_000, "t"},
		{WhatCompileC2, AnyFamily, PerBytecodeByte, 50_000_000, "t"},
		{WhatCompileC2, AnyFamily, PerCall, 1_000_000, "t"},
		{WhatCompileC1, AnyFamily, PerBytecodeByte, 5_000_000, "t"},
	}}
}

func TestCostComposition(t *testing.T) {
	p := testProfile()
	tests := []struct {
		what, family string
		n            int
		want         Cost
		wantErr      string
	}{
		{WhatInterp, "CounterMode.implCrypt", 0, 40_000, ""},
		{WhatInterp, "CounterMode.implCrypt", 16, 40_000 + 16*100_000, ""},
		{WhatInterp, "AESCrypt.implEncryptBlock", 16, 40_000 + 16*250_000, ""},       // family row wins per unit; call falls back to *
		{Stub("aesni-parallel6"), "counterMode_AESCrypt", 100, 20_000 + 6*8_000, ""}, // whole blocks only
		{Stub("aesni-parallel6"), "counterMode_AESCrypt", 0, 20_000, ""},
		{Stub("aesni-parallel6"), "ghash_processBlocks", 16, 0, "no cost for stub:aesni-parallel6"},
		{WhatC2, "X.y", 16, 0, "no cost for c2"},
		{WhatInterp, "X.y", -1, 0, "negative byte count"},
	}
	for _, tc := range tests {
		t.Run(tc.what+"/"+tc.family, func(t *testing.T) {
			got, err := p.Cost(tc.what, tc.family, tc.n)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Cost error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Cost(%s, %s, %d) = %d, %v; want %d", tc.what, tc.family, tc.n, got, err, tc.want)
			}
		})
	}
}

func TestCompileCost(t *testing.T) {
	p := testProfile()
	tests := []struct {
		compiler string
		bytes    int
		want     Cost
		wantErr  string
	}{
		{WhatCompileC2, 100, 1_000_000 + 100*50_000_000, ""},
		{WhatCompileC1, 100, 100 * 5_000_000, ""},
		{WhatC2, 100, 0, "not a compiler"},
		{WhatCompileC1, -5, 0, "negative bytecode size"},
	}
	for _, tc := range tests {
		t.Run(tc.compiler, func(t *testing.T) {
			got, err := p.CompileCost(tc.compiler, "M.m", tc.bytes)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("CompileCost = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

// TestCostAdditivity checks that splitting a payload into whole-block
// pieces changes a per-byte/per-block cost only by the extra per-call rows.
func TestCostAdditivity(t *testing.T) {
	p := testProfile()
	for _, what := range []struct{ what, fam string }{{WhatInterp, "GHASH.processBlocks"}, {Stub("aesni-parallel6"), "counterMode_AESCrypt"}} {
		whole, _ := p.Cost(what.what, what.fam, 4096)
		call, _ := p.Cost(what.what, what.fam, 0)
		var parts Cost
		for range 8 {
			c, _ := p.Cost(what.what, what.fam, 512)
			parts += c
		}
		if parts-whole != 7*call {
			t.Errorf("%s: 8×512 B = %d, 4096 B = %d: difference %d, want 7 calls = %d", what.what, parts, whole, parts-whole, 7*call)
		}
	}
}

func TestCostString(t *testing.T) {
	for _, tc := range []struct {
		c    Cost
		want string
	}{{999, "999ps"}, {12_345, "12.345ns"}, {12_345_678_000, "12.345678ms"}} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("Cost(%d).String() = %q, want %q", int64(tc.c), got, tc.want)
		}
	}
}

func TestLoadProfileErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"syntax", "{\n  \"cpu\": \"x\",\n  \"rows\": [\n    {\"what\": \"interp\",, }\n  ]\n}", "p.json:4: "},
		{"type", "{\n  \"cpu\": \"x\",\n  \"ghz\": \"fast\"\n}", "p.json:3: field \"ghz\""},
		{"unknown field", "{\n  \"cpu\": \"x\",\n  \"speed\": 1\n}", "p.json:3: json: unknown field \"speed\""},
		{"bad unit", "{\n  \"cpu\": \"x\",\n  \"rows\": [\n    {\"what\": \"interp\", \"family\": \"*\", \"unit\": \"byte\", \"ps\": 1, \"source\": \"s\"},\n    {\"what\": \"interp\", \"family\": \"*\", \"unit\": \"parsec\", \"ps\": 1, \"source\": \"s\"}\n  ]\n}",
			"p.json:5: row 1: interp *: unknown unit \"parsec\""},
		{"no source", "{\"cpu\": \"x\", \"rows\": [\n{\"what\": \"c2\", \"family\": \"*\", \"unit\": \"byte\", \"ps\": 1}]}", "p.json:2: row 0: c2 * per byte: no source"},
		{"duplicate", "{\"cpu\": \"x\", \"rows\": [\n{\"what\": \"c2\", \"family\": \"*\", \"unit\": \"byte\", \"ps\": 1, \"source\": \"s\"},\n{\"what\": \"c2\", \"family\": \"*\", \"unit\": \"byte\", \"ps\": 2, \"source\": \"s\"}]}",
			"p.json:3: row 1 repeats row 0"},
		{"negative", "{\"cpu\": \"x\", \"rows\": [{\"what\": \"c2\", \"family\": \"*\", \"unit\": \"byte\", \"ps\": -1, \"source\": \"s\"}]}", "negative cost"},
		{"no cpu", "{\"rows\": []}", "p.json:1: profile has no \"cpu\" name"},
		{"trailing", "{\"cpu\": \"x\"}\n{}", "p.json:2: trailing data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadProfile("p.json", strings.NewReader(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("LoadProfile error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestProfileRoundTrip(t *testing.T) {
	p := testProfile()
	b, err := p.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	q, err := LoadProfile("rt.json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := q.MarshalIndent()
	if string(b) != string(b2) {
		t.Fatalf("round trip changed the profile:\n%s\n%s", b, b2)
	}
}
