package ergo

import (
	"slices"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// TestHeapFromMachine checks the heap and collector ergonomics against machines other than
// the recording's. The sizes are java's: OpenJDK 17.0.15 printed them with -XX:MaxRAM=200m
// and -XX:MaxRAM=1g (MaxRAM stands in for the memory in the sizing, not in the choice of
// collector, which reads the physical memory and the active processors).
func TestHeapFromMachine(t *testing.T) {
	for _, c := range []struct {
		name                string
		memory              uint64
		cores               int
		thp                 string
		gc                  string
		max, initial, least string
		printed             string // the line's THPStackMitigation part, "" when absent
	}{
		{"200 MiB, small-memory share", 200 << 20, 2, "", "UseSerialGC", "104857600", "6815736", "6815736", "-XX:-THPStackMitigation"},
		{"1 GiB, one processor", 1 << 30, 1, "", "UseSerialGC", "268435456", "16777216", "6815736", "-XX:-THPStackMitigation"},
		{"24105 MiB, two processors, THP always", 25276153856, 2, "always", "UseG1GC", "6319038464", "394939904", "6815736", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: []string{"-XX:+PrintCommandLineFlags", "-version"}})
			if err != nil {
				t.Fatal(err)
			}
			m := cpu.Model{Name: "test", Arch: jdk.AMD64, Features: cpu.Host(), Cores: c.cores, Memory: c.memory, THP: c.thp}
			_, line, err := SettleStderr(set, m, c.cores)
			if err != nil {
				t.Fatal(err)
			}
			if got := line.Collector(); got != c.gc {
				t.Errorf("collector %s, want %s", got, c.gc)
			}
			for _, f := range []struct{ name, want string }{{"MaxHeapSize", c.max}, {"InitialHeapSize", c.initial}, {"MinHeapSize", c.least}} {
				if got := line.Value(f.name); got != f.want {
					t.Errorf("%s = %s, want %s", f.name, got, f.want)
				}
			}
			if got := line.Origin("THPStackMitigation") == flags.Ergonomic; got != (c.printed != "") {
				t.Errorf("THPStackMitigation set ergonomically: %v, want %v", got, c.printed != "")
			}
			// After the line: aligned to the collector's heap alignment (2 MB here).
			if v := set.Uint("InitialHeapSize"); v%(2<<20) != 0 {
				t.Errorf("InitialHeapSize %d after start-up is not aligned", v)
			}
		})
	}
}

// TestExitLogMatchesJava compares G1's exit summary with what java printed for
// `-Xmx256m -Xlog:gc+heap+exit` (17) and `-Xlog:gc+exit` (25) -version on the recording
// host; 25 printed the same lines in every run, 17 the same but for the heap's use (1439K or
// 1685K).
func TestExitLogMatchesJava(t *testing.T) {
	java := map[jdk.Release][]string{
		jdk.R17: {"Heap",
			" garbage-first heap   total 262144K, used 1439K [0x00000000f0000000, 0x0000000100000000)",
			"  region size 1024K, 1 young (1024K), 0 survivors (0K)",
			" Metaspace       used 52K, committed 128K, reserved 1114112K",
			"  class space    used 1K, committed 64K, reserved 1048576K"},
		jdk.R25: {"Heap",
			" garbage-first heap   total reserved 262144K, committed 262144K, used 2026K [0x00000000f0000000, 0x0000000100000000)",
			"  region size 1024K, 1 young (1024K), 0 survivors (0K)",
			" Metaspace       used 59K, committed 128K, reserved 1114112K",
			"  class space    used 2K, committed 64K, reserved 1048576K"},
	}
	tags := map[jdk.Release]string{jdk.R17: "gc,heap,exit", jdk.R25: "gc,exit"}
	m, err := cpu.Lookup("skylake-avx2")
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range java {
		_, _, set, err := settle(t, rel, jdk.AMD64, m, 2, []string{"-Xmx256m"})
		if err != nil {
			t.Fatal(err)
		}
		// G1's threads stop first, logged at debug (-Xlog:gc*=debug on both releases).
		var got []flags.LogLine
		var debug []string
		for _, l := range ExitLog(set) {
			if l.Level == "debug" {
				debug = append(debug, l.Tags+": "+l.Text)
				continue
			}
			got = append(got, l)
		}
		if want := []string{"gc,refine: Stopping 0", "gc,task: G1 Service Thread (stopping)"}; !slices.Equal(debug, want) {
			t.Errorf("%s: debug lines %q, java %q", rel, debug, want)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d lines, java %d: %v", rel, len(got), len(want), got)
		}
		for i, l := range got {
			if l.Text != want[i] || l.Tags != tags[rel] || l.Level != "info" {
				t.Errorf("%s line %d: %+v, java %q [%s]", rel, i, l, want[i], tags[rel])
			}
		}
	}
	// Serial on 25: every line java printed in each run, but for eden's top, which is the
	// run's last allocation (0x00000000f0419508 there).
	serial := []string{"Heap",
		" DefNew     total 78656K, used 4197K [0x00000000f0000000, 0x00000000f5550000, 0x00000000f5550000)",
		"  eden space 69952K,   6% used [0x00000000f0000000, ",
		"  from space 8704K,   0% used [0x00000000f4450000, 0x00000000f4450000, 0x00000000f4cd0000)",
		"  to   space 8704K,   0% used [0x00000000f4cd0000, 0x00000000f4cd0000, 0x00000000f5550000)",
		" Tenured    total 174784K, used 1166K [0x00000000f5550000, 0x0000000100000000, 0x0000000100000000)",
		"  the  space 174784K,   0% used [0x00000000f5550000, 0x00000000f5673ab8, 0x0000000100000000)",
		" Metaspace       used 59K, committed 128K, reserved 1114112K",
		"  class space    used 2K, committed 64K, reserved 1048576K"}
	_, _, set, err := settle(t, jdk.R25, jdk.AMD64, m, 2, []string{"-Xmx256m", "-XX:+UseSerialGC"})
	if err != nil {
		t.Fatal(err)
	}
	got := ExitLog(set)
	if len(got) != len(serial) {
		t.Fatalf("Serial: %d lines, java %d: %v", len(got), len(serial), got)
	}
	for i, l := range got {
		if i == 2 && !strings.HasPrefix(l.Text, serial[i]) || i != 2 && l.Text != serial[i] {
			t.Errorf("Serial line %d: %q, java %q", i, l.Text, serial[i])
		}
	}
}
