package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Background is the real JVM's own compile work beside the modelled methods: the compiles of
// the JDK's and the harness's code (class loading, string concatenation's bootstrap, the
// timing loop's printing, …) that a JVM starts while running a program in the twin harness.
// They keep compiler threads, and on a machine with fewer cores than threads a share of the
// processors, busy while the modelled methods warm up (docs/model.md §3). A calibration
// records them (`jitsim calibrate --jvm`) from a run of the twin harness whose loop does no
// crypto; the model clock queues each as a compile of its bytes on its compiler's pool at its
// time, behind every compile of a modelled method.
type Background struct {
	Source string `json:"source"`
	// Compiles are "AT_US COMPILER BYTES" in the order of AT_US: a compile the JVM started
	// AT_US microseconds after main began, on "c1" or "c2", of BYTES bytecode bytes (its
	// method's and what it inlined, the bytes -XX:+CITime's speed counts).
	Compiles []string `json:"compiles"`
}

// BackgroundCompile is one Background compile, parsed.
type BackgroundCompile struct {
	At       Cost   // after the program's start
	Compiler string // WhatCompileC1 or WhatCompileC2
	Bytes    int
}

// Limits of a background stream: an hour, a compile of a megabyte, 100 000 compiles.
const (
	maxBackgroundUs      = 3_600_000_000
	maxBackgroundBytes   = 1 << 20
	maxBackgroundCompile = 100_000
)

// FormatBackgroundCompile is the profile's text of one compile.
func FormatBackgroundCompile(c BackgroundCompile) string {
	name := "c1"
	if c.Compiler == WhatCompileC2 {
		name = "c2"
	}
	return fmt.Sprintf("%d %s %d", int64(c.At)/1_000_000, name, c.Bytes)
}

// Parse returns the compiles, checked: each well formed and in range, in time order.
func (b *Background) Parse() ([]BackgroundCompile, error) {
	if strings.TrimSpace(b.Source) == "" {
		return nil, errors.New("\"background\": no source")
	}
	if len(b.Compiles) > maxBackgroundCompile {
		return nil, fmt.Errorf("\"background\": %d compiles (at most %d)", len(b.Compiles), maxBackgroundCompile)
	}
	cs := make([]BackgroundCompile, 0, len(b.Compiles))
	for i, s := range b.Compiles {
		f := strings.Fields(s)
		if len(f) != 3 {
			return nil, fmt.Errorf("\"background\" compile %d: %q is not \"AT_US c1|c2 BYTES\"", i, s)
		}
		at, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || at < 0 || at > maxBackgroundUs {
			return nil, fmt.Errorf("\"background\" compile %d: %q: time %q is not 0 to %d µs", i, s, f[0], int64(maxBackgroundUs))
		}
		var what string
		switch f[1] {
		case "c1":
			what = WhatCompileC1
		case "c2":
			what = WhatCompileC2
		default:
			return nil, fmt.Errorf("\"background\" compile %d: %q: compiler %q is not c1 or c2", i, s, f[1])
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 || n > maxBackgroundBytes {
			return nil, fmt.Errorf("\"background\" compile %d: %q: bytes %q are not 0 to %d", i, s, f[2], maxBackgroundBytes)
		}
		c := BackgroundCompile{At: Cost(at * 1_000_000), Compiler: what, Bytes: n}
		if i > 0 && c.At < cs[i-1].At {
			return nil, fmt.Errorf("\"background\" compile %d: %q starts before the one above it", i, s)
		}
		cs = append(cs, c)
	}
	return cs, nil
}
