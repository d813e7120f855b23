package serve

// TourPage is one page of the guided tour: a seed post's comparison as an A/B request at
// the playground's sizes, what the change did, and the number the post published. jitsim's
// number is not here: the page computes it by running the request on the model clock.
type TourPage struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Source is where the published numbers come from (the scenario file in examples/ that
	// carries them, and the post).
	Source string `json:"source"`
	// What the change did and what to look for, in a few sentences.
	What string `json:"what"`
	// Request runs A (the baseline) and B; the ratio is B's time per operation over A's.
	Request Request `json:"request"`
	// Published is the post's ratio in the same direction, computed from its two numbers.
	Published Published `json:"published"`
	Permalink string    `json:"permalink"`
}

// Published is a post's pair of numbers: A's and B's, in their unit, as the post gave them.
type Published struct {
	A, B float64
	Unit string `json:"unit"`
	// Throughput says the unit is operations per time (ops/s): B/A in time is A/B in it.
	Throughput bool    `json:"throughput"`
	Ratio      float64 `json:"ratio"`
	// Note says how the playground's run differs from the post's (smaller sizes, a named
	// CPU model for an unnamed one).
	Note string `json:"note"`
}

func published(a, b float64, unit string, throughput bool, note string) Published {
	r := b / a
	if throughput {
		r = a / b
	}
	return Published{A: a, B: b, Unit: unit, Throughput: throughput, Ratio: r, Note: note}
}

func ab(release, cpu string, a, b []string) Request {
	return Request{Command: Command{Release: release, CPU: cpu, Argv: a}, Compare: &Command{Release: release, CPU: cpu, Argv: b}}
}

