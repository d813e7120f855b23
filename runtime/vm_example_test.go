package runtime_test

import (
	"fmt"

	"github.com/jitsim/jitsim/flags"
	"github.com/jitsim/jitsim/jdk"
	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/tiers"
)

// ExampleVM_Explain shows why a call to AESCrypt.implEncryptBlock goes
// where it goes: the Java code from C1 (level 3) callers, the AES-NI stub
// from C2 (level 4) callers — and from every level with jitsim's
// experimental flag for Andrew Haley's proof of concept.
func ExampleVM_Explain() {
	model, _ := cpu.Lookup("icelake-server")
	for _, args := range [][]string{nil, {"-XX:+UnlockExperimentalVMOptions", "-XX:+UseInterpreterAndC1CryptoIntrinsics"}} {
		set, _, err := flags.Parse(flags.Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: args})
		if err != nil {
			fmt.Println(err)
			return
		}
		vm, err := jrt.New(jrt.NewConfig().WithFlags(set).WithCPU(model).WithTiers(tiers.Default()...))
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, level := range []jrt.Level{jrt.LevelFullProfile, jrt.LevelFullOptimization} {
			d, _ := vm.Explain("AESCrypt::implEncryptBlock", level)
			fmt.Printf("%s -> stub=%v %s/%s (%s)\n", d.Method, d.Stub, d.Variant.Stub, d.Variant.Name, d.Reason)
		}
		vm.Close()
	}
	// Output:
	// AESCrypt::implEncryptBlock -> stub=false / (callers at this level do not use intrinsics (C2 only))
	// AESCrypt::implEncryptBlock -> stub=true aescrypt_encryptBlock/aesni (intrinsic)
	// AESCrypt::implEncryptBlock -> stub=true aescrypt_encryptBlock/aesni (intrinsic)
	// AESCrypt::implEncryptBlock -> stub=true aescrypt_encryptBlock/aesni (intrinsic)
}
