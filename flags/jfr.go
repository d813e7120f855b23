package flags

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// JDK Flight Recorder's start-up options: -XX:FlightRecorderOptions and
// -XX:StartFlightRecording, which java takes after "=" or ":" (and, for
// StartFlightRecording, with nothing after the name). jitsim records nothing; it checks the
// options as JFR does when the VM starts and prints JFR's start lines. Every text and rule
// below was observed on OpenJDK 17.0.15 and Temurin 25.0.3.

// jfrValue is how JFR parses an option's value.
type jfrValue uint8

const (
	jfrString jfrValue = iota
	jfrInteger
	jfrMemory
	jfrBoolean
	jfrNanotime
)

// jfrOption is one key of FlightRecorderOptions or StartFlightRecording.
type jfrOption struct {
	name     string
	value    jfrValue
	releases jdk.Set // 0: all
}

// jfrRecorderOptions are FlightRecorderOptions' keys; another key fails the start.
var jfrRecorderOptions = []jfrOption{
	{name: "repository"}, {name: "stackdepth", value: jfrInteger}, {name: "numglobalbuffers", value: jfrInteger},
	{name: "globalbuffersize", value: jfrMemory}, {name: "threadbuffersize", value: jfrMemory},
	{name: "memorysize", value: jfrMemory}, {name: "maxchunksize", value: jfrMemory},
	{name: "old-object-queue-size", value: jfrInteger}, {name: "samplethreads", value: jfrBoolean},
	{name: "retransform", value: jfrBoolean},
	{name: "preserve-repository", value: jfrBoolean, releases: jdk.SinceFeature(21)}, // JDK-8303229
}

// jfrStartOptions are StartFlightRecording's keys; another key is taken as a setting of the
// .jfc file, with a warning when the file has no such setting.
var jfrStartOptions = []jfrOption{
	{name: "name"}, {name: "settings"}, {name: "filename"}, {name: "path-to-gc-roots", value: jfrBoolean},
	{name: "delay", value: jfrNanotime}, {name: "duration", value: jfrNanotime}, {name: "maxage", value: jfrNanotime},
	{name: "maxsize", value: jfrMemory}, {name: "disk", value: jfrBoolean}, {name: "dumponexit", value: jfrBoolean},
}

// jfrSettings are the .jfc files the JDK ships; another settings= value names a file.
var jfrSettings = []string{"default", "profile", "default.jfc", "profile.jfc"}

// jfrOptionArg returns the options after -XX:StartFlightRecording or
// -XX:FlightRecorderOptions in arg (the text after -XX:) and whether arg is one of them;
// java takes anything after StartFlightRecording that is not "=" or ":" as no options.
func jfrOptionArg(arg string) (name, opts string, ok bool) {
	for _, n := range []string{"StartFlightRecording", "FlightRecorderOptions"} {
		rest, found := strings.CutPrefix(arg, n)
		switch {
		case !found:
			continue
		case strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":"):
			return n, rest[1:], true
		case n == "StartFlightRecording":
			return n, "", true
		}
	}
	return "", "", false
}

// jfrArgument takes -XX:StartFlightRecording and -XX:FlightRecorderOptions options (arg is
// the text after -XX:) and reports whether arg was one.
func (p *parser) jfrArgument(arg string) bool {
	name, opts, ok := jfrOptionArg(arg)
	if !ok || !p.set.Has(name) {
		return false
	}
	if name == "StartFlightRecording" {
		p.jfrRecordings = append(p.jfrRecordings, opts)
	} else {
		p.jfrRecorderOptions = append(p.jfrRecorderOptions, opts)
	}
	return true
}

// jfrKeyValues splits JFR's "k=v,k=v" options; a key without "=" has the value "".
func jfrKeyValues(opts string) [][2]string {
	var kv [][2]string
	for _, part := range strings.Split(opts, ",") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		kv = append(kv, [2]string{k, v})
	}
	return kv
}

