package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestExplainGolden")

// TestExplainGolden runs `jitsim explain` command lines and compares exit status, stdout and
// stderr with testdata/explain/NAME.golden (go test ./cmd/jitsim -run TestExplainGolden
// -update rewrites them). The CPU models are ones this project's machines can run, so the
// variant that runs is the one selected; on a weaker host the "(this host runs …)" notes would
// differ.
func TestExplainGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"jdk17-ghash-off", []string{"--jdk=17", "-XX:+UnlockDiagnosticVMOptions", "-XX:-UseGHASHIntrinsics", "_ghash_processBlocks"}},
		{"jdk17-ghash-on-icelake", []string{"--jdk=17", "--cpu=icelake-server", "GHASHProcessBlocks"}},
		{"sandybridge-jdk25-gcm", []string{"--cpu=sandybridge-i5", "--jdk=25", "_galoisCounterMode_AESCrypt"}},
		{"icelake-jdk25-gcm", []string{"--cpu=icelake-server", "--jdk=25", "GaloisCounterMode::implGCMCrypt0"}},
		{"haley-ctr", []string{"--cpu=skylake-avx2", "-XX:+UnlockExperimentalVMOptions", "-XX:+UseInterpreterAndC1CryptoIntrinsics", "CounterMode::implCrypt"}},
		{"haley-locked", []string{"--cpu=skylake-avx2", "-XX:+UseInterpreterAndC1CryptoIntrinsics", "CounterMode::implCrypt"}},
		{"disable-intrinsic", []string{"--jdk=21", "--cpu=haswell-e5-2660v3", "-XX:+UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic=_counterMode_AESCrypt", "com.sun.crypto.provider.CounterMode::implCrypt"}},
		{"jdk8-names", []string{"--jdk=8", "--cpu=haswell-e5-2660v3", "AESCrypt.encryptBlock"}},
		{"not-intrinsic", []string{"--cpu=icelake-server", "GHASH::update"}},
		{"gcm-missing-in-jdk8", []string{"--jdk=8", "--cpu=icelake-server", "_galoisCounterMode_AESCrypt"}},
		{"ergonomics-warning", []string{"--cpu=sandybridge-i5", "-XX:UseAVX=3", "_counterMode_AESCrypt"}},
		{"arm-json", []string{"--json", "--jdk=25", "--cpu=neoverse-n1", "_ghash_processBlocks"}},
		{"unknown-name", []string{"--jdk=25", "Nope::nothing"}},
		{"no-name", []string{"--jdk=25"}},
		{"two-names", []string{"_ghash_processBlocks", "GHASH::update"}},
		{"jdk17-aes-off-hot-too-big", []string{"--jdk=17", "--cpu=icelake-server", "-XX:+UnlockDiagnosticVMOptions", "-XX:-UseAESIntrinsics", "AESCrypt::implEncryptBlock"}},
		{"jdk8-size-stand-in", []string{"--jdk=8", "--cpu=haswell-e5-2660v3", "GaloisCounterMode.GCMEngine.doLastBlock"}},
		{"c1-size-flag", []string{"--jdk=25", "--cpu=icelake-server", "-XX:C1MaxInlineSize=325", "GCTR::update"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exit, stdout, stderr := jitsim(append([]string{"explain"}, tt.args...)...)
			got := "$ jitsim explain " + strings.Join(tt.args, " ") + "\n" +
				"exit " + itoa(exit) + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr
			path := filepath.Join("testdata", "explain", tt.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("jitsim explain %s: output differs from %s (-update rewrites it)\n--- got\n%s\n--- want\n%s", strings.Join(tt.args, " "), path, got, want)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestExplainJSONAgreesWithTree checks that --json and the tree say the same per level
// (stub or Java, and the reason) for every intrinsic on a few CPU models and JDKs.
func TestExplainJSONAgreesWithTree(t *testing.T) {
	for _, c := range [][]string{{"--jdk=8", "--cpu=sandybridge-i5"}, {"--jdk=17", "--cpu=icelake-server"}, {"--jdk=25", "--cpu=neoverse-n1"}} {
		for _, name := range []string{"_aescrypt_encryptBlock", "_cipherBlockChaining_decryptAESCrypt", "_counterMode_AESCrypt", "_galoisCounterMode_AESCrypt", "_ghash_processBlocks"} {
			t.Run(strings.Join(c, ",")+"/"+name, func(t *testing.T) {
				exit, js, stderr := jitsim(append(append([]string{"explain", "--json"}, c...), name)...)
				if exit != 0 {
					t.Fatalf("exit %d: %s", exit, stderr)
				}
				var ex Explanation
				if err := json.Unmarshal([]byte(js), &ex); err != nil {
					t.Fatal(err)
				}
				exit, tree, stderr := jitsim(append(append([]string{"explain"}, c...), name)...)
				if exit != 0 {
					t.Fatalf("exit %d: %s", exit, stderr)
				}
				if len(ex.Levels) != 5 {
					t.Fatalf("%d levels, want 5", len(ex.Levels))
				}
				for _, le := range ex.Levels {
					if !strings.Contains(tree, "why: "+le.Reason) {
						t.Errorf("level %d: tree lacks reason %q:\n%s", le.Level, le.Reason, tree)
					}
					if le.Call == "stub" && !strings.Contains(tree, "→ stub "+ex.Stub+"/"+le.Variant) {
						t.Errorf("level %d: tree lacks stub %s/%s:\n%s", le.Level, ex.Stub, le.Variant, tree)
					}
				}
			})
		}
	}
}
