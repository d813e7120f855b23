package cpu

// DefaultMemory is the physical memory of a named CPU model whose row gives none: 16 GiB, a
// common size for the servers and workstations the named parts sit in. HotSpot sizes the
// default Java heap from the machine's memory (a quarter for MaxHeapSize, 1/64 for
// InitialHeapSize), so every named model needs one; `--cpu=host` reads this machine's.
const DefaultMemory = 16 << 30

// PhysicalMemory returns the model's physical memory in bytes (Memory, or DefaultMemory when
// the model gives none): what os::physical_memory() returns to HotSpot's heap ergonomics.
func (m Model) PhysicalMemory() uint64 {
	if m.Memory == 0 {
		return DefaultMemory
	}
	return m.Memory
}

// THPAlways reports whether the model's kernel runs transparent huge pages in "always" mode
// (HotSpot then keeps THPStackMitigation on); the host's mode is read from
// /sys/kernel/mm/transparent_hugepage/enabled, a named model's is "madvise".
func (m Model) THPAlways() bool { return m.THP == "always" }
