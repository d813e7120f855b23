package runtime

import (
	"slices"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/gcm"
)

// TestSubkeyTableCopiesPowers checks that a caller's zeroed full-size
// subkeyHtbl handed to a stub binding ends up exactly as the bound
// variant's own first-use precompute would have filled it, for several H,
// and that a short table gets a full one with the same H; and that a
// binding of the generic twin, which reads only H, writes no powers.
func TestSubkeyTableCopiesPowers(t *testing.T) {
	for _, v := range gcm.GHASHVariants() {
		if !cpu.Host().HasAll(v.Needs()) {
			continue
		}
		t.Run(v.Name(), func(t *testing.T) {
			tables := &subkeyTables{impl: v.ID}
			for i, h := range [][2]uint64{{1, 0}, {0x66e94bd4ef8a2c3b, 0x884cfa59ca342b2e}, {0xdeadbeef, 0xfeedface12345678}} {
				want := make([]uint64, gcm.HtblLen)
				want[0], want[1] = h[0], h[1]
				var st [2]uint64
				v.Fn(&st, want, make([]byte, 16), 1) // an asm stub fills its powers on first use
				if v.ID.IsGeneric() && slices.ContainsFunc(want[2:], func(w uint64) bool { return w != 0 }) {
					t.Fatal("the generic twin wrote into the subkey table")
				}
				for round := range 2 { // second round: a fresh table after the cache is warm
					got := make([]uint64, gcm.HtblLen)
					got[0], got[1] = h[0], h[1]
					tab, err := tables.get(nil, bytecode.LongsArg(got))
					if err != nil {
						t.Fatal(err)
					}
					if &tab[0] != &got[0] {
						t.Fatalf("H #%d round %d: a full-size table was not used in place", i, round)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("H #%d round %d: copied powers differ from the stub's own", i, round)
					}
				}
				short, err := tables.get(nil, bytecode.LongsArg([]uint64{h[0], h[1]}))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(short, want) {
					t.Fatalf("H #%d: the table for a short subkeyHtbl differs from the stub's own", i)
				}
			}
		})
	}
}
