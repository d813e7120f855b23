package bytecode

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Loop is the instruction mix of one trip of a method's hot loop, read from its reference
// module: what bounds the loop's throughput on a CPU (how many loads, stores, integer
// operations and branches each trip issues) and, through Chain, the longest dependency
// carried from one trip to the next. The model clock moves a JVM-measured cost of the
// method's compiled code from one CPU to another by the ratio of the cycles this mix needs
// on each (runtime/model).
//
// Counting rules, each what a JIT's code generator does on x86-64 and arm64 alike: locals
// are registers (local.get/set/tee cost nothing); an add and a shift by 1–3 whose only use is
// a load or store address fold into the addressing mode; a comparison whose only use is a
// conditional branch fuses with it; a call is not counted (the callee's own cost prices
// it); the code of loops nested in the hot loop is not counted in the mix, only in Nested.
type Loop struct {
	// Per trip: memory reads, memory writes, integer operations other than multiplies
	// (add, logic, shifts, compares, conversions, select), multiplies and divides, and
	// branches (conditional and unconditional, the back edge included).
	Loads, Stores, ALU, Muls, Branches int
	// Nested is the operations one trip issues in the loops nested directly in it: each
	// such loop's trip, counted by the same rules, times its trip count, where the code
	// states the count (a counter set to a constant before the loop, stepped by one at
	// its end and tested against a constant by the back edge: clang's form of a
	// constant-bound Java for loop). A nested loop whose count the code does not state,
	// and loops nested deeper, are left out.
	Nested  int
	prog    []loopOp
	nLocals int
}

// Uops is the number of operations one trip issues.
func (l Loop) Uops() int { return l.Loads + l.Stores + l.ALU + l.Muls + l.Branches }

// Latencies are a CPU's result latencies, in cycles, of the operation kinds in a loop.
type Latencies struct{ Load, ALU, Mul int }

// Chain returns the cycles ×100 per trip of the longest dependency chain carried from
// trip to trip through the locals, with latencies lat: the steady-state growth per trip of
// the latest local's ready time, over 64 trips after 64 to settle. Dependencies through
// memory (a store read back by a later trip) are not followed.
func (l Loop) Chain(lat Latencies) int64 {
	const settle, trips = 64, 64
	local := make([]int64, l.nLocals)
	opT := make([]int64, len(l.prog))
	run := func() {
		for i, op := range l.prog {
			var t int64
			for _, a := range op.args {
				var at int64
				if a.local {
					at = local[a.idx]
				} else {
					at = opT[a.idx]
				}
				t = max(t, at)
			}
			switch {
			case op.nested: // a nested loop's operation: its latency is that loop's, not the trip's chain
			case op.kind == kindLoad:
				t += int64(lat.Load)
			case op.kind == kindALU:
				t += int64(lat.ALU)
			case op.kind == kindMul:
				t += int64(lat.Mul)
			}
			opT[i] = t
			if op.set >= 0 {
				local[op.set] = t
			}
		}
	}
	latest := func() int64 {
		var m int64
		for _, t := range local {
			m = max(m, t)
		}
		return m
	}
	for range settle {
		run()
	}
	t0 := latest()
	for range trips {
		run()
	}
	return ((latest()-t0)*100 + trips/2) / trips
}

type opKind uint8

const (
	kindFree   opKind = iota // no operation of its own: folded, fused, a local move, a call
	kindLoad                 // a memory read
	kindStore                // a memory write
	kindALU                  // an integer operation
	kindMul                  // a multiply or divide
	kindBranch               // a branch
)

// ref names an input of a loop operation: an earlier operation of the trip or a local's
// value at that point.
type ref struct {
	local bool
	idx   int
}

type loopOp struct {
	kind   opKind
	args   []ref
	set    int  // the local this operation's result is stored to, or -1
	shared bool // its result also lives in a local (not folded into an address)
	nested bool // issued in a loop nested in the hot loop: tallied in nest, not the mix
}

