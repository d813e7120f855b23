// Command inlinegen builds the inline modules: for every reference method
// that calls other methods, per group of JDK profiles in which it reaches
// the same bodies, a wasm module holding the method itself, the bodies of
// every method it reaches (uncounted, PROFILE 0) and a shim per callee that
// runs the linked body when the host switched that callee's slot on (the
// call is inlined) or the "jvm" import otherwise (the call goes to the
// dispatcher: a stub, or code the runtime chose not to inline). The method
// itself is built twice: PROFILE 0 (None, level 1) and PROFILE 1 (Limited,
// level 2: C1's limited-profile code counts the compiled method, not the
// methods it inlines); the whole module once more at PROFILE 0 with C2's
// loop unrolling ($C2FLAGS: unrolled, level 4). When the host sets INLINE_CHARGE (the model
// clock is on), an inlined call first notes its callee and payload bytes
// (model.Payload's rule for the callee) in the list the host charges
// (src/jvm.h INLINE_CHARGES; the import jitsim.charges when it is full).
// build.sh runs it after the per-method modules:
//
//	go run ../internal/inlinegen -out wasm   (from bytecode)
//
// Output: <out>/<Module>.inline.<p1-p2-...>.<none|limited|unrolled>.wasm,
// the profiles joined by "-". It uses $CC (default clang), the link flags in
// $LDFLAGS and the unrolled build's flags in $C2FLAGS (the same as the
// per-method modules'). See src/jvm.h
// (INLINE_LINK, INLINED).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
)

func main() {
	out := flag.String("out", "wasm", "output directory")
	src := flag.String("src", "src", "source directory (modules.txt, *.c)")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "inlinegen:", err)
		os.Exit(1)
	}
}

// module is one line of modules.txt plus what its preprocessed source says.
type module struct {
	name, src string
	defs      []string
	entry     string            // C name of the exported method body
	clinit    string            // C name of the "clinit" export, if any
	others    []string          // C names of the other exports (OSR entries)
	imports   map[string]string // callee key -> C name of the declaration
	keys      []string          // callee keys in source order
}

var (
	exportRE = regexp.MustCompile(`__attribute__\(\(export_name\(((?:"[^"]*"\s*)+)\)\)\)\s*([^;{(]*?)(\w+)\s*\(`)
	importRE = regexp.MustCompile(`__attribute__\(\(import_module\("jvm"\), import_name\(((?:"[^"]*"\s*)+)\)\)\)\s*([^;{(]*?)(\w+)\s*\(`)
	litRE    = regexp.MustCompile(`"([^"]*)"`)
)

// literal joins adjacent C string literals.
func literal(s string) string {
	var b strings.Builder
	for _, m := range litRE.FindAllStringSubmatch(s, -1) {
		b.WriteString(m[1])
	}
	return b.String()
}

func cc() string {
	if c := os.Getenv("CC"); c != "" {
		return c
	}
	return "clang"
}

var cflags = []string{"--target=wasm32", "-nostdlib", "-O2", "-ffreestanding", "-fno-builtin", "-Wall", "-Werror"}

// c2flags are the flags of the unrolled build (level 4), from build.sh ($C2FLAGS).
func c2flags() []string { return strings.Fields(os.Getenv("C2FLAGS")) }

