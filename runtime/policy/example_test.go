package policy_test

import (
	"fmt"
	"time"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/ergo"
	"github.com/jitsim/jitsim/runtime/policy"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// A loop-free method called 6000 times by the interpreter and then by its
// compiled code, with compiler threads that finish as soon as they look:
// level 3 is requested at the 256th call, level 4 when the level-3 code's
// MDO count reaches 5120. The configuration is JDK 17's with no options,
// settled for 8 processors.
func Example() {
	set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64})
	if err != nil {
		panic(err)
	}
	model, err := cpu.Lookup("icelake-server")
	if err != nil {
		panic(err)
	}
	if _, err := ergo.Settle(set, model, 8); err != nil {
		panic(err)
	}
	cfg, err := policy.FromFlags(set)
	if err != nil {
		panic(err)
	}
	c1, c2, _ := policy.CompilerCounts(8, cfg)
	p, err := policy.New(cfg, c1, c2)
	if err != nil {
		panic(err)
	}
	m := policy.NewMethod(policy.MethodInfo{Holder: "demo.Hot", Name: "work", Signature: "(I)I", CodeSize: 20})
	var now time.Duration
	for call := 1; call <= 6000; call++ {
		now += 10 * time.Microsecond
		level, _ := p.Level(m)
		d := p.Invoke(m, level, now)
		if d.Task == nil {
			continue
		}
		fmt.Printf("call %d: queue level %d\n", call, d.Task.Level)
		for _, c := range []policy.Compiler{policy.C1, policy.C2} {
			for t := p.Next(c, now); t != nil; t = p.Next(c, now) {
				fmt.Println(p.TaskLine(t, now))
				for _, ne := range p.Installed(t, now).NotEntrant {
					fmt.Println(p.NotEntrantLine(ne, now))
				}
			}
		}
	}
	// Output:
	// call 256: queue level 3
	//       2    1       3       demo.Hot::work (20 bytes)
	// call 5376: queue level 4
	//      53    2       4       demo.Hot::work (20 bytes)
	//      53    1       3       demo.Hot::work (20 bytes)   made not entrant
}
