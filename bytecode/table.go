package bytecode

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jitsim/jitsim/jdk"
)

//go:embed wasm/*.wasm
var wasmFS embed.FS

// Stream is a loop of independent calls of a single-block cipher method (Method.Stream).
type Stream struct {
	// Callee is the block method's key ("AESCrypt.implEncryptBlock").
	Callee string
	// Trips is the loop's trips per call: 16 for a loop over bytes that calls the block
	// method every 16th trip, 1 for a loop over blocks.
	Trips int
}

// Method is one reference method: its Java identity, the module that holds
// its body, its wasm signature and what the module itself says (bytecode
// size, imports, OSR entry).
type Method struct {
	// Key names the method in import and export sections ("Class.method").
	Key string
	// Module is the module stem: wasm/<Module>.<build>.wasm.
	Module string
	// Profiles are the JDK profiles that have this body.
	Profiles jdk.Set
	// Class, Name and Descriptor are the Java identity in this profile.
	Class, Name, Descriptor string
	// Static is true for static methods (no receiver fields in Params).
	Static bool
	// Intrinsic is HotSpot's vmIntrinsics ID when the method is an
	// @IntrinsicCandidate in this profile, else "".
	Intrinsic string
	// Params is the wasm signature: receiver fields, then Java parameters
	// (an object parameter expanded into its fields).
	Params []Param
	// Result is Void or Int.
	Result Kind
	// Delegates marks a body that touches its payload bytes only through the
	// methods it calls: it checks its arguments and hands the whole range (or
	// one block at a time) to a callee whose own cost covers the bytes — the
	// checking wrappers, GCM's engine methods, JDK 9+ GCTR.update (one
	// CounterMode.implCrypt call), and the loops whose per-block callee was
	// measured inside that same loop (ECB, JDK 8's GHASH.update). The model
	// clock prices such a call per call, not per payload byte
	// (runtime/model.PayloadRuleOf).
	Delegates bool
	// Stream, for a method whose loop calls a single-block cipher method once per block on
	// blocks that do not depend on each other's result, names that callee and the loop's
	// trips per call. A loop over blocks of a counter (CTR, GCM's GCTR), of the input (ECB)
	// or of the ciphertext (CBC decryption) is one: the core's window overlaps successive
	// calls of the block stub, so the model clock prices such a call site by the overlap
	// (runtime/model). Nil for every other method, CBC encryption among them: each of its
	// blocks waits for the previous one's result.
	Stream *Stream

	// JavaSize is the method's Java bytecode size (HotSpot's
	// Method::code_size, the "(N bytes)" of PrintCompilation and
	// PrintInlining, LogCompilation's bytes='N') per JDK profile, for every
	// profile in Profiles. Where the numbers come from: [SizeSources];
	// SizeNote says when the release has no method of exactly this identity.
	JavaSize map[jdk.Release]int
	// SizeNote is empty when JavaSize is the size of this very method in
	// each profile; otherwise it says which method's size stands in.
	SizeNote string

	// Calls holds, per import key, the Java bytecode index of the call site
	// by observed JDK release: the "@ N" HotSpot prints for the call in
	// PrintCompilation/PrintInlining/PrintIntrinsics and LogCompilation's
	// <call>/<bc bci=..>. Read with [Method.CallBCI]; where the numbers come
	// from: [CallSources].
	Calls map[string]sites
	// Loop is the bytecode index of the loop header of the method's OSR
	// loop (the target of its back branch, the "@ N" of an OSR compile) by
	// observed JDK release; read with [Method.LoopBCI].
	Loop sites

	// Size is the Java bytecode size in the profile of the table the method
	// came from (JavaSize[profile], set by [ForProfile]); 0 in [All]'s rows.
	// HotSpot's inlining limits (MaxInlineSize, FreqInlineSize,
	// C1MaxInlineSize) compare it.
	Size int
	// WasmSize is the body size in bytes of the export in the None build
	// (read from the embedded module): what jitsim's compilers translate.
	// The model clock prices a compile by Size instead: its per-byte rows
	// come from HotSpot's -XX:+CITime speeds, which count Java bytecode.
	WasmSize int
	// Imports are the Keys of the methods this body calls, in import order.
	Imports []string
	// Blocks are the Keys among Imports the None build also imports from
	// "jvm.blocks", n calls at a time (src/jvm.h BLOCKS_ON).
	Blocks []string
	// OSR reports whether the module exports an OSR entry "<Key>$osr".
	OSR bool
	// Clinit reports whether the module exports "clinit" (static tables).
	Clinit bool

	wasm     [3][]byte
	unrolled *unrolled                       // the None build with C2's loop unrolling, read on first use
	inline   [3]map[jdk.Release]*InlineBuild // by build, then JDK profile
}

