package sweep

import (
	"slices"
	"strings"
	"testing"
)

const planText = `
name = "t"
scenario = "AESGCMBench"
args = ["0", "1", "1"]
props = { op = "decrypt" }
size_property = "dataSize"
sizes = [16, 1024, 16384]
jdks = ["8u", "17", "21", "25"]
cpus = ["host"]
options = ["", "-Xint"]
`

func mustPlan(t *testing.T, text string) *Plan {
	t.Helper()
	p, err := Parse("plan.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCells(t *testing.T) {
	p := mustPlan(t, planText)
	cells := p.Cells()
	if len(cells) != 24 {
		t.Fatalf("%d cells, want 4 JDKs × 1 CPU × 3 sizes × 2 option sets = 24", len(cells))
	}
	for i, want := range []string{"jdk=8u/cpu=host/dataSize=16/opts=default", "jdk=8u/cpu=host/dataSize=16/opts=-Xint", "jdk=8u/cpu=host/dataSize=1024/opts=default"} {
		if cells[i].ID != want {
			t.Errorf("cell %d id %q, want %q", i, cells[i].ID, want)
		}
	}
	if c := cells[1]; c.JDK != "8u" || c.CPU != "host" || c.Size != 16 || c.Options != "-Xint" {
		t.Errorf("cell 1 = %+v", c)
	}
	d := mustPlan(t, `scenario = "TestAESMain"`).Cells()
	if len(d) != 1 || d[0].ID != "jdk=25/cpu=host/opts=default" {
		t.Errorf("default axes: %+v", d)
	}
}

// TestShardsPartition checks, for N = 1…7, that the shards are disjoint,
// cover the plan, differ in size by at most one, and do not change when the
// file lists its axes in another order.
func TestShardsPartition(t *testing.T) {
	p := mustPlan(t, planText)
	q := mustPlan(t, strings.ReplaceAll(strings.ReplaceAll(planText, `["8u", "17", "21", "25"]`, `["25", "21", "17", "8u"]`),
		`[16, 1024, 16384]`, `[16384, 16, 1024]`))
	for n := 1; n <= 7; n++ {
		seen := map[string]int{}
		lo, hi := len(p.Cells()), 0
		for i := 1; i <= n; i++ {
			s := Shard{i, n}
			cs := s.Cells(p)
			lo, hi = min(lo, len(cs)), max(hi, len(cs))
			var a, b []string
			for _, c := range cs {
				seen[c.ID]++
				a = append(a, c.ID)
			}
			for _, c := range s.Cells(q) {
				b = append(b, c.ID)
			}
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("shard %s depends on axis order", s)
			}
		}
		if len(seen) != 24 || hi-lo > 1 {
			t.Errorf("N=%d: %d distinct cells, sizes %d…%d", n, len(seen), lo, hi)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("N=%d: %s in %d shards", n, id, k)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`scenario = "X"` + "\ncolour = 1", `unknown key "colour"`},
		{`name = "x"`, "no scenario"},
		{`scenario = "X"` + "\nsizes = [1]", "without size_property"},
		{`scenario = "X"` + "\nsize_property = \"n\"\nsizes = [-1]", "negative"},
		{`scenario = "X"` + "\noptions = [\"-Xint\", \" -Xint \"]", "appears twice"},
		{`scenario = `, "plan.toml"},
	} {
		_, err := Parse("plan.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.text, err, tc.want)
		}
	}
	for _, s := range []string{"0/2", "3/2", "1/0", "1", "a/b", "1/2/3"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) accepted", s)
		}
	}
	if s, err := ParseShard("2/3"); err != nil || s != (Shard{2, 3}) || s.String() != "2/3" {
		t.Errorf("ParseShard(2/3) = %v, %v", s, err)
	}
}

func TestWriteReadMerge(t *testing.T) {
	p := mustPlan(t, planText)
	res := func(c Cell) Result {
		return Result{Cell: c, Status: "ok", Iterations: 1, Ops: 1, Bytes: int64(c.Size), Verified: true, DurationNS: int64(len(c.ID))}
	}
	var whole Output
	whole.PlanSHA256, whole.PlanCells, whole.Shards = "abc", 24, []string{"1/1"}
	for _, c := range p.Cells() {
		whole.Cells = append(whole.Cells, res(c))
	}
	var dirs []string
	for i := 1; i <= 3; i++ {
		o := Output{PlanSHA256: "abc", PlanCells: 24, Shards: []string{Shard{i, 3}.String()}}
		for _, c := range (Shard{i, 3}).Cells(p) {
			r := res(c)
			r.DurationNS += 7 // timings differ between runs
			o.Cells = append(o.Cells, r)
		}
		dir := t.TempDir()
		if err := Write(dir, o); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	var outs []Output
	for _, d := range dirs {
		o, err := Read(d)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o)
	}
	m, err := Merge(outs)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(whole, m); len(d) != 0 || m.Missing() != 0 || !slices.Equal(m.Shards, []string{"1/3", "2/3", "3/3"}) {
		t.Errorf("merge differs from the whole: %v (missing %d, shards %v)", d, m.Missing(), m.Shards)
	}
	if d := Diff(whole, outs[0]); len(d) == 0 {
		t.Errorf("Diff finds no difference between the whole and one shard")
	}
	bad := outs[1]
	bad.Cells = slices.Clone(bad.Cells)
	bad.Cells[0].Bytes++
	bad.Shards, bad.File = []string{"9/9"}, "rerun/sweep.json"
	if _, err := Merge([]Output{outs[1], bad}); err == nil || !strings.Contains(err.Error(), "rerun/sweep.json: cell ") {
		t.Errorf("merge of conflicting cells: %v", err)
	}
	// The same shard twice is an error naming both files.
	if _, err := Merge([]Output{outs[0], outs[1], outs[0]}); err == nil ||
		!strings.Contains(err.Error(), outs[0].File+" and "+outs[0].File+" are both shard 1/3") {
		t.Errorf("merge of one shard twice: %v", err)
	}
	// A shard stopped part-way merges with its re-run.
	partial := outs[0]
	partial.Cells, partial.File = partial.Cells[:3], "stopped/sweep.json"
	if m, err := Merge([]Output{partial, outs[0], outs[1], outs[2]}); err != nil || len(m.Cells) != 24 {
		t.Errorf("merge of a stopped shard with its re-run: %v", err)
	}
	other := outs[2]
	other.PlanSHA256, other.File = "def", "other/sweep.json"
	if _, err := Merge([]Output{outs[0], other}); err == nil || !strings.Contains(err.Error(), "other/sweep.json is of another sweep file than "+outs[0].File) {
		t.Errorf("merge across sweep files: %v", err)
	}
	model := outs[2]
	model.Clock, model.File = "model", "model/sweep.json"
	if _, err := Merge([]Output{outs[0], model}); err == nil || !strings.Contains(err.Error(), "model/sweep.json ran on the model clock, "+outs[0].File+" on the wall clock") {
		t.Errorf("merge across clocks: %v", err)
	}
	if _, err := Merge([]Output{{PlanSHA256: "abc", Shards: []string{"1/2"}}, {PlanSHA256: "abc", Shards: []string{"1/2"}}}); err == nil ||
		!strings.Contains(err.Error(), "output 1 and output 2 are both shard 1/2") {
		t.Errorf("merge of unnamed outputs: %v", err)
	}
	if _, err := Merge(nil); err == nil {
		t.Errorf("merge of nothing accepted")
	}
}
