package warmup

import (
	"fmt"
	"testing"
)

// BenchmarkAnalyze measures the whole analysis (outlier filter, PELT,
// classification) on a warm-up series and on pure noise, where pruning helps
// least.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{200, 2000, 10000} {
		for _, kind := range []string{"warmup", "noise"} {
			var x []float64
			if kind == "warmup" {
				x = steps(1, 0.02, [2]float64{4, float64(n / 20)}, [2]float64{2, float64(n / 10)}, [2]float64{1, float64(n - n/20 - n/10)})
			} else {
				x = steps(2, 0.05, [2]float64{1, float64(n)})
			}
			b.Run(fmt.Sprintf("%s/n=%d", kind, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := Analyze(x, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
