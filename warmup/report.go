package warmup

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// ReportMeta is what the report says about the study as a whole.
type ReportMeta struct {
	Title   string // e.g. "AES/GCM warm-up, TestAESMain -Dmode=GCM"
	Command string // the jitsim command line that produced it
	// Imports are -XX:+PrintCompilation logs captured elsewhere
	// (ParsePrintCompilation), overlaid on the compile timeline and listed
	// per method beside jitsim's events.
	Imports []*CompileLog
	// Baseline names the option set the ratios divide by; empty: the
	// first.
	Baseline string
	// Lab embeds the stopping-criteria lab's chart (WriteLabChart) when
	// some run can be scored.
	Lab bool
	// Releases adds the table of Releases: a study of one scenario on
	// several JDK releases.
	Releases bool
}

// reportTmpl is the self-contained page: inline CSS, the chart as a data
// URI, no scripts, fonts or links that leave the file.
var reportTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"perop":     FormatPerOp,
		"dur":       func(d time.Duration) string { return d.Round(time.Microsecond).String() },
		"short":     shortMethod,
		"ms":        func(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) },
		"ratio":     FormatRatio,
		"set":       setHTML,
		"joinFlags": func(f []string) string { return strings.Join(f, " ") },
		"ci":        FormatCI,
		"stubs":     stubText,
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Meta.Title}}</title>
<style>
* { box-sizing: border-box; }
body { font-family: sans-serif; margin: 1.5em auto; padding: 0 1em; color: #222; max-width: 1200px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; } h3 { font-size: 1em; }
table { border-collapse: collapse; margin: 0.5em 0; max-width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-family: monospace; }
.opt { white-space: nowrap; }
pre.cmd { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f6f6; padding: 0.6em; border: 1px solid #ddd; }
.spark { font-family: monospace; white-space: nowrap; font-size: 0.8em; }
img.chart { display: block; width: 100%; max-width: 100%; height: auto; border: 1px solid #ddd; }
.class-warmup { color: #1a6; } .class-flat { color: #36c; } .class-slowdown { color: #c60; }
.class-no { color: #c22; }
</style>
</head>
<body>
<h1>{{.Meta.Title}}</h1>
{{if .Meta.Command}}<pre class="cmd">{{.Meta.Command}}</pre>{{end}}
{{if .Releases}}<h2>Releases</h2>
<p>Per release: the intrinsic stubs its run reached (the VM's dispatch: the first call into each stub, the calling code's level and when), when it became steady, what warming up cost, and the steady state's throughput (without one, the final quarter's) on the run's clock.</p>
<table>
<tr><th>option set</th><th>JDK</th><th>steady from</th><th>warm-up cost</th><th>steady ops/s</th><th>steady MB/s</th><th>intrinsic stubs reached</th></tr>
{{range .Releases}}<tr><td>{{set .Label}}</td><td>{{.JDK}}</td>{{if .Steady}}<td class="num">{{dur .SteadyStart}}</td><td class="num">{{dur .WarmupCost}}</td>{{else}}<td colspan="2">no steady state (throughput: the final quarter)</td>{{end}}<td class="num">{{printf "%.1f" .OpsPerSec}}</td><td class="num">{{printf "%.3f" .MBPerSec}}</td><td>{{stubs .Stubs}}</td></tr>
{{end}}</table>
{{end}}{{if .Summary.Ratios}}<h2>Against {{.Summary.Baseline}}</h2>
<p>Each figure is the option set's divided by the baseline's: below 1 means less time.</p>
<table>
<tr><th>option set</th><th>steady time/op</th><th>95% CI</th><th>warm-up cost</th><th>time to steady state</th></tr>
{{range .Summary.Ratios}}<tr><td>{{set .Label}}</td><td class="num">{{ratio .SteadyPerOp}}</td><td class="num">{{ci .SteadyLow .SteadyHigh}}</td><td class="num">{{ratio .WarmupCost}}</td><td class="num">{{ratio .TimeToSteady}}</td></tr>
{{end}}</table>
{{end}}
<h2>Time per operation</h2>
<img class="chart" alt="warm-up chart: time per op against iteration, one line per option set" {{.Chart}}>
<p>Shaded: the steady state of each option set's first fork; a numbered ▼ above the curves marks each of its changepoints, and the caption under the legend lists each number's VM events (installs by level and method, OSR, code made not entrant, first stub calls, compile-queue delays). Under the curves, one lane per compiled method: its entry level iteration by iteration, with OSR installs, code made not entrant and the first call into an intrinsic stub.</p>
<h2>Classification</h2>
<table>
<tr><th>option set</th><th>class</th><th>forks</th><th>per fork</th><th>steady from iteration</th><th>steady from</th><th>half speed from</th><th>steady time/op</th><th>warm-up cost</th></tr>
{{range .Summary.Labels}}<tr><td>{{set .Label}}</td><td>{{.Class}}</td><td class="num">{{.Forks}}</td><td>{{range $i, $c := .Classes}}{{if $i}}, {{end}}{{$c}}{{end}}</td>
{{if .Steady}}<td class="num">{{.SteadyIter}}</td><td class="num">{{dur .SteadyStart}}</td>{{else}}<td colspan="2">no steady state</td>{{end}}<td class="num">{{dur .HalfSpeedStart}} (#{{.HalfSpeedIter}})</td>{{if .Steady}}<td class="num">{{perop .SteadyMean}}</td><td class="num">{{dur .WarmupCost}}</td>{{else}}<td colspan="2">(final {{perop .FinalMedian}})</td>{{end}}</tr>
{{end}}</table>
<ul>
{{range .Summary.Labels}}<li><code>{{.Label}}</code>: {{.Verdict}}</li>
{{end}}</ul>
<p>Half speed: the first iteration (outliers aside) whose time per op was at most twice the median of the run's final quarter — defined whether or not a steady state was found; times are medians over the forks, on each run's clock.</p>
<p>Classification after warmup_stats (Barrett et al., OOPSLA 2017): PELT changepoints, penalty {{.Penalty}}, segments equivalent to the last within {{.Delta}}.</p>
<h2>Runs</h2>
<table>
<tr><th>option set</th><th>fork</th><th>JDK</th><th>CPU model</th><th>clock</th><th>flags</th><th>iterations</th><th>changepoints</th><th>class</th><th>time per op</th></tr>
{{range .Runs}}<tr><td>{{set .S.Label}}</td><td class="num">{{.S.Fork}}</td><td>{{.S.JDK}}</td><td>{{.S.CPU}}</td><td>{{.S.Clock}}</td><td class="flags">{{set (joinFlags .S.Flags)}}</td>
<td class="num">{{.S.Iterations}}</td><td>{{range $i, $c := .S.Analysis.Changepoints}}{{if $i}}, {{end}}{{$c}}{{end}}</td><td>{{.S.Analysis.Class}}</td><td class="spark">{{.Spark}}</td></tr>
{{end}}</table>
<h2>Changepoints explained</h2>
<p>Each changepoint with the VM events of its window: the iteration itself and the two before it, after the previous changepoint. The first fork's carry their numbers on the chart ([n], a numbered ▼ above the curves).</p>
{{range .Runs}}{{if .S.Changes}}<h3><code>{{.S.Label}}</code>, fork {{.S.Fork}}</h3>
<ul>
{{range .Changes}}<li>{{if .Num}}<b>{{.Num}}</b> {{end}}{{.Text}}</li>
{{end}}</ul>
{{end}}{{end}}
<h2>Compile timeline of the crypto methods</h2>
<img class="chart" alt="compile timeline: one row per crypto method, compile events of each option set and imported log against time" {{.Timeline}}>
<p>Discs: code at a level appeared (colour: the level; ring: the source), triangles: OSR code, red crosses: code made not entrant, squares: a compile skipped. jitsim's marks are installs on the run's clock (from the VM's creation); a <code>-XX:+PrintCompilation</code> line is printed when a compiler thread takes the task, in ms since JVM start (for <code>java:</code> runs, since the harness's loop start).</p>
{{if .Lab}}<h2>Stopping-criteria lab</h2>
<img class="chart" alt="stopping-criteria lab: per run, time per op with the true steady start, and per warm-up setting its warm-up and the 10 iterations it measures" {{.Lab}}>
<p>The true steady state starts after the last install or deoptimisation of a followed method with no compile waiting (dashed line). Grey: a setting's warm-up; then the 10 iterations it measures, green when their mean is within 5 % of the true steady mean, red when not. <code>lab.png</code> and <code>lab.svg</code> hold the same chart; the terminal table has the numbers.</p>
{{end}}{{if .Imports}}<h2>Imported -XX:+PrintCompilation logs</h2>
<table>
<tr><th>name</th><th>file</th><th>lines</th><th>records</th><th>crypto records</th><th>other lines skipped</th><th>garbled lines skipped</th></tr>
{{range .Imports}}<tr><td>{{.Name}}</td><td><code>{{.File}}</code></td><td class="num">{{.Lines}}</td><td class="num">{{len .Records}}</td><td class="num">{{len .Crypto}}</td><td class="num">{{.Other}}</td><td class="num">{{.Garbled}}</td></tr>
{{end}}</table>
{{end}}<h2>Events per method</h2>
{{range .Runs}}{{if .Methods}}<h3><code>{{.S.Label}}</code>, fork {{.S.Fork}}</h3>
<table>
<tr><th>method</th><th>events (time on the run's clock · iteration · event · level)</th></tr>
{{range .Methods}}<tr><td><code>{{short .Name}}</code></td><td>{{range .Events}}{{dur .At}} · #{{.Iter}} · {{.Kind}} · L{{.Level}}{{if .Detail}} ({{.Detail}}){{end}}<br>{{end}}</td></tr>
{{end}}</table>
{{end}}{{end}}
{{range .ImportTimelines}}<h3>imported: {{.Name}}</h3>
<table>
<tr><th>method</th><th>PrintCompilation lines (ms since JVM start · compile id · kind · level)</th></tr>
{{range .Methods}}<tr><td><code>{{short .Name}}</code></td><td>{{range .Records}}{{ms .At}} · {{.ID}} · {{.Kind}}{{if .OSR}} (OSR @ {{.BCI}}){{end}} · {{if lt .Level 0}}-{{else}}L{{.Level}}{{end}}{{if .Message}} ({{.Message}}){{end}}<br>{{end}}</td></tr>
{{end}}</table>
{{end}}
</body>
</html>
`))
})

// setHTML writes an option set's label as code that wraps between
// options, never inside one (a browser would break after a hyphen).
func setHTML(label string) template.HTML {
	var b strings.Builder
	b.WriteString("<code>")
	for i, f := range strings.Fields(label) {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(`<span class="opt">` + template.HTMLEscapeString(f) + "</span>")
	}
	b.WriteString("</code>")
	return template.HTML(b.String())
}

type timelineEvent struct {
	Event
	Iter int
}

type methodTimeline struct {
	Name   string
	Events []timelineEvent
}

type importMethod struct {
	Name    string
	Records []CompileRecord
}

type importTimeline struct {
	Name    string
	Methods []importMethod
}

type reportRun struct {
	S       RunSummary
	Spark   string
	Methods []methodTimeline
	// Changes are S.Changes with their numbers on the chart ("[3]",
	// first forks only).
	Changes []reportChange
}

type reportChange struct{ Num, Text string }

// WriteReport writes report.html: the chart and the compile timeline (SVGs
// inlined as data URIs), the classification table, each run's flags and
// CPU model, the event timeline of every method per run, and the imported
// PrintCompilation logs (meta.Imports) with their crypto methods' lines.
func WriteReport(w io.Writer, runs []Run, s Summary, meta ReportMeta, po PlotOptions) error {
	var svg, tl bytes.Buffer
	if err := WriteChart(&svg, runs, s, po, "svg"); err != nil {
		return err
	}
	if err := WriteTimeline(&tl, runs, meta.Imports, po.Title, "svg"); err != nil {
		return err
	}
	dataURI := func(b []byte) template.HTMLAttr {
		return template.HTMLAttr(`src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString(b) + `"`)
	}
	data := struct {
		Meta            ReportMeta
		Chart, Timeline template.HTMLAttr // src="data:…": base64 needs no escaping
		Lab             template.HTMLAttr // empty: no lab chart
		Summary         Summary
		Runs            []reportRun
		Imports         []*CompileLog
		ImportTimelines []importTimeline
		Penalty, Delta  string
		Releases        []ReleaseRow
	}{Meta: meta, Summary: s, Chart: dataURI(svg.Bytes()), Timeline: dataURI(tl.Bytes()), Imports: meta.Imports}
	if meta.Lab {
		var lab bytes.Buffer
		switch err := WriteLabChart(&lab, runs, StopRules, po.Title, "svg"); {
		case err == nil:
			data.Lab = dataURI(lab.Bytes())
		case !errors.Is(err, ErrNoLabRun):
			return err
		}
	}
	if meta.Releases {
		data.Releases = Releases(runs, s)
	}
	for _, l := range meta.Imports {
		it := importTimeline{Name: l.Name}
		byMethod := map[string][]CompileRecord{}
		var names []string
		for _, r := range l.Crypto() {
			if _, ok := byMethod[r.Method]; !ok {
				names = append(names, r.Method)
			}
			byMethod[r.Method] = append(byMethod[r.Method], r)
		}
		sort.Strings(names)
		for _, m := range names {
			it.Methods = append(it.Methods, importMethod{m, byMethod[m]})
		}
		data.ImportTimelines = append(data.ImportTimelines, it)
	}
	data.Penalty = "15·ln n"
	if s.Options.Penalty > 0 {
		data.Penalty = fmt.Sprint(s.Options.Penalty)
	}
	switch {
	case s.Options.Delta == 0 && s.Options.DeltaPercent == 0:
		data.Delta = "1% of the fastest segment"
	case s.Options.Delta == 0:
		data.Delta = fmt.Sprintf("%g%% of the fastest segment", s.Options.DeltaPercent)
	default:
		data.Delta = fmt.Sprintf("%s (or %g%% of the fastest segment)", FormatPerOp(s.Options.Delta), s.Options.DeltaPercent)
	}
	if !s.Options.RawDeltas {
		data.Delta += " widened by each segment's variance"
	}
	num := map[[2]int]int{}
	for _, m := range chartMarks(runs, s, newChartAxes(runs, po)) {
		num[[2]int{m.run, m.change}] = m.n
	}
	for i, r := range runs {
		rr := reportRun{S: s.Runs[i], Spark: Sparkline(r.PerOp(), 32)}
		for j, ch := range s.Runs[i].Changes {
			rc := reportChange{Text: ch.Text}
			if n, ok := num[[2]int{i, j}]; ok {
				rc.Num = fmt.Sprintf("[%d]", n)
			}
			rr.Changes = append(rr.Changes, rc)
		}
		byMethod := map[string][]timelineEvent{}
		for _, it := range r.Iterations {
			for _, e := range it.Events {
				byMethod[e.Method] = append(byMethod[e.Method], timelineEvent{e, it.Index})
			}
		}
		names := make([]string, 0, len(byMethod))
		for m := range byMethod {
			names = append(names, m)
		}
		sort.Strings(names)
		for _, m := range names {
			rr.Methods = append(rr.Methods, methodTimeline{m, byMethod[m]})
		}
		data.Runs = append(data.Runs, rr)
	}
	var b bytes.Buffer
	if err := reportTmpl().Execute(&b, data); err != nil {
		return fmt.Errorf("warmup: report: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Files are the names WriteAll writes into its directory.
var Files = []string{"series.csv", "series.json", "summary.json", "warmup.png", "warmup.svg", "timeline.png", "timeline.svg", "report.html"}

// WriteAll analyses runs and writes every output of `jitsim warmup` into
// dir (created if missing): series.csv, series.json, summary.json,
// warmup.png, warmup.svg, timeline.png, timeline.svg (the compile timeline,
// with meta.Imports overlaid) and report.html. It returns the summary for
// the terminal table.
func WriteAll(dir string, runs []Run, o Options, meta ReportMeta, po PlotOptions) (Summary, error) {
	s, err := Summarize(runs, o)
	if err != nil {
		return s, err
	}
	for _, l := range meta.Imports {
		s.Imports = append(s.Imports, l.Summary())
	}
	if err := s.Compare(runs, meta.Baseline); err != nil {
		return s, err
	}
	if po.Title == "" {
		po.Title = meta.Title
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s, fmt.Errorf("warmup: output directory: %w", err)
	}
	writers := map[string]func(io.Writer) error{
		"series.csv":   func(w io.Writer) error { return WriteCSV(w, runs) },
		"series.json":  func(w io.Writer) error { return WriteJSON(w, runs) },
		"summary.json": func(w io.Writer) error { return WriteSummaryJSON(w, s) },
		"warmup.png":   func(w io.Writer) error { return WriteChart(w, runs, s, po, "png") },
		"warmup.svg":   func(w io.Writer) error { return WriteChart(w, runs, s, po, "svg") },
		"timeline.png": func(w io.Writer) error { return WriteTimeline(w, runs, meta.Imports, po.Title, "png") },
		"timeline.svg": func(w io.Writer) error { return WriteTimeline(w, runs, meta.Imports, po.Title, "svg") },
		"report.html":  func(w io.Writer) error { return WriteReport(w, runs, s, meta, po) },
	}
	for _, name := range Files {
		var b bytes.Buffer
		if err := writers[name](&b); err != nil {
			return s, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return s, fmt.Errorf("warmup: writing %s: %w", name, err)
		}
	}
	return s, nil
}
