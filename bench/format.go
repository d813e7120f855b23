package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Format is one of JMH's result file formats (-rf, ResultFormatType in
// JMH 1.37).
type Format string

// The result formats, by their -rf names.
const (
	FormatText  Format = "text"
	FormatCSV   Format = "csv"
	FormatSCSV  Format = "scsv"
	FormatJSON  Format = "json"
	FormatLaTeX Format = "latex"
)

// Formats lists the result formats in JMH's order.
var Formats = []Format{FormatText, FormatCSV, FormatSCSV, FormatJSON, FormatLaTeX}

// ParseFormat reads a -rf value; case does not matter, as in JMH.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if strings.EqualFold(s, string(f)) {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown result format %q (want text, csv, scsv, json or latex)", s)
}

// DefaultFile is the file JMH writes a format to when -rff is not given:
// "jmh-result." and the format's name ("jmh-result.csv").
func (f Format) DefaultFile() string { return "jmh-result." + string(f) }

// Write writes results in format f.
func Write(w io.Writer, f Format, results []Result) error {
	switch f {
	case FormatText:
		return WriteText(w, results)
	case FormatCSV:
		return WriteCSV(w, results)
	case FormatSCSV:
		return WriteSCSV(w, results)
	case FormatJSON:
		return WriteJSON(w, results)
	case FormatLaTeX:
		return WriteLaTeX(w, results)
	}
	return fmt.Errorf("bench: unknown result format %q", f)
}

// WriteCSV writes results as JMH's CSV (-rf csv, XSVResultFormat with ','):
// RFC 4180 records ending in CRLF, the header
//
//	"Benchmark","Mode","Threads","Samples","Score","Score Error (99.9%)","Unit","Param: dataSize"
//
// with one "Param: NAME" column per parameter name of any result, sorted by
// name; then one record per result and one per secondary metric
// ("benchmark:label", labels sorted). Benchmark names are not shortened;
// the name, mode and unit are always quoted, numbers and parameter values
// only when they hold the delimiter, a blank, a quote or a line break.
// Scores are printed as Java's "%f" (six decimals, "NaN" for a missing
// error). JMH formats the numbers in the JVM's default locale; jitsim
// always writes the root locale's decimal point.
func WriteCSV(w io.Writer, results []Result) error { return writeXSV(w, results, ",", false) }

// WriteSCSV writes JMH's semicolon-separated variant (-rf scsv): the same
// layout as WriteCSV with ';' between fields. The decimal separator is
// not part of the format: JMH takes it from the JVM's locale for both
// variants (in a decimal-comma locale such as ru, a score is 1,500000 bare
// in scsv and "1,500000" quoted in csv).
func WriteSCSV(w io.Writer, results []Result) error { return writeXSV(w, results, ";", false) }

