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
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers"
)

// TestInlineDecision checks the inlining decision per callee, caller level
// and call site: a stub site stays a call, level 0 never inlines, level 3
// never inlines in jitsim, and HotSpot's size limits refuse callees by
// their Java bytecode size — C1 above C1MaxInlineSize (JDK 8:
// MaxInlineSize), C2 above FreqInlineSize at a hot site and MaxInlineSize
// at a cold one (a caller that has not run yet; no caller stands for a warm
// one), with JDK 25's "failed to inline: " prefix.
func TestInlineDecision(t *testing.T) {
	const fail = jrt.InlineFailPrefix
	diag := "-XX:+UnlockDiagnosticVMOptions"
	tests := []struct {
		jdk    jdk.Release
		args   []string
		caller string // "": no caller (warm); else a method of a fresh VM (cold)
		callee string
		level  jrt.Level
		want   jrt.InlineDecision
	}{
		{jdk.R25, nil, "", "GCTR.update", 4, jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R25, nil, "", "GCTR.update", 1, jrt.InlineDecision{Reason: fail + jrt.InlineTooLarge}},
		{jdk.R25, nil, "", "GCTR.update", 0, jrt.InlineDecision{Reason: jrt.InlineInterpreter}},
		{jdk.R25, nil, "", "GCTR.update", 2, jrt.InlineDecision{Reason: fail + jrt.InlineTooLarge}},
		{jdk.R25, nil, "", "GCTR.update", 3, jrt.InlineDecision{Reason: fail + jrt.InlineTooLarge}},
		{jdk.R25, nil, "", "GHASH.processBlocks", 3, jrt.InlineDecision{Reason: jrt.InlineProfiled}},
		{jdk.R25, nil, "", "GHASH.processBlocks", 1, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{jdk.R25, []string{"-XX:C1MaxInlineSize=208"}, "", "GCTR.update", 2, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{jdk.R25, []string{"-XX:C1MaxInlineSize=0"}, "", "GHASH.processBlocks", 1, jrt.InlineDecision{Reason: fail + jrt.InlineTooLarge}},
		{jdk.R25, []string{"-XX:C1MaxInlineSize=0", "-XX:C1MaxTrivialSize=26"}, "", "GHASH.processBlocks", 1,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{jdk.R25, nil, "GCTR.doFinal", "GCTR.update", 4, jrt.InlineDecision{Reason: fail + jrt.InlineTooBig}},
		{jdk.R25, []string{"-XX:MaxInlineSize=208"}, "GCTR.doFinal", "GCTR.update", 4, jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R25, []string{"-XX:FreqInlineSize=207"}, "", "GCTR.update", 4, jrt.InlineDecision{Reason: fail + jrt.InlineHotTooBig}},
		{jdk.R25, []string{"-XX:FreqInlineSize=20"}, "", "GCTR.update", 4, jrt.InlineDecision{Reason: fail + jrt.InlineTooBig}},
		{jdk.R25, nil, "", "CounterMode.implCrypt", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{jdk.R25, nil, "", "CounterMode.implCrypt", 1, jrt.InlineDecision{Reason: fail + jrt.InlineTooLarge}},
		{jdk.R17, nil, "", "GCTR.update", 1, jrt.InlineDecision{Reason: jrt.InlineTooLarge}},
		{jdk.R17, nil, "GCTR.doFinal", "GCTR.update", 4, jrt.InlineDecision{Reason: jrt.InlineTooBig}},
		{jdk.R17, []string{diag, "-XX:InlineFrequencyCount=0"}, "GCTR.doFinal", "GCTR.update", 4,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R17, []string{diag, "-XX:-UseAESCTRIntrinsics"}, "", "CounterMode.implCrypt", 4,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R17, []string{diag, "-XX:-UseGHASHIntrinsics"}, "", "GHASH.processBlocks", 4,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R17, []string{diag, "-XX:-UseAESIntrinsics"}, "", "AESCrypt.implEncryptBlock", 4,
			jrt.InlineDecision{Reason: jrt.InlineHotTooBig}},
		{jdk.R17, nil, "", "GHASH.processBlocks", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{jdk.R8, nil, "", "AESCrypt.implEncryptBlock", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
		{jdk.R8, nil, "", "GHASH.processBlock", 4, jrt.InlineDecision{Inline: true, Reason: jrt.InlineHot}},
		{jdk.R8, nil, "", "GHASH.processBlock", 1, jrt.InlineDecision{Reason: jrt.InlineTooLarge}},
		{jdk.R8u, nil, "", "GHASH.processBlock", 1, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		{jdk.R8, []string{"-XX:MaxInlineSize=158"}, "", "GCTR.update", 2, jrt.InlineDecision{Inline: true, Reason: jrt.InlineC1}},
		// Compile commands decide before the size limits, after a stub (a dontinline'd
		// intrinsic still gets its stub).
		{jdk.R25, []string{"-XX:CompileCommand=dontinline,*GHASH.processBlock"}, "", "GHASH.processBlock", 4,
			jrt.InlineDecision{Reason: fail + jrt.InlineDisallowed, Command: "-XX:CompileCommand=dontinline,*GHASH.processBlock"}},
		{jdk.R17, []string{"-XX:CompileCommand=exclude,com.sun.crypto.provider.GHASH::processBlock"}, "", "GHASH.processBlock", 1,
			jrt.InlineDecision{Reason: jrt.InlineDisallowed, Command: "-XX:CompileCommand=exclude,com.sun.crypto.provider.GHASH::processBlock"}},
		{jdk.R17, []string{"-XX:CompileCommand=inline,*.update"}, "", "GCTR.update", 1,
			jrt.InlineDecision{Inline: true, Reason: jrt.InlineForced, Command: "-XX:CompileCommand=inline,*.update"}},
		{jdk.R17, []string{"-XX:CompileCommand=inline,*.update"}, "", "GCTR.update", 3,
			jrt.InlineDecision{Reason: jrt.InlineForced, Command: "-XX:CompileCommand=inline,*.update"}},
		{jdk.R17, []string{"-XX:CompileCommand=dontinline,*.processBlocks"}, "", "GHASH.processBlocks", 4, jrt.InlineDecision{Reason: jrt.InlineIntrinsic}},
	}
	for _, tt := range tests {
		name := tt.jdk.String() + "/" + tt.caller + ">" + tt.callee + "/" + string(rune('0'+tt.level)) + "/" + strings.Join(tt.args, ",")
		t.Run(name, func(t *testing.T) {
			set, _, err := flags.Parse(flags.Options{JDK: tt.jdk, Arch: jdk.AMD64, Args: tt.args})
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
			site := jrt.Site{Level: tt.level, Callee: m}
			if tt.caller != "" {
				if site.Caller, err = vm.Method(tt.caller); err != nil {
					t.Fatal(err)
				}
			}
			if got := vm.Inline(site); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// hotspotInliningLines are PrintInlining lines of the real JVMs on this
// machine (JDK 17.0.15 and Temurin 25, -XX:+PrintCompilation
// -XX:+PrintInlining on AES-GCM loops), kept to pin the layout the regexp
// below describes, the size refusals among them (JDK 25 prefixes them with
// "failed to inline: ").
var hotspotInliningLines = []string{
	"                              @ 155   com.sun.crypto.provider.GHASH::update (9 bytes)   inline (hot)",
	"                                @ 5   com.sun.crypto.provider.GHASH::update (50 bytes)   inline (hot)",
	"                                  @ 44   com.sun.crypto.provider.GHASH::processBlocks (26 bytes)   (intrinsic)",
	"                              @ 5   com.sun.crypto.provider.GaloisCounterMode$GCMEngine::getBufferedLength (19 bytes)   inline",
	"                              @ 238   com.sun.crypto.provider.GHASH::update (9 bytes)   inline",
	"                              @ 13   com.sun.crypto.provider.GHASH::processBlock (37 bytes)   callee is too large",
	"                              @ 13   java.lang.invoke.VarForm::resolveMemberName (61 bytes)   too big",
	"                              @ 6   com.sun.crypto.provider.AESCrypt::implEncryptBlock (947 bytes)   failed to inline: callee is too large",
	"                                @ 13   java.lang.invoke.VarForm::resolveMemberName (91 bytes)   failed to inline: too big",
	// Temurin 25 prints a predicated intrinsic's messages on one line
	// (bytecode/testdata/printintrinsics_ctr_jdk25.txt).
	"                                          @ 86   com.sun.crypto.provider.CounterMode::implCrypt (88 bytes)   inline (hot)   (intrinsic, predicate)   (intrinsic)",
}

// inliningLineRE is the layout of one line, as CompileTask::print_inlining_inner
// prints it with tiered compilation: 28 blank columns, two spaces per inline
// depth, "@ bci", holder::name, the size and the message.
var inliningLineRE = regexp.MustCompile(`^ {28}(?:  )+@ \d+   [\w.$]+::[\w$<>]+ \(\d+ bytes\)   (?:inline \(hot\)   \(intrinsic, predicate\)   \(intrinsic\)|inline \(hot\)|inline|\(intrinsic\)|\(intrinsic, predicate\)|(?:failed to inline: )?(?:too big|hot method too big|callee is too large))$`)

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
	for _, rel := range []jdk.Release{jdk.R17, jdk.R25} {
		t.Run("jdk="+rel.String(), func(t *testing.T) {
			var out bytes.Buffer
			w := newWarmGCM(t, rel, &out, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "-XX:+PrintCompilation")
			w.vm.Close()
			got := inliningTrees(t, out.String())
			golden := filepath.Join("testdata", "printinlining", rel.String()+"_gcm.golden")
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
