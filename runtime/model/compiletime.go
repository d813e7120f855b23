package model

import (
	"fmt"
	"slices"
)

// CompileTime is one compiler's time per compile as a calibration measured it compile by
// compile on a real JVM: a fixed part per compile and a part per bytecode byte parsed (the
// method's own and its inlined callees'), fitted over every compile of a run (PerByte 0: no
// line describes them, and the compiler keeps its CITime speed), and the model's own methods
// priced by their own compiles.
//
// A single speed (-XX:+CITime's bytes per second) prices every byte alike. The JVM's compiles
// are not like that: most are of small methods, whose time is mostly the fixed part, so the
// speed over all of them overprices a large method several times (C1: 0.5–0.6 ms for AES's
// 953-byte block method on JDK 17, where CITime's 204 KB/s gives 4.7 ms) and underprices a
// small one.
type CompileTime struct {
	Fixed   int64 // ps per compile
	PerByte int64 // ps per bytecode byte; 0: no line
	Source  string
	// Methods are the model's methods (by family) the JVM compiled, each priced per byte by
	// its own compiles: how long a compile takes per byte depends on what the code is (a loop
	// C2 unrolls against straight-line array code), not on its size alone.
	Methods map[string]Measure
}

// compileTimeRows replaces, for each compiler that ct times, rows' CITime price of that
// compiler by ct's rows: the fixed part per compile and the part per byte.
func compileTimeRows(rows []Row, ct map[string]CompileTime) []Row {
	for _, what := range []string{WhatCompileC1, WhatCompileC2} {
		t, ok := ct[what]
		if !ok {
			continue
		}
		if t.PerByte > 0 {
			rows = slices.DeleteFunc(rows, func(r Row) bool { return r.What == what })
			rows = append(rows,
				Row{what, AnyFamily, PerCall, t.Fixed, "the fixed part of a compile: " + t.Source},
				Row{what, AnyFamily, PerBytecodeByte, t.PerByte, "the part per bytecode byte (own and inlined): " + t.Source})
		}
		fams := make([]string, 0, len(t.Methods))
		for f := range t.Methods {
			fams = append(fams, f)
		}
		slices.Sort(fams)
		for _, f := range fams {
			rows = append(rows, Row{what, f, PerBytecodeByte, t.Methods[f].Value, t.Methods[f].Source})
		}
	}
	return rows
}

// check reports what makes ct unusable as a price.
func (ct CompileTime) check(what string) error {
	if ct.Fixed < 0 || ct.PerByte < 0 || (ct.PerByte > 0 && ct.Source == "") || (ct.PerByte == 0 && ct.Fixed != 0) {
		return fmt.Errorf("model: %s compile time %d ps + %d ps per byte (%q): want a non-negative fixed part, a part per byte with a source, or neither",
			what, ct.Fixed, ct.PerByte, ct.Source)
	}
	for f, m := range ct.Methods {
		if f == "" || f == AnyFamily || m.Value <= 0 || m.Source == "" {
			return fmt.Errorf("model: %s compile time of %q: %d ps per byte (%q)", what, f, m.Value, m.Source)
		}
	}
	return nil
}
