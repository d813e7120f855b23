package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// Unit is what one cost row is charged per.
type Unit string

// The units of a cost row.
const (
	PerCall         Unit = "call"          // once per execution of the code (entry, exit, setup)
	PerByte         Unit = "byte"          // per payload byte the call processes
	PerBlock        Unit = "block"         // per whole 16-byte AES/GHASH block of the payload
	PerBytecodeByte Unit = "bytecode-byte" // per byte of bytecode a compile translates
)

var units = []Unit{PerCall, PerByte, PerBlock, PerBytecodeByte}

// What names a kind of primitive. Tier code is WhatInterp, WhatC1L1,
// WhatC1L2, WhatC1L3 or WhatC2; a stub variant is "stub:" + variant name
// (stubs.Variant.Name) with the StubRoutines entry as the family; calls,
// dispatch and compiles have their own names.
const (
	WhatInterp    = "interp"     // level 0, the template interpreter
	WhatC1L1      = "c1-l1"      // level 1, C1 without profiling
	WhatC1L2      = "c1-l2"      // level 2, C1 with invocation and back-edge counters
	WhatC1L3      = "c1-l3"      // level 3, C1 with full profiling (MDO)
	WhatC2        = "c2"         // level 4, C2
	WhatCall      = "call"       // a Java call from tier code into another method's code
	WhatDispatch  = "dispatch"   // a call from C2 code into a bound stub
	WhatCompileC1 = "compile-c1" // a C1 compile (levels 1–3)
	WhatCompileC2 = "compile-c2" // a C2 compile (level 4)
	// WhatGlue is the provider code jitsim does not run (CipherCore, a mode's init and
	// doFinal set-up), per call; its family is "TIER/MODE.PHASE", e.g. "c2/GCM.final".
	WhatGlue = "glue"
	// WhatFirstUse is what a fresh JVM's first use of a mode costs once, per call: family
	// "MODE.instance" the first Cipher.getInstance (loading the JCE and its provider),
	// "MODE.op" the first init and doFinal (loading, linking and initialising the mode's
	// classes).
	WhatFirstUse = "first-use"
	stubPrefix   = "stub:"
)

// AnyFamily is the family of a row that applies to every family without a
// row of its own for the same unit.
const AnyFamily = "*"

// Stub returns the What of a stub variant, e.g. Stub("vaes-avx512").
func Stub(variant string) string { return stubPrefix + variant }

// TierWhat returns the What of code at a compilation level (0..4).
func TierWhat(level int) (string, error) {
	if level < 0 || level > 4 {
		return "", fmt.Errorf("model: level %d is not a compilation level (0..4)", level)
	}
	return []string{WhatInterp, WhatC1L1, WhatC1L2, WhatC1L3, WhatC2}[level], nil
}

// Row is one cost: What (for Family, a method key such as
// "AESCrypt.implEncryptBlock", a StubRoutines entry such as
// "counterMode_AESCrypt", or AnyFamily) costs Ps picoseconds per Unit on
// the profile's CPU. Source says where the number came from.
type Row struct {
	What   string `json:"what"`
	Family string `json:"family"`
	Unit   Unit   `json:"unit"`
	Ps     int64  `json:"ps"`
	Source string `json:"source"`
}

// Profile is the cost table of one CPU model.
type Profile struct {
	CPU    string  `json:"cpu"`    // stubs/cpu model name
	GHz    float64 `json:"ghz"`    // the clock the costs are for (documentation and derivation)
	Source string  `json:"source"` // where the clock and the model as a whole come from
	// Release, for a profile measured on a real JVM, is the release it was measured with
	// (jdk.Release's name); "" prices every release.
	Release string `json:"release,omitempty"`
	// Provenance, for a profile measured on a real JVM (`jitsim calibrate --jvm`), says
	// where and how.
	Provenance *Provenance `json:"provenance,omitempty"`
	Rows       []Row       `json:"rows"`
	// Background, for a profile measured on a real JVM, is that JVM's own compile work
	// beside the modelled methods; nil: none is modelled.
	Background *Background `json:"background,omitempty"`
}

