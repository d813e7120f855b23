#!/usr/bin/env bash
# Regenerates series.tsv.gz, the series the R changepoint goldens are
# computed from: model-clock studies (deterministic), wall-clock studies and
# real-JVM studies (java 17 and 25) of jitsim's benchmark scenarios. Then run
# driver.R on it (README.md). Usage: gen.sh JITSIM JAVA17 JAVA25 WORKDIR
set -euo pipefail
jitsim=$1 java17=$2 java25=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
dirs=()
study() { # name, then warmup arguments
	local name=$1
	shift
	"$jitsim" warmup --out "$work/$name" "$@" >/dev/null
	dirs+=("$work/$name")
}
sets=(--compare '' --compare -XX:TieredStopAtLevel=1 --compare '-XX:+UnlockDiagnosticVMOptions -XX:-UseGHASHIntrinsics')
# Model clock: 6 CPU models × 6 workloads × 3 option sets, one run each.
for cpu in sandybridge-i5 haswell-e5-2660v3 skylake-avx2 icelake-server neoverse-n1 apple-m1; do
	study "model-$cpu-gcm1k" --clock=model --cpu=$cpu "${sets[@]}" -DdataSize=1024 AESGCMBench 0 200 10
	study "model-$cpu-gcm16k" --clock=model --cpu=$cpu "${sets[@]}" -DdataSize=16384 AESGCMBench 0 300 2
	study "model-$cpu-cbc" --clock=model --cpu=$cpu "${sets[@]}" -Dmode=CBC -DdataSize=4096 ModeLoop 0 250 5
	study "model-$cpu-ctr" --clock=model --cpu=$cpu "${sets[@]}" -Dmode=CTR -DdataSize=2048 ModeLoop 0 200 8
	study "model-$cpu-cbcthr" --clock=model --cpu=$cpu "${sets[@]}" CBCThroughput 0 150 20
	study "model-$cpu-jdk8u" --clock=model --cpu=$cpu --jdk=8u "${sets[@]}" -DdataSize=1024 AESGCMBench 0 400 5
done
# Wall clock: 4 workloads × 3 option sets × 3 forks on jitsim's own clock.
study wall-gcm1k --forks=3 "${sets[@]}" -DdataSize=1024 AESGCMBench 0 200 10
study wall-cbc --forks=3 "${sets[@]}" -Dmode=CBC -DdataSize=4096 ModeLoop 0 250 5
study wall-ctr --forks=3 "${sets[@]}" -Dmode=CTR -DdataSize=2048 ModeLoop 0 200 8
study wall-cbcthr --forks=3 "${sets[@]}" CBCThroughput 0 150 20
# Real JVMs: 2 JVMs × 2 workloads × 3 option sets × 9 forks (the studies also
# hold jitsim's own wall-clock runs beside them).
for j in 17:"$java17" 25:"$java25"; do
	study "jvm${j%%:*}-gcm1k" --forks=9 --jvm="${j#*:}" "${sets[@]}" -DdataSize=1024 AESGCMBench 0 200 20
	study "jvm${j%%:*}-cbc" --forks=9 --jvm="${j#*:}" "${sets[@]}" -Dmode=CBC -DdataSize=4096 ModeLoop 0 200 10
done
cd "$here/../../.."
go run ./warmup/testdata/rcpt/mkseries -o "$here/series.tsv.gz" "${dirs[@]}"
