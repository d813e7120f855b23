package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	jrt "github.com/jitsim/jitsim/runtime"
	"github.com/jitsim/jitsim/warmup"
)

// The real JVM beside jitsim (--jvm=JAVA): for AESGCMBench, each option set
// also runs on a real java with the same VM options and -D properties, and
// its curve joins the study as the option set "java: <options>". The Java
// side is the program below, run by the source launcher (java File.java,
// JDK 11+): the same benchmark loop — warm-up and measured iterations of
// opsPerIteration AES/GCM operations of dataSize bytes, a fresh IV per
// encryption — printing each iteration's start and duration on
// System.nanoTime, and the JVM's uptime at the loop's start so that
// -XX:+PrintCompilation's millisecond stamps land on the same clock. Its
// compile lines of com.sun.crypto.provider methods become the run's events
// and levels, as the VM's events do for jitsim's runs.

// jvmProgramName is the class and file name of the Java program.
const jvmProgramName = "JitsimGCMWarmup"

// jvmProgram is the Java side of --jvm for AESGCMBench.
const jvmProgram = `import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.lang.management.ManagementFactory;
import java.util.Random;

// Runs AESGCMBench's loop for jitsim warmup --jvm and prints one line per iteration on
// stderr (stdout is -XX:+PrintCompilation's, whose compiler threads would split lines).
public class JitsimGCMWarmup {
    public static void main(String[] args) throws Exception {
        int warm = Integer.parseInt(args[0]), iters = Integer.parseInt(args[1]), ops = Integer.parseInt(args[2]);
        int size = Integer.getInteger("dataSize", 1024);
        int bits = Integer.getInteger("keyLength", 128);
        String op = System.getProperty("op", "encrypt");
        if (!op.equals("encrypt") && !op.equals("decrypt")) {
            throw new IllegalArgumentException("op=" + op + ": jitsim warmup --jvm runs encrypt or decrypt");
        }
        Random rnd = new Random(7184394);
        byte[] key = new byte[bits / 8], data = new byte[size], iv = new byte[12];
        rnd.nextBytes(key);
        rnd.nextBytes(data);
        rnd.nextBytes(iv);
        SecretKeySpec ks = new SecretKeySpec(key, "AES");
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        byte[] ct = null;
        GCMParameterSpec fixed = new GCMParameterSpec(128, iv.clone());
        if (op.equals("decrypt")) {
            c.init(Cipher.ENCRYPT_MODE, ks, fixed);
            ct = c.doFinal(data);
        }
        long sink = 0;
        long t0 = System.nanoTime();
        long up = ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.println("jitsim-epoch " + up);
        for (int i = 0; i < warm + iters; i++) {
            long s = System.nanoTime();
            for (int k = 0; k < ops; k++) {
                byte[] out;
                if (ct == null) {
                    for (int j = iv.length - 1; j >= 0 && ++iv[j] == 0; j--) { }
                    c.init(Cipher.ENCRYPT_MODE, ks, new GCMParameterSpec(128, iv));
                    out = c.doFinal(data);
                } else {
                    c.init(Cipher.DECRYPT_MODE, ks, fixed);
                    out = c.doFinal(ct);
                }
                sink += out.length == 0 ? 0 : out[out.length - 1];
            }
            long e = System.nanoTime();
            System.err.println("jitsim-iter " + i + " " + (s - t0) + " " + (e - s));
        }
        System.err.println("jitsim-sink " + sink);
    }
}
`

// jvmRun runs one fork of the real JVM for spec and returns its series.
func jvmRun(ctx context.Context, java string, s *vmSpec, fork int, props map[string]string, args []string) (warmup.Run, error) {
	dir, err := os.MkdirTemp("", "jitsim-jvm-")
	if err != nil {
		return warmup.Run{}, err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, jvmProgramName+".java")
	if err := os.WriteFile(src, []byte(jvmProgram), 0o644); err != nil {
		return warmup.Run{}, err
	}
	if len(args) != 3 {
		return warmup.Run{}, fmt.Errorf("--jvm needs the three arguments warmupIterations iterations opsPerIteration (got %q)", args)
	}
	var cmdArgs []string
	for _, a := range s.args {
		if !strings.HasPrefix(a, "-D") {
			cmdArgs = append(cmdArgs, a)
		}
	}
	cmdArgs = append(cmdArgs, "-XX:+PrintCompilation")
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmdArgs = append(cmdArgs, "-D"+k+"="+props[k])
	}
	cmdArgs = append(append(cmdArgs, src), args...)
	cmd := exec.CommandContext(ctx, java, cmdArgs...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return warmup.Run{}, fmt.Errorf("%s %s: %v\n%s", java, strings.Join(cmdArgs, " "), err, stderr.String())
	}
	ops, err := strconv.ParseInt(args[2], 10, 64)
	if err != nil || ops < 1 {
		return warmup.Run{}, fmt.Errorf("--jvm: opsPerIteration %q is not a count", args[2])
	}
	size, err := strconv.ParseInt(cmp.Or(props["dataSize"], "1024"), 10, 64)
	if err != nil {
		return warmup.Run{}, fmt.Errorf("--jvm: -DdataSize=%s is not a byte count", props["dataSize"])
	}
	run, err := parseJVMOutput(append(stderr.Bytes(), out...), ops, size)
	if err != nil {
		return run, fmt.Errorf("%s: %w", java, err)
	}
	run.Label, run.Fork, run.Scenario, run.Flags, run.CPU, run.JDK, run.Clock =
		"java: "+s.label, fork, "AESGCMBench", s.args, "host", javaVersion(ctx, java), "wall"
	return run, nil
}

