package flags

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// -Xlog, HotSpot's unified logging: -Xlog[:[selections][:[output][:[decorators][:output-options]]]].
// jitsim checks every part as java 17.0.15 and Temurin 25.0.3 do (their texts are in
// testdata/recorded.json, cases xlog_*) and keeps what was asked for in Result.Logs; the tags
// are the ones -Xlog:help lists (recordedLogTags).

// LogLine is one line java's unified logging prints while the VM starts (an -Xlog error or
// warning): "[uptime][level][tags] text" with the default decorations, or Text alone when
// Plain. A Configured line is logged once the -Xlog options are applied, with the
// decorations they give its output.
type LogLine struct {
	Level, Tags, Text string
	Plain             bool
	Configured        bool
}

// LogSelection is one selection of an -Xlog option: a tag set (All: every tag set), whether
// more tags may follow (Wildcard), and the level up to which messages are logged ("off"
// turns the selection off).
type LogSelection struct {
	Tags     []string
	All      bool
	Wildcard bool
	Level    string
}

// LogConfig is one -Xlog option that configures an output.
type LogConfig struct {
	Selections []LogSelection
	// Output is "stdout", "stderr" or "file=NAME".
	Output string
	// Decorators are the decorations asked for (full names), nil for the default
	// (uptime, level, tags); "none" is an empty, non-nil list.
	Decorators []string
	// Options are a file output's options (filecount, filesize, foldmultilines).
	Options string
}

// Matches reports whether the configuration logs a message with exactly the tags tags (in
// any order) at level.
func (c LogConfig) Matches(tags []string, level string) bool {
	on := false
	for _, s := range c.Selections {
		if !s.All && !s.matchesTags(tags) {
			continue
		}
		// A later selection of the same tag set wins.
		on = s.Level != "off" && levelRank(level) >= levelRank(s.Level)
	}
	return on
}

func (s LogSelection) matchesTags(tags []string) bool {
	for _, t := range s.Tags {
		if !slices.Contains(tags, t) {
			return false
		}
	}
	return s.Wildcard || len(tags) == len(s.Tags)
}

// logLevels are the levels, most verbose first ("off" aside).
var logLevels = []string{"trace", "debug", "info", "warning", "error"}

func levelRank(l string) int { return slices.Index(logLevels, l) }

// logDecorators are the decorators with their short names (the same on 17 and 25).
var logDecorators = [][2]string{
	{"time", "t"}, {"utctime", "utc"}, {"uptime", "u"}, {"timemillis", "tm"}, {"uptimemillis", "um"},
	{"timenanos", "tn"}, {"uptimenanos", "un"}, {"hostname", "hn"}, {"pid", "p"}, {"tid", "ti"},
	{"level", "l"}, {"tags", "tg"},
}

// LogTags returns the unified-logging tags of profile j (the recorded release's list; 8 and
// 8u have no unified logging, 21 follows 17), sorted.
func LogTags(j jdk.Release) []string {
	for _, r := range recordedLogTags {
		if r.releases.Has(j) {
			return r.tags
		}
	}
	if j.Modern() {
		return recordedLogTags[0].tags
	}
	return nil
}

// LogDecorators returns the decorator names and their short forms.
func LogDecorators() [][2]string { return logDecorators }

// LogLevels returns the levels, most verbose first.
func LogLevels() []string { return slices.Clone(logLevels) }

// maxLogOption bounds the text of one -Xlog option jitsim parses (a command line is small;
// this keeps a hostile one from costing quadratic time in the suggestions).
const maxLogOption = 4096

// splitXlog splits an -Xlog option's text after "-Xlog:" at its colons into at most five
// parts (selections, output, decorators, output options, and the excess), a colon between
// double quotes not splitting (file="a:b.log" names a:b.log). A quote left open stops the
// split: open is then the text from the start of the part that holds it to the end, which
// java names in "Missing terminating quote" (observed on 17 and 25 in each of the four parts).
func splitXlog(text string) (parts []string, open string) {
	start, quoted := 0, false
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == '"':
			quoted = !quoted
		case text[i] == ':' && !quoted && len(parts) < 4:
			parts = append(parts, text[start:i])
			start = i + 1
		}
	}
	if quoted {
		return nil, text[start:]
	}
	return append(parts, text[start:]), ""
}

