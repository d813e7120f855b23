package jvmharness

import (
	"context"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestProgramsMatchSources checks that every embedded Java file is a listed program and every
// program has its file, declaring the public class the source launcher runs.
func TestProgramsMatchSources(t *testing.T) {
	files, err := fs.Glob(sources, "*.java")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, p := range Programs() {
		listed = append(listed, p.File())
		src, err := p.Source()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "public class "+string(p)+" ") {
			t.Errorf("%s does not declare public class %s", p.File(), p)
		}
	}
	slices.Sort(files)
	slices.Sort(listed)
	if !slices.Equal(files, listed) {
		t.Errorf("embedded %v, listed %v", files, listed)
	}
	if _, err := Program("Nope").Source(); err == nil {
		t.Error("an unknown program has a source")
	}
}

// TestRunOnJava runs Hot with a few calls on the java on PATH (skipped without one) through
// the source launcher, and a program whose JVM fails.
func TestRunOnJava(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on PATH")
	}
	ctx := context.Background()
	out, err := Run(ctx, java, Hot, []string{"-Xint"}, "100", "1000")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(out.Stdout); got != "done true\n" {
		t.Errorf("Hot printed %q", got)
	}
	if v := Version(ctx, java); v == "" {
		t.Errorf("java.version %q", v)
	}
	_, err = Run(ctx, java, Hot, []string{"-XX:+NoSuchOption"})
	if err == nil || !strings.Contains(err.Error(), "Hot.java") || !strings.Contains(err.Error(), "NoSuchOption") {
		t.Errorf("a failing JVM: %v", err)
	}
}

// TestBenchTwinsOnJava runs each scenario twin for two iterations on the java on PATH
// (skipped without one) and checks the iteration lines; an unknown scenario fails.
func TestBenchTwinsOnJava(t *testing.T) {
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on PATH")
	}
	ctx := context.Background()
	prog, err := Compile(ctx, java, Bench)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	props := []string{"-DdataSize=64", "-DaadSize=64", "-DmsgSize=64"}
	for _, s := range Twins {
		out, err := prog.Run(ctx, props, s, "0", "2", "3")
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if n := strings.Count(string(out.Stderr), "jitsim-iter "); n != 2 {
			t.Errorf("%s: %d iteration lines:\n%s", s, n, out.Stderr)
		}
	}
	if _, err := prog.Run(ctx, nil, "TestAESMain", "0", "1", "1"); err == nil {
		t.Error("an unknown scenario ran")
	}
}

// TestOptionsFixHeap checks that a harness JVM runs on the fixed, pre-touched heap unless its
// own options size or touch the heap.
func TestOptionsFixHeap(t *testing.T) {
	for _, c := range []struct {
		in   []string
		heap bool
	}{
		{nil, true},
		{[]string{"-Xint", "-Xmixed", "-XX:TieredStopAtLevel=1"}, true},
		{[]string{"-Xmx2g"}, false},
		{[]string{"-XX:UseAVX=2", "-Xms64m"}, false},
		{[]string{"-XX:MaxRAMPercentage=50"}, false},
		{[]string{"-XX:-AlwaysPreTouch"}, false},
		{[]string{"-XX:MaxHeapSize=1g"}, false},
	} {
		got := Options(c.in)
		want := append([]string{}, c.in...)
		if c.heap {
			want = append([]string{"-XX:+AlwaysPreTouch", "-Xms256m", "-Xmx256m"}, c.in...)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Options(%q) = %q, want %q", c.in, got, want)
		}
	}
}
