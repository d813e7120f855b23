package bench

import (
	"fmt"
	"regexp"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParamSpace is one -p option: a parameter and the values to run it with.
type ParamSpace struct {
	Name   string
	Values []string
}

// Options are the JMH command-line options `jitsim bench` honours, with
// JMH's spellings and the defaults of JMH ≥ 1.21 (Defaults.java): 5 forks,
// 5 warm-up and 5 measurement iterations of 10 s, one thread, throughput.
type Options struct {
	WarmupIterations      int           // -wi
	MeasurementIterations int           // -i
	Forks                 int           // -f
	Threads               int           // -t ("max": every CPU)
	WarmupTime            time.Duration // -w
	MeasurementTime       time.Duration // -r
	WarmupBatchSize       int           // -wbs
	MeasurementBatchSize  int           // -bs
	Modes                 []Mode        // -bm (comma list, or "all")
	TimeUnit              string        // -tu; "" means the mode's default (s for thrpt, us otherwise)
	Params                []ParamSpace  // -p name=v1,v2 (repeatable)
	ResultFormat          Format        // -rf; "" writes no result file
	ResultFile            string        // -rff; default Format.DefaultFile() when -rf is given
	JVMArgs               []string      // -jvmArgs, -jvmArgsAppend, -jvmArgsPrepend, split on blanks
	Profilers             []string      // -prof (repeatable): "comp" is the one jitsim has
}

// Profilers are the -prof names jitsim has: JMH's label and what it
// measures here.
var Profilers = map[string]string{
	"comp": "compile time during each measurement iteration and in all, from the VM's compile events (JMH's CompilerProfiler)",
}

// DefaultOptions returns JMH's defaults.
func DefaultOptions() Options {
	return Options{WarmupIterations: 5, MeasurementIterations: 5, Forks: 5, Threads: 1,
		WarmupTime: 10 * time.Second, MeasurementTime: 10 * time.Second,
		WarmupBatchSize: 1, MeasurementBatchSize: 1, Modes: []Mode{Throughput}}
}

// optionTable is the one table of JMH options: name, what it sets.
var optionTable = map[string]func(o *Options, name, v string) error{
	"wi":  intOpt(func(o *Options) *int { return &o.WarmupIterations }, 0),
	"i":   intOpt(func(o *Options) *int { return &o.MeasurementIterations }, 1),
	"f":   intOpt(func(o *Options) *int { return &o.Forks }, 0),
	"wbs": intOpt(func(o *Options) *int { return &o.WarmupBatchSize }, 1),
	"bs":  intOpt(func(o *Options) *int { return &o.MeasurementBatchSize }, 1),
	"t": func(o *Options, name, v string) error {
		if v == "max" {
			o.Threads = goruntime.NumCPU()
			return nil
		}
		return intOpt(func(o *Options) *int { return &o.Threads }, 1)(o, name, v)
	},
	"w": durOpt(func(o *Options) *time.Duration { return &o.WarmupTime }),
	"r": durOpt(func(o *Options) *time.Duration { return &o.MeasurementTime }),
	"bm": func(o *Options, name, v string) error {
		o.Modes = nil
		for _, s := range strings.Split(v, ",") {
			if s == "all" {
				o.Modes = []Mode{Throughput, AverageTime, SampleTime, SingleShotTime}
				continue
			}
			m, err := ParseMode(s)
			if err != nil {
				return fmt.Errorf("bench: option -%s: %v", name, err)
			}
			o.Modes = append(o.Modes, m)
		}
		return nil
	},
	"tu": func(o *Options, name, v string) error {
		if _, ok := unitNanos[v]; !ok || v == "µs" {
			return fmt.Errorf("bench: option -%s: unknown time unit %q (want ns, us, ms, s, m or min, hr)", name, v)
		}
		o.TimeUnit = v
		return nil
	},
	"p": func(o *Options, name, v string) error {
		k, vals, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return fmt.Errorf("bench: option -%s: %q is not name=value[,value…]", name, v)
		}
		o.Params = append(o.Params, ParamSpace{Name: k, Values: strings.Split(vals, ",")})
		return nil
	},
	"rf": func(o *Options, name, v string) error {
		f, err := ParseFormat(v)
		if err != nil {
			return fmt.Errorf("bench: option -%s: %v", name, err)
		}
		o.ResultFormat = f
		return nil
	},
	"rff": func(o *Options, name, v string) error {
		if v == "" {
			return fmt.Errorf("bench: option -%s: empty file name", name)
		}
		o.ResultFile = v
		return nil
	},
	"prof": func(o *Options, name, v string) error {
		if _, ok := Profilers[v]; !ok {
			return fmt.Errorf("bench: option -prof %s: jitsim has the profiler comp only (%s)", v, Profilers["comp"])
		}
		if !slices.Contains(o.Profilers, v) {
			o.Profilers = append(o.Profilers, v)
		}
		return nil
	},
	"jvmArgs":        jvmArgs,
	"jvmArgsAppend":  jvmArgs,
	"jvmArgsPrepend": jvmArgs,
}

