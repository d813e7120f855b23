package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jitsim/jitsim/warmup"
)

// importLogs reads the --import-printcompilation logs, each "FILE" or
// "NAME=FILE" (a NAME holds no path separator), before anything runs, so
// that a bad file fails the command at once. It returns the exit status
// for an error: 2 for a usage error, 1 for a file that cannot be read or is
// no log ("FILE:LINE: …", from warmup.ParsePrintCompilation).
func importLogs(specs []string) ([]*warmup.CompileLog, int, error) {
	var logs []*warmup.CompileLog
	names := map[string]bool{}
	for _, spec := range specs {
		name, file, ok := strings.Cut(spec, "=")
		if !ok || name == "" || strings.ContainsRune(name, filepath.Separator) {
			name, file = "", spec
		}
		if file == "" {
			return nil, 2, fmt.Errorf("--import-printcompilation %q: no file named", spec)
		}
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		}
		if names[name] {
			return nil, 2, fmt.Errorf("--import-printcompilation: two logs named %q (name them: NAME=FILE)", name)
		}
		names[name] = true
		f, err := os.Open(file)
		if err != nil {
			return nil, 1, fmt.Errorf("--import-printcompilation: %w", err)
		}
		l, err := warmup.ParsePrintCompilation(f, name, file)
		f.Close()
		if err != nil {
			return nil, 1, err
		}
		logs = append(logs, l)
	}
	return logs, 0, nil
}
