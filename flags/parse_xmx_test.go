package flags

import (
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// TestMaxHeapSize: -Xmx sets Result.MaxHeapSize (the last one wins, with
// HotSpot's k/m/g suffixes); -Xms does not; both stay in Ignored.
func TestMaxHeapSize(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want uint64
	}{
		{nil, 0},
		{[]string{"-Xms64m"}, 0},
		{[]string{"-Xmx512m"}, 512 << 20},
		{[]string{"-Xmx2g", "-Xmx300M"}, 300 << 20},
		{[]string{"-Xmx65536k"}, 64 << 20},
		{[]string{"-Xmx4194304"}, 4 << 20},
	} {
		_, res, err := Parse(Options{JDK: jdk.R17, Arch: jdk.AMD64, Args: tc.args})
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if res.MaxHeapSize != tc.want {
			t.Errorf("%q: MaxHeapSize = %d, want %d", tc.args, res.MaxHeapSize, tc.want)
		}
		if len(res.Ignored) != len(tc.args) {
			t.Errorf("%q: Ignored = %q", tc.args, res.Ignored)
		}
	}
}

// TestHeapSizeInitErrors: HotSpot's initialization errors for heap sizes,
// as JDK 17.0.15 and Temurin 25.0.3 print them here (to stdout, exit 1, no
// launcher lines): -Xmx below 2 MiB, -Xms above -Xmx.
func TestHeapSizeInitErrors(t *testing.T) {
	for _, r := range []jdk.Release{jdk.R17, jdk.R25} {
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"-Xmx1m"}, "Too small maximum heap"},
			{[]string{"-Xmx2047k"}, "Too small maximum heap"},
			{[]string{"-Xms8m", "-Xmx4m"}, "Initial heap size set to a larger value than the maximum heap size"},
			{[]string{"-Xmx4m", "-Xms8m"}, "Initial heap size set to a larger value than the maximum heap size"},
			{[]string{"-Xmx2m"}, ""},
			{[]string{"-Xms64m"}, ""},
		} {
			_, _, err := Parse(Options{JDK: r, Arch: jdk.AMD64, Args: tc.args})
			if tc.want == "" {
				if err != nil {
					t.Errorf("JDK %s %q: %v", r, tc.args, err)
				}
				continue
			}
			fe, ok := err.(*Error)
			if !ok {
				t.Fatalf("JDK %s %q: error %v, want an *Error", r, tc.args, err)
			}
			if want := "Error occurred during initialization of VM\n" + tc.want + "\n"; fe.Text != want || !fe.Stdout || fe.Launcher {
				t.Errorf("JDK %s %q: %+v, want Text %q on stdout without launcher lines", r, tc.args, fe, want)
			}
		}
	}
}