// unsupported are JMH options jitsim names in its error instead of passing
// them on as VM options.
var unsupported = map[string]bool{"o": true, "e": true, "gc": true, "si": true, "to": true,
	"opi": true, "jvm": true, "foe": true, "v": true, "wm": true, "wf": true, "l": true, "lp": true, "lrf": true, "lprof": true}

func intOpt(field func(*Options) *int, least int) func(o *Options, name, v string) error {
	return func(o *Options, name, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < least {
			return fmt.Errorf("bench: option -%s: %q is not an integer ≥ %d", name, v, least)
		}
		*field(o) = n
		return nil
	}
}

// timeValue is JMH's TimeValue syntax: a count and a unit, blank optional.
var timeValue = regexp.MustCompile(`^(\d+)\s*(ns|us|ms|s|min|m|hr)$`)

func durOpt(field func(*Options) *time.Duration) func(o *Options, name, v string) error {
	return func(o *Options, name, v string) error {
		m := timeValue.FindStringSubmatch(strings.TrimSpace(v))
		if m == nil {
			return fmt.Errorf("bench: option -%s: %q is not a time such as 10s, 500ms, 1min", name, v)
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || float64(n)*unitNanos[m[2]] > float64(1<<62) {
			return fmt.Errorf("bench: option -%s: %q is too long", name, v)
		}
		*field(o) = time.Duration(n) * time.Duration(unitNanos[m[2]])
		return nil
	}
}

func jvmArgs(o *Options, _ string, v string) error {
	o.JVMArgs = append(o.JVMArgs, strings.Fields(v)...)
	return nil
}

// JMHTime prints a duration as JMH's TimeValue does in "# Warmup: …" and
// the JSON "warmupTime": the count and the largest exact unit, "10 s",
// "500 ms", "1 min".
func JMHTime(d time.Duration) string {
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"hr", time.Hour}, {"min", time.Minute}, {"s", time.Second}, {"ms", time.Millisecond}, {"us", time.Microsecond}} {
		if d != 0 && d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d ns", int64(d))
}

// ParseOptions reads JMH's single-dash options from args, starting from
// DefaultOptions. An option's value is the next argument or follows '='
// (-wi 3, -wi=3). Arguments that are not JMH options (VM options such as
// -XX:…, the scenario) are returned in order in rest. A JMH option jitsim
// does not implement, a missing value or a bad value is an error naming the
// option.
func ParseOptions(args []string) (o Options, rest []string, err error) {
	o = DefaultOptions()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") || len(a) < 2 {
			rest = append(rest, a)
			continue
		}
		name, val, hasVal := strings.Cut(a[1:], "=")
		set, ok := optionTable[name]
		if !ok {
			if unsupported[name] {
				return o, nil, fmt.Errorf("bench: option -%s is a JMH option jitsim does not support", name)
			}
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return o, nil, fmt.Errorf("bench: option -%s needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := set(&o, name, val); err != nil {
			return o, nil, err
		}
	}
	if o.ResultFile != "" && o.ResultFormat == "" {
		// JMH's default format (Defaults.RESULT_FORMAT), whatever the
		// file is called.
		o.ResultFormat = FormatCSV
	}
	if o.ResultFormat != "" && o.ResultFile == "" {
		o.ResultFile = o.ResultFormat.DefaultFile()
	}
	return o, rest, nil
}
