package runtime

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestCompilerPanicLogged checks the zap entry of a compiler thread's
// panic: on the compiler's logger (with the thread's index on the wall
// clock, whose compiler threads are goroutines), with the method, level,
// panic value and a stack that starts where the VM recovered it.
func TestCompilerPanicLogged(t *testing.T) {
	for _, clock := range []string{"wall", "model"} {
		t.Run(clock, func(t *testing.T) {
			core, logs := observer.New(zapcore.DebugLevel)
			vm, _ := runPanickingC1(t, clock, NewConfig().WithLogger(zap.New(core)))
			_ = vm.Close()
			es := logs.FilterMessage("compiler thread panicked").All()
			if len(es) != 1 {
				t.Fatalf("%d panic entries, want 1", len(es))
			}
			e := es[0]
			f := e.ContextMap()
			if e.Level != zapcore.ErrorLevel || e.LoggerName != "c1" || f["method"] != "com.sun.crypto.provider.AESCrypt::implEncryptBlock" ||
				f["level"] != int64(1) || f["panic"] != "injected compiler bug" {
				t.Errorf("entry %v %q %v", e.Level, e.LoggerName, f)
			}
			if _, ok := f["thread"]; ok != (clock == "wall") {
				t.Errorf("thread field %v present: %t", f["thread"], ok)
			}
			stack, _ := f["stack"].(string)
			if first, _, _ := strings.Cut(stack, "\n"); !strings.HasSuffix(first, "runtime.(*VM).recoverCompile") {
				t.Errorf("stack starts at %q, want the VM's recoverCompile:\n%s", first, stack)
			}
		})
	}
}

// TestEventsLeaveOnlyThroughEmit keeps VM.emit the one way out of the VM:
// outside events.go (and config.go, which takes the logger) no file of the
// package imports zap, and outside print.go none calls the printer's
// methods but close (the sinks are fed by emit, events.go).
func TestEventsLeaveOnlyThroughEmit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "go.uber.org/zap") && name != "events.go" && name != "config.go" {
				t.Errorf("%s imports %s: log through VM.emit (events.go)", name, p)
			}
		}
		if name == "print.go" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if out, ok := sel.X.(*ast.SelectorExpr); ok && out.Sel.Name == "out" && sel.Sel.Name != "close" {
				t.Errorf("%s calls the printer's %s: print through VM.emit (events.go)", fset.Position(call.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
