package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// File is a scenario file (TOML): a scenario with its properties and
// arguments, the JDK profile, CPU model and clock to run it on, the option
// sets to compare, and the numbers a publication reported for each of them.
// See examples/README.md for the format.
type File struct {
	Path string `toml:"-"`

	Title    string         `toml:"title"`
	Source   string         `toml:"source"` // where the published numbers come from
	Notes    string         `toml:"notes"`
	Scenario string         `toml:"scenario"`
	JDK      string         `toml:"jdk"`   // --jdk as written; default "25"
	CPU      string         `toml:"cpu"`   // --cpu; default "host"
	Clock    string         `toml:"clock"` // "wall" (default) or "model"
	Threads  int            `toml:"threads"`
	Args     []string       `toml:"args"`
	Props    map[string]any `toml:"properties"`
	Options  []string       `toml:"options"` // VM options common to every variant
	Compare  []Variant      `toml:"compare"`
	// Ratios are the headline ratios: each compares two variants on one
	// metric, published against jitsim's.
	Ratios []Ratio `toml:"ratio"`

	rel   jdk.Release // JDK, parsed once by check
	lines map[string]int
}

// Ratio is one headline ratio of a scenario file (a [[ratio]] table): the
// metric of variant Num divided by the same metric of variant Den, for the
// published numbers and for jitsim's. For a time (ms, us/op) put the slow
// variant in Num; for a throughput (ops/s) the fast one, so that a speedup
// reads above 1.
type Ratio struct {
	Name   string `toml:"name"`   // e.g. "8073108 encode -GHASH/+GHASH"
	Num    string `toml:"num"`    // a [[compare]] name
	Den    string `toml:"den"`    // a [[compare]] name
	Metric string `toml:"metric"` // a published metric of both variants
	// Published, when not 0, is the published ratio itself, for posts
	// that give only the ratio; Unit then says how to measure Metric.
	Published float64 `toml:"published"`
	Unit      string  `toml:"unit"`
	// Informative ratios are printed but not held to the seeds test's
	// band (e.g. a figure its own author found puzzling).
	Informative bool   `toml:"informative"`
	Note        string `toml:"note"`
}

// Variant is one option set of a File to run and compare.
type Variant struct {
	Name      string         `toml:"name"`
	Options   []string       `toml:"options"` // VM options after the File's
	Props     map[string]any `toml:"properties"`
	Threads   int            `toml:"threads"`
	Args      []string       `toml:"args"`
	Published []Published    `toml:"published"`
}

// Published is one number a publication reported for a variant.
type Published struct {
	Metric string  `toml:"metric"` // e.g. "TestAESEncode runtime", "decrypt 1024 B"
	Value  float64 `toml:"value"`
	Error  float64 `toml:"error"` // ± as published; 0 when none
	Unit   string  `toml:"unit"`  // e.g. "ms", "ops/s", "us/op"
}

// FileError is a problem in a scenario file, located by line when known.
type FileError struct {
	Path string
	Line int // 0 when unknown
	Msg  string
}

// Error returns "path:line: msg".
func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Run is one variant of a File, ready to run: the scenario, the profile,
// the VM options (the File's, then the variant's), the properties (the
// File's, the variant's, then -D options), arguments and threads.
type Run struct {
	Variant  string
	Scenario Scenario
	JDK      jdk.Release
	CPU      cpu.Model
	Clock    string
	Options  []string
	Props    map[string]string
	Args     []string
	Threads  int
	// Published are the numbers to print beside the run's own.
	Published []Published
}

// LoadFile reads and checks a scenario file: TOML syntax, unknown keys,
// the scenario name, JDK profile, CPU model, clock, property names and
// values, and every variant's VM options (parsed with the flags package
// for the file's profile and the CPU's architecture). Every problem is a
// *FileError naming the file and line.
func LoadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scenario file: %w", err)
	}
	return ParseFile(path, data)
}

