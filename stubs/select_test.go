package stubs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
	"github.com/jitsim/jitsim/stubs/variant"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// flagSet is one named flag configuration of the golden matrix.
type flagSet struct {
	name    string
	x86Only bool
	apply   func(*Config)
}

var flagSets = []flagSet{
	{"default", false, func(*Config) {}},
	{"-UseAES", false, func(c *Config) { c.UseAES = false }},
	{"-UseAESIntrinsics", false, func(c *Config) { c.UseAESIntrinsics = false }},
	{"-UseAESCTRIntrinsics", false, func(c *Config) { c.UseAESCTRIntrinsics = false }},
	{"-UseGHASHIntrinsics", false, func(c *Config) { c.UseGHASHIntrinsics = false }},
	{"UseAVX=2", true, func(c *Config) { c.UseAVX = 2 }},
	{"UseAVX=1", true, func(c *Config) { c.UseAVX = 1 }},
	{"UseAVX=0", true, func(c *Config) { c.UseAVX = 0 }},
	{"UseSSE=3", true, func(c *Config) { c.UseSSE = 3 }},
	{"UseSSE=2", true, func(c *Config) { c.UseSSE = 2 }},
}

// goldenMatrix renders Select for every (JDK × CPU model × flag set × stub)
// of the given stubs. The host model is left out: its answer depends on the
// machine. The GCM stubs have their own golden file.
func goldenMatrix(stubs []string) string {
	var b strings.Builder
	for _, rel := range jdk.All() {
		for _, m := range cpu.Models() {
			if m.Name == "host" {
				continue
			}
			for _, fs := range flagSets {
				if fs.x86Only && m.Arch != jdk.AMD64 {
					continue
				}
				cfg := Config{JDK: rel, Arch: m.Arch, UseAES: true, UseAESIntrinsics: true,
					UseAESCTRIntrinsics: true, UseGHASHIntrinsics: true, UseAVX: 99, UseSSE: 99}
				fs.apply(&cfg)
				for _, stub := range stubs {
					v, ok := Select(stub, cfg, m.Features)
					ans := "none"
					if ok {
						ans = v.Name + " (" + v.Generator + ")"
					}
					fmt.Fprintf(&b, "jdk=%s cpu=%s flags=%s %s -> %s\n", rel, m.Name, fs.name, stub, ans)
				}
			}
		}
	}
	return b.String()
}

// checkGolden compares got with testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./stubs -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got  %s\n want %s\n(-update rewrites it)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d (-update rewrites it)", path, len(gl), len(wl))
	}
}

var aesStubs = []string{aes.StubEncryptBlock, aes.StubDecryptBlock, aes.StubCBCEncrypt, aes.StubCBCDecrypt,
	aes.StubECBEncrypt, aes.StubECBDecrypt, aes.StubCTR}

func TestSelectGoldenAES(t *testing.T) {
	checkGolden(t, "select_aes.golden", goldenMatrix(aesStubs))
}

