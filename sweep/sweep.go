// Package sweep holds the matrix side of `jitsim sweep`: a sweep file
// (TOML) names one scenario and the axes to cross — option sets, CPU
// models, message sizes and JDK profiles; Plan.Cells expands them into
// cells with stable ids; a Shard takes every N-th id in sorted order, so
// that shards are disjoint, cover the plan, are balanced and do not depend
// on axis order or on the machine; Merge joins shard outputs into what one unsharded run
// writes. Running a cell (a VM, the scenario) is the command's job; this
// package has no VM in it.
//
// Cell timings on the wall clock differ from run to run (on the model
// clock they do not); what a merge must reproduce are the cell set and
// each cell's outcome: status, operations and bytes processed with every
// output checked against crypto/cipher (Result.Same).
package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/jitsim/jitsim/jdk"
)

// Plan is a sweep file.
type Plan struct {
	// Name titles the sweep.
	Name string `toml:"name"`
	// Scenario is a name from `jitsim scenarios`.
	Scenario string `toml:"scenario"`
	// Args are the scenario's positional arguments (kept small: a cell is
	// one short run).
	Args []string `toml:"args"`
	// Props are -D properties every cell gets.
	Props map[string]string `toml:"props"`
	// SizeProperty is the property the sizes axis sets (e.g. "dataSize",
	// "msgSize").
	SizeProperty string `toml:"size_property"`
	// Sizes, JDKs, CPUs and Options are the axes; an empty axis is one
	// default value (no size property, jdk.Default, "host", the
	// default option set "").
	Sizes   []int    `toml:"sizes"`
	JDKs    []string `toml:"jdks"`
	CPUs    []string `toml:"cpus"`
	Options []string `toml:"options"`
}

// Cell is one point of the matrix.
type Cell struct {
	ID      string `json:"id"`
	JDK     string `json:"jdk"`
	CPU     string `json:"cpu"`
	Size    int    `json:"size,omitempty"` // 0: no size axis
	Options string `json:"options"`        // java options, blank-separated; "" is the default set
}

// Parse reads a sweep file's bytes; name is used in errors.
func Parse(name string, data []byte) (*Plan, error) {
	var p Plan
	md, err := toml.Decode(string(data), &p)
	if err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("sweep: %s: unknown key %q (known: name, scenario, args, props, size_property, sizes, jdks, cpus, options)", name, und[0].String())
	}
	if p.Scenario == "" {
		return nil, fmt.Errorf("sweep: %s: no scenario", name)
	}
	if len(p.Sizes) > 0 && p.SizeProperty == "" {
		return nil, fmt.Errorf("sweep: %s: sizes given without size_property (the property they set)", name)
	}
	for _, s := range p.Sizes {
		if s < 0 {
			return nil, fmt.Errorf("sweep: %s: size %d is negative", name, s)
		}
	}
	seen := map[string]bool{}
	for _, c := range p.Cells() {
		if seen[c.ID] {
			return nil, fmt.Errorf("sweep: %s: cell %s appears twice (a repeated axis value)", name, c.ID)
		}
		seen[c.ID] = true
	}
	return &p, nil
}

// Load reads a sweep file and returns the plan and the SHA-256 of its bytes
// (outputs carry it, so that merge refuses shards of different files).
func Load(path string) (*Plan, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("sweep: %w", err)
	}
	p, err := Parse(path, data)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(data)
	return p, hex.EncodeToString(sum[:]), nil
}

// orDefault returns axis, or the one default value when it is empty.
func orDefault[T any](axis []T, def T) []T {
	if len(axis) == 0 {
		return []T{def}
	}
	return axis
}

