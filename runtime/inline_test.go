package runtime_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// TestInlineDecision checks the inlining decision per callee and caller
// level: levels 1, 2 and 4 inline what no stub replaces, a stub site stays a
// call, levels 0 and 3 never inline.
func TestInlineDecision(t *testing.T) {
	tests := []struct {
		jdk    flags.JDK
		args   []string
		callee string
		level  jrt.Level
		want   jrt.InlineDecision
	}{
		{flags.JDK25, nil, "GCTR.update", 4, jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{flags.JDK25, nil, "GCTR.update", 1, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{flags.JDK25, nil, "GCTR.update", 0, jrt.InlineDecision{Reason: jrt.InlineInterpreter}},
		{flags.JDK25, nil, "GCTR.update", 2, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{flags.JDK25, nil, "GCTR.update", 3, jrt.InlineDecision{Reason: jrt.InlineProfiled}},
		{flags.JDK25, nil, "CounterMode.implCrypt", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{flags.JDK25, nil, "CounterMode.implCrypt", 1, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{flags.JDK17, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESCTRIntrinsics"}, "CounterMode.implCrypt", 4,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{flags.JDK17, []string{"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseGHASHIntrinsics"}, "GHASH.processBlocks", 4,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{flags.JDK17, nil, "GHASH.processBlocks", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{flags.JDK8, nil, "AESCrypt.implEncryptBlock", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{flags.JDK8, nil, "GHASH.processBlock", 4, jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
	}
	for _, tt := range tests {
		t.Run(tt.jdk.String()+"/"+tt.callee+"/"+string(rune('0'+tt.level))+"/"+strings.Join(tt.args, ","), func(t *testing.T) {
			set, _, err := flags.Parse(flags.Options{JDK: tt.jdk, Arch: flags.AMD64, Args: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithTiers(tiers.Default()...))
			if err != nil {
				t.Fatal(err)
			}
			defer vm.Close()
			m, err := vm.Method(tt.callee)
			if err != nil {
				t.Fatal(err)
			}
			if got := vm.Inline(jrt.Site{Level: tt.level, Callee: m}); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// hotspotInliningLines are PrintInlining lines of the real JVMs on this
// machine (JDK 17.0.15 and Temurin 25, -XX:+PrintCompilation
// -XX:+PrintInlining on an AES-GCM decryption loop), kept to pin the layout
// the regexp below describes.
var hotspotInliningLines = []string{
	"                              @ 155   com.sun.crypto.provider.GHASH::update (9 bytes)   inline (hot)",
	"                                @ 5   com.sun.crypto.provider.GHASH::update (50 bytes)   inline (hot)",
	"                                  @ 44   com.sun.crypto.provider.GHASH::processBlocks (26 bytes)   (intrinsic)",
	"                              @ 5   com.sun.crypto.provider.GaloisCounterMode$GCMEngine::getBufferedLength (19 bytes)   inline",
	"                              @ 238   com.sun.crypto.provider.GHASH::update (9 bytes)   inline",
}

// inliningLineRE is the layout of one line, as CompileTask::print_inlining_inner
// prints it with tiered compilation: 28 blank columns, two spaces per inline
// depth, "@ bci", holder::name, the size and the message.
var inliningLineRE = regexp.MustCompile(`^ {28}(?:  )+@ \d+   [\w.$]+::[\w$<>]+ \(\d+ bytes\)   (?:inline \(hot\)|inline|\(intrinsic\)|\(intrinsic, predicate\))$`)

var updateInlining = flag.Bool("update-inlining", false, "rewrite testdata/printinlining/*.golden")

// TestPrintInliningGolden warms AES/GCM decryption on JDK 25 and 17 with
// -XX:+PrintCompilation -XX:+PrintInlining and compares the distinct
// inlining trees (each block of PrintInlining lines a compile prints, in
// one write) with testdata/printinlining/<jdk>_gcm.golden, and every line's
// layout with HotSpot's (-update-inlining rewrites the goldens). Which
// compile a tree follows is not compared: compiler threads print their
// PrintCompilation lines at the start of a compile and the tree at link
// time, so another thread's line may come between (as in HotSpot).
func TestPrintInliningGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("warms a VM to level 4")
	}
	for _, l := range hotspotInliningLines {
		if !inliningLineRE.MatchString(l) {
			t.Fatalf("the layout regexp does not match HotSpot's own line %q", l)
		}
	}
	for _, jdk := range []flags.JDK{flags.JDK17, flags.JDK25} {
		t.Run("jdk="+jdk.String(), func(t *testing.T) {
			var out bytes.Buffer
			w := newWarmGCM(t, jdk, &out, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "-XX:+PrintCompilation")
			w.vm.Close()
			got := inliningTrees(t, out.String())
			golden := filepath.Join("testdata", "printinlining", jdk.String()+"_gcm.golden")
			if *updateInlining {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-inlining)", err)
			}
			if got != string(want) {
				t.Errorf("inlining trees differ from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// inliningTrees returns the distinct blocks of consecutive PrintInlining
// lines in text, sorted, separated by blank lines.
func inliningTrees(t *testing.T, text string) string {
	t.Helper()
	var trees []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			if tree := strings.Join(cur, "\n") + "\n"; !slices.Contains(trees, tree) {
				trees = append(trees, tree)
			}
			cur = nil
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, strings.Repeat(" ", 28)) && strings.Contains(l, "@ ") {
			if !inliningLineRE.MatchString(l) {
				t.Errorf("PrintInlining line not in HotSpot's layout: %q", l)
			}
			cur = append(cur, l)
			continue
		}
		flush()
	}
	flush()
	slices.Sort(trees)
	return strings.Join(trees, "\n")
}
