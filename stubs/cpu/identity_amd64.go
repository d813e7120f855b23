package cpu

// cpuid executes the CPUID instruction (cpuid_amd64.s).
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// hostIdentity reads the vendor, family and extensions from CPUID, with the leaf and bit
// positions of the Intel SDM (vol. 2A, CPUID) and AMD's APM (vol. 3, appendix E), which agree
// on every bit used here.
func hostIdentity() Identity {
	max, b, c, d := cpuid(0, 0)
	id := Identity{Vendor: vendorOf(string(le(b)) + string(le(d)) + string(le(c)))}
	if max < 1 {
		return id
	}
	a, _, c1, _ := cpuid(1, 0)
	id.Family = int(a>>8) & 0xf
	if id.Family == 0xf {
		id.Family += int(a>>20) & 0xff
	}
	bit := func(r uint32, n uint) bool { return r&(1<<n) != 0 }
	add := func(ok bool, x Ext) {
		if ok {
			id.Ext = id.Ext.With(x)
		}
	}
	add(bit(c1, 23), POPCNT)
	add(bit(c1, 12), FMA)
	if max >= 7 {
		_, b7, _, _ := cpuid(7, 0)
		add(bit(b7, 3), BMI1)
		add(bit(b7, 8), BMI2)
		add(bit(b7, 9), ERMS)
		add(bit(b7, 29), SHA)
	}
	if ext, _, _, _ := cpuid(0x80000000, 0); ext >= 0x80000001 {
		_, _, c8, _ := cpuid(0x80000001, 0)
		add(bit(c8, 5), LZCNT)
	}
	return id
}

// le returns a register's four bytes in memory order (the vendor string's layout).
func le(r uint32) []byte { return []byte{byte(r), byte(r >> 8), byte(r >> 16), byte(r >> 24)} }
