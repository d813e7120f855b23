package validate

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"
)

// Page is what the validation page shows.
type Page struct {
	Command string
	JVM     string // the JVM's version line
	Profile string // what priced the model clock
	Steady  []Result
	Warmup  []WarmupResult
	// Workload is a workload file's comparison, per phase; nil when none was run.
	Workload *WorkloadReport
	// Report is the warm-up study's page beside this one ("report.html"), with the curves
	// of both sides overlaid; "" when there is none.
	Report string
}

// pageTmpl is the report page, parsed on first use.
var pageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("validate").Funcs(template.FuncMap{
		"us":        func(ns float64) string { return fmt.Sprintf("%.3f", ns/1000) },
		"join":      func(o []string) string { return strings.Join(o, " → ") },
		"f2":        func(x float64) string { return fmt.Sprintf("%.2f", x) },
		"dur":       func(d time.Duration) string { return d.Round(time.Microsecond).String() },
		"landmarks": landmarkRows,
		"phaseRows": func(p PhaseResult) []landmarkRow { return p.rows() },
		"dur4":      func(d time.Duration) string { return fourDigits(d).String() },
	}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>jitsim validate</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; max-width: 1200px; margin: 1em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: right; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
details { margin: 0 0 1em 1em; font-size: 13px; } .within { color: #1a7f37; } .outside { color: #b3261e; font-weight: 600; } .noisy { color: #8a6d00; }
code { background: #f3f3f3; padding: 0 3px; }
</style></head><body>
<h1>The model clock against a real JVM</h1>
<p><code>{{.Command}}</code></p>
<p>JVM: {{.JVM}}. Model clock priced by {{.Profile}}.</p>
{{if .Warmup}}<h2>Warm-up</h2>
<p>An AESGCMBench-like loop on both sides; a landmark is within when jitsim is within ±50 % of the JVM's median over the rounds.{{if .Report}} The curves, overlaid (the JVM dashed): <a href="{{.Report}}">{{.Report}}</a>.{{end}}</p>
<table><tr><th class="l">flag set</th><th class="l">landmark</th><th>JVM median</th><th>JVM min–max</th><th>jitsim</th><th>jitsim/JVM</th><th class="l">verdict</th></tr>
{{range $r := .Warmup}}{{range landmarks $r}}<tr><td class="l">{{$r.Set}}</td><td class="l">{{.Name}}</td><td>{{dur .Median}}</td><td>{{dur .Min}}–{{dur .Max}}</td><td>{{dur .Model}}</td><td>{{f2 .Factor}}</td><td class="l {{if eq .Verdict "outside"}}outside{{else if eq .Verdict "JVM too noisy"}}noisy{{else}}within{{end}}">{{.Verdict}}</td></tr>
{{end}}{{end}}</table>
{{range .Warmup}}<p><b>{{.Set}}</b>: first level-3/4 compiles of the crypto methods both compile — jitsim's order {{if .OrderMatch}}<span class="within">matches</span>{{else}}<span class="outside">differs from</span>{{end}} the JVM's majority, pair by pair ({{.AgainstLine}}).</p>
<p>{{.Agreement}}</p>
<details><summary>the two orders</summary><p>JVM: {{join .JVMOrder}}</p><p>jitsim: {{join .Model.Order}}</p></details>
{{end}}{{end}}
{{with .Workload}}<h2>Workload {{.Workload}}</h2>
<p>{{.Title}}. Thread 0's operations of each phase, one iteration each: the JVM replays the workload resolved into a trace (its outputs checked by CRC), jitsim runs it on the model clock and, in the same rounds as the JVM, on its wall clock. Medians over {{.Rounds}} rounds with their range. The steady time per operation is within when jitsim's model clock is within ±25 % of the JVM's median; a warm-up landmark (phases of ten operations or more) within ±50 %.{{if $.Report}} The curves, overlaid (the JVM dashed): <a href="{{$.Report}}">{{$.Report}}</a>.{{end}}</p>
<table><tr><th class="l">flag set</th><th class="l">phase</th><th>ops</th><th class="l">measure</th><th>JVM median</th><th>JVM min–max</th><th>jitsim model</th><th>model/JVM</th><th>jitsim wall</th><th>wall min–max</th><th>wall/JVM</th><th class="l">verdict</th></tr>
{{range $p := .Phases}}{{range phaseRows $p}}<tr><td class="l">{{$p.Set}}</td><td class="l">{{$p.Phase}}</td><td>{{$p.Ops}}</td><td class="l">{{.Name}}</td><td>{{dur4 .Median}}</td><td>{{dur4 .Min}}–{{dur4 .Max}}</td><td>{{dur4 .Model}}</td><td>{{f2 .Factor}}</td><td>{{dur4 .Wall}}</td><td>{{dur4 .WallMin}}–{{dur4 .WallMax}}</td><td>{{f2 .WallFactor}}</td><td class="l {{if eq .Verdict "outside"}}outside{{else if eq .Verdict "JVM too noisy"}}noisy{{else}}within{{end}}">{{.Verdict}}</td></tr>
{{end}}{{end}}</table>{{end}}
{{if .Steady}}<h2>Steady state</h2>
<p>Time per operation, in µs: the JVM's median over interleaved rounds with its range, the rounds they rest on of the rounds run, and how many rounds the machine sentinel marked disturbed (the harness times a loop of table reads beside each row; a reading over 1.2× that row's fastest means the machine was slow); marked rounds are replaced by extra rounds and left out when enough others remain. jitsim's model clock once steady. Within: |jitsim/JVM − 1| ≤ 0.25; a JVM range beyond ±25 % of its median is too noisy to judge.</p>
<table><tr><th class="l">flag set</th><th class="l">op</th><th>bytes</th><th>JVM</th><th>JVM min–max</th><th>rounds used</th><th>disturbed</th><th>jitsim</th><th>jitsim/JVM</th><th>slowdown JVM</th><th>slowdown jitsim</th><th class="l">verdict</th></tr>
{{range .Steady}}<tr><td class="l">{{.Set}}</td><td class="l">{{.Op}}</td><td>{{.Size}}</td><td>{{us .JVM}}</td><td>{{us .JVMMin}}–{{us .JVMMax}}</td><td>{{.JVMUsed}}/{{.Rounds}}</td><td>{{.JVMDisturbed}}</td><td>{{us .Model}}</td><td>{{f2 .Factor}}</td><td>{{if .JVMSlowdown}}{{f2 .JVMSlowdown}}×{{end}}</td><td>{{if .ModelSlowdn}}{{f2 .ModelSlowdn}}×{{end}}</td><td class="l {{if eq .Verdict "within ±25 %"}}within{{else if eq .Verdict "outside"}}outside{{else}}noisy{{end}}">{{.Verdict}}</td></tr>
{{end}}</table>{{end}}
</body></html>
`))
})

// WriteHTML writes the validation page: self-contained, no scripts, nothing fetched.
func WriteHTML(w io.Writer, p Page) error { return pageTmpl().Execute(w, p) }