// InlineBuild is a method's inline module in one JDK profile: its None or
// Limited build linked with the bodies of every method it reaches, each
// call behind a shim switched by the host (src/jvm.h INLINE_ON,
// tiers/internal/inlinegen).
type InlineBuild struct {
	// Wasm is the module binary.
	Wasm []byte
	// Imports are the keys of the methods the module reaches (each a "jvm"
	// import for the calls that are not inlined), in import order.
	Imports []string
	// Blocks are the keys among Imports the module also imports from
	// "jvm.blocks" (src/jvm.h BLOCKS_ON).
	Blocks []string

	name     string    // the embedded file, read on first use
	key      string    // the method it must export
	unrolled *unrolled // None only: the module with C2's loop unrolling
	exports  []string  // the module's function exports, sorted
	once     sync.Once
}

// Inline returns the method's inline module of build b (None or Limited)
// for JDK profile r, or nil when the method calls nothing or b has none.
// The module is read on first use: a process that compiles nothing with
// inlining (run -version, explain) reads none.
func (m *Method) Inline(r jdk.Release, b Build) *InlineBuild {
	if b < None || b > Full {
		return nil
	}
	ib := m.inline[b][r]
	if ib != nil {
		ib.once.Do(ib.read)
	}
	return ib
}

// read fills ib from its embedded file; a bad built-in module is a bug.
func (ib *InlineBuild) read() {
	bin, err := wasmFS.ReadFile("wasm/" + ib.name)
	if err != nil {
		panic(fmt.Sprintf("BUG: bytecode: %s: %v", ib.name, err))
	}
	info, err := parseModule(bin)
	if err != nil {
		panic(fmt.Sprintf("BUG: bytecode: %s: %v", ib.name, err))
	}
	if info.heapBase > ProfAddr {
		panic(fmt.Sprintf("BUG: %s: data ends at %#x, above the profile area %#x", ib.name, info.heapBase, ProfAddr))
	}
	if _, ok := info.exports[ib.key]; !ok {
		panic(fmt.Sprintf("BUG: bytecode: %s does not export %q", ib.name, ib.key))
	}
	ib.Wasm, ib.Imports, ib.Blocks = bin, info.imports, info.blocks
	for e := range info.exports {
		ib.exports = append(ib.exports, e)
	}
	slices.Sort(ib.exports)
}

// Unrolled returns the inline module compiled once more with C2's loop unrolling (build.sh
// C2FLAGS): what level 4 runs. Only the None build has one; for the others it is Wasm.
func (ib *InlineBuild) Unrolled() []byte {
	if ib.unrolled == nil {
		return ib.Wasm
	}
	return ib.unrolled.read(ib.key, ib.Imports, ib.Blocks, ib.exports)
}

// unrolled is a module of the unrolled build (build.sh C2FLAGS), read from the embedded
// files on first use and checked against the None build it stands beside: the same
// imports in the same order, the same batched imports and the same exports, so that the
// host links and enters it as it does the None build.
type unrolled struct {
	name string
	once sync.Once
	bin  []byte
}

// read returns the module's binary; a built-in module that does not match its None build is
// a bug.
func (u *unrolled) read(key string, imports, blocks, exports []string) []byte {
	u.once.Do(func() {
		bin, err := wasmFS.ReadFile("wasm/" + u.name)
		if err != nil {
			panic(fmt.Sprintf("BUG: bytecode: %s: %v", u.name, err))
		}
		info, err := parseModule(bin)
		if err != nil {
			panic(fmt.Sprintf("BUG: bytecode: %s: %v", u.name, err))
		}
		if info.heapBase > ProfAddr {
			panic(fmt.Sprintf("BUG: %s: data ends at %#x, above the profile area %#x", u.name, info.heapBase, ProfAddr))
		}
		if !slices.Equal(info.imports, imports) || !slices.Equal(info.blocks, blocks) {
			panic(fmt.Sprintf("BUG: bytecode: %s imports %v (batched %v), its None build %v (batched %v)",
				u.name, info.imports, info.blocks, imports, blocks))
		}
		for _, e := range append([]string{key}, exports...) {
			if _, ok := info.exports[e]; !ok {
				panic(fmt.Sprintf("BUG: bytecode: %s does not export %q", u.name, e))
			}
		}
		u.bin = bin
	})
	return u.bin
}

