package scenario

import "testing"

// FuzzParseFile checks that no scenario file, however broken, panics the
// loader, and that a file it accepts yields runnable variants.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte("scenario = \"TestAESMain\"\n[properties]\nmode = \"GCM\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ParseFile("fuzz.toml", data)
		if err != nil {
			if _, ok := err.(interface{ Unwrap() []error }); !ok {
				if _, ok := err.(*FileError); !ok {
					t.Fatalf("error %T is neither a *FileError nor a joined list of them: %v", err, err)
				}
			}
			return
		}
		for _, r := range file.Runs() {
			if r.Scenario.run == nil || r.Variant == "" {
				t.Fatalf("accepted file gives an unrunnable variant %+v", r)
			}
		}
	})
}
