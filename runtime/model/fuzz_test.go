package model

import (
	"strings"
	"testing"
)

// FuzzLoadProfile feeds arbitrary bytes to LoadProfiles (one profile, or a set of them, with
// or without a provenance): it must return profiles that validate or an error that names
// the file, never panic.
func FuzzLoadProfile(f *testing.F) {
	b, _ := testProfile().MarshalIndent()
	f.Add(string(b))
	f.Add(`{"cpu":"x","rows":[{"what":"c2","family":"*","unit":"byte","ps":1,"source":"s"}]}`)
	prov := `{"cpu":"host","ghz":3.4,"source":"s","release":"17","provenance":{"jvm":"java","jvmVersion":"17.0.15","jvmVendor":"Debian",` +
		`"cpuModel":"AMD EPYC","features":["aes","avx2"],"date":"2026-12-01T22:00:00Z","load":"1 1","rounds":5,"command":"c"},` +
		`"rows":[{"what":"c2","family":"*","unit":"byte","ps":1,"source":"s"}]}`
	f.Add(prov)
	f.Add(`{"profiles":[` + prov + `,` + strings.Replace(prov, `"release":"17"`, `"release":"25"`, 1) + `]}`)
	f.Add(`{"profiles":[]}`)
	f.Add(strings.Replace(prov, `"rows":`, `"background":{"source":"s","compiles":["0 c1 76","1647 c2 520"]},"rows":`, 1))
	f.Add(strings.Replace(prov, `"rows":`, `"background":{"source":"s","compiles":["9 c1 76","8 c3 -1"]},"rows":`, 1))
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := LoadProfiles("f.json", strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, p := range ps {
			if err := p.Validate(); err != nil {
				t.Fatalf("loaded a profile that does not validate: %v", err)
			}
		}
	})
}
