package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestJtregCommandLines runs TestAESMain with the options of the JDK's own jtreg runs
// (compiler/codegen/aes: -Xbatch -DcheckOutput=true and the -D settings of each mode, an
// empty -DencOutputOffset= included) as whole command lines through `jitsim run`, with
// small iteration counts on the model clock: each must run to the end with its outputs
// checked against crypto/cipher, print no note about unread properties, and show the
// offsets TestAESBase computes (the empty one is 0).
func TestJtregCommandLines(t *testing.T) {
	for _, line := range []string{
		"-Xbatch -DcheckOutput=true -Dmode=CBC",
		"-Xbatch -DcheckOutput=true -Dmode=ECB -DencOutputOffset=",
		"-Xbatch -DcheckOutput=true -Dmode=GCM -DencInputOffset=1 -DencOutputOffset=1 -DdecOutputOffset=1",
		"-Xbatch -DcheckOutput=true -Dmode=CTR -DencInputOffset=9 -DpaddingStr=NoPadding -DmsgSize=640",
	} {
		t.Run(line, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append(append([]string{"run", "--jdk=17", "--cpu=icelake-server", "--clock=model"}, strings.Fields(line)...), "TestAESMain", "3", "2")
			if exit := run(args, strings.NewReader(""), &out, &errb, func(string) (string, bool) { return "", false }); exit != 0 {
				t.Fatalf("exit %d\nstderr: %s", exit, errb.String())
			}
			if strings.Contains(errb.String(), "note:") {
				t.Errorf("stderr: %s", errb.String())
			}
			if !strings.Contains(out.String(), "checkOutput=true") || !strings.Contains(out.String(), "TestAESDecode runtime was") {
				t.Errorf("output:\n%s", out.String())
			}
			if strings.HasSuffix(line, "-DencOutputOffset=") {
				if !strings.Contains(out.String(), "encOutputOffset=0") {
					t.Errorf("empty -DencOutputOffset= is not 0:\n%s", out.String())
				}
			}
			if strings.Contains(line, "encInputOffset=9") && !strings.Contains(out.String(), "encInputOffset=1") {
				t.Errorf("-DencInputOffset=9 is not taken mod 8:\n%s", out.String())
			}
		})
	}
}
