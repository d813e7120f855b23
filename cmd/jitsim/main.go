// Command jitsim runs jitsim's scenarios on a model of HotSpot's tiered runtime, taking the
// same VM options as java.
//
//	jitsim run [--jdk=8|8u|17|21|25] [--cpu=NAME] [--clock=wall|model] [VM options…] (SCENARIO [args…] | -version)
//	jitsim explain [--jdk=…] [--cpu=NAME] [--json] [VM options…] (Class::method | intrinsic ID)
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

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv))
}
