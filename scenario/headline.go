package scenario

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	jrt "github.com/jitsim/jitsim/runtime"
)

// metricKind is how a metric is computed from a run's iterations.
type metricKind int

const (
	// metricSpan is thread 0's time from the first start to the last end of
	// a phase, in ms (TestAESMain's "… runtime was X ms").
	metricSpan metricKind = iota
	// metricThroughput is a benchmark's score in ops/s: per measured
	// iteration the sum over threads of operations per second, averaged
	// over the iterations (what scenario/bench.go prints).
	metricThroughput
	// metricAvgTime is a benchmark's average time in us/op: per measured
	// iteration the mean over threads of microseconds per operation,
	// averaged over the iterations.
	metricAvgTime
)

// metricRule says how jitsim measures a published metric: Metric "" applies
// to every metric in Unit without a rule of its own.
type metricRule struct {
	Metric, Unit, Phase string
	Kind                metricKind
}

// metricRules is the one table of measurable metrics. A scenario file's
// [[ratio]] may name only metrics these rules measure.
var metricRules = []metricRule{
	{"TestAESEncode runtime", "ms", "encrypt", metricSpan},
	{"TestAESDecode runtime", "ms", "decrypt", metricSpan},
	{"", "ops/s", "measure", metricThroughput},
	{"", "us/op", "measure", metricAvgTime},
}

// lookupMetricRule returns the rule that measures metric in unit.
func lookupMetricRule(metric, unit string) (metricRule, bool) {
	var generic metricRule
	found := false
	for _, r := range metricRules {
		if r.Unit != unit {
			continue
		}
		if r.Metric == metric {
			return r, true
		}
		if r.Metric == "" && !found {
			generic, found = r, true
		}
	}
	return generic, found
}

// metricRuleNames lists what the rules measure, for error messages.
func metricRuleNames() string {
	var s []string
	for _, r := range metricRules {
		if r.Metric == "" {
			s = append(s, "any metric in "+r.Unit)
		} else {
			s = append(s, fmt.Sprintf("%q in %s", r.Metric, r.Unit))
		}
	}
	return strings.Join(s, ", ")
}

// Measured is jitsim's value of one published metric of one variant.
type Measured struct {
	Variant, Metric, Unit string
	Published             float64 // the post's number
	Jitsim                float64 // jitsim's; NaN when the variant did not run
}

// RatioResult is one headline ratio: the published value, jitsim's, and the
// distance jitsim/published − 1 (NaN when a variant did not run).
type RatioResult struct {
	Ratio
	Published, Jitsim, Distance float64
}

// Results is what RunFile measured: every published metric of every
// variant that has one, and the file's headline ratios, in file order.
type Results struct {
	Measured []Measured
	Ratios   []RatioResult
}

// Value returns what was measured of metric for variant.
func (r Results) Value(variant, metric string) (Measured, bool) {
	for _, m := range r.Measured {
		if m.Variant == variant && m.Metric == metric {
			return m, true
		}
	}
	return Measured{}, false
}

// indexAgg sums one iteration index over the threads.
type indexAgg struct {
	opsPerSec, usPerOp float64
	threads            int
}

// phaseAgg aggregates one phase of one variant as the iterations arrive.
type phaseAgg struct {
	first, last time.Duration // thread 0's span
	seen        bool
	perIndex    map[int]*indexAgg
}

// recorder collects, per variant, what the metric rules need from the
// iterations the scenario reports (aggregated on arrival, so a 100000-
// iteration run keeps no per-iteration record).
type recorder struct {
	mu     sync.Mutex
	phases map[string]map[string]*phaseAgg // variant → phase → aggregate
	needs  map[string]map[string]metricKind
}

// newRecorder prepares a recorder for the published metrics of f's variants
// and its ratios.
func newRecorder(f *File) *recorder {
	rec := &recorder{phases: map[string]map[string]*phaseAgg{}, needs: map[string]map[string]metricKind{}}
	need := func(variant, metric, unit string) {
		rule, ok := lookupMetricRule(metric, unit)
		if !ok {
			return
		}
		if rec.needs[variant] == nil {
			rec.needs[variant] = map[string]metricKind{}
		}
		rec.needs[variant][rule.Phase] = rule.Kind
	}
	for _, v := range f.Compare {
		for _, p := range v.Published {
			need(v.Name, p.Metric, p.Unit)
		}
	}
	for _, r := range f.Ratios {
		for _, name := range []string{r.Num, r.Den} {
			need(name, r.Metric, ratioUnit(f, r))
		}
	}
	return rec
}

// ratioUnit is the unit of a ratio's metric: its own, else the variants'.
func ratioUnit(f *File, r Ratio) string {
	if r.Unit != "" {
		return r.Unit
	}
	for _, name := range []string{r.Num, r.Den} {
		if v, ok := f.variant(name); ok {
			if p, ok := v.published(r.Metric); ok {
				return p.Unit
			}
		}
	}
	return ""
}

// observer returns the Observer for one variant's run: it records what the
// rules need and passes every iteration on to inner (when set), which keeps
// its VMStarted calls too.
func (rec *recorder) observer(variant string, inner Observer) Observer {
	return &teeObserver{rec: rec, variant: variant, inner: inner}
}

type teeObserver struct {
	rec     *recorder
	variant string
	inner   Observer
}

// Iteration implements Observer.
func (t *teeObserver) Iteration(it Iteration) {
	t.rec.add(t.variant, it)
	if t.inner != nil {
		t.inner.Iteration(it)
	}
}

// VMStarted implements VMObserver for an inner VMObserver.
func (t *teeObserver) VMStarted(vm *jrt.VM) {
	if o, ok := t.inner.(VMObserver); ok {
		o.VMStarted(vm)
	}
}