// maxPs bounds every cost a profile file may hold: a second per unit.
const maxPs = 1_000_000_000_000

// ProfileSet is what a profile file holds when it has one profile per JVM (`jitsim calibrate
// --jvm=A --jvm=B`): {"profiles": [...]}.
type ProfileSet struct {
	Profiles []Profile `json:"profiles"`
}

// Validate reports the first malformed row: an empty What, Family or
// Source, an unknown unit, a negative cost, or a duplicate key.
func (p Profile) Validate() error {
	if p.CPU == "" {
		return errors.New("model: profile has no cpu name")
	}
	if err := p.validateHead(); err != nil {
		return fmt.Errorf("model: profile %s: %w", p.CPU, err)
	}
	seen := map[[3]string]int{}
	for i, r := range p.Rows {
		if err := r.validate(); err != nil {
			return fmt.Errorf("model: profile %s: row %d: %w", p.CPU, i, err)
		}
		k := [3]string{r.What, r.Family, string(r.Unit)}
		if j, dup := seen[k]; dup {
			return fmt.Errorf("model: profile %s: row %d repeats row %d (%s %s per %s)", p.CPU, i, j, r.What, r.Family, r.Unit)
		}
		seen[k] = i
	}
	return nil
}

func (r Row) validate() error {
	switch {
	case r.What == "":
		return errors.New(`empty "what"`)
	case r.Family == "":
		return fmt.Errorf(`%s: empty "family" (use %q for every family)`, r.What, AnyFamily)
	case !slices.Contains(units, r.Unit):
		return fmt.Errorf("%s %s: unknown unit %q (want one of %v)", r.What, r.Family, r.Unit, units)
	case r.Ps < 0:
		return fmt.Errorf("%s %s: negative cost %d ps", r.What, r.Family, r.Ps)
	case r.Ps > maxPs:
		return fmt.Errorf("%s %s: cost %d ps is over a second per %s", r.What, r.Family, r.Ps, r.Unit)
	case strings.TrimSpace(r.Source) == "":
		return fmt.Errorf("%s %s per %s: no source", r.What, r.Family, r.Unit)
	}
	return nil
}

// Has reports whether the profile has any row for what.
func (p Profile) Has(what string) bool {
	return slices.ContainsFunc(p.Rows, func(r Row) bool { return r.What == what })
}

// Row returns the row that prices (what, family) per unit: the family's
// own row, else the AnyFamily row.
func (p Profile) Row(what, family string, u Unit) (Row, bool) {
	var any Row
	found := false
	for _, r := range p.Rows {
		if r.What != what || r.Unit != u {
			continue
		}
		if r.Family == family {
			return r, true
		}
		if r.Family == AnyFamily {
			any, found = r, true
		}
	}
	return any, found
}

// Cost is what one execution of what for family costs when it processes
// n payload bytes: the per-call row, plus n times the per-byte row, plus
// n/16 whole blocks times the per-block row (each the family's own row,
// else the AnyFamily row). It is an error when no row prices what at all.
// Compile costs use CompileCost.
func (p Profile) Cost(what, family string, n int) (Cost, error) {
	if n < 0 {
		return 0, fmt.Errorf("model: %s %s: negative byte count %d", what, family, n)
	}
	var ps int64
	priced := false
	for _, u := range []struct {
		unit  Unit
		count int64
	}{{PerCall, 1}, {PerByte, int64(n)}, {PerBlock, int64(n / 16)}} {
		if r, ok := p.Row(what, family, u.unit); ok {
			ps += r.Ps * u.count
			priced = true
		}
	}
	if !priced {
		return 0, fmt.Errorf("model: CPU profile %s has no cost for %s (%s)", p.CPU, what, family)
	}
	return Cost(ps), nil
}