// parseJVMOutput turns the program's lines and PrintCompilation's into a
// series: iterations from "jitsim-iter", events from the compile lines
// (stamped relative to the loop's start), and each iteration's entry level
// per method from the normal-entry installs up to its end.
func parseJVMOutput(out []byte, ops, bytesPerOp int64) (warmup.Run, error) {
	var run warmup.Run
	epoch := time.Duration(-1)
	var events []jrt.Event
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var compiles bytes.Buffer // the other lines: PrintCompilation's, or anything the JVM printed
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "jitsim-epoch":
			ms, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return run, fmt.Errorf("bad line %q", line)
			}
			epoch = time.Duration(ms) * time.Millisecond
		case len(f) == 4 && f[0] == "jitsim-iter":
			var v [3]int64
			for i := range v {
				n, err := strconv.ParseInt(f[i+1], 10, 64)
				if err != nil {
					return run, fmt.Errorf("bad line %q", line)
				}
				v[i] = n
			}
			run.Iterations = append(run.Iterations, warmup.Iteration{Index: int(v[0]), Start: time.Duration(v[1]), Duration: time.Duration(v[2]), Ops: ops, Bytes: ops * bytesPerOp})
		default:
			compiles.WriteString(line)
			compiles.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return run, fmt.Errorf("reading the JVM's output: %w", err)
	}
	if epoch < 0 || len(run.Iterations) == 0 {
		return run, fmt.Errorf("the program printed no iterations")
	}
	log, err := warmup.ReadPrintCompilation(&compiles, "java", "the JVM's -XX:+PrintCompilation output")
	if err != nil {
		return run, err
	}
	for _, rec := range log.Crypto() {
		// A task line is stamped when the compile starts; its code is
		// installed a compile's duration later, which the log does not say.
		// Without tiered compilation the log has no tier: the server VM's
		// only JIT is then C2, level 4.
		level := rec.Level
		if level < 0 {
			level = 4
		}
		// Stamps are ms since JVM start; the series' clock starts at the
		// loop, whose uptime the program printed.
		e := jrt.Event{Kind: jrt.EventInstalled, Method: rec.Method, Level: jrt.Level(level), At: rec.At - epoch, CompileID: rec.ID, BCI: rec.BCI}
		switch {
		case rec.Kind == warmup.CompileNotEntrant || rec.Kind == warmup.CompileZombie:
			e.Kind, e.Detail = jrt.EventNotEntrant, rec.Message
		case rec.Kind == warmup.CompileSkipped:
			continue
		case rec.OSR():
			e.Kind = jrt.EventOSR
		}
		events = append(events, e)
	}
	rec := &seriesRecorder{events: events, its: run.Iterations}
	// Entry levels: a method's latest normal-entry install (the
	// interpreter, 0, before its first) at each iteration's end.
	level := map[string]int{}
	sort.SliceStable(events, func(i, j int) bool { return events[i].At < events[j].At })
	k := 0
	for i := range rec.its {
		end := rec.its[i].Start + rec.its[i].Duration
		for ; k < len(events) && events[k].At <= end; k++ {
			if events[k].Kind == jrt.EventInstalled {
				level[events[k].Method] = int(events[k].Level)
			}
		}
		lv := map[string]int{}
		for _, e := range events {
			lv[e.Method] = level[e.Method]
		}
		rec.its[i].Levels = lv
	}
	return rec.run("", 0, "", &vmSpec{}), nil
}

// javaVersion returns the "17.0.15"-style version java reports, or "".
func javaVersion(ctx context.Context, java string) string {
	out, err := exec.CommandContext(ctx, java, "-XshowSettings:properties", "-version").CombinedOutput()
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), " = "); ok && k == "java.version" {
			return v
		}
	}
	return ""
}
