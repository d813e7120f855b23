package stubs

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

func TestSelectGoldenGCM(t *testing.T) {
	checkGolden(t, "select_gcm.golden", goldenMatrix([]string{gcm.StubGHASH, gcm.StubGCM}))
}

// TestSelectGCMSpotChecks pins the GHASH/GCM answers the HotSpot sources and
// the JVM transcripts (PrintIntrinsics on this Ice Lake host: JDK 17 has no
// implGCMCrypt0 intrinsic, JDK 25 has it at UseAVX=3 and UseAVX=2) make
// unambiguous.
func TestSelectGCMSpotChecks(t *testing.T) {
	base := func(rel string, arch jdk.Arch) Config {
		return Config{JDK: jdk.MustParse(rel), Arch: arch, UseAES: true, UseAESIntrinsics: true, UseAESCTRIntrinsics: true,
			UseGHASHIntrinsics: true, UseAVX: 99, UseSSE: 99}
	}
	with := func(c Config, f func(*Config)) Config { f(&c); return c }
	model := func(name string) cpu.Set {
		m, err := cpu.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return m.Features
	}
	ice, hsw, sandy, n1 := model("icelake-server"), model("haswell-e5-2660v3"), model("sandybridge-i5"), model("neoverse-n1")
	tests := []struct {
		name string
		stub string
		cfg  Config
		cpus cpu.Set
		want string // "" = none
	}{
		{"jdk17 ice no GCM stub", gcm.StubGCM, base("17", jdk.AMD64), ice, ""},
		{"jdk21 ice VAES GCM", gcm.StubGCM, base("21", jdk.AMD64), ice, "vaes-avx512"},
		{"jdk21 ice UseAVX=2 no GCM", gcm.StubGCM, with(base("21", jdk.AMD64), func(c *Config) { c.UseAVX = 2 }), ice, ""},
		{"jdk25 ice UseAVX=2 AVX2 GCM", gcm.StubGCM, with(base("25", jdk.AMD64), func(c *Config) { c.UseAVX = 2 }), ice, "avx2-interleaved8"},
		{"jdk25 haswell AVX2 GCM", gcm.StubGCM, base("25", jdk.AMD64), hsw, "avx2-interleaved8"},
		{"jdk25 sandy no GCM", gcm.StubGCM, base("25", jdk.AMD64), sandy, ""},
		{"jdk25 -UseAESIntrinsics no GCM", gcm.StubGCM, with(base("25", jdk.AMD64), func(c *Config) { c.UseAESIntrinsics = false }), ice, ""},
		{"jdk25 x86 GCM ignores GHASH flag", gcm.StubGCM, with(base("25", jdk.AMD64), func(c *Config) { c.UseGHASHIntrinsics = false }), ice, "vaes-avx512"},
		{"jdk17 ice AVX GHASH", gcm.StubGHASH, base("17", jdk.AMD64), ice, "avx-8block"},
		{"jdk17 UseAVX=0 plain GHASH", gcm.StubGHASH, with(base("17", jdk.AMD64), func(c *Config) { c.UseAVX = 0 }), ice, "pclmul-1block"},
		{"jdk8u plain GHASH", gcm.StubGHASH, base("8u", jdk.AMD64), hsw, "pclmul-1block"},
		{"jdk8 no GHASH", gcm.StubGHASH, base("8", jdk.AMD64), hsw, ""},
		{"-UseGHASHIntrinsics", gcm.StubGHASH, with(base("25", jdk.AMD64), func(c *Config) { c.UseGHASHIntrinsics = false }), ice, ""},
		{"UseSSE=2 no GHASH", gcm.StubGHASH, with(base("25", jdk.AMD64), func(c *Config) { c.UseSSE = 2 }), ice, ""},
		{"n1 jdk17 GHASH", gcm.StubGHASH, base("17", jdk.ARM64), n1, "pmull-8block"},
		{"n1 jdk17 no GCM", gcm.StubGCM, base("17", jdk.ARM64), n1, ""},
		{"n1 jdk21 GCM", gcm.StubGCM, base("21", jdk.ARM64), n1, "aes-pmull-8block"},
		{"n1 GCM needs GHASH flag", gcm.StubGCM, with(base("25", jdk.ARM64), func(c *Config) { c.UseGHASHIntrinsics = false }), n1, ""},
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
