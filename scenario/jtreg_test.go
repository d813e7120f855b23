package scenario

import (
	"os"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// jtregRuns are the -D settings of the JDK's own @run lines for
// TestAESMain (compiler/codegen/aes), per mode: aligned, each offset
// alone, two and three offsets, and NoPadding with a 640-byte message.
var jtregRuns = []string{
	"",
	"encInputOffset=1",
	"encOutputOffset=1",
	"decOutputOffset=1",
	"encInputOffset=1 encOutputOffset=1",
	"encInputOffset=1 encOutputOffset=1 decOutputOffset=1",
	"encInputOffset=1 encOutputOffset=1 decOutputOffset=1 paddingStr=NoPadding msgSize=640",
	// An empty value, as the jtreg runs pass it: Integer.getInteger gives the default 0.
	"encOutputOffset=",
}

// TestJtregMatrix runs TestAESMain with checkOutput=true over the jtreg
// matrix (4 modes x 7 settings) on every profile. Every output is compared
// with the first one (as the Java test does) and the first with
// crypto/cipher. By default each run is 2 iterations after 1 warm-up (the
// interpreter and C1); with JITSIM_LONG=1 it is 3000 after 1000, long
// enough for C2 code and the intrinsic stubs to take over mid-run, whose
// bytes are then checked against the interpreter's.
func TestJtregMatrix(t *testing.T) {
	args := []string{"2", "1"}
	if os.Getenv("JITSIM_LONG") == "1" {
		args = []string{"3000", "1000"}
	}
	for _, rel := range jdk.All() {
		env := testEnv(t, rel)
		for _, mode := range []string{"CBC", "ECB", "GCM", "CTR"} {
			for _, run := range jtregRuns {
				props := map[string]string{"mode": mode, "checkOutput": "true"}
				if mode == "CTR" && strings.HasPrefix(rel.String(), "8") {
					props["paddingStr"] = "NoPadding" // JDK 8's test had no CTR runs; its default padding was PKCS5Padding
				}
				for _, kv := range strings.Fields(run) {
					k, v, _ := strings.Cut(kv, "=")
					props[k] = v
				}
				t.Run(rel.String()+"/"+mode+"/"+strings.ReplaceAll(run, " ", ","), func(t *testing.T) {
					out, err := runScenario(t, env, "TestAESMain", props, args...)
					if err != nil {
						t.Fatalf("%v\n%s", err, out)
					}
					if !strings.Contains(out, "encode:  [") || !strings.Contains(out, "TestAESDecode runtime was") {
						t.Errorf("output:\n%s", out)
					}
				})
			}
		}
	}
}
