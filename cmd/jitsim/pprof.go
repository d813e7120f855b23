package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// cpuProfile is the hidden --cpuprofile FILE option every command takes: a Go CPU profile of
// the command, for 'go tool pprof', so a slow study can be looked into where it ran.
type cpuProfile struct {
	path string
	f    *os.File
}

// register adds --cpuprofile to root's persistent flags, hidden from the help texts, and
// starts the profile once the command line has parsed.
func (p *cpuProfile) register(root *cobra.Command) {
	root.PersistentFlags().StringVar(&p.path, "cpuprofile", "", "write a Go CPU profile of the command to `FILE` (go tool pprof)")
	_ = root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return p.start() }
}

func (p *cpuProfile) start() error {
	if p.path == "" {
		return nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.f = f
	return nil
}

// stop ends the profile, if one was started, and reports a failure to write it on stderr.
func (p *cpuProfile) stop(stderr io.Writer) {
	if p.f == nil {
		return
	}
	pprof.StopCPUProfile()
	if err := p.f.Close(); err != nil {
		fmt.Fprintln(stderr, "jitsim: --cpuprofile:", err)
	}
	p.f = nil
}
