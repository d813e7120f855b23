package warmup

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// StubReach is the first call of one run into one intrinsic's stub: what the VM's dispatch
// decided (a first-stub event), not a list kept by hand.
type StubReach struct {
	Method string        `json:"method"` // the intrinsic candidate, Class::name
	Stub   string        `json:"stub"`   // stub/variant
	Level  int           `json:"level"`  // the calling code's level
	At     time.Duration `json:"at_ns"`  // on the run's clock
	Iter   int           `json:"iter"`
}

// StubsReached lists a run's first calls into intrinsic stubs, in time order (one per
// method and stub: its first).
func StubsReached(r Run) []StubReach {
	var out []StubReach
	seen := map[[2]string]bool{}
	for _, it := range r.Iterations {
		for _, e := range it.Events {
			k := [2]string{e.Method, e.Detail}
			if e.Kind != EventFirstStub || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, StubReach{Method: e.Method, Stub: e.Detail, Level: e.Level, At: e.At, Iter: it.Index})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// ReleaseRow is one option set of a study across releases (`jitsim warmup --jdk=8,17,21,25`):
// the stubs its first fork reached, and its warm-up landmarks.
type ReleaseRow struct {
	Label  string
	JDK    string
	Stubs  []StubReach
	Steady bool
	// SteadyStart and WarmupCost are LabelSummary's (medians over the forks).
	SteadyStart, WarmupCost time.Duration
	// OpsPerSec and MBPerSec are the steady state's (or, without one, the final quarter's)
	// throughput on the run's clock: the first fork's operations and bytes over its time.
	OpsPerSec, MBPerSec float64
}

// Releases returns one row per option set of s, in order.
func Releases(runs []Run, s Summary) []ReleaseRow {
	var rows []ReleaseRow
	for _, l := range s.Labels {
		row := ReleaseRow{Label: l.Label, Steady: l.Steady, SteadyStart: l.SteadyStart, WarmupCost: l.WarmupCost}
		for _, r := range runs {
			if r.Label != l.Label {
				continue
			}
			row.JDK = r.JDK
			row.Stubs = StubsReached(r)
			from := len(r.Iterations) * 3 / 4
			for _, rs := range s.Runs {
				if rs.Label == r.Label && rs.Fork == r.Fork && rs.Analysis.Steady {
					from = rs.Analysis.SteadyIter
				}
			}
			var ops, bytes int64
			var d time.Duration
			for _, it := range r.Iterations[min(from, len(r.Iterations)):] {
				ops += it.ops()
				bytes += it.Bytes
				d += it.Duration
			}
			if d > 0 {
				row.OpsPerSec, row.MBPerSec = float64(ops)/d.Seconds(), float64(bytes)/d.Seconds()/1e6
			}
			break
		}
		rows = append(rows, row)
	}
	return rows
}

// stubText is a row's stubs in a few words: each stub with the level that first called it and
// when, or that the run called none.
func stubText(st []StubReach) string {
	if len(st) == 0 {
		return "none (Java code only)"
	}
	var parts []string
	for _, s := range st {
		parts = append(parts, fmt.Sprintf("%s from L%d at %s", s.Stub, s.Level, s.At.Round(time.Microsecond)))
	}
	return strings.Join(parts, "; ")
}

// WriteReleases writes the table of rows: per option set its JDK, the stubs reached, the time
// to steady state, the warm-up cost and the steady throughput.
func WriteReleases(w io.Writer, rows []ReleaseRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "option set\tJDK\tsteady at\twarm-up cost\tsteady ops/s\tsteady MB/s\tintrinsic stubs reached (first call: calling level, time)")
	for _, r := range rows {
		at, cost, note := "-", "-", ""
		if r.Steady {
			at, cost = r.SteadyStart.Round(time.Microsecond).String(), r.WarmupCost.Round(time.Microsecond).String()
		} else {
			note = " (final quarter)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f%s\t%.3f%s\t%s\n", r.Label, r.JDK, at, cost, r.OpsPerSec, note, r.MBPerSec, note, stubText(r.Stubs))
	}
	return tw.Flush()
}
