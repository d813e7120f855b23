package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestStepProgressLines(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := &stepProgress{w: &buf, java: "java", start: t0, now: func() time.Time { return now }}
	p.step(0, 4, "JVM round 1/2: default 1024 B")
	now = t0.Add(30 * time.Second)
	p.step(1, 4, "JVM round 2/2: default 1024 B")
	now = t0.Add(90 * time.Second)
	p.step(3, 4, "model clock: default gcm-enc 1024 B")
	p.step(4, 4, "done")
	want := []string{
		"java: step 1/4 (elapsed 0s): JVM round 1/2: default 1024 B",
		"java: step 2/4 (elapsed 30s, about 1m30s left): JVM round 2/2: default 1024 B",
		"java: step 4/4 (elapsed 1m30s, about 30s left): model clock: default gcm-enc 1024 B",
		"java: step 4/4 (elapsed 1m30s): done",
	}
	if got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStepProgressTerminal(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Now()
	p := &stepProgress{w: &buf, java: "java", terminal: true, start: t0, now: func() time.Time { return t0.Add(10 * time.Second) }}
	p.step(1, 2, "x")
	p.step(2, 2, "done")
	out := buf.String()
	if !strings.HasPrefix(out, "\r\033[Kjava [===============               ] 1/2 x (elapsed 10s, about 10s left)") || !strings.HasSuffix(out, "2/2 done (elapsed 10s)\n") {
		t.Errorf("terminal output %q", out)
	}
}
