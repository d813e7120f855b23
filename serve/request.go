package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/scenario"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// Limits of one request. A command line of the playground is typed by a person: these are
// generous for that and small for a server.
const (
	// MaxBody is the largest request body /api/run reads.
	MaxBody = 64 << 10
	// MaxArgs is the most arguments one command line may have.
	MaxArgs = 64
	// MaxArgLen is the longest one argument may be.
	MaxArgLen = 512
	// MaxThreads is the most application threads a run may ask for (--threads, -Dthreads).
	MaxThreads = 4
	// MaxSize is the largest message a size property (-DmsgSize, -DdataSize, …) may set. A
	// run stops only between iterations, and one interpreted GCM operation on 1 MiB takes
	// about 17 s of wall time; on 256 KiB about a quarter of that.
	MaxSize = 256 << 10
)

// Command is one command line of the playground: what follows
// `jitsim run --clock=model --jdk=RELEASE --cpu=CPU`.
type Command struct {
	Release string   `json:"release"`
	CPU     string   `json:"cpu"`
	Argv    []string `json:"argv"`
}

// Request is the body of POST /api/run: one command line, or two side by side (A/B) when
// Compare is set. Version pins the jitsim version the request was made for (a permalink's);
// empty means this server's.
type Request struct {
	Version string `json:"version,omitempty"`
	Command
	Compare *Command `json:"compare,omitempty"`
}

// Error is a refused request: the HTTP status, the message, and the input it names.
type Error struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
	// Option is the argument or field that was refused, when one was.
	Option string `json:"option,omitempty"`
}

func (e *Error) Error() string { return e.Message }

func badRequest(option, format string, a ...any) *Error {
	return &Error{Status: 400, Message: fmt.Sprintf(format, a...), Option: option}
}

// DecodeRequest reads one JSON request of at most MaxBody bytes: unknown fields, trailing
// data and a body too large are errors that say so.
func DecodeRequest(r io.Reader) (Request, error) {
	var q Request
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return q, badRequest("", "request body: %v", err)
	}
	if len(body) > MaxBody {
		return q, &Error{Status: 413, Message: fmt.Sprintf("request body: larger than %d bytes", MaxBody)}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return Request{}, badRequest("", "request body: not a run request: %s", jsonProblem(err))
	}
	if dec.More() {
		return Request{}, badRequest("", "request body: more than one JSON value")
	}
	return q, nil
}

// jsonProblem words a decoding error for a person: where and what, without Go's type names.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		want := map[reflect.Kind]string{reflect.Slice: "array of strings", reflect.String: "string", reflect.Pointer: "object", reflect.Struct: "object"}[te.Type.Kind()]
		if want == "" {
			want = te.Type.Kind().String()
		}
		return fmt.Sprintf("field %q must be a JSON %s, not %s", strings.TrimPrefix(te.Field, "Command."), want, te.Value)
	case errors.Is(err, io.EOF):
		return "empty body (want {\"release\": …, \"cpu\": …, \"argv\": […]})"
	}
	return err.Error()
}

// Permalink is the query string that holds q whole: the version, and for each side the
// release, the CPU model and every argument in order. ParsePermalink reads it back.
func Permalink(q Request) string {
	v := url.Values{}
	v.Set("v", q.Version)
	put := func(prefix string, c Command) {
		v.Set(prefix+"jdk", c.Release)
		v.Set(prefix+"cpu", c.CPU)
		v[prefix+"a"] = append([]string{}, c.Argv...)
	}
	put("", q.Command)
	if q.Compare != nil {
		put("b", *q.Compare)
	}
	return v.Encode()
}

// ParsePermalink reads a permalink's query string (with or without the leading "?") into
// its request.
func ParsePermalink(s string) (Request, error) {
	if len(s) > MaxBody {
		return Request{}, &Error{Status: 413, Message: fmt.Sprintf("permalink: longer than %d bytes", MaxBody)}
	}
	v, err := url.ParseQuery(strings.TrimPrefix(s, "?"))
	if err != nil {
		return Request{}, badRequest("", "permalink: %v", err)
	}
	for k := range v {
		if !slices.Contains([]string{"v", "jdk", "cpu", "a", "bjdk", "bcpu", "ba"}, k) {
			return Request{}, badRequest(k, "permalink: unknown parameter %q", k)
		}
	}
	q := Request{Version: v.Get("v"), Command: Command{Release: v.Get("jdk"), CPU: v.Get("cpu"), Argv: v["a"]}}
	if v.Has("bjdk") || v.Has("bcpu") || v.Has("ba") {
		q.Compare = &Command{Release: v.Get("bjdk"), CPU: v.Get("bcpu"), Argv: v["ba"]}
	}
	return q, nil
}

