//go:build ignore

// gen_recorded writes table_recorded.go, the flag rows of the recorded JVMs, from the raw
// recordings in testdata/jvmflags (jdk-VERSION.{final,initial,ranges}.txt, written by
// testdata/jvmflags/record.sh). It reads nothing else and needs no JVM: go generate runs it,
// and CI checks that its output is the committed file.
//
// One row per flag name, over every recorded release: type, kind and decorations from
// PrintFlagsFinal; the default from PrintFlagsInitial for the flags it prints (product and
// manageable), else the value PrintFlagsFinal printed with no other option; the range from
// PrintFlagsRanges; from the runs that set one flag each, the release that deprecated it
// and the flag it needs. A fact that differs between releases becomes a perJDK change at the newer
// release.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// releases maps a Java feature number to the jdk package's constant for it: the JDK 9+
// profiles (8 and 8u share a feature number and were never recorded).
var releases = func() map[int]string {
	m := map[int]string{}
	for _, r := range jdk.All() {
		if r.Modern() {
			m[r.Feature()] = "jdk.R" + r.String()
		}
	}
	return m
}()

var (
	finalRow   = regexp.MustCompile(`^ *(\S+) (\S+) +=(?: (.*?))? +\{([^}]*)\} \{([^}]*)\}$`)
	rangeRow   = regexp.MustCompile(`^ *(\S+) (\S+) +\[ (\S*) +\.\.\. +(\S*) \] +\{([^}]*)\} \{([^}]*)\}$`)
	fileName   = regexp.MustCompile(`^jdk-(\d+)(?:\.[0-9.]+)?\.(final|initial|ranges|intrinsics|set|xlog-help|tagsets|modules|special|range|version|flagtable|descriptors|boot-layer|tagset-order)\.txt$`)
	requires   = regexp.MustCompile(`^\| Improperly specified VM option '(\w+)': '(\w+)' must be enabled$`)
	vmBuild    = regexp.MustCompile(`Server VM.*\(build ([^,]+),`)
	deprecated = regexp.MustCompile(`^\| OpenJDK 64-Bit Server VM warning: Option (\w+) was deprecated in version (\S+) and will likely be removed in a future release\.$`)
	obsolete   = regexp.MustCompile(`^OpenJDK 64-Bit Server VM warning: Ignoring option (\w+); support was removed in (\S+)$`)
	alias      = regexp.MustCompile(`^OpenJDK 64-Bit Server VM warning: Option (\w+) was deprecated in version (\S+) and will likely be removed in a future release\. Use option (\w+) instead\.$`)
)

// fact is one flag in one release.
type fact struct {
	typ, kind, decor, def string
	deprecated, requires  string
	lateRange             bool   // its range is checked after every option is parsed
	lo, hi                string // range bounds as printed; both "" for no range
	hasRange              bool
}

type recording struct {
	feature    int
	version    string
	flags      map[string]*fact
	intrinsics []string // sorted
	logTags    []string // as -Xlog:help lists them (sorted)
	logTagSets []string // the registered tag sets, "gc+heap+exit" (jdk-*.tagsets.txt, sorted)
	// logTagSetOrder are the same tag sets in the order the JVM walks them
	// (jdk-*.tagset-order.txt).
	logTagSetOrder []string
	modules        []string // as java --list-modules lists them, without versions (sorted)
	// packages are the system modules' packages, "module/package" (sorted), and requires
	// their run-time dependences, "module dependence" (static ones aside, sorted), from
	// jdk-VERSION.descriptors.txt; bootLayer the modules the default boot layer resolves
	// (jdk-VERSION.boot-layer.txt, sorted).
	packages, requires, bootLayer []string
	// descriptors are the blocks of jdk-VERSION.descriptors.txt, one per module in
	// --list-modules' order, each as java --describe-module printed it.
	descriptors []string
	// flagTable is the VM's flag table in its own order, a line per flag as
	// jdk-VERSION.flagtable.txt has it ("NAME bool", "NAME value develop").
	flagTable []string
	build     string // the VM's build in its -version banner ("17.0.15+6-Debian-1deb12u1")
	// special: the obsolete flags (name → the release that removed them) and the deprecated
	// aliases (name → [the flag they stand for, the release that deprecated them]), from
	// jdk-VERSION.special.txt.
	obsolete map[string]string
	aliases  map[string][2]string
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen_recorded:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := filepath.Join("testdata", "jvmflags")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	files := map[int]map[string]string{} // feature → what → file name
	versions := map[int]string{}
	for _, e := range entries {
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		feature, _ := strconv.Atoi(m[1])
		if _, ok := releases[feature]; !ok {
			return fmt.Errorf("%s: no jdk release for Java %d", e.Name(), feature)
		}
		v := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "jdk-"), "."+m[2]+".txt")
		if old, ok := versions[feature]; ok && old != v {
			return fmt.Errorf("two recordings of Java %d (%s and %s): keep one", feature, old, v)
		}
		versions[feature] = v
		if files[feature] == nil {
			files[feature] = map[string]string{}
		}
		files[feature][m[2]] = filepath.Join(dir, e.Name())
	}
	var recs []*recording
	for feature := range files {
		r, err := load(feature, versions[feature], files[feature])
		if err != nil {
			return err
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, k int) bool { return recs[i].feature < recs[k].feature })
	if len(recs) == 0 {
		return fmt.Errorf("no recordings in %s", dir)
	}
	src, err := generate(recs)
	if err != nil {
		return err
	}
	return os.WriteFile("table_recorded.go", src, 0o644)
}

func readLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "[Global flags") {
		return nil, fmt.Errorf("%s: no [Global flags] header", path)
	}
	return lines[1:], nil
}

func load(feature int, version string, files map[string]string) (*recording, error) {
	for _, what := range []string{"final", "initial", "ranges", "intrinsics", "set", "xlog-help", "tagsets", "modules", "special", "range", "flagtable", "descriptors", "boot-layer", "tagset-order"} {
		if files[what] == "" {
			return nil, fmt.Errorf("Java %d: the %s recording is missing", feature, what)
		}
	}
	r := &recording{feature: feature, version: version, flags: map[string]*fact{},
		obsolete: map[string]string{}, aliases: map[string][2]string{}}
	data, err := os.ReadFile(files["intrinsics"])
	if err != nil {
		return nil, err
	}
	r.intrinsics = strings.Fields(string(data))
	sort.Strings(r.intrinsics)
	if data, err = os.ReadFile(files["xlog-help"]); err != nil {
		return nil, err
	}
	// The line after "Available log tags:" lists the tags, comma-separated.
	_, after, ok := strings.Cut(string(data), "Available log tags:\n")
	if !ok {
		return nil, fmt.Errorf("%s: no \"Available log tags:\" line", files["xlog-help"])
	}
	tagLine, _, _ := strings.Cut(after, "\n")
	for _, t := range strings.Split(tagLine, ",") {
		r.logTags = append(r.logTags, strings.TrimSpace(t))
	}
	sort.Strings(r.logTags)
	if data, err = os.ReadFile(files["tagsets"]); err != nil {
		return nil, err
	}
	r.logTagSets = strings.Fields(string(data))
	sort.Strings(r.logTagSets)
	if data, err = os.ReadFile(files["tagset-order"]); err != nil {
		return nil, err
	}
	r.logTagSetOrder = strings.Fields(string(data))
	if !slices.Equal(slices.Sorted(slices.Values(r.logTagSetOrder)), r.logTagSets) {
		return nil, fmt.Errorf("%s: not the tag sets of %s", files["tagset-order"], files["tagsets"])
	}
	if data, err = os.ReadFile(files["flagtable"]); err != nil {
		return nil, err
	}
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if f := strings.Fields(l); len(f) < 2 || len(f) > 3 || f[1] != "bool" && f[1] != "value" ||
			len(f) == 3 && f[2] != "develop" && f[2] != "notproduct" {
			return nil, fmt.Errorf("%s: cannot read %q", files["flagtable"], l)
		}
		r.flagTable = append(r.flagTable, l)
	}
	if data, err = os.ReadFile(files["version"]); err != nil {
		return nil, err
	}
	m := vmBuild.FindStringSubmatch(string(data))
	if m == nil {
		return nil, fmt.Errorf("%s: no \"Server VM ... (build B, ...)\" line", files["version"])
	}
	r.build = m[1]
	if data, err = os.ReadFile(files["modules"]); err != nil {
		return nil, err
	}
	for _, l := range strings.Fields(string(data)) {
		name, _, _ := strings.Cut(l, "@")
		r.modules = append(r.modules, name)
	}
	sort.Strings(r.modules)
	if err := r.loadDescriptors(files["descriptors"]); err != nil {
		return nil, err
	}
	if data, err = os.ReadFile(files["boot-layer"]); err != nil {
		return nil, err
	}
	r.bootLayer = strings.Fields(string(data))
	sort.Strings(r.bootLayer)
	lines, err := readLines(files["final"])
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		m := finalRow.FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("%s: cannot read %q", files["final"], l)
		}
		kind, decor, err := splitKind(m[4])
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", files["final"], m[2], err)
		}
		def := m[3]
		if m[5] == "command line" {
			// The recorder set the two unlock options (diagnostic and experimental, so not in
			// PrintFlagsInitial) and one product PrintFlags option; all default to false.
			if m[1] != "bool" || def != "true" {
				return nil, fmt.Errorf("%s: %s was set on the command line", files["final"], m[2])
			}
			def = "false"
		}
		r.flags[m[2]] = &fact{typ: m[1], kind: kind, decor: decor, def: def}
	}
	// The runs that set one flag each: a deprecation warning naming the flag marks it.
	data, err = os.ReadFile(files["set"])
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if m := deprecated.FindStringSubmatch(l); m != nil {
			f := r.flags[m[1]]
			if f == nil {
				return nil, fmt.Errorf("%s: deprecation of an unknown flag %s", files["set"], m[1])
			}
			f.deprecated = m[2]
		}
		if m := requires.FindStringSubmatch(l); m != nil {
			f := r.flags[m[1]]
			if f == nil || r.flags[m[2]] == nil {
				return nil, fmt.Errorf("%s: %s needs %s, one is unknown", files["set"], m[1], m[2])
			}
			f.requires = m[2]
		}
	}
	// The special flags: every line is an obsolete flag's or a deprecated alias's warning.
	if data, err = os.ReadFile(files["special"]); err != nil {
		return nil, err
	}
	for i, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		switch m, a := obsolete.FindStringSubmatch(l), alias.FindStringSubmatch(l); {
		case l == "":
		case m != nil:
			r.obsolete[m[1]] = m[2]
		case a != nil:
			if r.flags[a[3]] == nil {
				return nil, fmt.Errorf("%s:%d: alias %s of an unknown flag %s", files["special"], i+1, a[1], a[3])
			}
			r.aliases[a[1]] = [2]string{a[3], a[2]}
		default:
			return nil, fmt.Errorf("%s:%d: cannot read %q", files["special"], i+1, l)
		}
	}
	// The runs that set one flag each just outside its range: the range line without
	// "Improperly specified VM option" marks a range checked after parsing.
	if data, err = os.ReadFile(files["range"]); err != nil {
		return nil, err
	}
	for _, block := range regexp.MustCompile(`(?m)^-XX:`).Split(string(data), -1)[1:] {
		name, _, _ := strings.Cut(block, "=")
		if strings.Contains(block, "is outside the allowed range") && !strings.Contains(block, "Improperly specified VM option") {
			f := r.flags[name]
			if f == nil {
				return nil, fmt.Errorf("%s: range of an unknown flag %s", files["range"], name)
			}
			f.lateRange = true
		}
	}
	if lines, err = readLines(files["initial"]); err != nil {
		return nil, err
	}
	for _, l := range lines {
		m := finalRow.FindStringSubmatch(l)
		if m == nil || r.flags[m[2]] == nil {
			return nil, fmt.Errorf("%s: cannot read %q", files["initial"], l)
		}
		r.flags[m[2]].def = m[3]
	}
	if lines, err = readLines(files["ranges"]); err != nil {
		return nil, err
	}
	for _, l := range lines {
		m := rangeRow.FindStringSubmatch(l)
		if m == nil || r.flags[m[2]] == nil {
			return nil, fmt.Errorf("%s: cannot read %q", files["ranges"], l)
		}
		f := r.flags[m[2]]
		f.hasRange = m[3] != "" || m[4] != ""
		f.lo, f.hi = m[3], m[4]
	}
	return r, nil
}

