// Command flagtable prints a JVM's flag table in the VM's own order, one flag a line:
// "NAME bool" or "NAME value", followed by "develop" or "notproduct" for the flags a product
// build refuses as available only in a debug build. It is run by hand, once per JVM, and
// never by go generate or the tests.
//
// Usage: go run ./flags/testdata/jvmflags/flagtable /path/to/java >flags/testdata/jvmflags/jdk-VERSION.flagtable.txt
//
// The order is the one java's "Did you mean" search walks (the first best match wins), and
// PrintFlagsFinal sorts by name, so the table is read from libjvm.so: the flagTable symbol
// is an array of 24-byte entries (address, name, flags, type) whose name pointers are
// relative relocations. A flag's type 0 is bool; a flag PrintFlagsFinal does not list is a
// debug-only flag, whose kind the JVM itself is asked for: every such name is set once
// and must be refused as "develop" or "notproduct".
package main

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: flagtable /path/to/java")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "flagtable:", err)
		os.Exit(1)
	}
}

type entry struct {
	name   string
	isBool bool
}

func run(java string) error {
	bin, err := exec.LookPath(java)
	if err != nil {
		return err
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return err
	}
	entries, err := readTable(filepath.Join(filepath.Dir(filepath.Dir(bin)), "lib", "server", "libjvm.so"))
	if err != nil {
		return err
	}
	out, err := exec.Command(java, "-XX:+UnlockDiagnosticVMOptions", "-XX:+UnlockExperimentalVMOptions", "-XX:+PrintFlagsFinal", "-version").Output()
	if err != nil {
		return err
	}
	listed := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[2] == "=" {
			listed[f[1]] = true
		}
	}
	refused := regexp.MustCompile(`VM option '([A-Za-z0-9_]+)' is (develop|notproduct) and is available only in debug version of VM`)
	var b bytes.Buffer
	for _, e := range entries {
		typ := "value"
		if e.isBool {
			typ = "bool"
		}
		if listed[e.name] {
			fmt.Fprintf(&b, "%s %s\n", e.name, typ)
			continue
		}
		arg := "-XX:" + e.name + "=0"
		if e.isBool {
			arg = "-XX:+" + e.name
		}
		msg, _ := exec.Command(java, arg, "-version").CombinedOutput()
		m := refused.FindSubmatch(msg)
		if m == nil || string(m[1]) != e.name {
			return fmt.Errorf("%s is not in PrintFlagsFinal and the JVM does not refuse it as debug-only: %q", e.name, msg)
		}
		fmt.Fprintf(&b, "%s %s %s\n", e.name, typ, m[2])
	}
	_, err = os.Stdout.Write(b.Bytes())
	return err
}

// readTable reads flagTable from libjvm.so: its entries up to the first without a name.
func readTable(path string) ([]entry, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	var table elf.Symbol
	for _, s := range syms {
		if s.Name == "_ZL9flagTable" {
			table = s
		}
	}
	if table.Size == 0 {
		return nil, fmt.Errorf("%s: no flagTable symbol", path)
	}
	// The name pointers are R_X86_64_RELATIVE relocations: their addend is the string's address.
	rela := f.Section(".rela.dyn")
	if rela == nil {
		return nil, fmt.Errorf("%s: no .rela.dyn", path)
	}
	relocs, err := rela.Data()
	if err != nil {
		return nil, err
	}
	names := map[uint64]uint64{}
	for i := 0; i+24 <= len(relocs); i += 24 {
		off := binary.LittleEndian.Uint64(relocs[i:])
		info := binary.LittleEndian.Uint64(relocs[i+8:])
		if off >= table.Value && off < table.Value+table.Size && elf.R_X86_64(info&0xffffffff) == elf.R_X86_64_RELATIVE {
			names[off] = binary.LittleEndian.Uint64(relocs[i+16:])
		}
	}
	raw, err := read(f, table.Value, table.Size)
	if err != nil {
		return nil, err
	}
	var entries []entry
	for at := uint64(0); at+24 <= table.Size; at += 24 {
		addr, ok := names[table.Value+at+8]
		if !ok {
			break
		}
		name, err := cString(f, addr)
		if err != nil {
			return nil, err
		}
		entries = append(entries, entry{name: name, isBool: binary.LittleEndian.Uint32(raw[at+20:]) == 0})
	}
	if len(entries) < 500 {
		return nil, fmt.Errorf("%s: only %d flags read from flagTable", path, len(entries))
	}
	return entries, nil
}

// read returns size bytes at virtual address addr.
func read(f *elf.File, addr, size uint64) ([]byte, error) {
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && addr >= p.Vaddr && addr+size <= p.Vaddr+p.Filesz {
			b := make([]byte, size)
			_, err := p.ReadAt(b, int64(addr-p.Vaddr))
			return b, err
		}
	}
	return nil, fmt.Errorf("address %#x not in a loaded segment", addr)
}

// cString reads the NUL-terminated string at addr (flag names are short).
func cString(f *elf.File, addr uint64) (string, error) {
	b, err := read(f, addr, 128)
	if err != nil {
		return "", err
	}
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		return "", fmt.Errorf("no string at %#x", addr)
	}
	return string(b[:n]), nil
}