// Cells expands the plan, option sets varying fastest, then sizes, CPU
// models and JDK profiles. A cell's id names its coordinates:
// "jdk=17/cpu=host/size=1024/opts=-Xint".
func (p *Plan) Cells() []Cell {
	var out []Cell
	for _, rel := range orDefault(p.JDKs, jdk.Default.String()) {
		for _, cpu := range orDefault(p.CPUs, "host") {
			for _, size := range orDefault(p.Sizes, 0) {
				for _, o := range orDefault(p.Options, "") {
					o = strings.Join(strings.Fields(o), " ")
					c := Cell{JDK: rel, CPU: cpu, Size: size, Options: o}
					id := "jdk=" + rel + "/cpu=" + cpu
					if len(p.Sizes) > 0 {
						id += "/" + p.SizeProperty + "=" + strconv.Itoa(size)
					}
					if o == "" {
						o = "default"
					}
					c.ID = id + "/opts=" + o
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// Shard is shard I of N (1-based), as --shard I/N writes it.
type Shard struct{ I, N int }

// All is the whole plan: shard 1 of 1.
var All = Shard{1, 1}

// ParseShard reads "i/n" with 1 ≤ i ≤ n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("sweep: --shard %q: want i/n with 1 ≤ i ≤ n, e.g. 1/2", s)
	}
	return Shard{i, n}, nil
}

// String is "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Cells returns the plan's cells that belong to the shard, in plan order:
// with the plan's ids sorted, the k-th id (0-based) goes to shard k mod N +
// 1. The assignment depends on the set of ids alone — not on the order of
// the axes in the file, the machine or the run — and shards differ in size
// by at most one cell. (Hashing ids instead split 24 near-identical ids 6/18
// or 8/16 between two shards.)
func (s Shard) Cells(p *Plan) []Cell {
	cells := p.Cells()
	ids := make([]string, len(cells))
	for i, c := range cells {
		ids[i] = c.ID
	}
	sort.Strings(ids)
	mine := map[string]bool{}
	for k, id := range ids {
		if k%s.N == s.I-1 {
			mine[id] = true
		}
	}
	var out []Cell
	for _, c := range cells {
		if mine[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// Result is what running one cell gave.
type Result struct {
	Cell
	// Status is "ok", or "error" with Error saying why (a Java exception,
	// a flag the JDK profile does not have): a deterministic outcome too.
	Status     string `json:"status"`
	Error      string `json:"error,omitempty"`
	Iterations int    `json:"iterations"`
	Ops        int64  `json:"ops"`
	Bytes      int64  `json:"bytes"`
	// Verified is true when every output of the run was checked byte for
	// byte against crypto/cipher (the scenario's checkOutput).
	Verified   bool  `json:"verified"`
	DurationNS int64 `json:"duration_ns"` // time of the measured iterations on the sweep's clock; not compared
}

// Same reports whether two results of one cell have the same outcome:
// everything but the timing.
func (r Result) Same(o Result) bool {
	r.DurationNS, o.DurationNS = 0, 0
	return r == o
}

// Output is one sweep run's results: the whole plan or one shard of it.
type Output struct {
	Name       string   `json:"name"`
	Scenario   string   `json:"scenario"`
	PlanSHA256 string   `json:"plan_sha256"`
	Shards     []string `json:"shards"` // "1/2"…; a merge lists every shard it joined
	PlanCells  int      `json:"plan_cells"`
	// Clock is the clock the cells ran on: "wall", or "model" (the model
	// clock, on which any CPU model runs and timings repeat). Empty reads
	// as "wall".
	Clock string   `json:"clock,omitempty"`
	Cells []Result `json:"cells"` // sorted by id

	// File is the file Read read the output from ("" for one built in
	// memory); merge errors name it.
	File string `json:"-"`
}

// Files are the names an Output is written to in its directory.
const (
	JSONFile = "sweep.json"
	CSVFile  = "sweep.csv"
)

// Write writes o into dir (created if missing) as sweep.json and sweep.csv.
func Write(dir string, o Output) error {
	sort.Slice(o.Cells, func(i, j int) bool { return o.Cells[i].ID < o.Cells[j].ID })
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	var j bytes.Buffer
	enc := json.NewEncoder(&j)
	enc.SetIndent("", "  ")
	if err := enc.Encode(o); err != nil {
		return err
	}
	var c bytes.Buffer
	if err := WriteCSV(&c, o.Cells); err != nil {
		return err
	}
	for name, b := range map[string][]byte{JSONFile: j.Bytes(), CSVFile: c.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	return nil
}

// WriteCSV writes one row per cell.
func WriteCSV(w io.Writer, cells []Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "jdk", "cpu", "size", "options", "status", "iterations", "ops", "bytes", "verified", "duration_ns", "error"}) //nolint:errcheck // cw.Error reports it
	for _, r := range cells {
		cw.Write([]string{r.ID, r.JDK, r.CPU, strconv.Itoa(r.Size), r.Options, r.Status, strconv.Itoa(r.Iterations), //nolint:errcheck // as above
			strconv.FormatInt(r.Ops, 10), strconv.FormatInt(r.Bytes, 10), strconv.FormatBool(r.Verified),
			strconv.FormatInt(r.DurationNS, 10), r.Error})
	}
	cw.Flush()
	return cw.Error()
}

// Read reads dir/sweep.json.
func Read(dir string) (Output, error) {
	var o Output
	data, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		return o, fmt.Errorf("sweep: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, fmt.Errorf("sweep: %s: %w", filepath.Join(dir, JSONFile), err)
	}
	o.File = filepath.Join(dir, JSONFile)
	return o, nil
}

// Merge joins the shard outputs of one sweep: the same file hash, run on
// the same clock, each shard once — but for a run stopped by a signal,
// whose partial output merges with the shard's re-run (two complete
// outputs of one shard are an error). Shards never share cells; a cell in
// two outputs must have the same outcome, and the first timing is kept.
// The result lists every shard joined; Missing says whether cells are
// still absent. An error names the outputs' files (Output.File, or
// "output N" for one not read from a file).
func Merge(outs []Output) (Output, error) {
	if len(outs) == 0 {
		return Output{}, errors.New("sweep: merge: no outputs")
	}
	name := func(i int) string {
		if outs[i].File != "" {
			return outs[i].File
		}
		return fmt.Sprintf("output %d", i+1)
	}
	clockOf := func(o Output) string {
		if o.Clock == "" {
			return "wall"
		}
		return o.Clock
	}
	m := Output{Name: outs[0].Name, Scenario: outs[0].Scenario, PlanSHA256: outs[0].PlanSHA256, PlanCells: outs[0].PlanCells, Clock: outs[0].Clock}
	byID := map[string]Result{}
	from := map[string]int{} // shard -> the output that brought it
	for i, o := range outs {
		if o.PlanSHA256 != m.PlanSHA256 {
			return Output{}, fmt.Errorf("sweep: merge: %s is of another sweep file than %s (sha256 %.12s…, not %.12s…)", name(i), name(0), o.PlanSHA256, m.PlanSHA256)
		}
		if clockOf(o) != clockOf(m) {
			return Output{}, fmt.Errorf("sweep: merge: %s ran on the %s clock, %s on the %s clock", name(i), clockOf(o), name(0), clockOf(m))
		}
		for _, s := range o.Shards {
			if j, dup := from[s]; dup && outs[j].complete() && o.complete() {
				return Output{}, fmt.Errorf("sweep: merge: %s and %s are both shard %s", name(j), name(i), s)
			}
			if _, dup := from[s]; !dup || o.complete() {
				from[s] = i
			}
		}
		for _, r := range o.Cells {
			if prev, ok := byID[r.ID]; ok {
				if !prev.Same(r) {
					return Output{}, fmt.Errorf("sweep: merge: %s: cell %s differs from the earlier outputs' (%s, %d bytes vs %s, %d bytes)", name(i), r.ID, prev.Status, prev.Bytes, r.Status, r.Bytes)
				}
				continue
			}
			byID[r.ID] = r
		}
	}
	for s := range from {
		m.Shards = append(m.Shards, s)
	}
	sort.Strings(m.Shards)
	for _, r := range byID {
		m.Cells = append(m.Cells, r)
	}
	sort.Slice(m.Cells, func(i, j int) bool { return m.Cells[i].ID < m.Cells[j].ID })
	return m, nil
}

// complete reports whether o has every cell of the shards it lists (a run
// stopped by a signal has fewer).
func (o Output) complete() bool {
	want := 0
	for _, s := range o.Shards {
		sh, err := ParseShard(s)
		if err != nil || o.PlanCells < sh.I {
			continue
		}
		want += (o.PlanCells-sh.I)/sh.N + 1
	}
	return len(o.Cells) >= want
}

// Missing returns how many of the plan's cells the output lacks.
func (o Output) Missing() int { return o.PlanCells - len(o.Cells) }

// Diff lists the differences of outcome between two outputs, cell by cell
// (a cell in one only, or with another status, count or verification).
func Diff(a, b Output) []string {
	am, bm := map[string]Result{}, map[string]Result{}
	for _, r := range a.Cells {
		am[r.ID] = r
	}
	for _, r := range b.Cells {
		bm[r.ID] = r
	}
	var out []string
	for id, r := range am {
		o, ok := bm[id]
		switch {
		case !ok:
			out = append(out, "only in the first: "+id)
		case !r.Same(o):
			out = append(out, fmt.Sprintf("%s: %+v vs %+v", id, r, o))
		}
	}
	for id := range bm {
		if _, ok := am[id]; !ok {
			out = append(out, "only in the second: "+id)
		}
	}
	sort.Strings(out)
	return out
}