// String returns "Class::name" in HotSpot's PrintCompilation style.
func (m *Method) String() string {
	return m.Class[strings.LastIndexByte(m.Class, '.')+1:] + "::" + m.Name
}

// Wasm returns the module binary of build b.
func (m *Method) Wasm(b Build) []byte { return m.wasm[b] }

// Unrolled returns the None build compiled once more with C2's loop unrolling (build.sh
// C2FLAGS): what level 4 runs. The model reads the None build ([Method.HotLoop],
// [Method.WasmSize]); the two differ only in how the loops are laid out.
func (m *Method) Unrolled() []byte {
	var exports []string
	if m.OSR {
		exports = append(exports, m.OSRExport())
	}
	if m.Clinit {
		exports = append(exports, "clinit")
	}
	return m.unrolled.read(m.Key, m.Imports, m.Blocks, exports)
}

// OSRExport returns the name of the OSR entry export.
func (m *Method) OSRExport() string { return m.Key + "$osr" }

// Table is the set of methods of one JDK profile, by Key.
type Table struct {
	Profile jdk.Release
	methods []*Method
	byKey   map[string]*Method
	bySlot  []*Method // by inline slot (InlineSlot); nil where the profile has no such method
}

// Methods returns the profile's methods in table order.
func (t *Table) Methods() []*Method { return t.methods }

// Lookup returns the method with key k, or an error naming it.
func (t *Table) Lookup(k string) (*Method, error) {
	if m, ok := t.byKey[k]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("bytecode: JDK profile %s has no method %q", t.Profile, k)
}

// Slot returns the method of inline slot s (SlotKey), or an error naming
// the slot or its key: the inline modules' charge calls name their callee
// by slot, once per inlined call, so the table resolves slots once.
func (t *Table) Slot(s int) (*Method, error) {
	if s >= 0 && s < len(t.bySlot) && t.bySlot[s] != nil {
		return t.bySlot[s], nil
	}
	k, ok := SlotKey(s)
	if !ok {
		return nil, fmt.Errorf("bytecode: no inline slot %d", s)
	}
	return t.Lookup(k)
}

var (
	loadOnce sync.Once
	loaded   []*Method
	loadErr  error

	// perProfile holds each profile's methods: copies of the loaded rows
	// with Size set to the profile's Java size, made once so that every
	// table of a profile hands out the same *Method.
	perProfileMu sync.Mutex
	perProfile   = map[jdk.Release][]*Method{}
)

func load() ([]*Method, error) {
	loadOnce.Do(func() {
		for i := range rows {
			m := rows[i] // copy: rows stays pristine
			for _, b := range []Build{None, Limited, Full} {
				name := "wasm/" + m.Module + "." + b.String() + ".wasm"
				bin, err := wasmFS.ReadFile(name)
				if err != nil {
					loadErr = fmt.Errorf("bytecode: %s: %w", name, err)
					return
				}
				info, err := parseModule(bin)
				if err != nil {
					loadErr = fmt.Errorf("bytecode: %s: %w", name, err)
					return
				}
				if info.heapBase > ProfAddr {
					panic(fmt.Sprintf("BUG: %s: data ends at %#x, above the profile area %#x", name, info.heapBase, ProfAddr))
				}
				if _, ok := info.exports[m.Key]; !ok {
					loadErr = fmt.Errorf("bytecode: %s does not export %q", name, m.Key)
					return
				}
				if info.charge {
					loadErr = fmt.Errorf("bytecode: %s imports jitsim.charges, which only inline modules may", name)
					return
				}
				m.wasm[b] = bin
				if b == None {
					m.WasmSize = info.exports[m.Key]
					m.Imports = info.imports
					m.Blocks = info.blocks
					_, m.OSR = info.exports[m.OSRExport()]
					_, m.Clinit = info.exports["clinit"]
				}
			}
			m.unrolled = &unrolled{name: m.Module + ".unrolled.wasm"}
			if err := m.loadInline(); err != nil {
				loadErr = err
				return
			}
			loaded = append(loaded, &m)
		}
	})
	return loaded, loadErr
}

// All returns every row of the method table (all profiles).
func All() ([]*Method, error) { return load() }

