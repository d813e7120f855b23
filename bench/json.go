package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/internal/jsonpos"
)

// JavaDouble formats v as Java's Double.toString, which is what JMH's JSON
// writer prints: plain decimal with at least one fractional digit for
// 10⁻³ ≤ |v| < 10⁷ ("123455.45", "1.0"), otherwise computerised scientific
// notation ("1.2345E7", "4.0E-4"); the digits are the shortest that read
// back to v. Non-finite values are not numbers in JMH's JSON (see
// jsonNumber).
func JavaDouble(v float64) string {
	if v == 0 {
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(v)
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// jsonNumber is JMH's JSONResultFormat.emit: a Java double, or the strings
// "NaN", "+INF", "-INF".
func jsonNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return `"NaN"`
	case math.IsInf(v, 1):
		return `"+INF"`
	case math.IsInf(v, -1):
		return `"-INF"`
	}
	return JavaDouble(v)
}

// jw writes JMH's JSON layout: one value per line, four-space indents,
// `"key" : value`, the closing bracket on its own line.
type jw struct {
	b      bytes.Buffer
	indent int
}

func (w *jw) line(s string) {
	w.b.WriteString(strings.Repeat("    ", w.indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// list writes items (already formatted) one per line inside brackets that
// open after head; comma says whether a comma follows the closing bracket.
func (w *jw) list(head string, items []string, comma bool) {
	w.line(head + "[")
	w.indent++
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		w.line(it)
	}
	w.indent--
	w.close("]", comma)
}

func (w *jw) close(br string, comma bool) {
	if comma {
		br += ","
	}
	w.line(br)
}

// metric writes one metric; hist writes its operation histogram
// (rawDataHistogram, the primary metric of -bm sample) instead of rawData.
func (w *jw) metric(head string, m Metric, comma, hist bool) {
	st := m.Stats()
	w.line(head + "{")
	w.indent++
	w.line(`"score" : ` + jsonNumber(st.Score) + ",")
	w.line(`"scoreError" : ` + jsonNumber(st.Error) + ",")
	w.list(`"scoreConfidence" : `, []string{jsonNumber(st.ConfLow), jsonNumber(st.ConfHigh)}, true)
	w.line(`"scorePercentiles" : {`)
	w.indent++
	for i, p := range st.PercentileKeys {
		s := quote(JavaDouble(p)) + " : " + jsonNumber(st.PercentileValues[i])
		if i < len(st.PercentileKeys)-1 {
			s += ","
		}
		w.line(s)
	}
	w.indent--
	w.close("}", true)
	w.line(`"scoreUnit" : ` + quote(m.Unit) + ",")
	if hist {
		// JSONResultFormat's rawDataHistogram: [fork][iteration], each
		// iteration a list of "[ value, count ]" pairs on one line.
		w.line(`"rawDataHistogram" : [`)
		w.indent++
		for i, fork := range m.Histogram {
			w.line("[")
			w.indent++
			for j, it := range fork {
				items := make([]string, len(it))
				for k, b := range it {
					items[k] = "[ " + jsonNumber(b.Value) + ", " + strconv.FormatInt(b.Count, 10) + " ]"
				}
				w.list("", items, j < len(fork)-1)
			}
			w.indent--
			w.close("]", i < len(m.Histogram)-1)
		}
		w.indent--
		w.close("]", false)
		w.indent--
		w.close("}", comma)
		return
	}
	w.line(`"rawData" : [`)
	w.indent++
	for i, fork := range m.RawData {
		items := make([]string, len(fork))
		for j, v := range fork {
			items[j] = jsonNumber(v)
		}
		w.list("", items, i < len(m.RawData)-1)
	}
	w.indent--
	w.close("]", false)
	w.indent--
	w.close("}", comma)
}

// WriteJSON writes results in JMH's JSON result format (-rf json,
// JSONResultFormat in JMH 1.37): a top-level array with one object per
// benchmark × parameter combination, keys in JMH's order, "params" only when
// there are parameters, percentiles over all measurement samples, and
// "rawData" holding one array per fork. Unlike JMH, strings are escaped.
func WriteJSON(out io.Writer, results []Result) error {
	w := &jw{}
	w.line("[")
	w.indent++
	for i, r := range results {
		if err := r.Validate(); err != nil {
			return err
		}
		if r.Mode == SampleTime && len(r.Primary.Histogram) == 0 && len(r.Primary.RawData) > 0 {
			// JMH writes "rawDataHistogram" (per iteration [value, count]
			// pairs) for this mode, not one score per iteration.
			return fmt.Errorf("bench: %s: JSON for mode %q needs the operations' histograms (Metric.Histogram)", r.Benchmark, r.Mode)
		}
		w.line("{")
		w.indent++
		w.line(`"jmhVersion" : ` + quote(r.JMHVersion) + ",")
		w.line(`"benchmark" : ` + quote(r.Benchmark) + ",")
		w.line(`"mode" : ` + quote(string(r.Mode)) + ",")
		w.line(`"threads" : ` + strconv.Itoa(r.Threads) + ",")
		w.line(`"forks" : ` + strconv.Itoa(r.Forks) + ",")
		w.line(`"jvm" : ` + quote(r.JVM) + ",")
		args := make([]string, len(r.JVMArgs))
		for j, a := range r.JVMArgs {
			args[j] = quote(a)
		}
		w.list(`"jvmArgs" : `, args, true)
		w.line(`"jdkVersion" : ` + quote(r.JDKVersion) + ",")
		w.line(`"vmName" : ` + quote(r.VMName) + ",")
		w.line(`"vmVersion" : ` + quote(r.VMVersion) + ",")
		w.line(`"warmupIterations" : ` + strconv.Itoa(r.WarmupIterations) + ",")
		w.line(`"warmupTime" : ` + quote(r.WarmupTime) + ",")
		w.line(`"warmupBatchSize" : ` + strconv.Itoa(r.WarmupBatchSize) + ",")
		w.line(`"measurementIterations" : ` + strconv.Itoa(r.MeasurementIterations) + ",")
		w.line(`"measurementTime" : ` + quote(r.MeasurementTime) + ",")
		w.line(`"measurementBatchSize" : ` + strconv.Itoa(r.MeasurementBatchSize) + ",")
		if ps := r.sortedParams(); len(ps) > 0 {
			w.line(`"params" : {`)
			w.indent++
			for j, p := range ps {
				s := quote(p.Name) + " : " + quote(p.Value)
				if j < len(ps)-1 {
					s += ","
				}
				w.line(s)
			}
			w.indent--
			w.close("}", true)
		}
		w.metric(`"primaryMetric" : `, r.Primary, true, r.Mode == SampleTime)
		w.line(`"secondaryMetrics" : {`)
		w.indent++
		sec := r.sortedSecondary()
		for j, s := range sec {
			w.metric(quote(s.Label)+" : ", s.Metric, j < len(sec)-1, false)
		}
		w.indent--
		w.close("}", false)
		w.indent--
		w.close("}", i < len(results)-1)
	}
	w.indent--
	w.line("]")
	_, err := out.Write(w.b.Bytes())
	if err != nil {
		return fmt.Errorf("bench: writing JSON: %w", err)
	}
	return nil
}

// jsonFloat reads a number of JMH's JSON: a number or "NaN"/"+INF"/"-INF".
type jsonFloat float64

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*f = jsonFloat(math.NaN())
		return nil
	case `"+INF"`, `"Infinity"`:
		*f = jsonFloat(math.Inf(1))
		return nil
	case `"-INF"`, `"-Infinity"`:
		*f = jsonFloat(math.Inf(-1))
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("not a JMH number: %s", b)
	}
	*f = jsonFloat(v)
	return nil
}

