// Package varianttest is the stub packages' one test switch, JITSIM_REQUIRE_ALL=1, and the
// bookkeeping behind it: which declared variants a package's tests ran. Without the switch a
// test skips a variant the host cannot run. With it, as on the project's CI machine, a
// variant of this GOARCH whose CPU features the host reports but which no test ran fails the
// package, and each variant the host cannot run is listed with the features it lacks.
package varianttest

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/stubs/cpu"
	"github.com/jitsim/jitsim/stubs/variant"
)

// RequireAll reports whether JITSIM_REQUIRE_ALL=1 is set.
func RequireAll() bool { return os.Getenv("JITSIM_REQUIRE_ALL") == "1" }

// Ran records the variants a test package ran. The zero value is ready to use.
type Ran struct {
	mu  sync.Mutex
	ids map[variant.ID]bool
}

// Runnable reports whether the host can run id, and if so records that a test ran it: for
// helpers that narrow a variant list to what the host runs.
func (r *Ran) Runnable(id variant.ID) bool {
	if !cpu.Host().HasAll(id.Needs()) {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ids == nil {
		r.ids = map[variant.ID]bool{}
	}
	r.ids[id] = true
	return true
}

// Need skips t unless the host can run id, naming the features it lacks.
func (r *Ran) Need(t testing.TB, id variant.ID) {
	t.Helper()
	if !r.Runnable(id) {
		t.Skipf("variant %s needs %v; the host lacks %v", id, id.Needs(), missing(id))
	}
}

func missing(id variant.ID) cpu.Set { return id.Needs().Without(cpu.Host().Features()...) }

// Main runs m's tests and returns the exit status. Under JITSIM_REQUIRE_ALL=1, when every
// test passed and none was left out (-run, -skip, -list), it then checks ids, the package's
// variants: each one of this GOARCH (or generic) that the host can run must have been run by
// some test, and each one the host cannot run is listed with the features it lacks.
func (r *Ran) Main(m *testing.M, ids []variant.ID) int {
	code := m.Run()
	if code != 0 || !RequireAll() || filtered() {
		return code
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		if !id.IsGeneric() && id.Arch() != jdk.HostArch() {
			continue
		}
		switch {
		case !cpu.Host().HasAll(id.Needs()):
			fmt.Printf("JITSIM_REQUIRE_ALL: variant %s cannot run on this host: it lacks %v\n", id, missing(id))
		case !r.ids[id]:
			fmt.Printf("JITSIM_REQUIRE_ALL: FAIL: variant %s needs %v, which the host has, but no test ran it (its code is not in this binary, or its tests were skipped)\n", id, id.Needs())
			code = 1
		}
	}
	return code
}

// filtered reports whether the test binary runs only some tests.
func filtered() bool {
	for _, name := range []string{"test.run", "test.skip", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}
