package runtime

import (
	"context"
	"time"

	"github.com/jitsim/jitsim/runtime/model"
)

// Sleep is Thread.sleep(d) of an application thread: on the model clock
// the thread's virtual time moves on by d (other threads and compiler
// threads run meanwhile, in virtual-time order) and no real time passes;
// on the wall clock the goroutine sleeps for d, or until ctx ends. A
// think time between a workload's operations is such a sleep.
func (th *Thread) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	if th != nil && th.vm != nil && th.vm.sim != nil {
		if th.entered {
			th.vm.sim.s.Sleep(th.sim, model.Cost(d)*1000)
		}
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
