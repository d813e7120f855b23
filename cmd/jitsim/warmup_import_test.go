package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWarmupImportErrors: a log that cannot be read or is no log stops the
// command before anything runs, naming FILE:LINE; naming mistakes are usage
// errors.
func TestWarmupImportErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	binary := write("binary.log", "    168  273       3       a.B::c (245 bytes)\n\x00\x01\x02\n")
	prose := write("prose.log", "no compiler here\nnor here\n")
	huge := write("huge.log", "    168  273       3       a.B::c (245 bytes)\n99999999999999999999999 1 3 a.B::c (1 bytes)\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"binary", []string{binary}, binary + ":2: NUL byte", 1},
		{"no record", []string{prose}, prose + ":2: no -XX:+PrintCompilation line", 1},
		{"stamp overflow", []string{huge}, huge + ":2: time stamp", 1},
		{"missing", []string{filepath.Join(dir, "none.log")}, "none.log: no such file", 1},
		{"no file", []string{"x="}, "no file named", 2},
		{"same name", []string{"a=" + importedLog, "a=" + importedLog}, `two logs named "a"`, 2},
		{"same base name", []string{importedLog, importedLog}, `two logs named "jdk17-gcm16k"`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"warmup"}
			for _, a := range tc.args {
				args = append(args, "--import-printcompilation", a)
			}
			args = append(args, "AESGCMBench", "0", "1", "1")
			var out, errb bytes.Buffer
			st := run(args, strings.NewReader(""), &out, &errb, noEnv)
			if st != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("status %d, stderr %q; want status %d and an error containing %q", st, errb.String(), tc.code, tc.want)
			}
		})
	}
}

// TestImportLogsNames: NAME=FILE names a log, a bare FILE is named by its
// base name, and an "=" inside a path is part of the file name.
func TestImportLogsNames(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "a=b.log")
	data, err := os.ReadFile(importedLog)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(odd, data, 0o644); err != nil {
		t.Fatal(err)
	}
	logs, code, err := importLogs([]string{"mine=" + importedLog, importedLog, odd})
	if err != nil {
		t.Fatalf("status %d: %v", code, err)
	}
	var names []string
	for _, l := range logs {
		names = append(names, l.Name+" "+filepath.Base(l.File))
	}
	want := []string{"mine jdk17-gcm16k.log", "jdk17-gcm16k jdk17-gcm16k.log", "a=b a=b.log"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("names %q, want %q", names, want)
	}
}

// TestWarmupKrun: a study exports Krun JSON that --import-krun classifies
// as the study did; a Krun file of our own making, bzip2-compressed,
// classifies per benchmark, VM and variant; bad input names FILE:LINE.
func TestWarmupKrun(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join("..", "..", "warmup", "testdata", "krun", "three.json.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	study := []string{"warmup", "--clock=model", "--cpu=icelake-server", "--jdk=17", "--forks=2", "--out", "study",
		"--export-krun", "study.json", "--compare", "", "--compare", "-XX:TieredStopAtLevel=1", "-DdataSize=16384", "AESGCMBench", "0", "30", "5"}
	if st := run(study, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	if !strings.Contains(out.String(), "wrote study.json: the runs as a Krun results file") {
		t.Errorf("no word of the export:\n%s", out.String())
	}
	out.Reset()
	if st := run([]string{"warmup", "--import-krun", "study.json", "--out", "back"}, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	// --forks=2 on the model clock: each set runs once (its forks would be identical).
	for _, want := range []string{"study.json: 2 benchmark/VM/variant keys, 2 process executions",
		"AESGCMBench  jitsim  -XX_TieredStopAtLevel=1  1       warmup", "AESGCMBench  jitsim  default                  1       warmup",
		"wrote back: series.csv"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--import-krun output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if st := run([]string{"warmup", "--import-krun", fixture}, strings.NewReader(""), &out, &errb, noEnv); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	for _, want := range []string{"fasta      HotSpot  default-java  3       warmup", "nbody      HotSpot  default-java  3       flat",
		"richards   HotSpot  default-java  3       slowdown"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--import-krun %s lacks %q:\n%s", filepath.Base(fixture), want, out.String())
		}
	}
	if err := os.WriteFile("bad.json", []byte("{\n \"wallclock_times\": {\n  \"a:b:c\": [[0.5,\n  null]]}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"--import-krun", "bad.json"}, "bad.json:4: wallclock_times: a:b:c[0][1]: <nil> is not a time in seconds", 1},
		{[]string{"--import-krun", "none.json"}, "none.json: no such file", 1},
		{[]string{"--import-krun", "bad.json", "AESGCMBench"}, "--import-krun runs nothing", 2},
		{[]string{"--import-krun", "bad.json", "--forks=2"}, "not --forks", 2},
	} {
		errb.Reset()
		st := run(append([]string{"warmup"}, tc.args...), strings.NewReader(""), &out, &errb, noEnv)
		if st != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, st, errb.String(), tc.code, tc.want)
		}
	}
}
