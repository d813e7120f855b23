package flags

import (
	"fmt"
	"io"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// PrintFlagsFinal writes the flags in HotSpot's -XX:+PrintFlagsFinal layout for the set's
// profile: "[Global flags]", then one row per flag, sorted by name, diagnostic and
// experimental flags only when unlocked.
func (s *Set) PrintFlagsFinal(w io.Writer) error {
	return s.print(w, s)
}

// PrintFlagsRanges writes the -XX:+PrintFlagsRanges table: "[Global flags ranges]", then one
// row per numeric flag (bool and string flags are skipped) with its allowed range in place of
// the value (JVMFlag::print_on with printRanges, JVMFlagRange printing).
func (s *Set) PrintFlagsRanges(w io.Writer) error {
	var b strings.Builder
	b.WriteString("[Global flags ranges]\n")
	diag, exp := s.Bool("UnlockDiagnosticVMOptions"), s.Bool("UnlockExperimentalVMOptions")
	for i, f := range table {
		e := s.at(i)
		if e == nil || e.typ == Bool || e.typ.isString() {
			continue
		}
		if k := f.Kind.At(s.jdk); k == Diagnostic && !diag || k == Experimental && !exp {
			continue
		}
		c := &column{b: &b}
		c.write(fmt.Sprintf("%9s", e.typ))
		c.fill(10)
		c.write(f.Name)
		c.fill(61)
		lo, hi := "", ""
		if r := f.RangeAt(s.jdk); r != nil {
			switch e.typ {
			case Int, Intx:
				lo, hi = fmt.Sprint(r.Min), fmt.Sprint(r.Max)
			case Uintx, Uint, Uint64, SizeT:
				lo, hi = fmt.Sprint(r.UMin), fmt.Sprint(r.UMax)
			case Double:
				lo, hi = fmt.Sprintf("%.3f", r.FMin), fmt.Sprintf("%.3f", r.FMax)
			}
		}
		c.write(fmt.Sprintf("[ %-25s ... %25s ]", lo, hi))
		c.fill(122)
		c.write(fmt.Sprintf("%35s", s.kindString(f)))
		c.fill(158)
		c.write("{" + s.OriginString(f.Name) + "}")
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PrintFlagsInitial writes the declared defaults in the -XX:+PrintFlagsInitial layout (the
// values before any option or ergonomics: product flags only, all {default}).
func (s *Set) PrintFlagsInitial(w io.Writer) error {
	return s.print(w, NewSet(s.jdk, s.arch))
}

func (s *Set) print(w io.Writer, vals *Set) error {
	var b strings.Builder
	b.WriteString("[Global flags]\n")
	diag, exp := vals.Bool("UnlockDiagnosticVMOptions"), vals.Bool("UnlockExperimentalVMOptions")
	for i, f := range table {
		e := vals.at(i)
		if e == nil {
			continue
		}
		switch f.Kind.At(s.jdk) {
		case Diagnostic:
			if !diag {
				continue
			}
		case Experimental:
			if !exp {
				continue
			}
		}
		if s.jdk.Modern() {
			vals.row(&b, e)
		} else {
			vals.row8(&b, e)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// kindString is JVMFlag::print_kind: decorations, then the kind word ("product" is dropped
// for diagnostic, manageable and experimental flags), then "lp64_product", in braces.
func (s *Set) kindString(f *Flag) string { return kindText(f, s.jdk) }

func kindText(f *Flag, j jdk.Release) string {
	var words, after []string
	for _, d := range strings.Fields(f.Decor.At(j)) {
		if d == lp64 {
			after = append(after, d)
		} else {
			words = append(words, d)
		}
	}
	words = append(words, f.Kind.At(j).String())
	return "{" + strings.Join(append(words, after...), " ") + "}"
}

// lp64 is the decoration of flags that exist only in 64-bit VMs (UseCompressedOops), printed
// after the kind word.
const lp64 = "lp64_product"

// column is a line builder that knows its current column.
type column struct {
	b *strings.Builder
	n int
}

func (c *column) write(s string) { c.b.WriteString(s); c.n += len(s) }

// fill moves to column pos, or inserts one blank when the text already reached it
// (outputStream::fill_to as JVMFlag::print_on uses it).
func (c *column) fill(pos int) {
	if c.n < pos {
		c.write(strings.Repeat(" ", pos-c.n))
	} else if c.n > 0 {
		c.write(" ")
	}
}

// row writes one flag in the JDK 11+ layout (JVMFlag::print_on): type right-justified in 9
// columns, name at 10, " =" at 50, value at 53, kind right-justified in 20 at 84, origin at
// 105. Multi-line string values continue on lines that repeat the name with "+=".
func (s *Set) row(b *strings.Builder, e *entry) {
	val := format(e.typ, e.v)
	lines := []string{val}
	if e.typ.isString() {
		lines = strings.Split(val, "\n")
	}
	for i, v := range lines {
		c := &column{b: b}
		if i == 0 {
			c.write(fmt.Sprintf("%9s", e.typ))
			c.fill(10)
			c.write(e.flag.Name)
			c.fill(50)
			c.write(" =")
		} else {
			c.fill(10)
			c.write(e.flag.Name)
			c.fill(50)
			c.write("+=")
		}
		c.fill(53)
		c.write(v)
		if i == len(lines)-1 {
			c.fill(84)
			c.write(fmt.Sprintf("%20s", s.kindString(e.flag)))
			c.fill(105)
			c.write("{" + s.OriginString(e.flag.Name) + "}")
		}
		b.WriteString("\n")
	}
}

// row8 writes one flag in the JDK 8 layout (Flag::print_on in 8u globals.cpp):
// "%9s %-40s %c= " with ':' when the value is not the default, the value left-justified in
// 16, 20 blanks, then the kind.
func (s *Set) row8(b *strings.Builder, e *entry) {
	mark := ' '
	if e.origin != Default || e.cmdErgo {
		mark = ':'
	}
	fmt.Fprintf(b, "%9s %-40s %c= ", e.typ, e.flag.Name, mark)
	val := format(e.typ, e.v)
	if e.typ.isString() {
		parts := strings.Split(val, "\n")
		for _, p := range parts[:len(parts)-1] {
			b.WriteString(p + "\n")
			fmt.Fprintf(b, "%5s %-35s += ", "", e.flag.Name)
		}
		val = parts[len(parts)-1]
	}
	fmt.Fprintf(b, "%-16s", val)
	fmt.Fprintf(b, "%-20s", " ")
	b.WriteString(s.kindString(e.flag))
	b.WriteString("\n")
}

// PrintCommandLineFlags writes -XX:+PrintCommandLineFlags' line: every flag not at its
// default origin, sorted, as -XX: options separated by blanks (a list given more than once,
// once per part: -XX:DisableIntrinsic=a -XX:DisableIntrinsic=b, observed on 17 and 25).
func (s *Set) PrintCommandLineFlags(w io.Writer) error {
	var items []string
	for i, f := range table {
		e := s.at(i)
		if e == nil || (e.origin == Default && !e.cmdErgo) {
			continue
		}
		if e.typ == Bool {
			sign := "-"
			if e.v.b {
				sign = "+"
			}
			items = append(items, "-XX:"+sign+f.Name)
		} else {
			// A list given more than once holds its parts on separate lines; java prints each
			// part as an option of its own.
			v := strings.ReplaceAll(format(e.typ, e.v), "\n", " -XX:"+f.Name+"=")
			items = append(items, "-XX:"+f.Name+"="+v)
		}
	}
	_, err := io.WriteString(w, strings.Join(items, " ")+" \n")
	return err
}
