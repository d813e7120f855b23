package policy

import (
	"testing"
	"time"

	"github.com/jitsim/jitsim/jdk"
)

// TestFormatCompilation checks PrintCompilation lines byte for byte
// against lines the real JVMs printed (shared transcripts and testdata/jvm).
func TestFormatCompilation(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name string
		jdk  jdk.Release
		line CompileLine
		want string
	}{
		{"17 normal", jdk.R17, CompileLine{Time: 29 * ms, ID: 1, OSRBCI: -1, Level: 3, Tiered: true, Name: "java.lang.Object::<init>", CodeSize: 1},
			"     29    1       3       java.lang.Object::<init> (1 bytes)"},
		{"17 native", jdk.R17, CompileLine{Time: 35 * ms, ID: 4, OSRBCI: -1, Native: true, Level: 0, Tiered: true, Name: "jdk.internal.misc.Unsafe::getReferenceVolatile"},
			"     35    4     n 0       jdk.internal.misc.Unsafe::getReferenceVolatile (native)   "},
		{"17 native static", jdk.R17, CompileLine{Time: 36 * ms, ID: 7, OSRBCI: -1, Native: true, Level: 0, Tiered: true, Name: "java.lang.System::arraycopy", Message: "(static)"},
			"     36    7     n 0       java.lang.System::arraycopy (native)   (static)"},
		{"17 OSR", jdk.R17, CompileLine{Time: 168 * ms, ID: 273, OSRBCI: 23, Level: 4, Tiered: true, Name: "com.sun.crypto.provider.GHASH::blockMult", CodeSize: 245},
			"    168  273 %     4       com.sun.crypto.provider.GHASH::blockMult @ 23 (245 bytes)"},
		{"17 not entrant", jdk.R17, CompileLine{Time: 208 * ms, ID: 257, OSRBCI: -1, Level: 3, Tiered: true, Name: "com.sun.crypto.provider.AESCrypt::implEncryptBlock", CodeSize: 953, Message: "made not entrant"},
			"    208  257       3       com.sun.crypto.provider.AESCrypt::implEncryptBlock (953 bytes)   made not entrant"},
		{"17 blocking", jdk.R17, CompileLine{Time: 83 * ms, ID: 5, OSRBCI: -1, Blocking: true, Level: 3, Tiered: true, Name: "Hot::work", CodeSize: 20},
			"     83    5    b  3       Hot::work (20 bytes)"},
		{"17 non-tiered", jdk.R17, CompileLine{Time: 110 * ms, ID: 3, OSRBCI: 4, Blocking: true, Level: 4, Name: "Hot::loop", CodeSize: 25},
			"    110    3 %  b        Hot::loop @ 4 (25 bytes)"},
		{"25 normal", jdk.R25, CompileLine{Time: 56 * ms, ID: 1, OSRBCI: -1, Level: 3, Tiered: true, Name: "java.lang.Object::<init>", CodeSize: 1},
			"56    1       3       java.lang.Object::<init> (1 bytes)"},
		{"25 not used", jdk.R25, CompileLine{Time: 441 * ms, ID: 230, OSRBCI: -1, Level: 3, Tiered: true, Name: "com.sun.crypto.provider.AESCrypt::implEncryptBlock", CodeSize: 947, Message: "made not entrant: not used"},
			"441  230       3       com.sun.crypto.provider.AESCrypt::implEncryptBlock (947 bytes)   made not entrant: not used"},
		{"25 OSR invalidation", jdk.R25, CompileLine{Time: 447 * ms, ID: 249, OSRBCI: 3, Level: 3, Tiered: true, Name: "com.sun.crypto.provider.CounterMode::implCrypt", CodeSize: 88, Message: "made not entrant: OSR invalidation of lower level"},
			"447  249 %     3       com.sun.crypto.provider.CounterMode::implCrypt @ 3 (88 bytes)   made not entrant: OSR invalidation of lower level"},
		{"8 layout as 17", jdk.R8, CompileLine{Time: 1234 * ms, ID: 12, OSRBCI: -1, Synchronized: true, ExceptionHandlers: true, Level: 2, Tiered: true, Name: "A::b", CodeSize: 7},
			"   1234   12  s!   2       A::b (7 bytes)"},
		{"unknown level", jdk.R17, CompileLine{Time: 0, ID: 1, OSRBCI: -1, Level: -1, Tiered: true, Name: "A::b", CodeSize: 7},
			"      0    1       -       A::b (7 bytes)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatCompilation(tc.jdk, tc.line); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestFormatTieredEvent checks whole PrintTieredEvents lines, time and
// rate included, against lines JDK 17 and 25 printed.
func TestFormatTieredEvent(t *testing.T) {
	inQueue := TieredEvent{
		Time: 84738 * time.Microsecond, Kind: EventCall, Method: "Hot.work(I)I", BCI: -1,
		QueueC1: 1, RateValid: true, Rate: 3.160494, K3: 1.2, K4: 1,
		TotalI: 384, C1: true, C1OSR: true, C2: true, C2OSR: true, InQueue: true,
	}
	loop := TieredEvent{
		Time: 92188 * time.Microsecond, Kind: EventLoop, Method: "Hot.loop(I)I", BCI: 4, Level: 3,
		RateValid: true, Rate: 686.556824, K3: 1, K4: 1, TotalI: 1, TotalB: 68608, MDOB: 8192,
		MaxLevel: 3, MaxOSRLevel: 3, C1: true, C1OSR: true, C2: true, C2OSR: true,
	}
	compile := TieredEvent{Time: 69761 * time.Microsecond, Kind: EventCompile, Method: "Hot.work(I)I", BCI: -1, Level: 3, K3: 1, K4: 1}
	notC2 := inQueue
	notC2.C2, notC2.C2OSR, notC2.InQueue = false, false, false
	cases := []struct {
		name string
		jdk  jdk.Release
		e    TieredEvent
		want string
	}{
		{"17 call in queue", jdk.R17, inQueue, "0.084738: [call level=0 [Hot.work(I)I] @-1 queues=1,0 rate=3.160494 k=1.20,1.00 total=384,0 mdo=0(0),0(0) max levels=0,0 compilable=c1,c1-osr,c2,c2-osr status=in-queue]"},
		{"17 loop at level 3", jdk.R17, loop, "0.092188: [loop level=3 [Hot.loop(I)I] @4 queues=0,0 rate=686.556824 k=1.00,1.00 total=1,68608 mdo=0(0),8192(0) max levels=3,3 compilable=c1,c1-osr,c2,c2-osr status=idle]"},
		{"25 compile", jdk.R25, compile, "0.069761: [compile level=3 [Hot.work(I)I] @-1 queues=0,0 rate=n/a k=1.00,1.00]"},
		{"25 loop", jdk.R25, loop, "0.092188: [loop level=3 [Hot.loop(I)I] @4 queues=0,0 rate=686.556824 k=1.00,1.00 total=1,68608 mdo=0(0),8192(0) max levels=3,3 compilable=c1,c1-osr,c2,c2-osr status=idle mtd: null]"},
		{"not C2-compilable", jdk.R17, notC2, "0.084738: [call level=0 [Hot.work(I)I] @-1 queues=1,0 rate=3.160494 k=1.20,1.00 total=384,0 mdo=0(0),0(0) max levels=0,0 compilable=c1,c1-osr status=idle]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatTieredEvent(tc.jdk, tc.e); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestFormatCompilationJDK21 checks the unpadded timestamp of JDK 21
// (UINT64_FORMAT " " in 21's compileTask.cpp; not measured on a JVM).
func TestFormatCompilationJDK21(t *testing.T) {
	got := FormatCompilation(jdk.R21, CompileLine{Time: 7 * time.Millisecond, ID: 3, OSRBCI: -1, Level: 1, Tiered: true, Name: "A::b", CodeSize: 5, Message: "made not entrant"})
	if want := "7    3       1       A::b (5 bytes)   made not entrant"; got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}
