package flags

import (
	"embed"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// The compiler oracle: -XX:CompileCommand, -XX:CompileOnly and -XX:CompileCommandFile
// (HotSpot's compilerOracle). Parse reads them after the flags are settled, the way java
// does while it creates the VM, and keeps the commands in the Set; the tier policy and the
// inliner ask the Set which command applies to a method. Every text here was observed on
// OpenJDK 17.0.15 and Temurin 25.0.3 (flags/testdata/cases.json records them).

// helpTexts holds what -XX:CompileCommand=help prints on each recorded release; its option
// list ("    name (type)") is also the list of options the release accepts.
//
//go:embed cchelp/help-17.txt cchelp/help-25.txt
var helpTexts embed.FS

// oracleRelease is the recorded release whose compiler-oracle behaviour profile j follows:
// 17 for 17 and 21 (21 not observed), 25 from 25 on.
func oracleRelease(j jdk.Release) string {
	if behavesLike25(j) {
		return "25"
	}
	return "17"
}

// compileCommandHelp returns the help text of profile j.
func compileCommandHelp(j jdk.Release) string {
	b, err := helpTexts.ReadFile("cchelp/help-" + oracleRelease(j) + ".txt")
	if err != nil {
		panic("BUG: " + err.Error())
	}
	return string(b)
}

// compileCommandOptions maps each option profile j accepts to its type name as java prints
// it ("bool", "intx", "uintx", "double", "ccstrlist"), read from the help text.
func compileCommandOptions(j jdk.Release) map[string]string {
	m := map[string]string{}
	_, list, _ := strings.Cut(compileCommandHelp(j), "All available options:\n")
	for _, line := range strings.Split(list, "\n") {
		name, typ, ok := strings.Cut(strings.TrimSpace(line), " (")
		if !ok {
			if len(m) > 0 {
				break
			}
			continue
		}
		m[name] = strings.TrimSuffix(typ, ")")
	}
	return m
}

// matchMode is how one part of a method pattern matches a name.
type matchMode uint8

const (
	matchExact  matchMode = iota
	matchPrefix           // name*
	matchSuffix           // *name
	matchSubstr           // *name*
	matchAny              // *
)

func (m matchMode) match(pattern, name string) bool {
	switch m {
	case matchPrefix:
		return strings.HasPrefix(name, pattern)
	case matchSuffix:
		return strings.HasSuffix(name, pattern)
	case matchSubstr:
		return strings.Contains(name, pattern)
	case matchAny:
		return true
	}
	return name == pattern
}

// MethodPattern is a parsed method pattern: class (in internal form, a/b/C), method and
// optional signature, each name with a leading and/or trailing '*' wildcard or none.
type MethodPattern struct {
	// Class and Method are the pattern texts without their wildcards; Signature is "" or a
	// descriptor such as "(I)V", matched as a prefix.
	Class, Method, Signature string
	classMode, methodMode    matchMode
}

// String returns the pattern as java echoes it: class/with/slashes.method(signature).
func (p MethodPattern) String() string {
	return wild(p.Class, p.classMode) + "." + wild(p.Method, p.methodMode) + p.Signature
}

func wild(s string, m matchMode) string {
	switch m {
	case matchPrefix:
		return s + "*"
	case matchSuffix:
		return "*" + s
	case matchSubstr:
		return "*" + s + "*"
	case matchAny:
		return "*"
	}
	return s
}

// Matches reports whether the pattern matches a method. class may be dotted
// (com.sun.crypto.provider.GHASH) or internal (com/sun/crypto/provider/GHASH); a pattern with
// a signature matches only when the descriptor sig starts with it.
func (p MethodPattern) Matches(class, method, sig string) bool {
	class = strings.ReplaceAll(class, ".", "/")
	if !p.classMode.match(p.Class, class) || !p.methodMode.match(p.Method, method) {
		return false
	}
	return p.Signature == "" || strings.HasPrefix(sig, p.Signature)
}

// CompileCommand is one parsed command: an option set for the methods a pattern matches.
type CompileCommand struct {
	// Option is the option's name (exclude, compileonly, dontinline, inline,
	// CompileThresholdScaling, …) and Type its type as java prints it.
	Option, Type string
	Pattern      MethodPattern
	// Value is the option's value as given (bool options: "true" or "false").
	Value string
	// Source is where the command came from: "-XX:CompileCommand=…", "-XX:CompileOnly=…" or
	// "-XX:CompileCommandFile=F" (jitsim explain names it).
	Source string
}

// Bool reports a bool command's value.
func (c CompileCommand) Bool() bool { return c.Value == "true" }

// Float returns a double command's value (0 if it does not parse).
func (c CompileCommand) Float() float64 {
	v, _ := strconv.ParseFloat(c.Value, 64)
	return v
}

// String returns the command as java echoes it, without the "CompileCommand: " prefix.
func (c CompileCommand) String() string {
	v := c.Value
	typ := c.Type
	switch c.Type {
	case "double":
		v = fmt.Sprintf("%f", c.Float())
	case "ccstr", "ccstrlist":
		typ, v = "const char*", "'"+v+"'"
	}
	return fmt.Sprintf("%s %s %s %s = %s", c.Option, c.Pattern, typ, c.Option, v)
}

// oracle is the parsed compile commands of a Set, in the order java read them.
type oracle struct {
	commands []CompileCommand
	quiet    bool
}

// CompileCommandsQuiet reports -XX:CompileCommand=quiet: the VM then says nothing when a
// command excludes a compile.
func (s *Set) CompileCommandsQuiet() bool { return s.oracle != nil && s.oracle.quiet }

// CompileCommands returns the commands in the order they were given.
func (s *Set) CompileCommands() []CompileCommand {
	if s.oracle == nil {
		return nil
	}
	return s.oracle.commands
}

// CompileCommandFor returns the command that sets option for the method (class, name and
// descriptor), the last one given winning (HotSpot looks up the most recent first), and
// whether there is one.
func (s *Set) CompileCommandFor(option, class, method, sig string) (CompileCommand, bool) {
	cmds := s.CompileCommands()
	for i := len(cmds) - 1; i >= 0; i-- {
		if c := cmds[i]; c.Option == option && c.Pattern.Matches(class, method, sig) {
			return c, true
		}
	}
	return CompileCommand{}, false
}

// CompileExcluded reports whether the compile commands keep the method from being compiled
// at top level, and the command that decided: an exclude that matches it, or, when
// compileonly commands exist and none matches it, the first compileonly command (with
// Value "false": it is excluded because it is not listed).
func (s *Set) CompileExcluded(class, method, sig string) (CompileCommand, bool) {
	if c, ok := s.CompileCommandFor("exclude", class, method, sig); ok && c.Bool() {
		return c, true
	}
	var first *CompileCommand
	for i, c := range s.CompileCommands() {
		if c.Option != "compileonly" {
			continue
		}
		if first == nil {
			first = &s.oracle.commands[i]
		}
		if c.Bool() && c.Pattern.Matches(class, method, sig) {
			return CompileCommand{}, false
		}
	}
	if first != nil {
		c := *first
		c.Value = "false"
		return c, true
	}
	return CompileCommand{}, false
}

// compileCommandUsage is what java prints after a CompileCommand parse error.
const compileCommandUsage = "\nUsage: '-XX:CompileCommand=<option>,<method pattern>' - to set boolean option to true\n" +
	"Usage: '-XX:CompileCommand=<option>,<method pattern>,<value>'\n" +
	"Use:   '-XX:CompileCommand=help' for more information and to list all option.\n\n"

// maxCompileCommandLine bounds one command's length; a longer one is refused with an error
// rather than parsed (java has no such limit, but no method name comes near it).
const maxCompileCommandLine = 1 << 16

// oracleParser collects the commands and java's output while reading them.
type oracleParser struct {
	set     *Set
	j       jdk.Release
	options map[string]string
	quiet   bool
	failed  bool
	log     bool
	out     strings.Builder
	cmds    []CompileCommand
	// warnings are VM warnings (stderr) about commands java passes over.
	warnings []string
	// lastName is the last command or option name read, which 25 names again for a file
	// line that starts with a blank.
	lastName string
}

// compilerOracle reads CompileCommand, then CompileOnly, then CompileCommandFile (JDK 17+
// profiles; 8 and 8u are not modelled) into the Set, and puts what java prints on stdout
// into the Result. On 17 a bad command is reported and the VM runs on; from 25 on the VM
// then fails to start.
func (p *parser) compilerOracle() error {
	s, j := p.set, p.o.JDK
	if !j.Modern() || !s.Has("CompileCommand") {
		return nil
	}
	o := &oracleParser{set: s, j: j, options: compileCommandOptions(j)}
	if list := s.String("CompileCommand"); list != "" {
		for _, line := range strings.Split(list, "\n") {
			o.line(line, "-XX:CompileCommand="+line)
		}
	}
	if list := s.String("CompileOnly"); list != "" {
		o.compileOnly(list)
	}
	if name := s.String("CompileCommandFile"); name != "" {
		// A file java cannot open is passed over in silence (observed on 17 and 25).
		data, err := p.readFile(name)
		if e := tooLarge(err); e != nil {
			return e
		}
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimRight(line, "\r")
				switch {
				case line == "" || line[0] == '#':
					continue
				case line[0] == ' ' || line[0] == '\t':
					// A line that starts with a blank (an indented command or comment, or
					// blanks alone) has no name where java reads one: 25 names the last one
					// it read, 17 an empty one (17.0.15, 25.0.3; before any name, java prints
					// whatever its buffer held, which jitsim prints as empty).
					last := ""
					if behavesLike25(j) {
						last = o.lastName
					}
					o.parseError("CompileCommand", "Unrecognized option '"+last+"'", line, true)
					continue
				}
				o.line(line, "-XX:CompileCommandFile="+name)
			}
		}
	}
	if len(o.cmds) > 0 || o.quiet {
		s.oracle = &oracle{commands: o.cmds, quiet: o.quiet}
	}
	if o.out.Len() > 0 {
		p.res.Oracle = append(p.res.Oracle, o.out.String())
	}
	for _, w := range o.warnings {
		p.warning(w)
	}
	if o.failed && behavesLike25(j) {
		return &Error{Launcher: true}
	}
	return nil
}

