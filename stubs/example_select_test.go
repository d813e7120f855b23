package stubs_test

import (
	"fmt"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs"
	"github.com/jitsim/jitsim/stubs/aes"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// ExampleSelect asks which counterMode_AESCrypt stub JDK 25 generates on an
// Ice Lake server, with the default flags and with -XX:UseAVX=2.
func ExampleSelect() {
	ice, _ := cpu.Lookup("icelake-server")
	cfg := stubs.Config{JDK: jdk.R25, Arch: jdk.AMD64, UseAES: true, UseAESIntrinsics: true,
		UseAESCTRIntrinsics: true, UseGHASHIntrinsics: true, UseAVX: 3, UseSSE: 99}
	v, _ := stubs.Select(aes.StubCTR, cfg, ice.Features)
	fmt.Println(v.Name, v.Generator)
	cfg.UseAVX = 2
	v, _ = stubs.Select(aes.StubCTR, cfg, ice.Features)
	fmt.Println(v.Name, v.Generator)
	cfg.JDK = jdk.R8u
	_, ok := stubs.Select(aes.StubCTR, cfg, ice.Features)
	fmt.Println(ok)
	// Output:
	// vaes-avx512 generate_counterMode_VectorAESCrypt
	// aesni-parallel6 generate_counterMode_AESCrypt_Parallel
	// false
}