// refusal is one input the playground refuses because it would make the server read or
// write a file: the option as a person writes it, how to recognise it, and why.
type refusal struct {
	option string
	match  func(arg string) bool
	why    string
}

func prefix(p string) func(string) bool {
	return func(a string) bool { return strings.HasPrefix(a, p) }
}

// refusals are every file-system-touching input of `jitsim run`: options files, log
// files, archives and agents the parser opens or stats, and jitsim's own file options.
var refusals = []refusal{
	{"@argfile", prefix("@"), "reads an argument file"},
	{"-XX:Flags=", prefix("-XX:Flags="), "reads a flags file"},
	{"-XX:VMOptionsFile=", prefix("-XX:VMOptionsFile="), "reads an options file"},
	{"-XX:CompileCommandFile=", prefix("-XX:CompileCommandFile="), "reads a compile-command file"},
	{"-XX:LogFile=", prefix("-XX:LogFile="), "writes a log file"},
	{"-XX:+LogCompilation", prefix("-XX:+LogCompilation"), "writes hotspot_pid<pid>.log (or LogFile)"},
	{"-Xlog:…:file=", xlogToFile, "writes a log file (the playground logs to stdout only)"},
	{"-Xlog:…:stderr", xlogToStderr, "writes to the server's own stderr, not the run's (use stdout)"},
	{"-Xloggc:", prefix("-Xloggc:"), "names a log file"},
	{"-XX:SharedArchiveFile=", prefix("-XX:SharedArchiveFile="), "looks up an archive file"},
	{"-XX:ArchiveClassesAtExit=", prefix("-XX:ArchiveClassesAtExit="), "names an archive file"},
	{"-agentpath:", prefix("-agentpath:"), "opens a shared library"},
	{"-javaagent:", prefix("-javaagent:"), "names an agent jar"},
	{"-Djava.io.tmpdir=", prefix("-Djava.io.tmpdir="), "looks up a directory"},
	{"-jar", func(a string) bool { return flags.ProgramKind(a) != "" }, "names a program file or module; the playground runs jitsim's scenarios by name"},
	{"--out", prefix("--out"), "writes files"},
	{"--profile", prefix("--profile"), "reads a cost profile file"},
	{"--cpuprofile", prefix("--cpuprofile"), "writes a profile file"},
}

