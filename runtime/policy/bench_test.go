package policy

import (
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

func benchPolicy(b *testing.B) *Policy {
	p, err := New(cfgOf(b, jdk.R17), 1, 2)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkInvoke is the per-call cost in the interpreter: an atomic
// increment, plus a notification every 128th call (the method's level-3
// task is queued, so notifications find it in the queue).
func BenchmarkInvoke(b *testing.B) {
	p := benchPolicy(b)
	m := NewMethod(plain)
	for i := 0; i < 300; i++ {
		p.Invoke(m, LevelNone, 0)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.Invoke(m, LevelNone, time.Duration(i))
	}
}

// BenchmarkNotification is one call notification that evaluates the
// transition functions and decides to do nothing (counts below the
// thresholds): the slow path the VM takes every 128 interpreted calls.
func BenchmarkNotification(b *testing.B) {
	p := benchPolicy(b)
	m := NewMethod(plain)
	m.inv.Store(128)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.OnCall(m, LevelNone, time.Duration(i))
	}
}

// BenchmarkNotificationQueued is a notification for a method whose
// compile is already queued (the common case while C1 is busy).
func BenchmarkNotificationQueued(b *testing.B) {
	p := benchPolicy(b)
	m := NewMethod(plain)
	for i := 0; i < 300; i++ {
		p.Invoke(m, LevelNone, 0)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p.OnCall(m, LevelNone, time.Duration(i))
	}
}

// BenchmarkInvokeParallel is Invoke from all Ps on distinct methods.
func BenchmarkInvokeParallel(b *testing.B) {
	p := benchPolicy(b)
	b.RunParallel(func(pb *testing.PB) {
		m := NewMethod(plain)
		for i := 0; i < 300; i++ {
			p.Invoke(m, LevelNone, 0)
		}
		for pb.Next() {
			p.Invoke(m, LevelNone, 0)
		}
	})
}
