package sweep

import (
	"strings"
	"testing"
)

// FuzzParse: no sweep file panics the parser, and an accepted one expands
// to cells with distinct ids that every shard count partitions.
func FuzzParse(f *testing.F) {
	f.Add([]byte(planText))
	f.Add([]byte(`scenario = "TestAESMain"`))
	f.Add([]byte("scenario = \"AESGCMBench\"\nsize_property = \"dataSize\"\nsizes = [0, 1]\noptions = [\"\", \" \"]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "sweep: fuzz.toml: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		cells := p.Cells()
		if len(cells) > 1<<12 {
			return // a valid but huge matrix: partitioning it is slow, not wrong
		}
		seen := map[string]bool{}
		for n := 1; n <= 3; n++ {
			clear(seen)
			for i := 1; i <= n; i++ {
				for _, c := range (Shard{i, n}).Cells(p) {
					if seen[c.ID] {
						t.Fatalf("cell %s in two of %d shards", c.ID, n)
					}
					seen[c.ID] = true
				}
			}
			if len(seen) != len(cells) {
				t.Fatalf("%d shards cover %d of %d cells", n, len(seen), len(cells))
			}
		}
	})
}
