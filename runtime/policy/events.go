package policy

import (
	"fmt"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// TieredEventKind names a PrintTieredEvents event (CompilationPolicy::EventType).
type TieredEventKind int8

// The event kinds, in HotSpot's spelling via String.
const (
	EventCall TieredEventKind = iota
	EventLoop
	EventCompile
	EventForceCompile
	EventRemoveFromQueue
	EventUpdateInQueue
	EventReprofile
	EventMakeNotEntrant
)

var eventNames = [...]string{
	EventCall: "call", EventLoop: "loop", EventCompile: "compile", EventForceCompile: "force-compile",
	EventRemoveFromQueue: "remove-from-queue", EventUpdateInQueue: "update-in-queue",
	EventReprofile: "reprofile", EventMakeNotEntrant: "make-not-entrant",
}

// String returns the event's PrintTieredEvents name.
func (k TieredEventKind) String() string { return eventNames[k] }

// TieredEvent is a snapshot of the policy state at one event, holding
// every field CompilationPolicy::print_event prints.
type TieredEvent struct {
	Time   time.Duration
	Kind   TieredEventKind
	Method string // Holder.name(sig)
	BCI    int
	Level  Level
	// QueueC1 and QueueC2 are the compile queue lengths.
	QueueC1, QueueC2 int
	// RateValid is false before the first rate measurement ("rate=n/a").
	RateValid bool
	Rate      float32
	// K3 and K4 are the load-feedback factors for levels 3 and 4.
	K3, K4 float64
	// Total is Method::invocation_count / backedge_count.
	TotalI, TotalB int32
	// MDO counters and their start values (0 without an MDO).
	MDOI, MDOI0, MDOB, MDOB0 int32
	// MaxLevel and MaxOSRLevel are highest_comp_level / highest_osr_comp_level.
	MaxLevel, MaxOSRLevel Level
	// Compilable flags, printed as c1,c1-osr,c2,c2-osr.
	C1, C1OSR, C2, C2OSR bool
	InQueue              bool
}

// emit builds and hands a TieredEvent to the trace hook; p.mu is held.
func (p *Policy) emit(kind TieredEventKind, m *Method, bci int, level Level, now time.Duration) {
	if p.trace == nil {
		return
	}
	e := TieredEvent{
		Time: now, Kind: kind, Method: m.SigName(), BCI: bci, Level: level,
		QueueC1: len(p.queues[C1]), QueueC2: len(p.queues[C2]),
		RateValid: m.prevTime != 0, Rate: m.rate,
		K3:       p.thresholdScale(LevelFullProfile, p.cfg.Tier3LoadFeedback),
		K4:       p.thresholdScale(LevelFullOptimization, p.cfg.Tier4LoadFeedback),
		MaxLevel: m.highest, MaxOSRLevel: m.highestOSR,
		C1: !m.notCompilable(LevelFullProfile), C1OSR: !m.notOSRCompilable(LevelFullProfile),
		C2: !m.notCompilable(LevelFullOptimization), C2OSR: !m.notOSRCompilable(LevelFullOptimization),
		InQueue: m.queued != nil,
	}
	e.TotalI, e.TotalB = m.Counts()
	e.MDOI, e.MDOI0, e.MDOB, e.MDOB0, _ = m.MDOCounts()
	p.trace(e)
}

// FormatTieredEvent renders e as the -XX:+PrintTieredEvents line of the
// given release (without the newline):
//
//	0.083486: [compile level=3 [Hot.work(I)I] @-1 queues=0,0 rate=n/a k=1.00,1.00]
//
// Non-compile events add total=, mdo=, max levels=, compilable= and
// status=; JDK 25 ends them with " mtd: null" (no training data). Checked
// against JDK 17.0.15 and 25.0.3 output (testdata/jvm).
func FormatTieredEvent(rel jdk.Release, e TieredEvent) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%f: [%s level=%d [%s] @%d queues=%d,%d rate=", e.Time.Seconds(), e.Kind, e.Level, e.Method, e.BCI, e.QueueC1, e.QueueC2)
	if e.RateValid {
		fmt.Fprintf(&sb, "%f", e.Rate)
	} else {
		sb.WriteString("n/a")
	}
	fmt.Fprintf(&sb, " k=%.2f,%.2f", e.K3, e.K4)
	if e.Kind != EventCompile {
		fmt.Fprintf(&sb, " total=%d,%d mdo=%d(%d),%d(%d) max levels=%d,%d compilable=",
			e.TotalI, e.TotalB, e.MDOI, e.MDOI0, e.MDOB, e.MDOB0, e.MaxLevel, e.MaxOSRLevel)
		var names []string
		for _, f := range []struct {
			ok   bool
			name string
		}{{e.C1, "c1"}, {e.C1OSR, "c1-osr"}, {e.C2, "c2"}, {e.C2OSR, "c2-osr"}} {
			if f.ok {
				names = append(names, f.name)
			}
		}
		sb.WriteString(strings.Join(names, ","))
		if e.InQueue {
			sb.WriteString(" status=in-queue")
		} else {
			sb.WriteString(" status=idle")
		}
		if printRow(rel).trainingData {
			sb.WriteString(" mtd: null")
		}
	}
	sb.WriteString("]")
	return sb.String()
}