// jfrParseError returns JFR's text for a value that does not parse, "" when it does.
func jfrParseError(o jfrOption, v string) string {
	switch o.value {
	case jfrInteger:
		if !allDigits(strings.TrimPrefix(v, "-")) {
			return fmt.Sprintf("Integer parsing error in command argument '%s'. Could not parse: %s.", o.name, v)
		}
	case jfrBoolean:
		if v != "true" && v != "false" && v != "" {
			return fmt.Sprintf("Boolean parsing error in command argument '%s'. Could not parse: %s.", o.name, v)
		}
	case jfrMemory:
		return jfrMemoryError(v)
	case jfrNanotime:
		return jfrNanotimeError(v)
	}
	return ""
}

// jfrMemoryUnits are the suffixes JFR's memory sizes take: none, or k, m or g in either case,
// optionally followed by b or B ("5mb", "5kB"); "5t", "5B" and "5bb" are invalid.
var jfrMemoryUnits = []string{"", "k", "K", "m", "M", "g", "G"}

// jfrMemoryError returns JFR's text for a memory size that does not parse: a signed 64-bit
// number (no "+", no space, no overflow) and a unit, then not negative ("-0" passes). A size
// the unit overflows passes.
func jfrMemoryError(v string) string {
	n, unit, ok := jfrNumber(v)
	if ok {
		u := strings.TrimSuffix(strings.TrimSuffix(unit, "b"), "B")
		ok = slices.Contains(jfrMemoryUnits, u) && (u != "" || unit == "")
	}
	switch {
	case !ok:
		return "Parsing error memory size value: invalid value"
	case n < 0:
		return "Parsing error memory size value: negative values not allowed"
	}
	return ""
}

// jfrNanotimeUnits are the units of JFR's time spans.
var jfrNanotimeUnits = []string{"ns", "us", "ms", "s", "m", "h", "d"}

// jfrNanotimeError returns JFR's text for a time span that does not parse: a signed 64-bit
// number (no "+", no space, no overflow), then exactly one of the units.
func jfrNanotimeError(v string) string {
	_, unit, ok := jfrNumber(v)
	switch {
	case !ok:
		return "Integer parsing error nanotime value: syntax error"
	case unit == "":
		return "Integer parsing error nanotime value: unit required"
	case !slices.Contains(jfrNanotimeUnits, unit):
		return "Integer parsing error nanotime value: illegal unit"
	}
	return ""
}

// jfrNanos is a time span that parsed (jfrNanotimeError), in nanoseconds, saturated.
func jfrNanos(v string) int64 {
	n, unit, _ := jfrNumber(v)
	scale := map[string]int64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9}[unit]
	switch {
	case n > 0 && n > math.MaxInt64/scale:
		return math.MaxInt64
	case n < 0 && n < math.MinInt64/scale:
		return math.MinInt64
	}
	return n * scale
}

