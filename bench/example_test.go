package bench_test

import (
	"fmt"
	"os"

	"github.com/jitsim/jitsim/bench"
)

// Six samples: stdev 7.106, t(0.9995, 5) = 6.869, error 6.869·7.106/√6.
func ExampleWriteText() {
	r := bench.Result{
		Benchmark: "org.openjdk.bench.javax.crypto.full.AESGCMBench.decrypt",
		Mode:      bench.AverageTime, Threads: 1, Forks: 2,
		Params:  []bench.Param{{Name: "dataSize", Value: "8192"}},
		Primary: bench.Metric{Unit: "ns/op", RawData: [][]float64{{6296.1, 6301.4, 6288.9}, {6310.2, 6295.5, 6299.0}}},
	}
	if err := bench.WriteText(os.Stdout, []bench.Result{r}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Benchmark            (dataSize)  Mode  Cnt     Score    Error  Units
	// AESGCMBench.decrypt        8192  avgt    6  6298.517 ± 19.926  ns/op
}

func ExampleParseOptions() {
	o, rest, err := bench.ParseOptions([]string{"-f", "1", "-wi", "3", "-bm", "avgt", "-p", "dataSize=1024,8192",
		"-rf", "json", "-XX:-UseAESCTRIntrinsics", "AESGCMBench"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(o.Forks, o.WarmupIterations, o.MeasurementIterations, o.Modes, o.Params, o.ResultFile, rest)
	_, _, err = bench.ParseOptions([]string{"-wi", "many"})
	fmt.Println(err)
	// Output:
	// 1 3 5 [avgt] [{dataSize [1024 8192]}] jmh-result.json [-XX:-UseAESCTRIntrinsics AESGCMBench]
	// bench: option -wi: "many" is not an integer ≥ 0
}
