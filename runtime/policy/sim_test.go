package policy

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
)

// sim is a tiny deterministic VM driver for tests: it calls Invoke and
// Backedge as an interpreter and compiled code would, runs blocking
// compiles on the spot, and records PrintTieredEvents and
// PrintCompilation output in order.
type sim struct {
	t    *testing.T
	p    *Policy
	now  time.Duration
	step time.Duration // model time per counted event
	out  []string
}

func newSim(t *testing.T, cfg Config, c1, c2 int) *sim {
	t.Helper()
	p, err := New(cfg, c1, c2)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s := &sim{t: t, p: p, step: time.Microsecond}
	p.SetTrace(func(e TieredEvent) { s.out = append(s.out, FormatTieredEvent(cfg.JDK, e)) })
	return s
}

// cfgOf returns the configuration java runs with for the options args on release rel
// (x86_64, diagnostic options unlocked): the flag set flags.Parse settles, read by FromFlags.
func cfgOf(t testing.TB, rel jdk.Release, args ...string) Config {
	t.Helper()
	c, err := configOf(rel, args...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// configOf is cfgOf returning the error.
func configOf(rel jdk.Release, args ...string) (Config, error) {
	set, _, err := flags.Parse(flags.Options{JDK: rel, Arch: jdk.AMD64,
		Args: append([]string{"-XX:+UnlockDiagnosticVMOptions"}, args...)})
	if err != nil {
		return Config{}, fmt.Errorf("JDK %s %v: %w", rel, args, err)
	}
	return FromFlags(set)
}

// compile runs task t (already handed out by Next or about to be) to
// completion and follows up blocking follow-ups.
func (s *sim) compile(t *Task) {
	s.t.Helper()
	for t != nil {
		got := s.p.Next(t.Compiler(), s.now)
		if got != t {
			s.t.Fatalf("Next(%v) = %v, want task %d", t.Compiler(), got, t.ID)
		}
		s.out = append(s.out, s.p.TaskLine(t, s.now))
		res := s.p.Installed(t, s.now)
		for _, n := range res.NotEntrant {
			s.out = append(s.out, s.p.NotEntrantLine(n, s.now))
		}
		t = res.Next
	}
}

// drain compiles everything queued for compiler c, best task first.
func (s *sim) drain(c Compiler) []*Task {
	var done []*Task
	for {
		t := s.p.Next(c, s.now)
		if t == nil {
			if s.p.QueueLen(c) == 0 {
				return done
			}
			continue
		}
		s.out = append(s.out, s.p.TaskLine(t, s.now))
		res := s.p.Installed(t, s.now)
		for _, n := range res.NotEntrant {
			s.out = append(s.out, s.p.NotEntrantLine(n, s.now))
		}
		done = append(done, t)
	}
}

// call performs one invocation of m through its current code.
func (s *sim) call(m *Method) Decision {
	d, _ := s.invoke(m)
	return d
}

// invoke performs one invocation and also returns the level of the code
// the invocation runs in. An -Xcomp forced compile happens before the
// invocation, which then runs (and is counted) in the new code.
func (s *sim) invoke(m *Method) (Decision, Level) {
	lvl, _ := s.p.Level(m)
	d := s.p.Invoke(m, lvl, s.now)
	s.now += s.step
	if d.Task != nil && d.Task.Blocking {
		forced := d.Task.Reason == ReasonMustBeCompiled
		s.compile(d.Task)
		if forced {
			lvl, _ = s.p.Level(m)
			if d2 := s.p.Invoke(m, lvl, s.now); d2.Task != nil {
				d = d2
				if d2.Task.Blocking {
					s.compile(d2.Task)
				}
			}
		}
	}
	return d, lvl
}

// frame is one activation running a loop: the level of the code it runs
// and, when it entered OSR code, that code.
type frame struct {
	m     *Method
	bci   int
	level Level
	code  *Code
}

func (s *sim) enter(m *Method, bci int) *frame {
	_, lvl := s.invoke(m)
	return &frame{m: m, bci: bci, level: lvl}
}

// backedge takes one back-edge in f, moving f into OSR code when the
// policy offers it: from the interpreter directly; from C1 code by
// deoptimizing to the interpreter first (Runtime1::counter_overflow).
func (s *sim) backedge(f *frame) Decision {
	d := s.p.Backedge(f.m, f.level, f.bci, s.now)
	s.now += s.step
	osr := d.OSR
	if d.Task != nil && d.Task.Blocking {
		s.compile(d.Task)
		osr = s.p.OSREntry(f.m, f.bci, f.level)
	}
	if osr != nil {
		if f.level == LevelNone {
			f.level, f.code = osr.Level, osr
		} else if f.level.IsC1() {
			f.level, f.code = LevelNone, nil
		}
	}
	return d
}

// trap deoptimizes the OSR code f runs (an uncommon trap at loop exit).
func (s *sim) trap(f *frame) {
	if f.code == nil {
		return
	}
	for _, n := range s.p.Deoptimize(f.code, s.now) {
		s.out = append(s.out, s.p.NotEntrantLine(n, s.now))
	}
	s.p.Reprofile(f.m, s.now)
	f.level, f.code = LevelNone, nil
}

var (
	reEventTime = regexp.MustCompile(`^[0-9]+\.[0-9]+: `)
	reRate      = regexp.MustCompile(`rate=\S+ `)
	rePrintHead = regexp.MustCompile(`^ *[0-9]+ +([0-9]+) `)
)

// normalize drops what depends on wall time (timestamps, rates) and
// renumbers compile ids by first appearance, so a model run and a
// recorded JVM run compare line by line.
func normalize(lines []string) []string {
	ids := map[string]int{}
	var out []string
	for _, l := range lines {
		switch {
		case reEventTime.MatchString(l):
			l = reEventTime.ReplaceAllString(l, "")
			l = reRate.ReplaceAllString(l, "")
		case rePrintHead.MatchString(l):
			id := rePrintHead.FindStringSubmatch(l)[1]
			if _, ok := ids[id]; !ok {
				ids[id] = len(ids) + 1
			}
			l = rePrintHead.ReplaceAllString(l, "#"+itoa4(ids[id])+" ")
		}
		out = append(out, l)
	}
	return out
}

func itoa4(n int) string { return fmt.Sprintf("%4d", n) }

// only keeps the lines about one method (by its print or sig name).
func only(lines []string, m *Method) []string {
	var out []string
	for _, l := range lines {
		if strings.Contains(l, "["+m.SigName()+"]") || strings.Contains(l, " "+m.PrintName()+" ") {
			out = append(out, l)
		}
	}
	return out
}

func diffLines(t *testing.T, name string, got, want []string) {
	t.Helper()
	n := max(len(got), len(want))
	for i := 0; i < n; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s: first difference at line %d (got %d lines, want %d)\n got: %q\nwant: %q", name, i+1, len(got), len(want), g, w)
			return
		}
	}
}
