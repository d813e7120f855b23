#!/bin/sh
# run.sh records the JVM measurements behind jitsim's host cost profile.
# Usage: sh run.sh OUTDIR [RUN...]   (needs javac/java 17 on PATH and JAVA25 set to a JDK 25
# java); with RUN names, only those runs are recorded. With ROWS=a,b set, each run times only
# those rows, into OUTDIR/RUN+a,b.txt beside the run's full recording (gen.py merges them).
# Cost.java is jvmharness's; it is compiled with javac here rather than run by the source
# launcher, so that -XX:+CITime's compile speeds count Cost's compiles and not javac's.
set -eu
out=${1:?usage: run.sh OUTDIR [RUN...]}
shift
only=" $* "
mkdir -p "$out/classes"
javac -d "$out/classes" "$(dirname "$0")/../../../../jvmharness/Cost.java"
J17=java
J25=${JAVA25:?set JAVA25 to a JDK 25 java binary}
# The heap is fixed and touched at start-up, as jvmharness.Options runs every harness JVM:
# a heap that grows while the loop allocates charges its page faults to the timed thread.
P="-XX:+AlwaysPreTouch -Xms256m -Xmx256m -DwarmMs=1500 -DmeasureMs=1000 -XX:+CITime --add-opens=java.base/com.sun.crypto.provider=ALL-UNNAMED -cp $out/classes"
rows=${ROWS:-}
D="-XX:+UnlockDiagnosticVMOptions"
NOINTR="$D -XX:-UseAESIntrinsics -XX:-UseAESCTRIntrinsics -XX:-UseGHASHIntrinsics"
# Each run also prints -XX:+CITime (compile speed, wall-clock timers) and the load average.
run() {
	name=$1; shift
	case "$only" in "  " | *" $name "*) ;; *) return 0 ;; esac
	file=$out/$name.txt
	if [ -n "$rows" ]; then file=$out/$name+$rows.txt; set -- "$@" "-Donly=$rows"; fi
	echo "== $name: $*" >"$file"; "$@" Cost >>"$file" 2>&1
	echo "load: $(cat /proc/loadavg)" >>"$file"
}
run jdk17_interp      $J17 $P -Xint
run jdk17_c1_l1       $J17 $P -XX:TieredStopAtLevel=1
run jdk17_c1_l2       $J17 $P -XX:TieredStopAtLevel=2
run jdk17_c1_l3       $J17 $P -XX:TieredStopAtLevel=3
run jdk17_c2_nointr   $J17 $P $NOINTR
run jdk17_c2_default  $J17 $P
run jdk17_c2_avx2     $J17 $P -XX:UseAVX=2
run jdk17_c2_avx0     $J17 $P -XX:UseAVX=0
run jdk25_c2_default  $J25 $P
run jdk25_c2_avx2     $J25 $P -XX:UseAVX=2
# JDK 25's GCM without its combined stub: CTR and GHASH stubs on 512-byte chunks, the path
# whose GHASH the gcm-enc − ctr difference prices (only those two rows are timed).
run jdk25_c2_avx2_split $J25 $P -Donly=gcm-enc,ctr -XX:UseAVX=2 $D -XX:DisableIntrinsic=_galoisCounterMode_AESCrypt