// splitKind splits a printed kind ("C2 pd product", "product lp64_product", "JVMCI
// experimental") into the kind constant and the decorations.
func splitKind(s string) (kind, decor string, err error) {
	var dec []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "product", "diagnostic", "experimental", "manageable":
			if kind != "" {
				return "", "", fmt.Errorf("two kinds in %q", s)
			}
			kind = strings.ToUpper(w[:1]) + w[1:]
		default:
			dec = append(dec, w)
		}
	}
	if kind == "" {
		return "", "", fmt.Errorf("no kind in %q", s)
	}
	return kind, strings.Join(dec, " "), nil
}

var typeConst = map[string]string{"bool": "Bool", "int": "Int", "intx": "Intx", "uintx": "Uintx", "double": "Double",
	"ccstr": "Ccstr", "ccstrlist": "Ccstrlist", "uint": "Uint", "uint64_t": "Uint64", "size_t": "SizeT"}

// rangeLit writes the Range literal of a fact.
func rangeLit(f *fact) (string, error) {
	if !f.hasRange {
		return "nil", nil
	}
	switch f.typ {
	case "int", "intx":
		lo, err1 := strconv.ParseInt(f.lo, 10, 64)
		hi, err2 := strconv.ParseInt(f.hi, 10, 64)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("range [%s, %s]", f.lo, f.hi)
		}
		return fmt.Sprintf("&Range{Min: %d, Max: %d}", lo, hi), nil
	case "uint", "uintx", "uint64_t", "size_t":
		lo, err1 := strconv.ParseUint(f.lo, 10, 64)
		hi, err2 := strconv.ParseUint(f.hi, 10, 64)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("range [%s, %s]", f.lo, f.hi)
		}
		return fmt.Sprintf("&Range{UMin: %d, UMax: %d}", lo, hi), nil
	case "double":
		lo, err1 := strconv.ParseFloat(f.lo, 64)
		hi, err2 := strconv.ParseFloat(f.hi, 64)
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("range [%s, %s]", f.lo, f.hi)
		}
		return fmt.Sprintf("&Range{FMin: %s, FMax: %s}", strconv.FormatFloat(lo, 'g', -1, 64), strconv.FormatFloat(hi, 'g', -1, 64)), nil
	}
	return "", fmt.Errorf("a range on a %s flag", f.typ)
}

