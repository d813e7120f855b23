package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/bytecode"
	"github.com/jitsim/jitsim/jdk"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestOutputs checks the diagnostic outputs with fake tiers: the
// PrintIntrinsics line C2 prints when it binds an intrinsic call site (the
// JDK 17 transcript's layout, 30 spaces at inline depth 1), the
// PrintTieredEvents lines, the LogCompilation XML elements, and the zap
// events with their fixed keys.
func TestOutputs(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "compilation.log")
	set := parseFlags(t, jdk.R17, "-Xbatch", "-XX:+PrintCompilation", "-XX:+PrintTieredEvents",
		"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics", "-XX:+LogCompilation", "-XX:LogFile="+logFile)
	core, logs := observer.New(zapcore.DebugLevel)
	var out syncBuffer
	var java javaRuns
	vm, err := New(NewConfig().WithFlags(set).WithTiers(fakeTiers(java.body)...).WithOutput(&out).WithLogger(zap.New(core)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, _ := vm.Method("GHASH.processBlock")
	for range 6000 {
		if _, err := vm.Call(ctx, m, []Arg{bytecode.BytesArg(make([]byte, 16)), bytecode.IntArg(0), bytecode.LongsArg(make([]uint64, 2)), bytecode.LongsArg([]uint64{1, 2})}); err != nil {
			t.Fatal(err)
		}
	}
	caller, _ := vm.Method("CounterMode.implCrypt")
	callee, _ := vm.Method("AESCrypt.implEncryptBlock")
	if _, err := vm.Bind(ctx, Site{Caller: caller, Level: LevelFullOptimization, Callee: callee}); err != nil {
		t.Fatal(err)
	}
	if err := vm.Close(); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	// The sizes are JDK 17's Java bytecode sizes, as its PrintCompilation prints them.
	// @ 6: AESCrypt.encryptBlock's call of implEncryptBlock in 17.0.15's class.
	wantIntrinsic := strings.Repeat(" ", 30) + "@ 6   com.sun.crypto.provider.AESCrypt::implEncryptBlock (953 bytes)   (intrinsic)\n"
	if !strings.Contains(text, wantIntrinsic) {
		t.Errorf("no PrintIntrinsics line %q in:\n%s", wantIntrinsic, text)
	}
	for _, want := range []string{
		"[call level=0 [com.sun.crypto.provider.GHASH.processBlock([BI[J[J)V] @-1 queues=0,0",
		"[compile level=3 [com.sun.crypto.provider.GHASH.processBlock([BI[J[J)V] @-1",
		"   b  3       com.sun.crypto.provider.GHASH::processBlock (",
		"   b  4       com.sun.crypto.provider.GHASH::processBlock (",
		"3       com.sun.crypto.provider.GHASH::processBlock (37 bytes)   made not entrant",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	xml, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<hotspot_log ", "<task_queued compile_id='1' method='com.sun.crypto.provider.GHASH processBlock ([BI[J[J)V' bytes='37'",
		"<nmethod compile_id='2' compiler='c2' level='4'", "method='com.sun.crypto.provider.GHASH processBlock ([BI[J[J)V' bytes='37' count=", "<make_not_entrant thread='1001' compile_id='1' compiler='c1' level='3'",
		"<compilation_log thread='2001'>", "<hotspot_log_done ", "</hotspot_log>"} {
		if !strings.Contains(string(xml), want) {
			t.Errorf("LogCompilation lacks %q:\n%s", want, xml)
		}
	}
	transitions := logs.FilterMessage("tier transition").All()
	if len(transitions) != 2 {
		t.Fatalf("%d tier transition events, want 2", len(transitions))
	}
	for i, e := range transitions {
		f := e.ContextMap()
		if e.Level != zapcore.InfoLevel || f["method"] != "GHASH::processBlock" || f["level"] != int64(3+i) {
			t.Errorf("event %d: %v %v", i, e.Level, f)
		}
	}
	routes := logs.FilterMessage("route").FilterField(zap.String("intrinsic", "_aescrypt_encryptBlock")).All()
	if len(routes) != 5 {
		t.Errorf("%d route decisions logged for _aescrypt_encryptBlock, want one per level", len(routes))
	}
}
