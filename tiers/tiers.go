// Package tiers wires jitsim's three real tiers together for the CLI and
// for tests of scenarios and study tools.
package tiers

import (
	"os"
	"path/filepath"
	"sync"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/tiers/c1"
	"github.com/jitsim/jitsim/tiers/c2"
	"github.com/jitsim/jitsim/tiers/interp"
	"github.com/tetratelabs/wazero"
)

// Default returns the interpreter, C1 and C2 tiers, in level order.
func Default() []jrt.Tier {
	return []jrt.Tier{interp.New(), c1.New(), c2.New()}
}

// Cached returns Default's tiers with C1 and C2 compiling through cache: for runs whose
// compile times are not what is measured. A timed compile of the wall clock never goes
// through a cache (a hit turns a 2-7 ms compile into 0.1 ms).
func Cached(cache wazero.CompilationCache) []jrt.Tier {
	return []jrt.Tier{interp.New(), c1.New(c1.WithCompilationCache(cache)), c2.New(c2.WithCompilationCache(cache))}
}

// ForModelClock returns the tiers of a model-clock run: Cached on wazero's compilation cache
// in the user cache directory (jitsim/wazero under os.UserCacheDir; wazero keys each entry by
// the module's bytes and its own version), opened once per process. On the model clock a
// compile's duration comes from the cost profile, never from the host, so a module compiled
// by an earlier run on this machine is loaded instead of compiled again; the code that runs is
// the same. Without a usable cache directory it is Default.
func ForModelClock() []jrt.Tier {
	if c := userCache(); c != nil {
		return Cached(c)
	}
	return Default()
}

// UserCacheDir is the directory of ForModelClock's compilation cache ("": none).
func UserCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "jitsim", "wazero")
}

var userCache = sync.OnceValue(func() wazero.CompilationCache {
	dir := UserCacheDir()
	if dir == "" {
		return nil
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return c
})