type jsonMetric struct {
	Score            jsonFloat            `json:"score"`
	ScoreError       jsonFloat            `json:"scoreError"`
	ScoreConfidence  []jsonFloat          `json:"scoreConfidence"`
	ScorePercentiles map[string]jsonFloat `json:"scorePercentiles"`
	ScoreUnit        string               `json:"scoreUnit"`
	RawData          [][]jsonFloat        `json:"rawData"`
	RawDataHistogram [][][][]jsonFloat    `json:"rawDataHistogram"` // SampleTime: [fork][iteration][[value, count]…]
}

// policyOf tells from a written metric how its score came from its
// samples: JSON keeps no policy, but SUM and MAX write no error and an
// interval of the score alone, and their score is the samples' sum or
// maximum.
func policyOf(j jsonMetric, m Metric) Policy {
	if !math.IsNaN(float64(j.ScoreError)) || len(j.ScoreConfidence) != 2 ||
		float64(j.ScoreConfidence[0]) != float64(j.Score) || float64(j.ScoreConfidence[1]) != float64(j.Score) {
		return Average
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for _, p := range []Policy{Sum, Maximum} {
		if m.Policy = p; near(m.Stats().Score, float64(j.Score)) {
			return p
		}
	}
	return Average
}

type jsonResult struct {
	JMHVersion            string                `json:"jmhVersion"`
	Benchmark             string                `json:"benchmark"`
	Mode                  string                `json:"mode"`
	Threads               int                   `json:"threads"`
	Forks                 int                   `json:"forks"`
	JVM                   string                `json:"jvm"`
	JVMArgs               []string              `json:"jvmArgs"`
	JDKVersion            string                `json:"jdkVersion"`
	VMName                string                `json:"vmName"`
	VMVersion             string                `json:"vmVersion"`
	WarmupIterations      int                   `json:"warmupIterations"`
	WarmupTime            string                `json:"warmupTime"`
	WarmupBatchSize       int                   `json:"warmupBatchSize"`
	MeasurementIterations int                   `json:"measurementIterations"`
	MeasurementTime       string                `json:"measurementTime"`
	MeasurementBatchSize  int                   `json:"measurementBatchSize"`
	Params                map[string]string     `json:"params"`
	PrimaryMetric         jsonMetric            `json:"primaryMetric"`
	SecondaryMetrics      map[string]jsonMetric `json:"secondaryMetrics"`
}

// ReadJSON reads a JMH JSON result file (ours or JMH's own) back into
// results. Derived numbers (score, error, percentiles) are recomputed from
// rawData by Stats and not kept; secondary metrics come back sorted by label.
// file names the input in errors, "FILE:LINE: …" at the offending value (a
// result whose metrics do not hold together: at the result's first line).
func ReadJSON(r io.Reader, file string) ([]Result, error) {
	in, err := jsonpos.Read(r, file, "JMH JSON")
	if err != nil {
		return nil, err
	}
	in.Dec.DisallowUnknownFields()
	if err := in.Delim('[', "JMH JSON: want an array of results: "); err != nil {
		return nil, err
	}
	var raw []jsonResult
	var starts []int64
	for i := 1; in.Dec.More(); i++ {
		starts = append(starts, in.Next())
		var j jsonResult
		if err := in.Decode(fmt.Sprintf("JMH JSON result %d: ", i), &j); err != nil {
			return nil, err
		}
		raw = append(raw, j)
	}
	if err := in.End("the array of results"); err != nil {
		return nil, err
	}
	at := func(i int) string { return fmt.Sprintf("%s:%d", file, in.Line(starts[i])) }
	conv := func(m jsonMetric) (Metric, error) {
		out := Metric{Unit: m.ScoreUnit}
		for _, f := range m.RawData {
			row := make([]float64, len(f))
			for i, v := range f {
				row[i] = float64(v)
			}
			out.RawData = append(out.RawData, row)
		}
		for fi, f := range m.RawDataHistogram {
			fork := make([][]Bin, len(f))
			for ii, it := range f {
				for _, pair := range it {
					if len(pair) != 2 || !(pair[1] >= 0) || float64(pair[1]) != math.Trunc(float64(pair[1])) || pair[1] > 1<<53 {
						return out, fmt.Errorf("rawDataHistogram fork %d iteration %d: %v is not a [value, count] pair", fi+1, ii+1, pair)
					}
					fork[ii] = append(fork[ii], Bin{Value: float64(pair[0]), Count: int64(pair[1])})
				}
			}
			out.Histogram = append(out.Histogram, fork)
		}
		if len(out.Histogram) > 0 {
			if len(out.RawData) > 0 {
				return out, fmt.Errorf("both rawData and rawDataHistogram")
			}
			out.RawData = IterationMeans(out.Histogram)
		}
		return out, nil
	}
	var res []Result
	for i, j := range raw {
		mode, err := ParseMode(j.Mode)
		if err != nil {
			return nil, fmt.Errorf("%s: JMH JSON result %d (%s): %v", at(i), i+1, j.Benchmark, err)
		}
		r := Result{JMHVersion: j.JMHVersion, Benchmark: j.Benchmark, Mode: mode, Threads: j.Threads, Forks: j.Forks,
			JVM: j.JVM, JVMArgs: j.JVMArgs, JDKVersion: j.JDKVersion, VMName: j.VMName, VMVersion: j.VMVersion,
			WarmupIterations: j.WarmupIterations, WarmupTime: j.WarmupTime, WarmupBatchSize: j.WarmupBatchSize,
			MeasurementIterations: j.MeasurementIterations, MeasurementTime: j.MeasurementTime,
			MeasurementBatchSize: j.MeasurementBatchSize}
		if r.Primary, err = conv(j.PrimaryMetric); err != nil {
			return nil, fmt.Errorf("%s: JMH JSON result %d (%s): primaryMetric: %v", at(i), i+1, j.Benchmark, err)
		}
		for k, v := range j.Params {
			r.Params = append(r.Params, Param{k, v})
		}
		r.Params = r.sortedParams()
		if len(r.JVMArgs) == 0 {
			r.JVMArgs = nil
		}
		if len(r.Params) == 0 {
			r.Params = nil
		}
		var labels []string
		for k := range j.SecondaryMetrics {
			labels = append(labels, k)
		}
		sort.Strings(labels)
		for _, l := range labels {
			if len(r.Primary.Histogram) > 0 && isDerivedLabel(l) {
				continue // the percentiles of the samples: derived again when written
			}
			m, err := conv(j.SecondaryMetrics[l])
			if err != nil {
				return nil, fmt.Errorf("%s: JMH JSON result %d (%s): secondary metric %q: %v", at(i), i+1, j.Benchmark, l, err)
			}
			if len(m.Histogram) > 0 {
				return nil, fmt.Errorf("%s: JMH JSON result %d (%s): secondary metric %q has a rawDataHistogram", at(i), i+1, j.Benchmark, l)
			}
			m.Policy = policyOf(j.SecondaryMetrics[l], m)
			r.Secondary = append(r.Secondary, NamedMetric{Label: l, Metric: m})
		}
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("%s: JMH JSON result %d: %w", at(i), i+1, err)
		}
		res = append(res, r)
	}
	return res, nil
}
