package scenario

import (
	"fmt"
	"sort"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Overrides are what a command line says about a scenario file's keys: jitsim's own options
// (--jdk, --cpu, --clock, --threads; "" or 0 when not given), its -D properties and its
// positional arguments (nil when none). The command line wins, as java's command line wins
// over the files it reads.
type Overrides struct {
	JDK, CPU, Clock string
	Threads         int
	Props           map[string]string
	Args            []string
}

// Override applies the command line's jdk, cpu and clock to f and returns one note per file
// key the command line replaces (those three, threads, args, and each property a -D sets),
// naming the key and where the file sets it. Properties, threads and args are applied when
// the variants run (FileEnv); Override only names them.
func (f *File) Override(o Overrides) ([]string, error) {
	var notes []string
	note := func(option, key string, was any) {
		at := f.Path
		if n := f.line(key); n > 0 {
			at = fmt.Sprintf("%s:%d", f.Path, n)
		}
		notes = append(notes, fmt.Sprintf("%s overrides %s = %q (%s)", option, key, fmt.Sprint(was), at))
	}
	if o.JDK != "" {
		rel, err := jdk.Parse(o.JDK)
		if err != nil {
			return nil, fmt.Errorf("--jdk: %w", err)
		}
		if _, set := f.lines["jdk"]; set && rel != f.rel {
			note("--jdk="+o.JDK, "jdk", f.JDK)
		}
		f.JDK, f.rel = rel.String(), rel
	}
	if o.CPU != "" {
		if _, err := cpu.Lookup(o.CPU); err != nil {
			return nil, fmt.Errorf("--cpu: %w", err)
		}
		if _, set := f.lines["cpu"]; set && o.CPU != f.CPU {
			note("--cpu="+o.CPU, "cpu", f.CPU)
		}
		f.CPU = o.CPU
	}
	if o.Clock != "" {
		if o.Clock != ClockWall && o.Clock != ClockModel {
			return nil, fmt.Errorf("--clock: unknown clock %q (want %q or %q)", o.Clock, ClockWall, ClockModel)
		}
		if _, set := f.lines["clock"]; set && o.Clock != f.Clock {
			note("--clock="+o.Clock, "clock", f.Clock)
		}
		f.Clock = o.Clock
	}
	if o.Threads > 0 && f.Threads > 0 && o.Threads != f.Threads {
		note(fmt.Sprintf("--threads=%d", o.Threads), "threads", f.Threads)
	}
	if o.Args != nil && f.Args != nil {
		note(fmt.Sprintf("the arguments %q", o.Args), "args", f.Args)
	}
	names := make([]string, 0, len(o.Props))
	for name := range o.Props {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if v, ok := f.Props[name]; ok && fmt.Sprint(v) != o.Props[name] {
			note("-D"+name+"="+o.Props[name], "properties."+name, v)
		}
		for i, c := range f.Compare {
			if v, ok := c.Props[name]; ok && fmt.Sprint(v) != o.Props[name] {
				note("-D"+name+"="+o.Props[name], fmt.Sprintf("compare.%d.properties.%s", i, name), v)
			}
		}
	}
	return notes, nil
}
