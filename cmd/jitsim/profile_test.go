package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jitsim/jitsim/jdk"
	"github.com/jitsim/jitsim/runtime/model"
	"github.com/jitsim/jitsim/runtime/setup"
	"github.com/jitsim/jitsim/stubs/cpu"
)

// measuredProfile is the host profile dressed as one `calibrate --jvm` wrote for JDK 17 on a
// CPU with features fs.
func measuredProfile(t *testing.T, fs cpu.Set) model.Profile {
	p, err := model.Lookup("host")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range cpu.Normalize(fs).Features() {
		names = append(names, f.String())
	}
	p.Release = "17"
	p.Provenance = &model.Provenance{JVM: "java", JVMVersion: "17.0.15+6", JVMVendor: "Debian", CPUModel: "a test CPU", Features: names,
		Date: "2026-12-01T22:00:00Z", Load: "before 1, after 1", Rounds: 5, Command: "jitsim calibrate --jvm=java"}
	return p
}

// TestProfileFitsTheRun: a JVM-measured profile prices only its release on a CPU with its
// features; --force-profile overrides; this host's cached profile is used and announced.
func TestProfileFitsTheRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.json")
	data, err := measuredProfile(t, cpu.Host()).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--clock=model", "-Dmode=GCM", "-DmsgSize=64", "TestAESMain", "2", "1"}
	runIt := func(d deps, extra ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		st := d.execute(append(append([]string{"run"}, extra...), args...), nil, &stdout, &stderr, noEnv)
		return st, stderr.String()
	}
	if st, errs := runIt(wired(), "--jdk=25", "--profile="+file); st == 0 || !strings.Contains(errs, "measured on JDK 17") || !strings.Contains(errs, "--force-profile") {
		t.Errorf("a JDK 17 profile on JDK 25: status %d, %s", st, errs)
	}
	if st, errs := runIt(wired(), "--jdk=25", "--force-profile", "--profile="+file); st != 0 {
		t.Errorf("--force-profile: status %d, %s", st, errs)
	}
	if st, errs := runIt(wired(), "--jdk=17", "--profile="+file); st != 0 {
		t.Errorf("its own release: status %d, %s", st, errs)
	}
	other := measuredProfile(t, cpu.Of(cpu.SSE2))
	data, _ = other.MarshalIndent()
	os.WriteFile(file, data, 0o644)
	if st, errs := runIt(wired(), "--jdk=17", "--profile="+file); st == 0 || !strings.Contains(errs, "features") {
		t.Errorf("another CPU's profile: status %d, %s", st, errs)
	}
	// The host cache: --cpu=host finds this host's profile of the run's release, and says so.
	d := wired()
	d.hostProfiles = filepath.Join(dir, "cache")
	m, _ := cpu.Lookup("host")
	cached := setup.HostProfileFile(d.hostProfiles, m, jdk.R17)
	os.MkdirAll(d.hostProfiles, 0o755)
	data, _ = measuredProfile(t, cpu.Host()).MarshalIndent()
	os.WriteFile(cached, data, 0o644)
	if st, errs := runIt(d, "--jdk=17"); st != 0 || !strings.Contains(errs, cached) {
		t.Errorf("cached profile: status %d, %s", st, errs)
	}
	if st, errs := runIt(d, "--jdk=25"); st != 0 || strings.Contains(errs, "calibrated profile") {
		t.Errorf("no cached profile for JDK 25: status %d, %s", st, errs)
	}
}

// TestCalibrateValidateBadInput: clear errors and exit statuses, no JVM needed.
func TestCalibrateValidateBadInput(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"calibrate", "--jvm=" + filepath.Join(t.TempDir(), "nojava")}, 1, "nojava"},
		{[]string{"calibrate", "--jvm=java", "--rounds=0", "--quick"}, 0, ""},
		{[]string{"calibrate", "--jvm=java", "--rounds=1000"}, 2, "--rounds=1000"},
		{[]string{"calibrate", "--rounds=3"}, 2, "--rounds applies to --jvm"},
		{[]string{"validate"}, 2, "--jvm=PATH is required"},
		{[]string{"validate", "--jvm=java", "--sets=nope"}, 2, `no flag set "nope"`},
		{[]string{"validate", "--jvm=java", "--sizes=x"}, 2, `--sizes: "x"`},
		{[]string{"validate", "--jvm=" + t.TempDir(), "--sets=xint", "--ops=gcm-enc", "--sizes=1024"}, 1, "--jvm="},
	} {
		if c.status == 0 {
			continue // would run a JVM
		}
		var stdout, stderr bytes.Buffer
		st := wired().execute(c.args, nil, &stdout, &stderr, noEnv)
		if st != c.status || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", c.args, st, stderr.String(), c.status, c.want)
		}
	}
}
