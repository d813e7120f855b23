package warmup

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// RunSummary is one run's analysis with the run's identity.
type RunSummary struct {
	Label      string   `json:"label"`
	Fork       int      `json:"fork"`
	Scenario   string   `json:"scenario,omitempty"`
	Flags      []string `json:"flags,omitempty"`
	CPU        string   `json:"cpu,omitempty"`
	JDK        string   `json:"jdk,omitempty"`
	Clock      string   `json:"clock,omitempty"`
	Iterations int      `json:"iterations"`
	Analysis   Analysis `json:"analysis"`
	// Changes are the changepoints with the VM events of their windows;
	// Verdict says in one sentence where the run became steady and why.
	Changes []Change `json:"changes,omitempty"`
	Verdict string   `json:"verdict"`
	// Traini is the run under Traini et al.'s rule (Options.Traini).
	Traini *TrainiResult `json:"traini,omitempty"`
}

// LabelSummary is the verdict over all forks of one option set.
type LabelSummary struct {
	Label   string  `json:"label"`
	Forks   int     `json:"forks"`
	Class   Class   `json:"class"`   // Combine of the forks' classes
	Classes []Class `json:"classes"` // per fork, in fork order
	// Medians over the forks that reached a steady state (warmup_stats
	// reports medians too); Steady is false when none did.
	Steady      bool          `json:"steady"`
	SteadyIter  int           `json:"steady_iter"`
	SteadyMean  float64       `json:"steady_mean"` // seconds per op
	SteadyStart time.Duration `json:"steady_start_ns"`
	WarmupCost  time.Duration `json:"warmup_cost_ns"`
	// Medians over all forks of the final speed and of the first
	// iteration at half that speed or better and its start
	// (Analysis.FinalMedian, HalfSpeedIter, HalfSpeedStart).
	FinalMedian    float64       `json:"final_median"`
	HalfSpeedIter  int           `json:"half_speed_iter"`
	HalfSpeedStart time.Duration `json:"half_speed_start_ns"`
	// Verdict is the first fork's (RunSummary.Verdict).
	Verdict string `json:"verdict"`
	// Stats is warmup_stats's own summary of the forks.
	Stats *LabelStats `json:"warmup_stats,omitempty"`
	// TrainiClass combines the forks' classes under Traini et al.'s rule
	// (Options.Traini).
	TrainiClass Class `json:"traini_class,omitempty"`
}

// Summary is what summary.json holds.
type Summary struct {
	Options Options        `json:"options"`
	Labels  []LabelSummary `json:"labels"`
	Runs    []RunSummary   `json:"runs"`
	// Imports are the -XX:+PrintCompilation logs overlaid on the study
	// (WriteAll fills them from ReportMeta.Imports).
	Imports []ImportSummary `json:"imports,omitempty"`
	// Baseline is the option set the ratios divide by; Ratios compare
	// every other set with it (Compare).
	Baseline string  `json:"baseline,omitempty"`
	Ratios   []Ratio `json:"ratios,omitempty"`
}

// Summarize analyses every run and combines the forks of each label, labels
// in the order they first appear.
func Summarize(runs []Run, o Options) (Summary, error) {
	s := Summary{Options: o}
	byLabel := map[string][]int{}
	var order []string
	for _, r := range runs {
		a, err := AnalyzeRun(r, o)
		if err != nil {
			return s, err
		}
		if _, ok := byLabel[r.Label]; !ok {
			order = append(order, r.Label)
		}
		byLabel[r.Label] = append(byLabel[r.Label], len(s.Runs))
		ch := explainChanges(r, a)
		rs := RunSummary{Label: r.Label, Fork: r.Fork, Scenario: r.Scenario, Flags: r.Flags,
			CPU: r.CPU, JDK: r.JDK, Clock: r.Clock, Iterations: len(r.Iterations), Analysis: a, Changes: ch, Verdict: verdict(r, a, ch)}
		if o.Traini {
			tr, err := Traini(r.PerOp(), o.Steady, labelSeed(r.Label)+uint64(r.Fork))
			if err != nil {
				return s, fmt.Errorf("warmup: run %q fork %d: %w", r.Label, r.Fork, err)
			}
			rs.Traini = &tr
		}
		s.Runs = append(s.Runs, rs)
	}
	for _, l := range order {
		ls := LabelSummary{Label: l}
		var iters []int
		var means []float64
		var starts, costs, halfs []time.Duration
		var halfIters []int
		var finals []float64
		idx := byLabel[l]
		sort.SliceStable(idx, func(i, j int) bool { return s.Runs[idx[i]].Fork < s.Runs[idx[j]].Fork })
		ls.Verdict = s.Runs[idx[0]].Verdict
		for _, i := range idx {
			a := s.Runs[i].Analysis
			ls.Forks++
			ls.Classes = append(ls.Classes, a.Class)
			halfIters = append(halfIters, a.HalfSpeedIter)
			halfs = append(halfs, a.HalfSpeedStart)
			finals = append(finals, a.FinalMedian)
			if a.Steady {
				iters = append(iters, a.SteadyIter)
				means = append(means, a.SteadyMean)
				starts = append(starts, a.SteadyStart)
				costs = append(costs, a.WarmupCost)
			}
		}
		ls.Class = Combine(ls.Classes)
		if len(iters) > 0 {
			ls.Steady = true
			ls.SteadyIter = median(iters)
			ls.SteadyMean = median(means)
			ls.SteadyStart = median(starts)
			ls.WarmupCost = median(costs)
		}
		if len(halfs) > 0 {
			ls.FinalMedian, ls.HalfSpeedIter, ls.HalfSpeedStart = median(finals), median(halfIters), median(halfs)
		}
		ls.Stats = labelStats(l, idx, s.Runs, runs, o)
		if o.Traini {
			var tc []Class
			for _, i := range idx {
				tc = append(tc, s.Runs[i].Traini.Class)
			}
			ls.TrainiClass = CombineTraini(tc)
		}
		s.Labels = append(s.Labels, ls)
	}
	return s, nil
}