// xlogOption parses one -Xlog option (t.text starts with "-Xlog").
func (p *parser) xlogOption(t token, _ string) error {
	rest := strings.TrimPrefix(t.text, "-Xlog")
	invalid := func(lines ...LogLine) error {
		return &Error{Text: "Invalid -Xlog option '" + t.text + "', see error log for details.\n", Launcher: true,
			Log: lines, Where: t.where}
	}
	switch {
	case rest == "":
		p.res.Logs = append(p.res.Logs, LogConfig{Selections: []LogSelection{{All: true, Level: "info"}}, Output: "stdout"})
		return nil
	case !strings.HasPrefix(rest, ":") || len(t.text) > maxLogOption:
		return invalid()
	}
	rest = rest[1:]
	switch rest {
	case "disable":
		p.res.Logs = nil
		p.res.LogDisabled = true
		return nil
	case "async":
		return nil
	}
	if m, ok := strings.CutPrefix(rest, "async:"); ok && xlogAsyncModes.At(p.o.JDK) && (m == "drop" || m == "stall") {
		return nil
	}
	parts, open := splitXlog(rest)
	if open != "" {
		return invalid(LogLine{Level: "error", Tags: "logging", Text: "Missing terminating quote in -Xlog option '" + open + "'"})
	}
	if len(parts) == 5 {
		p.res.LogWarnings = append(p.res.LogWarnings, LogLine{Level: "warning", Tags: "logging",
			Text: "Ignoring excess -Xlog options: \"" + parts[4] + "\""})
		parts = parts[:4]
	}
	for len(parts) < 4 {
		parts = append(parts, "")
	}
	var c LogConfig
	// Selections: the level of each is checked before its tags.
	sels := parts[0]
	if sels == "" {
		sels = "all"
	}
	tags := LogTags(p.o.JDK)
	for _, sel := range strings.Split(sels, ",") {
		spec, level, hasLevel := strings.Cut(sel, "=")
		if !hasLevel {
			level = "info"
		}
		// Levels, tags and decorators are matched ignoring case (-Xlog:GC=Debug is gc=debug);
		// "all", "disable" and the output names are not.
		if l := strings.ToLower(level); l == "off" || levelRank(l) >= 0 {
			level = l
		} else {
			msg := "Invalid level '" + level + "' in log selection."
			if s := logSuggestion(level, logLevels, levelSuggestion); s != "" {
				msg += " Did you mean '" + s + "'?"
			}
			return invalid(LogLine{Level: "error", Tags: "logging", Text: msg})
		}
		s := LogSelection{Level: level}
		if spec == "all" {
			s.All = true
		} else {
			s.Wildcard = strings.HasSuffix(spec, "*")
			for _, tag := range strings.Split(strings.TrimSuffix(spec, "*"), "+") {
				if _, found := slices.BinarySearch(tags, strings.ToLower(tag)); found {
					tag = strings.ToLower(tag)
				} else {
					msg := "Invalid tag '" + tag + "' in log selection."
					if sug := logSuggestion(tag, tags, tagSuggestion); sug != "" && tag != "" {
						msg += " Did you mean '" + sug + "'?"
					}
					return invalid(LogLine{Level: "error", Tags: "logging", Text: msg})
				}
				s.Tags = append(s.Tags, tag)
			}
		}
		c.Selections = append(c.Selections, s)
	}
	// A selection that names valid tags no registered tag set takes only warns.
	for _, sel := range c.Selections {
		if w := p.noTagSetMatches(sel); w != "" {
			p.res.LogWarnings = append(p.res.LogWarnings, LogLine{Level: "warning", Tags: "logging", Text: w})
		}
	}
	// The output.
	out := parts[1]
	file := false
	switch {
	case out == "" || out == "stdout" || out == "#0":
		c.Output = "stdout"
	case out == "stderr" || out == "#1":
		c.Output = "stderr"
	case strings.HasPrefix(out, "#"):
		return invalid(LogLine{Level: "error", Tags: "logging", Text: "Invalid output index '" + out + "'"})
	case strings.Contains(out, "=") && !strings.HasPrefix(out, "file="):
		// TYPE=NAME names an output type; file is the only one.
		return invalid(LogLine{Level: "error", Tags: "logging", Text: "Unsupported log output type: " + out})
	default:
		name := strings.TrimPrefix(out, "file=")
		if strings.Contains(name, "\"") {
			if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' || strings.Count(name, "\"") != 2 {
				return invalid(LogLine{Level: "error", Tags: "logging", Text: "Output name can not be partially quoted. " +
					"Either surround the whole name with quotation marks, or do not use quotation marks at all."})
			}
			name = name[1 : len(name)-1]
		}
		if name == "" {
			return invalid(LogLine{Level: "error", Tags: "logging", Text: "Error opening log file '': No such file or directory"},
				LogLine{Level: "error", Tags: "logging", Text: "Initialization of output 'file=' using options '(null)' failed."})
		}
		c.Output, file = "file="+name, true
	}
	// Decorators: a set, printed in the table's order whatever order the option names them
	// in (17.0.15, 25.0.3: tags,uptime,level prints [uptime][level][tags]).
	if d := parts[2]; d != "" {
		c.Decorators = []string{}
		if !strings.EqualFold(d, "none") {
			var chosen []int
			for _, name := range strings.Split(d, ",") {
				i := slices.IndexFunc(logDecorators, func(x [2]string) bool { return strings.EqualFold(x[0], name) || strings.EqualFold(x[1], name) })
				if i < 0 {
					return invalid(LogLine{Level: "error", Tags: "logging", Text: "Invalid decorator '" + name + "'."})
				}
				chosen = append(chosen, i)
			}
			slices.Sort(chosen)
			for _, i := range slices.Compact(chosen) {
				c.Decorators = append(c.Decorators, logDecorators[i][0])
			}
		}
	}
	// Output options: a file's; ignored, with a plain notice, for stdout and stderr.
	if o := parts[3]; o != "" {
		if !file && !xlogStdoutOptions.At(p.o.JDK) {
			// Logged through the output this option just configured (its decorators: none
			// makes the line plain).
			p.res.LogWarnings = append(p.res.LogWarnings, LogLine{Level: "warning", Tags: "logging",
				Text: "Output options for existing outputs are ignored.", Configured: true})
		} else if msg := checkFileOptions(p.o.JDK, o, c.Output); msg != "" {
			if !file {
				// JDK 25 checks stdout's and stderr's options too, and says only that.
				return invalid(append(p.res.LogWarnings, LogLine{Level: "error", Tags: "logging", Text: msg})...)
			}
			return invalid(LogLine{Level: "error", Tags: "logging", Text: msg},
				LogLine{Level: "error", Tags: "logging", Text: "Initialization of output '" + c.Output + "' using options '" + o + "' failed."})
		}
		c.Options = o
	}
	// The file is opened once its decorators and options passed (17.0.15, 25.0.3: a bad
	// decorator or option in a missing directory is reported as such).
	if name, ok := strings.CutPrefix(c.Output, "file="); ok && file {
		text := ""
		if msg := p.logFileProblem(name); msg != "" {
			text = "Error opening log file '" + expandLogName(name) + "': " + msg
		} else if p.isDirectory(name) {
			// A directory is no file to rotate; without rotation (filecount=0) it fails
			// to open (17.0.15, 25.0.3).
			text = "Unable to log to file " + expandLogName(name) + " with log file rotation: " + expandLogName(name) + " is not a regular file"
			if slices.Contains(strings.Split(parts[3], ","), "filecount=0") {
				text = "Error opening log file '" + expandLogName(name) + "': Is a directory"
			}
		}
		if text != "" {
			opts := parts[3]
			if opts == "" {
				opts = "(null)"
			}
			return invalid(LogLine{Level: "error", Tags: "logging", Text: text},
				LogLine{Level: "error", Tags: "logging", Text: "Initialization of output '" + c.Output + "' using options '" + opts + "' failed."})
		}
	}
	p.res.Logs = append(p.res.Logs, c)
	return nil
}

