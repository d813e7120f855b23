package warmup

import (
	"bytes"
	"encoding/base64"
	stdhtml "html"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// readLog parses one of the recorded PrintCompilation logs.
func readLog(t *testing.T, name string) *CompileLog {
	t.Helper()
	path := filepath.Join("testdata", "printcompilation", name+".log")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := ParsePrintCompilation(f, name, name+".log")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestTimelineSources: one source per option set (its first fork's installs,
// OSR installs and not-entrant events of crypto methods), then one per
// imported log (task, not-entrant/zombie and skipped lines).
func TestTimelineSources(t *testing.T) {
	runs := synthRuns()
	srcs := timelineSources(runs, []*CompileLog{readLog(t, "jdk8-layout")})
	var names []string
	for _, s := range srcs {
		names = append(names, s.Name)
	}
	if want := []string{"-XX:+UseAESIntrinsics", "-XX:-UseAESIntrinsics", "imported: jdk8-layout"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("sources %q, want %q", names, want)
	}
	count := func(s timelineSource) (comp, osr, gone, skipped int) {
		for _, m := range s.Marks {
			switch {
			case m.Kind == markCompile && m.OSR:
				osr++
			case m.Kind == markCompile:
				comp++
			case m.Kind == markNotEntrant:
				gone++
			case m.Kind == markSkipped:
				skipped++
			}
		}
		return
	}
	// Fork 0 of the intrinsic set: installs at 3 and 4, one not-entrant,
	// the OSR of GCTR::doFinal; queued/started/first-stub are not marks.
	if c, o, g, s := count(srcs[0]); c != 2 || o != 1 || g != 1 || s != 0 {
		t.Errorf("intrinsic run marks: %d compile, %d osr, %d not-entrant, %d skipped", c, o, g, s)
	}
	// The hand-made JDK 8 log: 7 crypto records — compile, compile,
	// compile (OSR), not-entrant, skipped, zombie, compile at tier "-".
	if c, o, g, s := count(srcs[2]); c != 3 || o != 1 || g != 2 || s != 1 {
		t.Errorf("imported marks: %d compile, %d osr, %d not-entrant, %d skipped", c, o, g, s)
	}
}

// TestWriteAllWithImport overlays the recorded JDK 17 log on a study: the
// timeline files, the report's timeline and import tables, and the import's
// counts in summary.json.
func TestWriteAllWithImport(t *testing.T) {
	dir := t.TempDir()
	runs := synthRuns()
	l := readLog(t, "jdk17-gcm16k")
	s, err := WriteAll(dir, runs, Options{}, ReportMeta{Title: "AES warm-up", Imports: []*CompileLog{l}}, PlotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %v (%d bytes)", name, err, len(b))
		}
		return b
	}
	for _, f := range Files {
		read(f)
	}
	img, err := png.Decode(bytes.NewReader(read("timeline.png")))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dx() > 3000 || b.Dy() < 300 || b.Dy() > 4000 {
		t.Errorf("timeline PNG is %dx%d", b.Dx(), b.Dy())
	}
	svg := read("timeline.svg")
	checkSVG(t, svg)
	for _, want := range []string{"GHASH::blockMult", "AESCrypt::implEncryptBlock", "imported: jdk17-gcm16k", "-XX:+UseAESIntrinsics"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("timeline.svg lacks %q", want)
		}
	}
	html := stdhtml.UnescapeString(string(read("report.html")))
	uris := regexp.MustCompile(`src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"`).FindAllStringSubmatch(html, -1)
	if len(uris) != 2 {
		t.Fatalf("report has %d inline SVGs, want 2 (chart, timeline)", len(uris))
	}
	if b, err := base64.StdEncoding.DecodeString(uris[1][1]); err != nil || !bytes.Equal(b, svg) {
		t.Errorf("the report's timeline differs from timeline.svg (%v)", err)
	}
	for _, want := range []string{"Imported -XX:+PrintCompilation logs", "<td>jdk17-gcm16k</td>", "imported: jdk17-gcm16k",
		"made not entrant", "(OSR @ 3)", "half speed from"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	got, err := ReadSummaryJSON(bytes.NewReader(read("summary.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Imports) != 1 || got.Imports[0] != l.Summary() || !reflect.DeepEqual(got, s) {
		t.Errorf("summary imports %+v, want %+v", got.Imports, l.Summary())
	}
	if im := got.Imports[0]; im.Records+im.Other+im.Garbled != im.Lines || im.CryptoRecords == 0 {
		t.Errorf("import counts %+v", im)
	}
}

// TestTimelineWithoutCompiles: a study where nothing compiled (-Xint, no
// import) still gets a timeline, saying so.
func TestTimelineWithoutCompiles(t *testing.T) {
	r := synthRun("-Xint", 0, 50, nil, 9)
	for i := range r.Iterations {
		r.Iterations[i].Events = nil
	}
	var b bytes.Buffer
	if err := WriteTimeline(&b, []Run{r}, nil, "t", "svg"); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, b.Bytes())
	if !strings.Contains(b.String(), "no compile of a crypto method") {
		t.Errorf("empty timeline does not say so")
	}
	if err := WriteTimeline(&b, []Run{r}, nil, "t", "gif"); err == nil {
		t.Errorf("gif accepted")
	}
}
