package ergo

import (
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// TestMachineRowsFollowTheModel checks the machine pass's vendor and extension keys on the
// named models (the AMD rows are held to java's recordings by TestErgonomicsMatchRecordings
// in cmd/jitsim): an Intel part without BMI (Sandy Bridge) and one with it (Haswell), and a
// model without an identity, which keeps the table's values.
func TestMachineRowsFollowTheModel(t *testing.T) {
	value := func(rows map[string]string, name string) string {
		f := strings.Fields(rows[name])
		if len(f) < 4 {
			t.Fatalf("no row %s", name)
		}
		return f[3]
	}
	for _, tt := range []struct {
		model string
		want  map[string]string
	}{
		{"sandybridge-i5", map[string]string{"UseBMI1Instructions": "false", "UseFMA": "false", "UsePopCountInstruction": "true",
			"UseSHA": "false", "AllocatePrefetchDistance": "192", "UseXmmI2D": "false", "AlignVector": "false", "MaxVectorSize": "32"}},
		{"haswell-e5-2660v3", map[string]string{"UseBMI1Instructions": "true", "UseBMI2Instructions": "true", "UseFMA": "true",
			"UseCountLeadingZerosInstruction": "true", "UseSHA": "true", "UseSHA1Intrinsics": "false", "UseSHA512Intrinsics": "true"}},
		{"icelake-server", map[string]string{"UseSHA": "true", "UseSHA1Intrinsics": "true", "MaxVectorSize": "64"}},
	} {
		m, err := cpu.Lookup(tt.model)
		if err != nil {
			t.Fatal(err)
		}
		rows, _, _, err := settle(t, jdk.R17, jdk.AMD64, m, m.Cores, []string{"-XX:+UnlockDiagnosticVMOptions"})
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range tt.want {
			if got := value(rows, name); got != want {
				t.Errorf("%s: %s = %s, want %s", tt.model, name, got, want)
			}
		}
		m.ID = cpu.Identity{}
		rows, _, _, _ = settle(t, jdk.R17, jdk.AMD64, m, m.Cores, nil)
		if got := value(rows, "UseBMI1Instructions"); got != "false" {
			t.Errorf("%s without identity: UseBMI1Instructions = %s, want the table's false", tt.model, got)
		}
		if got := value(rows, "AllocatePrefetchDistance"); got != "-1" {
			t.Errorf("%s without identity: AllocatePrefetchDistance = %s, want the table's -1", tt.model, got)
		}
	}
}

// TestC1InlineStackLimitFollowsTheStopLevel checks the C1InlineStackLimit row: 5 where C2 may
// inline, the declared 10 under C1 alone and under any TieredStopAtLevel below 4, whatever
// the mode (17.0.15, 25.0.3).
func TestC1InlineStackLimitFollowsTheStopLevel(t *testing.T) {
	m, err := cpu.Lookup("icelake-server")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "5"},
		{[]string{"-Xint"}, "5"},
		{[]string{"-XX:-TieredCompilation"}, "5"},
		{[]string{"-XX:CompilationMode=quick-only"}, "10"},
		{[]string{"-XX:TieredStopAtLevel=0"}, "10"},
		{[]string{"-XX:-TieredCompilation", "-XX:TieredStopAtLevel=0"}, "10"},
		{[]string{"-XX:-TieredCompilation", "-XX:TieredStopAtLevel=1"}, "10"},
		{[]string{"-Xint", "-XX:TieredStopAtLevel=0"}, "10"},
		{[]string{"-XX:CompilationMode=high-only", "-XX:TieredStopAtLevel=3"}, "10"},
	} {
		for _, j := range []jdk.Release{jdk.R17, jdk.R25} {
			rows, _, _, err := settle(t, j, jdk.AMD64, m, 2, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if f := strings.Fields(rows["C1InlineStackLimit"]); len(f) < 4 || f[3] != tt.want {
				t.Errorf("%s %v: C1InlineStackLimit row %q, want %s", j, tt.args, rows["C1InlineStackLimit"], tt.want)
			}
		}
	}
}
