package warmup

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	stdhtml "html"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

const (
	mAES  = "com.sun.crypto.provider.AESCrypt::implEncryptBlock"
	mGCTR = "com.sun.crypto.provider.GCTR::doFinal"
)

// synthRun is a run whose time per op steps down at the tier transitions
// given as iteration→level of mAES, with 2% noise; OSR of mGCTR at 5.
func synthRun(label string, fork int, n int, levels map[int]int, seed uint64) Run {
	rnd := rand.New(rand.NewPCG(seed, uint64(fork)))
	r := Run{Label: label, Fork: fork, Scenario: "TestAESMain", Flags: strings.Fields(label + " -Dmode=GCM"),
		CPU: "icelake-server", JDK: "17", Clock: "model", Methods: []string{mAES, mGCTR}}
	per := 40 * time.Microsecond
	level := 0
	var at time.Duration
	for i := range n {
		it := Iteration{Index: i, Start: at, Ops: 100, Bytes: 100 * 1024, Levels: map[string]int{mAES: level, mGCTR: 0}}
		if lv, ok := levels[i]; ok {
			it.Events = append(it.Events,
				Event{Kind: EventQueued, Method: mAES, Level: lv, At: at + time.Microsecond, CompileID: i},
				Event{Kind: EventStarted, Method: mAES, Level: lv, At: at + 2*time.Microsecond, CompileID: i},
				Event{Kind: EventInstalled, Method: mAES, Level: lv, At: at + 50*time.Microsecond, CompileID: i})
			if level > 0 {
				it.Events = append(it.Events, Event{Kind: EventNotEntrant, Method: mAES, Level: level, At: at + 51*time.Microsecond, Detail: "replaced"})
			}
			if lv == 4 {
				it.Events = append(it.Events, Event{Kind: EventFirstStub, Method: mAES, Level: 4, At: at + 60*time.Microsecond, Detail: "aescrypt_encryptBlock"})
			}
			level = lv
			it.Levels[mAES] = lv
			per = map[int]time.Duration{1: 20 * time.Microsecond, 2: 15 * time.Microsecond, 3: 12 * time.Microsecond, 4: 2 * time.Microsecond}[lv]
		}
		if i == 5 {
			it.Events = append(it.Events, Event{Kind: EventOSR, Method: mGCTR, Level: 3, At: at + 3*time.Microsecond, BCI: 42})
		}
		d := time.Duration(float64(per*100) * (1 + 0.02*rnd.NormFloat64()))
		it.Duration = d
		r.Iterations = append(r.Iterations, it)
		at += d + 10*time.Microsecond
	}
	return r
}

func synthRuns() []Run {
	return []Run{
		synthRun("-XX:+UseAESIntrinsics", 0, 200, map[int]int{10: 3, 30: 4}, 1),
		synthRun("-XX:+UseAESIntrinsics", 1, 200, map[int]int{12: 3, 33: 4}, 2),
		synthRun("-XX:-UseAESIntrinsics", 0, 200, map[int]int{10: 3}, 3),
		synthRun("-XX:-UseAESIntrinsics", 1, 200, map[int]int{}, 4),
	}
}

