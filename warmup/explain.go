package warmup

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Cause is one VM event near a changepoint, as a reader would name it.
type Cause struct {
	Iteration int       `json:"iteration"`
	Kind      EventKind `json:"kind"`
	Method    string    `json:"method"`
	Level     int       `json:"level"`
	Detail    string    `json:"detail,omitempty"`
	// QueueDelay is, for an install, how long its task waited in the
	// compile queue (queued to started), and CompileTime how long the
	// compile took (started to installed); 0 when not seen.
	QueueDelay  time.Duration `json:"queue_delay_ns,omitempty"`
	CompileTime time.Duration `json:"compile_time_ns,omitempty"`
	Text        string        `json:"text"`
}

// Change is one changepoint with the VM events of its window: the
// iterations from two before it to it (an install during iteration c-1
// changes the time of c-1 only in part).
type Change struct {
	Iteration int     `json:"iteration"`
	Before    float64 `json:"before"` // mean time per op of the segment before, seconds
	After     float64 `json:"after"`  // and of the segment it starts
	Causes    []Cause `json:"causes,omitempty"`
	Text      string  `json:"text"` // the causes in one line, or that none was recorded
	// Follows is the previous changepoint (-1 for the first): a
	// changepoint without causes right after another is usually the end
	// of a two-iteration segment, PELT's shortest.
	Follows int `json:"follows"`
}

// changeWindow is how many iterations before a changepoint its causes may
// come from.
const changeWindow = 2

// compilerName names a level's code as HotSpot's tiers do.
func compilerName(level int) string {
	switch level {
	case 0:
		return "interpreter"
	case 4:
		return "C2 code"
	default:
		return fmt.Sprintf("C1 code (level %d)", level)
	}
}

// causeText is one event in words.
func causeText(c Cause) string {
	m := shortMethod(c.Method)
	var s string
	switch c.Kind {
	case EventInstalled:
		s = compilerName(c.Level) + " for " + m + " was installed"
		if c.Level == 2 {
			s += " (the level-2 detour: C2's queue was long, so C1 compiled with a limited profile)"
		}
	case EventOSR:
		s = "OSR " + compilerName(c.Level) + " for " + m + " was installed"
	case EventNotEntrant:
		s = "level-" + fmt.Sprint(c.Level) + " code of " + m + " was made not entrant"
		if c.Detail != "" {
			s += " (" + c.Detail + ")"
		}
	case EventFirstStub:
		s = m + " first called its intrinsic stub"
		if c.Detail != "" {
			s += " " + c.Detail
		}
	default:
		s = string(c.Kind) + " " + m
	}
	if c.QueueDelay > 0 {
		s += fmt.Sprintf(" after %s in the compile queue", c.QueueDelay.Round(time.Microsecond))
	}
	return s
}

// causeRank orders causes by how much they explain: C2 installs first,
// then other installs by level, OSR, first stub calls, not-entrant.
func causeRank(c Cause) int {
	switch c.Kind {
	case EventInstalled:
		return 100 + c.Level
	case EventOSR:
		return 80 + c.Level
	case EventFirstStub:
		return 60
	}
	return 0
}

// explainChanges lists r's changepoints (from a) with their causes.
func explainChanges(r Run, a Analysis) []Change {
	queued, started := map[int]time.Duration{}, map[int]time.Duration{}
	for _, it := range r.Iterations {
		for _, e := range it.Events {
			if e.CompileID == 0 {
				continue
			}
			switch e.Kind {
			case EventQueued:
				queued[e.CompileID] = e.At
			case EventStarted:
				started[e.CompileID] = e.At
			}
		}
	}
	var out []Change
	for k, c := range a.Changepoints {
		ch := Change{Iteration: c, Follows: -1}
		if k < len(a.Segments)-1 {
			ch.Before, ch.After = a.Segments[k].Mean, a.Segments[k+1].Mean
		}
		lo := max(c-changeWindow, 0)
		if k > 0 {
			lo = max(lo, a.Changepoints[k-1]+1) // each event explains one changepoint
			ch.Follows = a.Changepoints[k-1]
		}
		for i := lo; i <= c && i < len(r.Iterations); i++ {
			for _, e := range r.Iterations[i].Events {
				if e.Kind == EventQueued || e.Kind == EventStarted {
					continue
				}
				cs := Cause{Iteration: i, Kind: e.Kind, Method: e.Method, Level: e.Level, Detail: e.Detail}
				if e.CompileID != 0 && (e.Kind == EventInstalled || e.Kind == EventOSR) {
					q, qok := queued[e.CompileID]
					st, sok := started[e.CompileID]
					if qok && sok && st > q {
						cs.QueueDelay = st - q
					}
					if sok && e.At > st {
						cs.CompileTime = e.At - st
					}
				}
				cs.Text = causeText(cs)
				ch.Causes = append(ch.Causes, cs)
			}
		}
		sort.SliceStable(ch.Causes, func(i, j int) bool { return causeRank(ch.Causes[i]) > causeRank(ch.Causes[j]) })
		ch.Text = changeText(ch)
		out = append(out, ch)
	}
	return out
}

