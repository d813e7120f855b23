package flags

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
)

// FuzzParse feeds arbitrary command lines, environment values and file contents to Parse: it
// must never panic, every failure must be an *Error carrying HotSpot text, and a successful
// Set must print.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"-XX:+UseAES\n-XX:UseAVX=2\n-version",
		"-XX:Flags=f\n+UnlockDiagnosticVMOptions\n-UseGHASHIntrinsics \"a b",
		"@f\n-XX:+UnlockDiagnosticVMOptions\n'-XX:DisableIntrinsic=x y'#c",
		"-XX:VMOptionsFile=f\n-XX:CompileThresholdScaling=0x1p-3",
		"-XX:CompileThreshold=-0x8000000000000000\n-XX:ReservedCodeCacheSize=16t",
		"-XX:DisableIntrinsic:=a\n-XX:#x\n-XX:\n-XX:+\n-Dk=v\n-Xint\n-Xcomp\n-Xbatch",
		"-XX:+PrintVMOptions\n-XX:+UnlockDiagnosticVMOptions\n-XX:ControlIntrinsic=_x,+,-_aescrypt_encryptBlock\n-XX:MaxHeapSize=1k",
		"-XX:ParallelGCThreads=4294967296\n-XX:MaxRAMPercentage=1e2\n-XX:+UseBiasedLocking\n-XX:JVMCIThreads=1\n-Xms2g",
		"-cp\napp.jar\n--add-opens\njava.base=x\n-Xss1k\n-Xmn0\n-Xverify:none\n-Xcheck:foo\n-showversion\n-X",
		"--class-path=x\n-p\n--add-reads\na\n-javaagent\n-Xinternalversion\n-XX:VMOptionsFile=f\n-XX:VMOptionsFile=f",
		"-agentlib:jdwp=transport=dt_socket,server=y,address=*:1\n-Xrunfoo\n-javaagent:f=x\n-agentpath:/nope\n-XX:+UseZGC\n-XX:ParallelGCThreads=0",
		"-XX:NativeMemoryTracking=x\n-Djava.security.manager\n-Djava.io.tmpdir=f\n-Xshare:on\n-XX:SharedArchiveFile=f\n-XX:-UseCompressedClassPointers",
		"-XX:+ZGenerational\n-XX:+CreateMinidumpOnCrash\n-XX:DefaultMaxRAMFraction=4\n-XX:MaxTenuringThreshold=99\n-XX:+PrintGCDetails\n-Xloggc:f",
	} {
		f.Add(byte(4), seed, "-XX:-UseAES -XX:+IgnoreUnrecognizedVMOptions")
	}
	f.Add(byte(3), "-Xcomp\n-Xbatch\n-Xmixed", "-version -jar x.jar Foo")
	f.Fuzz(func(t *testing.T, profile byte, cmdline, env string) {
		j := jdk.All()[int(profile)%len(jdk.All())]
		a := []jdk.Arch{jdk.AMD64, jdk.ARM64}[int(profile/8)%2]
		args := strings.Split(cmdline, "\n")
		if len(args) > 64 {
			args = args[:64]
		}
		set, res, err := Parse(Options{JDK: j, Arch: a, Args: args,
			Getenv: func(k string) (string, bool) {
				switch k {
				case "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS":
					return env, true
				}
				return "", false
			},
			ReadFile: func(name string) ([]byte, error) {
				if name == "f" {
					return []byte(cmdline), nil
				}
				return nil, errors.New("no such file")
			}})
		if res == nil || set == nil {
			t.Fatal("nil Set or Result")
		}
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Text == "" {
				t.Fatalf("error %v is not an *Error with text", err)
			}
			return
		}
		if err := set.PrintFlagsFinal(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzXlog feeds arbitrary -Xlog options to Parse: never a panic; a failure is an *Error with
// java's "Invalid -Xlog option" text (its log lines say why), or another option error; a
// success keeps at most one output per option.
func FuzzXlog(f *testing.F) {
	for _, seed := range []string{
		":jit+compilation=debug", ":jit+compilatoin=debgu:stdout:foo", ":gc*:file=gc.log:uptime,tid:filecount=5,filesize=1m",
		":disable", ":help", "", ":", ":all=off", ":jit*=info:stdout:none:x:y", ":#5", ":a,,b", ":jit=warn:#1::foldmultilines=true",
		":async:stall", ":jit+inlining=debug:file=\"x\"",
	} {
		f.Add(byte(3), seed)
	}
	f.Fuzz(func(t *testing.T, profile byte, opt string) {
		j := jdk.All()[int(profile)%len(jdk.All())]
		_, res, err := Parse(Options{JDK: j, Arch: jdk.AMD64, Args: []string{"-Xlog" + opt, "-version"}})
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Text == "" {
				t.Fatalf("error %v is not an *Error with text", err)
			}
			return
		}
		if len(res.Logs) > 1 {
			t.Fatalf("one -Xlog option configured %d outputs", len(res.Logs))
		}
	})
}

// FuzzJFR feeds arbitrary -XX:StartFlightRecording and -XX:FlightRecorderOptions values to
// Parse: never a panic; a failure is an *Error with JFR's "Failure when starting JFR" text
// or another option error; a start that succeeds logs its "Started recording" lines.
func FuzzJFR(f *testing.F) {
	for _, seed := range []string{
		"=duration=30s,filename=a.jfr", ":settings=profile,bogus", "", "=disk=false,maxsize=10M", "=duration=abc",
		"=name=x,,=,maxage=1h", "X", "=settings=nosuch",
	} {
		f.Add(byte(3), seed, "=stackdepth=64,memorysize=10m")
	}
	f.Fuzz(func(t *testing.T, profile byte, start, options string) {
		j := jdk.All()[int(profile)%len(jdk.All())]
		_, res, err := Parse(Options{JDK: j, Arch: jdk.AMD64, Args: []string{"-XX:FlightRecorderOptions" + options,
			"-XX:StartFlightRecording" + start, "-version"}, Stat: func(string) (fs.FileInfo, error) { return nil, fs.ErrNotExist }})
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Text == "" {
				t.Fatalf("error %v is not an *Error with text", err)
			}
			return
		}
		if j.Modern() && !strings.Contains(fmt.Sprint(res.RunLog), "Started recording 1") {
			t.Fatalf("a recording started without its start line: %v", res.RunLog)
		}
	})
}
