package warmup_test

import (
	"fmt"
	"os"
	"time"

	"github.com/jitsim/jitsim/warmup"
)

// A model-clock run: 20 interpreted iterations at 40 µs/op, 30 at C1's
// 12 µs/op, then C2 with the AES stub at 2 µs/op. The warm-up cost is
// 20·100·(40−2) µs + 30·100·(12−2) µs = 106 ms. A model-clock run is
// analysed with the scale-free cost: R's (warmup_stats's) would split its
// exact plateaus where the rounding of its sums leaves a tiny variance.
func ExampleAnalyzeRun() {
	r := warmup.Run{Label: "-XX:+UseAESIntrinsics", Clock: "model"}
	var at time.Duration
	for i := range 200 {
		per := 2 * time.Microsecond
		switch {
		case i < 20:
			per = 40 * time.Microsecond
		case i < 50:
			per = 12 * time.Microsecond
		}
		d := 100 * per // 100 ops per iteration
		r.Iterations = append(r.Iterations, warmup.Iteration{Index: i, Start: at, Duration: d, Ops: 100})
		at += d
	}
	a, err := warmup.AnalyzeRun(r, warmup.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Cost, a.Class, a.Changepoints, a.SteadyIter, warmup.FormatPerOp(a.SteadyMean), a.SteadyStart, a.WarmupCost)
	fmt.Println(warmup.Sparkline(r.PerOp(), 20))
	// Output:
	// scale-free warmup [20 50] 50 2.00 µs 116ms 106ms
	// ██▂▂▂▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁
}

func ExampleWriteTerminal() {
	mk := func(label string, slow int) warmup.Run {
		r := warmup.Run{Label: label}
		for i := range 100 {
			d := time.Millisecond
			if i < slow {
				d = 5 * time.Millisecond
			}
			r.Iterations = append(r.Iterations, warmup.Iteration{Index: i, Start: time.Duration(i) * 10 * time.Millisecond, Duration: d})
		}
		return r
	}
	runs := []warmup.Run{mk("-XX:+UseAESIntrinsics", 10), mk("-Xint", 0)}
	s, _ := warmup.Summarize(runs, warmup.Options{Cost: warmup.CostScaleFree}) // exact plateaus
	warmup.WriteTerminal(os.Stdout, s, runs, 10)
	// Output:
	// option set             class              forks  steady@iter   steady at  half speed at    steady/op  warm-up cost  time per op
	// -XX:+UseAESIntrinsics  warmup                 1           10       100ms          100ms      1.00 ms          40ms  █▁▁▁▁▁▁▁▁▁
	// -Xint                  flat                   1            0          0s             0s      1.00 ms            0s  ▁▁▁▁▁▁▁▁▁▁
	//
	// -XX:+UseAESIntrinsics: steady from iteration 10
	// -Xint: steady from the first iteration
}