// parseError reports a bad command the way java does.
func (o *oracleParser) parseError(what, msg, line string, usage bool) {
	o.failed = true
	fmt.Fprintf(&o.out, "%s: An error occurred during parsing\n", what)
	if msg != "" {
		o.out.WriteString("Error: " + msg + "\n")
	}
	o.out.WriteString("Line: '" + line + "'\n")
	if usage {
		o.out.WriteString(compileCommandUsage)
	}
}

// add records a parsed command and echoes it unless quiet.
func (o *oracleParser) add(c CompileCommand) {
	o.cmds = append(o.cmds, c)
	if c.Option == "log" && !o.log && !o.set.Bool("LogCompilation") {
		// Said once, before the first log command's echo (observed on 17 and 25).
		o.out.WriteString("Warning:  +LogCompilation must be enabled in order for individual methods to be logged with \n" +
			"          CompileCommand=log,<method pattern>\n")
	}
	if c.Option == "log" {
		o.log = true
	}
	if !o.quiet {
		o.out.WriteString("CompileCommand: " + c.String() + "\n")
	}
}

// option returns the option name matches, ignoring case, as the help spells it.
func (o *oracleParser) option(name string) (string, bool) {
	if _, ok := o.options[name]; ok {
		return name, true
	}
	for n := range o.options {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	return "", false
}

// compileCommandTypes are the type names an option command may give before the option's name
// (17.0.15 and 25.0.3 name each in "doesn't match supplied type"; ccstr is no option's type).
var compileCommandTypes = []string{"intx", "uintx", "bool", "ccstr", "ccstrlist", "double"}

// fields splits a command at commas and blanks, keeping empty fields between two commas.
func commandFields(line string) []string {
	var out []string
	cur, have := strings.Builder{}, false
	flush := func() {
		out = append(out, cur.String())
		cur.Reset()
		have = false
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ',':
			flush()
		case ' ', '\t':
			if have {
				flush()
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have || len(out) > 0 && line[len(line)-1] == ',' {
		flush()
	}
	return out
}

// line parses one CompileCommand line.
func (o *oracleParser) line(line, source string) {
	if len(line) > maxCompileCommandLine {
		o.parseError("CompileCommand", fmt.Sprintf("Command longer than %d bytes", maxCompileCommandLine), line[:64]+"…", true)
		return
	}
	f := commandFields(line)
	if len(f) == 0 {
		return
	}
	// Commands and option names are matched ignoring case, and echoed as the help spells
	// them (observed on 17 and 25).
	verb := f[0]
	o.lastName = verb
	switch strings.ToLower(verb) {
	case "quiet":
		o.quiet = true
		return
	case "help":
		o.out.WriteString(compileCommandHelp(o.j))
		return
	case "option":
		verb = "option"
	default:
		canon, ok := o.option(verb)
		if !ok {
			// java reads the command's name as letters and digits, and names what it read
			// ("dont-inline" is 'dont', "foo_bar" 'foo'; observed on 17.0.15 and 25.0.3).
			// A field that starts with neither leaves its buffer unset, which java prints as
			// whatever it held; jitsim names the field.
			// (A known name followed by other characters reads on as a pattern, which
			// jitsim does not model: it names the field then too.)
			name := verb
			if n := alnumPrefix(verb); n > 0 {
				if _, known := o.option(verb[:n]); !known {
					name = verb[:n]
				}
			}
			o.parseError("CompileCommand", "Unrecognized option '"+name+"'", line, true)
			return
		}
		verb = canon
	}
	if len(f) < 2 || f[1] == "" {
		o.parseError("CompileCommand", "Method pattern missing from command", line, true)
		return
	}
	// The older form names the class and the method in two fields ("exclude
	// java/lang/String indexOf"): a class field without '.' or "::" takes the next field,
	// unless that is a signature, as its method (observed on 17 and 25).
	pattern, next := f[1], 2
	if !strings.ContainsAny(pattern, ".(") && !strings.Contains(pattern, "::") && len(f) > 2 && f[2] != "" && !strings.HasPrefix(f[2], "(") {
		pattern, next = pattern+"."+f[2], 3
	}
	pat, msg := parseMethodPattern(pattern, o.j)
	if msg == "" && multipleDots(line, f) {
		msg = "Method pattern uses multiple '.' in pattern"
	}
	if msg != "" {
		o.parseError("CompileCommand", msg, line, true)
		return
	}
	rest := f[next:]
	if len(rest) > 0 && strings.HasPrefix(rest[0], "(") && pat.Signature == "" {
		if !validSignature(rest[0]) {
			o.parseError("CompileCommand", "Could not parse method pattern", line, true)
			return
		}
		pat.Signature, rest = rest[0], rest[1:]
	}
	if verb != "option" {
		// A command named for its option takes one value; what follows it is not read.
		o.setting(line, verb, false, pat, source, rest)
		return
	}
	if len(rest) == 0 {
		o.parseError("CompileCommand", "Option name missing from command", line, true)
		return
	}
	// The option form takes a list: each entry a bool's name (set to true), or a type, the
	// name of an option of that type and its value (a bool's may be left out). Each is
	// checked and echoed as it is read, and an error ends the list (observed on 17.0.15 and
	// 25.0.3: "option,P,PrintInlining,intx,MaxNodeLimit,100,BackgroundCompilation").
	for len(rest) > 0 {
		typed := slices.Contains(compileCommandTypes, rest[0])
		name := rest[0]
		if typed {
			if len(rest) < 2 {
				o.parseError("CompileCommand", "Option name for type '"+rest[0]+"' should be alphanumeric ", line, true)
				return
			}
			name = rest[1]
		}
		o.lastName = name
		canon, ok := o.option(name)
		if !ok {
			o.parseError("CompileCommand", "Unrecognized option '"+name+"'", line, true)
			return
		}
		typ := o.options[canon]
		switch {
		case typed && typ != rest[0]:
			o.parseError("CompileCommand", "Option '"+canon+"' with type '"+typ+"' doesn't match supplied type '"+rest[0]+"'", line, true)
			return
		case typed:
			rest = rest[2:]
		case typ != "bool":
			// Only a bool option may be named without its type.
			o.parseError("CompileCommand", "  Missing type '"+typ+"' before option '"+canon+"'", line, true)
			return
		default:
			rest = rest[1:]
		}
		if rest, ok = o.setting(line, canon, !typed, pat, source, rest); !ok {
			return
		}
	}
}

// setting checks and adds one option of a compile command with its value, read from rest
// (bare: a bool named without its type in the option form, which takes no value), and returns
// what follows the value; ok is false after an error.
func (o *oracleParser) setting(line, name string, bare bool, pat MethodPattern, source string, rest []string) (left []string, ok bool) {
	// From 25 on an intrinsic list is checked first, then an option named like a diagnostic
	// flag needs the flag's unlock, and only then is the command echoed; 17 echoes an
	// intrinsic list before checking it and does not ask for the unlock.
	if behavesLike25(o.j) && (name == "ControlIntrinsic" || name == "DisableIntrinsic") && len(rest) > 0 {
		if bad := unknownIntrinsic(strings.Join(rest, " "), o.j); bad != "" {
			o.parseError("CompileCommand", "Unrecognized intrinsic detected in "+name+": "+bad, line, true)
			return nil, false
		}
	}
	if e := o.set.peek(name); e != nil && behavesLike25(o.j) && e.flag.Kind.At(o.j) == Diagnostic && !o.set.Bool("UnlockDiagnosticVMOptions") {
		o.parseError("CompileCommand", "VM option '"+name+"' is diagnostic and must be enabled via -XX:+UnlockDiagnosticVMOptions.", line, true)
		return nil, false
	}
	if name == "blackhole" && !o.set.Bool("UnlockExperimentalVMOptions") {
		// Passed over with a warning and no echo (observed on 17 and 25).
		o.warnings = append(o.warnings, "Blackhole compile option is experimental and must be enabled via -XX:+UnlockExperimentalVMOptions")
		return rest, true
	}
	typ := o.options[name]
	c := CompileCommand{Option: name, Type: typ, Pattern: pat, Source: source}
	if name == "MemStat" {
		// 25's MemStat takes collect (1, also when no value is given) or print (2), and
		// no number (observed on 25.0.3).
		c.Value = "1"
		for _, v := range rest {
			switch v {
			case "collect":
			case "print":
				c.Value = "2"
			default:
				o.parseError("CompileCommand", "Value cannot be read for option '"+name+"' of type '"+typ+"'", line, true)
				return nil, false
			}
		}
		o.add(c)
		return nil, true
	}
	if len(rest) == 0 || bare {
		if typ != "bool" {
			o.parseError("CompileCommand", "Value cannot be read for option '"+name+"' of type '"+typ+"'", line, true)
			return nil, false
		}
		c.Value = "true"
		o.add(c)
		return rest, true
	}
	v, left := rest[0], rest[1:]
	ok = true
	switch typ {
	case "bool":
		ok = v == "true" || v == "false"
	case "intx", "uintx":
		if name == "MemLimit" {
			// A memory size (25): "100m" is echoed in bytes.
			if n, err := parseMemLimit(v); err == nil {
				v = strconv.FormatInt(n, 10)
			}
		}
		_, err := strconv.ParseInt(v, 10, 64)
		ok = err == nil && !(typ == "uintx" && strings.HasPrefix(v, "-"))
	case "double":
		v, left, ok = commandDouble(rest)
	case "ccstrlist", "ccstr":
		v, left = strings.Join(rest, " "), nil
	}
	if !ok {
		o.parseError("CompileCommand", "Value cannot be read for option '"+name+"' of type '"+typ+"'", line, true)
		return nil, false
	}
	c.Value = v
	o.add(c)
	if !behavesLike25(o.j) && (name == "ControlIntrinsic" || name == "DisableIntrinsic") {
		if bad := unknownIntrinsic(v, o.j); bad != "" {
			o.parseError("CompileCommand", "Unrecognized intrinsic detected in "+name+": "+bad, line, true)
			return nil, false
		}
	}
	return left, true
}

// multipleDots reports whether java finds more than one '.' in a pattern written without "::":
// java counts them in the line from the pattern up to the first ',' or '(', so in a line
// whose fields are parted by blanks a later field's point counts too ("exclude
// java/lang/String.length 1.5", "option java/lang/String.length double X 0.25"; "... 0,25"
// and the two-field "java/lang/String length 0.25" pass; observed on 17.0.15 and 25.0.3).
func multipleDots(line string, f []string) bool {
	off := len(f[0])
	i := strings.Index(line[off:], f[1])
	if i < 0 {
		return false
	}
	span := line[off+i:]
	if j := strings.IndexAny(span, ",("); j >= 0 {
		span = span[:j]
	}
	return !strings.Contains(span, "::") && strings.Count(span, ".") > 1
}

// alnumPrefix is the length of s's leading run of ASCII letters and digits.
func alnumPrefix(s string) int {
	n := 0
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
		n++
	}
	return n
}

// commandDouble reads a compile command's double from its fields as HotSpot reads it: whole
// digits, a point (or the comma or space that separated two fields) and fractional digits, no
// sign, exponent or lone integer ("0.5", "1,5" and "1 5" are 1.5; "12.50x" is 12.5 with "x"
// left to read; "2", "-1", ".5", "1." and "1e2" cannot be read; observed on 17.0.15 and 25.0.3).
func commandDouble(rest []string) (v string, left []string, ok bool) {
	digits := func(s string) int {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n
	}
	t := rest[0]
	n := digits(t)
	if n == 0 {
		return "", nil, false
	}
	var frac string
	switch {
	case n < len(t) && t[n] == '.':
		m := digits(t[n+1:])
		if m == 0 {
			return "", nil, false
		}
		frac, left = t[n+1:n+1+m], rest[1:]
		if tail := t[n+1+m:]; tail != "" {
			left = append([]string{tail}, left...)
		}
	case n == len(t) && len(rest) > 1 && digits(rest[1]) > 0:
		m := digits(rest[1])
		frac, left = rest[1][:m], rest[2:]
		if tail := rest[1][m:]; tail != "" {
			left = append([]string{tail}, left...)
		}
	default:
		return "", nil, false
	}
	return t[:n] + "." + frac, left, true
}

// unknownIntrinsic returns the first name of an intrinsic list the profile does not know.
func unknownIntrinsic(list string, j jdk.Release) string {
	names := intrinsicNames(j)
	if names == nil {
		return ""
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	for _, t := range intrinsicTokens(list) {
		if n := strings.TrimLeft(t, "+-"); !known[n] {
			return n
		}
	}
	return ""
}

// compileOnly reads -XX:CompileOnly's list. From 25 on each entry is a method pattern and
// one bad entry fails the whole list; 17 reads the entries its own way (legacyCompileOnly).
func (o *oracleParser) compileOnly(list string) {
	for _, line := range strings.Split(list, "\n") {
		if line == "" {
			continue // an empty -XX:CompileOnly= adds nothing (17 and 25)
		}
		source := "-XX:CompileOnly=" + line
		if len(line) > maxCompileCommandLine {
			o.parseError("CompileOnly", fmt.Sprintf("Command longer than %d bytes", maxCompileCommandLine), line[:64]+"…", false)
			continue
		}
		if !behavesLike25(o.j) {
			colons := strings.Contains(line, "::")
			for _, entry := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' }) {
				for _, e := range strings.Split(entry, ",") {
					o.add(CompileCommand{Option: "compileonly", Type: "bool", Value: "true", Pattern: legacyCompileOnly(e, colons), Source: source})
				}
			}
			continue
		}
		var pats []MethodPattern
		bad := ""
		for _, e := range strings.Split(line, ",") {
			pat, msg := parseMethodPattern(e, o.j)
			if msg != "" {
				bad = msg
				break
			}
			pats = append(pats, pat)
		}
		if bad != "" {
			o.parseError("CompileOnly", bad, line, false)
			continue
		}
		for _, pat := range pats {
			o.add(CompileCommand{Option: "compileonly", Type: "bool", Value: "true", Pattern: pat, Source: source})
		}
	}
}

// legacyCompileOnly is how JDK 17 reads one CompileOnly entry, as observed. When the option's
// value uses "::" anywhere, an entry is pkg.Class::method with dots as package separators
// and no "::" meaning every method ("a.b" is a/b.*); otherwise the first dot ends the class
// and the last starts the method ("x.y", "a/b.c"; "java.lang.String.length" is
// java.length). An empty class or method matches any ("Foo" is Foo.*, ".m" *.m, and an
// empty entry *.*).
func legacyCompileOnly(e string, colons bool) MethodPattern {
	var cls, m string
	if colons {
		c, meth, _ := strings.Cut(e, "::")
		cls, m = strings.ReplaceAll(c, ".", "/"), meth
	} else if first := strings.Index(e, "."); first >= 0 {
		cls, m = e[:first], e[strings.LastIndex(e, ".")+1:]
	} else {
		cls = e
	}
	p := MethodPattern{}
	p.Class, p.classMode = splitWild(cls)
	p.Method, p.methodMode = splitWild(m)
	return p
}

// splitWild strips a name's leading and trailing '*' and says how it matches.
func splitWild(s string) (string, matchMode) {
	if s == "" || s == "*" || s == "**" {
		return "", matchAny
	}
	lead, trail := strings.HasPrefix(s, "*"), strings.HasSuffix(s, "*")
	s = strings.TrimSuffix(strings.TrimPrefix(s, "*"), "*")
	switch {
	case lead && trail:
		return s, matchSubstr
	case lead:
		return s, matchSuffix
	case trail:
		return s, matchPrefix
	}
	return s, matchExact
}

// parseMethodPattern parses Class.method, pkg/Class.method or pkg.Class::method, with an
// optional signature after the method, and returns java's message for a bad one.
func parseMethodPattern(s string, j jdk.Release) (MethodPattern, string) {
	const cannot = "Could not parse method pattern"
	var cls, m string
	if c, meth, ok := strings.Cut(s, "::"); ok {
		if strings.Contains(c, "/") {
			if behavesLike25(j) {
				return MethodPattern{}, "Method pattern uses '/' together with '::' (tips: replace '/' with '+' for hidden classes)"
			}
			return MethodPattern{}, "Method pattern uses '/' together with '::'"
		}
		cls, m = strings.ReplaceAll(c, ".", "/"), meth
	} else {
		head, _, _ := strings.Cut(s, "(")
		switch strings.Count(head, ".") {
		case 0:
			return MethodPattern{}, cannot
		case 1:
		default:
			return MethodPattern{}, "Method pattern uses multiple '.' in pattern"
		}
		cls, m, _ = strings.Cut(s, ".")
	}
	sig := ""
	if i := strings.IndexByte(m, '('); i >= 0 {
		m, sig = m[:i], m[i:]
	}
	if cls == "" || m == "" || strings.ContainsAny(cls+m, ".:(),") || sig != "" && !validSignature(sig) {
		return MethodPattern{}, cannot
	}
	p := MethodPattern{Signature: sig}
	for _, part := range []struct {
		text *string
		mode *matchMode
		in   string
	}{{&p.Class, &p.classMode, cls}, {&p.Method, &p.methodMode, m}} {
		name, mode := splitWild(part.in)
		if strings.Contains(name, "*") {
			return MethodPattern{}, " Embedded * not allowed"
		}
		*part.text, *part.mode = name, mode
	}
	return p, ""
}

// validSignature reports whether s can be a method descriptor's text: "(", then the
// characters of type names.
func validSignature(s string) bool {
	if !strings.HasPrefix(s, "(") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isNameChar(c) || strings.IndexByte("()[;/$<>", c) >= 0) {
			return false
		}
	}
	return true
}

// parseMemLimit reads MemLimit's value: a number of bytes with an optional k, m or g.
func parseMemLimit(v string) (int64, error) {
	mult := int64(1)
	switch strings.ToLower(v[len(v)-min(len(v), 1):]) {
	case "k":
		mult = 1 << 10
	case "m":
		mult = 1 << 20
	case "g":
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n > math.MaxInt64/mult {
		return 0, errSyntax
	}
	return n * mult, nil
}