// Tour is the guided tour, oldest change first. The published numbers are those of the
// scenario files in examples/ (each with its source); docs/seeds.md compares them with
// jitsim's at the posts' own sizes.
var Tour = []TourPage{
	{
		ID: "7184394", Title: "JDK-7184394: AES-NI reaches C2 code (JDK 8, 2012)",
		Source: "examples/7184394-cbc-1thread.toml: hotspot-compiler-dev, 2012-10-25, reply to the 7184394 changeset",
		What: "JDK 8 gave C2 intrinsics for AESCrypt's block methods and for CipherBlockChaining: once a caller is " +
			"C2 code, a call to encryptBlock or to the CBC loop goes to a stub built on the AES-NI instructions " +
			"instead of the table-driven Java rounds. Turning UseAES off keeps every call in Java. Watch the B " +
			"curve settle far above A's, and the dispatch tree of _aescrypt_encryptBlock name UseAESIntrinsics.",
		Request: ab("8", "sandybridge-i5",
			[]string{"-DmsgSize=10240", "CBCThroughput", "10", "5", "100"},
			[]string{"-XX:-UseAES", "-XX:-UseAESIntrinsics", "-DmsgSize=10240", "CBCThroughput", "10", "5", "100"}),
		Published: published(34071.202, 6476.25, "ops/s", true, "the post's CPU as a named model; iterations as the scenario file's"),
	},
	{
		ID: "8073108", Title: "JDK-8073108: GHASH on PCLMULQDQ (8u backport, 2015)",
		Source: "examples/8073108-ghash-gcm.toml: [8u] RFR 8073108, console output of TestAESMain on a Xeon E5-2660 v3",
		What: "AES was already an intrinsic, so GCM's cost moved to GHASH, the multiplication in GF(2^128) that " +
			"authenticates every block. The change added a carry-less-multiply stub for GHASH.processBlocks. " +
			"With -XX:-UseGHASHIntrinsics the same program multiplies bit by bit in Java. The post timed " +
			"10000-byte messages 100000 times; the playground runs 1 KiB messages 5000 times, after 1000 warm-up runs.",
		Request: ab("8u", "haswell-e5-2660v3",
			[]string{"-Dmode=GCM", "-DmsgSize=1024", "TestAESMain", "5000", "1000"},
			[]string{"-XX:-UseGHASHIntrinsics", "-Dmode=GCM", "-DmsgSize=1024", "TestAESMain", "5000", "1000"}),
		Published: published(4092.488144, 18781.033722, "ms (TestAESEncode runtime)", false, "1 KiB messages and 5000 iterations instead of 10000 B and 100000"),
	},
	{
		ID: "8131062", Title: "JDK-8131062: GHASH on PMULL for aarch64 (8u backport, 2021)",
		Source: "examples/8131062-aarch64-ghash.toml: (8u) RFR 8131062, jdk8u-dev 2021-08-16, AESGCMBench on Graviton2",
		What: "The same idea on arm64: a GHASH stub using the PMULL polynomial multiply of the Armv8 crypto " +
			"extension. The model clock prices a Neoverse N1 on any host, so this amd64 machine can show what " +
			"the Graviton2 did. The curve is JMH iterations of AESGCMBench decrypting 1024-byte messages.",
		Request: ab("8u", "neoverse-n1",
			[]string{"-Dop=decrypt", "-DdataSize=1024", "AESGCMBench", "5", "5", "2000"},
			[]string{"-XX:-UseGHASHIntrinsics", "-Dop=decrypt", "-DdataSize=1024", "AESGCMBench", "5", "5", "2000"}),
		Published: published(239163.89, 49461.421, "ops/s (decrypt, 1024 B)", true, "iterations as the scenario file's"),
	},
	{
		ID: "8314901", Title: "JDK-8314901: AES-GCM interleaved on AVX2 (JDK 22, 2023)",
		Source: "examples/8314901-avx2-gcm.toml: openjdk/jdk PR 15410 review, AESGCMBench decrypt 8192 B",
		What: "Separate CTR and GHASH stubs pass over the data twice; the AVX2 stub interleaves the AES rounds " +
			"of one group of blocks with the GHASH of the previous one, so both units stay busy. " +
			"DisableIntrinsic=_galoisCounterMode_AESCrypt takes the combined stub away and leaves the two " +
			"separate ones. The post's desktop CPU is not named: the playground takes an Ice Lake server limited " +
			"to AVX2, as the post's -XX:UseAVX=2 did.",
		Request: ab("25", "icelake-server",
			[]string{"-XX:+UnlockDiagnosticVMOptions", "-XX:UseAVX=2", "-Dop=decrypt", "-DdataSize=8192", "AESGCMBench", "5", "5", "2000"},
			[]string{"-XX:+UnlockDiagnosticVMOptions", "-XX:UseAVX=2", "-XX:DisableIntrinsic=_galoisCounterMode_AESCrypt", "-Dop=decrypt", "-DdataSize=8192", "AESGCMBench", "5", "5", "2000"}),
		Published: published(670014.543, 526274.678, "ops/s (decrypt, 8192 B)", true, "an Ice Lake server model limited to AVX2 for the post's unnamed desktop CPU"),
	},
	{
		ID: "poc", Title: "The 2018 proof of concept: GCM intrinsics in the interpreter and C1",
		Source: "examples/haley-gcm-all-tiers.toml: hotspot-compiler-dev, 2018-11-30, AESGCMUpdateAAD2 with the patch in each tier",
		What: "Stock HotSpot reaches a crypto stub only from C2 code, so a short-lived program pays for GHASH in " +
			"Java until its callers compile — the long warm-up the thread complained about. The proof of concept " +
			"let the interpreter and C1 call the stubs too (jitsim: the experimental flag " +
			"UseInterpreterAndC1CryptoIntrinsics). With it, even -Xint runs at nearly C2's speed from the first " +
			"operation: A is the patch with every tier, B the patch in the interpreter alone. Remove the flag " +
			"from A to see the warm-up it took away.",
		Request: ab("17", "icelake-server",
			[]string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseInterpreterAndC1CryptoIntrinsics", "-Dop=decrypt", "-DaadSize=65536", "AESGCMUpdateAAD", "5", "5", "20"},
			[]string{"-XX:+UnlockExperimentalVMOptions", "-XX:+UseInterpreterAndC1CryptoIntrinsics", "-Xint", "-Dop=decrypt", "-DaadSize=65536", "AESGCMUpdateAAD", "5", "5", "20"}),
		Published: published(1333.863, 1426.275, "us/op (1 MiB AAD)", false, "64 KiB of AAD instead of 1 MiB; an Ice Lake server model for the post's unnamed machine"),
	},
}