// logFileProblem returns why java could not open a log file (its strerror text), or "":
// jitsim checks that the file's directory exists and is a directory.
func (p *parser) logFileProblem(name string) string {
	stat := p.o.Stat
	if stat == nil {
		stat = os.Stat
	}
	fi, err := stat(filepath.Dir(name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case err == nil && !fi.IsDir():
		return "Not a directory"
	}
	return ""
}

// isDirectory reports whether a log file's name is an existing directory.
func (p *parser) isDirectory(name string) bool {
	stat := p.o.Stat
	if stat == nil {
		stat = os.Stat
	}
	fi, err := stat(expandLogName(name))
	return err == nil && fi.IsDir()
}

// xlogAsyncModes: JDK 25 takes -Xlog:async:drop|stall (Temurin 25.0.3's -Xlog:help).
var xlogAsyncModes = from(false, jdk.R25, true)

// xlogFoldMultilines: the foldmultilines file option (Temurin 25.0.3's -Xlog:help; not in
// OpenJDK 17.0.15's).
var xlogFoldMultilines = from(false, jdk.R25, true)

// xlogStdoutOptions: Temurin 25.0.3 checks the output options of stdout and stderr (only
// foldmultilines is theirs); OpenJDK 17.0.15 ignores them with a notice.
var xlogStdoutOptions = from(false, jdk.R25, true)

// checkFileOptions checks an output's options and returns java's complaint, or "".
func checkFileOptions(j jdk.Release, opts, output string) string {
	file := strings.HasPrefix(output, "file=")
	for _, kv := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "foldmultilines" && xlogFoldMultilines.At(j):
			// Only these two spellings (25.0.3 refuses TRUE, 1 and an empty value).
			if v != "true" && v != "false" {
				return "Invalid option: foldmultilines must be 'true' or 'false'."
			}
		case !file:
			return "Invalid option '" + k + "' for log output (" + output + ")."
		case k == "filecount":
			if n, err := strconv.ParseUint(v, 10, 32); err != nil || n > 1000 {
				return "Invalid option: filecount must be in range [0, 1000]"
			}
		case k == "filesize":
			if _, ok := atojulong(v); !ok && v != "0" {
				return "Invalid option: filesize must be in range [0, 18446744073709551615]"
			}
		case xlogFoldMultilines.At(j):
			return "Invalid option '" + k + "' for log output (" + output + ")."
		default:
			return "Invalid option '" + k + "' for log file output."
		}
	}
	return ""
}