// xlogOutput returns an -Xlog option's output ("" when it names none).
func xlogOutput(a string) string {
	spec, ok := strings.CutPrefix(a, "-Xlog:")
	if !ok {
		return ""
	}
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

func xlogToStderr(a string) bool { o := xlogOutput(a); return o == "stderr" || o == "#1" }

// xlogToFile reports whether an -Xlog option sends its output anywhere but stdout or stderr
// (-Xlog:what:output:…; an output without "file=" is a file name too).
func xlogToFile(a string) bool {
	switch xlogOutput(a) {
	case "", "stdout", "stderr", "#0", "#1":
		return false
	}
	return true
}

// ownOptions are the jitsim options a playground command line may carry; the release, the
// CPU model and the clock are fields of the request.
var ownOptions = map[string]string{
	"--jdk":   "the release is the request's \"release\" field",
	"--cpu":   "the CPU model is the request's \"cpu\" field",
	"--clock": "the playground runs on the model clock only",
}

// Check validates q against this server (version), the named releases and CPU models, the
// size limits and the refusal list. catalog is the scenarios a command line may name.
func Check(q Request, version string, catalog []string) error {
	if q.Version != "" && q.Version != version {
		return &Error{Status: 409, Option: "version", Message: fmt.Sprintf("this link was made by jitsim %s; this server is jitsim %s, whose output may differ (open it in jitsim %s, or run it here without the version)", q.Version, version, q.Version)}
	}
	if err := checkCommand(q.Command, "", catalog); err != nil {
		return err
	}
	if q.Compare != nil {
		return checkCommand(*q.Compare, "compare.", catalog)
	}
	return nil
}

func checkCommand(c Command, field string, catalog []string) error {
	if _, err := jdk.Parse(c.Release); err != nil {
		return badRequest(field+"release", "%srelease %q: want one of %s", field, c.Release, strings.Join(jdk.Names(), ", "))
	}
	if c.CPU == "host" {
		return badRequest(field+"cpu", "%scpu \"host\" is refused: the playground runs named CPU models only, so that a link gives the same output on every machine (see /api/meta for the names)", field)
	}
	if _, err := cpu.Lookup(c.CPU); err != nil {
		return badRequest(field+"cpu", "%scpu %q: not a CPU model; want one of %s", field, c.CPU, strings.Join(CPUNames(), ", "))
	}
	if len(c.Argv) == 0 {
		return badRequest(field+"argv", "%sargv is empty: give VM options and a scenario (e.g. [\"-XX:+PrintCompilation\", \"TestAESMain\", \"200\", \"50\"]) or -version", field)
	}
	if len(c.Argv) > MaxArgs {
		return badRequest(field+"argv", "%sargv: %d arguments; at most %d", field, len(c.Argv), MaxArgs)
	}
	program := false
	for i := 0; i < len(c.Argv); i++ {
		a := c.Argv[i]
		if len(a) > MaxArgLen {
			return badRequest(a[:32]+"…", "%sargv[%d]: %d bytes; at most %d", field, i, len(a), MaxArgLen)
		}
		if program {
			if err := checkScenarioArg(a); err != nil {
				return err
			}
			continue
		}
		if err := checkOption(a); err != nil {
			return err
		}
		switch {
		case flags.TakesArgument(a):
			i++ // -cp PATH: java's value, checked and inert
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "@"):
			if !slices.Contains(catalog, a) {
				return badRequest(a, "%q is not one of jitsim's scenarios (%s); the playground runs scenarios by name, never files", a, strings.Join(catalog, ", "))
			}
			program = true
		}
	}
	return nil
}

// checkOption refuses an option of the refusal list, jitsim options the playground sets
// itself, and thread counts and message sizes above its limits.
func checkOption(a string) error {
	for _, r := range refusals {
		if r.match(a) {
			return badRequest(r.option, "%s is refused: it %s, and the playground touches no files", r.option, r.why)
		}
	}
	name, val, _ := strings.Cut(a, "=")
	if why, ok := ownOptions[name]; ok {
		return badRequest(name, "%s is refused: %s", name, why)
	}
	if name == "--threads" || name == "-Dthreads" {
		if n, err := strconv.Atoi(val); err != nil || n > MaxThreads {
			return badRequest(name, "%s=%s: the playground runs at most %d application threads", name, val, MaxThreads)
		}
		return nil
	}
	if strings.HasPrefix(a, "--") && !flags.IsLauncherOption(a) {
		return badRequest(name, "%s is refused: the playground takes java's options and --threads=N", name)
	}
	if prop, ok := strings.CutPrefix(name, "-D"); ok && slices.Contains(scenario.SizeProperties, prop) {
		if n, err := strconv.ParseInt(val, 10, 64); err == nil && n > MaxSize {
			return badRequest(name, "%s=%s: the playground's messages are at most %d bytes", name, val, MaxSize)
		}
	}
	return nil
}

// checkScenarioArg refuses a scenario argument that names a file: scenarios take numbers
// and words, scenario and workload files are what the playground does not read.
func checkScenarioArg(a string) error {
	if strings.ContainsAny(a, `/\`) || strings.HasSuffix(a, ".toml") || strings.HasSuffix(a, ".json") {
		return badRequest(a, "scenario argument %q looks like a file; the playground reads no files", a)
	}
	return nil
}

// CPUNames lists the named CPU models a request may choose (every model but "host").
func CPUNames() []string {
	var names []string
	for _, m := range cpu.Models() {
		if m.Name != "host" {
			names = append(names, m.Name)
		}
	}
	return names
}
