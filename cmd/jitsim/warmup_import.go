package main

import (
	"fmt"
	"io"
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

// importKrun is `warmup --import-krun FILE…`: it classifies each Krun
// results file and prints a row per benchmark, VM and variant; with --out
// it also writes the study's files (of the last file). It returns the exit
// status: 2 for a usage error, 1 for a file that cannot be read or is no
// Krun results file ("FILE:LINE: …").
func importKrun(o ownOpts, args []string, stdout, stderr io.Writer) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "jitsim warmup: "+format+"\n", a...)
		return code
	}
	if o.scenario != "" || len(o.vm) > 0 {
		return fail(2, "--import-krun runs nothing: no scenario or VM options with it")
	}
	for name := range o.vals {
		if name != "import-krun" && name != "out" && name != "title" {
			return fail(2, "--import-krun takes --out and --title only, not --%s", name)
		}
	}
	for i, file := range o.vals["import-krun"] {
		f, err := os.Open(file)
		if err != nil {
			return fail(1, "--import-krun: %v", err)
		}
		k, err := warmup.ReadKrun(f, file)
		f.Close()
		if err != nil {
			return fail(1, "%v", err)
		}
		runs := k.Runs()
		s, err := warmup.Summarize(runs, warmup.KrunOptions)
		if err != nil {
			return fail(1, "%s: %v", file, err)
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s: %d benchmark/VM/variant keys, %d process executions\n", file, len(k.Series), len(runs))
		if err := warmup.WriteKrunClasses(stdout, k, s); err != nil {
			return fail(1, "%v", err)
		}
		if dir := o.last("out", ""); dir != "" && i == len(o.vals["import-krun"])-1 {
			meta := warmup.ReportMeta{Title: o.last("title", "Krun results "+file), Command: "jitsim warmup " + shellJoin(args)}
			if _, err := warmup.WriteAll(dir, runs, warmup.KrunOptions, meta, warmup.PlotOptions{}); err != nil {
				return fail(1, "%v", err)
			}
			fmt.Fprintf(stdout, "\nwrote %s: %s\n", dir, strings.Join(warmup.Files, ", "))
		}
	}
	return 0
}

// exportKrun writes runs to file as a Krun results file.
func exportKrun(file string, runs []warmup.Run, command string) error {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("--export-krun: %w", err)
	}
	if err := warmup.WriteKrun(f, runs, warmup.KrunExport{Command: command}); err != nil {
		f.Close()
		return fmt.Errorf("--export-krun %s: %w", file, err)
	}
	return f.Close()
}
