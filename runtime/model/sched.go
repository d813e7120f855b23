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
}

const noTurn ThreadID = -1

type simThread struct {
	name   string
	now    Cost
	active bool
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
// after every event due by th's new time has fired.
func (s *Scheduler) Advance(th ThreadID, c Cost) {
	if c < 0 {
		panic(fmt.Sprintf("BUG: model: negative cost %d", c))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustHold(th)
	s.threads[th].now += c
	s.turn = noTurn
	s.cond.Broadcast()
	s.acquire(th)
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
	me := s.threads[th]
	me.now += c
	if s.trace == nil && (len(s.events) == 0 || s.events[0].at > me.now) && s.mine(th) {
		return true
	}
	s.turn = noTurn
	s.cond.Broadcast()
	s.acquire(th)
	return true
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
	s.threads[th].active = false
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
	t.active = true
	t.now = max(t.now, at)
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
	s.seq++
	heap.Push(&s.events, &event{at: at, seq: s.seq, name: name, fn: fn})
}

// ErrDeadlock is returned by Await when the awaited condition can never
// become true: no event is pending.
var ErrDeadlock = errors.New("model: waiting for an event that nothing will post")

// Await blocks th (holding the turn) until done reports true, advancing
// th's time to each next pending event in turn — a blocking compile
// (-Xbatch, CompileBroker::wait_for_completion) costs the requester the
// queueing and compile time. Other threads run meanwhile, in time order.
func (s *Scheduler) Await(th ThreadID, done func() bool) error {
	for !done() {
		s.mu.Lock()
		s.mustHold(th)
		if len(s.events) == 0 {
			s.mu.Unlock()
			return ErrDeadlock
		}
		wait := s.events[0].at - s.threads[th].now
		s.mu.Unlock()
		s.Advance(th, max(wait, 0))
	}
	return nil
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
	at   Cost
	seq  uint64
	name string
	fn   func(Cost)
}

// eventQueue is a min-heap on (at, seq).
type eventQueue []*event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
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
	p.s.Post(at+j.Cost, fmt.Sprintf("%s#%d done %s", p.name, i, j.Name), func(t Cost) {
		if j.Done != nil {
			j.Done(t)
		}
		p.busy[i] = false
		p.poll(i, t)
	})
}
