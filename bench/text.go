package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// scorePrecision is JMH's default jmh.scorePrecision.
const scorePrecision = 3

// isApproximate is ScoreFormatter.isApproximate: scores below half a unit
// in the last printed place are shown as "≈ 10ⁿ".
func isApproximate(score float64) bool {
	return score < 0.5/math.Pow(10, scorePrecision)
}

var superscripts = strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³",
	"4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

// formatScore is ScoreFormatter.format: 3 decimals, or "≈ 10⁻ⁿ".
func formatScore(score float64) string {
	if isApproximate(score) {
		p := approxPower(score)
		if p == 0 {
			return "≈ 0"
		}
		return "≈ 10" + superscripts.Replace(strconv.Itoa(p))
	}
	return javaFixed(score)
}

// approxPower is the power of ten an approximate score is shown as:
// Math.round(Math.log10(score)) in Java, which is 0 for a negative score
// (the logarithm is NaN and Java rounds NaN to 0).
func approxPower(score float64) int {
	l := math.Round(math.Log10(score))
	if math.IsNaN(l) || math.IsInf(l, 0) {
		return 0
	}
	return int(l)
}

// formatError is ScoreFormatter.formatError: 3 decimals, at least 0.001.
func formatError(e float64) string {
	return javaFixed(math.Max(e, 1/math.Pow(10, scorePrecision)))
}

// javaFixed prints like Java's String.format("%.3f"), with "NaN" and the infinities as Java
// writes them (javaF).
func javaFixed(v float64) string { return javaF(v, scorePrecision) }

// padLeft right-aligns s in width runes (Java's %Ns), padRight left-aligns.
func padLeft(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return strings.Repeat(" ", width-n) + s
	}
	return s
}

func padRight(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// DenseNames shortens benchmark names as JMH's ClassUtils.denseClassNames
// does for its tables: the leading all-lower-case package parts common to
// every name are dropped, or cut to their first letter when some name
// leaves the common prefix early.
func DenseNames(names []string) map[string]string {
	out := map[string]string{}
	if len(names) == 0 {
		return out
	}
	var prefix []string
	cut := false
	for i, s := range names {
		parts := strings.Split(s, ".")
		if i == 0 {
			for _, p := range parts {
				if strings.ToLower(p) != p {
					break
				}
				prefix = append(prefix, p)
			}
			continue
		}
		c := 0
		for c < min(len(prefix), len(parts)) && parts[c] == prefix[c] && strings.ToLower(parts[c]) == parts[c] {
			c++
		}
		if c != len(prefix) {
			cut = true
		}
		prefix = prefix[:c]
	}
	for _, s := range names {
		parts := strings.Split(s, ".")
		for c := range prefix {
			if cut {
				parts[c] = prefix[c][:1]
			} else {
				parts[c] = ""
			}
		}
		var keep []string
		for _, p := range parts {
			if p != "" {
				keep = append(keep, p)
			}
		}
		out[s] = strings.Join(keep, ".")
	}
	return out
}

// WriteText writes JMH's end-of-run summary table (TextResultFormat):
// benchmark names made dense, one right-aligned "(param)" column per
// parameter name in sorted order, then Mode, Cnt (blank for one sample),
// Score, "± Error" (blank when NaN or the score is approximate) and Units,
// every column padded by two; secondary metrics follow their benchmark as
// "name:label" rows.
func WriteText(w io.Writer, results []Result) error {
	const pad = 2
	var names []string
	for _, r := range results {
		names = append(names, r.Benchmark)
		for _, s := range r.sortedSecondary() {
			names = append(names, r.Benchmark+":"+s.Label)
		}
	}
	dense := DenseNames(names)
	nameLen := len("Benchmark")
	for _, d := range dense {
		nameLen = max(nameLen, utf8.RuneCountInString(d))
	}
	paramLen := map[string]int{}
	var paramNames []string
	for _, r := range results {
		for _, p := range r.Params {
			l, ok := paramLen[p.Name]
			if !ok {
				l = len("("+p.Name+")") + pad
				paramNames = append(paramNames, p.Name)
			}
			paramLen[p.Name] = max(l, utf8.RuneCountInString(p.Value)+pad)
		}
	}
	sort.Strings(paramNames)
	modeLen, cntLen, scoreLen, errLen, unitLen := len("Mode"), len("Cnt"), len("Score"), len("Error"), len("Units")
	stats := make([][]Stats, len(results))
	for i, r := range results {
		modeLen = max(modeLen, len(r.Mode))
		ms := append([]Metric{r.Primary}, metricsOf(r.sortedSecondary())...)
		for _, m := range ms {
			st := m.Stats()
			stats[i] = append(stats[i], st)
			cntLen = max(cntLen, len(strconv.Itoa(st.N)))
			scoreLen = max(scoreLen, utf8.RuneCountInString(formatScore(st.Score)))
			// TextResultFormat sizes the column with ScoreFormatter.format
			// ("NaN", "≈ 10⁻⁴") though it prints formatError.
			errLen = max(errLen, utf8.RuneCountInString(formatScore(st.Error)))
			unitLen = max(unitLen, utf8.RuneCountInString(m.Unit))
		}
	}
	modeLen += pad
	cntLen += pad
	scoreLen += pad
	errLen += pad - 1 // one column goes to the "±"
	unitLen += pad

	var b strings.Builder
	b.WriteString(padRight("Benchmark", nameLen))
	for _, k := range paramNames {
		b.WriteString(padLeft("("+k+")", paramLen[k]))
	}
	b.WriteString(padLeft("Mode", modeLen) + padLeft("Cnt", cntLen) + padLeft("Score", scoreLen) + "  " +
		padLeft("Error", errLen) + padLeft("Units", unitLen) + "\n")
	row := func(r Result, name string, st Stats, unit string) {
		b.WriteString(padRight(name, nameLen))
		for _, k := range paramNames {
			v, ok := paramValue(r, k)
			if !ok {
				v = "N/A"
			}
			b.WriteString(padLeft(v, paramLen[k]))
		}
		b.WriteString(padLeft(string(r.Mode), modeLen))
		cnt := ""
		if st.N > 1 {
			cnt = strconv.Itoa(st.N)
		}
		b.WriteString(padLeft(cnt, cntLen))
		b.WriteString(padLeft(formatScore(st.Score), scoreLen))
		if !math.IsNaN(st.Error) && !isApproximate(st.Score) {
			b.WriteString(" ±" + padLeft(formatError(st.Error), errLen))
		} else {
			b.WriteString("  " + strings.Repeat(" ", errLen))
		}
		b.WriteString(padLeft(unit, unitLen) + "\n")
	}
	for i, r := range results {
		row(r, dense[r.Benchmark], stats[i][0], r.Primary.Unit)
		for j, s := range r.sortedSecondary() {
			row(r, dense[r.Benchmark+":"+s.Label], stats[i][j+1], s.Unit)
		}
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("bench: writing text table: %w", err)
	}
	return nil
}

func metricsOf(ns []NamedMetric) []Metric {
	out := make([]Metric, len(ns))
	for i, n := range ns {
		out[i] = n.Metric
	}
	return out
}

func paramValue(r Result, name string) (string, bool) {
	for _, p := range r.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}