func (rec *recorder) add(variant string, it Iteration) {
	kind, ok := rec.needs[variant][it.Phase]
	if !ok {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	ps := rec.phases[variant]
	if ps == nil {
		ps = map[string]*phaseAgg{}
		rec.phases[variant] = ps
	}
	a := ps[it.Phase]
	if a == nil {
		a = &phaseAgg{perIndex: map[int]*indexAgg{}}
		ps[it.Phase] = a
	}
	switch kind {
	case metricSpan:
		if it.Thread != 0 {
			return
		}
		if !a.seen || it.Start < a.first {
			a.first = it.Start
		}
		if end := it.Start + it.Duration; !a.seen || end > a.last {
			a.last = end
		}
		a.seen = true
	case metricThroughput, metricAvgTime:
		x := a.perIndex[it.Index]
		if x == nil {
			x = &indexAgg{}
			a.perIndex[it.Index] = x
		}
		sec := it.Duration.Seconds()
		if sec > 0 {
			x.opsPerSec += float64(it.Ops) / sec
		}
		if it.Ops > 0 {
			x.usPerOp += sec * 1e6 / float64(it.Ops)
		}
		x.threads++
	}
}

// value is jitsim's value of metric (unit) for variant; NaN when the
// variant reported nothing for it.
func (rec *recorder) value(variant, metric, unit string) float64 {
	rule, ok := lookupMetricRule(metric, unit)
	if !ok {
		return math.NaN()
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	a := rec.phases[variant][rule.Phase]
	if a == nil {
		return math.NaN()
	}
	switch rule.Kind {
	case metricSpan:
		if !a.seen {
			return math.NaN()
		}
		return float64((a.last - a.first).Nanoseconds()) / 1e6
	default:
		if len(a.perIndex) == 0 {
			return math.NaN()
		}
		idx := make([]int, 0, len(a.perIndex))
		for i := range a.perIndex {
			idx = append(idx, i)
		}
		sort.Ints(idx) // a fixed summation order: the same sum on every run
		var sum float64
		for _, i := range idx {
			x := a.perIndex[i]
			if rule.Kind == metricThroughput {
				sum += x.opsPerSec
			} else {
				sum += x.usPerOp / float64(x.threads)
			}
		}
		return sum / float64(len(idx))
	}
}

// results computes the Results of f from what was recorded.
func (rec *recorder) results(f *File) Results {
	var res Results
	for _, v := range f.Compare {
		for _, p := range v.Published {
			res.Measured = append(res.Measured, Measured{Variant: v.Name, Metric: p.Metric, Unit: p.Unit,
				Published: p.Value, Jitsim: rec.value(v.Name, p.Metric, p.Unit)})
		}
	}
	for _, r := range f.Ratios {
		unit := ratioUnit(f, r)
		rr := RatioResult{Ratio: r, Published: r.Published}
		if rr.Published == 0 {
			num, _ := f.variant(r.Num)
			den, _ := f.variant(r.Den)
			pn, _ := num.published(r.Metric)
			pd, _ := den.published(r.Metric)
			rr.Published = pn.Value / pd.Value
		}
		rr.Jitsim = rec.value(r.Num, r.Metric, unit) / rec.value(r.Den, r.Metric, unit)
		rr.Distance = rr.Jitsim/rr.Published - 1
		res.Ratios = append(res.Ratios, rr)
	}
	return res
}

// printMeasured writes jitsim's number beside each published one of a
// variant: "--- jitsim:    METRIC = X UNIT (published V: distance D)".
func printMeasured(w io.Writer, rec *recorder, r Run) {
	for _, p := range r.Published {
		x := rec.value(r.Variant, p.Metric, p.Unit)
		if math.IsNaN(x) {
			fmt.Fprintf(w, "--- jitsim:    %s: not measured (jitsim measures %s)\n", p.Metric, metricRuleNames())
			continue
		}
		fmt.Fprintf(w, "--- jitsim:    %s = %s %s (published %g, distance %s)\n", p.Metric, sig(x), p.Unit, p.Value, percent(x/p.Value-1))
	}
}

// printRatios writes the headline-ratio table of a file's run.
func printRatios(w io.Writer, f *File, res Results) {
	if len(res.Ratios) == 0 {
		return
	}
	fmt.Fprintf(w, "\n=== headline ratios, published vs jitsim (--jdk=%s --cpu=%s --clock=%s)\n", f.rel, f.CPU, f.Clock)
	for _, r := range res.Ratios {
		tail := ""
		if r.Informative {
			tail = " (informative: not held to a band)"
		}
		if math.IsNaN(r.Jitsim) || math.IsInf(r.Jitsim, 0) {
			fmt.Fprintf(w, "%s: published %.2fx, jitsim n/a (a variant did not run)%s\n", r.Name, r.Published, tail)
			continue
		}
		fmt.Fprintf(w, "%s: published %.2fx, jitsim %.2fx, distance %s%s\n", r.Name, r.Published, r.Jitsim, percent(r.Distance), tail)
	}
}

// percent renders a relative distance as "+4.2%".
func percent(d float64) string { return fmt.Sprintf("%+.1f%%", 100*d) }

// sig renders x with about six significant digits, without exponent for
// the magnitudes the scenarios print.
func sig(x float64) string {
	switch ax := math.Abs(x); {
	case ax >= 1e5:
		return fmt.Sprintf("%.0f", x)
	case ax >= 100:
		return fmt.Sprintf("%.2f", x)
	default:
		return fmt.Sprintf("%.4g", x)
	}
}
