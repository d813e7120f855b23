package model_test

import (
	"fmt"

	"github.com/jitsim/jitsim/runtime/model"
)

// Example shows the calls the VM makes under the model clock: one
// application thread runs interpreted CTR code until a C2 compile (queued
// on a one-thread pool) installs, after which the call site goes to the
// stub. The compile finishes in virtual time and the thread sees it at the
// first call that starts after that time.
func Example() {
	p, err := model.Lookup("haswell-e5-2660v3")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := model.NewScheduler()
	var queue []string
	installed := false
	c2 := s.NewPool("C2", 1, func(at model.Cost) (model.Job, bool) { // the VM wraps policy.Next here
		if len(queue) == 0 {
			return model.Job{}, false
		}
		m := queue[0]
		queue = queue[1:]
		cost, _ := p.CompileCost(model.WhatCompileC2, m, 300)
		return model.Job{Name: m, Cost: cost, Done: func(at model.Cost) { installed = true }}, true
	})
	th := s.NewThread("main", 0)
	s.Enter(th)
	last := ""
	for i := range 400 {
		var c model.Cost
		if installed {
			stub, _ := p.Cost(model.Stub("aesni-parallel6"), "counterMode_AESCrypt", 4096)
			disp, _ := p.Cost(model.WhatDispatch, "counterMode_AESCrypt", 0)
			c = stub + disp
		} else {
			c, _ = p.Cost(model.WhatInterp, "CounterMode.implCrypt", 4096)
		}
		if kind := map[bool]string{false: "interpreted", true: "stub"}[installed]; kind != last {
			fmt.Printf("call %d at %v: %v (%s)\n", i, s.Now(th), c, kind)
			last = kind
		}
		if i == 0 {
			queue = append(queue, "CounterMode.implCrypt")
			c2.Wake(s.Now(th))
		}
		s.Advance(th, c)
	}
	s.Exit(th)
	fmt.Println("thread ends at", s.Now(th))
	// Output:
	// call 0 at 0ps: 135.589µs (interpreted)
	// call 35 at 4.745646ms: 788.768ns (stub)
	// thread ends at 5.033546ms
}
