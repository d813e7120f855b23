package main

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// layers is the import policy of design.md §2, written as data in the manner of
// Go's own go/build deps_test.go: a project package may import another project
// package only if that package has a strictly lower rank. A package that is not
// covered by a row (by longest path prefix) fails the test, so a new package
// must be placed in the order deliberately.
var layers = []struct {
	path string
	rank int
}{
	{"jdk", 0},              // the release and architecture: the lowest leaf
	{"internal/jsonpos", 0}, // JSON input read whole, bounded, errors at FILE:LINE: a leaf of the importers
	{"flags", 5},
	{"jvmharness", 5}, // the Java programs run on real JVMs, and the source launcher: a leaf
	{"stubs/cpu", 10},
	{"stubs/variant", 15}, // the stub variants' IDs: entry, name, architecture, CPU features
	{"stubs/aes", 20},
	{"stubs/gcm", 30},
	{"stubs", 40},
	{"bytecode", 50},     // the reference code: a leaf under the runtime, not a tier
	{"runtime/heap", 55}, // the Java heap's shared memory: a leaf the VM and the engine map
	{"runtime/policy", 60},
	{"runtime/ergo", 62},  // vm_version and the policy pass: flags settled against a CPU model
	{"runtime/model", 65}, // cost profiles and the scheduler: priced by runtime, never importing it
	{"runtime", 70},
	{"jce", 72},          // the JCE provider: calls the VM through an Invoker, imported by scenarios
	{"tiers/interp", 80}, // the three tiers share a rank: they never import each other
	{"tiers/c1", 80},
	{"tiers/c2", 80},
	{"tiers/internal", 75}, // wazero glue and test helpers shared by the three tiers
	{"runtime/setup", 72},  // a run's configuration, resolved once: flags, ergonomics, profile → jrt.Config
	{"calibrate", 85},      // this host's primitives timed on the tiers it is given, into a cost profile
	{"scenario", 90},
	{"warmup", 100},
	{"report", 100},
	{"bench", 100},
	{"sweep", 100},
	{"validate", 105}, // the model clock against a real JVM: calibrate's cells excluded, scenarios and warm-up series
	{"tiers", 110},
	{"serve", 110}, // the playground: HTTP, limits, permalinks, tour; runs through an Engine the command wires
	{"cmd/jitsim", 120},
	{"examples", 120},
}

// external lists third-party modules that only some packages may import.
var external = map[string][]string{
	"golang.org/x/sys/cpu":              {"stubs/cpu"},
	"golang.org/x/sys/unix":             {"runtime/heap"},
	"github.com/tetratelabs/wazero":     {"tiers"},
	"go.uber.org/zap":                   {"runtime", "cmd/jitsim"},
	"github.com/spf13/cobra":            {"cmd/jitsim"},
	"github.com/mmcloughlin/avo":        {}, // generators live in their own modules
	"github.com/tetratelabs/wazero/api": {"tiers"},
}

const module = "github.com/jitsim/jitsim"

func rankOf(rel string) (int, bool) {
	best, rank := -1, 0
	for _, l := range layers {
		if (rel == l.path || strings.HasPrefix(rel, l.path+"/")) && len(l.path) > best {
			best, rank = len(l.path), l.rank
		}
	}
	return rank, best >= 0
}

func under(rel string, roots []string) bool {
	for _, r := range roots {
		if rel == r || strings.HasPrefix(rel, r+"/") {
			return true
		}
	}
	return false
}

func TestImportDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var bad []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if pkg == "" {
			continue
		}
		r, ok := rankOf(pkg)
		if !ok {
			bad = append(bad, pkg+": not placed in the layer table")
			continue
		}
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module+"/") {
				dep := strings.TrimPrefix(imp, module+"/")
				dr, ok := rankOf(dep)
				if !ok || dr >= r {
					bad = append(bad, pkg+" imports "+dep+" (against design.md §2 order)")
				}
				continue
			}
			for ext, allowed := range external {
				if (imp == ext || strings.HasPrefix(imp, ext+"/")) && !under(pkg, allowed) {
					bad = append(bad, pkg+" imports "+imp+" (only "+strings.Join(allowed, ", ")+" may)")
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

func TestLayerTableCatchesViolations(t *testing.T) {
	// The policy must be able to fail: runtime importing a tier is against the order.
	r, _ := rankOf("runtime")
	c2, _ := rankOf("tiers/c2")
	if c2 <= r {
		t.Fatal("tiers/c2 must rank above runtime")
	}
	i, _ := rankOf("tiers/interp")
	if i != c2 {
		t.Fatal("the three tiers must share a rank so that none imports another")
	}
	if _, ok := rankOf("nowhere/pkg"); ok {
		t.Fatal("an unplaced package must not get a rank")
	}
}
