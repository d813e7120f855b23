package serve

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/jitsim/jitsim/warmup"
)

// Result is the answer to /api/run: each command line's panes, the warm-up curve of all of
// them on one chart, and with two command lines their ratio.
type Result struct {
	Version   string      `json:"version"`
	Permalink string      `json:"permalink"`
	Runs      []RunResult `json:"runs"`
	Ratio     *Ratio      `json:"ratio,omitempty"`
	// CurveSVG is the warm-up chart with its tier lanes (warmup.WriteChart), "" when no run
	// has enough iterations; CurveNote then says why.
	CurveSVG  string `json:"curve_svg,omitempty"`
	CurveNote string `json:"curve_note,omitempty"`
}

// RunResult is one command line's panes.
type RunResult struct {
	Label   string  `json:"label"`
	Command Command `json:"command"`
	// Line is the command line the CLI runs for the same output.
	Line   string `json:"line"`
	Status int    `json:"status"`
	// Stdout and Stderr are the CLI's streams as it writes them; Program, Compilation and
	// Inlining split stdout: the scenario's output, PrintCompilation's lines, and the
	// PrintIntrinsics/PrintInlining lines (the "@ bci" tree under each compile).
	Stdout      string      `json:"stdout"`
	Stderr      string      `json:"stderr"`
	Program     string      `json:"program"`
	Compilation string      `json:"compilation"`
	Inlining    string      `json:"inlining"`
	Explain     []Explained `json:"explain,omitempty"`
	// ExplainNote says why there are no trees (no VM starts with these options).
	ExplainNote string `json:"explain_note,omitempty"`
	Iterations  int    `json:"iterations"`
}

// Ratio is B's time per operation over A's: the steady states' when both runs reach one
// (warmup.Summary.Compare, with its 95 % interval), else the final quarters' medians.
type Ratio struct {
	Value  float64  `json:"value"`
	Low    *float64 `json:"ci_low,omitempty"`
	High   *float64 `json:"ci_high,omitempty"`
	Basis  string   `json:"basis"`
	Format string   `json:"text"`
}

// labels are the A/B sides.
var labels = []string{"A", "B"}

// CLILine is the `jitsim run` command line that prints what c's panes show.
func CLILine(c Command) []string {
	return append([]string{"jitsim", "run", "--clock=model", "--jdk=" + c.Release, "--cpu=" + c.CPU}, c.Argv...)
}

// Execute runs q's command lines one after the other on e and assembles the result. q must
// have passed Check.
func Execute(ctx context.Context, e Engine, q Request, caps Caps) (Result, error) {
	res := Result{Version: q.Version, Permalink: Permalink(q)}
	cmds := []Command{q.Command}
	if q.Compare != nil {
		cmds = append(cmds, *q.Compare)
	}
	var runs []warmup.Run
	for i, c := range cmds {
		out := e.Run(ctx, c, caps)
		ex, err := e.Explain(c)
		note := ""
		if err != nil {
			ex, note = nil, err.Error() // an option error is in the run's stderr too
		}
		prog, comp, inl := out.Program, "", ""
		for _, l := range strings.SplitAfter(out.TTY, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " "), "@ ") {
				inl += l
			} else {
				comp += l
			}
		}
		rr := RunResult{Label: labels[i], Command: c, Line: strings.Join(CLILine(c), " "), Status: out.Status, Stdout: out.Stdout,
			Stderr: out.Stderr, Program: prog, Compilation: comp, Inlining: inl, Explain: ex, ExplainNote: note}
		if out.Series != nil {
			r := *out.Series
			r.Label = labels[i] + ": " + strings.Join(c.Argv, " ")
			rr.Iterations = len(r.Iterations)
			runs = append(runs, r)
		}
		res.Runs = append(res.Runs, rr)
	}
	if ctx.Err() != nil && len(runs) == 0 {
		return res, nil
	}
	res.CurveSVG, res.Ratio, res.CurveNote = curve(runs, len(cmds))
	return res, nil
}

// minIterations is the shortest series the curve analysis takes.
const minIterations = 8

// curve draws the runs' warm-up chart and, for two runs, their ratio.
func curve(runs []warmup.Run, want int) (svg string, ratio *Ratio, note string) {
	for _, r := range runs {
		if len(r.Iterations) < minIterations {
			return "", nil, fmt.Sprintf("no curve: %q has %d iterations; the analysis needs at least %d", r.Label, len(r.Iterations), minIterations)
		}
	}
	if len(runs) == 0 {
		return "", nil, "no curve: no scenario ran"
	}
	s, err := warmup.Summarize(runs, warmup.Options{BootstrapResamples: -1})
	if err != nil {
		return "", nil, "no curve: " + err.Error()
	}
	if len(runs) == 2 && want == 2 {
		if err := s.Compare(runs, runs[0].Label); err == nil {
			ratio = ratioOf(runs, s)
		}
	}
	// One run's chart stands beside its panes; two runs' spans the page above theirs.
	po := warmup.PlotOptions{Title: "time per operation, model clock", Width: 6.5 * vg.Inch}
	if len(runs) > 1 {
		po.Width = 0
	}
	var b bytes.Buffer
	if err := warmup.WriteChart(&b, runs, s, po, "svg"); err != nil {
		return "", ratio, "no curve: " + err.Error()
	}
	return b.String(), ratio, ""
}

// ratioOf is B over A: the steady states' ratio when Compare found one, else the final
// quarters' medians.
func ratioOf(runs []warmup.Run, s warmup.Summary) *Ratio {
	if len(s.Ratios) == 1 && s.Ratios[0].SteadyPerOp != nil {
		r := s.Ratios[0]
		return &Ratio{Value: *r.SteadyPerOp, Low: r.SteadyLow, High: r.SteadyHigh, Basis: "steady-state time per operation, B / A",
			Format: warmup.FormatRatio(r.SteadyPerOp) + " " + warmup.FormatCI(r.SteadyLow, r.SteadyHigh)}
	}
	a, b := finalQuarter(runs[0]), finalQuarter(runs[1])
	if a <= 0 || b <= 0 {
		return nil
	}
	v := b / a
	return &Ratio{Value: v, Basis: "median time per operation of the final quarter, B / A (no steady state on both sides)", Format: warmup.FormatRatio(&v)}
}

// finalQuarter is the median time per operation of a run's last quarter of iterations.
func finalQuarter(r warmup.Run) float64 {
	p := r.PerOp()
	tail := slices.Clone(p[len(p)-max(len(p)/4, 1):])
	slices.Sort(tail)
	return tail[len(tail)/2]
}