// changeText is a changepoint in one line: the direction and its causes,
// the most telling first.
func changeText(ch Change) string {
	dir := "time per op changed"
	if ch.Before > 0 && ch.After > 0 {
		dir = fmt.Sprintf("time per op %s → %s", FormatPerOp(ch.Before), FormatPerOp(ch.After))
	}
	if len(ch.Causes) == 0 && ch.Follows >= 0 && ch.Iteration-ch.Follows <= 2 {
		return fmt.Sprintf("iteration %d: %s; ends the %d-iteration segment after the change at iteration %d (an iteration only partly on the new code)",
			ch.Iteration, dir, ch.Iteration-ch.Follows, ch.Follows)
	}
	if len(ch.Causes) == 0 {
		return fmt.Sprintf("iteration %d: %s; no VM event in its window (noise, GC or the machine)", ch.Iteration, dir)
	}
	var parts []string
	for i, c := range ch.Causes {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more events", len(ch.Causes)-3))
			break
		}
		parts = append(parts, c.Text)
	}
	return fmt.Sprintf("iteration %d: %s: %s", ch.Iteration, dir, strings.Join(parts, "; "))
}

// verdict is the summary sentence of a run: where it became steady and
// why, and which followed methods were still below level 4 then.
func verdict(r Run, a Analysis, changes []Change) string {
	if !a.Steady {
		return fmt.Sprintf("no steady state: the run was still changing in its last quarter (final %s per op)", FormatPerOp(a.FinalMedian))
	}
	var b strings.Builder
	if a.SteadyIter == 0 {
		b.WriteString("steady from the first iteration")
	} else {
		fmt.Fprintf(&b, "steady from iteration %d", a.SteadyIter)
		byIter := map[int]Change{}
		for _, ch := range changes {
			byIter[ch.Iteration] = ch
		}
		ch, ok := byIter[a.SteadyIter]
		if ok && len(ch.Causes) == 0 && ch.Follows >= 0 && ch.Iteration-ch.Follows <= 2 {
			ch = byIter[ch.Follows] // the end of a two-iteration segment: the change it ends
		}
		if len(ch.Causes) > 0 {
			if ch.Iteration != a.SteadyIter {
				fmt.Fprintf(&b, ", after %s in iteration %d", ch.Causes[0].Text, ch.Causes[0].Iteration)
			} else {
				b.WriteString(", when " + ch.Causes[0].Text)
			}
		}
	}
	if a.SteadyIter < len(r.Iterations) {
		lv := r.Iterations[a.SteadyIter].Levels
		var below []string
		for _, m := range r.Methods {
			if l, ok := lv[m]; ok && l < 4 {
				below = append(below, fmt.Sprintf("%s at level %d", shortMethod(m), l))
			}
		}
		if len(below) > 0 {
			n := len(below)
			if n > 3 {
				below = append(below[:3], fmt.Sprintf("%d more", n-3))
			}
			noun := "methods"
			if n == 1 {
				noun = "method"
			}
			fmt.Fprintf(&b, "; %d followed %s still below level 4 then: %s", n, noun, strings.Join(below, ", "))
		}
	}
	return b.String()
}