// logSuggestion returns the tag or level java would suggest for a mistyped one: the candidate
// c with the highest StringUtils::similarity(c, s) (as for -XX names), when it reaches
// threshold; "off" is never suggested. The thresholds (0.5 for tags, 0.3 for levels)
// separate every suggestion recorded from 17.0.15 and 25.0.3 (cases xlog_tag_*,
// xlog_level_*) from every non-suggestion; they are read off those runs, not documented.
func logSuggestion(s string, candidates []string, threshold float64) string {
	best, score := "", threshold
	for _, c := range candidates {
		if c == "off" {
			continue
		}
		if v := similarity(c, s); v >= score {
			best, score = c, v
		}
	}
	return best
}

const (
	tagSuggestion   = 0.5
	levelSuggestion = 0.3
)

// XlogHelp writes -Xlog:help's facts for profile j in jitsim's words: the grammar, the levels,
// the decorators, the tags and the outputs.
func XlogHelp(j jdk.Release) string {
	var b strings.Builder
	b.WriteString("-Xlog usage: -Xlog[:[selections][:[output][:[decorators][:output-options]]]]\n")
	b.WriteString("  selections: tag1[+tag2...][*][=level][,...], or all\n")
	b.WriteString("  levels: off, " + strings.Join(logLevels, ", ") + "\n  decorators:")
	for i, d := range logDecorators {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s (%s)", d[0], d[1])
	}
	b.WriteString(", or none\n  outputs: stdout, stderr, file=NAME (options filecount=N, filesize=SIZE")
	if xlogFoldMultilines.At(j) {
		b.WriteString(", foldmultilines=true|false")
	}
	b.WriteString(")\n  tags: " + strings.Join(LogTags(j), ", ") + "\n")
	b.WriteString("jitsim prints the jit tags it models (jit+compilation); the others are checked and silent.\n")
	return b.String()
}

