package cpu_test

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

func ExampleLookup() {
	m, err := cpu.Lookup("haswell-e5-2660v3")
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Arch, m.Cores, m.Features)
	fmt.Println(cpu.Mask{Release: jdk.R25, UseSSE: 4, UseAVX: 1}.Apply(m.Features).Has(cpu.AVX2))
	// Output:
	// amd64 10 aes,avx,avx2,pclmulqdq,sse2,sse3,sse4.1,sse4.2,ssse3
	// false
}
