package model

import (
	"container/heap"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ThreadID names a simulated application thread of a Scheduler.
type ThreadID int

// Scheduler is the model clock's deterministic discrete-event simulation:
// each simulated application thread has its own virtual time, events
// (compile completions, compiler threads taking work) sit in one queue
// ordered by (time, posting sequence), and simulated compiler threads are
// servers that take jobs from a caller-supplied selection function (the
// VM's policy.Next, the same queue policy as the wall clock).
//
// Application threads may be real goroutines. They take turns: a thread
// runs only while it holds the turn, and the turn goes to the active
// thread with the smallest (virtual time, ThreadID). Before a thread runs,
// every event due at or before its virtual time fires, in order — so a
// compile finishing at virtual time T installs its code exactly when the
// first thread passes T. Goroutine timing decides nothing: the order of
// turns, and hence of every effect, is a function of the costs alone.
//
// The protocol (conservative parallel discrete-event simulation, with one
// runner at a time): a thread is created with NewThread, calls Enter once
// in its goroutine, then Advance after each piece of work, and Exit when
// done. Between Enter/Advance returning and the next Advance or Exit the
// thread holds the turn; Post, Pool.Wake and Await may only be called by
// the turn holder (or, with no active thread, by the single driver
// goroutine). Event functions run on the goroutine of the thread whose
// turn reached them and may Post and Wake.
//
// With SetCores(n), the simulated threads share n processors: while more
// threads are runnable (application threads not parked, sleeping or
// awaiting, and compiler threads with a job) than there are cores, each
// runs at n/runnable of full speed — an application thread's Advance and a
// compile's Cost both take longer on the virtual clock (processor
// sharing, docs/model.md §3).
type Scheduler struct {
	mu      sync.Mutex
	cond    *sync.Cond
	threads []*simThread
	turn    ThreadID // holder, or noTurn
	events  eventQueue
	seq     uint64
	last    Cost // time of the latest fired event
	firing  bool // an event function is running (at last)
	trace   func(string)

	// Processor sharing (SetCores); cores 0: every thread has a core.
	cores    int
	runnable int     // application threads active and not waiting
	servers  int     // compiler threads of every pool
	work     []*work // compiler jobs in progress
	sharedAt Cost    // the jobs' left work is as of this time
}

// work is a compiler job in progress under processor sharing: the work
// it has left as of Scheduler.sharedAt, and its completion event.
type work struct {
	left Cost
	ev   *event
}

const noTurn ThreadID = -1

type simThread struct {
	name    string
	now     Cost
	active  bool
	waiting bool  // Await or Sleep: active but using no processor
	frac    int64 // stretched work not yet on the clock, in 1/cores of a Cost
}

// NewScheduler returns an empty scheduler at virtual time zero.
func NewScheduler() *Scheduler {
	s := &Scheduler{turn: noTurn}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// SetTrace makes the scheduler report every turn and fired event as one
// line to f (nil: none). Lines carry virtual times only, so two runs of
// the same script give identical traces.
func (s *Scheduler) SetTrace(f func(line string)) {
	s.mu.Lock()
	s.trace = f
	s.mu.Unlock()
}

func (s *Scheduler) tracef(format string, a ...any) {
	if s.trace != nil {
		s.trace(fmt.Sprintf(format, a...))
	}
}

// NewThread registers an application thread that starts at virtual time
// at (its creator's time; 0 for the main thread). It is active at once:
// no thread at a later time runs until it has called Enter and advanced.
func (s *Scheduler) NewThread(name string, at Cost) ThreadID {
	s.mu.Lock()
	defer s.mu.Unlock()
	// It uses a processor from the time of the thread creating it (a
	// thread created ahead of every other's time counts from now on).
	from := s.sharedAt
	if s.turn >= 0 {
		from = s.threads[s.turn].now
	}
	s.reshare(from, func() { s.runnable++ })
	s.threads = append(s.threads, &simThread{name: name, now: at, active: true})
	s.cond.Broadcast()
	return ThreadID(len(s.threads) - 1)
}

func (s *Scheduler) thread(th ThreadID) *simThread {
	if th < 0 || int(th) >= len(s.threads) {
		panic(fmt.Sprintf("BUG: model: unknown thread %d", th))
	}
	return s.threads[th]
}

// mine reports whether th is the active thread with the smallest
// (time, id); s.mu held.
func (s *Scheduler) mine(th ThreadID) bool {
	me := s.threads[th]
	for id, t := range s.threads {
		if !t.active || ThreadID(id) == th {
			continue
		}
		if t.now < me.now || t.now == me.now && ThreadID(id) < th {
			return false
		}
	}
	return true
}

// acquire waits for th's turn, takes it and fires every event due by
// th's time; s.mu held on entry and exit.
func (s *Scheduler) acquire(th ThreadID) {
	for s.turn != noTurn || !s.mine(th) {
		s.cond.Wait()
	}
	s.turn = th
	s.fireUntil(s.threads[th].now)
	if s.trace != nil {
		s.tracef("%s turn %s", s.threads[th].now, s.threads[th].name)
	}
}

// fireUntil fires due events in (time, seq) order, releasing s.mu while
// an event function runs; the turn keeps everyone else out.
func (s *Scheduler) fireUntil(t Cost) {
	for len(s.events) > 0 && s.events[0].at <= t {
		e := heap.Pop(&s.events).(*event)
		if e.at > s.last {
			s.last = e.at
		}
		if s.trace != nil {
			s.tracef("%s event %s", e.at, e.name)
		}
		s.firing = true
		s.mu.Unlock()
		e.fn(e.at)
		s.mu.Lock()
		s.firing = false
	}
}

// Enter waits until th may run (its turn) and fires the events due by its
// time. Call it once, in th's goroutine, before th's first piece of work.
func (s *Scheduler) Enter(th ThreadID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.thread(th).active {
		panic(fmt.Sprintf("BUG: model: thread %d entered after Exit", th))
	}
	s.acquire(th)
}

// Advance charges c to th, which must hold the turn, then gives the turn
// to whichever thread is now earliest and returns when th runs again,
// after every event due by th's new time has fired. Under processor
// sharing c is work: th's time moves on by c stretched by the threads
// runnable meanwhile.
func (s *Scheduler) Advance(th ThreadID, c Cost) {
	if c < 0 {
		panic(fmt.Sprintf("BUG: model: negative cost %d", c))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustHold(th)
	s.advance(th, c, false)
}

// AdvanceHolder is Advance for the thread holding the turn, whichever it
// is, in one step: it reports false when no thread holds the turn. When
// th stays the earliest active thread and no event falls due by its new
// time, the turn is not handed round at all (nothing else could run): the
// fast path of a single busy thread, with the same outcome as Advance.
func (s *Scheduler) AdvanceHolder(c Cost) bool {
	if c < 0 {
		panic(fmt.Sprintf("BUG: model: negative cost %d", c))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.turn
	if th < 0 {
		return false
	}
	s.advance(th, c, true)
	return true
}

// advance moves the turn holder th on by c (s.mu held) and returns with th
// holding the turn again; keep lets th keep the turn when nothing else
// could run (AdvanceHolder's fast path). Under processor sharing, when an
// event falls due before th's work is done, th's time stops at the event,
// the event fires (it may start or end a compile, changing the share) and
// the rest of the work goes on at the new share.
func (s *Scheduler) advance(th ThreadID, c Cost, keep bool) {
	me := s.threads[th]
	for {
		n := s.load()
		d, frac := c, me.frac
		if s.cores > 0 && n > s.cores {
			// Stretched exactly over many small steps: the remainder of
			// each division carries into the next.
			w := int64(c)*int64(n) + frac
			d, frac = Cost(w/int64(s.cores)), w%int64(s.cores)
		}
		end := me.now + d
		if !s.sharing() || len(s.events) == 0 || s.events[0].at >= end {
			me.now, me.frac = end, frac
			if keep && s.trace == nil && (len(s.events) == 0 || s.events[0].at > me.now) && s.mine(th) {
				return
			}
			s.handOff(th)
			return
		}
		due := max(s.events[0].at, me.now)
		c = max(c-s.unstretch(due-me.now, n), 0)
		me.now = due
		s.handOff(th)
	}
}

// handOff gives up th's turn and takes it back once th is the earliest
// thread again, after the events due by its time; s.mu held.
func (s *Scheduler) handOff(th ThreadID) {
	s.turn = noTurn
	s.cond.Broadcast()
	s.acquire(th)
}

// Exit ends th: it gives up the turn and no longer holds others back.
func (s *Scheduler) Exit(th ThreadID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leave(th, "exit")
}

// leave takes th, which must hold the turn, out of the turn order and hands
// the turn on (Exit, Park); verb names the step in the trace. s.mu is held.
func (s *Scheduler) leave(th ThreadID, verb string) {
	s.mustHold(th)
	if s.trace != nil {
		s.tracef("%s %s %s", s.threads[th].now, verb, s.threads[th].name)
	}
	t := s.threads[th]
	s.reshare(t.now, func() {
		if !t.waiting {
			s.runnable--
		}
		t.active, t.waiting = false, false
	})
	s.turn = noTurn
	s.cond.Broadcast()
}

func (s *Scheduler) mustHold(th ThreadID) {
	s.thread(th)
	if s.turn != th {
		panic(fmt.Sprintf("BUG: model: thread %d acts without the turn (holder %d)", th, s.turn))
	}
}

// Now returns th's virtual time.
func (s *Scheduler) Now(th ThreadID) Cost {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.thread(th).now
}

// Current returns the virtual time of the event being fired, else of the
// thread holding the turn or, with no holder, the latest of the fired
// events' and the threads' times:
// the one "now" of the VM's global Clock, since only the turn holder (or
// an event it fires) runs VM code. A compile finishing at T stamps T.
func (s *Scheduler) Current() Cost {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.firing {
		return s.last
	}
	if s.turn >= 0 {
		return s.threads[s.turn].now
	}
	// No thread runs: the latest time anything reached (a driver reading
	// the clock after its threads ended sees the end of their work).
	t := s.last
	for _, th := range s.threads {
		t = max(t, th.now)
	}
	return t
}

// Holder returns the thread holding the turn, if one does: the simulated
// thread whose goroutine is the only one running VM code, and hence the
// one that pays for it.
func (s *Scheduler) Holder() (ThreadID, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn, s.turn >= 0
}

// Park takes th, which holds the turn, out of the turn order while its
// goroutine waits for something outside the simulation (another
// application thread reaching a barrier): a parked thread holds no one
// back. Unpark puts it back; its goroutine then calls Enter again.
func (s *Scheduler) Park(th ThreadID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leave(th, "park")
}

// Unpark makes a parked thread active again at virtual time at (its own
// time if later): the thread that releases a barrier calls it, holding the
// turn, so the released threads resume in a deterministic order.
func (s *Scheduler) Unpark(th ThreadID, at Cost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.thread(th)
	if t.active {
		panic(fmt.Sprintf("BUG: model: Unpark of thread %d, which is not parked", th))
	}
	t.now = max(t.now, at)
	s.reshare(at, func() { s.runnable++ })
	t.active = true
	if s.trace != nil {
		s.tracef("%s unpark %s", t.now, t.name)
	}
	s.cond.Broadcast()
}

// Clock returns the Scheduler as a clock: Now is Current as a Duration.
// It satisfies the VM's Clock interface (runtime.Clock).
func (s *Scheduler) Clock() Clock { return Clock{s} }

// ThreadClock returns th's own clock.
func (s *Scheduler) ThreadClock(th ThreadID) ThreadClock { return ThreadClock{s, th} }

// Clock is the Scheduler's global clock (see Scheduler.Current).
type Clock struct{ s *Scheduler }

// Now implements runtime.Clock.
func (c Clock) Now() time.Duration { return c.s.Current().Duration() }

// ThreadClock is one simulated thread's virtual clock.
type ThreadClock struct {
	s  *Scheduler
	th ThreadID
}

// Now returns the thread's virtual time.
func (c ThreadClock) Now() time.Duration { return c.s.Now(c.th).Duration() }

// Post schedules fn to run at virtual time at. Events at equal times run
// in posting order. An event posted for a time already passed by the
// poster runs before the poster's next turn.
func (s *Scheduler) Post(at Cost, name string, fn func(at Cost)) {
	if fn == nil {
		panic("BUG: model: Post with a nil event function")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.post(at, name, fn)
}

// post is Post with s.mu held.
func (s *Scheduler) post(at Cost, name string, fn func(at Cost)) *event {
	s.seq++
	e := &event{at: at, seq: s.seq, name: name, fn: fn}
	heap.Push(&s.events, e)
	return e
}

// ErrDeadlock is returned by Await when the awaited condition can never
// become true: no event is pending.
var ErrDeadlock = errors.New("model: waiting for an event that nothing will post")

// Await blocks th (holding the turn) until done reports true, advancing
// th's time to each next pending event in turn — a blocking compile
// (-Xbatch, CompileBroker::wait_for_completion) costs the requester the
// queueing and compile time. Other threads run meanwhile, in time order.
// A waiting thread uses no processor (SetCores).
func (s *Scheduler) Await(th ThreadID, done func() bool) error {
	if done() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustHold(th)
	s.wait(th, true)
	defer s.wait(th, false)
	for {
		if len(s.events) == 0 {
			return ErrDeadlock
		}
		me := s.threads[th]
		me.now = max(me.now, s.events[0].at)
		s.handOff(th)
		s.mu.Unlock()
		ok := done()
		s.mu.Lock()
		if ok {
			return nil
		}
	}
}

// Sleep moves th (holding the turn) on by d without using a processor
// (Thread.sleep, a think time): other threads and compiles run meanwhile.
func (s *Scheduler) Sleep(th ThreadID, d Cost) {
	if d < 0 {
		panic(fmt.Sprintf("BUG: model: negative sleep %d", d))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustHold(th)
	s.wait(th, true)
	s.threads[th].now += d
	s.handOff(th)
	s.wait(th, false)
}

// wait marks the turn holder th as waiting (using no processor) or not, at
// its time; s.mu held.
func (s *Scheduler) wait(th ThreadID, on bool) {
	t := s.threads[th]
	if t.waiting == on {
		return
	}
	s.reshare(t.now, func() {
		t.waiting = on
		if on {
			s.runnable--
		} else {
			s.runnable++
		}
	})
}

// RunUntil fires every event due at or before t. It is for a driver with
// no active application thread (e.g. draining compiles at VM shutdown)
// and fails if a thread is active.
func (s *Scheduler) RunUntil(t Cost) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, th := range s.threads {
		if th.active {
			return fmt.Errorf("model: RunUntil(%s) while thread %d (%s) is active", t, id, th.name)
		}
	}
	s.turn = noTurn - 1 // the driver
	s.fireUntil(t)
	s.turn = noTurn
	return nil
}

// Pending returns the number of events not yet fired.
func (s *Scheduler) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.events)
}

type event struct {
	at    Cost
	seq   uint64
	name  string
	fn    func(Cost)
	index int // in the queue; -1 once popped
}

// eventQueue is a min-heap on (at, seq).
type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *eventQueue) Push(x any) {
	e := x.(*event)
	e.index = len(*q)
	*q = append(*q, e)
}
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	e.index = -1
	return e
}

// Job is one unit of work for a simulated compiler thread.
type Job struct {
	Name string
	// Cost is how long the job occupies its compiler thread (Profile.CompileCost).
	Cost Cost
	// Start runs when a compiler thread takes the job (PrintCompilation
	// prints then; the VM may do the real compile here). May be nil.
	Start func(at Cost)
	// Done runs at completion: install the code. May be nil.
	Done func(at Cost)
}

// Pool is a compiler's threads (CompileBroker's C1 or C2 pool) as
// simulated servers. A server that becomes free asks next for a job, at
// its virtual time; next is the VM's queue selection (policy.Next), so the
// model clock queues by the same policy code as the wall clock.
type Pool struct {
	s     *Scheduler
	name  string
	busy  []bool
	next  func(at Cost) (Job, bool)
	taken uint64
}

// NewPool adds a pool of n compiler threads named name.
func (s *Scheduler) NewPool(name string, n int, next func(at Cost) (Job, bool)) *Pool {
	if n < 0 || next == nil {
		panic(fmt.Sprintf("BUG: model: pool %s with %d threads and next=%v", name, n, next != nil))
	}
	s.mu.Lock()
	s.servers += n
	s.mu.Unlock()
	return &Pool{s: s, name: name, busy: make([]bool, n), next: next}
}

// Threads returns the pool's size.
func (p *Pool) Threads() int { return len(p.busy) }

// Wake tells the pool that work arrived at virtual time at: each idle
// compiler thread, lowest index first, takes a job from next. The caller
// holds the turn (or is the driver).
func (p *Pool) Wake(at Cost) {
	for i := range p.busy {
		if !p.busy[i] {
			p.poll(i, at)
		}
	}
}

// Busy returns how many of the pool's threads are compiling.
func (p *Pool) Busy() int {
	n := 0
	for _, b := range p.busy {
		if b {
			n++
		}
	}
	return n
}

func (p *Pool) poll(i int, at Cost) {
	j, ok := p.next(at)
	if !ok {
		return
	}
	if j.Cost < 0 {
		panic(fmt.Sprintf("BUG: model: job %s with negative cost", j.Name))
	}
	p.busy[i] = true
	p.taken++
	if p.s.trace != nil {
		p.s.tracef("%s %s#%d start %s (%s)", at, p.name, i, j.Name, j.Cost)
	}
	if j.Start != nil {
		j.Start(at)
	}
	var w *work
	w = p.s.startWork(at, j.Cost, fmt.Sprintf("%s#%d done %s", p.name, i, j.Name), func(t Cost) {
		p.s.endWork(w, t)
		if j.Done != nil {
			j.Done(t)
		}
		p.busy[i] = false
		p.poll(i, t)
	})
}

// SetCores makes the simulated threads share n processors (n < 1: one
// each, the default): os::active_processor_count of the modelled machine.
// Call it before any thread or pool starts work.
func (s *Scheduler) SetCores(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cores = max(n, 0)
}

// sharing reports whether threads can ever have to share a processor:
// more application and compiler threads than cores. s.mu held.
func (s *Scheduler) sharing() bool {
	return s.cores > 0 && len(s.threads)+s.servers > s.cores
}

// load is how many threads are using a processor now; s.mu held.
func (s *Scheduler) load() int { return s.runnable + len(s.work) }

// stretch is how long work w takes with n threads runnable.
func (s *Scheduler) stretch(w Cost, n int) Cost {
	if s.cores == 0 || n <= s.cores {
		return w
	}
	return Cost((int64(w)*int64(n) + int64(s.cores)/2) / int64(s.cores))
}

// unstretch is how much work gets done in d with n threads runnable.
func (s *Scheduler) unstretch(d Cost, n int) Cost {
	if s.cores == 0 || n <= s.cores {
		return d
	}
	return Cost(int64(d) * int64(s.cores) / int64(n))
}

// reshare applies change, which alters the load, at time t: the jobs in
// progress are charged their share up to t at the old load and, under
// sharing, their completions moved to where their work left ends at the
// new load. s.mu held.
func (s *Scheduler) reshare(t Cost, change func()) {
	t = max(t, s.sharedAt)
	done := s.unstretch(t-s.sharedAt, s.load())
	for _, w := range s.work {
		w.left = max(w.left-done, 0)
	}
	s.sharedAt = t
	change()
	if !s.sharing() {
		return
	}
	n := s.load()
	for _, w := range s.work {
		if w.ev != nil && w.ev.index >= 0 {
			w.ev.at = t + s.stretch(w.left, n)
			heap.Fix(&s.events, w.ev.index)
		}
	}
}

// startWork starts a compiler job of cost c at time at whose completion
// fn runs; it calls endWork first.
func (s *Scheduler) startWork(at, c Cost, name string, fn func(Cost)) *work {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &work{left: c}
	s.reshare(at, func() { s.work = append(s.work, w) })
	w.ev = s.post(at+s.stretch(c, s.load()), name, fn)
	return w
}

// endWork ends job w at its completion time t.
func (s *Scheduler) endWork(w *work, t Cost) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reshare(t, func() {
		for i, x := range s.work {
			if x == w {
				s.work = append(s.work[:i], s.work[i+1:]...)
				return
			}
		}
		panic("BUG: model: a compiler job ended twice")
	})
}