// labelStats applies warmup_stats's summary rules to the forks idx of one
// option set (runs[i] analysed as rs[i]).
func labelStats(label string, idx []int, rs []RunSummary, runs []Run, o Options) *LabelStats {
	st := &LabelStats{ClassCounts: map[Class]int{}}
	var outliers [][]int
	var iters, starts []float64
	var boot [][][]float64
	noSteady, allFlat := false, true
	for _, i := range idx {
		a := rs[i].Analysis
		st.ClassCounts[a.Class]++
		outliers = append(outliers, a.Outliers)
		noSteady = noSteady || a.Class == NoSteadyState
		allFlat = allFlat && a.Class == Flat
		if !a.Steady {
			continue
		}
		iters = append(iters, float64(a.SteadyIter))
		starts = append(starts, a.SteadyStart.Seconds())
		x := runs[i].PerOp()
		isOut := map[int]bool{}
		for _, j := range a.Outliers {
			isOut[j] = true
		}
		var segs [][]float64
		for _, sg := range a.Segments {
			if sg.Start < a.SteadyIter {
				continue
			}
			var v []float64
			for j := sg.Start; j < sg.End; j++ {
				if !isOut[j] {
					v = append(v, x[j])
				}
			}
			segs = append(segs, v)
		}
		boot = append(boot, segs)
	}
	st.CommonOutliers, st.UniqueOutliers = SplitOutliers(outliers)
	if noSteady {
		return st
	}
	if n := o.bootstrapResamples(); n > 0 {
		if ci := Bootstrap(boot, n, BootstrapLevel, labelSeed(label)); !math.IsNaN(ci.Centre) {
			st.SteadyPerf = &ci // NaN (no steady values) would not encode as JSON
		}
	}
	if !allFlat {
		it, at := SpreadOf(iters), SpreadOf(starts)
		st.SteadyIter, st.SteadyStart = &it, &at
	}
	return st
}