// Keys returns every method key of the table, sorted.
func Keys() ([]string, error) {
	all, err := load()
	if err != nil {
		return nil, err
	}
	var ks []string
	for _, m := range all {
		if !slices.Contains(ks, m.Key) {
			ks = append(ks, m.Key)
		}
	}
	slices.Sort(ks)
	return ks, nil
}

// ForProfile returns the method table of JDK profile p, checking that
// every import of every method resolves. A table is read-only, so each
// profile's is built once and shared: Cipher.getInstance asks for it on
// every operation.
func ForProfile(p jdk.Release) (*Table, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("bytecode: unknown JDK profile %s (want one of %s)", p, strings.Join(jdk.Names(), ", "))
	}
	tablesMu.Lock()
	defer tablesMu.Unlock()
	if t, ok := tables[p]; ok {
		return t, nil
	}
	t, err := buildTable(p)
	if err != nil {
		return nil, err
	}
	tables[p] = t
	return t, nil
}

var (
	tablesMu sync.Mutex
	tables   = map[jdk.Release]*Table{}
)

// buildTable is ForProfile's work for a profile not built before.
func buildTable(p jdk.Release) (*Table, error) {
	all, err := load()
	if err != nil {
		return nil, err
	}
	t := &Table{Profile: p, byKey: map[string]*Method{}}
	for _, m := range profileMethods(p, all) {
		if prev, dup := t.byKey[m.Key]; dup {
			panic(fmt.Sprintf("BUG: profile %s has two bodies for %s (%s, %s)", p, m.Key, prev.Module, m.Module))
		}
		t.byKey[m.Key] = m
		t.methods = append(t.methods, m)
	}
	t.bySlot = make([]*Method, len(slotKeys()))
	for _, m := range t.methods {
		if s, ok := InlineSlot(m.Key); ok {
			t.bySlot[s] = m
		}
	}
	for _, m := range t.methods {
		for _, imp := range m.Imports {
			if _, ok := t.byKey[imp]; !ok {
				return nil, fmt.Errorf("bytecode: JDK %s: %s calls %s, which the profile does not have", p, m.Key, imp)
			}
		}
	}
	return t, nil
}

// profileMethods returns the methods of profile p: each row of all that
// has p, copied once with Size = JavaSize[p].
func profileMethods(p jdk.Release, all []*Method) []*Method {
	perProfileMu.Lock()
	defer perProfileMu.Unlock()
	if ms, ok := perProfile[p]; ok {
		return ms
	}
	var ms []*Method
	for _, row := range all {
		if !row.Profiles.Has(p) {
			continue
		}
		n, ok := row.JavaSize[p]
		if !ok || n <= 0 {
			panic(fmt.Sprintf("BUG: method table row %s (%s) has no Java size for JDK %s", row.Key, row.Module, p))
		}
		m := *row
		m.Size = n
		ms = append(ms, &m)
	}
	perProfile[p] = ms
	return ms
}

// loadInline finds the method's inline modules,
// wasm/<Module>.inline.<p1-p2-...>.<none|limited>.wasm, for the profiles
// it has (Inline reads each on first use). A method that calls others must
// have both for each profile.
func (m *Method) loadInline() error {
	for _, b := range []Build{None, Limited} {
		if err := m.loadInlineBuild(b); err != nil {
			return err
		}
	}
	return nil
}

func (m *Method) loadInlineBuild(b Build) error {
	names, err := inlineNames()
	if err != nil {
		return err
	}
	prefix, suffix := m.Module+".inline.", "."+b.String()+".wasm"
	i, _ := slices.BinarySearch(names, prefix)
	for _, name := range names[i:] {
		tag, ok := strings.CutPrefix(name, prefix)
		if !ok {
			break // names are sorted: no more of this module
		}
		tag, ok = strings.CutSuffix(tag, suffix)
		if !ok || strings.Contains(tag, ".") {
			continue
		}
		ib := &InlineBuild{name: name, key: m.Key}
		if b == None {
			ib.unrolled = &unrolled{name: prefix + tag + ".unrolled.wasm"}
		}
		for _, part := range strings.Split(tag, "-") {
			p, err := jdk.Parse(part)
			if err != nil {
				return fmt.Errorf("bytecode: %s: %w", name, err)
			}
			if !m.Profiles.Has(p) {
				continue
			}
			if m.inline[b] == nil {
				m.inline[b] = map[jdk.Release]*InlineBuild{}
			}
			m.inline[b][p] = ib
		}
	}
	if len(m.Imports) > 0 {
		for _, p := range m.Profiles.Releases() {
			if m.inline[b][p] == nil {
				return fmt.Errorf("bytecode: %s calls %v but has no %s inline module for JDK %s (run go generate ./bytecode)", m.Module, m.Imports, b, p)
			}
		}
	}
	return nil
}

