package main

import (
	"strings"
	"testing"
)

// FuzzSplitRunArgs feeds arbitrary `jitsim run` argument lists to the splitter that separates
// jitsim's options, java's options (with the values they take) and the scenario: it must
// never panic, and must lose or invent no argument (jitsim's, java's, the scenario and its
// arguments are the input, in order, but for a "--" separator).
func FuzzSplitRunArgs(f *testing.F) {
	for _, seed := range []string{
		"--jdk=17\n-cp\napp.jar\nTestAESMain\n2\n1",
		"-jar\napp.jar\n-x",
		"--add-opens\njava.base/java.lang=ALL-UNNAMED\n--cpu\nsandy\n-Xlog:jit+compilation\n-version",
		"-cp\n-version",
		"--\nTestAESMain\n--jdk=8",
		"-m\nmod/cls\n@args\n--class-path=x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\n")
		if len(args) > 64 {
			args = args[:64]
		}
		r, err := splitRunArgs(args)
		if err != nil {
			return
		}
		var got []string
		got = append(got, r.own...)
		got = append(got, r.vm...)
		if r.kind != "" {
			got = append(got, r.scenario)
		}
		got = append(got, r.rest...)
		// What the splitter may drop: one "--" separator, or the -jar/-m/--module that names
		// the program; nothing else, and it invents nothing.
		left := map[string]int{}
		for _, a := range args {
			left[a]++
		}
		for _, a := range got {
			if left[a] == 0 {
				t.Fatalf("split %q: %q appears more often than given", args, a)
			}
			left[a]--
		}
		var dropped []string
		for a, n := range left {
			for range n {
				dropped = append(dropped, a)
			}
		}
		switch {
		case len(dropped) == 0:
		case len(dropped) == 1 && (dropped[0] == "--" || dropped[0] == "-jar" || dropped[0] == "-m" || dropped[0] == "--module"):
		default:
			t.Fatalf("split %q lost %q", args, dropped)
		}
	})
}