// ParseFile is LoadFile on data read from path.
func ParseFile(path string, data []byte) (*File, error) {
	f := &File{Path: path}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(f)
	f.lines = keyLines(data)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &FileError{Path: path, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, decodeError(f, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		var errs []error
		for _, k := range und {
			if len(k) > 1 && (k[0] == "properties" || (k[0] == "compare" && len(k) > 2 && k[1] == "properties")) {
				continue // property tables are maps: checked below
			}
			errs = append(errs, &FileError{Path: path, Line: f.line(k.String()), Msg: fmt.Sprintf("unknown key %q", k.String())})
		}
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeErrorRE matches the decoder's own errors: "toml: line N (last key
// "k"): message" or "toml: (last key "k"): message".
var decodeErrorRE = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)

// decodeError turns a decoding error into a FileError with the line.
func decodeError(f *File, err error) error {
	m := decodeErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &FileError{Path: f.Path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	line, _ := strconv.Atoi(m[1])
	if line == 0 {
		line = f.line(m[2])
	}
	return &FileError{Path: f.Path, Line: line, Msg: fmt.Sprintf("%s: %s", m[2], m[3])}
}

// line returns the line of a dotted key path ("compare.1.options" or
// "compare.options"), or of its nearest enclosing key that has one (keys
// inside inline tables); 0 when unknown.
func (f *File) line(key string) int {
	for key != "" {
		if n, ok := f.lines[key]; ok {
			return n
		}
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			break
		}
		key = key[:i]
	}
	return 0
}

// fail returns a FileError at key's line.
func (f *File) fail(key, format string, a ...any) error {
	return &FileError{Path: f.Path, Line: f.line(key), Msg: fmt.Sprintf(format, a...)}
}

// check validates the decoded file.
func (f *File) check() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	s, ok := Lookup(f.Scenario)
	switch {
	case f.Scenario == "":
		add(f.fail("scenario", "no scenario named (scenario = \"TestAESMain\", …)"))
	case !ok:
		var names []string
		for _, s := range List() {
			names = append(names, s.Name)
		}
		add(f.fail("scenario", "unknown scenario %q (want one of %s)", f.Scenario, strings.Join(names, ", ")))
	}
	if f.JDK == "" {
		f.JDK = jdk.Default.String()
	}
	rel, jdkErr := jdk.Parse(f.JDK)
	if jdkErr != nil {
		add(f.fail("jdk", "%v", jdkErr))
	}
	f.rel = rel
	if f.CPU == "" {
		f.CPU = "host"
	}
	model, cpuErr := cpu.Lookup(f.CPU)
	if cpuErr != nil {
		add(f.fail("cpu", "%v", cpuErr))
	}
	switch f.Clock {
	case "":
		f.Clock = ClockWall
	case ClockWall, ClockModel:
	default:
		add(f.fail("clock", "unknown clock %q (want %q or %q)", f.Clock, ClockWall, ClockModel))
	}
	if f.Threads < 0 {
		add(f.fail("threads", "threads = %d must not be negative", f.Threads))
	}
	if ok {
		add(f.checkProps(s, "properties", f.Props))
	}
	if len(f.Compare) == 0 {
		f.Compare = []Variant{{Name: "default"}}
	}
	seen := map[string]bool{}
	for i, v := range f.Compare {
		at := fmt.Sprintf("compare.%d", i)
		switch {
		case v.Name == "":
			add(f.fail(at, "[[compare]] number %d has no name", i+1))
		case seen[v.Name]:
			add(f.fail(at+".name", "two [[compare]] entries are named %q", v.Name))
		}
		seen[v.Name] = true
		if v.Threads < 0 {
			add(f.fail(at+".threads", "threads = %d must not be negative", v.Threads))
		}
		if ok {
			add(f.checkProps(s, at+".properties", v.Props))
		}
		for j, p := range v.Published {
			if p.Metric == "" || p.Unit == "" || math.IsNaN(p.Value) {
				add(f.fail(fmt.Sprintf("%s.published.%d", at, j), "a published number needs metric, value and unit"))
			}
		}
		if jdkErr == nil && cpuErr == nil { // options are checked only when the profile and CPU are known
			add(f.checkOptions(at, rel, model, slices.Concat(f.Options, v.Options)))
		}
	}
	add(f.checkRatios())
	return errors.Join(errs...)
}

// checkRatios checks every [[ratio]]: a unique name, two [[compare]] names,
// a metric that both publish (or a published ratio with its unit), and a
// metric jitsim knows how to measure (metricRules).
func (f *File) checkRatios() error {
	var errs []error
	seen := map[string]bool{}
	for i, r := range f.Ratios {
		at := fmt.Sprintf("ratio.%d", i)
		fail := func(key, format string, a ...any) { errs = append(errs, f.fail(at+key, format, a...)) }
		switch {
		case r.Name == "":
			fail("", "[[ratio]] number %d has no name", i+1)
		case seen[r.Name]:
			fail(".name", "two [[ratio]] entries are named %q", r.Name)
		}
		seen[r.Name] = true
		if r.Metric == "" {
			fail("", "[[ratio]] %q has no metric", r.Name)
			continue
		}
		if r.Published < 0 || math.IsNaN(r.Published) || math.IsInf(r.Published, 0) {
			fail(".published", "[[ratio]] %q: published ratio %v is not a positive number", r.Name, r.Published)
		}
		unit := r.Unit
		for _, side := range []struct{ key, name string }{{".num", r.Num}, {".den", r.Den}} {
			v, ok := f.variant(side.name)
			if !ok {
				fail(side.key, "[[ratio]] %q: %q is not the name of a [[compare]] entry", r.Name, side.name)
				continue
			}
			p, ok := v.published(r.Metric)
			switch {
			case !ok && r.Published == 0:
				fail(side.key, "[[ratio]] %q: variant %q publishes no %q (give the ratio itself as published = …, with unit)", r.Name, side.name, r.Metric)
			case ok && p.Value <= 0:
				fail(side.key, "[[ratio]] %q: variant %q publishes %q = %v, which cannot be divided by", r.Name, side.name, r.Metric, p.Value)
			case ok && unit == "":
				unit = p.Unit
			case ok && unit != p.Unit:
				fail(side.key, "[[ratio]] %q: %q is in %s for one variant and %s for the other", r.Name, r.Metric, unit, p.Unit)
			}
		}
		if unit == "" {
			continue // reported above
		}
		if _, ok := lookupMetricRule(r.Metric, unit); !ok {
			fail(".metric", "[[ratio]] %q: jitsim cannot measure %q in %s (it measures %s)", r.Name, r.Metric, unit, metricRuleNames())
		}
	}
	return errors.Join(errs...)
}

// variant returns the [[compare]] entry named name.
func (f *File) variant(name string) (Variant, bool) {
	for _, v := range f.Compare {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// published returns the variant's published number for metric.
func (v Variant) published(metric string) (Published, bool) {
	for _, p := range v.Published {
		if p.Metric == metric {
			return p, true
		}
	}
	return Published{}, false
}

// checkProps checks property names against the scenario's and turns the
// TOML values (strings, integers, booleans, floats) into the strings a
// -D option would give.
func (f *File) checkProps(s Scenario, at string, props map[string]any) error {
	var errs []error
	for k, v := range props {
		key := at + "." + k
		if _, ok := s.Prop(k); !ok {
			var names []string
			for _, p := range s.Props {
				names = append(names, p.Name)
			}
			errs = append(errs, f.fail(key, "unknown property %q of %s (it reads %s)", k, s.Name, strings.Join(names, ", ")))
			continue
		}
		switch x := v.(type) {
		case string:
		case int64:
			props[k] = strconv.FormatInt(x, 10)
		case bool:
			props[k] = strconv.FormatBool(x)
		case float64:
			props[k] = strconv.FormatFloat(x, 'f', -1, 64)
		default:
			errs = append(errs, f.fail(key, "property %s: want a string, number or boolean, not %T", k, v))
		}
	}
	return errors.Join(errs...)
}

// checkOptions parses a variant's VM options with the flags package.
func (f *File) checkOptions(at string, rel jdk.Release, model cpu.Model, opts []string) error {
	if !model.Arch.Valid() {
		return f.fail("cpu", "CPU model %s: jitsim models no flags for architecture %v", model.Name, model.Arch)
	}
	dir := filepath.Dir(f.Path)
	_, _, err := flags.Parse(flags.Options{JDK: rel, Arch: model.Arch, Args: opts,
		ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return os.ReadFile(name)
		}})
	if err != nil {
		key := at + ".options"
		if f.line(key) == 0 {
			key = "options"
		}
		return f.fail(key, "VM options %q for --jdk=%s: %v", opts, rel, err)
	}
	return nil
}

// Runs returns the File's variants ready to run, in file order.
func (f *File) Runs() []Run {
	s, _ := Lookup(f.Scenario)
	model, _ := cpu.Lookup(f.CPU)
	out := make([]Run, 0, len(f.Compare))
	for _, v := range f.Compare {
		r := Run{Variant: v.Name, Scenario: s, JDK: f.rel, CPU: model, Clock: f.Clock,
			Options: slices.Concat(f.Options, v.Options), Props: map[string]string{},
			Args: f.Args, Threads: f.Threads, Published: v.Published}
		for _, m := range []map[string]any{f.Props, v.Props} {
			for k, x := range m {
				r.Props[k] = fmt.Sprint(x)
			}
		}
		for _, o := range r.Options {
			if name, val, ok := strings.Cut(strings.TrimPrefix(o, "-D"), "="); ok && strings.HasPrefix(o, "-D") {
				r.Props[name] = val
			}
		}
		if v.Args != nil {
			r.Args = v.Args
		}
		if v.Threads > 0 {
			r.Threads = v.Threads
		}
		out = append(out, r)
	}
	return out
}

// keyLines maps the dotted key paths of a TOML document to the line they
// are defined on: both "compare.1.name" (array-of-tables index) and
// "compare.name" (the first such key), and table headers ("compare.1").
// It reads only what scenario files use (tables, arrays of tables, bare
// or quoted keys, single- and multi-line arrays).
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	record := func(k string, n int) {
		if _, ok := lines[k]; !ok {
			lines[k] = n
		}
	}
	count := map[string]int{} // indexed array-of-tables path → elements so far
	isArray := map[string]bool{}
	var cur, curPlain string
	// resolve turns a header name into its indexed path.
	resolve := func(name string) (string, string) {
		var idx []string
		segs := strings.Split(name, ".")
		for i, s := range segs {
			idx = append(idx, strings.Trim(strings.TrimSpace(s), `"'`))
			p := strings.Join(idx, ".")
			if isArray[p] && i < len(segs)-1 {
				idx = append(idx, strconv.Itoa(count[p]-1))
			}
		}
		return strings.Join(idx, "."), name
	}
	depth := 0
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		line := strings.TrimSpace(stripComment(raw))
		if depth > 0 {
			depth += strings.Count(line, "[") - strings.Count(line, "]")
			continue
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "[["):
			name := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "[["), "]]"))
			p, plain := resolve(name)
			isArray[p] = true
			count[p]++
			cur, curPlain = p+"."+strconv.Itoa(count[p]-1), plain
			record(cur, n)
			record(curPlain, n)
		case strings.HasPrefix(line, "["):
			name := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"))
			cur, curPlain = resolve(name)
			record(cur, n)
			record(curPlain, n)
		default:
			k, rest, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			k = strings.Trim(strings.TrimSpace(k), `"'`)
			for _, p := range []string{cur, curPlain} {
				if p == "" {
					record(k, n)
				} else {
					record(p+"."+k, n)
				}
			}
			depth = strings.Count(rest, "[") - strings.Count(rest, "]")
			if depth < 0 {
				depth = 0
			}
		}
	}
	return lines
}

// stripComment drops a # comment that is not inside a string.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return s[:i]
		}
	}
	return s
}
