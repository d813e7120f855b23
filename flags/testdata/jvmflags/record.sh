#!/bin/sh
# record.sh: record the flag tables of real JVMs for flags/gen_recorded.go.
#
# Usage, from the module root, once per JVM (run by hand; go generate never runs it):
#
#   sh flags/testdata/jvmflags/record.sh /path/to/jdk/bin/java
#
# It runs the JVM with both unlock options and each of -XX:+PrintFlagsFinal,
# -XX:+PrintFlagsInitial and -XX:+PrintFlagsRanges (and nothing else) and stores the raw
# standard output as jdk-VERSION.{final,initial,ranges}.txt next to this script, VERSION being
# the java.version the JVM reports (17.0.15, 25.0.3), and its -version banner as
# jdk-VERSION.version.txt. jdk-VERSION.intrinsics.txt lists the intrinsic names the JVM accepts
# in -XX:ControlIntrinsic and -XX:DisableIntrinsic (see intrinsics/main.go), and
# jdk-VERSION.set.txt what the JVM printed when each flag was set alone to the value
# PrintFlagsFinal shows (see setflags/main.go; about 900 runs), and jdk-VERSION.special.txt the
# warnings of the obsolete flags and deprecated aliases, which PrintFlagsFinal does not list (see
# the step at the end). Remove the files of an older update of the same release before
# running go generate: the generator wants one recording per feature release.
set -eu
java=${1:?usage: record.sh /path/to/java}
dir=$(dirname "$0")
banner=$("$java" -version 2>&1)
version=$(printf '%s\n' "$banner" | sed -n '1s/^[^"]*"\([^"]*\)".*/\1/p')
[ -n "$version" ] || { echo "record.sh: cannot read the version of $java" >&2; exit 1; }
printf '%s\n' "$banner" >"$dir/jdk-$version.version.txt"
# The system modules (jdk-VERSION.modules.txt) and the -Xlog usage, for its list of log tags
# (jdk-VERSION.xlog-help.txt).
(cd "${TMPDIR:-/tmp}" && "$java" --list-modules) >"$dir/jdk-$version.modules.txt"
(cd "${TMPDIR:-/tmp}" && "$java" -Xlog:help) >"$dir/jdk-$version.xlog-help.txt"
# Each system module's descriptor, a block per module (jdk-VERSION.descriptors.txt: its
# packages and dependences), and the modules the default boot layer resolves
# (jdk-VERSION.boot-layer.txt, from --show-module-resolution's root, requires and binds lines).
for m in $(sed 's/@.*//' "$dir/jdk-$version.modules.txt"); do
	(cd "${TMPDIR:-/tmp}" && "$java" --describe-module "$m") && echo
done >"$dir/jdk-$version.descriptors.txt"
(cd "${TMPDIR:-/tmp}" && "$java" --show-module-resolution -version 2>&1) |
	awk '$1 == "root" { print $2 } $2 == "requires" || $2 == "binds" { print $1; print $3 }' |
	sort -u >"$dir/jdk-$version.boot-layer.txt"
for what in Final Initial Ranges; do
	out="$dir/jdk-$version.$(echo "$what" | tr 'A-Z' 'a-z').txt"
	# Run from an empty directory: a .hotspotrc would add a warning line.
	(cd "${TMPDIR:-/tmp}" && "$java" -XX:+UnlockDiagnosticVMOptions -XX:+UnlockExperimentalVMOptions \
		"-XX:+PrintFlags$what" -version 2>/dev/null) >"$out"
	echo "wrote $out ($(wc -l <"$out") lines)"
done
out="$dir/jdk-$version.intrinsics.txt"
go run ./flags/testdata/jvmflags/intrinsics "$java" >"$out"
echo "wrote $out ($(wc -l <"$out") names)"
out="$dir/jdk-$version.set.txt"
go run ./flags/testdata/jvmflags/setflags "$java" "$dir/jdk-$version.final.txt" >"$out"
echo "wrote $out ($(grep -c '^exit ' "$out") runs that printed something)"
# jdk-VERSION.range.txt: each flag with a finite range set just outside it (see
# setflags/ranges.go): which ranges HotSpot checks only after parsing every option.
out="$dir/jdk-$version.range.txt"
go run ./flags/testdata/jvmflags/setflags -ranges "$java" "$dir/jdk-$version.ranges.txt" >"$out"
echo "wrote $out ($(grep -c '^-XX:' "$out") runs)"
# The obsolete flags ("Ignoring option X; support was removed in V") and the deprecated aliases
# ("... Use option Y instead.") are in HotSpot's table of special flags, not in PrintFlagsFinal.
# Every flag-like name in libjvm.so that PrintFlagsFinal does not list is tried at once as
# -XX:+NAME, with IgnoreUnrecognizedVMOptions so the unknown ones stay silent; the warnings
# that remain name the special flags.
out="$dir/jdk-$version.special.txt"
libjvm=$(dirname "$(readlink -f "$(command -v "$java")")")/../lib/server/libjvm.so
tmp=$(mktemp -d)
awk 'NR > 1 { print $2 }' "$dir/jdk-$version.final.txt" | sort -u >"$tmp/known"
strings -n 4 "$libjvm" | grep -E '^[A-Z][A-Za-z0-9_]{3,80}$' | sort -u | comm -23 - "$tmp/known" |
	sed 's/^/-XX:+/' >"$tmp/probe"
# shellcheck disable=SC2046 # one argument per line of the probe file
(cd "$tmp" && "$java" -XX:+IgnoreUnrecognizedVMOptions $(cat "$tmp/probe") -version 2>&1) |
	grep -E '(Ignoring option .*; support was removed in|Use option [A-Za-z0-9_]+ instead\.$)' | sort -u >"$out"
rm -rf "$tmp"
echo "wrote $out ($(wc -l <"$out") special flags)"