// HotLoop returns the instruction mix of the method's hot loop in its None build: the
// outermost loop with the most counted operations per trip, in the method's exported
// function or a function of the module it calls. A function that makes batched calls (a
// "jvm.blocks" import, src/jvm.h BLOCKS_ON) is not searched, nor what only it calls: it is
// the host's batching of the method's loop, whose mix is the Java loop's that the profiled
// builds keep. A method without a loop is an error naming it.
func (m *Method) HotLoop() (Loop, error) {
	l, err := LoopOf(m.wasm[None], m.Key)
	if err != nil {
		return Loop{}, fmt.Errorf("bytecode: %s: %w", m.Key, err)
	}
	return l, nil
}

// LoopOf returns the hot loop's instruction mix of the function exported as export in the
// wasm module b (see HotLoop).
func LoopOf(b []byte, export string) (Loop, error) {
	f, err := readFuncs(b)
	if err != nil {
		return Loop{}, err
	}
	idx, ok := f.exports[export]
	if !ok {
		return Loop{}, fmt.Errorf("no exported function %q", export)
	}
	if int(idx) >= len(f.funcType) {
		return Loop{}, fmt.Errorf("export %q: function %d out of range", export, idx)
	}
	if int(idx) < f.nImported {
		return Loop{}, fmt.Errorf("export %q is an imported function", export)
	}
	// The loop may sit in a function of the module the export calls (a loop shared by the
	// method's entry and its OSR entry): every function the export reaches is searched.
	var best Loop
	found := false
	seen := map[uint32]bool{idx: true}
	for queue := []uint32{idx}; len(queue) > 0; queue = queue[1:] {
		l, ok, callees, err := analyzeLoops(f.bodies[int(queue[0])-f.nImported], f)
		if err != nil {
			return Loop{}, fmt.Errorf("function %d: %w", queue[0], err)
		}
		if slices.ContainsFunc(callees, func(c uint32) bool { return slices.Contains(f.batched, c) }) {
			continue
		}
		if ok && (!found || l.Uops() > best.Uops()) {
			best, found = l, true
		}
		for _, c := range callees {
			if int(c) >= f.nImported && !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
	}
	if !found {
		return Loop{}, errors.New("no loop")
	}
	return best, nil
}

// funcs is what the analyzer reads of a module: function types, each function's type, the
// code bodies and the exports.
type funcs struct {
	types     [][2]int // params, results
	funcType  []uint32 // by function index, imported functions first
	nImported int
	batched   []uint32 // the imported functions of module "jvm.blocks"
	bodies    [][]byte
	exports   map[string]uint32
}

// readFuncs reads b's function tables (parseModule collects them) and checks that they
// agree: every type index in range, one body per defined function.
func readFuncs(b []byte) (*funcs, error) {
	info, err := parseModule(b)
	if err != nil {
		return nil, err
	}
	f := &info.fn
	for _, t := range f.funcType {
		if int(t) >= len(f.types) {
			return nil, fmt.Errorf("function type %d out of range", t)
		}
	}
	if len(f.bodies) != len(f.funcType)-f.nImported {
		return nil, fmt.Errorf("%d function bodies for %d functions", len(f.bodies), len(f.funcType)-f.nImported)
	}
	return f, nil
}

// node is a value on the analyzer's operand stack.
type node struct {
	op    int  // index of the producing operation in the trip, or -1
	local int  // the local it was read from, or -1
	scale bool // a constant 1..3: a shift an addressing mode can scale by
	shl   bool // a shift left by a scale constant
	add   bool // an add
	shlOp int  // for an add: the operation of an unshared scale shift among its operands, or -1
	cmp   bool // a comparison (fuses with a conditional branch)

	konst    bool  // a constant, of value val
	val      int64 // for a constant: its value; for an increment: its step
	inc      int   // an add of a local and a constant: that local (step in val), or -1
	cmpOp    byte  // for a comparison of a local with a constant: its opcode
	cmpLocal int   // ... the local (-1 when the comparison is not of that form)
	cmpWith  int64 // ... and the constant
}

// none is a value with no producer inside the trip (a constant, a value from before the loop).
var none = node{op: -1, local: -1, shlOp: -1, inc: -1, cmpLocal: -1}

// nestLoop is what the analyzer keeps of a loop nested in the hot loop while it walks it.
type nestLoop struct {
	level int           // its index in the control stack
	init  map[int]int64 // locals holding a constant when it starts
	step  map[int]int64 // locals it steps by a constant (local = local + c)
	tally int           // operations one trip counts
	trips int           // its trip count, once its back edge states it (0: unknown)
}

// tripsOf returns the trip count a nested loop's back edge states with condition c: a
// counter from a constant, stepped by one, tested for != or < a constant; 0 when c is
// not of that form.
func (n *nestLoop) tripsOf(c node) int {
	if !c.cmp || c.cmpLocal < 0 {
		return 0
	}
	from, ok := n.init[c.cmpLocal]
	if !ok || n.step[c.cmpLocal] != 1 {
		return 0
	}
	switch c.cmpOp {
	case 0x47, 0x52, 0x48, 0x49, 0x53, 0x54: // ne, lt_s, lt_u (i32 and i64)
		if t := c.cmpWith - from; t > 0 && t <= 1<<20 {
			return int(t)
		}
	}
	return 0
}

type ctrl struct {
	height, results int
	loop            bool
	dead            bool // the rest of the block is unreachable
}

// analyzeLoops walks one function body, trip program by trip program for each outermost
// loop, and returns the loop with the most counted operations (ok false: the body has no
// loop) and the functions the body calls.
func analyzeLoops(body []byte, f *funcs) (best Loop, ok bool, callees []uint32, err error) {
	r := &wasmReader{b: body}
	nLocals := 0
	groups, err := r.u32()
	if err != nil {
		return Loop{}, false, nil, err
	}
	for range groups {
		n, err := r.u32()
		if err != nil {
			return Loop{}, false, nil, err
		}
		if _, err := r.byte(); err != nil {
			return Loop{}, false, nil, err
		}
		nLocals += int(n)
	}
	// Parameters are locals too; the function's own type is not needed to size them:
	// every local index read is taken as is, and the table grows as indices appear.
	var (
		cur       Loop
		stack     []node
		ctl       []ctrl
		depth     int // loop nesting
		inLoop    bool
		loopLevel int               // ctl depth of the current outermost loop
		nest      *nestLoop         // the loop nested in the hot loop being walked, if any
		constant  = map[int]int64{} // locals last set to a constant
	)
	localIdx := func(i uint32) int {
		if int(i) >= cur.nLocals {
			cur.nLocals = int(i) + 1
		}
		return int(i)
	}
	push := func(n node) { stack = append(stack, n) }
	pop := func() node {
		if len(stack) == 0 || len(ctl) > 0 && len(stack) <= ctl[len(ctl)-1].height {
			return none // below a dead block's height, or a malformed body's empty stack: any value
		}
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return n
	}
	counted := func() bool { return inLoop && depth == 1 }
	nested := func() bool { return inLoop && depth == 2 && nest != nil }
	emit := func(kind opKind, set int, in ...node) int {
		if !inLoop {
			return -1
		}
		op := loopOp{kind: kind, set: set, nested: nested()}
		if !counted() && !op.nested && kind != kindFree {
			op.kind = kindFree
		}
		for _, n := range in {
			switch {
			case n.op >= 0:
				op.args = append(op.args, ref{idx: n.op})
			case n.local >= 0:
				op.args = append(op.args, ref{local: true, idx: n.local})
			}
		}
		if op.nested && op.kind != kindFree {
			nest.tally++
		}
		if counted() {
			switch op.kind {
			case kindLoad:
				cur.Loads++
			case kindStore:
				cur.Stores++
			case kindALU:
				cur.ALU++
			case kindMul:
				cur.Muls++
			case kindBranch:
				cur.Branches++
			}
		}
		cur.prog = append(cur.prog, op)
		return len(cur.prog) - 1
	}
	free := func(op int) {
		if op >= 0 && cur.prog[op].kind == kindALU {
			switch {
			case !cur.prog[op].nested:
				cur.ALU--
			case nest != nil: // a finished nested loop's value used after it keeps its count
				nest.tally--
			}
			cur.prog[op].kind = kindFree
		}
	}
	// address consumes an address operand: a folded add and shift come off the ALU count.
	address := func(a node) {
		if !counted() && !nested() || a.op < 0 || cur.prog[a.op].shared || !a.add && !a.shl {
			return
		}
		free(a.op)
		if a.add && a.shlOp >= 0 && !cur.prog[a.shlOp].shared {
			free(a.shlOp)
		}
	}
	branchCond := func(c node) {
		if (counted() || nested()) && c.cmp && c.op >= 0 && !cur.prog[c.op].shared {
			free(c.op)
		}
	}
	value := func(op int) node { n := none; n.op = op; return n }
	blockType := func() (int, int, error) { // params, results
		if r.pos < len(r.b) && r.b[r.pos] == 0x40 {
			r.pos++
			return 0, 0, nil
		}
		if r.pos < len(r.b) && r.b[r.pos] >= 0x6f && r.b[r.pos] <= 0x7f {
			r.pos++
			return 0, 1, nil
		}
		t, err := r.s33()
		if err != nil {
			return 0, 0, err
		}
		if t < 0 || int(t) >= len(f.types) {
			return 0, 0, fmt.Errorf("block type %d out of range", t)
		}
		return f.types[t][0], f.types[t][1], nil
	}
	endLoop := func() {
		nest = nil
		cur.nLocals = max(cur.nLocals, nLocals)
		if !ok || cur.Uops() > best.Uops() {
			best, ok = cur, true
		}
		cur = Loop{}
		inLoop = false
		for i := range stack { // operations of the trip just analysed are not the next loop's
			stack[i].op, stack[i].shlOp = -1, -1
		}
	}
	for r.pos < len(r.b) {
		opc, err := r.byte()
		if err != nil {
			return Loop{}, false, nil, err
		}
		switch {
		case opc == 0x00 || opc == 0x01: // unreachable, nop
			if opc == 0x00 && len(ctl) > 0 {
				ctl[len(ctl)-1].dead = true
			}
		case opc == 0x02 || opc == 0x03 || opc == 0x04: // block, loop, if
			var cond node
			if opc == 0x04 {
				cond = pop()
			}
			params, results, err := blockType()
			if err != nil {
				return Loop{}, false, nil, err
			}
			if opc == 0x04 {
				emit(kindBranch, -1, cond)
				branchCond(cond)
			}
			if opc == 0x03 {
				if !inLoop {
					inLoop, loopLevel = true, len(ctl)
				}
				depth++
				if depth == 2 {
					nest = &nestLoop{level: len(ctl), init: maps.Clone(constant), step: map[int]int64{}}
				}
			}
			ctl = append(ctl, ctrl{height: max(0, len(stack)-params), results: results, loop: opc == 0x03})
		case opc == 0x05: // else
			if len(ctl) == 0 {
				return Loop{}, false, nil, errors.New("else outside a block")
			}
			c := &ctl[len(ctl)-1]
			stack, c.dead = stack[:min(len(stack), c.height)], false
		case opc == 0x0b: // end
			if len(ctl) == 0 {
				continue // the function's own end
			}
			c := ctl[len(ctl)-1]
			ctl = ctl[:len(ctl)-1]
			have := len(stack) - c.height
			if have > c.results && !c.dead {
				stack = append(stack[:c.height], stack[len(stack)-c.results:]...)
			}
			stack = stack[:min(len(stack), c.height+c.results)]
			for len(stack) < c.height+c.results {
				push(none)
			}
			if c.loop {
				depth--
				if nest != nil && len(ctl) == nest.level {
					cur.Nested += nest.tally * nest.trips
					nest = nil
				}
				if inLoop && len(ctl) == loopLevel {
					endLoop()
				}
			}
		case opc == 0x0c || opc == 0x0d: // br, br_if
			label, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			if opc == 0x0d {
				cond := pop()
				if nest != nil && depth == 2 && len(ctl)-1-int(label) == nest.level {
					nest.trips = nest.tripsOf(cond)
				}
				emit(kindBranch, -1, cond)
				branchCond(cond)
			} else {
				emit(kindBranch, -1)
				if len(ctl) > 0 {
					ctl[len(ctl)-1].dead = true
				}
			}
		case opc == 0x0e: // br_table
			n, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			for range n + 1 {
				if _, err := r.u32(); err != nil {
					return Loop{}, false, nil, err
				}
			}
			emit(kindBranch, -1, pop())
			if len(ctl) > 0 {
				ctl[len(ctl)-1].dead = true
			}
		case opc == 0x0f: // return
			if len(ctl) > 0 {
				ctl[len(ctl)-1].dead = true
			}
		case opc == 0x10 || opc == 0x11: // call, call_indirect
			fi, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			var t [2]int
			if opc == 0x10 {
				if int(fi) >= len(f.funcType) {
					return Loop{}, false, nil, fmt.Errorf("call of function %d out of range", fi)
				}
				t = f.types[f.funcType[fi]]
				callees = append(callees, fi)
			} else {
				if int(fi) >= len(f.types) {
					return Loop{}, false, nil, fmt.Errorf("call_indirect type %d out of range", fi)
				}
				t = f.types[fi]
				if _, err := r.u32(); err != nil {
					return Loop{}, false, nil, err
				}
				pop()
			}
			var in []node
			for range t[0] {
				in = append(in, pop())
			}
			op := emit(kindFree, -1, in...)
			for range t[1] {
				push(value(op))
			}
		case opc == 0x1a: // drop
			pop()
		case opc == 0x1b || opc == 0x1c: // select
			if opc == 0x1c {
				n, err := r.u32()
				if err != nil {
					return Loop{}, false, nil, err
				}
				r.pos += int(n)
			}
			c, b, a := pop(), pop(), pop()
			push(value(emit(kindALU, -1, a, b, c)))
		case opc == 0x20: // local.get
			i, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			n := none
			n.local = localIdx(i)
			push(n)
		case opc == 0x21 || opc == 0x22: // local.set, local.tee
			i, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			v := pop()
			l := localIdx(i)
			if v.op >= 0 && inLoop {
				cur.prog[v.op].shared = true
			}
			if v.konst {
				constant[l] = v.val
			} else {
				delete(constant, l)
			}
			if nest != nil && depth == 2 && v.inc == l {
				nest.step[l] = v.val
			}
			emit(kindFree, l, v) // a register move (or none)
			if opc == 0x22 {
				n := none
				n.local = l
				push(n)
			}
		case opc == 0x23: // global.get
			if _, err := r.u32(); err != nil {
				return Loop{}, false, nil, err
			}
			push(value(emit(kindALU, -1)))
		case opc == 0x24: // global.set
			if _, err := r.u32(); err != nil {
				return Loop{}, false, nil, err
			}
			emit(kindALU, -1, pop())
		case opc >= 0x28 && opc <= 0x35: // loads
			if err := r.memarg(); err != nil {
				return Loop{}, false, nil, err
			}
			a := pop()
			op := emit(kindLoad, -1, a)
			address(a)
			push(value(op))
		case opc >= 0x36 && opc <= 0x3e: // stores
			if err := r.memarg(); err != nil {
				return Loop{}, false, nil, err
			}
			v, a := pop(), pop()
			emit(kindStore, -1, a, v)
			address(a)
		case opc == 0x3f: // memory.size
			r.pos++
			push(value(emit(kindALU, -1)))
		case opc == 0x40: // memory.grow
			r.pos++
			push(value(emit(kindFree, -1, pop())))
		case opc == 0x41 || opc == 0x42: // i32.const, i64.const
			v, err := r.s64()
			if err != nil {
				return Loop{}, false, nil, err
			}
			n := none
			n.scale = v >= 1 && v <= 3
			n.konst, n.val = true, v
			push(n)
		case opc == 0x43 || opc == 0x44: // f32.const, f64.const
			r.pos += 4 << (opc - 0x43)
			push(none)
		case opc >= 0x45 && opc <= 0xc4:
			in, kind, cmp := numeric(opc)
			args := make([]node, in)
			for k := in - 1; k >= 0; k-- {
				args[k] = pop()
			}
			op := emit(kind, -1, args...)
			n := value(op)
			n.cmp = cmp
			if cmp && in == 2 && args[0].local >= 0 && args[1].konst {
				n.cmpOp, n.cmpLocal, n.cmpWith = opc, args[0].local, args[1].val
			}
			switch {
			case opc == 0x6a || opc == 0x7c: // add: base + index
				n.add = true
				if args[0].local >= 0 && args[1].konst {
					n.inc, n.val = args[0].local, args[1].val
				}
				for _, a := range args {
					if a.shl && a.op >= 0 {
						n.shlOp = a.op
						break
					}
				}
			case opc == 0x74 || opc == 0x86: // shl by a scale
				n.shl = args[1].scale
			}
			push(n)
		case opc == 0xfc:
			sub, err := r.u32()
			if err != nil {
				return Loop{}, false, nil, err
			}
			switch {
			case sub <= 7: // saturating truncations
				push(value(emit(kindALU, -1, pop())))
			case sub == 10 || sub == 11: // memory.copy, memory.fill
				r.pos += int(12 - sub)
				c, b, a := pop(), pop(), pop()
				emit(kindStore, -1, a, b, c)
			default:
				return Loop{}, false, nil, fmt.Errorf("unsupported instruction 0xfc %d at byte %d", sub, r.pos)
			}
		default:
			return Loop{}, false, nil, fmt.Errorf("unsupported instruction 0x%02x at byte %d", opc, r.pos-1)
		}
	}
	return best, ok, callees, nil
}

// numeric returns an integer or float instruction's operand count, its kind and whether it
// is a comparison.
func numeric(op byte) (int, opKind, bool) {
	switch {
	case op == 0x45 || op == 0x50: // eqz
		return 1, kindALU, true
	case op >= 0x46 && op <= 0x4f, op >= 0x51 && op <= 0x5a: // integer comparisons
		return 2, kindALU, true
	case op >= 0x5b && op <= 0x66: // float comparisons
		return 2, kindALU, true
	case op >= 0x67 && op <= 0x69, op >= 0x79 && op <= 0x7b: // clz, ctz, popcnt
		return 1, kindALU, false
	case op == 0x6c || op == 0x7e || op >= 0x6d && op <= 0x70 || op >= 0x7f && op <= 0x82: // mul, div, rem
		return 2, kindMul, false
	case op >= 0x6a && op <= 0x78, op >= 0x7c && op <= 0x8a: // other integer binary operations
		return 2, kindALU, false
	case op >= 0x8b && op <= 0x91, op >= 0x99 && op <= 0x9f: // float unary
		return 1, kindALU, false
	case op >= 0x92 && op <= 0x98, op >= 0xa0 && op <= 0xa6: // float binary
		return 2, kindALU, false
	default: // conversions, reinterpretations, sign extensions
		return 1, kindALU, false
	}
}

func (r *wasmReader) memarg() error {
	if _, err := r.u32(); err != nil {
		return err
	}
	_, err := r.u32()
	return err
}

// s64 reads a signed LEB128 of up to 64 bits.
func (r *wasmReader) s64() (int64, error) {
	var v int64
	for shift := 0; shift < 70; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, nil
		}
	}
	return 0, errors.New("bad LEB128")
}

// s33 reads a block type index (a signed 33-bit LEB128).
func (r *wasmReader) s33() (int64, error) { return r.s64() }