func TestWriteAllProducesEveryFile(t *testing.T) {
	dir := t.TempDir()
	runs := synthRuns()
	s, err := WriteAll(dir, runs, Options{}, ReportMeta{Title: "AES warm-up", Command: "jitsim warmup --compare '-XX:-UseAESIntrinsics' TestAESMain"}, PlotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Fatalf("%s is empty", name)
		}
		return b
	}
	if s.Labels[0].Class != Warmup || s.Labels[0].SteadyIter < 29 || s.Labels[0].SteadyIter > 35 {
		t.Errorf("intrinsic run: %+v, want a warm-up reaching steady state near iteration 30-33", s.Labels[0])
	}
	if c := s.Labels[1].Class; c != GoodInconsistent {
		t.Errorf("no-intrinsic forks (one warms up, one flat) combine to %q, want %q", c, GoodInconsistent)
	}

	t.Run("png", func(t *testing.T) {
		img, err := png.Decode(bytes.NewReader(read("warmup.png")))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if b.Dx() < 600 || b.Dx() > 3000 || b.Dy() < 300 || b.Dy() > 2000 {
			t.Errorf("PNG is %dx%d", b.Dx(), b.Dy())
		}
	})
	t.Run("svg", func(t *testing.T) {
		checkSVG(t, read("warmup.svg"))
	})
	t.Run("report", func(t *testing.T) {
		html := string(read("report.html"))
		if regexp.MustCompile(`(?i)https?:`).MatchString(html) {
			t.Errorf("report references an http(s) URL")
		}
		for _, bad := range []string{"<script", "<link", "@import", "src=\"//", "url("} {
			if strings.Contains(strings.ToLower(html), bad) {
				t.Errorf("report contains %q", bad)
			}
		}
		m := regexp.MustCompile(`src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"`).FindStringSubmatch(html)
		if m == nil {
			t.Fatal("report has no inline SVG chart")
		}
		svg, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(svg, read("warmup.svg")) {
			t.Errorf("inline chart differs from warmup.svg")
		}
		for _, want := range []string{"<th>class</th>", "-XX:+UseAESIntrinsics", "warmup", "good inconsistent",
			"icelake-server", "AESCrypt::implEncryptBlock", "first-stub", "aescrypt_encryptBlock", "osr"} {
			if !strings.Contains(stdhtml.UnescapeString(html), want) {
				t.Errorf("report lacks %q", want)
			}
		}
	})
	t.Run("summary round trip", func(t *testing.T) {
		got, err := ReadSummaryJSON(bytes.NewReader(read("summary.json")))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("summary.json read back as\n%+v\nwant\n%+v", got, s)
		}
	})
	t.Run("series round trip", func(t *testing.T) {
		js, err := ReadJSON(bytes.NewReader(read("series.json")), "series.json")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(js, runs) {
			t.Errorf("series.json differs after a round trip")
		}
		cs, err := ReadCSV(bytes.NewReader(read("series.csv")), "series.csv")
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != len(runs) {
			t.Fatalf("%d runs from CSV, want %d", len(cs), len(runs))
		}
		for i := range runs {
			want := Run{Label: runs[i].Label, Fork: runs[i].Fork, Iterations: runs[i].Iterations, Methods: []string{mAES, mGCTR}}
			want.Methods = []string{mAES, mGCTR}
			if !reflect.DeepEqual(cs[i].Iterations, want.Iterations) || cs[i].Label != want.Label || cs[i].Fork != want.Fork {
				t.Errorf("run %d differs after a CSV round trip", i)
			}
		}
	})
}

func checkSVG(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse as XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("SVG root element is %q", root)
	}
}

func TestChartByTime(t *testing.T) {
	runs := synthRuns()[:1]
	s, err := Summarize(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteChart(&b, runs, s, PlotOptions{ByTime: true}, "svg"); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, b.Bytes())
	if !strings.Contains(b.String(), "elapsed time") {
		t.Errorf("time axis label missing")
	}
	if err := WriteChart(&b, runs, s, PlotOptions{}, "gif"); err == nil {
		t.Errorf("gif accepted")
	}
}

func TestCSVErrors(t *testing.T) {
	head := "label,fork,index,start_ns,duration_ns,ops,bytes,ns_per_op,level:m,events\n"
	tests := map[string]string{
		"empty":        "",
		"bad header":   "label,fork\n",
		"bad column":   "label,fork,index,start,duration_ns,ops,bytes,ns_per_op,events\n",
		"bad level":    head + "a,0,0,0,10,1,0,10,x,\n",
		"bad number":   head + "a,zero,0,0,10,1,0,10,1,\n",
		"bad events":   head + "a,0,0,0,10,1,0,10,1,[{\n",
		"unknown kind": head + `a,0,0,0,10,1,0,10,1,"[{""kind"":""boom""}]"` + "\n",
		"negative":     head + "a,0,0,0,-10,1,0,10,1,\n",
	}
	for name, in := range tests {
		if _, err := ReadCSV(strings.NewReader(in), "bad.csv"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSparkline(t *testing.T) {
	tests := []struct {
		v    []float64
		w    int
		want string
	}{
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8}, 8, "▁▂▃▄▅▆▇█"},
		{[]float64{8, 8, 1, 1}, 2, "█▁"},
		{[]float64{3, 3, 3}, 10, "▁▁▁"},
		{nil, 5, ""},
	}
	for _, tc := range tests {
		if got := Sparkline(tc.v, tc.w); got != tc.want {
			t.Errorf("Sparkline(%v, %d) = %q, want %q", tc.v, tc.w, got, tc.want)
		}
	}
}

func TestWriteTerminal(t *testing.T) {
	runs := synthRuns()
	s, err := Summarize(runs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTerminal(&b, s, runs, 40); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 || !strings.Contains(lines[1], "warmup") || !strings.Contains(lines[1], "█") ||
		!strings.HasPrefix(lines[4], "-XX:+UseAESIntrinsics: steady from iteration") {
		t.Errorf("terminal summary:\n%s", b.String())
	}
}