// inlineNames lists the embedded inline modules' file names, sorted, read
// once for every method's two builds.
var inlineNames = sync.OnceValues(func() ([]string, error) {
	ents, err := wasmFS.ReadDir("wasm")
	if err != nil {
		return nil, fmt.Errorf("bytecode: %w", err)
	}
	var names []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".inline.") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
})

// sites is one call site's bytecode index by observed JDK release.
type sites = map[jdk.Release]int

// CallSources says, per JDK profile, where the Calls column's bytecode
// indices come from.
var CallSources = map[jdk.Release]string{
	jdk.R8:  "NOT observed (no JDK 8 here): JDK 17's indices stand in",
	jdk.R8u: "NOT observed (no JDK 8u here): JDK 17's indices stand in",
	jdk.R17: "observed: javap -c -p --module java.base on OpenJDK 17.0.15's com.sun.crypto.provider classes, " +
		"and the \"@ N\" of its PrintIntrinsics (bytecode/testdata/printintrinsics_*_jdk17.txt); " +
		"recorded in bytecode/testdata/javap/facts-17.txt, which TestJavapFacts checks the table against",
	jdk.R21: "NOT observed (no JDK 21 here): Temurin 25.0.3's indices stand in",
	jdk.R22: "NOT observed (no JDK 22 here): Temurin 25.0.3's indices stand in",
	jdk.R25: "observed: javap -c -p --module java.base on Temurin 25.0.3's com.sun.crypto.provider classes, " +
		"and the \"@ N\" of its PrintIntrinsics (bytecode/testdata/printintrinsics_*_jdk25.txt); " +
		"recorded in bytecode/testdata/javap/facts-25.txt, which TestJavapFacts checks the table against",
}

// CallObserved reports whether JDK profile r's call-site indices were
// observed on a real JDK (see CallSources).
func CallObserved(r jdk.Release) bool { return strings.HasPrefix(CallSources[r], "observed") }

// callStandIns names, per profile whose indices were not observed, the
// observed release whose indices stand in (as CallSources says).
var callStandIns = map[jdk.Release]jdk.Release{jdk.R8: jdk.R17, jdk.R8u: jdk.R17, jdk.R21: jdk.R25, jdk.R22: jdk.R25}

// callStandIn is the observed release whose indices profile r uses.
func callStandIn(r jdk.Release) jdk.Release {
	if s, ok := callStandIns[r]; ok {
		return s
	}
	return r
}

// CallBCI returns the Java bytecode index of m's call of the method keyed
// callee in JDK profile r (see [Method.Calls] and [CallSources]). Where the
// profile's body has no observed row of its own (the JDK 8/8u bodies), the
// stand-in release's row of the same key answers, and failing that the
// callee's site in any row of the stand-in release. ok is false when m
// does not call callee.
func (m *Method) CallBCI(callee string, r jdk.Release) (bci int, ok bool) {
	if !slices.Contains(m.Imports, callee) {
		return 0, false
	}
	s := callStandIn(r)
	if b, ok := m.Calls[callee][s]; ok {
		return b, true
	}
	for _, row := range rows {
		if row.Key == m.Key && row.Profiles.Has(s) {
			if b, ok := row.Calls[callee][s]; ok {
				return b, true
			}
		}
	}
	for _, row := range rows {
		if b, ok := row.Calls[callee][s]; ok && row.Profiles.Has(s) {
			return b, true
		}
	}
	return 0, false
}

// LoopBCI returns the bytecode index of the header of m's OSR loop in JDK
// profile r: the bci HotSpot names an OSR compile by (PrintCompilation's
// "@ N", LogCompilation's osr_bci). As for [Method.CallBCI], an unobserved
// release borrows its stand-in's number, from this row or a row of the
// same key; ok is false when none has one.
func (m *Method) LoopBCI(r jdk.Release) (bci int, ok bool) {
	s := callStandIn(r)
	if b, ok := m.Loop[s]; ok {
		return b, true
	}
	for _, row := range rows {
		if row.Key == m.Key && row.Profiles.Has(s) {
			if b, ok := row.Loop[s]; ok {
				return b, true
			}
		}
	}
	return 0, false
}