// TestSelectSpotChecks pins the answers the HotSpot sources make unambiguous,
// independently of the golden file.
func TestSelectSpotChecks(t *testing.T) {
	base := func(rel string, arch jdk.Arch) Config {
		return Config{JDK: jdk.MustParse(rel), Arch: arch, UseAES: true, UseAESIntrinsics: true, UseAESCTRIntrinsics: true,
			UseGHASHIntrinsics: true, UseAVX: 99, UseSSE: 99}
	}
	model := func(name string) cpu.Set {
		m, err := cpu.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return m.Features
	}
	tests := []struct {
		name string
		stub string
		cfg  Config
		cpus cpu.Set
		want string // "" = none
	}{
		{"ice CTR vector", aes.StubCTR, base("25", jdk.AMD64), model("icelake-server"), "vaes-avx512"},
		{"ice CTR UseAVX=2", aes.StubCTR, func() Config { c := base("25", jdk.AMD64); c.UseAVX = 2; return c }(), model("icelake-server"), "aesni-parallel6"},
		{"haswell CBC dec", aes.StubCBCDecrypt, base("17", jdk.AMD64), model("haswell-e5-2660v3"), "aesni-parallel4"},
		{"haswell ECB none", aes.StubECBEncrypt, base("21", jdk.AMD64), model("haswell-e5-2660v3"), ""},
		{"jdk8 no CTR", aes.StubCTR, base("8u", jdk.AMD64), model("icelake-server"), ""},
		{"jdk8 no VAES", aes.StubCBCDecrypt, base("8", jdk.AMD64), model("icelake-server"), "aesni-parallel4"},
		{"sandy block", aes.StubEncryptBlock, base("8", jdk.AMD64), model("sandybridge-i5"), "aesni"},
		{"UseSSE=2 none", aes.StubEncryptBlock, func() Config { c := base("25", jdk.AMD64); c.UseSSE = 2; return c }(), model("sandybridge-i5"), ""},
		{"-UseAES x86 none", aes.StubCBCEncrypt, func() Config { c := base("25", jdk.AMD64); c.UseAES = false; return c }(), model("icelake-server"), ""},
		{"n1 CTR", aes.StubCTR, base("25", jdk.ARM64), model("neoverse-n1"), "armv8-aes-4wide"},
		{"n1 ECB none", aes.StubECBDecrypt, base("25", jdk.ARM64), model("neoverse-n1"), ""},
		{"arch mismatch", aes.StubCTR, base("25", jdk.ARM64), model("icelake-server"), ""},
		{"unknown JDK", aes.StubCTR, func() Config { c := base("25", jdk.AMD64); c.JDK = jdk.Release(11); return c }(), model("icelake-server"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := Select(tt.stub, tt.cfg, tt.cpus)
			if got := map[bool]string{true: v.Name, false: ""}[ok]; got != tt.want {
				t.Errorf("Select = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRulesCoverNeeds: every rule names an assembly variant whose features (the one set its
// ID declares) HotSpot's condition covers, so a rule never selects code that faults on a CPU
// HotSpot would have generated it for; every rule for this GOARCH names a variant its stub
// package built (unless purego); and every Select answer is runnable or falls back to generic.
func TestRulesCoverNeeds(t *testing.T) {
	for _, r := range Rules() {
		t.Run(r.ID.String(), func(t *testing.T) {
			closed := r.Requires
			for _, f := range r.Requires.Features() {
				closed |= f.Implies()
			}
			if !closed.HasAll(r.ID.Needs()) {
				t.Errorf("variant needs %v, beyond HotSpot's condition %v", r.ID.Needs(), r.Requires)
			}
			if r.ID.Arch() != jdk.HostArch() {
				return
			}
			if _, g := twins[r.ID.Stub()]; !g {
				t.Fatalf("no generic twin for %s", r.ID.Stub())
			}
			if !built[r.ID] {
				if purego() {
					t.Skip("purego build: only generic twins")
				}
				t.Fatalf("rule names variant %s, which its stub package does not build", r.ID)
			}
			v := Runnable(answer(r.ID, r.Generator, r.Condition), 0)
			if !v.ID.IsGeneric() || !built[v.ID] {
				t.Errorf("Runnable with no features = %s, want the generic twin", v.ID)
			}
		})
	}
}

// TestVariantsDeclaredOnce: each (entry, name) is declared once across the stub packages, each
// entry has one generic twin, and what this binary built is declared, of this GOARCH or generic.
func TestVariantsDeclaredOnce(t *testing.T) {
	declared := map[variant.ID]bool{}
	names := map[string]bool{}
	generics := map[string]int{}
	for _, id := range append(aes.Variants(), gcm.Variants()...) {
		if names[id.String()] {
			t.Errorf("%s declared twice", id)
		}
		names[id.String()], declared[id] = true, true
		if id.IsGeneric() {
			generics[id.Stub()]++
		}
	}
	for stub, n := range generics {
		if n != 1 {
			t.Errorf("%s has %d generic twins", stub, n)
		}
	}
	for id := range built {
		if !declared[id] {
			t.Errorf("%s is built but not declared", id)
		}
		if !id.IsGeneric() && id.Arch() != jdk.HostArch() {
			t.Errorf("%s is built for %v into a %v binary", id, id.Arch(), jdk.HostArch())
		}
	}
	for _, r := range Rules() {
		if !declared[r.ID] || generics[r.ID.Stub()] != 1 {
			t.Errorf("rule %s names an undeclared variant or an entry without a generic twin", r.ID)
		}
	}
}

// TestRuleOrderUnambiguous: Select tries an entry's rules widest first (the variant whose rule
// requires the most CPU features). Two rules of different variants that could both match —
// same entry and architecture, a release and a flag set in common — must differ in that
// count, so the order says which HotSpot generates; and a rule tried later must not require
// everything an earlier one does (it could never win).
func TestRuleOrderUnambiguous(t *testing.T) {
	rs := Rules()
	for i, a := range rs {
		for _, b := range rs[i+1:] {
			if a.ID == b.ID || a.ID.Stub() != b.ID.Stub() || a.ID.Arch() != b.ID.Arch() || a.Releases&b.Releases == 0 {
				continue
			}
			na, nb := len(a.Requires.Features()), len(b.Requires.Features())
			if na <= nb {
				t.Errorf("%s (%d features) is tried before %s (%d features): the order does not say which wins", a.ID, na, b.ID, nb)
			}
			if b.Requires.HasAll(a.Requires) {
				t.Errorf("%s can never be selected: %s, tried first, requires no more than it", b.ID, a.ID)
			}
		}
	}
}