// CompileCost is what a compile of bytecodeBytes bytes by compiler
// (WhatCompileC1 or WhatCompileC2) costs its compiler thread: the per-call
// row plus bytecodeBytes times the per-bytecode-byte row.
func (p Profile) CompileCost(compiler, family string, bytecodeBytes int) (Cost, error) {
	if compiler != WhatCompileC1 && compiler != WhatCompileC2 {
		return 0, fmt.Errorf("model: %q is not a compiler (want %s or %s)", compiler, WhatCompileC1, WhatCompileC2)
	}
	if bytecodeBytes < 0 {
		return 0, fmt.Errorf("model: %s %s: negative bytecode size %d", compiler, family, bytecodeBytes)
	}
	per, ok := p.Row(compiler, family, PerBytecodeByte)
	if !ok {
		return 0, fmt.Errorf("model: CPU profile %s has no per-bytecode-byte cost for %s", p.CPU, compiler)
	}
	ps := per.Ps * int64(bytecodeBytes)
	if r, ok := p.Row(compiler, family, PerCall); ok {
		ps += r.Ps
	}
	return Cost(ps), nil
}

// Cost is a span of virtual time in picoseconds. Integer picoseconds keep
// sums exact and identical on every machine (no floating point, so no
// fused multiply-add differences between architectures).
type Cost int64

// Duration converts c to a time.Duration, rounding down to nanoseconds.
func (c Cost) Duration() time.Duration { return time.Duration(c / 1000) }

// String renders c in the largest unit that keeps it readable.
func (c Cost) String() string {
	switch {
	case c < 10_000:
		return fmt.Sprintf("%dps", int64(c))
	case c < 10_000_000:
		return fmt.Sprintf("%.3fns", float64(c)/1e3)
	default:
		return time.Duration(c / 1000).String()
	}
}