// perJDK writes a perJDK literal for the values of one attribute over the releases that have
// the flag (oldest first), omitting it when every value is zero.
func perJDK(typ string, rels []string, vals []string, zero string) (string, error) {
	lit := "perJDK[" + typ + "]{Before: " + vals[0]
	changes := 0
	for i := 1; i < len(vals); i++ {
		if vals[i] == vals[i-1] {
			continue
		}
		changes++
		switch changes {
		case 1:
			lit += ", From: " + rels[i] + ", After: " + vals[i]
		case 2:
			lit += ", From2: " + rels[i] + ", After2: " + vals[i]
		default:
			return "", fmt.Errorf("more than three values: %v", vals)
		}
	}
	if changes == 0 && vals[0] == zero {
		return "", nil
	}
	return lit + "}", nil
}

func generate(recs []*recording) ([]byte, error) {
	names := map[string]bool{}
	for _, r := range recs {
		for n := range r.flags {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)

	var b bytes.Buffer
	b.WriteString("// Code generated by gen_recorded.go from testdata/jvmflags; DO NOT EDIT.\n\npackage flags\n\n")
	b.WriteString("import \"github.com/jitsim/jitsim/jdk\"\n\n")
	var from []string
	for _, r := range recs {
		from = append(from, "Java "+r.version)
	}
	b.WriteString("// The recorded releases, as constants so that the table below is static data.\nconst (\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "\trec%d = jdk.Set(1) << %s\n", r.feature, releases[r.feature])
	}
	b.WriteString(")\n\n")
	b.WriteString("// recordedTable holds every flag that PrintFlagsFinal printed on the recorded JVMs\n")
	fmt.Fprintf(&b, "// (testdata/jvmflags: %s), run on x86_64 with both unlock options. Rows\n", strings.Join(from, ", "))
	b.WriteString("// that a hand row of table.go also covers are dropped when the table is built (the hand\n")
	b.WriteString("// row wins; a test checks that they agree).\n")
	b.WriteString("var recordedTable = [...]Flag{\n")
	for _, n := range sorted {
		var rels, sets, types, kinds, decors, defs, ranges, deps, reqs, lates []string
		amd64 := false
		for _, r := range recs {
			f := r.flags[n]
			if f == nil {
				continue
			}
			rels = append(rels, releases[r.feature])
			sets = append(sets, fmt.Sprintf("rec%d", r.feature))
			tc, ok := typeConst[f.typ]
			if !ok {
				return nil, fmt.Errorf("%s: unknown type %s", n, f.typ)
			}
			types = append(types, tc)
			kinds = append(kinds, f.kind)
			decors = append(decors, strconv.Quote(f.decor))
			defs = append(defs, strconv.Quote(f.def))
			deps = append(deps, strconv.Quote(f.deprecated))
			reqs = append(reqs, strconv.Quote(f.requires))
			lates = append(lates, strconv.FormatBool(f.lateRange))
			rl, err := rangeLit(f)
			if err != nil {
				return nil, fmt.Errorf("%s in Java %d: %v", n, r.feature, err)
			}
			ranges = append(ranges, rl)
			amd64 = amd64 || strings.Contains(f.decor, "ARCH")
		}
		fields := []string{"Name: " + strconv.Quote(n), "Releases: " + strings.Join(sets, " | ")}
		if amd64 {
			fields = append(fields, "AMD64Only: true")
		}
		for _, a := range []struct {
			field, typ string
			vals       []string
			zero       string
		}{
			{"Type", "Type", types, "Bool"},
			{"Kind", "Kind", kinds, "Product"},
			{"Decor", "string", decors, `""`},
			{"Default", "string", defs, `""`},
			{"Range", "*Range", ranges, "nil"},
			{"Deprecated", "string", deps, `""`},
			{"Requires", "string", reqs, `""`},
			{"LateRange", "bool", lates, "false"},
		} {
			lit, err := perJDK(a.typ, rels, a.vals, a.zero)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %v", n, a.field, err)
			}
			if lit != "" {
				fields = append(fields, a.field+": "+lit)
			}
		}
		fields = append(fields, "NotModelled: true")
		b.WriteString("\t{" + strings.Join(fields, ", ") + "},\n")
	}
	b.WriteString("}\n\n")
	writeNameLists(&b, recs, "recordedIntrinsics", "names",
		"the intrinsic names the JVM accepts in\n// ControlIntrinsic and DisableIntrinsic (testdata/jvmflags/jdk-*.intrinsics.txt), sorted.",
		func(r *recording) []string { return r.intrinsics })
	writeNameLists(&b, recs, "recordedLogTagSets", "sets",
		"the unified-logging tag sets the JVM\n// registers (testdata/jvmflags/jdk-*.tagsets.txt), sorted.",
		func(r *recording) []string { return r.logTagSets })
	writeNameLists(&b, recs, "recordedLogTagSetOrder", "sets",
		"the same tag sets in the order the JVM\n// walks them (testdata/jvmflags/jdk-*.tagset-order.txt).",
		func(r *recording) []string { return r.logTagSetOrder })
	writeNameLists(&b, recs, "recordedFlagTable", "flags",
		"the VM's flag table in its own order\n// (testdata/jvmflags/jdk-*.flagtable.txt): \"NAME bool\" or \"NAME value\", then \"develop\" or\n// \"notproduct\" for a flag only a debug build takes.",
		func(r *recording) []string { return r.flagTable })
	writeNameLists(&b, recs, "recordedLogTags", "tags",
		"the unified-logging tags -Xlog:help names\n// (testdata/jvmflags/jdk-*.xlog-help.txt), sorted.",
		func(r *recording) []string { return r.logTags })
	// The special flags: one row per name and fact, with the releases that share it.
	type special struct{ name, a, b string }
	obs, als := map[special][]string{}, map[special][]string{}
	for _, r := range recs {
		for n, v := range r.obsolete {
			k := special{n, v, ""}
			obs[k] = append(obs[k], fmt.Sprintf("rec%d", r.feature))
		}
		for n, v := range r.aliases {
			k := special{n, v[0], v[1]}
			als[k] = append(als[k], fmt.Sprintf("rec%d", r.feature))
		}
	}
	for _, t := range []struct {
		comment, decl string
		rows          map[special][]string
	}{
		{"// recordedObsolete lists the obsolete flags of the recorded releases: java accepts them with\n" +
			"// \"Ignoring option NAME; support was removed in REMOVED\" (testdata/jvmflags/jdk-*.special.txt).\n",
			"var recordedObsolete = [...]struct {\n\treleases      jdk.Set\n\tname, removed string\n}{\n", obs},
		{"// recordedAliases lists the deprecated aliases of the recorded releases: java warns that NAME\n" +
			"// was deprecated in DEPRECATED and sets FLAG instead (testdata/jvmflags/jdk-*.special.txt).\n",
			"var recordedAliases = [...]struct {\n\treleases               jdk.Set\n\tname, flag, deprecated string\n}{\n", als},
	} {
		keys := make([]special, 0, len(t.rows))
		for k := range t.rows {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, k int) bool {
			if keys[i].name != keys[k].name {
				return keys[i].name < keys[k].name
			}
			return keys[i].a+keys[i].b < keys[k].a+keys[k].b
		})
		b.WriteString(t.comment + t.decl)
		for _, k := range keys {
			fmt.Fprintf(&b, "\t{%s, %q, %q", strings.Join(t.rows[k], " | "), k.name, k.a)
			if k.b != "" {
				fmt.Fprintf(&b, ", %q", k.b)
			}
			b.WriteString("},\n")
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("// recordedBuilds names, per recorded release, the VM's build as its -version banner\n")
	b.WriteString("// shows it (testdata/jvmflags/jdk-*.version.txt).\n")
	b.WriteString("var recordedBuilds = [...]struct {\n\treleases jdk.Set\n\tbuild    string\n}{\n")
	for _, r := range recs {
		fmt.Fprintf(&b, "\t{rec%d, %q},\n", r.feature, r.build)
	}
	b.WriteString("}\n\n")
	writeNameLists(&b, recs, "recordedModules", "names",
		"the system modules java --list-modules\n// names (testdata/jvmflags/jdk-*.modules.txt), sorted.",
		func(r *recording) []string { return r.modules })
	writeNameLists(&b, recs, "recordedPackages", "names",
		"the system modules' packages as\n// \"module/package\" (testdata/jvmflags/jdk-*.descriptors.txt), sorted.",
		func(r *recording) []string { return r.packages })
	writeNameLists(&b, recs, "recordedRequires", "names",
		"the system modules' run-time\n// dependences as \"module dependence\" (testdata/jvmflags/jdk-*.descriptors.txt), sorted.",
		func(r *recording) []string { return r.requires })
	writeNameLists(&b, recs, "recordedDescriptors", "blocks",
		"what java --describe-module printed for\n// each system module, in --list-modules' order (testdata/jvmflags/jdk-*.descriptors.txt).",
		func(r *recording) []string { return r.descriptors })
	writeNameLists(&b, recs, "recordedBootLayer", "names",
		"the modules the default boot layer\n// resolves (testdata/jvmflags/jdk-*.boot-layer.txt), sorted.",
		func(r *recording) []string { return r.bootLayer })
	return format.Source(b.Bytes())
}

// loadDescriptors reads what java --describe-module printed for each system module (a block
// per module, its first line "name@version"): the packages each module holds (exported,
// opened or only contained) and the modules it requires at run time.
func (r *recording) loadDescriptors(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for _, block := range strings.Split(strings.TrimRight(string(data), "\n"), "\n\n") {
		r.descriptors = append(r.descriptors, block+"\n")
	}
	module := ""
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
			module = ""
		case module == "":
			name, _, ok := strings.Cut(f[0], "@")
			if !ok || len(f) != 1 {
				return fmt.Errorf("%s: %q does not start a module", path, l)
			}
			module = name
		case f[0] == "qualified" && len(f) >= 3:
			r.packages = append(r.packages, module+"/"+f[2])
		case f[0] == "exports" || f[0] == "opens" || f[0] == "contains":
			r.packages = append(r.packages, module+"/"+f[1])
		case f[0] == "requires" && !slices.Contains(f[2:], "static"):
			r.requires = append(r.requires, module+" "+f[1])
		}
	}
	r.packages = slices.Compact(slices.Sorted(slices.Values(r.packages)))
	sort.Strings(r.requires)
	if len(r.packages) == 0 {
		return fmt.Errorf("%s: no packages", path)
	}
	return nil
}

// writeNameLists writes one generated table of names per recorded release: var name, a
// struct of the releases and field, whose doc comment continues "lists, per recorded
// release, " with what.
func writeNameLists(b *bytes.Buffer, recs []*recording, name, field, what string, get func(*recording) []string) {
	fmt.Fprintf(b, "// %s lists, per recorded release, %s\n", name, what)
	fmt.Fprintf(b, "var %s = [...]struct {\n\treleases jdk.Set\n\t%-8s []string\n}{\n", name, field)
	for _, r := range recs {
		fmt.Fprintf(b, "\t{rec%d, []string{", r.feature)
		line := 0
		for i, n := range get(r) {
			q := strconv.Quote(n) + ","
			if i == 0 || line+len(q) > 90 {
				b.WriteString("\n\t\t")
				line = 0
			} else {
				b.WriteString(" ")
			}
			b.WriteString(q)
			line += len(q) + 1
		}
		b.WriteString("\n\t}},\n")
	}
	b.WriteString("}\n\n")
}