// LogTagSets returns the tag sets profile j registers ("gc+heap+exit"), sorted (the recorded
// release's list; nil for 8 and 8u, which have no unified logging).
func LogTagSets(j jdk.Release) []string {
	for _, r := range recordedLogTagSets {
		if r.releases.Has(j) {
			return r.sets
		}
	}
	if j.Modern() {
		return recordedLogTagSets[0].sets
	}
	return nil
}

// maxTagSetSuggestions is how many tag sets java's "Did you mean any of the following?" names
// at most, and tagSetSimilarity the least similarity a suggestion needs.
const (
	maxTagSetSuggestions = 5
	tagSetSimilarity     = 0.3
)

// LogTagSetOrder returns the tag sets of profile j in the order the JVM walks them (the
// recorded release's list; nil for 8 and 8u).
func LogTagSetOrder(j jdk.Release) []string {
	for _, r := range recordedLogTagSetOrder {
		if r.releases.Has(j) {
			return r.sets
		}
	}
	if j.Modern() {
		return recordedLogTagSetOrder[0].sets
	}
	return nil
}

// tagSetSuggestion is one selection "No tag set matches" may suggest: its tags, whether it has
// the wildcard, and how many tag sets it selects.
type tagSetSuggestion struct {
	tags     []string
	wildcard bool
	selects  int
}

func (t tagSetSuggestion) String() string {
	s := strings.Join(t.tags, "+")
	if t.wildcard {
		s += "*"
	}
	return s
}

// tagSetCandidates returns each tag set of profile j, in the JVM's order, as the selection
// "No tag set matches" considers: with the wildcard when that takes another tag set too, and
// how many it takes. Worked out once per release: a command line may hold many selections.
func tagSetCandidates(j jdk.Release) []tagSetSuggestion {
	tagSetCandidatesOnce.Do(func() {
		tagSetCandidatesByOrder = map[*string][]tagSetSuggestion{}
		for _, r := range recordedLogTagSetOrder {
			var cands []tagSetSuggestion
			for _, set := range r.sets {
				c := tagSetSuggestion{tags: strings.Split(set, "+"), wildcard: true}
				if c.selects = selectsTagSets(r.sets, c.tags, true); c.selects == 1 {
					c.wildcard = false
				}
				cands = append(cands, c)
			}
			tagSetCandidatesByOrder[&r.sets[0]] = cands
		}
	})
	sets := LogTagSetOrder(j)
	if len(sets) == 0 {
		return nil
	}
	return tagSetCandidatesByOrder[&sets[0]]
}

var (
	tagSetCandidatesOnce    sync.Once
	tagSetCandidatesByOrder map[*string][]tagSetSuggestion
)