// jfrNumber reads the signed 64-bit decimal number at the start of v ("-" allowed, "+" and
// spaces not) and returns it with the rest of v; ok is false when there is no number or it
// overflows.
func jfrNumber(v string) (n int64, rest string, ok bool) {
	i := 0
	if strings.HasPrefix(v, "-") {
		i = 1
	}
	j := i
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	if j == i {
		return 0, v, false
	}
	n, err := strconv.ParseInt(v[:j], 10, 64)
	return n, v[j:], err == nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func findJFROption(table []jfrOption, j jdk.Release, name string) (jfrOption, bool) {
	for _, o := range table {
		if o.name == name && (o.releases == 0 || o.releases.Has(j)) {
			return o, true
		}
	}
	return jfrOption{}, false
}

// startJFR is JFR's start as the VM comes up: FlightRecorderOptions checked (a failure ends
// the start in on_create_vm_2), then each recording's options (on_create_vm_3), then the
// recordings' start lines, logged at jfr+startup=info, which JFR turns on for stdout unless
// -Xlog:disable turned logging off.
func (p *parser) startJFR() error {
	j := p.o.JDK
	// fail ends the start; a value error of FlightRecorderOptions (newline) ends its message
	// in a newline, which prints an empty second line, decorated from 25 on.
	fail := func(stage, tags, msg string, newline bool) error {
		log := []LogLine{{Level: "error", Tags: tags, Text: msg}}
		if newline {
			if behavesLike25(j) {
				log[0].Text += "\n"
			} else {
				log = append(log, LogLine{Plain: true})
			}
		}
		if !p.res.LogDisabled {
			log = append(slices.Clone(p.res.LogWarnings), log...)
		}
		return &Error{Text: "Error occurred during initialization of VM\nFailure when starting JFR on_create_vm_" + stage + "\n", Stdout: true, Log: log}
	}
	for _, opts := range p.jfrRecorderOptions {
		for _, kv := range jfrKeyValues(opts) {
			o, ok := findJFROption(jfrRecorderOptions, j, kv[0])
			if !ok {
				return fail("2", "arguments", "Unknown argument '"+kv[0]+"' in diagnostic command.", false)
			}
			if msg := jfrParseError(o, kv[1]); msg != "" {
				return fail("2", "arguments", msg, true)
			}
		}
	}
	if len(p.jfrRecordings) == 0 {
		return nil
	}
	if p.set.Has("FlightRecorder") && p.set.WasSetOnCommandLine("FlightRecorder") && !p.set.Bool("FlightRecorder") {
		p.res.RunLog = append(p.res.RunLog, LogLine{Plain: true, Text: "Flight Recorder is disabled.\n"})
		return nil
	}
	var lines []LogLine
	for n, opts := range p.jfrRecordings {
		given := map[string]string{}
		for _, kv := range jfrKeyValues(opts) {
			o, ok := findJFROption(jfrStartOptions, j, kv[0])
			if !ok {
				lines = append(lines, LogLine{Level: "warning", Tags: "jfr,start", Text: "The .jfc option/setting '" + kv[0] + "' doesn't exist."})
				continue
			}
			if msg := jfrParseError(o, kv[1]); msg != "" {
				return fail("3", "jfr,startup", msg, false)
			}
			given[kv[0]] = kv[1]
		}
		if s, ok := given["settings"]; ok && !slices.Contains(jfrSettings, s) {
			stat := p.o.Stat
			if stat == nil {
				stat = os.Stat
			}
			if _, err := stat(s); err != nil {
				msg := "Could not parse settings file '" + s + "'"
				if behavesLike25(j) {
					msg = "Could not find file '" + s + "'"
				}
				return fail("3", "jfr,startup", msg, false)
			}
		}
		// The time spans' lower bounds are checked after the settings file, duration's first
		// (observed on 17.0.15 and 25.0.3).
		for _, k := range []string{"duration", "delay"} {
			if v, ok := given[k]; ok && jfrNanos(v) < 1e9 {
				return fail("3", "jfr,startup", "Could not start recording, "+k+" must be at least 1 second.", false)
			}
		}
		disk := given["disk"] != "false"
		if _, ok := given["maxsize"]; ok && !disk && behavesLike25(j) {
			lines = append(lines, LogLine{Level: "warning", Tags: "jfr,start", Text: "Option maxsize has no effect with disk=false."})
		}
		id := fmt.Sprint(n + 1)
		name := id
		if v, ok := given["name"]; ok {
			name = v
		}
		file, hasFile := given["filename"]
		info := func(text string) { lines = append(lines, LogLine{Level: "info", Tags: "jfr,startup", Text: text}) }
		if _, ok := given["duration"]; ok && hasFile {
			abs, err := filepath.Abs(file)
			if err != nil {
				abs = file
			}
			info("Started recording " + id + ". The result will be written to:")
			info("")
			info(abs)
			continue
		}
		_, maxSize := given["maxsize"]
		_, maxAge := given["maxage"]
		_, duration := given["duration"]
		start := "Started recording " + id + "."
		if disk && !maxSize && !maxAge && !duration {
			start += " No limit specified, using maxsize=250MB as default."
		}
		info(start)
		info("")
		dump := "Use jcmd " + fmt.Sprint(os.Getpid()) + " JFR.dump name=" + name
		if !hasFile {
			dump += " filename=FILEPATH"
		}
		info(dump + " to copy recording data to file.")
	}
	if !p.res.LogDisabled {
		p.res.Logs = append(p.res.Logs, LogConfig{Selections: []LogSelection{{Tags: []string{"jfr", "startup"}, Level: "info"}}, Output: "stdout"})
	}
	p.res.RunLog = append(p.res.RunLog, lines...)
	return nil
}