// WriteClassifierComparison writes, for a summary made with Options.Traini,
// the runs where warmup_stats's rule and Traini et al.'s disagree on whether
// the run reached a steady state or on where it began, then the option
// sets' verdicts under both. A run is steady under warmup_stats's rule
// unless its class is "no steady state".
func WriteClassifierComparison(w io.Writer, s Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "warmup_stats against Traini et al. (steady state: class, first iteration):\n")
	fmt.Fprintf(&b, "%-40s %4s  %-17s %6s  %-15s %6s  %s\n", "option set", "fork", "warmup_stats", "steady", "Traini et al.", "steady", "disagree on")
	differ := 0
	for _, r := range s.Runs {
		if r.Traini == nil {
			return fmt.Errorf("warmup: run %q fork %d has no Traini et al. result (Options.Traini)", r.Label, r.Fork)
		}
		a, t := r.Analysis, r.Traini
		var what string
		switch {
		case a.Steady != (t.Class == TrainiSteady):
			what = "whether steady"
		case a.Steady && a.SteadyIter != t.SteadyIter:
			what = fmt.Sprintf("start (%+d)", t.SteadyIter-a.SteadyIter)
		default:
			continue
		}
		differ++
		iter := func(ok bool, i int) string {
			if !ok {
				return "-"
			}
			return fmt.Sprint(i)
		}
		fmt.Fprintf(&b, "%-40s %4d  %-17s %6s  %-15s %6s  %s\n", r.Label, r.Fork, a.Class, iter(a.Steady, a.SteadyIter),
			t.Class, iter(t.Class == TrainiSteady, t.SteadyIter), what)
	}
	fmt.Fprintf(&b, "%d of %d runs disagree\n\n", differ, len(s.Runs))
	fmt.Fprintf(&b, "%-40s  %-17s  %s\n", "option set", "warmup_stats", "Traini et al.")
	for _, l := range s.Labels {
		fmt.Fprintf(&b, "%-40s  %-17s  %s\n", l.Label, l.Class, l.TrainiClass)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// median is the middle value, or the mean of the two middle values (for
// integers and durations rounded half away from zero).
func median[T int | float64 | time.Duration](v []T) T {
	c := append([]T(nil), v...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	n := len(c)
	if n%2 == 1 {
		return c[n/2]
	}
	m := (float64(c[n/2-1]) + float64(c[n/2])) / 2
	var zero T
	if _, ok := any(zero).(float64); ok {
		return T(m)
	}
	return T(math.Round(m))
}

// WriteSummaryJSON writes s as indented JSON.
func WriteSummaryJSON(w io.Writer, s Summary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// ReadSummaryJSON reads what WriteSummaryJSON wrote.
func ReadSummaryJSON(r io.Reader) (Summary, error) {
	var s Summary
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("warmup: reading summary JSON: %w", err)
	}
	return s, nil
}

// sparkBlocks are the eight Unicode block heights of a sparkline.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws v in at most width cells of Unicode blocks, each cell the
// mean of its share of the values, scaled between the smallest and largest
// cell (all cells lowest when flat).
func Sparkline(v []float64, width int) string {
	if len(v) == 0 || width <= 0 {
		return ""
	}
	cells := min(width, len(v))
	means := make([]float64, cells)
	for c := range cells {
		lo, hi := c*len(v)/cells, (c+1)*len(v)/cells
		var sum float64
		for _, x := range v[lo:hi] {
			sum += x
		}
		means[c] = sum / float64(hi-lo)
	}
	mn, mx := means[0], means[0]
	for _, m := range means {
		mn, mx = min(mn, m), max(mx, m)
	}
	var b strings.Builder
	for _, m := range means {
		i := 0
		if mx > mn {
			i = int((m - mn) / (mx - mn) * float64(len(sparkBlocks)-1))
		}
		b.WriteRune(sparkBlocks[i])
	}
	return b.String()
}

// FormatPerOp prints seconds per op with a unit that keeps 3–4 digits.
func FormatPerOp(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s < 1e-6:
		return fmt.Sprintf("%.1f ns", s*1e9)
	case s < 1e-3:
		return fmt.Sprintf("%.2f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}

// WriteTerminal writes the terminal summary: one row per option set with
// its class, steady-state iteration, start and mean, when it first ran at
// half its final speed, the warm-up cost, and a
// sparkline of the first fork's time per op.
func WriteTerminal(w io.Writer, s Summary, runs []Run, sparkWidth int) error {
	first := map[string][]float64{}
	for _, r := range runs {
		if _, ok := first[r.Label]; !ok || r.Fork == 0 {
			first[r.Label] = r.PerOp()
		}
	}
	nameW := len("option set")
	for _, l := range s.Labels {
		nameW = max(nameW, len([]rune(l.Label)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-17s  %5s  %11s  %10s  %13s  %11s  %12s  %s\n", nameW, "option set", "class", "forks", "steady@iter",
		"steady at", "half speed at", "steady/op", "warm-up cost", "time per op")
	for _, l := range s.Labels {
		iter, at, mean, cost := "-", "-", "-", "-"
		half := l.HalfSpeedStart.Round(time.Microsecond).String()
		if l.Steady {
			iter, mean, cost = fmt.Sprint(l.SteadyIter), FormatPerOp(l.SteadyMean), l.WarmupCost.Round(time.Microsecond).String()
			at = l.SteadyStart.Round(time.Microsecond).String()
		}
		fmt.Fprintf(&b, "%-*s  %-17s  %5d  %11s  %10s  %13s  %11s  %12s  %s\n", nameW, l.Label, l.Class, l.Forks, iter, at, half, mean, cost,
			Sparkline(first[l.Label], sparkWidth))
	}
	b.WriteString("\n")
	for _, l := range s.Labels {
		fmt.Fprintf(&b, "%s: %s\n", l.Label, l.Verdict)
	}
	writeRatios(&b, s)
	_, err := io.WriteString(w, b.String())
	return err
}