// tagSimilarity is the Sørensen–Dice coefficient of two tag lists: twice the tags they share
// over the tags of both.
func tagSimilarity(a, b []string) float64 {
	shared := 0
	for _, t := range a {
		if slices.Contains(b, t) {
			shared++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}

// selectsTagSets counts the tag sets a selection takes: those with exactly its tags, or with
// the wildcard every one holding them all, in any order.
func selectsTagSets(sets []string, tags []string, wildcard bool) int {
	n := 0
	for _, set := range sets {
		st := strings.Split(set, "+")
		if !slices.ContainsFunc(tags, func(t string) bool { return !slices.Contains(st, t) }) && (wildcard || len(st) == len(tags)) {
			n++
		}
	}
	return n
}

// noTagSetMatches returns java's warning for a selection that no tag set of the release
// matches (exactly, or as a subset with the wildcard), "" when one does, with java's
// suggestions (observed on 17.0.15 and 25.0.3, 39 mistyped selections each, all matched):
// first the selection itself with the wildcard, when that takes a tag set; then, walking the
// tag sets in the JVM's order, each one as a selection (with the wildcard when that takes
// more than the set itself) whose similarity to the selection (tagSimilarity) reaches
// tagSetSimilarity, the first five kept, a later one taking the place of the first of the
// least similar when it is more similar; the five then sorted by sortTagSuggestions.
func (p *parser) noTagSetMatches(sel LogSelection) string {
	sets := LogTagSetOrder(p.o.JDK)
	if sel.All || len(sets) == 0 || selectsTagSets(sets, sel.Tags, sel.Wildcard) > 0 {
		return ""
	}
	var sug []tagSetSuggestion
	if !sel.Wildcard {
		if n := selectsTagSets(sets, sel.Tags, true); n > 0 {
			sug = append(sug, tagSetSuggestion{sel.Tags, true, n})
		}
	}
	for _, c := range tagSetCandidates(p.o.JDK) {
		score := tagSimilarity(sel.Tags, c.tags)
		switch {
		case score < tagSetSimilarity:
		case len(sug) < maxTagSetSuggestions:
			sug = append(sug, c)
		default:
			least, at := 1.0, -1
			for i, s := range sug {
				if v := tagSimilarity(sel.Tags, s.tags); v < least {
					least, at = v, i
				}
			}
			if score > least {
				sug[at] = c
			}
		}
	}
	sortTagSuggestions(sug, func(a, b tagSetSuggestion) int {
		// More similar first, then fewer tags, then more tag sets selected.
		if d := tagSimilarity(sel.Tags, b.tags) - tagSimilarity(sel.Tags, a.tags); math.Abs(d) > 1e-6 {
			if d > 0 {
				return 1
			}
			return -1
		}
		if d := len(a.tags) - len(b.tags); d != 0 {
			return d
		}
		return b.selects - a.selects
	})
	name := strings.Join(sel.Tags, "+")
	if sel.Wildcard {
		name += "*"
	}
	msg := "No tag set matches selection: " + name + "."
	if len(sug) > 0 {
		names := make([]string, len(sug))
		for i, s := range sug {
			names[i] = s.String()
		}
		msg += " Did you mean any of the following? " + strings.Join(names, " ")
	}
	return msg
}

// sortTagSuggestions sorts as HotSpot's own quicksort does, which decides the order of equal
// suggestions: the first, middle and last elements put in order (the middle one the pivot;
// that alone sorts three), the rest partitioned by moving inward from both ends and
// exchanging each pair that sits on the wrong side (equal elements included), then each side
// sorted the same way.
func sortTagSuggestions(a []tagSetSuggestion, cmp func(x, y tagSetSuggestion) int) {
	if len(a) < 2 {
		return
	}
	mid, last := len(a)/2, len(a)-1
	if cmp(a[0], a[mid]) > 0 {
		a[0], a[mid] = a[mid], a[0]
	}
	if cmp(a[0], a[last]) > 0 {
		a[0], a[last] = a[last], a[0]
	}
	if cmp(a[mid], a[last]) > 0 {
		a[mid], a[last] = a[last], a[mid]
	}
	if len(a) < 4 {
		return
	}
	pivot := a[mid]
	l, r := 0, last
	for {
		for cmp(a[l], pivot) < 0 {
			l++
		}
		for cmp(a[r], pivot) > 0 {
			r--
		}
		if l >= r {
			break
		}
		a[l], a[r] = a[r], a[l]
		l++
		r--
	}
	sortTagSuggestions(a[:r+1], cmp)
	sortTagSuggestions(a[r+1:], cmp)
}

// expandLogName writes a log file name as java opens it: %p becomes the process id and %t the
// start time ("2026-12-06_15-49-49"), each once, as observed on 17 and 25.
func expandLogName(name string) string {
	name = strings.Replace(name, "%p", strconv.Itoa(os.Getpid()), 1)
	return strings.Replace(name, "%t", time.Now().Format("2006-01-02_15-04-05"), 1)
}
