// Command jitsim runs jitsim's scenarios on a model of HotSpot's tiered runtime, taking the
// same VM options as java.
//
//	jitsim run [--jdk=8|8u|17|21|22|25] [--cpu=NAME] [--clock=wall|model] [VM options…] (SCENARIO [args…] | -version)
//	jitsim explain [--jdk=…] [--cpu=NAME] [--json] [VM options…] (Class::method | intrinsic ID)
//	jitsim warmup --compare 'OPTS' … [--forks=N] [--out DIR] [--jvm=JAVA] [VM options…] SCENARIO [args…]
//	jitsim bench [JMH options: -wi -i -f -t -w -r -bm -p -rf -rff] [--clock=wall|model] [VM options…] SCENARIO
//	jitsim sweep FILE [--shard i/n] · jitsim sweep merge DIR…
//	jitsim serve [--addr 127.0.0.1:8080]
//	jitsim scenarios
//	jitsim cpus
//	jitsim version
//	jitsim help [command]
//
// jitsim's own options are GNU-style --long options; VM options are java's (-XX:…, -X…, -D…,
// @argfile, -version), so the two never collide. The first bare word names the scenario (or a
// scenario file) and everything after it belongs to the scenario.
package main

import "os"

// main turns a panic anywhere on the main goroutine into a jitsim-bug report with the
// command line to reproduce it (exit 70), never a bare Go stack trace.
func main() {
	os.Exit(guardInternal(append([]string{"jitsim"}, os.Args[1:]...), os.Stderr, os.LookupEnv, func() int {
		return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)
	}))
}
