#!/bin/sh
# Records how java's PrintFlagsFinal moves with the options that steer its CPU and collector
# ergonomics: for each option line below, the rows that differ from the run without options
# (SharedBaseAddress aside: it is where this run's archive was mapped). Run by hand, from the
# module root, once per JVM:
#   sh flags/testdata/jvmflags/record-ergonomics.sh /path/to/bin/java
# It writes flags/testdata/jvmflags/ergonomics/jdk-VERSION.txt.
set -eu
java=$1
dir=flags/testdata/jvmflags/ergonomics
mkdir -p "$dir"
version=$("$java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p')
out="$dir/jdk-$version.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table() { "$java" -XX:+UnlockDiagnosticVMOptions -XX:+UnlockExperimentalVMOptions "$@" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -v ' SharedBaseAddress ' | grep '^ .* = '; }
table >"$tmp/base"
{
	echo "# java -XX:+UnlockDiagnosticVMOptions -XX:+UnlockExperimentalVMOptions OPTIONS -XX:+PrintFlagsFinal -version"
	echo "# on $version, $(grep -m1 '^vendor_id' /proc/cpuinfo | sed 's/.*: //'), $(nproc) processors,"
	echo "# $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo) of memory: per '== OPTIONS' line, the rows that differ from the run"
	echo "# without options (jdk-$version.final.txt)."
	while read -r opts; do
		# shellcheck disable=SC2086
		if ! table $opts >"$tmp/v"; then
			continue # an option the release refuses (17's biased locking on 25)
		fi
		echo "== $opts"
		grep -vxF -f "$tmp/base" "$tmp/v" || true
	done <<'L'
-XX:ActiveProcessorCount=1
-XX:ActiveProcessorCount=4
-XX:ActiveProcessorCount=16
-XX:ActiveProcessorCount=64
-XX:UseAVX=0
-XX:UseAVX=1
-XX:UseAVX=2
-XX:UseSSE=2
-XX:UseSSE=3
-XX:-UseBMI1Instructions
-XX:-UseBMI2Instructions
-XX:+UseSerialGC
-XX:+UseParallelGC
-XX:+UseParallelGC -XX:ActiveProcessorCount=1
-XX:+UseZGC
-XX:+UseZGC -XX:ActiveProcessorCount=16
-XX:+UseShenandoahGC
-XX:+UseShenandoahGC -XX:ActiveProcessorCount=16
-XX:+UseShenandoahGC -Xmx100m
-XX:+UseShenandoahGC -Xmx1g
-XX:+UseZGC -Xmx128m
-XX:+UseZGC -Xmx1g
-XX:+UseZGC -Xmx1g -XX:ConcGCThreads=4
-XX:MaxMetaspaceSize=64m
-XX:MetaspaceSize=1g -XX:MaxMetaspaceSize=512m
-XX:+UseG1GC -XX:ActiveProcessorCount=1
-XX:ParallelGCThreads=1
-XX:MaxGCPauseMillis=50
-Xmx64m
-Xmx1g
-Xmx3g
-Xmx8g
-Xmx10g
-Xmx20g
-Xmx40g
-Xms1g
-Xmx1g -XX:ActiveProcessorCount=1
-Xint
-XX:TieredStopAtLevel=1
-XX:TieredStopAtLevel=3
-XX:-TieredCompilation
-XX:CompilationMode=quick-only
-XX:CompilationMode=high-only
-XX:ReservedCodeCacheSize=512m
-XX:+UseBiasedLocking
L
} >"$out"
echo "wrote $out"
