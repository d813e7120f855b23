package bytecode

import (
	"errors"
	"fmt"
	"slices"
)

// moduleInfo is what jitsim reads from a module's binary (WebAssembly core
// spec §5.5): its "jvm" imports, its exports and the body size of each
// exported function.
type moduleInfo struct {
	imports  []string       // names of functions imported from module "jvm", in order
	exports  map[string]int // export name -> body size in bytes (functions only)
	heapBase uint32         // value of the exported __heap_base global
	charge   bool           // imports jitsim.charges (inline modules)
	blocks   []string       // names imported from module "jvm.blocks" (src/jvm.h BLOCKS_ON), each also a "jvm" import
	fn       funcs          // the function tables the loop reader walks (loop.go)
}

type wasmReader struct {
	b   []byte
	pos int
}

var errTruncated = errors.New("truncated")

func (r *wasmReader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errTruncated
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *wasmReader) u32() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, errors.New("bad LEB128")
}

func (r *wasmReader) name() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	if r.pos+int(n) > len(r.b) {
		return "", errTruncated
	}
	s := string(r.b[r.pos : r.pos+int(n)])
	r.pos += int(n)
	return s, nil
}

// parseModule reads the sections jitsim needs; anything else is skipped.
func parseModule(b []byte) (*moduleInfo, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	info := &moduleInfo{exports: map[string]int{}, fn: funcs{exports: map[string]uint32{}}}
	r := &wasmReader{b: b, pos: 8}
	nImportedFuncs := 0
	funcExports := map[uint32]string{}
	var globalInits []uint32
	globalExports := map[string]uint32{}
	for r.pos < len(b) {
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		end := r.pos + int(size)
		if end > len(b) {
			return nil, errTruncated
		}
		switch id {
		case 1: // types: 0x60 params results
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				if c, err := r.byte(); err != nil || c != 0x60 {
					return nil, fmt.Errorf("type section: bad function type")
				}
				var pr [2]int
				for k := range 2 {
					m, err := r.u32()
					if err != nil {
						return nil, err
					}
					pr[k] = int(m)
					r.pos += int(m)
				}
				info.fn.types = append(info.fn.types, pr)
			}
		case 3: // functions: a type index each
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				t, err := r.u32()
				if err != nil {
					return nil, err
				}
				info.fn.funcType = append(info.fn.funcType, t)
			}
		case 2: // imports
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				mod, err := r.name()
				if err != nil {
					return nil, err
				}
				field, err := r.name()
				if err != nil {
					return nil, err
				}
				kind, err := r.byte()
				if err != nil {
					return nil, err
				}
				if kind != 0 {
					return nil, fmt.Errorf("import %s.%s: only function imports are expected", mod, field)
				}
				t, err := r.u32() // type index
				if err != nil {
					return nil, err
				}
				info.fn.funcType = append(info.fn.funcType, t)
				nImportedFuncs++
				if mod == "jitsim" && field == "charges" { // an inline module's charge hook (tiers/internal/inlinegen)
					info.charge = true
					continue
				}
				if mod == "jvm.blocks" { // a batched call (src/jvm.h BLOCKS_ON)
					info.blocks = append(info.blocks, field)
					info.fn.batched = append(info.fn.batched, uint32(nImportedFuncs-1))
					continue
				}
				if mod != "jvm" {
					return nil, fmt.Errorf("import %s.%s: only modules \"jvm\" and \"jvm.blocks\" (and jitsim.charges) are expected", mod, field)
				}
				info.imports = append(info.imports, field)
			}
		case 6: // globals: (type, mut, init expr); clang emits i32.const N end
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				if _, err := r.byte(); err != nil { // valtype
					return nil, err
				}
				if _, err := r.byte(); err != nil { // mut
					return nil, err
				}
				op, err := r.byte()
				if err != nil {
					return nil, err
				}
				var v uint32
				if op == 0x41 { // i32.const (signed LEB; our values are small and positive)
					if v, err = r.u32(); err != nil {
						return nil, err
					}
				}
				for {
					c, err := r.byte()
					if err != nil {
						return nil, err
					}
					if c == 0x0b {
						break
					}
				}
				globalInits = append(globalInits, v)
			}
		case 7: // exports
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for range n {
				nm, err := r.name()
				if err != nil {
					return nil, err
				}
				kind, err := r.byte()
				if err != nil {
					return nil, err
				}
				idx, err := r.u32()
				if err != nil {
					return nil, err
				}
				switch kind {
				case 0:
					funcExports[idx] = nm
					info.fn.exports[nm] = idx
				case 3:
					globalExports[nm] = idx
				}
			}
		case 10: // code
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			for i := range n {
				sz, err := r.u32()
				if err != nil {
					return nil, err
				}
				if nm, ok := funcExports[uint32(nImportedFuncs)+i]; ok {
					info.exports[nm] = int(sz)
				}
				if r.pos+int(sz) > end {
					return nil, errTruncated
				}
				info.fn.bodies = append(info.fn.bodies, r.b[r.pos:r.pos+int(sz)])
				r.pos += int(sz)
			}
		}
		r.pos = end
	}
	if g, ok := globalExports["__heap_base"]; ok && int(g) < len(globalInits) {
		info.heapBase = globalInits[g]
	}
	info.fn.nImported = nImportedFuncs
	for _, b := range info.blocks {
		if !slices.Contains(info.imports, b) {
			return nil, fmt.Errorf("import jvm.blocks.%s: the module does not import jvm.%s", b, b)
		}
	}
	return info, nil
}
