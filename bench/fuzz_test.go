package bench

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzParseOptions: any argument list parses or fails with an error naming
// a "-" option; it never panics.
func FuzzParseOptions(f *testing.F) {
	f.Add("-wi 3 -i 5 -f 1 -bm avgt -p dataSize=1024,8192 -rf json -XX:+UseAES AESGCMBench")
	f.Add("-w 500ms -r 1s -t max -tu us")
	f.Add("-rf scsv -rff out.csv -bm sample,ss -rf LaTeX")
	f.Fuzz(func(t *testing.T, line string) {
		_, _, err := ParseOptions(strings.Fields(line))
		if err != nil && !strings.Contains(err.Error(), "option -") {
			t.Fatalf("error %q does not name an option", err)
		}
	})
}

// FuzzReadJSON: arbitrary input is read or rejected; what is read writes
// back as valid JMH JSON that reads again.
func FuzzReadJSON(f *testing.F) {
	b, err := os.ReadFile("testdata/jmh-result.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	var sample bytes.Buffer
	if err := WriteJSON(&sample, []Result{sampleResult()}); err != nil {
		f.Fatal(err)
	}
	f.Add(sample.String())
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := ReadJSON(strings.NewReader(in), "fuzz.json")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, rs); err != nil {
			for _, r := range rs {
				if r.Mode == SampleTime {
					return // refused by design: sample mode without histograms
				}
			}
			t.Fatal(err)
		}
		if _, err := ReadJSON(&out, "again.json"); err != nil {
			t.Fatalf("re-reading our own JSON: %v\n%s", err, out.String())
		}
	})
}