func readModules(src string) ([]*module, error) {
	f, err := os.Open(filepath.Join(src, "modules.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ms []*module
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 2 {
			return nil, fmt.Errorf("modules.txt: bad line %q", line)
		}
		m := &module{name: fs[0], src: fs[1], defs: fs[2:], imports: map[string]string{}}
		if err := m.scan(src); err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, sc.Err()
}

// scan preprocesses the module's source as the per-method build does and
// reads the C names of its exports and imports.
func (m *module) scan(src string) error {
	args := append(append([]string{"-E", "-P"}, cflags...), "-DPROFILE=0")
	args = append(append(args, m.defs...), filepath.Join(src, m.src))
	var stderr bytes.Buffer
	cmd := exec.Command(cc(), args...)
	cmd.Stderr = &stderr
	text, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%s: preprocessing %s: %v\n%s", m.name, m.src, err, stderr.Bytes())
	}
	for _, e := range exportRE.FindAllSubmatch(text, -1) {
		key, name := literal(string(e[1])), string(e[3])
		if key == "clinit" {
			m.clinit = name
			continue
		}
		if strings.HasSuffix(key, "$osr") {
			m.others = append(m.others, name)
			continue
		}
		if m.entry != "" {
			return fmt.Errorf("%s: two method exports (%s, %s)", m.name, m.entry, name)
		}
		m.entry = name
	}
	if m.entry == "" {
		return fmt.Errorf("%s: no method export in %s", m.name, m.src)
	}
	for _, e := range importRE.FindAllSubmatch(text, -1) {
		key, name := literal(string(e[1])), string(e[3])
		if prev, dup := m.imports[key]; dup && prev != name {
			return fmt.Errorf("%s: %s imported as %s and %s", m.name, key, prev, name)
		}
		if _, dup := m.imports[key]; !dup {
			m.keys = append(m.keys, key)
		}
		m.imports[key] = name
	}
	return nil
}

// group is one inline module: a root module and the modules it reaches in
// the profiles listed.
type group struct {
	root     *module
	closure  []*module // reached modules, sorted by name, root excluded
	profiles jdk.Set
}

func run(src, out string) error {
	mods, err := readModules(src)
	if err != nil {
		return err
	}
	byName := map[string]*module{}
	for _, m := range mods {
		byName[m.name] = m
	}
	rows := bytecode.Rows()
	keys := bytecode.SortedKeys(rows)
	if len(keys) > bytecode.MaxInlineSlots {
		return fmt.Errorf("%d method keys, the inline area holds %d", len(keys), bytecode.MaxInlineSlots)
	}
	sig := map[string]*bytecode.Method{}
	for i := range rows {
		sig[rows[i].Key] = &rows[i] // every body of a key has the same signature (not the same payload rule)
	}
	// moduleFor resolves a key in a profile.
	moduleFor := func(key string, p jdk.Release) (*module, error) {
		for i := range rows {
			if rows[i].Key == key && rows[i].Profiles.Has(p) {
				m := byName[rows[i].Module]
				if m == nil {
					return nil, fmt.Errorf("row %s: module %s not in modules.txt", key, rows[i].Module)
				}
				return m, nil
			}
		}
		return nil, fmt.Errorf("JDK %s has no method %s", p, key)
	}
	var groups []*group
	for _, p := range jdk.All() {
		for i := range rows {
			r := &rows[i]
			root := byName[r.Module]
			if !r.Profiles.Has(p) || root == nil || len(root.keys) == 0 {
				continue
			}
			seen := map[*module]bool{root: true}
			var closure []*module
			work := []*module{root}
			for len(work) > 0 {
				m := work[0]
				work = work[1:]
				for _, k := range m.keys {
					c, err := moduleFor(k, p)
					if err != nil {
						return fmt.Errorf("%s: %w", m.name, err)
					}
					if !seen[c] {
						seen[c] = true
						closure = append(closure, c)
						work = append(work, c)
					}
				}
			}
			slices.SortFunc(closure, func(a, b *module) int { return strings.Compare(a.name, b.name) })
			found := false
			for _, g := range groups {
				if g.root == root && slices.Equal(g.closure, closure) {
					g.profiles |= jdk.Of(p)
					found = true
					break
				}
			}
			if !found {
				groups = append(groups, &group{root: root, closure: closure, profiles: jdk.Of(p)})
			}
		}
	}
	tmp, err := os.MkdirTemp("", "inlinegen")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	slot := func(k string) int {
		i, _ := slices.BinarySearch(keys, k)
		return i
	}
	ldflags := strings.Fields(os.Getenv("LDFLAGS"))
	if len(c2flags()) == 0 {
		return errors.New("C2FLAGS is not set (build.sh sets it)")
	}
	for gi, g := range groups {
		dir := filepath.Join(tmp, fmt.Sprint(gi))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		// The None and Limited builds share the callees' objects and the shim; the
		// unrolled build (level 4) compiles all of them again with C2's flags.
		if err := buildGroup(g, rows, sig, slot, src, out, filepath.Join(dir, "c1"), ldflags, nil,
			[]profiled{{bytecode.None, "none"}, {bytecode.Limited, "limited"}}); err != nil {
			return err
		}
		if err := buildGroup(g, rows, sig, slot, src, out, filepath.Join(dir, "c2"), ldflags, c2flags(),
			[]profiled{{bytecode.None, "unrolled"}}); err != nil {
			return err
		}
	}
	if len(groups) == 0 {
		return errors.New("no method calls another: nothing to inline")
	}
	return nil
}

// joinReleases lists the releases of s, oldest first, separated by sep: the
// profiles part of an inline module's file name ("17-21-25").
func joinReleases(s jdk.Set, sep string) string {
	var names []string
	for _, r := range s.Releases() {
		names = append(names, r.String())
	}
	return strings.Join(names, sep)
}

// moduleKeys returns the keys of the closure's modules (the callees that
// get a shim), sorted.
func moduleKeys(g *group, rows []bytecode.Method) []string {
	var ks []string
	for _, m := range g.closure {
		for i := range rows {
			if rows[i].Module == m.name && !slices.Contains(ks, rows[i].Key) {
				ks = append(ks, rows[i].Key)
			}
		}
	}
	slices.Sort(ks)
	return ks
}

// chargeSource is the shims' report of an inlined call (src/jvm.h
// INLINE_CHARGES): a call of the slot with the payload of the list's last
// run of that slot and payload is counted there, any other starts a run,
// and a full list (or a run about to overflow) goes to the host first.
const chargeSource = `__attribute__((import_module("jitsim"), import_name("charges"))) void jvm_charges(void);
static void jvm_charge(i32 slot, i32 payload)
{
	u32 n = INLINE_NCHARGES;
	for (u32 i = n; i-- > 0;) {
		charge_t *c = &INLINE_CHARGES[i];
		if (c->slot == slot && c->payload == payload) {
			if (++c->count == 0x40000000u)
				jvm_charges();
			return;
		}
	}
	if (n == INLINE_CHARGES_MAX) {
		jvm_charges();
		n = 0;
	}
	INLINE_CHARGES[n] = (charge_t){slot, payload, 1};
	INLINE_NCHARGES = n + 1;
}
`

// shimSource writes one shim per callee key: the linked body when the
// host switched the slot on, else the "jvm" import; an inlined body that
// threw records its slot for the host's exception message.
func shimSource(g *group, sig map[string]*bytecode.Method, slot func(string) int, keys []string, clinits []int) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "/* Generated by inlinegen for %s (JDK %s); do not edit. */\n#include \"jvm.h\"\n",
		g.root.name, joinReleases(g.profiles, ", "))
	b.WriteString(chargeSource)
	for _, k := range keys {
		m := sig[k]
		s := slot(k)
		var params, args []string
		argOf := map[int]string{} // Java parameter index -> C argument
		for i, p := range m.Params {
			n := len(params)
			argOf[i] = fmt.Sprintf("a%d", n)
			switch {
			case p.Kind.IsArray():
				params = append(params, fmt.Sprintf("i32 a%d", n), fmt.Sprintf("i32 a%d", n+1))
				args = append(args, fmt.Sprintf("a%d", n), fmt.Sprintf("a%d", n+1))
			case p.Kind == bytecode.Long:
				params = append(params, fmt.Sprintf("i64 a%d", n))
				args = append(args, fmt.Sprintf("a%d", n))
			default:
				params = append(params, fmt.Sprintf("i32 a%d", n))
				args = append(args, fmt.Sprintf("a%d", n))
			}
		}
		ret := "void"
		if m.Result != bytecode.Void {
			ret = "i32"
		}
		ps, as := strings.Join(params, ", "), strings.Join(args, ", ")
		pay, err := payloadExpr(m, argOf)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n/* %s */\n", k)
		fmt.Fprintf(&b, "__attribute__((import_module(\"jvm\"), import_name(%q))) %s jvm_host_%d(%s);\n", k, ret, s, ps)
		fmt.Fprintf(&b, "%s jvm_impl_%d(%s);\n", ret, s, ps)
		fmt.Fprintf(&b, "%s jvm_call_%d(%s)\n{\n", ret, s, ps)
		fmt.Fprintf(&b, "\tif (INLINE_ON[%d]) {\n", s)
		fmt.Fprintf(&b, "\t\tif (INLINE_CHARGE)\n\t\t\tjvm_charge(%d, %s);\n", s, pay)
		if ret == "void" {
			fmt.Fprintf(&b, "\t\tjvm_impl_%d(%s);\n", s, as)
			fmt.Fprintf(&b, "\t\tif (CTL->thrown && !INLINE_THROWER)\n\t\t\tINLINE_THROWER = %d;\n\t\treturn;\n\t}\n", s+1)
			fmt.Fprintf(&b, "\tjvm_host_%d(%s);\n}\n", s, as)
		} else {
			fmt.Fprintf(&b, "\t\ti32 r = jvm_impl_%d(%s);\n", s, as)
			fmt.Fprintf(&b, "\t\tif (CTL->thrown && !INLINE_THROWER)\n\t\t\tINLINE_THROWER = %d;\n\t\treturn r;\n\t}\n", s+1)
			fmt.Fprintf(&b, "\treturn jvm_host_%d(%s);\n}\n", s, as)
		}
	}
	if len(clinits) > 0 {
		b.WriteString("\n/* The linked bodies' static initialisers, run once per instance by the host. */\n")
		for _, s := range clinits {
			fmt.Fprintf(&b, "void jvm_clinit_%d(void);\n", s)
		}
		b.WriteString("EXPORT(\"clinit\") void jvm_clinit(void)\n{\n")
		for _, s := range clinits {
			fmt.Fprintf(&b, "\tjvm_clinit_%d();\n", s)
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}

// payloadExpr is model.Payload of a call of m as a C expression over the
// shim's arguments: the rule is read off model.Payload by probing each int
// parameter (it must be linear: constant + factor × parameter).
func payloadExpr(m *bytecode.Method, argOf map[int]string) (string, error) {
	at := func(param int, v int64) (int, error) {
		return model.Payload(m, func(i int) int64 {
			if i == param {
				return v
			}
			return 0
		})
	}
	base, err := at(-1, 0)
	if err != nil {
		return "", err
	}
	terms := []string{fmt.Sprint(base)}
	for i, p := range m.Params {
		if p.Kind != bytecode.Int {
			continue
		}
		one, err := at(i, 1)
		if err != nil {
			return "", err
		}
		three, err := at(i, 3)
		if err != nil {
			return "", err
		}
		f := one - base
		if three-base != 3*f {
			return "", fmt.Errorf("%s: model.Payload is not linear in %s", m.Key, p.Name)
		}
		if f != 0 {
			terms = append(terms, fmt.Sprintf("%d * %s", f, argOf[i]))
		}
	}
	return strings.Join(terms, " + "), nil
}

// clinits returns the slots of the closure's modules that have static
// initialisers.
func clinits(g *group, rows []bytecode.Method, slot func(string) int) []int {
	var out []int
	for _, m := range g.closure {
		if m.clinit == "" {
			continue
		}
		for i := range rows {
			if rows[i].Module == m.name {
				out = append(out, slot(rows[i].Key))
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// profiled is one root build of an inline module: the root's counters (its build) and the
// file name's build part.
type profiled struct {
	build bytecode.Build
	name  string
}

// buildGroup compiles group g's callees, shim and root with cflags and extra in dir and links
// one module per root build, <root>.inline.<profiles>.<name>.wasm.
func buildGroup(g *group, rows []bytecode.Method, sig map[string]*bytecode.Method, slot func(string) int,
	src, out, dir string, ldflags, extra []string, roots []profiled) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	objs := []string{}
	compile := func(m *module, inlined bool, profile int) error {
		args := append(append(append([]string{}, cflags...), extra...), fmt.Sprintf("-DPROFILE=%d", profile), "-DINLINE_LINK")
		if inlined {
			args = append(args, "-DINLINED")
		}
		args = append(args, m.defs...)
		for _, k := range m.keys {
			args = append(args, fmt.Sprintf("-D%s=jvm_call_%d", m.imports[k], slot(k)))
		}
		if inlined {
			key := ""
			for i := range rows {
				if rows[i].Module == m.name {
					key = rows[i].Key
				}
			}
			args = append(args, fmt.Sprintf("-D%s=jvm_impl_%d", m.entry, slot(key)))
			for _, o := range m.others {
				args = append(args, fmt.Sprintf("-D%s=jvm_unused_%d_%s", o, slot(key), o))
			}
			if m.clinit != "" {
				args = append(args, fmt.Sprintf("-D%s=jvm_clinit_%d", m.clinit, slot(key)))
			}
		}
		obj := filepath.Join(dir, fmt.Sprintf("%d.o", len(objs)))
		args = append(args, "-c", filepath.Join(src, m.src), "-o", obj)
		if b, err := exec.Command(cc(), args...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s (in %s): %v\n%s", m.name, g.root.name, err, b)
		}
		objs = append(objs, obj)
		return nil
	}
	if g.root.clinit != "" {
		return fmt.Errorf("%s: a method with static tables that calls others is not supported by the inline build", g.root.name)
	}
	for _, m := range g.closure {
		if err := compile(m, true, 0); err != nil {
			return err
		}
	}
	shim := filepath.Join(dir, "shim.c")
	// Each key's body (and so its model.Payload rule: JDK 8's GCTR.update
	// does its own per-byte work, JDK 9+'s delegates it) is the one of the
	// group's profiles; they all share the group's modules.
	body := map[string]*bytecode.Method{}
	for k, m := range sig {
		body[k] = m
		for i := range rows {
			if rows[i].Key == k && rows[i].Profiles.Has(g.profiles.Releases()[0]) {
				body[k] = &rows[i]
				break
			}
		}
	}
	shimSrc, err := shimSource(g, body, slot, moduleKeys(g, rows), clinits(g, rows, slot))
	if err != nil {
		return err
	}
	if err := os.WriteFile(shim, shimSrc, 0o644); err != nil {
		return err
	}
	obj := filepath.Join(dir, "shim.o")
	args := append(append(append([]string{}, cflags...), extra...), "-DPROFILE=0", "-I", src, "-c", shim, "-o", obj)
	if b, err := exec.Command(cc(), args...).CombinedOutput(); err != nil {
		return fmt.Errorf("shim of %s: %v\n%s", g.root.name, err, b)
	}
	objs = append(objs, obj)
	shared := objs
	for _, r := range roots {
		objs = shared
		if err := compile(g.root, false, int(r.build)); err != nil {
			return err
		}
		name := filepath.Join(out, g.root.name+".inline."+joinReleases(g.profiles, "-")+"."+r.name+".wasm")
		args = append(append(append([]string{"--target=wasm32", "-nostdlib"}, ldflags...), "-o", name), objs...)
		if b, err := exec.Command(cc(), args...).CombinedOutput(); err != nil {
			return fmt.Errorf("linking %s: %v\n%s", name, err, b)
		}
		if err := os.Chmod(name, 0o644); err != nil {
			return err
		}
	}
	return nil
}