// MarshalIndent renders the profile as the JSON that LoadProfile reads.
func (p Profile) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// LoadProfileFile reads a profile file (the JSON `jitsim calibrate --out`
// writes); errors name the file and the line.
func LoadProfileFile(name string) (Profile, error) {
	f, err := os.Open(name)
	if err != nil {
		return Profile{}, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	return LoadProfile(name, f)
}

// LoadProfile decodes a JSON profile from r. Errors read
// "NAME:LINE: message", LINE being where the bad value or row starts.
// Unknown fields are errors, as are rows that fail Validate. A profile set (LoadProfiles)
// with one profile is that profile; with more, an error.
func LoadProfile(name string, r io.Reader) (Profile, error) {
	ps, err := LoadProfiles(name, r)
	if err != nil {
		return Profile{}, err
	}
	if len(ps) != 1 {
		return Profile{}, fmt.Errorf("%s:1: %d profiles in the file (one per JVM); say which release to use", name, len(ps))
	}
	return ps[0], nil
}

// LoadProfiles decodes a profile file: one profile object, or a ProfileSet. Errors read
// "NAME:LINE: message" as LoadProfile's.
func LoadProfiles(name string, r io.Reader) ([]Profile, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxProfileFile+1))
	if err != nil {
		return nil, fmt.Errorf("model: %s: %w", name, err)
	}
	if len(data) > maxProfileFile {
		return nil, fmt.Errorf("%s:1: over %d MB: not a profile file", name, maxProfileFile>>20)
	}
	offs, isSet := elementOffsets(data, "profiles")
	if !isSet {
		p, err := decodeProfile(name, data, 0, len(data))
		if err != nil {
			return nil, err
		}
		return []Profile{p}, nil
	}
	var set struct {
		Profiles []json.RawMessage `json:"profiles"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&set); err != nil {
		return nil, fmt.Errorf("%s:1: a profile set: %v", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s:%d: trailing data after the profile set", name, lineOf(data, dec.InputOffset()))
	}
	if len(set.Profiles) == 0 {
		return nil, fmt.Errorf("%s:1: an empty profile set", name)
	}
	var ps []Profile
	releases := map[string]bool{}
	for i, raw := range set.Profiles {
		base := int64(0)
		if i < len(offs) {
			base = offs[i]
		}
		if base+int64(len(raw)) > int64(len(data)) {
			return nil, fmt.Errorf("%s:1: a profile set whose profile %d cannot be located", name, i)
		}
		p, err := decodeProfile(name, data, base, len(raw))
		if err != nil {
			return nil, err
		}
		if releases[p.Release] {
			return nil, fmt.Errorf("%s:%d: a second profile for release %q", name, lineOf(data, base), p.Release)
		}
		releases[p.Release] = true
		ps = append(ps, p)
	}
	return ps, nil
}

// maxProfileFile bounds what LoadProfiles reads.
const maxProfileFile = 64 << 20

// decodeProfile decodes one profile object, the bytes of file from base on.
func decodeProfile(name string, file []byte, base int64, size int) (Profile, error) {
	data := file[base : base+int64(size)]
	at := func(off int64, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineOf(file, base+off), fmt.Sprintf(format, a...))
	}
	var p Profile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return Profile{}, at(se.Offset, "%v", se)
		case errors.As(err, &te):
			return Profile{}, at(te.Offset, "field %q: cannot use %s as %v", te.Field, te.Value, te.Type)
		}
		off := dec.InputOffset()
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if i := strings.Index(string(data), f); i >= 0 {
				off = int64(i) // the field's first occurrence
			}
		}
		return Profile{}, at(off, "%v", err)
	}
	if dec.More() {
		return Profile{}, at(dec.InputOffset(), "trailing data after the profile object")
	}
	if p.CPU == "" {
		return Profile{}, at(0, "profile has no \"cpu\" name")
	}
	if err := p.validateHead(); err != nil {
		return Profile{}, at(0, "%v", err)
	}
	offs, _ := elementOffsets(data, "rows")
	seen := map[[3]string]int{}
	for i, row := range p.Rows {
		off := int64(0)
		if i < len(offs) {
			off = offs[i]
		}
		if err := row.validate(); err != nil {
			return Profile{}, at(off, "row %d: %v", i, err)
		}
		k := [3]string{row.What, row.Family, string(row.Unit)}
		if j, dup := seen[k]; dup {
			return Profile{}, at(off, "row %d repeats row %d (%s %s per %s)", i, j, row.What, row.Family, row.Unit)
		}
		seen[k] = i
	}
	return p, nil
}

// validateHead range-checks what a profile says besides its rows.
func (p Profile) validateHead() error {
	if math.IsNaN(p.GHz) || p.GHz < 0 || p.GHz > 20 {
		return fmt.Errorf("bad \"ghz\" %v (0 to 20)", p.GHz)
	}
	if p.Release != "" {
		if _, err := jdk.Parse(p.Release); err != nil {
			return fmt.Errorf("\"release\": %v", err)
		}
	}
	if p.Provenance != nil {
		if p.Release == "" {
			return errors.New("a profile with a provenance names its \"release\"")
		}
		if err := p.Provenance.validate(); err != nil {
			return err
		}
	}
	if p.Background != nil {
		if p.Provenance == nil {
			return errors.New("a profile with a \"background\" has a provenance: it was measured on a real JVM")
		}
		if _, err := p.Background.Parse(); err != nil {
			return err
		}
	}
	return nil
}

// lineOf is the 1-based line of byte offset off in data.
func lineOf(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + strings.Count(string(data[:off]), "\n")
}

// elementOffsets returns the byte offset of each element of the top-level array under key
// of a JSON object, and whether the object has that key.
func elementOffsets(data []byte, key string) ([]int64, bool) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, false
		}
		if k != key {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return nil, true
		}
		var offs []int64
		for dec.More() {
			var skip json.RawMessage
			off := dec.InputOffset()
			for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
				off++
			}
			offs = append(offs, off)
			if dec.Decode(&skip) != nil {
				return offs, true
			}
		}
		return offs, true
	}
	return nil, false
}
