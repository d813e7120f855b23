package model

import (
	"strings"
	"testing"
)

// FuzzLoadProfile feeds arbitrary bytes to LoadProfile: it must return a
// profile that validates or an error that names the file, never panic.
func FuzzLoadProfile(f *testing.F) {
	b, _ := testProfile().MarshalIndent()
	f.Add(string(b))
	f.Add(`{"cpu":"x","rows":[{"what":"c2","family":"*","unit":"byte","ps":1,"source":"s"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := LoadProfile("f.json", strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("loaded a profile that does not validate: %v", err)
		}
	})
}