// writeXSV is XSVResultFormat with delimiter delim; decimalComma prints
// numbers as a locale with a decimal comma does.
func writeXSV(w io.Writer, results []Result, delim string, decimalComma bool) error {
	var params []string
	seen := map[string]bool{}
	for _, r := range results {
		if err := r.Validate(); err != nil {
			return err
		}
		for _, p := range r.Params {
			if !seen[p.Name] {
				seen[p.Name] = true
				params = append(params, p.Name)
			}
		}
	}
	sort.Strings(params)
	field := func(v string) string {
		if strings.Contains(v, delim) || strings.ContainsAny(v, " \n\r\"") {
			return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
		}
		return v
	}
	quoted := func(v string) string { return `"` + strings.ReplaceAll(v, `"`, `""`) + `"` }
	num := func(v float64) string { return field(localized(javaF(v, 6), decimalComma)) }
	var b strings.Builder
	head := []string{quoted("Benchmark"), quoted("Mode"), quoted("Threads"), quoted("Samples"), quoted("Score"),
		quoted("Score Error (" + localized("99.9", decimalComma) + "%)"), quoted("Unit")}
	for _, p := range params {
		head = append(head, quoted("Param: "+p))
	}
	b.WriteString(strings.Join(head, delim) + "\r\n")
	row := func(r Result, label string, m Metric) {
		st := m.Stats()
		rec := []string{quoted(label), quoted(string(r.Mode)), field(strconv.Itoa(r.Threads)), field(strconv.Itoa(st.N)),
			num(st.Score), num(st.Error), quoted(m.Unit)}
		for _, p := range params {
			v, _ := paramValue(r, p) // a result without the parameter: an empty field
			if v != "" {
				v = field(v)
			}
			rec = append(rec, v)
		}
		b.WriteString(strings.Join(rec, delim) + "\r\n")
	}
	for _, r := range results {
		row(r, r.Benchmark, r.Primary)
		for _, s := range r.sortedSecondary() {
			row(r, r.Benchmark+":"+s.Label, s.Metric)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("bench: writing %s: %w", map[string]string{",": "CSV", ";": "SCSV"}[delim], err)
	}
	return nil
}

// javaF prints v as Java's String.format("%.Nf") in the root locale:
// "NaN", "Infinity", "-Infinity" for the non-finite values (see javaFixed
// for the one rounding difference).
func javaF(v float64, decimals int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// localized swaps the decimal point of a formatted number for a comma
// when decimalComma is set.
func localized(s string, decimalComma bool) string {
	if decimalComma {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// WriteLaTeX writes results as JMH's LaTeX table (-rf latex,
// LaTeXResultFormat): a tabular with the benchmark column, one column per
// parameter name (sorted), and the score with its error; when every row
// has the same unit it is in the score's heading ("Score, ops/s"),
// otherwise each row has a unit column. Names are shortened as in the text
// table; '_', '#', '{' and '}' are escaped. Like JMH, the table is not
// terminated by a newline.
func WriteLaTeX(w io.Writer, results []Result) error { return writeLaTeX(w, results, false) }

func writeLaTeX(w io.Writer, results []Result, decimalComma bool) error {
	var params, names []string
	seen, units := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		if err := r.Validate(); err != nil {
			return err
		}
		names = append(names, r.Benchmark)
		units[r.Primary.Unit] = true
		for _, p := range r.Params {
			if !seen[p.Name] {
				seen[p.Name] = true
				params = append(params, p.Name)
			}
		}
		for _, s := range r.sortedSecondary() {
			names = append(names, r.Benchmark+":"+s.Label)
			units[s.Unit] = true
		}
	}
	sort.Strings(params)
	single := len(units) == 1
	dense := DenseNames(names)
	esc := strings.NewReplacer("_", `\_`, "#", `\#`, "{", `\{`, "}", `\}`)
	var b strings.Builder
	b.WriteString(`\begin{tabular}{r|` + strings.Repeat("l|", len(params)) + "rl")
	if !single {
		b.WriteString("l")
	}
	b.WriteString("}\n" + ` \multicolumn{1}{c|}{\texttt{Benchmark}} & `)
	for _, p := range params {
		b.WriteString(`\texttt{` + p + `} & `)
	}
	if single {
		var unit string
		for u := range units {
			unit = u
		}
		b.WriteString(`\multicolumn{2}{c}{\texttt{Score, ` + unit + `}} \\` + "\n")
	} else {
		b.WriteString(`\multicolumn{3}{c}{\texttt{Score}} \\` + "\n")
	}
	b.WriteString(`\hline` + "\n")
	row := func(r Result, name string, m Metric) {
		st := m.Stats()
		b.WriteString(`\texttt{` + esc.Replace(dense[name]) + `} & `)
		for _, p := range params {
			v, _ := paramValue(r, p)
			b.WriteString(`\texttt{` + esc.Replace(v) + `} & `)
		}
		b.WriteString(`\texttt{` + localized(formatLaTeXScore(st.Score), decimalComma) + `} & `)
		if !math.IsNaN(st.Error) && !isApproximate(st.Score) {
			b.WriteString(`\scriptsize $\pm$ \texttt{` + localized(formatError(st.Error), decimalComma) + `} `)
		}
		if !single {
			b.WriteString(`& \texttt{` + esc.Replace(m.Unit) + `}`)
		}
		b.WriteString(` \\` + "\n")
	}
	for _, r := range results {
		row(r, r.Benchmark, r.Primary)
		for _, s := range r.sortedSecondary() {
			row(r, r.Benchmark+":"+s.Label, s.Metric)
		}
	}
	b.WriteString(`\end{tabular}`)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("bench: writing LaTeX: %w", err)
	}
	return nil
}

// formatLaTeXScore is ScoreFormatter.formatLatex: three decimals, or
// "$\approx 10^{n}$" for a score that rounds to zero.
func formatLaTeXScore(score float64) string {
	if isApproximate(score) {
		p := approxPower(score)
		if p == 0 {
			return `$\approx 0$`
		}
		return `$\approx 10^{` + strconv.Itoa(p) + `}$`
	}
	return javaFixed(score)
}
