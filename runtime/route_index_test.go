package runtime

import (
	"testing"

	"github.com/jitsim/jitsim/bytecode"
)

// TestCalleeIndex checks the dispatch point's open-addressed callee index
// against the map it replaces, for table sizes around the growth points
// (every method found, a foreign *Method not found).
func TestCalleeIndex(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 8, 17, 64, 100} {
		t.Run("", func(t *testing.T) {
			var sts []*methodState
			want := map[*Method]*methodState{}
			for range n {
				st := &methodState{m: &bytecode.Method{}}
				sts = append(sts, st)
				want[st.m] = st
			}
			var ix calleeIndex
			ix.build(sts)
			for m, st := range want {
				if got := ix.get(m); got != st {
					t.Fatalf("n=%d: get(%p) = %p, want %p", n, m, got, st)
				}
			}
			if got := ix.get(&bytecode.Method{}); got != nil {
				t.Fatalf("n=%d: a foreign method found %p", n, got)
			}
			if got := ix.get(nil); got != nil {
				t.Fatalf("n=%d: nil method found %p", n, got)
			}
		})
	}
}
